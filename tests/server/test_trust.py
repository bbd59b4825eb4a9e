"""Trust under churn, one check for each way it was broken: streams that outlive Leave, replays
addressed by seat, numbers reused, quiet hands bypassed, one client starving the room, tables
that never end, stale actions, refusals that repeat unbounded input, two servers on one store."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from pathlib import Path

import grpc
import pytest

from cardtui.server.app import ClientGone, Running, start
from cardtui.server.base import wire
from cardtui.server.base.clock import ManualClock
from cardtui.server.base.limits import Limits
from cardtui.server.store import Store, StoreInUse
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc
from tests.conftest import Player, buffered, create, end_cut_window, kind, next_hand_now, started
from tests.waiting import eventually, timers_until


def address(server: Running) -> str:
    return f"127.0.0.1:{server.port}"


async def test_leave_ends_every_stream_of_the_token_and_the_next_occupant_starts_clean(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=2, bots=1, bot_delay_ms=60_000, turn_seconds=3600)
    ana = await Player(address(server)).join(table_id, "ana")
    ana.subscribe()
    second = Player(address(server), token=ana.token, seat=ana.seat)
    second.subscribe()
    await ana.wait_for(lambda q: bool(q.messages))
    table = await started(server, table_id)
    dealt = [e.seq for e in buffered(table) if kind(e) == "cards_dealt" and wire.event_record(e).seat == ana.seat]
    assert dealt
    await ana.lobby.Leave(lobby_pb2.LeaveRequest(token=ana.token))
    for stream in (ana, second):  # both of ana's streams end, told not to come back
        await stream.wait_for(lambda q: q.task is not None and q.task.done(), timeout=5)
        last = stream.messages[-1]
        assert last.WhichOneof("body") == "closing" and not last.closing.resubscribe
    # bea takes the seat over from the bot: nothing of hers reaches ana's old streams
    bea = await Player(address(server)).join(table_id, "bea")
    assert bea.seat == ana.seat
    before = len(ana.messages), len(second.messages)
    with pytest.raises(grpc.aio.AioRpcError) as err:
        again = Player(address(server), token=ana.token)
        stream = again.table.Subscribe(table_pb2.SubscribeRequest(token=ana.token))
        await stream.read()
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
    # bea asks for a replay from before she sat: ana's cards come to her only as placeholders
    bea.subscribe(after_seq=1)
    await bea.wait_for(lambda q: len(q.messages) >= 2)
    # by now her sitting down and all since have reached her: none of it reached ana's old streams
    assert (len(ana.messages), len(second.messages)) == before
    replayed = {e.seq: e for e in bea.events if e.replay}
    for seq in dealt:
        assert kind(replayed[seq]) == "hidden", "a private event from before she sat"
    for p in (ana, second, again, bea):
        await p.close()


async def test_in_a_quiet_hand_spectators_talk_only_among_themselves(server: Running) -> None:
    """Truco paulista's rule: players talk only between hands. A seated player watching their own
    table from a spectator token cannot pass a word to the partner that way."""
    table_id = await create(server, game="truco_paulista", seats=4, bots=3, bot_delay_ms=60_000)
    ana = await Player(address(server)).join(table_id, "ana")
    ana_watching = await Player(address(server)).spectate(table_id, "ana")
    other = await Player(address(server)).spectate(table_id, "eve")
    for p in (ana, other):
        p.subscribe()
    await ana.wait_for(lambda q: bool(q.messages))
    assert not (await started(server, table_id)).match.hand_over()  # type: ignore[union-attr]
    await ana_watching.table.Chat(table_pb2.ChatRequest(token=ana_watching.token, text="I have the zap"))
    await other.wait_for(lambda q: "chatted" in q.kinds())
    seq = next(e.seq for e in other.events if kind(e) == "chatted")
    await ana.wait_for(lambda q: any(e.seq == seq for e in q.events))
    assert kind(next(e for e in ana.events if e.seq == seq)) == "hidden", "a seated player does not hear it"
    for p in (ana, ana_watching, other):
        await p.close()


async def test_streams_are_limited_per_connection_and_per_address(tmp_path: Path) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "s.db", bot_delay=0.05, next_hand_delay=0.05,
                          limits=Limits(streams_per_connection=5, streams_per_address=8))
    try:
        table_id = await create(running, game="cacho", seats=4, bots=4)
        first, second = Player(address(running)), Player(address(running))
        await second.close()  # a connection of its own, from the same address
        second.channel = grpc.aio.insecure_channel(address(running), options=[("grpc.use_local_subchannel_pool", 1)])
        second.lobby, second.table = lobby_pb2_grpc.LobbyStub(second.channel), table_pb2_grpc.TableStub(second.channel)
        watchers = [await first.spectate(table_id) for _ in range(1)]
        tokens = []
        for _ in range(9):
            r = await first.lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="w"))
            tokens.append(r.token)
        calls = []

        async def open_on(player: Player, token: str) -> grpc.StatusCode:
            call = player.table.Subscribe(table_pb2.SubscribeRequest(token=token))
            try:
                await call.read()
            except grpc.aio.AioRpcError as e:
                assert (e.details() or "").endswith("close one first.")
                return e.code()
            calls.append(call)
            return grpc.StatusCode.OK

        got = [await open_on(first, t) for t in tokens[:6]]
        assert got == [grpc.StatusCode.OK] * 5 + [grpc.StatusCode.RESOURCE_EXHAUSTED], "5 per connection"
        got = [await open_on(second, t) for t in tokens[5:9]]
        assert got == [grpc.StatusCode.OK] * 3 + [grpc.StatusCode.RESOURCE_EXHAUSTED], "8 per address"
        table = running.room.tables[table_id]
        streams = len(table.fanout.subscribers)
        calls.pop().cancel()  # the server lets its place go as it lets the table's subscriber go
        await eventually(lambda: len(table.fanout.subscribers) < streams, "the cancelled stream let go at the server")
        assert await open_on(second, tokens[8]) == grpc.StatusCode.OK, "a closed stream frees its place"
        info = await first.lobby.GetInfo(lobby_pb2.GetInfoRequest(), timeout=5)
        assert info.tables == 1
        for call in calls:
            call.cancel()
        for p in (first, second, *watchers):
            await p.close()
    finally:
        await running.stop(grace=0.2)


async def test_a_table_nobody_is_at_finishes_and_the_cap_counts_open_tables_only(
    server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardtui.server.lobby import room as room_module

    idle = await create(server, game="cacho", seats=4, bots=4, idle_minutes=1)
    watched = await create(server, game="cacho", seats=4, bots=4, idle_minutes=1)
    deserted = await create(server, game="cacho", seats=4, bots=3, idle_minutes=1)
    watcher = await Player(address(server)).spectate(watched)
    watcher.subscribe()
    await watcher.wait_for(lambda q: bool(q.messages))
    # A seated person and a watcher who went without a word (a closed tab, a crashed client)
    # keep their tokens, but nobody is there: the table's bots play on for no one.
    gone = [await Player(address(server)).join(deserted, "ana"), await Player(address(server)).spectate(deserted)]
    for p in gone:
        p.subscribe()
        await p.wait_for(lambda q: bool(q.messages))
        await p.unsubscribe()
    await eventually(lambda: not server.room.tables[deserted].present, "the server hears the streams end")
    counted = {t.id: t.spectators for t in (await watcher.lobby.ListTables(lobby_pb2.ListTablesRequest())).tables}
    assert counted == {idle: 0, watched: 1, deserted: 0}, "watchers who are there now"
    loop = asyncio.get_running_loop()
    server.room.sweep(loop.time())
    server.room.sweep(loop.time() + 61)  # a minute with nobody at the first and the last
    assert idle not in server.room.tables and deserted not in server.room.tables
    assert watched in server.room.tables
    listed = (await watcher.lobby.ListTables(lobby_pb2.ListTablesRequest())).tables
    assert [t.id for t in listed] == [watched], "the lobby lists open tables"
    listed = (await watcher.lobby.ListTables(lobby_pb2.ListTablesRequest(include_finished=True))).tables
    assert {t.id: t.status for t in listed} == {watched: common_pb2.TABLE_STATUS_PLAYING,
                                                 idle: common_pb2.TABLE_STATUS_FINISHED,
                                                 deserted: common_pb2.TABLE_STATUS_FINISHED}
    assert server.store.hands.count_hands(idle) >= 0  # its hands stay in the store
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await watcher.lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=idle, name="late"))
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    for p in gone:
        await p.close()
    monkeypatch.setattr(room_module, "MAX_TABLES", 2)
    await create(server, game="cacho", seats=2, bots=2)  # the finished one does not count
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await create(server, game="cacho", seats=2, bots=2)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    await watcher.close()


async def test_only_the_owner_closes_a_table_and_its_streams_end(server: Running) -> None:
    async with grpc.aio.insecure_channel(address(server)) as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        created = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=2))
        watcher = await Player(address(server)).spectate(created.table.id)
        watcher.subscribe()
        await watcher.wait_for(lambda q: bool(q.messages))
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=created.table.id, owner_token="guess"))
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
        await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=created.table.id,
                                                           owner_token=created.owner_token))
        await watcher.wait_for(lambda q: q.task is not None and q.task.done(), timeout=5)
        closing = watcher.messages[-1]
        assert closing.WhichOneof("body") == "closing" and not closing.closing.resubscribe
        assert created.table.id in server.room.finished
        await watcher.close()


async def test_a_finished_table_stays_finished_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    running = await start("127.0.0.1", 0, db, bot_delay=0.01, next_hand_delay=0.01)
    table_id = await create(running, game="cacho", seats=2, bots=2, idle_minutes=1)
    await eventually(lambda: running.store.hands.count_hands(table_id) >= 2, "two hands of bots")
    loop = asyncio.get_running_loop()
    running.room.sweep(loop.time())
    running.room.sweep(loop.time() + 61)
    hands = running.store.hands.count_hands(table_id)
    await running.stop(grace=0.1)
    running = await start("127.0.0.1", 0, db)
    try:
        assert table_id not in running.room.tables and table_id in running.room.finished
        assert running.store.hands.count_hands(table_id) == hands
    finally:
        await running.stop(grace=0.1)


async def test_an_action_on_a_stale_screen_is_refused_and_changes_nothing(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=2, turn_seconds=3600)
    ana = await Player(address(server)).join(table_id, "ana")
    bea = await Player(address(server)).join(table_id, "bea")
    table = await started(server, table_id)
    first = next(p for p in (ana, bea) if table.view(p.seat).legal)
    second = bea if first is ana else ana
    seen = table.seq  # what both screens show
    opening = table.view(first.seat).legal[0]
    await first.table.Act(table_pb2.ActRequest(token=first.token, action=opening, seen_seq=seen))
    moved = table.seq
    assert moved > seen and table.view(second.seat).legal  # the first moved: the second's turn
    action = table.view(second.seat).legal[0]
    with pytest.raises(grpc.aio.AioRpcError) as err:  # chosen on the screen from before that move
        await second.table.Act(table_pb2.ActRequest(token=second.token, action=action, seen_seq=seen))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "moved on" in (err.value.details() or "")
    assert table.seq == moved
    done = await second.table.Act(table_pb2.ActRequest(token=second.token, action=action, seen_seq=moved))
    assert done.seq > moved
    for p in (ana, bea):
        await p.close()


async def test_a_watchers_chatter_never_makes_a_players_screen_stale(server: Running) -> None:
    """Only what the match does makes a screen stale: a chat line, a watcher's or a player's,
    changes no one's choices, so a watcher talking flat out cannot keep a player from acting."""
    table_id = await create(server, game="cacho", seats=2, turn_seconds=3600)
    ana = await Player(address(server)).join(table_id, "ana")
    bea = await Player(address(server)).join(table_id, "bea")
    eve = await Player(address(server)).spectate(table_id, "eve")
    table = await started(server, table_id)
    assert table.match is not None
    acted = 0
    while acted < 2 and not table.match.hand_over():  # (this address's chat allowance: 6 lines at once)
        on_turn = next(p for p in (ana, bea) if table.view(p.seat).legal)
        seen = table.seq
        # between what the player saw and the key they press, the watcher talks, and so does a player
        await eve.table.Chat(table_pb2.ChatRequest(token=eve.token, text=f"go on {acted}"))
        await ana.table.Chat(table_pb2.ChatRequest(token=ana.token, text="hmm"))
        assert table.seq == seen + 2
        action = table.view(on_turn.seat).legal[0]
        done = await on_turn.table.Act(table_pb2.ActRequest(token=on_turn.token, action=action, seen_seq=seen))
        assert done.seq > seen + 2
        acted += 1
    assert acted == 2
    for p in (ana, bea, eve):
        await p.close()


async def test_what_a_seat_cannot_see_never_makes_its_screen_stale(server: Running) -> None:
    """Two players let a claim window go at the same moment: each answer reaches the others hidden (it
    says nothing of the cards), so the second, chosen on a screen from before the first, is taken; and
    the window, answered by everyone, closes at once rather than when its time runs out. What a seat
    can see still counts: a discard it has not seen yet makes its screen stale."""
    table_id = await create(server, game="cacheta", seats=3, turn_seconds=3600,
                            options={"claim_ms": common_pb2.OptionValue(number=60_000)})
    people = [await Player(address(server)).join(table_id, name) for name in ("ana", "bea", "caio")]
    table = await started(server, table_id)
    assert table.match is not None
    by_seat = {p.seat: p for p in people}

    def on_turn() -> Player:
        return next(p for p in people if table.view(p.seat).legal)

    draw = common_pb2.Action(type=common_pb2.ACTION_TYPE_DRAW, source=common_pb2.DRAW_SOURCE_STOCK)
    let_go = common_pb2.Action(type=common_pb2.ACTION_TYPE_PASS)
    windows = 0
    while windows < 2:
        mover = on_turn()
        await mover.table.Act(table_pb2.ActRequest(token=mover.token, action=draw, seen_seq=table.seq))
        before_discard = table.seq
        throw = next(a for a in table.view(mover.seat).legal if a.type == common_pb2.ACTION_TYPE_DISCARD)
        await mover.table.Act(table_pb2.ActRequest(token=mover.token, action=throw, seen_seq=table.seq))
        assert table.window_ends is not None, "a window on the discard"
        first, second = (by_seat[s] for s in table.match.state.after(mover.seat)[:2])  # type: ignore[attr-defined]
        with pytest.raises(grpc.aio.AioRpcError) as err:  # the discard is news to them: their screen is stale
            await second.table.Act(table_pb2.ActRequest(token=second.token, action=let_go, seen_seq=before_discard))
        assert "moved on" in (err.value.details() or "")
        seen = table.seq  # both screens show the window
        await first.table.Act(table_pb2.ActRequest(token=first.token, action=let_go, seen_seq=seen))
        assert table.seq > seen and table.window_ends is not None  # still open: the second has not answered
        done = await second.table.Act(table_pb2.ActRequest(token=second.token, action=let_go, seen_seq=seen))
        assert done.seq > seen
        assert table.window_ends is None and table.view(first.seat).legal, "closed at once: the next one draws"
        windows += 1
    for p in people:
        await p.close()


PEOPLE_AT = {
    "cacho": (3, {}),
    "truco_paulista": (4, {}),
    "truco_argentino": (4, {}),
    "pifpaf": (3, {"claim_ms": common_pb2.OptionValue(number=60_000)}),
    "cacheta": (3, {"claim_ms": common_pb2.OptionValue(number=60_000)}),
}


@pytest.mark.parametrize("game", sorted(PEOPLE_AT))
async def test_a_screen_that_saw_all_it_could_see_is_never_stale(server: Running, game: str) -> None:
    """People in every seat play at random, each choosing on the screen its own stream drew, and each
    action names as seen the last event that reached that seat whole: whatever came since reached it
    hidden (another seat's cards, a window let go, a partner's signal), so nothing is refused as stale."""
    import random

    seats, options = PEOPLE_AT[game]
    table_id = await create(server, game=game, seats=seats, turn_seconds=3600, options=options)
    people = [await Player(address(server), cuts=False).join(table_id, f"p{i}") for i in range(seats)]
    for p in people:
        p.subscribe()
    table = await started(server, table_id)
    assert table.match is not None
    rng = random.Random(f"stale:{game}")

    def caught_up(p: Player) -> bool:
        return bool(p.events) and p.events[-1].seq >= table.seq

    acted = hidden_since = 0
    while acted < 40 and not table.match.match_over():
        for p in people:
            await p.wait_for(caught_up)
        movers = [p for p in people if table.view(p.seat).legal]
        if not movers:  # between hands: the next one now, its deal cut with no seeds
            now = table.seq
            if table.cut is not None:
                end_cut_window(table)
            elif table.pacer.next_at is not None:
                next_hand_now(table)
            await people[0].wait_for(lambda p, now=now: p.events[-1].seq > now)
            continue
        mover = rng.choice(movers)
        whole = [e.seq for e in mover.events if kind(e) != "hidden"]
        hidden_since += sum(1 for e in mover.events if e.seq > whole[-1])
        choice = rng.choice(list(table.view(mover.seat).legal))
        await mover.table.Act(table_pb2.ActRequest(token=mover.token, action=choice, seen_seq=whole[-1]))
        acted += 1
    assert acted == 40 or table.match.match_over()
    assert hidden_since > 0, "no action came after an event its seat saw hidden: the case was never met"
    for p in people:
        await p.close()


async def test_refusals_quote_only_a_short_prefix_of_what_was_sent(server: Running) -> None:
    # A client with grpc's default metadata limits still gets the refusal itself.
    async with grpc.aio.insecure_channel(address(server)) as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        for request in (lobby_pb2.JoinTableRequest(table_id="t" * 10_000, name="ana"),
                        lobby_pb2.CreateTableRequest(game="g" * 10_000)):
            with pytest.raises(grpc.aio.AioRpcError) as err:
                if isinstance(request, lobby_pb2.JoinTableRequest):
                    await lobby.JoinTable(request)
                else:
                    await lobby.CreateTable(request)
            details = err.value.details() or ""
            assert err.value.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT)
            assert len(details) < 200 and details.endswith(".")


async def test_a_second_server_on_the_port_or_the_store_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    running = await start("127.0.0.1", 0, db)
    try:
        with pytest.raises(OSError, match="in use"):
            await start("127.0.0.1", running.port, tmp_path / "other.db")
        with pytest.raises(StoreInUse, match="in use by another cardtui server"):
            await start("127.0.0.1", 0, db)
        assert (await create(running, game="cacho", seats=2, bots=2)) in running.room.tables
    finally:
        await running.stop(grace=0.1)
    again = await start("127.0.0.1", 0, db)  # once the first has stopped, the store is free
    await again.stop(grace=0.1)


async def test_a_table_that_cannot_be_restored_is_set_aside_and_the_rest_start(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    running = await start("127.0.0.1", 0, db, bot_delay=60, cut_window=0.0)
    good = await create(running, game="cacho", seats=2, bots=1, turn_seconds=3600)
    bad = await create(running, game="cacho", seats=2, bots=1, turn_seconds=3600)
    for table_id in (good, bad):
        await Player(address(running)).join(table_id, "ana")
        await started(running, table_id)  # a match in the journal, to bring back or set aside
    await running.stop(grace=0.1)
    con = sqlite3.connect(db)  # a journal no engine accepts: a discard in Cacho
    con.execute("INSERT INTO log (table_id, n, kind, seat, data, seq) VALUES (?, 99, 'act', 0, ?, 99)",
                (bad, json.dumps({"type": "discard", "cards": ["AS"]})))
    con.commit()
    con.close()
    running = await start("127.0.0.1", 0, db)
    try:
        assert good in running.room.tables and bad not in running.room.tables
        damaged = sqlite3.connect(db).execute("SELECT damaged FROM tables WHERE id = ?", (bad,)).fetchone()[0]
        assert damaged and "IllegalAction" in damaged
    finally:
        await running.stop(grace=0.1)


def test_a_client_gone_mid_stream_is_one_line_without_a_traceback() -> None:
    try:
        raise RuntimeError("stand-in")
    except RuntimeError:
        import sys

        exc = sys.exc_info()
    record = logging.LogRecord("grpc._cython.cygrpc", logging.ERROR, __file__, 1,
                               "ExecuteBatchError raised in core by servicer method [%s]",
                               ("/cardtui.v1.Table/Subscribe",), exc)
    assert ClientGone().filter(record)
    assert record.levelno == logging.INFO and record.exc_info is None
    assert record.getMessage() == "a client went away mid-stream (/cardtui.v1.Table/Subscribe)"


def test_store_read_only_beside_a_running_server(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    held = Store(db)
    try:
        with pytest.raises(StoreInUse):
            Store(db)
        reader = Store(db, read_only=True)
        assert reader.hands.count_hands() == 0
        reader.close()
    finally:
        held.close()


async def test_a_bot_partner_never_answers_a_team_call_before_the_person(tmp_path: Path) -> None:
    """Issue 11: when a person and a bot share a team, the person decides the team's calls."""
    from cardtui.engine.core import Action

    clock = ManualClock()  # the bots' time passes when the test says, and only then
    server = await start("127.0.0.1", 0, tmp_path / "s.db", bot_delay=0.01, next_hand_delay=0.05, cut_window=0.0,
                         clock=clock)
    try:
        table_id = await create(server, game="truco_paulista", seats=4, bots=3, bot_delay_ms=60_000,
                                turn_seconds=3600)
        ana = await Player(address(server)).join(table_id, "ana")
        await timers_until(clock, lambda: server.room.tables[table_id].match is not None, "the match dealt")
        table = await started(server, table_id)
        match = table.match
        assert match is not None and ana.seat == 0
        # Play by hand (the bots wait a minute) until an opponent may call truco, and call it.
        for _ in range(50):
            waiting = match.to_act()
            caller = next((s for s in waiting if s % 2 == 1 and Action("truco") in match.legal_actions(s)), None)
            if caller is not None:
                table._apply(caller, Action("truco"))
                break
            seat = waiting[0]
            table._apply(seat, next(a for a in match.legal_actions(seat) if a.type != "signal"))
        else:
            raise AssertionError("no truco came up")
        assert set(match.to_act()) == {0, 2}, "both partners may answer"
        table.config.bot_delay = 0.01
        table._schedule()
        await clock.advance(0.5)  # many times a bot's longest thought at this pace
        assert set(match.to_act()) == {0, 2}, "the bot partner waited for the person"
        accept = common_pb2.Action(type=common_pb2.ACTION_TYPE_ACCEPT)
        await ana.table.Act(table_pb2.ActRequest(token=ana.token, action=accept))
        answers = [wire.event_record(e) for e in buffered(table) if kind(e) == "answered"]
        assert answers and answers[-1].seat == 0
        await ana.close()
    finally:
        await server.stop(grace=0.1)


async def test_letting_claim_windows_pass_is_never_a_missed_turn(server: Running,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11: a person who plays their own turns promptly but never answers a claim window is
    never marked away. Ana is dealt a hand one card from going out and declares na boa on her
    first turn, so every later discard's window waits on her; she lets every one of them lapse."""
    from tests.client.rummy_rig import rigged_deck

    # Every seat is dealt a hand one card from going out, whoever deals: ana's is one of them.
    deck = rigged_deck({0: "AS 2S 3S 4H 5H 6H 7C 8C KD", 1: "7S 8S 9S 10D JD QD 4C 5C KH",
                        2: "JS QS KS 5D 6D 7D 9C 10C QH"}, [1, 2, 0], flip="2D")
    monkeypatch.setattr("cardtui.engine.rummy.base.shuffled", lambda cards, rng: list(deck))
    options = {"claim_ms": common_pb2.OptionValue(number=500)}
    table_id = await create(server, game="cacheta", seats=3, bots=2, bot_delay_ms=10, short_turns=2,
                            away_after=2, options=options)
    ana = await Player(address(server)).join(table_id, "ana")
    ana.subscribe()
    table = server.room.tables[table_id]
    windows = 0
    turns = 0
    while turns < 10 or (windows < 3 and turns < 200):  # her own turns, and windows she lets lapse
        await ana.wait_for(lambda q: q.last_view is not None and bool(q.last_view.legal), timeout=30)
        view = ana.last_view
        assert view is not None
        if view.rummy.HasField("window"):
            windows += 1  # not answered: it lapses, and the next message says so
            seen = len(ana.messages)
            await ana.wait_for(lambda q, n=seen: len(q.messages) > n)
            continue
        declare = [a for a in view.legal if a.type == common_pb2.ACTION_TYPE_DECLARE]
        if declare:  # na boa: from now on the windows wait for her answer (she may cut)
            with contextlib.suppress(grpc.aio.AioRpcError):
                await ana.table.Act(table_pb2.ActRequest(token=ana.token, action=declare[0]))
            continue
        legal = [a for a in view.legal if a.type in (common_pb2.ACTION_TYPE_DRAW, common_pb2.ACTION_TYPE_DISCARD)]
        seen = len(ana.messages)
        if legal:
            with contextlib.suppress(grpc.aio.AioRpcError):  # a window opened meanwhile
                await ana.table.Act(table_pb2.ActRequest(token=ana.token, action=legal[0]))
            turns += 1
        await ana.wait_for(lambda q, n=seen: len(q.messages) > n)  # what her move, or the table's, brought
    assert windows >= 3, "windows waited on her answer"
    assert "went_away" not in ana.kinds() and not table.seating[ana.seat].away
    await ana.close()
