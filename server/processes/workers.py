"""The table workers of one host (``cardtui serve --workers N``): processes that each drive a share
of the tables, with an event loop and a gRPC server of their own.

One Python process is one event loop on one core, and gRPC's own work per stream message sets
its ceiling; so a host runs a worker per core. The server's own process keeps the lobby,
identity, records, tournaments and the web page, and sends each new table to a worker; a
client is told the worker's address when it joins and talks to it directly from then on.

Every worker is forked from a fork server that the server's process starts before it makes
any gRPC server of its own (forking a process that runs gRPC is not safe): the fork server has
the server's modules imported, so a worker, and a worker that replaces one, starts at once.
A worker that dies is seen at once (its process's sentinel), its tables are taken over by the
live workers from the journal (``server.takeover``), and a new worker takes its place.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import shutil
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import forkserver
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any

from cardtui.server.base.clock import REAL, Clock
from cardtui.server.base.limits import Limits
from cardtui.server.base.metrics import Asker

if TYPE_CHECKING:
    from cardtui.server.processes.placement import Placement

log = logging.getLogger("cardtui.workers")

START_SECONDS = 60.0
"""How long a worker may take to say it is serving."""
PRELOAD = ["cardtui.server.app", "cardtui.server.processes.preloaded"]
"""What the fork server imports once for every worker: the whole server, the games with it; last, what freezes
all that (``server.processes.preloaded``), so that no worker's collections walk it."""


def warm() -> None:
    """The fork server started, importing the server's modules: called as soon as a host knows it runs
    workers, it does so while the server's own process imports the same modules on the other core (one
    after the other, they were most of a start)."""
    multiprocessing.get_context("forkserver").set_forkserver_preload(PRELOAD)
    forkserver.ensure_running()


def cores() -> int:
    """The cores this process may run on: the default number of workers."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class WorkerSettings:
    """What a worker is started with: the server's settings, as ``server.app.start`` takes them."""

    db: str
    host: str
    port: int
    """0: any free port; else this slot's own (the server's port plus the slot's number)."""
    advertise: str
    """The host name clients reach this host at (empty: the one they reached the lobby at)."""
    tls: tuple[bytes, bytes] | None
    bot_delay: float
    next_hand_delay: float
    limits: Limits
    idle_minutes: int
    cut_window: float
    bot_workers: int
    log_level: int
    logs: Any = None
    """Where the worker sends its log records: the front's queue when it writes a log file (``server.logfile``);
    None: standard error."""
    counts: str = ""
    """The folder the worker keeps its counters in (``server.metrics.count_in``): its place's, which outlives it."""


def watch_parent(alive: Connection) -> None:
    """In a worker: end with the server. ``alive``'s other end is the server's alone, so reading it
    ends (EOF) when the server does, even when it is killed outright."""

    def wait() -> None:
        with contextlib.suppress(EOFError, OSError):
            alive.recv_bytes()
        os._exit(0)

    threading.Thread(target=wait, daemon=True, name="cardtui-parent").start()


@dataclass
class Slot:
    """One worker's place: its number, its port, and the process in it now."""

    index: int
    port: int
    process: BaseProcess | None = None
    owner: str = ""
    """The worker's id as an owner of tables (``Owners.register``)."""
    address: str = ""
    """Where its tables are served (as ``JoinResponse.address`` says it)."""
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    figures: Asker | None = None
    """Where the front asks the worker in it for its figures (``server.metrics``)."""
    counts: str = ""
    """The folder where every worker in this place keeps its counters, read by the front whether one lives or not."""
    games: frozenset[str] = frozenset()
    """The games this place's workers have reported tables or seats of: a dead worker's read 0 on the page until
    its replacement reports (``server.base.metrics.gathered``)."""


Target = Callable[[WorkerSettings, Connection, Connection, Connection], None]
"""A worker's process: its settings, where it says it is ready, the server's life (``watch_parent``), and
where the front asks for its figures."""


COUNTS = "cardtui-counts-"
"""The start of a counters folder's name in the temporary folder; the server's process id follows it."""


def sweep_counts(folder: str | None = None) -> list[str]:
    """Remove the counters folders of servers that are gone (killed before they could remove their own): those of
    this user whose process id names no running process. The folders removed."""
    folder = folder or tempfile.gettempdir()
    removed: list[str] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            pid = entry.name.removeprefix(COUNTS).split("-", 1)[0]
            if not entry.name.startswith(COUNTS) or not pid.isdigit() or _running(int(pid)):
                continue
            with contextlib.suppress(OSError):
                if entry.is_dir(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_uid == os.getuid():
                    shutil.rmtree(entry.path)
                    removed.append(entry.path)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's
    return True

class Workers:
    """The worker processes of this host, kept at their number: one that dies is replaced."""

    def __init__(self, count: int, settings: WorkerSettings, target: Target, clock: Clock = REAL) -> None:
        self.settings = settings
        self.clock = clock
        self.target = target
        """What a worker runs (``server.app.worker_main``): given by the server's module, which
        imports this one."""
        sweep_counts()
        self.counts = tempfile.mkdtemp(prefix=f"{COUNTS}{os.getpid()}-")
        """The places' folders of counters (``server.metrics``), removed as the workers stop (or, after a
        kill -9, by the next server to start on this machine: ``sweep_counts``)."""
        self.slots = [Slot(i, settings.port + 1 + i if settings.port else 0, counts=self._place(i))
                      for i in range(count)]
        self.restarts = 0
        """Workers that died and were replaced (or are being replaced) since the server started."""
        self.context: ForkServerContext = multiprocessing.get_context("forkserver")
        warm()  # started already, when ``cardtui serve`` knew it would run workers
        watched, self._alive = self.context.Pipe(duplex=False)
        self._watched = watched
        self._turn = itertools.count()
        self.placement: Placement | None = None
        """Where new tables go by the workers' work (``server.processes.placement``); None: in turn."""
        self.on_death: Callable[[Slot], None] | None = None
        """Told of a worker that died (the server's process takes its tables over)."""
        self._closing = False
        self._starting: set[asyncio.Task[None]] = set()
        """Workers being started in the place of dead ones."""

    def _place(self, index: int) -> str:
        folder = os.path.join(self.counts, f"worker-{index + 1}")
        os.makedirs(folder, exist_ok=True)
        return folder

    async def start(self) -> None:
        """Every worker started and serving, or the reason one is not (``OSError``)."""
        await asyncio.gather(*(self._spawn(slot) for slot in self.slots))

    async def _spawn(self, slot: Slot) -> None:
        settings = WorkerSettings(**{**self.settings.__dict__, "port": slot.port, "counts": slot.counts})
        replies, reply_end = self.context.Pipe(duplex=False)
        asking, answering = self.context.Pipe()
        process = self.context.Process(target=self.target, args=(settings, reply_end, self._watched, answering),
                                       name=f"cardtui-worker-{slot.index + 1}", daemon=False)
        process.start()
        reply_end.close()
        answering.close()
        if slot.figures is not None:
            slot.figures.close()
        slot.process, slot.ready, slot.figures = process, asyncio.Event(), Asker(asking)
        loop = asyncio.get_running_loop()
        try:
            said = await asyncio.wait_for(loop.run_in_executor(None, _receive, replies), START_SECONDS)
        except (TimeoutError, EOFError, OSError) as e:
            process.kill()
            raise OSError(f"Table worker {slot.index + 1} did not start ({type(e).__name__}).") from None
        finally:
            replies.close()
        if said[0] != "ready":
            process.join(5)
            raise OSError(f"Table worker {slot.index + 1} did not start: {said[1]}")
        _, slot.owner, slot.address = said
        slot.ready.set()
        loop.add_reader(process.sentinel, self._died, slot, process)
        log.info("table worker %d serving at %s (process %s)", slot.index + 1, slot.address, process.pid)

    def _died(self, slot: Slot, process: BaseProcess) -> None:
        loop = asyncio.get_running_loop()
        loop.remove_reader(process.sentinel)
        if self._closing or slot.process is not process:
            return
        process.join(0)
        log.warning("table worker %d (process %s) stopped (exit %s); its tables go to the other workers, and a "
                    "new worker takes its place", slot.index + 1, process.pid, process.exitcode)
        slot.ready.clear()
        slot.process = None
        self.restarts += 1
        if self.on_death is not None:
            self.on_death(slot)
        task = loop.create_task(self._replace(slot))
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    async def _replace(self, slot: Slot) -> None:
        delay = 0.2
        while not self._closing:
            try:
                await self._spawn(slot)
                return
            except OSError as e:
                log.error("%s; trying again in %.0f s", e, delay)
                await self.clock.sleep(delay)
                delay = min(10.0, delay * 2)

    def live(self) -> list[Slot]:
        return [slot for slot in self.slots if slot.ready.is_set()]

    def pick(self) -> str | None:
        """Where a new table goes: the live worker with the least work (``Placement.pick``), or, without a
        placement, the live workers in turn (None while none is serving)."""
        if self.placement is not None:
            return self.placement.pick()
        live = self.live()
        if not live:
            return None
        return live[next(self._turn) % len(live)].address

    def pids(self) -> list[int]:
        return [slot.process.pid for slot in self.slots if slot.process is not None and slot.process.pid]

    async def stop(self, grace: float) -> None:
        """Each worker told to stop (its streams told to come back), then ended if it has not."""
        self._closing = True
        for task in list(self._starting):
            task.cancel()
        loop = asyncio.get_running_loop()
        processes = [slot.process for slot in self.slots if slot.process is not None]
        for process in processes:
            loop.remove_reader(process.sentinel)
            process.terminate()
        for process in processes:
            await loop.run_in_executor(None, process.join, grace + 3)
            if process.is_alive():
                process.kill()
                await loop.run_in_executor(None, process.join, 5)  # gone, its locks with it (``forget_gone``)
        for slot in self.slots:
            if slot.figures is not None:
                slot.figures.close()
                slot.figures = None
        self._alive.close()
        shutil.rmtree(self.counts, ignore_errors=True)


def _receive(conn: Connection) -> tuple[str, ...]:
    said: tuple[str, ...] = conn.recv()
    return said
