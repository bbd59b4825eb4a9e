"""A browser guest cannot take the host down: a real ``cardtui serve --web`` on 127.0.0.1.

The guest here is a script, as an attacker's would be: it sends the sizes and messages the
page never would, leaves without a goodbye, and comes from another site's page. Its process
is found in the server's process tree and its memory read with psutil.
"""

from __future__ import annotations

import asyncio
import base64
import fcntl
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import psutil
import pytest
import pytest_asyncio

from cardtui.server.app import Running
from cardtui.server.web import guests
from cardtui.server.web.guests import PARENT
from cardtui.server.web.site import WebLimits, WebServer, local_target, open_socket, origin_of, terminal_size
from tests.test_web import Guest
from tests.waiting import PATIENCE, eventually, eventually_async

pytestmark = pytest.mark.xdist_group("web-guard")
"""The module's tests run in one test process, which starts the page's server (``served``: a server, its page and
the guests' warm parent, processes of their own) once for them all: spread over the workers, each started its own."""

MB = 1024 * 1024
DRAWN = 64 * 1024
"""Bytes of a guest's output that only a screen thousands of cells wide makes: more than the
name prompt at 80x24 and the first frames, unread, hold."""


class Served:
    """``cardtui serve --web`` in its own process, and where its page is."""

    def __init__(self, proc: subprocess.Popen[str], port: int) -> None:
        self.proc = proc
        self.port = port
        self.process = psutil.Process(proc.pid)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws?width=80&height=24"

    def warm_parent(self) -> psutil.Process:
        for child in self.process.children():
            if PARENT in child.cmdline():
                return child
        raise AssertionError(f"no warm parent among {self.process.children()}")

    def guests(self) -> list[psutil.Process]:
        """The guests' processes (forked by the warm parent), zombies left out."""
        return [p for p in self.warm_parent().children() if alive(p)]


def alive(p: psutil.Process) -> bool:
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


async def gone(p: psutil.Process) -> float:
    """Seconds until ``p`` is gone."""
    start = time.monotonic()
    await eventually(lambda: not alive(p), f"the end of the guest's process {p.pid}")
    return time.monotonic() - start


async def one_guest(served: Served, before: set[int]) -> psutil.Process:
    new = await eventually(lambda: [p for p in served.guests() if p.pid not in before], "a process for the guest")
    assert len(new) == 1, new
    return new[0]


def waiting_to_be_read(sock: socket.socket) -> int:
    """Bytes the peer has sent that ``sock`` holds unread."""
    return int.from_bytes(fcntl.ioctl(sock, termios.FIONREAD, b"\0\0\0\0"), sys.byteorder)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("guard") / "s.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--web", "--web-port", "0",
         "--web-max-per-address", "2", "--db", str(db), "--no-announce", "--log-level", "warning"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"web: http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        yield Served(proc, int(match.group(1)))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def test_a_huge_resize_is_clamped_and_the_guest_is_gone_when_it_leaves(
    served: Served, http: aiohttp.ClientSession
) -> None:
    before = {p.pid for p in served.guests()}
    guest = Guest(await http.ws_connect(served.url))
    await guest.until("Your name at the tables")
    process = await one_guest(served, before)
    peak = 0
    end = time.monotonic() + 4.0
    while time.monotonic() < end:  # sizes that differ, so none is skipped as a repeat
        for side in (20000, 19999, 30000):
            await guest.ws.send_json(["resize", {"width": side, "height": side}])
        await asyncio.sleep(0.05)  # the resizes' pace over the run's four seconds, which are its subject
        peak = max(peak, process.memory_info().rss)
    print(f"peak RSS under 20000x20000 resizes: {peak / MB:.1f} MB")
    assert peak < 150 * MB, f"the guest grew to {peak / MB:.0f} MB"
    guest.screen.resize(120, 320)  # the clamped size, at which the guest now draws
    await guest.type("ana\r")  # and still answers
    await guest.until("Watching")  # the lobby's list of tables
    await guest.ws.close()
    took = await gone(process)
    print(f"the guest's process was gone {took:.2f} s after it left")


def ws_frame(text: str) -> bytes:
    """One masked websocket text frame, as a browser sends it."""
    data, mask = text.encode(), os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(data))
    return b"\x81" + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def test_a_guest_that_drops_without_a_goodbye_leaves_no_process(served: Served) -> None:
    """The connection reset mid-stream (a phone off the network): before, the process was orphaned."""
    before = {p.pid for p in served.guests()}
    sock = socket.create_connection(("127.0.0.1", served.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws?width=80&height=24 HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    assert sock.recv(100).startswith(b"HTTP/1.1 101")
    process = await one_guest(served, before)
    for n in range(40):
        sock.sendall(ws_frame(json.dumps(["resize", {"width": 2000 + n, "height": 2000 + n}])))
    # the guest draws its huge screen, and nothing it sends is read: the reset comes mid-stream
    await eventually(lambda: waiting_to_be_read(sock) > DRAWN, "the guest drawing at its new size")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()  # a reset, not a close
    await gone(process)


async def test_messages_the_page_never_sends_are_dropped(served: Served, http: aiohttp.ClientSession) -> None:
    guest = Guest(await http.ws_connect(served.url))
    try:
        await guest.until("Your name at the tables")
        for junk in ("not json", "{}", "[]", '"resize"', '["resize", [1, 2]]', '["resize", {"width": "x"}]',
                     '["resize", {"width": 1e999, "height": 5}]', '["resize", {"width": true, "height": 1}]',
                     '["stdin", 5]', '["stdin"]', '["download", "x"]', '["ping", {"a": 1}]'):
            await guest.ws.send_str(junk)
        await guest.ws.send_json(["ping", "7"])
        pong = await guest.ws.receive(timeout=10)
        while pong.type == aiohttp.WSMsgType.BINARY:
            guest.stream.feed(pong.data)
            pong = await guest.ws.receive(timeout=10)
        assert json.loads(pong.data) == ["pong", "7"]  # the one sound ping, answered
        await guest.type("bea\r")
        await guest.until("Watching")  # the lobby's list of tables
    finally:
        await guest.ws.close()


async def test_a_page_from_another_site_is_refused(served: Served, http: aiohttp.ClientSession) -> None:
    for foreign in ("http://evil.example", f"http://127.0.0.1:{served.port + 1}", f"https://127.0.0.1:{served.port}",
                    "null"):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(served.url, headers={"Origin": foreign})
        assert refused.value.status == 403, foreign
    own = Guest(await http.ws_connect(served.url, headers={"Origin": f"http://127.0.0.1:{served.port}"}))
    try:
        await own.until("Your name at the tables")
    finally:
        await own.ws.close()


async def test_a_guest_whose_process_hangs_counts_until_it_is_killed(
    served: Served, http: aiohttp.ClientSession
) -> None:
    """Two sessions per address here: a tab closed while its process is stuck still holds its place,
    until the process is killed (it had a few seconds to quit); then the place is free."""
    before = {p.pid for p in served.guests()}
    first = Guest(await http.ws_connect(served.url))
    await first.until("Your name at the tables")
    stuck = await one_guest(served, before)
    second = Guest(await http.ws_connect(served.url))
    await second.until("Your name at the tables")
    stuck.suspend()  # it can no longer quit when asked
    await first.ws.close()
    third = await http.ws_connect(served.url)
    refused = await third.receive(timeout=10)
    assert refused.type == aiohttp.WSMsgType.CLOSE
    assert "already has 2 sessions open" in refused.extra
    await gone(stuck)
    async def place_free() -> bool:  # the sweep forgets it
        fourth = Guest(await http.ws_connect(served.url))
        try:
            await fourth.until("Your name at the tables")
        except AssertionError:  # refused: the session ended before the prompt
            return False
        finally:
            await fourth.ws.close()
        return True

    await eventually_async(place_free, "the killed guest's place free again")
    await second.ws.close()


async def test_guests_are_forked_from_the_warm_parent_which_comes_back_if_killed(
    server: Running, http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The parent's import of the client may take longer than a host's own bound on a busy machine (then the guest
    # starts cold, as it should, and nothing here is checked): the test gives it the tests' common patience.
    monkeypatch.setattr(guests, "START_SECONDS", PATIENCE)
    web = WebServer(local_target("127.0.0.1", server.port), limits=WebLimits(4, 4))
    await web.start(open_socket("127.0.0.1", 0))
    try:
        url = f"ws://127.0.0.1:{web.port}/ws"
        guest = Guest(await http.ws_connect(url))
        await guest.until("Your name at the tables")
        parent = web.launcher.parent  # type: ignore[attr-defined]
        pid = next(s.process.pid for s in web.sessions if s.process is not None)
        assert psutil.Process(pid).ppid() == parent.pid
        parent.kill()  # its guests die with it (so none is left unmanaged)
        await gone(psutil.Process(pid))
        again = Guest(await http.ws_connect(url))
        try:
            await again.until("Your name at the tables")
        finally:
            await again.ws.close()
        await guest.ws.close()
    finally:
        await web.stop()


async def test_guests_start_cold_where_there_is_no_warm_parent(server: Running, http: aiohttp.ClientSession) -> None:
    web = WebServer(local_target("127.0.0.1", server.port), warm=False)
    await web.start(open_socket("127.0.0.1", 0))
    try:
        guest = Guest(await http.ws_connect(f"ws://127.0.0.1:{web.port}/ws"))
        await guest.until("Your name at the tables")
        pid = next(s.process.pid for s in web.sessions if s.process is not None)
        assert psutil.Process(pid).ppid() == os.getpid()
        await guest.ws.close()
        await gone(psutil.Process(pid))
    finally:
        await web.stop()


async def test_another_origin_is_let_in_only_when_the_host_allows_it(
    server: Running, http: aiohttp.ClientSession
) -> None:
    web = WebServer(local_target("127.0.0.1", server.port), origins=["https://Cards.Example.org:443"])
    await web.start(open_socket("127.0.0.1", 0))
    try:
        url = f"ws://127.0.0.1:{web.port}/ws"
        guest = Guest(await http.ws_connect(url, headers={"Origin": "https://cards.example.org"}))
        await guest.until("Your name at the tables")
        await guest.ws.close()
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await http.ws_connect(url, headers={"Origin": "https://cards.example.org.evil.example"})
    finally:
        await web.stop()


def test_sizes_are_clamped_and_origins_compared_whole() -> None:
    assert terminal_size(20000, 20000) == (320, 120)
    assert terminal_size(-5, 0) == (20, 10)
    assert terminal_size("100", 30.7) == (100, 30)
    for bad in ((None, 1), ("x", 1), (float("nan"), 1), (float("inf"), 1), (True, 1), ([80], 1), (10**400, 1)):
        assert terminal_size(*bad) is None, bad
    assert origin_of("HTTP://LocalHost:80") == "http://localhost"
    assert origin_of("https://[::1]:8443/x") == "https://[::1]:8443"
    assert origin_of("null") is None and origin_of("http://") is None and origin_of("http://h:99999") is None


def test_the_origin_flags_are_checked(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--web", "--web-origin", "cards.example.org",
         "--db", str(tmp_path / "s.db"), "--no-announce"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "--web-origin cards.example.org" in done.stderr and "https://" in done.stderr


BROWSER = """
import asyncio, sys
import aiohttp

async def main() -> None:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(sys.argv[1], autoping=sys.argv[2] == "answers") as ws:
            print("open", flush=True)
            async for _msg in ws:  # read all the while: a ping is answered as soon as it comes
                pass
            print("closed", ws.close_code, flush=True)

asyncio.run(main())
"""
"""A browser in a process of its own, reading its websocket all the while (and so answering pings at once, if
it "answers"), that says when its session opens and when the server closes it."""


async def a_browser(url: str, answers: bool) -> asyncio.subprocess.Process:
    browser = await asyncio.create_subprocess_exec(sys.executable, "-c", BROWSER, url,
                                                   "answers" if answers else "silent",
                                                   stdout=asyncio.subprocess.PIPE)
    assert browser.stdout is not None
    assert await browser.stdout.readline() == b"open\n"
    return browser


async def test_a_browser_that_answers_keeps_its_session_when_the_host_is_too_busy_to_read_the_answer(
    server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host's loop stalls right after each ping it sends, longer than a browser has to answer (as a busy
    machine's scheduler may hold a process): the answer comes at once, and waits to be read with the deadline
    due beside it. The session stays (aiohttp's own heartbeat ran the deadline first and closed it)."""
    silence = 0.3
    pings: list[float] = []
    more = asyncio.Event()
    send_frame = aiohttp.http_websocket.WebSocketWriter.send_frame

    async def stalling(writer: aiohttp.http_websocket.WebSocketWriter, message: bytes, opcode: int,
                       *args: object, **kwargs: object) -> None:
        await send_frame(writer, message, opcode, *args, **kwargs)  # type: ignore[arg-type]
        if opcode == aiohttp.WSMsgType.PING:
            pings.append(time.monotonic())
            more.set()
            loop = asyncio.get_running_loop()
            loop.call_soon(loop.call_soon, time.sleep, 3 * silence)  # once the ping is on its way

    monkeypatch.setattr(aiohttp.http_websocket.WebSocketWriter, "send_frame", stalling)
    web = WebServer(local_target("127.0.0.1", server.port), limits=WebLimits(4, 4, silence=silence))
    await web.start(open_socket("127.0.0.1", 0))
    try:
        browser = await a_browser(f"ws://127.0.0.1:{web.port}/ws", answers=True)
        assert browser.stdout is not None
        closed = asyncio.ensure_future(browser.stdout.readline())
        try:
            while len(pings) < 4:  # a fourth ping: the third, stalled over, was judged answered
                more.clear()
                waiting = asyncio.ensure_future(more.wait())
                await asyncio.wait([waiting, closed], timeout=PATIENCE, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                assert not closed.done(), f"the session ended after {len(pings)} pings: {closed.result()!r}"
            assert [s for s in web.sessions if s.process is not None and not s.process.gone]
        finally:
            closed.cancel()
            browser.kill()
            await browser.wait()
    finally:
        await web.stop()


async def test_a_browser_that_never_answers_a_ping_loses_its_session_and_its_process(server: Running) -> None:
    web = WebServer(local_target("127.0.0.1", server.port), limits=WebLimits(4, 4, silence=0.3))
    await web.start(open_socket("127.0.0.1", 0))
    try:
        browser = await a_browser(f"ws://127.0.0.1:{web.port}/ws", answers=False)
        assert browser.stdout is not None
        try:
            assert (await asyncio.wait_for(browser.stdout.readline(), PATIENCE)).startswith(b"closed")
            await eventually(lambda: not web.sessions, "the silent browser's session forgotten, its process gone")
        finally:
            browser.kill()
            await browser.wait()
    finally:
        await web.stop()
