"""A table asked to move to another process while its hand is in play goes at the moment the hand ends
(``Room.hand_over_soon``): the pause before the next deal is short, and a look now and then missed it."""

from __future__ import annotations

import asyncio

from cardtui.server.app import Running
from tests.conftest import bots_wait, one_person_with_bots
from tests.waiting import PATIENCE


async def test_a_table_asked_to_move_mid_hand_is_let_go_the_moment_its_hand_ends(server: Running) -> None:
    ana, table, match = await one_person_with_bots(server, game="truco_argentino", seats=2, bots=1)
    try:
        bots_wait(table)  # nobody moves but the test
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
