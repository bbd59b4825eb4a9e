"""Where a server logs (``cardtui serve --log-file PATH``): standard error, or a file that rotates; and repeated
failures said once per kind every few seconds, wherever they go.

A store that goes away, a client that keeps sending what is refused, a sweep that fails every second: each would
write the same failure again and again, and a disk fills with tracebacks. So every line at ERROR or above passes
the same ``Throttle`` the store's outage and the refusals use (``server.limits``): one line per kind (its logger
and its message's template) every ``outage.LINE_SECONDS``, the next saying how many were left out.

The file has one writer, the front: rotation renames files, and two processes rotating one file would each lose
the other's lines. A table worker sends its records to the front over a queue (``worker``), and the front writes
them with its own.
"""

from __future__ import annotations

import atexit
import logging
import logging.handlers
import multiprocessing
import sys
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

from cardtui.i18n import _
from cardtui.server.clock import REAL, Clock
from cardtui.server.limits import Throttle
from cardtui.server.outage import LINE_SECONDS

FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
MAX_MB = 10
"""The default size of the log file before it rotates."""
BACKUPS = 5
"""The default number of rotated files kept (``PATH.1`` … ``PATH.5``)."""

_queue: Queue[Any] | None = None
"""Where this process's table workers send their records (the front, with a log file), or None."""


class Repeats(logging.Filter):
    """Failures (ERROR and above) at most one line per kind every ``every`` seconds: the kind is the logger and
    the message's template, so the same failure about a thousand tables is one line and a count."""

    def __init__(self, every: float = LINE_SECONDS, clock: Clock = REAL) -> None:
        super().__init__()
        self.throttle = Throttle(logging.getLogger("cardtui"), every, clock)

    def filter(self, record: logging.LogRecord) -> bool:
        decided = getattr(record, "cardtui_let", None)  # the same record passes every handler: decided once
        if decided is not None:
            return bool(decided)
        let = True
        if record.levelno >= logging.ERROR:
            said = self.throttle.let(f"{record.name} {record.msg}")
            if said is None:
                let = False
            elif said[0]:
                record.msg = record.getMessage() + " (and %d more like it in %.0f s, not logged)"
                record.args = said
        record.cardtui_let = let
        return let


def _handler(handler: logging.Handler, level: int, repeats: Repeats) -> logging.Handler:
    handler.setLevel(level)
    # The front's handler formats what a worker sends: a worker's queue passes the message alone on.
    queued = isinstance(handler, logging.handlers.QueueHandler)
    handler.setFormatter(logging.Formatter("%(message)s" if queued else FORMAT))
    handler.addFilter(repeats)
    return handler


def rotating(path: str, max_mb: float = MAX_MB, backups: int = BACKUPS) -> logging.handlers.RotatingFileHandler:
    """The log file, its folder made if need be; renamed to ``PATH.1`` (and the older ones along) once it would
    grow past ``max_mb`` megabytes, ``backups`` old files kept."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return logging.handlers.RotatingFileHandler(path, maxBytes=int(max_mb * 1024 * 1024), backupCount=backups,
                                                encoding="utf-8")


def setup(level: str, path: str | None = None, max_mb: float = MAX_MB, backups: int = BACKUPS) -> str | None:
    """The front's log: standard error, or ``path`` rotated at ``max_mb`` megabytes with ``backups`` old files
    kept, where the table workers' records go too (``worker``). None, or the sentence saying why the file cannot
    be written."""
    global _queue
    number = logging.getLevelName(level.upper())
    repeats = Repeats()
    if path is None:
        logging.basicConfig(level=number, handlers=[_handler(logging.StreamHandler(), number, repeats)])
        return None
    if not 0.01 <= max_mb <= 100_000:
        return _("--log-max-mb must be between 0.01 and 100000.")
    if not 0 <= backups <= 1000:
        return _("--log-backups must be between 0 and 1000 (0: the file is emptied when full).")
    try:
        file = _handler(rotating(path, max_mb, backups), number, repeats)
    except OSError as e:
        return _("cannot write the log file {file}: {error}.").format(file=path, error=e.strerror or e)
    logging.basicConfig(level=number, handlers=[file])
    _queue = multiprocessing.get_context("forkserver").Queue()
    listener = logging.handlers.QueueListener(_queue, file, respect_handler_level=True)
    listener.start()
    atexit.register(listener.stop)
    print(_("logging to {file}").format(file=path), file=sys.stderr, flush=True)
    return None


def shared() -> Queue[Any] | None:
    """Where this process's table workers send their records (None: to standard error, as the front's)."""
    return _queue


def worker(level: int, queue: Queue[Any] | None) -> None:
    """A table worker's log: to the front's file over ``queue``, or to standard error."""
    repeats = Repeats()
    handler: logging.Handler = logging.StreamHandler() if queue is None else logging.handlers.QueueHandler(queue)
    logging.basicConfig(level=level, handlers=[_handler(handler, level, repeats)], force=True)
