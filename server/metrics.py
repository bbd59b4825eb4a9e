"""The server's figures in the Prometheus text format (``cardtui serve --metrics-port N``): what an operator
watches a room by, gathered from every process of the host.

Each server process keeps its own figures (``Figures``), in a registry of its own (never prometheus_client's
global one: a test process runs many servers side by side). What happens is counted as it happens (acts,
refusals, takeovers, the journal's writes); what stands is read when someone asks (tables, seats, streams, the
analysis queue), on the process's event loop, so nothing is read while a table changes it.

A table worker's figures stay in the worker: the front asks each live worker for them over a pipe of its own
(``answer`` in the worker, ``ask`` in the front) when it is scraped, and serves them all on one page, every
sample labelled with the process it came from (``process="front"``, ``process="worker-1"``…). A worker that was
replaced starts its counters again from zero, which Prometheus's ``rate`` reads as the reset it is; ``sum
without (process)`` gives the room's.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import Counter as Tally
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.metrics_core import GaugeMetricFamily, Metric

if TYPE_CHECKING:
    from aiohttp import web

    from cardtui.server.analysis_pool import AnalysisPool
    from cardtui.server.limits import StreamCounter
    from cardtui.server.room import Room
    from cardtui.server.workers import Workers

log = logging.getLogger("cardtui.metrics")

ASK_SECONDS = 2.0
"""How long a scrape waits for a worker's figures; a worker that says nothing by then is left out of that page."""
JOURNAL_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""A journal write takes well under a millisecond on a local SQLite file and a few on a PostgreSQL across a LAN;
the buckets reach up to the seconds a disk or a database in trouble takes."""


@dataclass(frozen=True, slots=True)
class Standing:
    """What stands in a process when it is asked: its tables and the seats people hold, per game; its streams
    open; the finished hands waiting for analysis and being analysed (None: this process analyses none)."""

    tables: dict[str, int]
    seats: dict[str, int]
    streams: int
    waiting: int | None = None
    analysing: int | None = None


def standing(room: Room, streams: StreamCounter, analyst: AnalysisPool | None) -> Standing:
    """What stands in this process now (read on its event loop)."""
    tables: Tally[str] = Tally()
    seats: Tally[str] = Tally()
    for table in room.tables.values():
        game = table.rules.name
        tables[game] += 1
        seats[game] += sum(1 for seat in table.seating.seats if not seat.bot and seat.token is not None)
    return Standing(dict(tables), dict(seats), sum(streams.by_peer.values()),
                    None if analyst is None else analyst.waiting, None if analyst is None else analyst.running)


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
        if now.waiting is not None and now.analysing is not None:
            yield GaugeMetricFamily("cardtui_analysis_queue", "Finished hands waiting for analysis.",
                                    value=now.waiting)
            yield GaugeMetricFamily("cardtui_analysis_running", "Finished hands being analysed now.",
                                    value=now.analysing)


class Figures:
    """One server process's figures: counted as things happen, and what stands read when asked (``watch``)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
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


# -- a worker's figures, asked for by the front ----------------------------------------------------------------
def answer(figures: Figures, conn: Connection) -> None:
    """In a table worker: answer the front's questions on ``conn`` with this process's figures, on the event
    loop (so nothing is read while a table changes it), until the front closes its end."""
    loop = asyncio.get_running_loop()

    def asked() -> None:
        try:
            n = conn.recv()
            conn.send((n, figures.collect()))
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

    def _ask(self, n: int) -> list[Metric] | None:
        self.conn.send(n)
        deadline = time.monotonic() + ASK_SECONDS
        while (left := deadline - time.monotonic()) > 0 and self.conn.poll(left):
            said, families = self.conn.recv()
            if said == n:
                return list(families)
        return None

    async def ask(self) -> list[Metric] | None:
        """The worker's figures; None if it did not answer in time (or is gone)."""
        async with self._lock:
            try:
                return await asyncio.get_running_loop().run_in_executor(None, self._ask, next(self._numbers))
            except (EOFError, OSError):
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
    """The page: this process's figures and each live worker's, in the Prometheus text format."""
    by_process: list[tuple[str, Sequence[Metric]]] = [("front", figures.collect())]
    if workers is not None:
        slots = [slot for slot in workers.live() if slot.figures is not None]
        answers = await asyncio.gather(*(slot.figures.ask() for slot in slots if slot.figures is not None))
        by_process += [(f"worker-{slot.index + 1}", said) for slot, said in zip(slots, answers, strict=True)
                       if said is not None]
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Gathered(merge(by_process)))
    return generate_latest(registry)


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
