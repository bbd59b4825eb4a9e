"""A finished table names everyone who played it: the people who sat and left, whoever took a
seat over, and the bots by level; kept in the store, so that a restart (and a store written
before it was kept) lists the same."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import grpc

from cardtui.server.actor.table import Table
from cardtui.server.app import Running, start
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc
from tests.conftest import Player
from tests.server.test_seat_holders import play_until
from tests.waiting import eventually


async def finished(address: str, table_id: str) -> common_pb2.TableSummary:
    async with grpc.aio.insecure_channel(address) as ch:
        listed = await lobby_pb2_grpc.LobbyStub(ch).ListTables(lobby_pb2.ListTablesRequest(include_finished=True))
    return next(t for t in listed.tables if t.id == table_id)


async def ana_left_and_dan_took_her_seat(running: Running) -> str:
    """A truco table with a hard bot: ana plays, leaves (a bot plays on for her), dan takes her
    seat and plays a hand; then its owner closes it. Its id."""
    address = f"127.0.0.1:{running.port}"
    async with grpc.aio.insecure_channel(address) as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(
            game="truco_argentino", name="noite", seats=2, bots=1, bot_levels=["hard"], turn_seconds=3600))
        table_id = made.table.id
        table: Table = running.room.tables[table_id]
        ana = await Player(address).join(table_id, "ana")
        ana.subscribe()
        await ana.wait_for(lambda q: q.last_view is not None and q.last_view.hand >= 1)
        await lobby.Leave(lobby_pb2.LeaveRequest(token=ana.token))  # a bot plays on for ana
        await ana.close()
        await eventually(lambda: table.hands_played >= 1, "a hand the bot finishes for ana")
        dan = await Player(address).join(table_id, "dan")
        played = table.hands_played
        await play_until(dan, lambda: table.hands_played >= played + 1)
        await dan.close()
        open_summary = next(t for t in (await lobby.ListTables(lobby_pb2.ListTablesRequest())).tables
                            if t.id == table_id)
        assert not open_summary.played_people, "an open table says who plays now, in its seats"
        await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=table_id, owner_token=made.owner_token))
    return table_id


async def test_a_finished_table_names_the_people_and_the_bots_who_played_it(tmp_path: Path) -> None:
    store = tmp_path / "store.db"
    running = await start("127.0.0.1", 0, store, bot_delay=0.005, next_hand_delay=0.05)
    address = f"127.0.0.1:{running.port}"
    try:
        table_id = await ana_left_and_dan_took_her_seat(running)
        summary = await finished(address, table_id)
        assert summary.status == common_pb2.TABLE_STATUS_FINISHED
        assert list(summary.played_people) == ["ana", "dan"], "ana, who left, and dan, who took her seat"
        assert list(summary.played_bots) == ["hard"], "the table's bot, and the one that stood in for ana"
        assert [s.name for s in summary.seats if not s.bot] == ["dan"], "the seats: only who sat at the end"
    finally:
        await running.stop(grace=0.2)
    for forget in (False, True):  # kept in the store; a store from before keeps none, and it is worked out
        if forget:
            with sqlite3.connect(store) as db:
                db.execute("UPDATE tables SET played = NULL")
        running = await start("127.0.0.1", 0, store, bot_delay=0.005, next_hand_delay=0.05)
        try:
            summary = await finished(f"127.0.0.1:{running.port}", table_id)
            assert (list(summary.played_people), list(summary.played_bots)) == (["ana", "dan"], ["hard"])
        finally:
            await running.stop(grace=0.2)
