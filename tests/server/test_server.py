"""The table server over real gRPC on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from cardtui.server.actor.table import Table
from cardtui.server.app import Running, start
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc
from tests.conftest import Player, buffered, create, kind, started
from tests.waiting import eventually

PASS, BET, RAISE, CHECK = (common_pb2.ACTION_TYPE_PASS, common_pb2.ACTION_TYPE_BET, common_pb2.ACTION_TYPE_RAISE,
                           common_pb2.ACTION_TYPE_CHECK)


def legal(p: Player) -> list[common_pb2.Action]:
    v = p.last_view
    return list(v.legal) if v is not None else []


async def seated(server: Running, n: int, bots: int = 0, **extra: object) -> tuple[str, list[Player]]:
    table_id = await create(server, game="cacho", seats=n, bots=bots, **extra)
    players = [await Player(f"127.0.0.1:{server.port}").join(table_id, f"p{i}") for i in range(n - bots)]
    return table_id, players


def view_seq(p: Player) -> int:
    return max((m.seq for m in p.messages if m.update.HasField("view") or m.HasField("snapshot")), default=0)


def seqs(p: Player) -> list[int]:
    return [m.seq for m in p.events]


async def play_one_hand(players: list[Player], pick: int = 1) -> None:
    """Everyone answers from their own stream until a hand ends."""
    def over(p: Player) -> bool:
        return "hand_ended" in p.kinds()

    while not over(players[0]):
        moved = False
        for p in players:
            acts = legal(p)
            if acts:
                choice = acts[min(pick, len(acts) - 1)]
                if choice.type in (BET, RAISE) and choice.chips > 2:
                    choice = acts[1]
                choice.max_chips = 0
                seq = await p.act(choice)
                await p.wait_for(lambda q, seq=seq: view_seq(q) >= seq)
                moved = True
                break
        if not moved:
            await asyncio.wait([asyncio.ensure_future(p.changed.wait()) for p in players],
                               timeout=2, return_when=asyncio.FIRST_COMPLETED)
        for p in players:
            p.changed.clear()


async def act_until(p: Player, table: Table, done: Callable[[], bool],
                    pick: Callable[[list[common_pb2.Action]], common_pb2.Action]) -> None:
    """``p`` acts (``pick`` of what it may do) each time its turn comes, by its token alone (it needs no
    stream), until ``done()``; between its turns the table's bots move."""
    while not done():
        found = await eventually(lambda: done() or list(table.view(p.seat).legal), "a turn, or what was waited for")
        if isinstance(found, list):
            await p.act(pick(found))


async def test_several_clients_play_a_hand_and_each_sees_only_its_own_cards(server: Running) -> None:
    table_id, players = await seated(server, 3)
    watcher = await Player(f"127.0.0.1:{server.port}").spectate(table_id)
    for p in [*players, watcher]:
        p.subscribe()
    await asyncio.gather(*(p.wait_for(lambda q: q.last_view is not None) for p in [*players, watcher]))
    await play_one_hand(players)
    await eventually(lambda: server.store.hands.count_hands() >= 1, "the hand played, stored")
    final = max(m.seq for m in players[0].events)
    for p in [*players, watcher]:
        await p.wait_for(lambda q: q.events and q.events[-1].seq >= final)
        got = [s for s in seqs(p) if s <= final]
        first = got[0]
        assert got == list(range(first, final + 1)), "every subscriber gets every number once"
    for p in players:
        mine = [m for m in p.events if kind(m) == "cards_dealt"]
        assert mine and all(m.cards_dealt.seat == p.seat for m in mine)
        hidden = {m.seq for m in p.events if kind(m) == "hidden"}
        others = {m.seq for q in players if q is not p for m in q.events if kind(m) == "cards_dealt"}
        assert others <= hidden, "another seat's card reaches me only as a placeholder"
        assert all(m.ByteSize() == table_pb2.Event(seq=m.seq, replay=m.replay, hidden={}).ByteSize()
                   for m in p.events if kind(m) == "hidden"), "a placeholder carries nothing but its number"
    assert "cards_dealt" not in watcher.kinds()
    # Views: a spectator never holds a hidden card; a seat only its own until the showdown.
    for m in watcher.messages:
        if m.update.HasField("view"):
            v = m.update.view
            for s in v.cacho.seats:
                if not v.hand_over:
                    assert not s.cards
    assert server.store.hands.count_hands() >= 1
    for p in [*players, watcher]:
        await p.close()


async def test_a_spectator_cannot_act(server: Running) -> None:
    table_id, players = await seated(server, 2, bots=1)
    watcher = await Player(f"127.0.0.1:{server.port}").spectate(table_id)
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await watcher.act(common_pb2.Action(type=PASS))
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "Spectators" in (err.value.details() or "")
    for p in [*players, watcher]:
        await p.close()


async def test_reconnect_after_seq_gets_exactly_the_missed_events_once(server: Running) -> None:
    table_id, (a,) = await seated(server, 2, bots=1)
    table = server.room.tables[table_id]
    a.subscribe()
    await a.wait_for(lambda q: bool(q.messages))
    await act_until(a, table, lambda: len(a.events) >= 2, lambda acts: acts[1])
    seen = max(seqs(a))
    await a.unsubscribe()
    # While a is away the hand goes on: a acts by token alone, the bot answers.
    await act_until(a, table, lambda: table.seq >= seen + 8, lambda acts: acts[min(1, len(acts) - 1)])
    back = Player(a.address, token=a.token, seat=a.seat)
    back.subscribe(after_seq=seen)
    await back.wait_for(lambda q: bool(q.messages))
    first = back.messages[0]
    assert first.HasField("snapshot"), "every subscription opens with a snapshot"
    await back.wait_for(lambda q: len([m for m in q.events if m.replay]) >= first.seq - seen)
    replayed = [m.seq for m in back.events if m.replay]
    assert replayed == list(range(seen + 1, first.seq + 1)), "exactly what was missed"
    # Live play goes on after the replay; no number twice, none lost.
    acts = await eventually(lambda: list(table.view(a.seat).legal), "a's turn after the replay")
    await a.act(acts[0])
    await back.wait_for(lambda q: any(not m.replay for m in q.events))
    got = [m.seq for m in back.events]
    assert len(got) == len(set(got))
    assert got == list(range(seen + 1, got[-1] + 1))
    for p in (a, back):
        await p.close()


async def test_illegal_actions_are_refused_with_a_sentence_and_change_nothing(server: Running) -> None:
    table_id, players = await seated(server, 2)
    table = await started(server, table_id)
    on_turn = next(p for p in players if table.view(p.seat).legal)
    waiting = next(p for p in players if p is not on_turn)
    def state() -> tuple[int, bytes, bytes]:
        views = [table.view(s) for s in (0, 1)]
        for v in views:
            v.deadline_ms = 0
        return table.seq, views[0].SerializeToString(), views[1].SerializeToString()

    before = state()
    cases = [
        (waiting, common_pb2.Action(type=BET, chips=1), grpc.StatusCode.FAILED_PRECONDITION, "turn"),
        (on_turn, common_pb2.Action(type=BET, chips=7), grpc.StatusCode.FAILED_PRECONDITION, "bet 1"),
        (on_turn, common_pb2.Action(type=RAISE, chips=2), grpc.StatusCode.FAILED_PRECONDITION, ""),
        (on_turn, common_pb2.Action(type=BET, cards=["ZZ"]), grpc.StatusCode.INVALID_ARGUMENT, "not a card"),
        (on_turn, common_pb2.Action(type=0), grpc.StatusCode.INVALID_ARGUMENT, "needs a type"),
        (on_turn, common_pb2.Action(type=999), grpc.StatusCode.INVALID_ARGUMENT, "needs a type"),
    ]
    for player, action, code, words in cases:
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await player.act(action)
        assert err.value.code() == code
        details = err.value.details() or ""
        assert details.endswith(".") and words in details
    assert state() == before
    # A token that opens nothing.
    stranger = Player(on_turn.address, token="not-a-token")
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await stranger.act(common_pb2.Action(type=PASS))
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
    for p in [*players, stranger]:
        await p.close()


async def test_lobby_refusals_use_the_right_codes(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        bad = [
            (lobby_pb2.CreateTableRequest(game="poker"), grpc.StatusCode.INVALID_ARGUMENT),
            (lobby_pb2.CreateTableRequest(game="cacho", seats=9), grpc.StatusCode.INVALID_ARGUMENT),
            (lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=3), grpc.StatusCode.INVALID_ARGUMENT),
            (lobby_pb2.CreateTableRequest(game="cacho", options={"chips": common_pb2.OptionValue(number=1)}),
             grpc.StatusCode.INVALID_ARGUMENT),
            (lobby_pb2.CreateTableRequest(game="cacho", options={"chips": common_pb2.OptionValue(choice="x")}),
             grpc.StatusCode.INVALID_ARGUMENT),
            (lobby_pb2.CreateTableRequest(game="cacho", options={"chips": common_pb2.OptionValue()}),
             grpc.StatusCode.INVALID_ARGUMENT),
            (lobby_pb2.CreateTableRequest(game="cacho", options={"x" * 10_000: common_pb2.OptionValue(flag=True)}),
             grpc.StatusCode.INVALID_ARGUMENT),
        ]
        for request, code in bad:
            with pytest.raises(grpc.aio.AioRpcError) as err:
                await lobby.CreateTable(request)
            assert err.value.code() == code and (err.value.details() or "").endswith(".")
        assert not (await lobby.ListTables(lobby_pb2.ListTablesRequest())).tables
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id="nope", name="ana"))
        assert err.value.code() == grpc.StatusCode.NOT_FOUND
        t = (await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=1, password="pw"))).table
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=t.id, name="ana", password="no"))
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=t.id, name="\x1b[31m", password="pw"))
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        ok = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=t.id, name="ana", password="pw"))
        assert ok.seat == 0
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=t.id, name="bea", password="pw"))
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        private = (await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", bots=2, private=True))).table
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=private.id, name="eve"))
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED


async def test_a_join_sent_again_with_its_own_token_gets_the_seat_it_took_and_nothing_else(server: Running) -> None:
    """A guest's join whose answer was lost is sent again with the token the client made for it: the seat the
    first took is given again (the same token, one seat taken), where another guest meets a full table. A token
    already another table's or a spectator's, or not shaped as a token, is refused with a sentence and takes no
    seat."""
    table_id = await create(server, game="cacho", seats=2, bots=1)
    other_id = await create(server, game="cacho", seats=2, bots=1)
    mine = "A" * 16 + "b-_9" * 4
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        first = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="ana", token=mine))
        again = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="ana", token=mine))
        assert (again.token, again.seat) == (first.token, first.seat) == (mine, first.seat)
        seated = [s for s in server.room.tables[table_id].seating.seats if s.token is not None]
        assert [s.name for s in seated] == ["ana"]
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="bea"))
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, err.value.details()
        watcher = await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=other_id, name="eve"))
        assert len(watcher.token) == 32
        refusals = [(mine, "already in use"), (watcher.token, "already in use"),
                    ("short", "32 characters"), ("é" * 32, "32 characters"), ("A" * 33, "32 characters")]
        for token, words in refusals:
            with pytest.raises(grpc.aio.AioRpcError) as err:
                await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=other_id, name="bea", token=token))
            assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (token, err.value.details())
            assert words in (err.value.details() or "") and (err.value.details() or "").endswith("."), token
        assert not any(s.token for s in server.room.tables[other_id].seating.seats)
        # The seat is the token's: its stream opens.
        stream = table_pb2_grpc.TableStub(ch).Subscribe(table_pb2.SubscribeRequest(token=mine))
        async for message in stream:
            assert message.HasField("snapshot") and message.snapshot.seat == first.seat, message
            break
        stream.cancel()


async def test_chat_reaches_everyone_as_plain_text(server: Running) -> None:
    table_id, players = await seated(server, 2, bots=1)
    watcher = await Player(f"127.0.0.1:{server.port}").spectate(table_id, name="[red]eve")
    for p in (*players, watcher):
        p.subscribe()
    await watcher.wait_for(lambda q: q.last_view is not None)
    await players[0].table.Chat(table_pb2.ChatRequest(token=players[0].token, text="[bold]hi\x1b[2J there\x07"))
    await watcher.table.Chat(table_pb2.ChatRequest(token=watcher.token, text="gl"))
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await watcher.table.Chat(table_pb2.ChatRequest(token=watcher.token, text="x" * 400))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    def chats(p: Player) -> list[tuple[str, str, bool]]:
        return [(m.chatted.name, m.chatted.text, m.chatted.HasField("seat")) for m in p.events if kind(m) == "chatted"]

    await players[0].wait_for(lambda q: len(chats(q)) == 2)
    assert chats(players[0]) == [("p0", "[bold]hi there", True), ("[red]eve", "gl", False)]
    for p in (*players, watcher):
        await p.close()


async def test_health_and_reflection_are_on(server: Running) -> None:
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        health = await health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service="cardtui.v1.Table"))
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        stub = reflection_pb2_grpc.ServerReflectionStub(ch)
        responses = stub.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
        async for r in responses:
            names = {s.name for s in r.list_services_response.service}
            assert {"cardtui.v1.Lobby", "cardtui.v1.Table", "grpc.reflection.v1.ServerReflection"} <= names
            break
        # The v1 service answers too (its messages are v1alpha's, field for field).
        v1 = ch.stream_stream(
            "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
            request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
            response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
        )
        ask = reflection_pb2.ServerReflectionRequest(file_containing_symbol="cardtui.v1.Table")
        async for r in v1(iter([ask])):
            files = r.file_descriptor_response.file_descriptor_proto
            assert files and any(b"cardtui/v1/table.proto" in f for f in files)
            break


async def test_bots_fill_seats_and_play_whole_hands_with_history_stored(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=4, bots=4)
    watcher = await Player(f"127.0.0.1:{server.port}").spectate(table_id)
    watcher.subscribe()
    await watcher.wait_for(lambda q: q.kinds().count("hand_ended") >= 3, timeout=20)
    lines = list(server.store.hands.all(table_id))
    assert len(lines) >= 3
    record = json.loads(lines[0])
    assert record["format"] == "cardtui-hand/1" and record["table"] == table_id and record["hand"] == 1
    assert sum(record["result"]["deltas"].values()) == 0
    from cardtui.engine.cacho.rules import GAME

    assert GAME.replay(record).result == record["result"]
    await watcher.close()


async def test_turn_timer_plays_the_default_action(server: Running) -> None:
    _, players = await seated(server, 2, bots=1, short_turns=1, away_after=100)
    (p,) = players
    p.subscribe()
    await p.wait_for(lambda q: "hand_ended" in q.kinds(), timeout=15)
    mine = [m.acted.action.type for m in p.events if kind(m) == "acted" and m.acted.seat == p.seat]
    assert mine and all(t in (PASS, CHECK) for t in mine)
    await p.close()


async def test_a_player_away_past_missed_turns_is_played_by_a_bot_until_back(server: Running) -> None:
    table_id, (p,) = await seated(server, 2, bots=1, short_turns=1, away_after=2)
    table = server.room.tables[table_id]
    watcher = await Player(p.address).spectate(table_id)
    watcher.subscribe()
    await watcher.wait_for(lambda q: "went_away" in q.kinds(), timeout=15)
    assert table.seating[p.seat].away
    summary = next(s for s in watcher.last_view.seats if s.seat == p.seat)
    assert summary.away and summary.bot, "the table sees who is playing"
    # The bot plays the seat at bot speed now, not at the turn timer's.
    away_at = max(e.seq for e in watcher.events if kind(e) == "went_away")
    await watcher.wait_for(
        lambda q: any(kind(e) == "acted" and e.acted.seat == p.seat and e.seq > away_at for e in q.events), timeout=3
    )
    # Coming back (subscribing with the seat's token) hands the seat back.
    p.subscribe()
    await watcher.wait_for(lambda q: "came_back" in q.kinds(), timeout=5)
    assert not table.seating[p.seat].away and table.seating[p.seat].missed == 0
    for q in (p, watcher):
        await q.close()


async def test_a_stuck_subscriber_is_dropped_without_slowing_the_table(server: Running) -> None:
    from cardtui.server.actor.fanout import Mailbox, Subscriber

    table_id = await create(server, game="cacho", seats=4, bots=4)
    table = server.room.tables[table_id]
    stuck = Subscriber("stuck", None, Mailbox(5))  # never read; a tiny queue overflows fast
    table.fanout.subscribers.add(stuck)
    reader = await Player(f"127.0.0.1:{server.port}").spectate(table_id)
    reader.subscribe()
    await reader.wait_for(lambda q: len(q.messages) > 20, timeout=15)
    assert stuck.dropped and stuck not in table.fanout.subscribers
    drained = []
    while not stuck.queue.empty():
        drained.append(stuck.queue.get_nowait())
    assert drained == [None], "nothing half-delivered: the dropped stream is only told to resubscribe"
    assert reader.task is not None and not reader.task.done(), "the live reader keeps going"
    await reader.close()


async def test_rate_limits_answer_resource_exhausted_with_a_sentence(server: Running) -> None:
    table_id, (p,) = await seated(server, 2, bots=1)
    codes = []
    for _ in range(12):
        try:
            await p.table.Chat(table_pb2.ChatRequest(token=p.token, text="spam"))
            codes.append(grpc.StatusCode.OK)
        except grpc.aio.AioRpcError as err:
            codes.append(err.code())
            assert "slow down" in (err.details() or "")
    assert codes[0] == grpc.StatusCode.OK
    assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes
    refused_at = server.room.tables[table_id].seq
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await p.table.Chat(table_pb2.ChatRequest(token=p.token, text="more"))
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert server.room.tables[table_id].seq == refused_at, "a refused chat changes nothing"
    await p.close()


async def test_paulista_chat_option_keeps_players_quiet_during_a_hand(server: Running) -> None:
    table_id = await create(server, game="truco_paulista", seats=4, bots=3, bot_delay_ms=60_000)
    p = await Player(f"127.0.0.1:{server.port}").join(table_id, "ana")
    watcher = await Player(p.address).spectate(table_id)
    await started(server, table_id)
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await p.table.Chat(table_pb2.ChatRequest(token=p.token, text="I have the 4 of clubs"))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "between hands" in (err.value.details() or "")
    await watcher.table.Chat(table_pb2.ChatRequest(token=watcher.token, text="nice game"))
    talk = await create(server, game="truco_paulista", seats=4, bots=3, bot_delay_ms=60_000,
                        options={"chat": common_pb2.OptionValue(choice="always")})
    q = await Player(p.address).join(talk, "bea")
    await q.table.Chat(table_pb2.ChatRequest(token=q.token, text="boa sorte"))
    for x in (p, watcher, q):
        await x.close()


async def test_a_newcomer_mid_hand_gets_the_hand_so_far_without_what_was_private(server: Running) -> None:
    table_id, (a,) = await seated(server, 2, bots=1, bot_delay_ms=60_000, turn_seconds=3600)
    table = server.room.tables[table_id]
    a.subscribe()
    await a.wait_for(lambda q: bool(legal(q)))
    await a.act(next(x for x in legal(a) if x.type == BET))
    await a.wait_for(lambda q: "acted" in q.kinds())
    dealt = [e.seq for e in buffered(table) if kind(e) == "cards_dealt"]
    assert dealt
    # A spectator comes: after the snapshot, the hand from its first event on, marked replay.
    eve = await Player(a.address).spectate(table_id, "eve")
    eve.subscribe()
    await eve.wait_for(lambda q: len(q.messages) >= 2)
    snapshot, replay = eve.messages[0], eve.messages[1]
    assert snapshot.HasField("snapshot") and replay.HasField("update") and not replay.update.HasField("view")
    events = list(replay.update.events)
    assert all(e.replay for e in events)
    assert [kind(e) for e in events][:2] == ["match_started", "hand_started"], "from the hand's beginning"
    assert [e.seq for e in events] == list(range(events[0].seq, snapshot.seq + 1)), "up to the snapshot"
    assert "acted" in [kind(e) for e in events]
    assert all(kind(e) == "hidden" for e in events if e.seq in dealt), "no one's cards"
    assert "joined" not in [kind(e) for e in events], "what came before the hand is not replayed"
    # The seat changes hands mid-hand: the newcomer reads the hand, not the cards dealt before they sat.
    await a.lobby.Leave(lobby_pb2.LeaveRequest(token=a.token))
    bea = await Player(a.address).join(table_id, "bea")
    assert bea.seat == a.seat
    bea.subscribe()
    await bea.wait_for(lambda q: len(q.messages) >= 2)
    events = list(bea.messages[1].update.events)
    kinds = [kind(e) for e in events]
    assert kinds[0] == "match_started" and "acted" in kinds
    assert all(kind(e) == "hidden" for e in events if e.seq in dealt), "not even the seat's own cards of before"
    for p in (a, eve, bea):
        await p.close()


async def test_between_hands_the_view_tells_when_the_next_hand_is_dealt(tmp_path: Path) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=3.0)
    try:
        table_id = await create(running, game="cacho", seats=2, bots=2)
        eve = await Player(f"127.0.0.1:{running.port}").spectate(table_id)
        eve.subscribe()
        await eve.wait_for(lambda q: q.last_view is not None and q.last_view.hand_over, timeout=20)
        view = eve.last_view
        assert view is not None and 2000 < view.deadline_ms <= 3000
        assert not view.to_act
        await eve.close()
    finally:
        await running.stop(grace=0.2)
