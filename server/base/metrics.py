"""The server's figures in the Prometheus text format (``cardtui serve --metrics-port N``): what an operator
watches a room by, gathered from every process of the host.

Each server process keeps its own figures (``Figures``), in a registry of its own (never prometheus_client's
global one: a test process runs many servers side by side). What happens is counted as it happens (acts,
refusals, takeovers, the journal's writes); what stands is read when someone asks (tables, seats, streams, the
analysis queue), on the process's event loop, so nothing is read while a table changes it.

What a table worker counts outlives it: its counters (acts, refusals, takeovers, the journal's histogram) are kept
in files of the worker's place (``count_in``: prometheus_client's multiprocess mode, a folder per worker's place,
made by the front), which the front reads at each scrape whether the worker lives or not; the worker that replaces
a dead one counts on in the same place, so ``worker-1``'s counters never go back and never vanish, and ``sum
without (process)`` never dips. What stands in a worker (its tables, seats, streams, whether it reaches the store,
its process's memory and CPU) is asked of it, live, over a pipe of its own (``answer`` in the worker, ``ask`` in
the front): a worker that is gone has none. Every sample is labelled with the process it came from
(``process="front"``, ``process="worker-1"``, and a pool's processes as ``front-bots-1``, ``worker-1-bots-1``,
``front-analysis-1``…). Each process's own figures carry prometheus_client's process collector
(``process_resident_memory_bytes``, ``process_cpu_seconds_total``, ``process_open_fds``…), and the front counts its
workers' restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import itertools
import logging
import os
import time
from collections import Counter as Tally
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector, values
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

if TYPE_CHECKING:
    from aiohttp import web

    from cardtui.server.base.limits import StreamCounter
    from cardtui.server.lobby.room import Room
    from cardtui.server.processes.analysis_pool import AnalysisPool
    from cardtui.server.processes.workers import Workers

log = logging.getLogger("cardtui.metrics")

ASK_SECONDS = 2.0
"""How long a scrape waits for a worker's figures; a worker that says nothing by then is left out of that page."""
JOURNAL_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""A journal write takes well under a millisecond on a local SQLite file and a few on a PostgreSQL across a LAN;
the buckets reach up to the seconds a disk or a database in trouble takes."""


@dataclass(frozen=True, slots=True)
class Standing:
    """What stands in a process when it is asked: its tables and the seats people hold, per game; its streams
    open; whether it reaches its store; the finished hands waiting for analysis and being analysed (None: this
    process analyses none); its table workers' restarts (None: it has no workers)."""

    tables: dict[str, int]
    seats: dict[str, int]
    streams: int
    store_up: bool = True
    waiting: int | None = None
    analysing: int | None = None
    restarts: int | None = None


def standing(room: Room, streams: StreamCounter, analyst: AnalysisPool | None,
             workers: Callable[[], Workers | None] = lambda: None) -> Standing:
    """What stands in this process now (read on its event loop)."""
    tables: Tally[str] = Tally()
    seats: Tally[str] = Tally()
    for table in room.tables.values():
        game = table.rules.name
        tables[game] += 1
        seats[game] += sum(1 for seat in table.seating.seats if not seat.bot and seat.token is not None)
    team = workers()
    return Standing(dict(tables), dict(seats), sum(streams.by_peer.values()), not room.outage.away,
                    None if analyst is None else analyst.waiting, None if analyst is None else analyst.running,
                    None if team is None else team.restarts)


def count_in(folder: str) -> None:
    """This process's counters kept in files in ``folder`` from now on (prometheus_client's multiprocess mode),
    where the front reads them whether this process lives or not: called first thing in a table worker, whose
    process is its own (the mode is the whole process's), with its place's folder."""
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    values.ValueClass = values.MultiProcessValue()  # type: ignore[no-untyped-call]  # the library is untyped here


def counted(folder: str) -> list[Metric]:
    """The counters every process that held a worker's place kept in ``folder``, summed (``count_in``). A file a
    worker starting now has just made is still empty: it holds nothing yet, and prometheus_client cannot read it
    (the whole page failed with a 500 when a scrape met a replacement worker's first moment), so it is left out."""
    try:
        files = [f for f in glob.glob(os.path.join(folder, "*.db")) if os.path.getsize(f) > 0]
        return list(MultiProcessCollector.merge(files, accumulate=True))  # type: ignore[no-untyped-call]
    except (ValueError, OSError):  # gone with the server
        return []


def of_process(pid: int) -> list[Metric]:
    """prometheus_client's figures of one process (memory, CPU, descriptors, start time); none once it is gone."""
    return list(ProcessCollector(pid=lambda: pid, registry=None).collect())


class _Standing:
    """A collector of what stands, asked for it at each scrape."""

    def __init__(self, read: Callable[[], Standing]) -> None:
        self.read = read

    def collect(self) -> Iterator[Metric]:
        now = self.read()
        tables = GaugeMetricFamily("cardtui_tables", "Open tables this process drives, by game.", labels=["game"])
        for game, n in sorted(now.tables.items()):
            tables.add_metric([game], n)
        yield tables
        seats = GaugeMetricFamily("cardtui_seats_taken", "Seats people hold at this process's tables (bots not "
                                  "counted), by game.", labels=["game"])
        for game, n in sorted(now.seats.items()):
            seats.add_metric([game], n)
        yield seats
        yield GaugeMetricFamily("cardtui_streams_open", "Table and tournament streams open on this process.",
                                value=now.streams)
        yield GaugeMetricFamily("cardtui_store_up", "Whether this process reaches its store (1) or finds it away "
                                "(0, its calls refused as UNAVAILABLE until it is back).", value=int(now.store_up))
        if now.restarts is not None:
            yield CounterMetricFamily("cardtui_worker_restarts", "Table workers that died and were replaced since "
                                      "the server started.", value=now.restarts)
        if now.waiting is not None and now.analysing is not None:
            yield GaugeMetricFamily("cardtui_analysis_queue", "Finished hands waiting for analysis.",
                                    value=now.waiting)
            yield GaugeMetricFamily("cardtui_analysis_running", "Finished hands being analysed now.",
                                    value=now.analysing)


class Figures:
    """One server process's figures: counted as things happen, and what stands read when asked (``watch``), with its
    process's own (``ProcessCollector``) and those of its pools' processes (``helpers``)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=self.registry)
        self.helpers: Callable[[], list[tuple[str, int]]] = list
        """This process's pools' processes now, each with its name (``bots-1``, ``analysis-1``)."""
        self.acts = Counter("cardtui_acts", "Moves made at this process's tables, people's and bots', by game.",
                            ["game"], registry=self.registry)
        self.refusals = Counter("cardtui_refusals", "Calls refused, by kind (the gRPC status, lower case).",
                                ["kind"], registry=self.registry)
        self.takeovers = Counter("cardtui_takeovers", "Tables this process took over from a process that was gone "
                                 "(a worker or host that died, or the server before a restart).",
                                 registry=self.registry)
        self.journal = Histogram("cardtui_journal_write_seconds", "Seconds each journal write of a table took, "
                                 "from its transaction's start to its commit.", buckets=JOURNAL_BUCKETS,
                                 registry=self.registry)
        self._acts: dict[str, Callable[[], None]] = {}

    def acted(self, game: str) -> None:
        """A move was made at a table of ``game``."""
        count = self._acts.get(game)
        if count is None:
            count = self._acts[game] = self.acts.labels(game).inc
        count()

    def refused(self, code: str) -> None:
        self.refusals.labels(code.lower()).inc()

    def took_over(self, tables: int) -> None:
        if tables:
            self.takeovers.inc(tables)

    @contextlib.contextmanager
    def journaling(self) -> Iterator[None]:
        """Time a journal write (the whole of it: a write that fails is timed too, since it took that long)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.journal.observe(time.perf_counter() - start)

    def watch(self, read: Callable[[], Standing]) -> None:
        """What stands, read by ``read`` at each scrape (once: a process's server starts once)."""
        self.registry.register(_Standing(read))

    def collect(self) -> list[Metric]:
        return list(self.registry.collect())

    def everything(self) -> list[tuple[str, list[Metric]]]:
        """This process's figures (named ""), then each of its pools' processes' (named as ``helpers`` says)."""
        return [("", self.collect()), *((name, of_process(pid)) for name, pid in self.helpers())]


def helper_processes() -> list[tuple[str, int]]:
    """The helper processes multiprocessing started for this process, by name: its fork server (the one its pools
    and table workers are forked from) and its resource tracker, each only where this process started it (a table
    worker shares the front's resource tracker, and starts a fork server of its own for its bots' pool)."""
    from multiprocessing import forkserver, resource_tracker

    named: list[tuple[str, int]] = []
    for name, pid in (("forkserver", getattr(forkserver._forkserver, "_forkserver_pid", None)),
                      ("resource-tracker", getattr(resource_tracker._resource_tracker, "_pid", None))):
        if isinstance(pid, int) and pid > 0:
            named.append((name, pid))
    return named


def pool_processes(bots: Callable[[], list[int]] | None, analysis: Callable[[], list[int]] | None
                   ) -> Callable[[], list[tuple[str, int]]]:
    """A process's helpers and its pools' processes by name, read when asked (``Figures.helpers``): its fork server
    and resource tracker (``helper_processes``), then each pool's processes as they are now (a pool starts its
    processes at its first job)."""
    def read() -> list[tuple[str, int]]:
        named = helper_processes()
        for kind, pids in (("bots", bots), ("analysis", analysis)):
            named += [(f"{kind}-{n}", pid) for n, pid in enumerate(pids() if pids is not None else [], 1)]
        return named

    return read


# -- a worker's figures, asked for by the front ----------------------------------------------------------------
def answer(figures: Figures, conn: Connection) -> None:
    """In a table worker: answer the front's questions on ``conn`` with this process's figures, on the event
    loop (so nothing is read while a table changes it), until the front closes its end."""
    loop = asyncio.get_running_loop()

    def asked() -> None:
        try:
            n = conn.recv()
            conn.send((n, figures.everything()))
        except (EOFError, OSError):
            loop.remove_reader(conn.fileno())
            conn.close()

    loop.add_reader(conn.fileno(), asked)


class Asker:
    """The front's end of one worker's pipe: a question at a time, and a late answer to an earlier question
    (one that timed out) recognised and dropped."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._numbers = itertools.count(1)
        self._lock = asyncio.Lock()
        self.gone = False
        """Whether the pipe broke: the worker died, though the front may not have noticed yet (its place's tables
        then read 0 on the page, not a gap)."""

    def _ask(self, n: int) -> list[tuple[str, list[Metric]]] | None:
        self.conn.send(n)
        deadline = time.monotonic() + ASK_SECONDS
        while (left := deadline - time.monotonic()) > 0 and self.conn.poll(left):
            said, families = self.conn.recv()
            if said == n:
                return list(families)
        return None

    async def ask(self) -> list[tuple[str, list[Metric]]] | None:
        """The worker's figures and its pools' processes' (``Figures.everything``); None if it did not answer in
        time (or is gone)."""
        async with self._lock:
            try:
                return await asyncio.get_running_loop().run_in_executor(None, self._ask, next(self._numbers))
            except (EOFError, OSError):
                self.gone = True
                return None

    def close(self) -> None:
        self.conn.close()


# -- the page ------------------------------------------------------------------------------------------------
class _Gathered:
    """Families gathered already, for ``generate_latest`` to write out."""

    def __init__(self, families: Sequence[Metric]) -> None:
        self.families = families

    def collect(self) -> Iterable[Metric]:
        return self.families


def merge(by_process: Sequence[tuple[str, Sequence[Metric]]]) -> list[Metric]:
    """One family per name, holding every process's samples, each labelled with its process (the ``_created``
    samples left out: a process's start says nothing an operator watches)."""
    merged: dict[str, Metric] = {}
    for process, families in by_process:
        for family in families:
            into = merged.get(family.name)
            if into is None:
                into = merged[family.name] = Metric(family.name, family.documentation, family.type, family.unit)
            into.samples += [s._replace(labels={"process": process, **s.labels})
                             for s in family.samples if not s.name.endswith("_created")]
    return list(merged.values())


async def gathered(figures: Figures, workers: Workers | None) -> bytes:
    """The page: this process's figures and each worker's place's, in the Prometheus text format. A place's counters
    are read from its folder (kept there whether its worker lives or not); what stands is asked of its worker, if
    it lives and answers in time."""
    by_process: list[tuple[str, Sequence[Metric]]] = [(f"front-{name}" if name else "front", families)
                                                      for name, families in figures.everything()]
    if workers is not None:
        slots = list(workers.slots)
        live = [slot for slot in workers.live() if slot.figures is not None]
        answers = dict(zip((slot.index for slot in live), await asyncio.gather(
            *(slot.figures.ask() for slot in live if slot.figures is not None)), strict=True))
        for slot in slots:
            place = f"worker-{slot.index + 1}"
            said = answers.get(slot.index) or []
            if said:
                slot.games = slot.games | _games_of(said)
                _zero_fill(said, slot.games)
            elif not slot.ready.is_set() or (slot.figures is not None and slot.figures.gone):
                # gone (noticed, or its pipe broke): what it drove reads 0 until its replacement reports, not a gap
                by_process.append((place, _nothing_stands(slot.games)))
            for name, families in said:
                kept = families if name else [f for f in families if f.type not in ("counter", "histogram")]
                by_process.append((f"{place}-{name}" if name else place, kept))
            by_process.append((place, counted(slot.counts) if slot.counts else
                               [f for name, families in said if not name for f in families
                                if f.type in ("counter", "histogram")]))
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Gathered(merge(by_process)))
    return generate_latest(registry)


def _nothing_stands(games: Iterable[str]) -> list[Metric]:
    """A dead worker's standing gauges, every one at 0: its tables and seats for each game it reported, its
    streams."""
    tables = GaugeMetricFamily("cardtui_tables", "Open tables this process drives, by game.", labels=["game"])
    seats = GaugeMetricFamily("cardtui_seats_taken", "Seats people hold at this process's tables (bots not "
                              "counted), by game.", labels=["game"])
    for game in sorted(games):
        tables.add_metric([game], 0)
        seats.add_metric([game], 0)
    return [tables, seats, GaugeMetricFamily("cardtui_streams_open", "Table and tournament streams open on this "
                                             "process.", value=0)]


def _zero_fill(said: Sequence[tuple[str, Sequence[Metric]]], games: frozenset[str]) -> None:
    """A worker's tables and seats given a 0 for each game its place reported before and it drives none of now (a
    replacement's first pages, a game's last table closed): the series read 0, not a gap."""
    for name, families in said:
        for family in families:
            if name or family.name not in ("cardtui_tables", "cardtui_seats_taken"):
                continue
            have = {sample.labels.get("game") for sample in family.samples}
            for game in sorted(games - have):
                family.add_metric([game], 0)  # type: ignore[attr-defined]  # a gauge family's own


def _games_of(said: Sequence[tuple[str, Sequence[Metric]]]) -> frozenset[str]:
    """The games a worker's standing figures name (its ``cardtui_tables`` and ``cardtui_seats_taken``)."""
    return frozenset(sample.labels["game"] for name, families in said if not name for family in families
                     if family.name in ("cardtui_tables", "cardtui_seats_taken") for sample in family.samples
                     if "game" in sample.labels)


class Page:
    """The figures served over HTTP at ``/metrics`` (aiohttp, on the server's own loop)."""

    def __init__(self, runner: web.AppRunner, port: int) -> None:
        self.runner = runner
        self.port = port

    async def stop(self) -> None:
        await self.runner.cleanup()


async def serve(host: str, port: int, figures: Figures, workers: Callable[[], Workers | None]) -> Page:
    """Serve the page on ``host:port`` (0: any free port); ``workers``: this host's table workers now."""
    from aiohttp import web

    async def page(request: web.Request) -> web.Response:
        body = await gathered(figures, workers())
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/metrics", page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port, reuse_address=True)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        raise OSError(f"The metrics port {port} on {host} cannot be used ({e.strerror or e}); choose another with "
                      "--metrics-port.") from None
    server = site._server
    sockets = getattr(server, "sockets", None) or []
    bound = int(sockets[0].getsockname()[1]) if sockets else port
    return Page(runner, bound)
