"""Browser guests: what each costs the host, forked from the warm parent against started cold.

A real table server on 127.0.0.1 and, in turn, the page with each way of starting guests
(``WebServer(warm=True)`` and ``warm=False``, the cold start being the baseline). Guests
come one at a time over a real websocket, driven as textual-serve's page drives it; each
is timed from the websocket's opening to its name prompt on the screen (its output replayed
into pyte). Then all of them type a name and reach the lobby (each client has its gRPC
channel by then), and every guest's memory is read: USS (pages only it holds: what one more
guest costs) and PSS (its share of what it shares), from psutil's ``memory_full_info``.
The warm parent's own memory is given apart: paid once, whatever the number of guests. Then
each guest opens a table of its own (bots, its first hand) and is read again, 5 s later, with
the CPU it spent from one reading to the other.

Marks (issue 29): USS ≤ 25 MB per guest at 10 guests, in the lobby and at a table; the name
prompt in ≤ 1 s.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import mean, median

import aiohttp
import psutil
import pyte

from cardtui.server.app import start
from cardtui.server.web.guests import WarmLauncher
from cardtui.server.web.site import WebLimits, WebServer, local_target, open_socket

GUESTS = 10
USS_MARK = 25.0
"""MB of unique memory per guest, at ``GUESTS`` guests."""
PROMPT_MARK = 1.0
"""Seconds from the websocket's opening to the name prompt."""
PROMPT = "Your name at the tables"
MB = 1024 * 1024


@dataclass(frozen=True)
class Memory:
    """MB per guest, and of the warm parent (0 when cold)."""

    uss: list[float]
    pss: list[float]
    rss: list[float]
    parent_uss: float = 0.0
    parent_rss: float = 0.0


@dataclass(frozen=True)
class Figures:
    prompt: list[float]
    """Seconds to the name prompt, each guest."""
    lobby: Memory
    table: Memory
    """Each guest at a table of its own, with bots, a hand dealt."""
    cpu: list[float]
    """CPU seconds of each guest from the lobby's reading to the table's (the create form, the table
    and 5 s of play): what the guests' settings cost in work."""


class Tab:
    """One browser tab's websocket, and the screen its output draws (read all along, as a page
    does, so the server's heartbeats are answered)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.closed = False
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.stream.feed(msg.data)
                self.changed.set()
        self.closed = True
        self.changed.set()

    async def until(self, wanted: str, timeout: float = 60.0) -> None:
        async with asyncio.timeout(timeout):
            while wanted not in "\n".join(self.screen.display):
                if self.closed:
                    raise RuntimeError(f"the session ended before {wanted!r}")
                self.changed.clear()
                await self.changed.wait()

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


def memory(pid: int) -> tuple[float, float, float]:
    """USS, PSS and RSS of a process, in MB."""
    info = psutil.Process(pid).memory_full_info()
    return info.uss / MB, info.pss / MB, info.rss / MB


def cpu_seconds(web: WebServer) -> list[float]:
    """User and system CPU time of each guest, in seconds."""
    return [sum(psutil.Process(s.process.pid).cpu_times()[:2]) for s in web.sessions if s.process is not None]


def read_memory(web: WebServer) -> Memory:
    used = [memory(s.process.pid) for s in web.sessions if s.process is not None]
    parent = web.launcher.parent if isinstance(web.launcher, WarmLauncher) else None
    parent_uss, _, parent_rss = memory(parent.pid) if parent is not None else (0.0, 0.0, 0.0)
    return Memory([u for u, _, _ in used], [p for _, p, _ in used], [r for _, _, r in used], parent_uss, parent_rss)


async def measure(target: str, warm: bool, guests: int) -> Figures:
    web = WebServer(target, limits=WebLimits(per_address=guests, total=guests), warm=warm)
    await web.start(open_socket("127.0.0.1", 0))
    tabs: list[Tab] = []
    try:
        if isinstance(web.launcher, WarmLauncher) and not await web.launcher.wait_ready():
            raise RuntimeError("the warm parent did not start")
        prompt = []
        async with aiohttp.ClientSession() as http:
            for _ in range(guests):
                t = time.perf_counter()
                tab = Tab(await http.ws_connect(f"ws://127.0.0.1:{web.port}/ws?width=80&height=24"))
                await tab.ws.send_json(["resize", {"width": 80, "height": 24}])
                await tab.until(PROMPT)
                prompt.append(time.perf_counter() - t)
                tabs.append(tab)
                await asyncio.sleep(0.2)  # a guest at a time, as people arrive
            for n, tab in enumerate(tabs):
                await tab.ws.send_json(["stdin", f"guest{n}\r"])
            for tab in tabs:
                await tab.until("Watching")  # the lobby's list of tables
            await asyncio.sleep(1.0)
            assert web.open_sessions == guests
            lobby = read_memory(web)
            cpu_lobby = cpu_seconds(web)
            for tab in tabs:  # a table of its own: the create form, its defaults (Cacho, bots)
                await tab.ws.send_json(["stdin", "n"])
                await tab.until("Turn timer")
                await tab.ws.send_json(["stdin", "\x13"])  # ctrl+s
            for tab in tabs:
                await tab.until("— seat")  # at the table (its title); hand 1 may be over by then
            await asyncio.sleep(4.0)
            await asyncio.sleep(1.0)
            table = read_memory(web)
            cpu = [after - before for after, before in zip(cpu_seconds(web), cpu_lobby, strict=True)]
            for tab in tabs:
                await tab.close()
        return Figures(prompt, lobby, table, cpu)
    finally:
        await web.stop()


def run(print: Callable[[str], None], guests: int = GUESTS) -> None:
    asyncio.run(compare(print, guests))


async def compare(print: Callable[[str], None], guests: int) -> None:
    with tempfile.TemporaryDirectory(prefix="cardtui-bench-guests-") as tmp:
        running = await start("127.0.0.1", 0, Path(tmp) / "store.db")
        try:
            target = local_target("127.0.0.1", running.port)
            cold = await measure(target, warm=False, guests=guests)
            warm = await measure(target, warm=True, guests=guests)
        finally:
            await running.stop(grace=0.5)
    print(f"  {'':38} {'forked (warm)':>14} {'cold (baseline)':>16} {'ratio':>6}  mark")

    def row(label: str, w: float, c: float, mark: str = "", met: bool | None = None) -> None:
        verdict = "" if met is None else (": met" if met else ": NOT met")
        print(f"  {label:38} {w:14.2f} {c:16.2f} {w / c:6.2f}  {mark}{verdict}")

    for where, a, b in (("lobby", warm.lobby, cold.lobby), ("at a table", warm.table, cold.table)):
        row(f"USS per guest, {where}, mean (MB)", mean(a.uss), mean(b.uss), f"≤ {USS_MARK:.0f} MB",
            mean(a.uss) <= USS_MARK)
        row(f"USS per guest, {where}, max (MB)", max(a.uss), max(b.uss))
        row(f"PSS per guest, {where}, mean (MB)", mean(a.pss), mean(b.pss))
        row(f"RSS per guest, {where}, mean (MB)", mean(a.rss), mean(b.rss))
    row("name prompt, median (s)", median(warm.prompt), median(cold.prompt), f"≤ {PROMPT_MARK:g} s",
        max(warm.prompt) <= PROMPT_MARK)
    row("name prompt, slowest (s)", max(warm.prompt), max(cold.prompt))
    row("CPU per guest, lobby to table, mean (s)", mean(warm.cpu), mean(cold.cpu))
    for where, a, b in (("lobby", warm.lobby, cold.lobby), ("at a table", warm.table, cold.table)):
        print(f"  {where}: the warm parent, paid once: USS {a.parent_uss:.1f} MB, RSS {a.parent_rss:.1f} MB; "
              f"{guests} guests and their parent: {sum(a.uss) + a.parent_uss:.0f} MB unique "
              f"(cold: {sum(b.uss):.0f} MB)")
