"""Guests in a browser, without the browser: the page, its assets and its websocket, over real HTTP.

A real table server on 127.0.0.1 and the real web endpoint on a free port; the websocket is
driven the way textual-serve's page drives it (``["stdin", text]``, ``["resize", {...}]``), and
the app's terminal output is replayed into a screen (pyte) to read what a guest would see.
"""

from __future__ import annotations

import asyncio
import re
import signal
import ssl
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pyte
import pytest
import pytest_asyncio
from aiohttp.web import WebSocketResponse

from cardtui.certs import generate
from cardtui.server.app import Running
from cardtui.server.ops.announce import Announcer
from cardtui.server.web.site import (
    GuestSession,
    WebLimits,
    WebServer,
    describe,
    local_target,
    open_socket,
    session_command,
)
from tests.waiting import PATIENCE, eventually
from tools.web_shots import CsiStream

ASSET = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url\(["']?([^"')]+)""")


class Guest:
    """One browser tab's websocket, and the screen its terminal output draws."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, width: int = 80, height: int = 24) -> None:
        self.ws = ws
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.received: list[bytes] = []
        """The terminal output as it came, frame by frame."""

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def until(self, wanted: str, timeout: float = PATIENCE) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while wanted not in self.text:
            left = end - loop.time()
            if left <= 0:
                raise AssertionError(f"{wanted!r} never showed; the screen:\n{self.text}")
            msg = await asyncio.wait_for(self.ws.receive(), left)
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.received.append(msg.data)
                self.stream.feed(msg.data)
            elif msg.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the session ended ({msg.type.name} {msg.extra!r}) before {wanted!r}")

    async def type(self, text: str) -> None:
        await self.ws.send_json(["stdin", text])


@pytest_asyncio.fixture
async def web(server: Running) -> AsyncIterator[WebServer]:
    guests = WebServer(local_target("127.0.0.1", server.port), limits=WebLimits(per_address=2, total=8))
    await guests.start(open_socket("127.0.0.1", 0))
    try:
        yield guests
    finally:
        await guests.stop()


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def open_guest(http: aiohttp.ClientSession, url: str, **kwargs: object) -> Guest:
    ws = await http.ws_connect(f"{url}?width=80&height=24", **kwargs)  # type: ignore[arg-type]
    await ws.send_json(["resize", {"width": 80, "height": 24}])
    return Guest(ws)


async def test_the_page_and_its_assets_come_from_this_server_only(web: WebServer, http: aiohttp.ClientSession) -> None:
    base = f"http://127.0.0.1:{web.port}"
    async with http.get(f"{base}/") as r:
        assert r.status == 200
        page = await r.text()
    assert 'class="textual-terminal"' in page and "/static/js/textual.js" in page
    assets = [a or b for a, b in ASSET.findall(page)]
    assert any(a.endswith(".ttf") for a in assets), "the font is served, not fetched from a CDN"
    assert not [a for a in assets if a.startswith(("http:", "https:", "//"))], assets
    assert "fonts.googleapis" not in page
    for asset in assets:
        async with http.get(f"{base}{asset}") as r:
            assert r.status == 200, asset
            assert len(await r.read()) > 1000, asset
    async with http.get(f"{base}/static/") as r:
        assert r.status in (403, 404), "no directory listing"


async def test_a_guest_types_a_name_and_reaches_the_lobby(
    web: WebServer, server: Running, http: aiohttp.ClientSession
) -> None:
    guest = await open_guest(http, f"ws://127.0.0.1:{web.port}/ws")
    try:
        await guest.until("Your name at the tables")
        await guest.type("   ")  # nothing visible: refused with a sentence, the prompt stays
        await guest.type("\r")
        await guest.until("at least one visible character")
        await guest.type("[red]ana\r")  # markup: shown as plain text
        await guest.until("games: Cacho")  # the lobby heard from the table server
        assert "No tables yet" in guest.text
        assert f"[red]ana @ 127.0.0.1:{server.port}" in guest.text
        assert "People" in guest.text and "Watching" in guest.text
    finally:
        await guest.ws.close()


def drawn(screen: pyte.Screen) -> tuple[object, ...]:
    """All a screen holds: every cell (its character, colours and styles), the cursor, the modes and margins."""
    cells = tuple(tuple(screen.buffer[y][x] for x in range(screen.columns)) for y in range(screen.lines))
    cursor = screen.cursor
    return cells, cursor.x, cursor.y, cursor.attrs, cursor.hidden, frozenset(screen.mode), screen.margins, screen.title


async def test_the_quick_stream_draws_what_pytes_own_parser_does(
    web: WebServer, http: aiohttp.ClientSession
) -> None:
    """``tools.web_shots.CsiStream`` (the browser tests read the page's terminal with it) dispatches a whole control
    sequence at once: a Textual app's real output, the lobby's first frames, leaves the same screen after every
    frame as pyte's parser does, in the frames as they came and cut at every byte (a sequence split between two
    frames goes through the parser)."""
    guest = await open_guest(http, f"ws://127.0.0.1:{web.port}/ws")
    try:
        await guest.until("Your name at the tables")
        await guest.type("bia\r")
        await guest.until("games: Cacho")
    finally:
        await guest.ws.close()
    frames = guest.received
    assert sum(map(len, frames)) > 10_000 and any(b"\x1b[38;2;" in f for f in frames), "colours and moves to read"
    whole, parsed = pyte.Screen(80, 24), pyte.Screen(80, 24)
    quick, slow = CsiStream(whole), pyte.ByteStream(parsed)
    for frame in frames:
        quick.feed(frame)
        slow.feed(frame)
        assert drawn(whole) == drawn(parsed)
    cut = pyte.Screen(80, 24)
    one_by_one = CsiStream(cut)
    for byte in b"".join(frames):
        one_by_one.feed(bytes([byte]))
    assert drawn(cut) == drawn(parsed)
    assert "games: Cacho" in "\n".join(whole.display)


async def test_one_address_gets_only_so_many_sessions(web: WebServer, http: aiohttp.ClientSession) -> None:
    url = f"ws://127.0.0.1:{web.port}/ws"
    first, second = await open_guest(http, url), await open_guest(http, url)
    try:
        await first.until("Your name at the tables")
        await second.until("Your name at the tables")
        third = await http.ws_connect(url)
        refused = await third.receive(timeout=10)
        assert refused.type == aiohttp.WSMsgType.CLOSE
        assert third.close_code == aiohttp.WSCloseCode.POLICY_VIOLATION
        assert refused.extra == "This address already has 2 sessions open: close one to open another."
        assert web.open_sessions == 2
    finally:
        await first.ws.close()
    await eventually(lambda: web.open_sessions < 2, "the closed tab's place free again")
    fourth = await open_guest(http, url)
    try:
        await fourth.until("Your name at the tables")
    finally:
        await fourth.ws.close()
        await second.ws.close()


async def test_with_a_certificate_the_page_is_https_and_the_socket_wss(
    server: Running, http: aiohttp.ClientSession, tmp_path: Path
) -> None:
    cert, key = generate(["localhost"])
    (tmp_path / "c.pem").write_bytes(cert)
    (tmp_path / "k.pem").write_bytes(key)
    guests = WebServer(local_target("127.0.0.1", server.port), tls=(tmp_path / "c.pem", tmp_path / "k.pem"))
    await guests.start(open_socket("127.0.0.1", 0))
    trust = ssl.create_default_context(cadata=cert.decode())
    try:
        async with http.get(f"https://127.0.0.1:{guests.port}/", ssl=trust) as r:
            assert r.status == 200
            assert f'data-session-websocket-url="wss://127.0.0.1:{guests.port}/ws"' in await r.text()
        with pytest.raises(aiohttp.ClientError):  # plain HTTP is not answered as a page
            async with http.get(f"http://127.0.0.1:{guests.port}/", timeout=aiohttp.ClientTimeout(total=5)) as r:
                await r.text()
        guest = await open_guest(http, f"wss://127.0.0.1:{guests.port}/ws", ssl=trust)
        try:
            await guest.until("Your name at the tables")
        finally:
            await guest.ws.close()
    finally:
        await guests.stop()


def sessions(*addresses: str) -> set[GuestSession]:
    return {GuestSession(address, WebSocketResponse()) for address in addresses}


def test_the_room_has_a_cap_for_all_addresses_too() -> None:
    guests = WebServer("127.0.0.1:1", limits=WebLimits(per_address=4, total=3))
    guests.sessions = sessions("192.0.2.1", "192.0.2.1", "192.0.2.2")
    full = "The room is full: every browser seat on this server is taken. Try again later."
    assert guests.refusal("192.0.2.3") == full
    guests.sessions = sessions("192.0.2.1", "192.0.2.1")
    assert guests.refusal("192.0.2.3") is None
    guests.sessions = sessions("192.0.2.1", "192.0.2.1", "192.0.2.2")
    busy = WebServer("127.0.0.1:1", limits=WebLimits(per_address=1000, total=5000))
    busy.sessions = sessions(*["2001:db8::1"] * 1000)
    reasons = [busy.refusal("2001:db8::1"), guests.refusal("192.0.2.3") or "", "The server is shutting down."]
    assert all(0 < len(r.encode()) <= 123 for r in reasons), "a websocket close reason fits in 123 bytes"


def test_urls_say_when_they_reach_this_machine_only() -> None:
    assert describe("127.0.0.1", 8080) == (
        "http://127.0.0.1:8080/ (this machine only; --host 0.0.0.0 opens it to the LAN)"
    )
    assert describe("192.0.2.7", 8443, tls=True) == "https://192.0.2.7:8443/"
    assert local_target("0.0.0.0", 50051) == "127.0.0.1:50051"
    assert local_target("::", 50051) == "[::1]:50051"
    assert session_command("127.0.0.1:1") == ["--lang", "en", "connect", "127.0.0.1:1", "--ask-name"]
    assert session_command("h:1", Path("/x y/c.pem"))[-2:] == ["--tls-ca", "/x y/c.pem"]


def test_the_lan_announcement_carries_the_page_url() -> None:
    with_web = Announcer(50051, lambda: 2, addresses=["192.0.2.7"], web="http://192.0.2.7:8080/")
    assert with_web.properties(2)["web"] == "http://192.0.2.7:8080/"
    assert "web" not in Announcer(50051, lambda: 2, addresses=["192.0.2.7"]).properties(2)


def test_serve_web_prints_the_page_and_stops_cleanly(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--web", "--web-port", "0",
         "--db", str(tmp_path / "s.db"), "--no-announce", "--log-level", "warning"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"web: (http://127\.0\.0\.1:\d+/) \(this machine only", line)
        assert "server on 127.0.0.1:" in line and match, line

        async def fetch() -> str:
            async with aiohttp.ClientSession() as session, session.get(match.group(1)) as r:
                return await r.text()

        assert "textual-terminal" in asyncio.run(fetch())
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    assert proc.returncode == 0


def test_serve_web_with_tls_reaches_the_lobby_over_wss_and_grpc_tls(tmp_path: Path) -> None:
    cert, key = generate(["localhost"])
    (tmp_path / "c.pem").write_bytes(cert)
    (tmp_path / "k.pem").write_bytes(key)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--web", "--web-port", "0",
         "--tls-cert", str(tmp_path / "c.pem"), "--tls-key", str(tmp_path / "k.pem"),
         "--db", str(tmp_path / "s.db"), "--no-announce", "--log-level", "warning"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"web: https://127\.0\.0\.1:(\d+)/", line)
        assert ", TLS" in line and match, line

        async def visit() -> str:
            trust = ssl.create_default_context(cadata=cert.decode())
            async with aiohttp.ClientSession() as session:
                guest = await open_guest(session, f"wss://127.0.0.1:{match.group(1)}/ws", ssl=trust)
                try:
                    await guest.until("Your name at the tables")
                    await guest.type("bea\r")
                    await guest.until("games: Cacho")  # the session's client reached the server over TLS
                    return guest.text
                finally:
                    await guest.ws.close()

        assert "bea @ 127.0.0.1:" in asyncio.run(visit())
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    assert proc.returncode == 0
