"""Every pool of processes a server process owns, made in one place (``start_pools``) before the
process has a gRPC server.

Forking a process that runs gRPC is not safe: grpc's threads and their locks are copied in
whatever state they are in, and a child can wait forever on a lock no thread of its own holds.
So a server process makes its pools first, and only then its gRPC server; and every process a
pool makes, then or later (a table worker in the place of a dead one, a bots' worker after a
crash), is forked from a fork server started here, a process that has the server's modules
imported and never runs gRPC.

Which process owns which pool (docs/hosting.md, "How the server is laid out"):

- the lobby's process (``cardtui serve``): the table workers (``--workers N``, ``server.workers``),
  and a bots' pool for the tables it drives itself (a tournament's, or all of them with one worker);
- each table worker: a bots' pool for its tables (``--bot-workers``), made here as the worker
  starts, before its own gRPC server;
- the analysis of finished hands belongs to the lobby's process, beside the table workers and
  never on a table's loop: a bounded pool of at most one job per core (``server.workers.cores``),
  made in ``start_pools`` after the table workers, from the same fork server, and closed with the
  others (``Pools.close``). A table's loop only hands it a finished hand's history and waits for
  nothing from it; its results go to the store, so that a hand is analysed once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from cardtui.server import analysis_pool
from cardtui.server.analysis_pool import AnalysisPool
from cardtui.server.thinking import Thinker, thinker
from cardtui.server.workers import Target, Workers, WorkerSettings

log = logging.getLogger("cardtui.pools")


@dataclass
class Pools:
    """A server process's pools of processes, all made before its gRPC server (``start_pools``)."""

    workers: Workers | None
    """The table workers (the lobby's process with ``--workers`` above 1); None: this process
    drives every table, or is a table worker itself."""
    bots: Thinker | None
    """Where the bots of this process's tables think (None: on the event loop)."""
    analyst: AnalysisPool | None = None
    """Where finished hands are analysed (the lobby's process; None: nowhere, as in a table worker)."""

    async def stop_workers(self, grace: float) -> None:
        """The table workers told to stop (``grace`` seconds for their streams), and ended if they
        have not: first, as a server stops, so that no table is left half served."""
        if self.workers is not None:
            await self.workers.stop(grace)
            self.workers = None

    async def close(self, grace: float) -> None:
        """Every pool ended: the table workers (if still running), then the bots' and the analysis's."""
        await self.stop_workers(grace)
        if self.bots is not None:
            self.bots.close()
            self.bots = None
        if self.analyst is not None:
            self.analyst.close()
            self.analyst = None


async def start_pools(workers: int, settings: WorkerSettings, target: Target, bot_workers: int,
                      analysis_workers: int = 0) -> Pools:
    """Every pool of a server process, started and ready; the one place where a server process
    makes processes, called before it makes its gRPC server.

    ``workers``: table workers to start (above 1, in the lobby's process only), each running
    ``target`` with ``settings``; ``bot_workers``: the bots' pool's processes; ``analysis_workers``:
    the analysis pool's (0 in a table worker). The table workers
    come first: their fork server is then the first, and the pools after them fork from it. A
    pool for work that must never slow a table (analysing finished hands) is made here too, in
    the lobby's process, after the table workers."""
    team: Workers | None = None
    try:
        if workers > 1:
            team = Workers(workers, settings, target)
            await team.start()
        bots = thinker(bot_workers)
        return Pools(team, bots, analysis_pool.pool(analysis_workers))
    except BaseException:
        if team is not None:
            await team.stop(0)
        raise
