"""Where bots think: in worker processes, off the event loop.

A hard bot searches for tens of milliseconds a move. On the event loop, every search would
hold up every table's actions and streams, and twenty tables of hard bots were enough to
push the room's p99 past a second. A bot decides from a snapshot (``engine.core.Decision``:
its seat's view and legal actions), so the search can run in another process while the
loop serves everyone else; the table applies the answer only if nothing moved meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import forkserver, resource_tracker
from multiprocessing.connection import Connection

from cardtui.engine.core import Action, Decision
from cardtui.engine.games import get

log = logging.getLogger("cardtui.thinking")


def decide(decision: Decision, seed: int) -> Action:
    """A bot's choice, in whichever process runs it (each worker imports the games once)."""
    return get(decision.game).decide(decision, random.Random(seed))


def _watch(alive: Connection) -> None:
    """In each worker: end with the server. ``alive``'s other end is the server's alone, so
    reading it ends (EOF) when the server does, even when it is killed outright."""

    def wait() -> None:
        with contextlib.suppress(EOFError, OSError):
            alive.recv_bytes()
        os._exit(0)

    threading.Thread(target=wait, daemon=True).start()


@contextlib.contextmanager
def _stderr_with_a_descriptor() -> Iterator[None]:
    """``sys.stderr`` as a real file for a while. A full-screen client that hosts the server
    (``cardtui play``) captures stderr in an object with no descriptor (-1), and
    multiprocessing refuses to start its helper processes with that."""
    saved = sys.stderr
    try:
        usable = saved.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable or sys.__stderr__ is None:
        yield
        return
    sys.stderr = sys.__stderr__
    try:
        yield
    finally:
        sys.stderr = saved


class Thinker:
    """A pool of worker processes for the bots' decisions.

    Workers come from a fork server started without the server's threads (forking a process
    that runs gRPC is not safe), with the games already imported, so a new worker is ready
    at once.
    """

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["cardtui.engine.games"])
        with _stderr_with_a_descriptor():
            # Now, not at the first bot's move: the helper processes multiprocessing starts
            # (its resource tracker, the fork server) are handed stderr's descriptor.
            resource_tracker.ensure_running()
            forkserver.ensure_running()
            watched, self._alive = context.Pipe(duplex=False)
        self._workers, self._context, self._watched = workers, context, watched
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self._workers, mp_context=self._context, initializer=_watch,
                                   initargs=(self._watched,))

    def decide(self, decision: Decision, seed: int) -> asyncio.Future[Action]:
        """The decision, made in a worker; ``seed`` makes its chances repeatable.

        A pool broken by a worker that died (killed, out of memory) is replaced once, here; a
        pool that cannot take the work raises, and the table decides on the loop instead."""
        loop = asyncio.get_running_loop()
        try:
            return loop.run_in_executor(self._pool, decide, decision, seed)
        except BrokenProcessPool:
            log.warning("A bot worker process died; the bots' workers start again.")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return loop.run_in_executor(self._pool, decide, decision, seed)

    def pids(self) -> list[int]:
        """The pool's processes now (for their figures: ``server.metrics``)."""
        return sorted(self._pool._processes or ())  # the executor's own table of them: the standard library's

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._alive.close()


def thinker(workers: int) -> Thinker | None:
    """A pool of ``workers`` processes; None for none, or if this system will not start one
    (then the bots think on the loop, slower for everyone, and the log says why)."""
    if workers <= 0:
        return None
    try:
        return Thinker(workers)
    except (OSError, ValueError) as err:
        log.warning("The bots think on the event loop: no worker process could start (%s).", err)
        return None
