"""What keeps a forked browser guest small: the warm parent's heap without holes, strips without
caches of their own, and a guest still playing at a table with both (a real server, the real page).

The two library-level measures change process-wide state (the C heap, Textual's ``Strip``), so
each is checked in a Python of its own.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import psutil
import pytest_asyncio

from cardtui.server.app import Running
from cardtui.server.web.site import WebLimits, WebServer, local_target, open_socket
from tests.test_web import open_guest

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str) -> str:
    """``code`` in a fresh interpreter, run from the project's root (it may import ``tests.waiting``)."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_warm_parent_takes_up_the_holes_of_its_heap() -> None:
    out = run_python("""
        import ctypes
        from cardtui.server.web.guests import fill_heap_holes

        class Info(ctypes.Structure):
            _fields_ = [(n, ctypes.c_size_t) for n in
                        "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]

        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = Info
        libc.malloc.restype = ctypes.c_void_p
        libc.malloc.argtypes = [ctypes.c_size_t]
        libc.free.argtypes = [ctypes.c_void_p]

        def holes():  # free bytes in the main heap, its top left out
            info = libc.mallinfo2()
            return info.fordblks - info.keepcost

        blocks = [libc.malloc(size) for size in [1000, 3000, 200, 9000] * 500]
        for block in blocks[::2]:  # every other block freed: holes between blocks still in use
            libc.free(block)
        before = holes()
        left = fill_heap_holes()
        print(before, left, holes())
    """)
    before, left, after = map(int, out.split())
    assert before > 500_000, "the heap had its holes"
    assert 0 <= left <= 32 * 1024
    assert after <= 64 * 1024, f"{after} bytes still free in the heap's holes"


def test_strips_without_caches_of_their_own_render_the_same() -> None:
    out = run_python("""
        from rich.segment import Segment
        from rich.style import Style
        from textual.color import Color
        from textual.filter import Monochrome
        from textual.strip import Strip
        from cardtui.client.textual_internals import STRIP_CACHES as NO_CACHE_SLOTS
        from cardtui.client.textual_internals import NoCache, lighter_strips

        def work():
            bold, red = Style(bold=True), Style(color="red")
            strip = Strip([Segment("ação ♣ ", red), Segment("10♥ ", bold), Segment("🂡 end", Style(italic=True))])
            made = []
            for _ in range(2):  # twice: the second time from the caches where there are caches
                made += [strip.crop(2, 9), strip.crop(0, 30), strip.apply_style(bold),
                         *strip.divide([3, 7, 12]), strip.crop_extend(1, 20, red),
                         strip.extend_cell_length(25, bold), strip.adjust_cell_length(8, red),
                         strip.apply_offsets(3, 4), strip.apply_filter(Monochrome(), Color(0, 0, 0)),
                         strip.simplify(), strip.discard_meta()]
            return [[(s.text, s.style) for s in part] + [part.cell_length] for part in made]

        plain = work()
        assert lighter_strips() and lighter_strips(), "done, and done once"
        light = work()
        fresh = Strip([Segment("x")])
        assert all(isinstance(getattr(fresh, name), NoCache) for name in NO_CACHE_SLOTS)
        assert getattr(fresh, NO_CACHE_SLOTS[0]) is getattr(Strip([]), NO_CACHE_SLOTS[0]), "one cache for all"
        print(len(plain), plain == light)
    """)
    assert out.split() == ["26", "True"]


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def test_a_forked_guest_plays_at_a_table(server: Running, http: aiohttp.ClientSession) -> None:
    web = WebServer(local_target("127.0.0.1", server.port), limits=WebLimits(per_address=2, total=2))
    await web.start(open_socket("127.0.0.1", 0))
    try:
        guest = await open_guest(http, f"ws://127.0.0.1:{web.port}/ws")
        try:
            await guest.until("Your name at the tables")
            pid = next(s.process.pid for s in web.sessions if s.process is not None)
            assert psutil.Process(pid).ppid() == web.launcher.parent.pid  # type: ignore[attr-defined]
            await guest.type("ana\r")
            await guest.until("Watching")
            await guest.type("n")  # a table of its own: the create form's defaults (Cacho, bots)
            await guest.until("Turn timer")
            await guest.type("\x13")  # ctrl+s
            await guest.until("— seat")
            await guest.until("You receive")  # the first hand dealt, the card drawn on the board
            await guest.until("Your turn")
            await guest.type("p")
            await guest.until("ana passes")
        finally:
            await guest.ws.close()
    finally:
        await web.stop()


def test_a_guest_hands_the_free_pages_inside_its_heap_back() -> None:
    """Memory freed below the heap's top stays counted as the process's own until trimmed."""
    out = run_python("""
        import ctypes, os
        from cardtui.server.web.guests import trim_heap_every
        from tests.waiting import eventually_sync

        libc = ctypes.CDLL(None)
        libc.malloc.restype = ctypes.c_void_p
        libc.malloc.argtypes = [ctypes.c_size_t]
        libc.free.argtypes = [ctypes.c_void_p]
        libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD: free() itself never trims
        page = os.sysconf("SC_PAGE_SIZE")

        def resident():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * page

        blocks = [libc.malloc(32 * 1024) for _ in range(1000)]  # 32 MB of the heap, below mmap's threshold
        for block in blocks:
            ctypes.memset(block, 1, 32 * 1024)  # touched: resident
        for block in blocks[:-1]:  # all freed but the last, which keeps the heap's top in use
            libc.free(block)
        before = resident()
        thread = trim_heap_every(0.05)
        eventually_sync(lambda: before - resident() > 20 * 1024 * 1024, "the heap trimmed")
        print(before, resident(), thread is not None and thread.daemon and thread.is_alive())
    """)
    before, after, running = out.split()
    assert running == "True", "a daemon thread trims on"
    assert int(before) - int(after) > 20 * 1024 * 1024, f"{before} → {after} bytes resident"
