"""Where finished hands are analysed: a bounded pool of worker processes, never a table's loop.

An analysis searches every decision of a hand at the analysis budget: seconds of work that would
stall every table of the process if it ran on the event loop. So it runs in worker processes, at
most one per core (``workers``), each job one finished hand's history (a table's loop hands the
pool a history and waits for nothing from it). Jobs past the pool's size wait in a queue, and whoever
waits is told where their job stands (how many are ahead, then how many decisions are judged).
The same hand asked for twice while it is queued or worked on is one job. A job that starts while
more than one worker is free has its decisions shared out among them, every other one to each of two
(each decision is judged apart, on its own generator, so the parts join into the same analysis): a
hand, or one seat of it, asked for alone comes back sooner, and a hand of three seats is not left to
the worker that drew two of them.

The workers run in the idle scheduling class (``idle_class``), and at the lowest priority (``NICE``)
where there is none: the tables' processes come first on every core, and an analysis only takes what
they leave. On a machine whose cores something else keeps busy, analyses then wait for it to let go;
``CARDTUI_ANALYSIS_YIELDS=0`` in the server's environment runs them at the usual priority instead (the
tests do, so that they pass while another process keeps both cores busy).

An analysis made or kept is put in its wire message by one more process (``build``), at the tables'
priority, not on the loop: a Pif Paf hand's message replays the hand for each decision's view, time
that would hold every table of the process (measured in ``bench/marks.md``).

The workers come from a fork server, like the bots' pool (``server.thinking``): the pool is made
before the gRPC server exists, since forking a process that runs gRPC is not safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import forkserver, resource_tracker
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from cardtui.server.thinking import _stderr_with_a_descriptor, _watch
from cardtui.server.workers import cores

log = logging.getLogger("cardtui.analysis")

T = TypeVar("T")

QUEUED = 64
"""Jobs that may wait at once; past it a request is refused (RESOURCE_EXHAUSTED)."""
NICE = 19
"""How much the workers' priority is lowered (19: the lowest)."""
YIELDS_ENV = "CARDTUI_ANALYSIS_YIELDS"
"""``0`` in the server's environment: the workers keep the usual priority (``yields``)."""


def yields() -> bool:
    """Whether the workers give way to every other process (the idle class, the lowest nice): unless the
    environment says ``CARDTUI_ANALYSIS_YIELDS=0``."""
    return os.environ.get(YIELDS_ENV, "1") != "0"

Job = Callable[[str, int, tuple[int, ...], int, int, Callable[[int, int], None]], str]
"""What a worker runs: (a hand history's JSON, a seed, the seats, which part of how many parts of their decisions,
a progress callback) → the analysis's JSON."""

_progress: Any = None
"""In each worker: the queue its jobs report progress on."""


def analyse_hand(record: str, seed: int, seats: tuple[int, ...], part: int, parts: int,
                 progress: Callable[[int, int], None]) -> str:
    """The real job: one hand's analysis (``engine.analysis``), or one part of it, as JSON."""
    from cardtui.engine import analysis

    done = analysis.analyse(json.loads(record), seed=seed, seats=seats or None, progress=progress, part=part,
                            parts=parts)
    return json.dumps(analysis.to_json(done))


def idle_class() -> bool:
    """Put this process in the idle scheduling class (``SCHED_IDLE``): it runs only on a core no other
    process wants, and a table's thread that wakes takes that core back at once, where a process that is
    only niced may keep it for the rest of its slice. False where the system has no such class."""
    policy = getattr(os, "SCHED_IDLE", None)
    if policy is None:
        return False
    try:
        os.sched_setscheduler(0, policy, os.sched_param(0))
    except OSError:
        return False
    return True


def _start(alive: Connection, reports: Any, yielding: bool) -> None:
    global _progress
    _progress = reports
    if yielding:
        with contextlib.suppress(OSError):
            os.nice(NICE)
        idle_class()
    _watch(alive)


def _run(job: Job, job_id: int, part: int, parts: int, record: str, seed: int, seats: tuple[int, ...]) -> str:
    def progress(done: int, total: int) -> None:
        if _progress is not None:
            _progress.put((job_id, part, done, total))

    return job(record, seed, seats, part, parts, progress)


def merge(parts: Sequence[str]) -> str:
    """Parts of one hand's analysis, made apart, as one (``engine.analysis.to_json``): every seat, every
    decision in the hand's order."""
    if len(parts) == 1:
        return parts[0]
    docs = [json.loads(p) for p in parts]
    whole = dict(docs[0])
    whole["seats"] = sorted({int(s) for d in docs for s in d["seats"]})
    whole["decisions"] = sorted((m for d in docs for m in d["decisions"]), key=lambda m: int(m["step"]))
    return json.dumps(whole)


Listener = Callable[["Status"], None]


@dataclass(frozen=True, slots=True)
class Status:
    """Where a job stands: waiting with ``ahead`` jobs before it in the queue (0: it starts next), or
    ``started``, with ``done`` of ``total`` decisions judged."""

    ahead: int = 0
    done: int = 0
    total: int = 0
    started: bool = False


@dataclass
class _Job:
    id: int
    key: tuple[Any, ...]
    record: str
    seed: int
    seats: tuple[int, ...]
    future: asyncio.Future[str]
    listeners: list[Listener] = field(default_factory=list)
    status: Status = Status()
    parts: list[tuple[int, int]] = field(default_factory=list)
    """Each running part's progress: (decisions judged, decisions in all)."""
    results: dict[int, str] = field(default_factory=dict)

    def tell(self, status: Status) -> None:
        self.status = status
        for listener in list(self.listeners):
            listener(status)


class AnalysisPool:
    """At most ``workers`` analyses at once, in worker processes; the rest queued, in order."""

    def __init__(self, workers: int, job: Job = analyse_hand, queued: int = QUEUED, yielding: bool | None = None
                 ) -> None:
        self.workers = max(1, min(workers, cores()))
        self.yielding = yields() if yielding is None else yielding
        """The workers give way to every other process (``yields``)."""
        self.queued = queued
        self._job = job
        context = multiprocessing.get_context("forkserver")
        with _stderr_with_a_descriptor():
            resource_tracker.ensure_running()
            forkserver.ensure_running()
            watched, self._alive = context.Pipe(duplex=False)
            self._reports: Any = context.Queue()
        self._context, self._watched = context, watched
        self._pool = self._new_pool()
        self._builder = self._new_builder()
        self._ids = itertools.count(1)
        self._waiting: deque[_Job] = deque()
        self._running: dict[int, _Job] = {}
        self._busy = 0
        """Workers at work: a job's parts each take one."""
        self._by_key: dict[tuple[Any, ...], _Job] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reader = threading.Thread(target=self._read, daemon=True, name="cardtui-analysis-progress")
        self._reader.start()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=self._context, initializer=_start,
                                   initargs=(self._watched, self._reports, self.yielding))

    def pids(self) -> list[int]:
        """The pool's processes now, the one that builds the wire messages included (``server.metrics``)."""
        return sorted([*(self._pool._processes or ()), *(self._builder._processes or ())])

    def _new_builder(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=1, mp_context=self._context, initializer=_watch,
                                   initargs=(self._watched,))

    async def build(self, make: Callable[..., T], *args: Any) -> T:
        """``make(*args)`` in the builder's process (a wire message's bytes, the store's JSON: made off the tables'
        loop); a builder that died is started again once."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._builder, make, *args)
        except BrokenProcessPool:
            log.warning("The analysis's message builder died; it starts again.")
            self._builder.shutdown(wait=False, cancel_futures=True)
            self._builder = self._new_builder()
            return await loop.run_in_executor(self._builder, make, *args)

    # -- progress from the workers ---------------------------------------------------------------
    def _read(self) -> None:
        while True:
            try:
                item = self._reports.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            loop = self._loop
            if loop is not None and not loop.is_closed():
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self._progress, *item)

    def _progress(self, job_id: int, part: int, done: int, total: int) -> None:
        job = self._running.get(job_id)
        if job is not None and part < len(job.parts):
            job.parts[part] = (done, total)
            job.tell(Status(0, sum(d for d, _ in job.parts), sum(t for _, t in job.parts), True))

    # -- jobs ------------------------------------------------------------------------------------
    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def running(self) -> int:
        return len(self._running)

    @property
    def idle(self) -> bool:
        """Whether a job asked for now would start at once (a worker free, nobody waiting)."""
        return not self._waiting and self._busy < self.workers

    def submit(self, key: tuple[Any, ...], record: str, seed: int, seats: Sequence[int],
               listener: Listener | None = None) -> asyncio.Future[str] | None:
        """The analysis of ``record`` (its JSON when done); the same ``key`` in flight is the same job.
        ``listener`` is told where the job stands as it moves. None when the queue is full."""
        self._loop = asyncio.get_running_loop()
        job = self._by_key.get(key)
        if job is None:
            if len(self._waiting) >= self.queued:
                return None
            job = _Job(next(self._ids), key, record, seed, tuple(seats), self._loop.create_future())
            self._by_key[key] = job
            self._waiting.append(job)
            job.future.add_done_callback(self._finisher(job))
            self._schedule()
        if listener is not None:
            job.listeners.append(listener)
            listener(job.status)
        return job.future

    def forget(self, future: asyncio.Future[str], listener: Listener) -> None:
        """A waiter that left: it is told nothing more. A job at work goes on (its result is kept); one still
        queued that nobody waits for any more is dropped, so that asking and leaving, again and again, does
        not fill the queue with work nobody will read."""
        for job in (*self._waiting, *self._running.values()):
            if job.future is future and listener in job.listeners:
                job.listeners.remove(listener)
                if not job.listeners and job in self._waiting:
                    job.future.cancel()  # ``_finished`` takes it out of the queue

    def _schedule(self) -> None:
        assert self._loop is not None
        while self._waiting and self._busy < self.workers:
            job = self._waiting.popleft()
            self._running[job.id] = job
            parts = max(1, self.workers - self._busy)
            self._busy += parts
            job.parts = [(0, 0)] * parts
            job.tell(Status(0, 0, 0, True))
            for n in range(parts):
                self._launch(job, n, parts)
        for ahead, job in enumerate(self._waiting):
            if job.status != Status(ahead=ahead):
                job.tell(Status(ahead=ahead))

    def _launch(self, job: _Job, part: int, parts: int) -> None:
        assert self._loop is not None
        args = (self._job, job.id, part, parts, job.record, job.seed, job.seats)
        try:
            work = self._loop.run_in_executor(self._pool, _run, *args)
        except BrokenProcessPool:
            log.warning("An analysis worker process died; the analysis workers start again.")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            work = self._loop.run_in_executor(self._pool, _run, *args)

        def settle(done: asyncio.Future[str]) -> None:
            self._busy -= 1
            failed = None if done.cancelled() else done.exception()  # read, even when another part's is told
            if not job.future.done():
                if done.cancelled():
                    job.future.cancel()
                elif failed is not None:
                    job.future.set_exception(failed)
                else:
                    job.results[part] = done.result()
                    if len(job.results) == parts:
                        job.future.set_result(merge([job.results[n] for n in range(parts)]))
            if self._loop is not None and not self._loop.is_closed():
                self._schedule()

        work.add_done_callback(settle)

    def _finisher(self, job: _Job) -> Callable[[asyncio.Future[str]], None]:
        return lambda _done: self._finished(job)

    def _finished(self, job: _Job) -> None:
        if not job.future.cancelled():
            job.future.exception()  # whoever waits is told; with nobody left waiting, it is not an error to log
        self._running.pop(job.id, None)
        if self._by_key.get(job.key) is job:
            del self._by_key[job.key]
        with contextlib.suppress(ValueError):
            self._waiting.remove(job)
        if self._loop is not None and not self._loop.is_closed():
            self._schedule()

    def close(self) -> None:
        for job in (*self._waiting, *self._running.values()):
            if not job.future.done():
                job.future.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._builder.shutdown(wait=False, cancel_futures=True)
        with contextlib.suppress(OSError, ValueError):
            self._reports.put(None)
        self._alive.close()


def pool(workers: int, job: Job = analyse_hand) -> AnalysisPool | None:
    """A pool of ``workers`` analysis processes (at most one per core); None for none, or if this system
    will not start one (then the server analyses nothing, and says so to whoever asks)."""
    if workers <= 0:
        return None
    try:
        return AnalysisPool(workers, job)
    except (OSError, ValueError) as err:
        log.warning("No analysis worker process could start (%s): hands are not analysed.", err)
        return None
