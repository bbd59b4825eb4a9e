"""A table asked to move to another process while its hand is in play goes at the moment the hand ends
(``Room.hand_over_soon``): the pause before the next deal is short, and a look now and then missed it. And a table
let go by a worker whose answer came too late is still taken by the worker it went to (``Placement.handed``)."""

from __future__ import annotations

import asyncio
import contextlib
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pytest

from cardtui.server.app import Running
from cardtui.server.processes.placement import Placement
from cardtui.server.processes.takeover import Keeper
from cardtui.server.processes.workers import Slot
from cardtui.server.store import Place
from tests.conftest import bots_wait, one_person_with_bots
from tests.waiting import PATIENCE

if TYPE_CHECKING:
    from cardtui.server.lobby.room import Room
    from cardtui.server.lobby.routes import Router
    from cardtui.server.processes.workers import Workers
    from cardtui.server.store import Store


async def test_a_table_asked_to_move_mid_hand_is_let_go_the_moment_its_hand_ends(server: Running) -> None:
    ana, table, match = await one_person_with_bots(server, game="truco_argentino", seats=2, bots=1)
    try:
        bots_wait(table)  # nobody moves but the test
        if server.keeper is not None:  # nor sweeps the table let go to nobody back (as it would, a moment later)
            await server.keeper.stop()
        room = server.room
        assert not table.movable and room.hand_over([table.id], 1) == [], "a look now finds it in a hand"
        asking = asyncio.create_task(room.hand_over_soon([table.id], 1, wait=PATIENCE))
        await asyncio.sleep(0)  # the ask runs to its wait for the hand's end
        assert not asking.done() and room.tables.get(table.id) is table
        seat = match.to_act()[0]
        mazo = next(a for a in match.legal_actions(seat) if a.type == "mazo")
        table._apply(seat, mazo)  # to the deck: the hand ends, and the next is dealt after the pause
        assert await asking == [table.id]
        assert table.id not in room.tables and table.match is match and match.hand_over(), "let go before a deal"
        place = room.store.owners.place(table.id)
        assert place is not None and place.owner is None, "handed to nobody, as asked"
    finally:
        await ana.close()


async def test_an_ask_that_is_over_lets_no_table_go_at_a_later_hands_end(server: Running) -> None:
    ana, table, match = await one_person_with_bots(server, game="truco_argentino", seats=2, bots=1)
    try:
        bots_wait(table)
        told = table.on_between_hands
        assert await server.room.hand_over_soon([table.id], 1, wait=0) == []
        assert await server.room.hand_over_soon([table.id], 1, wait=0.01) == []  # (no hand ends meanwhile)
        assert table.on_between_hands is told, "the table is told of its hands' ends as before"
        seat = match.to_act()[0]
        table._apply(seat, next(a for a in match.legal_actions(seat) if a.type == "mazo"))
        await asyncio.sleep(0)
        assert server.room.tables.get(table.id) is table and match.hand_over()
    finally:
        await ana.close()


class Owners:
    """The store's owners as ``Placement`` reads them: each table's owner."""

    def __init__(self, places: dict[str, str]) -> None:
        self.places = places

    def driven(self) -> list[Place]:
        return [Place(table_id, owner, "", 1, False, False) for table_id, owner in self.places.items()]


class LateAnswers:
    """Workers whose answer to a hand-over comes after the call's deadline: the busy worker let the tables go to
    ``to`` in the store all the same (``let_go``) or not at all, and the front hears only the deadline."""

    def __init__(self, owners: Owners, let_go: bool) -> None:
        self.owners, self.let_go = owners, let_go
        self.taken: list[tuple[str, list[str]]] = []

    async def hand_over(self, address: str, table_ids: list[str], most: int, to: str) -> list[str]:
        if self.let_go:
            for table_id in table_ids[:most]:
                self.owners.places[table_id] = to
        raise TimeoutError("Deadline Exceeded")

    async def take_over(self, address: str, table_ids: list[str]) -> list[str]:
        self.taken.append((address, table_ids))
        return table_ids


@pytest.mark.parametrize("let_go", [True, False])
async def test_tables_let_go_whose_answer_was_lost_are_taken_by_the_worker_they_went_to(let_go: bool) -> None:
    owners = Owners({f"t{n}": "w1" for n in range(4)})
    slots = [Slot(0, 1, owner="w1", address="a1"), Slot(1, 2, owner="w2", address="a2")]
    placement = Placement(cast("Workers", SimpleNamespace(live=lambda: slots)),
                          cast("Store", SimpleNamespace(owners=owners)))
    router = LateAnswers(owners, let_go)
    with pytest.raises(TimeoutError):
        await placement.even_out(cast("Router", router))
    router.let_go = False
    with contextlib.suppress(TimeoutError):  # (asked again to even out, where nothing moved)
        await placement.even_out(cast("Router", router))
    assert router.taken == ([("a2", ["t0", "t1"])] if let_go else []), "each let go, taken where it went"


async def test_a_dead_workers_tables_go_to_the_emptiest_live_worker_not_in_turn() -> None:
    """A sweep that runs once the dead worker's replacement serves (a busy host, another host's tables) gives each
    table to the worker with the fewest: in turn, the survivor got its share too, and evening out then moved it."""
    class Work(Owners):
        def work(self) -> dict[str, tuple[int, int]]:
            counts: dict[str, int] = {}
            for owner in self.places.values():
                counts[owner] = counts.get(owner, 0) + 1
            return {owner: (n, 0) for owner, n in counts.items()}

    owners = Work({"s1": "w1", "s2": "w1", "s3": "w1", **{f"d{n}": "gone" for n in range(1, 5)}})
    slots = [Slot(0, 1, owner="w1", address="a1"), Slot(1, 2, owner="w2", address="a2")]
    router = LateAnswers(owners, let_go=False)
    keeper = Keeper(cast("Room", SimpleNamespace(store=SimpleNamespace(owners=owners))), cast("Router", router),
                    cast("Workers", SimpleNamespace(live=lambda: slots)))
    orphans = [Place(f"d{n}", "gone", "", 1, False, False) for n in range(1, 5)]
    assert await keeper._hand_out(orphans) == 4
    assert sorted(router.taken) == [("a1", ["d4"]), ("a2", ["d1", "d2", "d3"])], "4 and 3, none to move back"
