"""The browser page answers only under the names it is served on: no DNS rebinding.

A page at ``http://evil.example:PORT`` whose name is made to resolve to the host reaches the room
from the browser as its own origin: its requests carry ``Host: evil.example:PORT`` and a matching
``Origin``. Sent here as that browser would send them, to a real page on 127.0.0.1, they are
refused, every path of it (the page, its assets, the websocket), while this machine's own names
and a ``--web-origin`` host are served.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio

from cardtui.server.app import Running
from cardtui.server.web.site import WebServer, host_name, local_target, open_socket
from tests.test_web import Guest

REFUSED = "This page is not served under that name: open the room's own address."


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


@pytest_asyncio.fixture
async def page(server: Running) -> AsyncIterator[WebServer]:
    web = WebServer(local_target("127.0.0.1", server.port), origins=["https://cards.example.org"])
    await web.start(open_socket("127.0.0.1", 0))
    try:
        yield web
    finally:
        await web.stop()


async def status(http: aiohttp.ClientSession, url: str, host: str) -> tuple[int, str]:
    async with http.get(url, headers={"Host": host}) as answer:
        return answer.status, await answer.text()


async def test_a_rebound_name_is_refused_even_with_its_own_origin(page: WebServer, http: aiohttp.ClientSession) -> None:
    base = f"http://127.0.0.1:{page.port}"
    for evil in (f"evil.example:{page.port}", "evil.example", f"127.0.0.1.evil.example:{page.port}",
                 f"cards.example.org.evil.example:{page.port}", f"[::ffff:7f00:1]x:{page.port}"):
        for path in ("/", "/static/css/xterm.css", "/ws"):
            said = await status(http, base + path, evil)
            assert said == (403, REFUSED), (evil, path, said)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"ws://127.0.0.1:{page.port}/ws",
                                  headers={"Host": evil, "Origin": f"http://{evil}"})
        assert refused.value.status == 403, evil
    assert not page.sessions, "no session was opened for a rebound page"


async def test_the_machines_own_names_and_a_web_origin_host_are_served(
    page: WebServer, http: aiohttp.ClientSession
) -> None:
    base = f"http://127.0.0.1:{page.port}/"
    hostname = socket.gethostname().lower()
    for name in ("127.0.0.1", "localhost", "LOCALHOST", hostname, f"{hostname}.local", "cards.example.org",
                 "[0:0:0:0:0:0:0:1]"):
        code, text = await status(http, base, f"{name}:{page.port}")
        assert code == 200 and "websocket" in text.lower(), (name, code, text[:200])
    guest = Guest(await http.ws_connect(f"ws://127.0.0.1:{page.port}/ws",
                                        headers={"Host": f"localhost:{page.port}",
                                                 "Origin": f"http://localhost:{page.port}"}))
    try:
        await guest.until("Your name at the tables")
    finally:
        await guest.ws.close()


def test_the_name_of_a_host_header() -> None:
    assert host_name("Evil.Example:8080") == "evil.example"
    assert host_name("[FE80::1%eth0]:8080") == "fe80::1"
    assert host_name("[::1]") == "::1" and host_name("127.0.0.1") == "127.0.0.1"
    assert host_name("") is None and host_name(":8080") is None and host_name("[::1") is None
