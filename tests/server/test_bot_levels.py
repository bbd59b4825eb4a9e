"""Bot levels per seat, chosen when a table is created and shown on the seat; bots paced by decision."""

from __future__ import annotations

import grpc
import pytest

from cardtui.server.app import Running
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc
from tests.conftest import Player, create, one_person_with_bots
from tests.waiting import eventually


async def summary(server: Running, table_id: str) -> lobby_pb2.ListTablesResponse:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        return await lobby_pb2_grpc.LobbyStub(ch).ListTables(lobby_pb2.ListTablesRequest())


async def test_every_game_offers_its_levels(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        info = await lobby_pb2_grpc.LobbyStub(ch).GetInfo(lobby_pb2.GetInfoRequest())
    assert {g.name: list(g.bot_levels) for g in info.games} == {
        g.name: ["easy", "normal", "hard"] for g in info.games
    }


async def test_each_bot_seat_plays_at_its_level_and_shows_it(server: Running) -> None:
    table_id = await create(server, game="truco_argentino", seats=4, bots=3, bot_levels=["easy", "hard", ""])
    tables = await summary(server, table_id)
    (table,) = [t for t in tables.tables if t.id == table_id]
    assert [(s.bot, s.bot_level) for s in table.seats] == [
        (False, ""), (True, "easy"), (True, "hard"), (True, "normal"),
    ]
    one = await create(server, game="cacho", seats=3, bots=2, bot_levels=["hard"])
    (table,) = [t for t in (await summary(server, one)).tables if t.id == one]
    assert [s.bot_level for s in table.seats] == ["", "hard", "hard"]


async def test_a_level_the_game_does_not_offer_is_refused_with_a_sentence(server: Running) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await create(server, game="cacho", seats=2, bots=1, bot_levels=["grandmaster"])
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "no bot level 'grandmaster'" in (err.value.details() or "")
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await create(server, game="cacho", seats=4, bots=3, bot_levels=["easy", "hard"])
    assert "one bot level for every bot (3)" in (err.value.details() or "")


async def test_bots_at_every_level_play_a_whole_hand(server: Running) -> None:
    table_id = await create(server, game="truco_paulista", seats=4, bots=4,
                            bot_levels=["easy", "normal", "hard", "hard"])
    watcher = await Player(f"127.0.0.1:{server.port}").spectate(table_id)
    watcher.subscribe()
    await watcher.wait_for(lambda q: "hand_ended" in q.kinds(), timeout=30)
    await watcher.close()


async def test_a_bot_never_answers_a_team_call_before_its_human_partner(server: Running) -> None:
    p, table, match = await one_person_with_bots(server, game="truco_paulista", seats=4, bots=3,
                                                 bot_delay_ms=60_000)
    human, partner = p.seat, (p.seat + 2) % 4
    for _ in range(20):  # bots are held back (a minute's delay): the test moves for everyone
        seat = match.to_act()[0]
        kinds = {a.type: a for a in match.legal_actions(seat) if a.type != "signal"}
        if seat % 2 != human % 2 and "truco" in kinds:
            match.apply(seat, kinds["truco"])
            break
        move = kinds.get("keep") or next(a for a in match.legal_actions(seat) if a.type == "play")
        match.apply(seat, move)
    else:
        raise AssertionError("no truco was called")
    assert set(match.to_act()) == {human, partner}  # either may answer for the team
    table._schedule()
    assert table.planned is None, "the bot partner waits for the person"
    match.apply(human, next(a for a in match.legal_actions(human) if a.type == "accept"))
    table._schedule()
    # the bots decide in a worker process: the plan comes back a moment later
    await eventually(lambda: table.planned is not None, "the bots' plan from their worker")
    assert table.planned is not None and table.planned[0] != human
    await p.close()
