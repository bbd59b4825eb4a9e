"""A table that closes, or is let go to another process, leaves nothing in the server's memory past the room's
sweep.

A table is a web of references to itself, so only the collector frees it; the server walks its oldest generation
only now and then (``server.app``'s ``GC_THRESHOLDS``), and a busy worker kept every table that closed for hours
(bench/marks.md, "A closed table's memory"). The room's sweep runs a full collection after a table goes
(``Room.collect``). Here the collector's own passes are off, so the sweep's is the only one that can free them."""

from __future__ import annotations

import asyncio
import gc
import weakref

from cardtui.engine.games import GAMES, get
from cardtui.server.app import Running
from cardtui.server.lobby.room import COLLECT_SECONDS
from tests.conftest import create
from tests.waiting import eventually


async def test_a_table_that_closes_or_moves_away_is_freed_by_the_rooms_next_sweep(server: Running) -> None:
    room = server.room
    first, second = list(GAMES)[:2]  # any games: a table's memory is the same whatever is played at it
    ids = [await create(server, game=game, seats=min(get(game).player_counts), bots=min(get(game).player_counts))
           for game in (first, second, first)]
    await eventually(lambda: all(room.tables[i].hands_played >= 1 for i in ids), "a hand played at each table")
    tables = [room.tables[table_id] for table_id in ids]
    gone = [weakref.ref(t) for t in tables]
    loop = asyncio.get_running_loop()
    gc.disable()
    try:
        room.finish(tables[0], "The table's owner closed it.")
        room.lost(tables[1])  # moved to another process (``hand_over``)
        del tables
        now = loop.time()

        def freed() -> bool:  # a bot's move already due may hold its table until it runs: the next sweep frees it
            nonlocal now
            now += COLLECT_SECONDS / 4
            room.sweep(now)
            return gone[0]() is None and gone[1]() is None

        await eventually(freed, "the closed table and the one let go freed by the room's sweep")
        assert gone[2]() is not None and ids[2] in room.tables  # the one still open is kept
        now += 1
        assert room.collect(now) is None  # nothing went since: not yet due
        assert room.collect(now + COLLECT_SECONDS) is not None  # at least once every COLLECT_SECONDS
    finally:
        gc.enable()
