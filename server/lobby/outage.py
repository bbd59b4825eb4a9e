"""The store out of reach: said once, answered as ``UNAVAILABLE``, and over by itself when it answers again.

Where several hosts share a PostgreSQL database, the database may go away for a while (restarted, the network
down). Then every call that reads or writes it fails the same way; this module makes that one state of the
process rather than a failure per call:

- a call that meets it is refused with ``UNAVAILABLE`` and a sentence (``service.register`` maps it, the one place
  errors become statuses); a timer that meets it leaves its table to come back from the journal (``Room``);
- the log says it at most once per kind every ``LINE_SECONDS`` (how many more were left out, on the next line);
- the gRPC health service says ``NOT_SERVING`` from the first failure until the store answers again, and
  ``SERVING`` then: a probe asks the store every ``PROBE_SECONDS`` while it is away.

An embedded SQLite store never goes away: nothing of this happens there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from cardtui.i18n import N_
from cardtui.server.base.clock import REAL, Clock
from cardtui.server.base.limits import Throttle
from cardtui.server.store import Store, StoreDown

log = logging.getLogger("cardtui.store")

AWAY = N_("The server cannot reach its store just now; try again in a moment.")
"""What a call is told while the store is out of reach."""
LINE_SECONDS = 10.0
PROBE_SECONDS = 1.0


class Outage:
    """Whether this process's store answers, and what follows when it stops and starts again."""

    def __init__(self, store: Store, every: float = LINE_SECONDS, clock: Clock = REAL) -> None:
        self.store = store
        self.clock = clock
        self.throttle = Throttle(log, every, clock)
        self.away = False
        self.serving: Callable[[bool], Awaitable[None]] | None = None
        """Told False when the store goes away, True when it is back (the health service's status)."""
        self._probe: asyncio.Task[None] | None = None

    def said(self, kind: str, message: str, *args: object) -> None:
        """A line for the log about the outage, at most one per ``kind`` every ``LINE_SECONDS``."""
        self.throttle.say(logging.ERROR, kind, message, *args)

    def down(self, where: str, error: BaseException) -> None:
        """The store failed ``where`` (a call's name, a timer's): from now until it answers, the process is not
        serving."""
        self.said(f"down {where}", "the store is out of reach (%s): %s", where, " ".join(str(error).split()))
        if self.away:
            return
        self.away = True
        with contextlib.suppress(RuntimeError):  # no loop running: a start that failed says so itself
            if self._probe is None or self._probe.done():
                self._probe = asyncio.get_running_loop().create_task(self._until_back())

    async def _until_back(self) -> None:
        if self.serving is not None:
            await self.serving(False)
        while True:
            await self.clock.sleep(PROBE_SECONDS)
            try:
                self.store.ping()
            except StoreDown:
                continue
            self.away = False
            log.warning("the store answers again")
            if self.serving is not None:
                await self.serving(True)
            return

    async def stop(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probe
            self._probe = None
