"""A seat that changes hands: who played it then is what the table says, keeps and counts.

Over the wire against a real server: the hand histories and their replays name each seat's
holder at every step, the records count a hand for whoever played its deal (a person, or the
level of the bot standing in), a match whose person left goes on with a bot in the open seat,
and the bot standing in plays at the table's bot level.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import pytest

from cardtui.identity import create as new_identity
from cardtui.server.actor.table import Table
from cardtui.server.app import Running, start
from cardtui.server.base import thinking
from cardtui.server.hands import replays
from cardtui.server.lobby.room import Room, TableRequest
from cardtui.server.store import Store
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, players_pb2
from tests.conftest import Player, create
from tests.server.test_records import boldest, meekest, new_table, play_out_the_match, sit, standing
from tests.test_history_schema import problems
from tests.waiting import eventually


def records(running: Running, table_id: str) -> list[dict[str, Any]]:
    return [json.loads(r) for r in running.store.hands.all(table_id)]


async def play_until(p: Player, ok: Callable[[], bool]) -> None:
    """``p`` plays whatever it may from its own stream until ``ok``."""
    p.subscribe()
    while not ok():
        v = p.last_view
        if v is not None and v.legal and not v.hand_over:
            with contextlib.suppress(grpc.aio.AioRpcError):  # the table moved on meanwhile
                await p.act(boldest(list(v.legal)))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(p.changed.wait(), 0.5)
        p.changed.clear()


async def a_hand_dan_took_over(server: Running) -> tuple[str, int, dict[str, Any]] | None:
    """At a new table, ana plays hand 1, leaves (a bot plays on for her), and dan takes her seat in a later
    hand of the same match: the table, the seat and that hand's history; None when the match ended before
    dan's hand did (a falta envido may end a truco argentino match in one hand, and with it ana's seat)."""
    table_id = await create(server, game="truco_argentino", seats=2, bots=1, bot_delay_ms=30, turn_seconds=3600)
    table: Table = server.room.tables[table_id]
    ana = await Player(f"127.0.0.1:{server.port}").join(table_id, "ana")
    ana.subscribe()
    await ana.wait_for(lambda q: q.last_view is not None and q.last_view.hand >= 1)
    seat = ana.seat
    await ana.lobby.Leave(lobby_pb2.LeaveRequest(token=ana.token))  # a bot plays on for ana
    await ana.close()
    await eventually(lambda: table.hands_played >= 1 and table.match is not None and table.match.logged() >= 1
                and not table.match.hand_over(), "a later hand the bot has begun for ana")
    in_play = table.hands_played + 1
    dan = await Player(f"127.0.0.1:{server.port}").join(table_id, "dan")
    assert dan.seat == seat, "dan takes the seat the bot keeps for ana"
    await play_until(dan, lambda: table.hands_played >= in_play)
    await dan.close()
    kept = records(server, table_id)
    hand = next(r for r in kept if r["hand"] == in_play)
    first = next(r for r in kept if r["hand"] == 1)
    return (table_id, seat, hand) if hand["match"] == first["match"] else None


async def test_a_history_and_its_replay_name_each_seat_as_it_was_at_every_step(server: Running) -> None:
    for _ in range(4):
        found = await a_hand_dan_took_over(server)
        if found is not None:
            break
    assert found is not None, "every match ended before dan's hand did, four tables running"
    table_id, seat, hand = found
    level = hand["seats"][1 - seat]["bot"]  # the table's bot level
    assert hand["seats"][seat] == {"seat": seat, "name": "ana", "team": seat % 2, "bot": level, "away": True}
    (change,) = hand["holders"]
    assert {k: change[k] for k in ("seat", "name")} == {"seat": seat, "name": "dan"} and "bot" not in change
    by_seat = [a for a in hand["actions"] if a.get("seat") is not None]
    assert change["from"] in [a["seq"] for a in by_seat], "the change takes effect on an action"
    # The replay names ana's seat as played for her until dan's first action, dan from then on.
    steps = replays.steps(hand)
    for n, step in enumerate(steps):
        acted = by_seat[n - 1]["seq"] if n else 0
        expected = ("dan", False) if acted >= change["from"] else ("ana", True)
        said = step.view.seats[seat]
        assert (said.name, said.away) == expected, f"step {n}"
    assert problems(hand) == [], "docs/history.md's schema knows the keys"
    listed = replays.hand_summary(hand)  # a table's hands as the history lists them
    assert (listed.seats[seat].name, listed.ended[seat].name) == ("ana", "dan"), "dealt to ana, ended dan's"
    # An earlier hand of the match that ana played herself names her plainly.
    first = next(r for r in records(server, table_id) if r["hand"] == 1)
    assert first["seats"][seat] == {"seat": seat, "name": "ana", "team": seat % 2}


async def test_a_hand_counts_for_whoever_played_its_deal_and_a_bot_standing_in_counts_for_its_level(
    tmp_path: Path,
) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.002, next_hand_delay=0.05,
                          cut_window=0.0)  # no hand waits for seeds: a match of many hands in seconds
    address = f"127.0.0.1:{running.port}"
    try:
        async with grpc.aio.insecure_channel(address) as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            made = await new_table(lobby, game="cacho", seats=3, bots=1,
                                   options={"chips": common_pb2.OptionValue(number=3)})
            table_id = made.table.id
            ana = await sit(address, table_id, new_identity(tmp_path / "ana.pem"), "ana")
            bia = await sit(address, table_id, new_identity(tmp_path / "bia.pem"), "bia")
            bia.subscribe()  # at the table when the first hand is dealt
            table: Table = running.room.tables[table_id]
            # bia sees her first hand (the table open with a hand dealt to her: the match is hers), then leaves
            await bia.wait_for(lambda q: q.last_view is not None and q.last_view.hand >= 1)
            assert table.match is not None and table.hands_played == 0
            await lobby.Leave(lobby_pb2.LeaveRequest(token=bia.token))  # in the first hand: a bot plays on
            await bia.close()
            # ana risks nothing in the first hand, so the match cannot end with it (rules: Cacho's
            # round 1 pass loses nothing), then plays boldly for a match of few hands.
            await play_out_the_match([ana], lambda v: meekest(v.legal) if v.hand <= 1 else boldest(v.legal))
            hands = [r for r in records(running, table_id) if r.get("match") == 1]
            board = await lobby.Leaderboard(players_pb2.LeaderboardRequest(game="cacho"))
            mine, hers, bot = standing(board, "ana"), standing(board, "bia"), standing(board, "bot easy")
            assert mine.stats.hands == len(hands) > 1
            assert hers.stats.hands == 1, "the hand bia was dealt; the bot played the rest"
            assert bot.stats.hands == len(hands) + (len(hands) - 1), "its own seat, and bia's after her first"
            assert hers.stats.matches == 1, f"leaving does not dodge the match's result: {hers.stats} {mine.stats}"
            assert [h["seats"][bia.seat].get("away", False) for h in hands] == [False] + [True] * (len(hands) - 1)
            await ana.close()
    finally:
        await running.stop(grace=0.1)


async def test_after_a_match_a_seat_its_person_left_is_an_open_bots_seat_and_the_next_match_starts(
    tmp_path: Path,
) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.002, next_hand_delay=0.02)
    address = f"127.0.0.1:{running.port}"
    try:
        async with grpc.aio.insecure_channel(address) as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            made = await new_table(lobby, game="cacho", seats=2, bots=1,
                                   options={"chips": common_pb2.OptionValue(number=3)})
            table_id = made.table.id
            table: Table = running.room.tables[table_id]
            ana = await Player(address).join(table_id, "ana")
            ana.subscribe()  # she opens the table, as a client does: else the match waits for that (OPENING)
            await eventually(lambda: table.match is not None, "the match starts")
            await lobby.Leave(lobby_pb2.LeaveRequest(token=ana.token))
            await ana.close()
            (stand_in,) = [s for s in table.summary().seats if s.seat == ana.seat]
            assert (stand_in.name, stand_in.bot, stand_in.away, stand_in.bot_level) == ("ana", True, True, "easy"), \
                "the bot standing in plays at the table's bot level"
            await eventually(lambda: table.matches >= 2, "the next match starts by itself")
            listed = {t.id: t for t in (await lobby.ListTables(lobby_pb2.ListTablesRequest())).tables}[table_id]
            assert listed.status == common_pb2.TABLE_STATUS_PLAYING
            seat = listed.seats[ana.seat]
            assert (seat.name, seat.bot, seat.taken, seat.away) == (f"bot {ana.seat + 1}", True, False, False), \
                "an open seat a bot plays until someone sits"
            # Heard by one watching from before he sits: the bots' hands go fast, and by the time he could open the
            # table himself, his sitting down may be further back than a table keeps events for a resume (on a
            # busy machine it was), and a newcomer's replay is the hand on the table.
            wes = await Player(address).spectate(table_id)
            wes.subscribe()
            await wes.wait_for(lambda q: bool(q.messages))
            dan = await Player(address).join(table_id, "dan")
            assert dan.seat == ana.seat
            await wes.wait_for(lambda q: any(e.HasField("joined") and e.joined.name == "dan" for e in q.events))
            (joined,) = [e.joined for e in wes.events if e.HasField("joined") and e.joined.name == "dan"]
            assert (joined.name, joined.before, joined.before_away) == ("dan", f"bot {ana.seat + 1}", False)
            await dan.close()
            await wes.close()
    finally:
        await running.stop(grace=0.1)


async def test_a_seat_taken_over_mid_match_gives_the_match_to_both_who_played_it(tmp_path: Path) -> None:
    """beto plays a Cacheta hand and leaves; carla sits down at "any free seat", which is his: both
    played the seat in the match, so both get it, each rated as if they had played it to the end."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.002, next_hand_delay=0.05)
    address = f"127.0.0.1:{running.port}"
    try:
        async with grpc.aio.insecure_channel(address) as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            made = await new_table(lobby, game="cacheta", seats=3, bots=1,
                                   options={"start_points": common_pb2.OptionValue(number=2),
                                            "claim_ms": common_pb2.OptionValue(number=0)})
            table_id = made.table.id
            ana = await sit(address, table_id, new_identity(tmp_path / "ana.pem"), "ana")
            beto = await sit(address, table_id, new_identity(tmp_path / "beto.pem"), "beto")
            ana.subscribe()
            beto.subscribe()
            table: Table = running.room.tables[table_id]
            await eventually(lambda: table.match is not None, "the match starts")
            await lobby.Leave(lobby_pb2.LeaveRequest(token=beto.token))  # escape, yes: a bot keeps the seat
            await beto.close()
            carla = await sit(address, table_id, new_identity(tmp_path / "carla.pem"), "carla")  # no seat asked
            assert carla.seat == beto.seat, "the only free seat is beto's"
            await play_out_the_match([ana, carla])
            board = await lobby.Leaderboard(players_pb2.LeaderboardRequest(game="cacheta"))
            his, hers = standing(board, "beto"), standing(board, "carla")
            assert (his.stats.matches, hers.stats.matches) == (1, 1), "the match counts for both"
            assert (his.rating.mu, his.rating.sigma) == (hers.rating.mu, hers.rating.sigma), \
                "each rated as the seat's result, as if they had played it to the end"
            assert standing(board, "ana").stats.matches == 1
            await ana.close()
            await carla.close()
    finally:
        await running.stop(grace=0.1)


async def test_a_person_who_drops_and_never_comes_back_gets_no_match_they_did_not_play(tmp_path: Path) -> None:
    """ana plays the first hand of match 1 and drops (her client closes, no leave). The bots finish
    match 1 for her (hers: she played in it) and play match 2 in her seat, away all of it: match 2
    is not hers, and at its end her seat opens as if she had left; match 3 starts with an open bot
    seat that anyone may take, and her old token acts for nothing."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.002, next_hand_delay=0.02)
    address = f"127.0.0.1:{running.port}"
    try:
        async with grpc.aio.insecure_channel(address) as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            made = await new_table(lobby, game="cacho", seats=2, bots=1,
                                   options={"chips": common_pb2.OptionValue(number=3)})
            table_id = made.table.id
            table: Table = running.room.tables[table_id]
            table.config.turn_seconds = 0.1  # her missed turns pass quickly: away after two
            ana = await sit(address, table_id, new_identity(tmp_path / "ana.pem"), "ana")
            ana.subscribe()
            await ana.wait_for(lambda q: q.last_view is not None and q.last_view.hand >= 1)
            await ana.unsubscribe()  # the laptop closes
            await eventually(lambda: table.matches >= 3, "the bots play on, match after match")
            hands = records(running, table_id)
            match2 = [h for h in hands if h["match"] == 2]
            assert match2 and all(h["seats"][ana.seat].get("away") for h in match2), "a bot played all of match 2"
            seat = table.summary().seats[ana.seat]
            assert (seat.name, seat.bot, seat.taken, seat.away) == (f"bot {ana.seat + 1}", True, False, False), \
                "an open seat a bot plays until someone sits"
            board = await lobby.Leaderboard(players_pb2.LeaderboardRequest(game="cacho"))
            assert standing(board, "ana").stats.matches == 1, "match 1 only: she played none of match 2"
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await ana.act(common_pb2.Action(type=common_pb2.ACTION_TYPE_PASS))
            assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED, "her token opens nothing now"
            await eventually(lambda: any(h["match"] == 3 for h in records(running, table_id)), "a hand of match 3")
            match3 = next(h for h in records(running, table_id) if h["match"] == 3)
            assert match3["seats"][ana.seat] == {"seat": ana.seat, "name": f"bot {ana.seat + 1}",
                                                 "team": ana.seat, "bot": "easy"}, "the history: a bot's open seat"
            dan = await Player(address).join(table_id, "dan")
            assert dan.seat == ana.seat
            await dan.close()
            await ana.close()
    finally:
        await running.stop(grace=0.1)


async def test_who_played_the_match_in_play_survives_a_restart(tmp_path: Path) -> None:
    """Whether each person played the match so far is in the journal: a move of their own, as a
    restart finds it (nobody had the table open at the deal here, so only the move counts)."""
    path = tmp_path / "store.db"
    store = Store(path)
    room = Room(store, bot_delay=60, next_hand_delay=60, cut_window=0)
    table, _ = room.create(TableRequest("cacho", "t", 2, 0, {"chips": 5}))
    table.sit("ana", -1, "ana's token")
    table.sit("bia", -1, "bia's token")
    match = table.match
    assert match is not None and not any(s.played for s in table.seating.seats), "nobody was here at the deal"
    (first,) = match.to_act()
    table.act(first, match.legal_actions(first)[0])
    assert [s.played for s in table.seating.seats] == [s == first for s in range(2)]
    room.shutdown("restart")
    store.close()
    store = Store(path)
    again = Room(store, bot_delay=60, next_hand_delay=60, cut_window=0)
    assert again.restore() == 1
    back = again.tables[table.id].seating.seats
    assert [s.played for s in back] == [s == first for s in range(2)], "the journal kept who played"
    again.shutdown("done")
    store.close()


async def test_a_broken_bot_worker_pool_is_replaced_and_the_table_plays_on(tmp_path: Path) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.005, next_hand_delay=0.02,
                          bot_workers=1)
    try:
        thinker = running.room.thinker
        assert isinstance(thinker, thinking.Thinker)
        table_id = await create(running, game="cacho", seats=2, bots=2)
        table: Table = running.room.tables[table_id]
        await eventually(lambda: table.hands_played >= 1, "the bots play a hand in their worker")
        broken = thinker._pool
        for pid in list(broken._processes or {}):  # the worker dies (killed, out of memory)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        played = table.hands_played
        await eventually(lambda: table.hands_played >= played + 2, "the bots play on")
        assert thinker._pool is not broken, "a new pool took the broken one's place"
    finally:
        await running.stop(grace=0.1)
