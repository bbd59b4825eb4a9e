"""Which table worker drives a table: a new table goes to the worker with the least work, and tables move back
between hands until the workers are even again (docs/hosting.md, "Which worker drives a table").

A worker's work is read when it is needed, from what outlives any one process: its open tables and the seats
people hold at them (the store), and the moves made at its tables in the last minute (its place's counters,
``server.base.metrics``, which its replacement counts on from). Workers are compared by tables first, then seats,
then recent moves: the tables are what a worker's memory and its share of a restart follow, the seats its
streams, the moves its core.

Handing tables out in turn left a host uneven for good once a worker died: the survivor took the dead one's
tables and drove them until they closed, while the replacement started empty and got only its turn of the new
ones (a night ended 26 tables against 3). Now the survivor's tables move back: a table moves only between hands
(``Table.movable``), as a takeover moves it (whole, from its journal, its streams told where it went), one
worker's surplus at a time, until no worker drives more than one table more than another.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardtui.server.base.metrics import counted

if TYPE_CHECKING:
    from cardtui.server.lobby.routes import Router
    from cardtui.server.processes.workers import Slot, Workers
    from cardtui.server.store import Store

log = logging.getLogger("cardtui.placement")

RECENT_SECONDS = 60.0
"""The moves that count as a worker's recent work: those of the last minute."""


@dataclass(frozen=True, slots=True, order=True)
class Work:
    """What a worker drives now, compared in this order: the least is the emptiest."""

    tables: int
    seats: int
    acts: int
    """Moves made at its tables in the last minute (``RECENT_SECONDS``)."""


def acts_counted(folder: str) -> int:
    """The moves counted in a worker's place so far (every process that held it), from its counters' files."""
    total = 0.0
    for family in counted(folder):
        if family.name == "cardtui_acts":
            total += sum(s.value for s in family.samples if s.name == "cardtui_acts_total")
    return int(total)


class Placement:
    """The work of each of a host's table workers, and the rule that places and moves tables by it."""

    def __init__(self, workers: Workers, store: Store, acts: Callable[[str], int] = acts_counted,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.workers = workers
        self.store = store
        self.acts = acts
        self.now = now
        self._seen: dict[int, deque[tuple[float, int]]] = {}
        """Each place's moves counted, as looked at over the last minute."""
        self._turn = 0
        self.handed: dict[int, list[str]] = {}
        """Tables that may have been handed to a worker (by its place's index) that it has not said it took: those
        the fullest was asked to let go, until it answered (its answer late or lost, as when a busy worker answers
        after the call's deadline, it may have let some go all the same), then those it let go, until the emptiest
        answered. At the next step, those of them the store says are the worker's are asked of it again (a table
        it drives already is left as it is), so none is left handed to a worker that never took it."""

    def _recent(self, slot: Slot) -> int:
        if not slot.counts:
            return 0
        now, total = self.now(), self.acts(slot.counts)
        seen = self._seen.setdefault(slot.index, deque())
        seen.append((now, total))
        while len(seen) > 1 and seen[1][0] <= now - RECENT_SECONDS:
            seen.popleft()
        return total - seen[0][1]

    def work(self, live: list[Slot] | None = None) -> dict[int, Work]:
        """Each live worker's work now (of ``live``, if given), by its place's index."""
        owned = self.store.owners.work()
        return {slot.index: Work(*owned.get(slot.owner, (0, 0)), self._recent(slot))
                for slot in (self.workers.live() if live is None else live)}

    def pick(self) -> str | None:
        """Where a new table goes: the live worker with the least work (the first in turn of equals); None while
        none is serving."""
        live = self.workers.live()
        if not live:
            return None
        work = self.work(live)
        self._turn += 1
        n = len(live)
        order = {slot.index: (i - self._turn) % n for i, slot in enumerate(live)}
        return min(live, key=lambda slot: (work[slot.index], order[slot.index])).address

    def surplus(self) -> tuple[Slot, Slot, list[str], int] | None:
        """The move that evens the workers out most, if they are not even within one table: the fullest
        worker, the emptiest, the fullest's tables (oldest first), and how many to move."""
        live = self.workers.live()
        if len(live) < 2:
            return None
        mine: dict[str, list[str]] = {slot.owner: [] for slot in live}
        for place in self.store.owners.driven():
            if place.owner in mine and not place.tournament:
                mine[place.owner].append(place.table_id)
        fullest = max(live, key=lambda slot: len(mine[slot.owner]))
        emptiest = min(live, key=lambda slot: len(mine[slot.owner]))
        gap = len(mine[fullest.owner]) - len(mine[emptiest.owner])
        if gap <= 1:
            return None
        return fullest, emptiest, mine[fullest.owner], gap // 2

    async def even_out(self, router: Router) -> int:
        """One step towards even workers: the fullest lets go of its surplus's tables that are between hands,
        handing them to the emptiest in the store, and the emptiest takes them over; how many moved. A worker that
        does not answer in time is asked again at the next step (it may be busy restoring them); one that died
        meanwhile leaves them to the next sweep for tables whose process is gone."""
        live = {slot.index: slot for slot in self.workers.live()}
        for index, ids in list(self.handed.items()):  # maybe handed before, not said taken: asked again
            slot = live.get(index)
            if slot is None:  # gone: the tables handed to it are found by the sweep
                del self.handed[index]
                continue
            asked = set(ids)
            theirs = [p.table_id for p in self.store.owners.driven() if p.owner == slot.owner and p.table_id in asked]
            if theirs:
                await router.take_over(slot.address, theirs)
            del self.handed[index]
        plan = self.surplus()
        if plan is None:
            return 0
        fullest, emptiest, tables, most = plan
        self.handed[emptiest.index] = tables
        released = await router.hand_over(fullest.address, tables, most, emptiest.owner)
        if not released:
            del self.handed[emptiest.index]
            return 0
        self.handed[emptiest.index] = released
        taken = await router.take_over(emptiest.address, released)
        self.handed.pop(emptiest.index, None)
        log.info("%d tables moved from table worker %d to table worker %d between hands, to even them out",
                 len(taken), fullest.index + 1, emptiest.index + 1)
        return len(released)
