"""The last module the table workers' fork server imports (``workers.PRELOAD``): importing it there moves what
the fork server has loaded (the whole server, the games) out of the collector's sight (``gc.freeze``) before
it forks its first worker.

Why: a worker runs a full collection as it starts (``server.app.start``). In a fork that collection walked the
whole inherited heap and wrote to every object's header, copying page after page the worker would otherwise
share with the fork server: some 80 ms of a start (40 ms of a core), and the worker's memory the larger for it.
Frozen in the fork server, that heap is never walked by a worker's collections (0.5 ms), and its pages stay
shared. The analysis pool's workers are forked from the same fork server and gain the same.

What it costs: an object loaded before the fork that a worker later leaves in a reference cycle is never
collected. That is only what the fork server loaded (modules, their tables): fixed in size, and it does not
grow however long a worker runs, for a night of hours as for a minute. Everything a worker makes itself is
collected as ever; what it holds once started it freezes itself (``heap.freeze`` in ``server.app.start``).

Imported anywhere but in the fork server (a test, the checks that import each module alone), it does nothing.
"""

from __future__ import annotations

import gc
import sys
from multiprocessing import forkserver

from cardtui import heap

BY = "the table workers' fork server"
"""Who froze the heap, as ``heap.frozen()`` says in the fork server and in every process forked from it."""


def in_fork_server() -> bool:
    """Whether this import is the fork server's preload (``multiprocessing.forkserver.main`` runs below it)."""
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code is forkserver.main.__code__:
            return True
        frame = frame.f_back  # type: ignore[assignment]  # None past the outermost frame
    return False


if in_fork_server():
    gc.collect()  # what the imports left in cycles is not kept for good
    heap.freeze(BY)
