"""Tables whose process is gone, driven again: a worker that died, a host that died, a restart.

A process that drives tables holds its owner's lock for as long as it lives (``Owners.register``).
A sweep tries the lock of every owner the store names: a lock that is free is a process that is
gone, however it went (kill -9 included). The sweeping process holds that lock while its tables
are handed out, so no other sweep hands them out too, and each table is taken with its epoch
raised (``Owners.claim``): whichever process takes a table first drives it, and the one that
drove it before can never write to it again. Each table comes back from its journal, as a
restart brings it back: the same cards, the same turn, no event number used twice.

Who takes what: a tournament's tables go to the process that runs the tournaments (the server's
own); other tables go to this host's live table workers, each to the one with the fewest tables, or,
where it has none, to this process. Sweeps run when a worker dies, and every few seconds where other
hosts share the store; after each, the workers are evened out (``server.processes.placement``): the
tables a survivor took move back, between hands, once the dead worker's replacement serves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from cardtui.server.lobby.room import Room
from cardtui.server.store import Place, StoreDown

if TYPE_CHECKING:
    from cardtui.server.hands.tournaments import Tournaments
    from cardtui.server.lobby.routes import Router
    from cardtui.server.processes.placement import Placement
    from cardtui.server.processes.workers import Workers

log = logging.getLogger("cardtui.takeover")

SWEEP_SECONDS = 2.0
"""How often a process looks for tables whose process is gone, where other processes share its store."""
EVEN_SECONDS = 0.25
"""How soon the workers are looked at again while they are uneven: a table is between hands for the next hand's pause
only (``--next-hand-delay``), which a look every two seconds missed hand after hand; the worker asked waits for its
tables' hands to end (``Room.hand_over_soon``), and is asked again this soon after."""


class Keeper:
    """Hands the tables of processes that are gone to live ones: this process, or its workers."""

    def __init__(self, room: Room, router: Router | None = None, workers: Workers | None = None,
                 lead: Callable[[], Tournaments | None] | None = None, placement: Placement | None = None) -> None:
        self.room = room
        self.placement = placement
        """Evens this host's table workers out after each sweep (``Placement.even_out``)."""
        self.router = router
        self.workers = workers
        self.lead = lead
        """Takes on the room's tournaments where no other process runs them (their new runner)."""
        self.leads = False
        self._lock = asyncio.Lock()
        self.uneven = False
        """The workers were uneven at the last look, and no table could move yet."""
        self._task: asyncio.Task[None] | None = None
        self._again = asyncio.Event()

    def drives(self, place: Place) -> bool:
        """Whether this process takes ``place``'s table itself: a tournament's where the tournaments
        run here, any other where this host has no workers."""
        return self.leads if place.tournament else self.workers is None

    async def sweep(self) -> int:
        """Every table whose process is gone, handed to a live process; how many were taken."""
        async with self._lock:
            store = self.room.store
            tournaments = self.lead() if self.lead is not None and not self.leads else None
            self.leads = self.leads or tournaments is not None
            try:
                places = store.owners.orphans()  # holds the locks of the owners found gone, until let go below
                taken = len(self.room.take_over([p for p in places if self.drives(p)]))
                rest = [p for p in places if not p.tournament and not self.drives(p)]
                if rest:
                    taken += await self._hand_out(rest)
                if taken:
                    log.info("%d tables whose process was gone are driven again", taken)
            finally:
                store.owners.let_go_dead()
            if forgotten := store.owners.clear_dead():
                log.info("%d processes gone, driving no table, forgotten", forgotten)
            if tournaments is not None and tournaments.restore():  # their tables are back: they go on
                log.info("the room's tournaments run here: %d restored", len(tournaments.all))
            return taken

    async def _hand_out(self, places: list[Place]) -> int:
        """The tables shared among the live workers, each to the one with the fewest tables then (those it drives
        and those handed to it here; of equals, the first); a worker that does not answer leaves its share for the
        next sweep. In turn, a sweep that ran once a dead worker's replacement served (a busy host, another host's
        tables) gave the fuller worker its share too, and evening out then moved tables that need not have moved."""
        assert self.workers is not None and self.router is not None
        live = self.workers.live()
        if not live:
            return 0
        owned = self.room.store.owners.work()
        held = {slot.index: owned.get(slot.owner, (0, 0))[0] for slot in live}
        shares: dict[str, list[str]] = {}
        for place in places:
            slot = min(live, key=lambda slot: held[slot.index])
            held[slot.index] += 1
            shares.setdefault(slot.address, []).append(place.table_id)
        router = self.router

        async def hand(address: str, ids: list[str]) -> int:
            try:
                return len(await router.take_over(address, ids))
            except Exception as e:  # a worker gone meanwhile: the next sweep finds these tables again
                log.warning("a worker did not take %d tables (%s); they are handed out again", len(ids), e)
                self.nudge()
                return 0

        # every worker restores its share at once: one after the other, a restart took as long as all the
        # tables' journals replayed on one core, however many workers the host has
        return sum(await asyncio.gather(*(hand(address, ids) for address, ids in shares.items())))

    async def even_out(self) -> int:
        """Tables moved between this host's workers, between hands, towards even (``Placement.even_out``); under
        the sweep's lock, so that no sweep hands out a table that is moving."""
        if self.placement is None or self.router is None:
            return 0
        async with self._lock:
            try:
                moved = await self.placement.even_out(self.router)
            except Exception as e:  # a worker gone meanwhile: what it let go is swept up, the next round tries again
                log.warning("tables could not be moved to even the workers out (%s); trying again", e)
                self.nudge()
                return 0
            self.uneven = self.placement.surplus() is not None  # after a move short of even too: on at once
            return moved

    def nudge(self) -> None:
        """Sweep soon (a worker died)."""
        self._again.set()

    def start(self, every: float | None = SWEEP_SECONDS) -> None:
        """Sweep when nudged, and every ``every`` seconds (None: only when nudged)."""

        async def run() -> None:
            while True:
                await self.room.clock.wait(self._again, EVEN_SECONDS if self.uneven else every)
                self._again.clear()
                # each on its own: a sweep that fails does not keep the workers uneven, nor the reverse
                for step, what in ((self.sweep, "the sweep for tables whose process is gone"),
                                   (self.even_out, "the evening out of the workers")):
                    try:
                        await step()
                    except StoreDown as e:  # said once; the next round, once it answers, does what is due
                        self.room.outage.down(what, e)
                    except Exception:
                        log.exception("%s failed; the next round tries again", what)
                        await self.room.clock.sleep(1.0)

        self._task = asyncio.get_running_loop().create_task(run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
