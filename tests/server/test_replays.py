"""Replays over the wire: ListHands and Replay on a real server, who may open which hand, and the
delayed full view that never holds the hand in play."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import pytest_asyncio

from cardtui.engine.core import Bound, GameView
from cardtui.engine.games import GAMES
from cardtui.server.app import Running, start
from cardtui.server.base import wire
from cardtui.server.base.clock import ManualClock
from cardtui.server.base.limits import Limits
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc, replay_pb2, table_pb2
from tests.conftest import Player, kind, started
from tests.engine.test_replays import RIGGED
from tests.per_game import declared
from tests.waiting import eventually, timers_until


def view_record(view: table_pb2.View) -> GameView:
    from cardtui.engine.cacho.rules import CachoView
    from cardtui.engine.rummy.records import RummyView
    from cardtui.engine.truco.views import TrucoView

    cls: type[GameView] = {"cacho": CachoView, "rummy": RummyView, "truco": TrucoView}[view.WhichOneof("game") or ""]
    return wire.view_record(view, cls)


@pytest_asyncio.fixture
async def lobby(server: Running) -> AsyncIterator[lobby_pb2_grpc.LobbyStub]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        yield lobby_pb2_grpc.LobbyStub(channel)


async def replay(lobby: lobby_pb2_grpc.LobbyStub, table_id: str, hand: int, token: str = "",
                 password: str = "") -> list[replay_pb2.ReplayStep]:
    request = replay_pb2.ReplayRequest(table_id=table_id, hand=hand, token=token, password=password)
    return [step async for step in lobby.Replay(request)]


async def refused(call: Any, code: grpc.StatusCode) -> str:
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await call
    assert err.value.code() == code, err.value.details()
    details = err.value.details() or ""
    assert details.endswith("."), details
    return details


def store_finished(running: Running, table_id: str, record: dict[str, Any], **config: Any) -> None:
    """A finished table holding one hand, as the store keeps it after the table closed."""
    running.store.tables.add_table(table_id, record["game"], "rigged",
                                   {"game": record["game"], "name": "rigged", **config})
    running.store.hands.add_hand(table_id, dict(record, table=table_id, hand=1, match=1))
    running.store.tables.finish(table_id)


@pytest.mark.parametrize("game", list(RIGGED))
async def test_a_rigged_hand_replays_over_the_wire_forwards_and_back(
    server: Running, lobby: lobby_pb2_grpc.LobbyStub, game: str
) -> None:
    record, live, actors = RIGGED[game]()
    store_finished(server, f"rig-{game}", record)
    listed = await lobby.ListHands(replay_pb2.ListHandsRequest(table_id=f"rig-{game}"))
    assert [h.hand for h in listed.hands] == [1] and listed.in_play == 0
    summary = listed.hands[0]
    assert summary.game == game and summary.actions == len(actors) - 1
    assert list(summary.deltas) == [record["result"]["deltas"][str(s)] for s in range(len(summary.seats))]
    steps = await replay(lobby, f"rig-{game}", 1)
    assert steps[0].hand == summary and not any(s.HasField("hand") for s in steps[1:])
    assert [s.step for s in steps] == list(range(len(actors)))
    assert [s.seat if s.HasField("seat") else None for s in steps] == actors
    # Every event whole (nothing hidden, the cards dealt to each seat included), numbered in order.
    events = [e for s in steps for e in s.events]
    assert [e.seq for e in events] == list(range(1, len(live) + 1))
    assert "hidden" not in [kind(e) for e in events]
    assert [wire.record(wire.event_record(e), type(ev.body)) for e, ev in zip(events, live, strict=True)] == [
        ev.body for ev in live
    ]
    engine_steps = GAMES[game].replay_steps(record)
    # Forwards to the result, then back to the deal: each step's view is the engine's open view.
    order = [*range(len(steps)), *reversed(range(len(steps)))]
    for n in order:
        view = steps[n].view
        assert not view.legal and not view.HasField("you")
        assert [s.name for s in view.seats] == [s["name"] for s in record["seats"]]
        assert view_record(view) == engine_steps[n].view
    assert steps[-1].view.hand_over and not steps[0].view.hand_over


async def test_who_may_open_a_tables_hands(server: Running, lobby: lobby_pb2_grpc.LobbyStub) -> None:
    created = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=3, bots=2, bot_delay_ms=0))
    table_id = created.table.id
    assert not created.table.delayed_spectator_view
    player = await Player(f"127.0.0.1:{server.port}").join(table_id, "ana")
    watcher = await Player(f"127.0.0.1:{server.port}").spectate(table_id)
    ask = replay_pb2.ListHandsRequest
    said = await refused(lobby.ListHands(ask(table_id=table_id)), grpc.StatusCode.PERMISSION_DENIED)
    assert "still playing" in said
    said = await refused(lobby.ListHands(ask(table_id=table_id, token=player.token)), grpc.StatusCode.PERMISSION_DENIED)
    assert "once the table has finished" in said
    said = await refused(lobby.ListHands(ask(table_id=table_id, token=watcher.token)),
                         grpc.StatusCode.PERMISSION_DENIED)
    assert "does not show its spectators" in said
    await refused(replay(lobby, table_id, 1, watcher.token), grpc.StatusCode.PERMISSION_DENIED)
    await refused(lobby.ListHands(ask(table_id="nope")), grpc.StatusCode.NOT_FOUND)
    await refused(replay(lobby, "nope", 1), grpc.StatusCode.NOT_FOUND)
    # The person leaves, bots play on; once some hands are over the owner closes the table.
    await started(server, table_id)
    await lobby.Leave(lobby_pb2.LeaveRequest(token=player.token))
    await eventually(lambda: server.store.hands.count_hands(table_id) >= 2, "two hands stored")
    await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=table_id, owner_token=created.owner_token))
    listed = await lobby.ListHands(ask(table_id=table_id))
    assert listed.table.status == 3 and listed.in_play == 0
    assert [h.hand for h in listed.hands] == list(range(1, len(listed.hands) + 1)) and len(listed.hands) >= 2
    for h in listed.hands:
        steps = await replay(lobby, table_id, h.hand)
        assert steps[-1].view.hand_over and len(steps) == h.actions + 1
    said = await refused(replay(lobby, table_id, len(listed.hands) + 1), grpc.StatusCode.NOT_FOUND)
    assert f"no finished hand {len(listed.hands) + 1}" in said
    await refused(replay(lobby, table_id, 0), grpc.StatusCode.NOT_FOUND)
    # Locked and private tables keep their hands to themselves.
    record, _, _ = RIGGED["cacho"]()
    from cardtui.server.base.passwords import kept

    store_finished(server, "locked", record, password=kept("sesame"))
    store_finished(server, "private", record, private=True)
    await refused(lobby.ListHands(ask(table_id="locked")), grpc.StatusCode.PERMISSION_DENIED)
    await refused(replay(lobby, "locked", 1, password="open"), grpc.StatusCode.PERMISSION_DENIED)
    assert len(await replay(lobby, "locked", 1, password="sesame")) > 1
    await refused(replay(lobby, "private", 1), grpc.StatusCode.PERMISSION_DENIED)
    await player.close()
    await watcher.close()


async def test_the_delayed_view_refuses_the_hand_in_play(server: Running, lobby: lobby_pb2_grpc.LobbyStub) -> None:
    created = await lobby.CreateTable(lobby_pb2.CreateTableRequest(
        game="cacho", seats=3, bots=3, bot_delay_ms=60_000, delayed_spectator_view=True))
    table_id = created.table.id
    assert created.table.delayed_spectator_view
    watcher = await Player(f"127.0.0.1:{server.port}").spectate(table_id)
    listed = await lobby.ListHands(replay_pb2.ListHandsRequest(table_id=table_id, token=watcher.token))
    assert listed.in_play == 1 and not listed.hands
    said = await refused(replay(lobby, table_id, 1, watcher.token), grpc.StatusCode.FAILED_PRECONDITION)
    assert "still being played" in said
    await refused(replay(lobby, table_id, 2, watcher.token), grpc.StatusCode.NOT_FOUND)
    other = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=2, bot_delay_ms=60_000))
    await refused(replay(lobby, other.table.id, 1, watcher.token), grpc.StatusCode.PERMISSION_DENIED)
    await watcher.close()


# -- the delayed view over whole bot games ----------------------------------------------------------
GAMES_TO_PLAY = {game: tests.watched for game, tests in declared().items()}
"""Each game's short match, as its own tests declare it (tests/per_game.py)."""


@pytest_asyncio.fixture
async def busy_server(tmp_path: Path) -> AsyncIterator[tuple[Running, ManualClock]]:
    """A server whose limits let one client ask for replays at every moment of a game, and whose
    tables never finish for want of people (a server's setting: no table may ask for it), on a clock
    the test moves: its tables move when the test has looked, however busy the machine."""
    clock = ManualClock()
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.0, next_hand_delay=0.01,
                          limits=Limits(replays_per_second=100_000), idle_minutes=-1, clock=clock)
    try:
        yield running, clock
    finally:
        await running.stop(grace=0.2)


def dealt(steps: list[replay_pb2.ReplayStep]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Every card a replay deals, seat by seat, in order."""
    return tuple((e.cards_dealt.seat, tuple(e.cards_dealt.cards)) for s in steps for e in s.events
                 if e.HasField("cards_dealt"))


def in_play_deal(running: Running, table_id: str) -> tuple[int, tuple[tuple[int, tuple[str, ...]], ...]]:
    """The table's hand in play (its number; 0: none) and the cards dealt in it so far, read in the server."""
    table = running.room.tables[table_id]
    match = table.match
    if not table.in_play or not isinstance(match, Bound):
        return 0, ()
    log = match.state.log
    return table.in_play, tuple((s, tuple(map(str, cards))) for s, cards in log.deal.items() if cards)


def in_play_secret(running: Running, table_id: str) -> str:
    """The server's secret seed of the hand in play, as a hand record writes it ("": none)."""
    table = running.room.tables[table_id]
    seed = table.deal_seed
    return seed.as_record()["server_seed"] if table.in_play and seed is not None else ""


async def look(running: Running, lobby: lobby_pb2_grpc.LobbyStub, watcher: Player, table_id: str,
               seen: dict[int, tuple[tuple[int, tuple[str, ...]], ...]], in_play: set[int]) -> int:
    """The watcher asks for every hand the server lists, with one in play: each is finished, none is the one in
    play, none deals its cards (``seen``: each hand's deal, the same at every look); and for the hand in play, which
    is refused (1) or has just finished (0)."""
    listed = await lobby.ListHands(replay_pb2.ListHandsRequest(table_id=table_id, token=watcher.token))
    now, _ = in_play_deal(running, table_id)
    in_play.add(now)
    assert all(h.hand != now for h in listed.hands)
    hands = [h.hand for h in listed.hands]
    assert hands == list(range(1, len(hands) + 1))
    wanted = {*hands[-1:], *(h for h in hands if h not in seen)}
    for hand in sorted(wanted):
        steps = [s async for s in lobby.Replay(
            replay_pb2.ReplayRequest(table_id=table_id, hand=hand, token=watcher.token))]
        number, cards = in_play_deal(running, table_id)
        assert steps[-1].view.hand_over and steps[0].hand.hand == hand
        assert hand != number, "a replay of the hand in play"
        line = running.store.hands.hand(table_id, hand)
        assert line is not None, "a replay of a hand not stored"
        # The hand in play is told apart by its secret seed: two deals of one card to each of
        # two players (late Cacho hands) may well be the same cards.
        assert json.loads(line)["fair"]["server_seed"] != in_play_secret(running, table_id)
        if sum(len(c) for _, c in cards) >= 6:
            assert dealt(steps) != cards, "a replay dealing the cards of the hand in play"
        assert seen.setdefault(hand, dealt(steps)) == dealt(steps)
    if listed.in_play:
        try:
            steps = [s async for s in lobby.Replay(
                replay_pb2.ReplayRequest(table_id=table_id, hand=listed.in_play, token=watcher.token))]
        except grpc.aio.AioRpcError as err:
            assert err.code() == grpc.StatusCode.FAILED_PRECONDITION, err.details()
            return 1
        else:  # it finished between the two calls: then it is stored, and no longer in play
            assert in_play_deal(running, table_id)[0] != listed.in_play
            assert running.store.hands.hand(table_id, listed.in_play) is not None
    return 0


@pytest.mark.parametrize("game", list(GAMES_TO_PLAY))
async def test_the_delayed_view_never_holds_the_hand_in_play(busy_server: tuple[Running, ManualClock],
                                                             game: str) -> None:
    """Spectators of a table with the delayed view, at every moment of a whole bot game (or of
    its first dozen hands: a rare game of Pif Paf at 2 chips each runs to seventy), ask for
    every hand the server allows: each is finished, none is the hand in play, and none deals
    the cards the hand in play was dealt. The table makes its next move (a bot's, a window's end,
    the next deal) when the watcher has seen the last and looked."""
    busy_server, clock = busy_server
    players, options = GAMES_TO_PLAY[game].players, GAMES_TO_PLAY[game].wire()
    address = f"127.0.0.1:{busy_server.port}"
    async with grpc.aio.insecure_channel(address) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        created = await lobby.CreateTable(lobby_pb2.CreateTableRequest(
            game=game, seats=players, bots=players, options=options, bot_delay_ms=5, delayed_spectator_view=True))
        table_id = created.table.id
        watcher = await Player(address).spectate(table_id)
        watcher.subscribe()
        seen: dict[int, tuple[tuple[int, tuple[str, ...]], ...]] = {}
        in_play: set[int] = set()  # the hands the watcher looked at while they were in play
        moments = refusals = 0
        table = busy_server.room.tables[table_id]
        while True:
            await watcher.wait_for(lambda q: max((m.seq for m in q.messages), default=-1) >= table.seq)
            if any(kind(e) == "match_ended" for e in watcher.events) or table.hands_played >= 12:
                break
            latest = watcher.last_view
            before = table.seq
            if latest is not None and not latest.hand_over and latest.WhichOneof("game") != "waiting":
                refusals += await look(busy_server, lobby, watcher, table_id, seen, in_play)
                moments += 1
            await timers_until(clock, lambda before=before: table.seq > before, "the table's next move")
        # Every hand was opened while a later one was in play: every hand the watcher looked at
        # the table after. A short hand (the last, or one lost at once at eleven) may come and go
        # between two looks.
        ended = json.loads(busy_server.store.hands.last_hands(table_id, 1)[0])["hand"]
        assert {h for h in range(1, ended) if any(later > h for later in in_play)} <= set(seen)
        assert len(seen) >= ended // 2
        assert moments > 3 and refusals > 0
        await watcher.close()


def test_summaries_name_teams_and_winners() -> None:
    from cardtui.server.hands.replays import hand_summary

    record, _, _ = RIGGED["truco_paulista"]()
    summary = hand_summary(dict(record, table="t", hand=3, match=2))
    assert summary.HasField("team") and not summary.HasField("winner")
    assert (summary.table_id, summary.hand, summary.match) == ("t", 3, 2)
    assert [s.team for s in summary.seats] == [0, 1, 0, 1]
    record, _, _ = RIGGED["cacho"]()
    summary = hand_summary(record)
    assert summary.winner == record["result"]["winner"] and not summary.HasField("team")


@pytest_asyncio.fixture
async def timed(tmp_path: Path) -> AsyncIterator[tuple[Running, ManualClock, lobby_pb2_grpc.LobbyStub]]:
    """A server whose rate limits run on a clock the test moves, and a lobby to it."""
    clock = ManualClock()
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05, clock=clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            yield running, clock, lobby_pb2_grpc.LobbyStub(channel)
    finally:
        await running.stop(grace=0.2)


async def test_odd_requests_get_refusals_never_a_crash(
    timed: tuple[Running, ManualClock, lobby_pb2_grpc.LobbyStub]
) -> None:
    server, clock, lobby = timed
    record, _, _ = RIGGED["cacho"]()
    store_finished(server, "rig", record)
    created = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=2, bot_delay_ms=60_000,
                                                                   delayed_spectator_view=True))
    odd = ["", "rig", created.table.id, "x" * 5000, "'; DROP TABLE hands; --", "\x00", "ñ" * 40]
    hands = [0, -1, 1, 2, 2**31 - 1, -(2**31)]
    codes = set()
    for table_id in odd:
        for token in ("", "nonsense", table_id):
            try:
                await lobby.ListHands(replay_pb2.ListHandsRequest(table_id=table_id, token=token))
            except grpc.aio.AioRpcError as err:
                codes.add(err.code())
                assert (err.details() or "").endswith(".")
            for hand in hands:
                try:
                    await replay(lobby, table_id, hand, token, password="x" * 100)
                except grpc.aio.AioRpcError as err:
                    codes.add(err.code())
    assert codes <= {grpc.StatusCode.NOT_FOUND, grpc.StatusCode.PERMISSION_DENIED,
                     grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.RESOURCE_EXHAUSTED}, codes
    assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes, "replays are rate-limited"
    await clock.advance(0.3)  # the bucket refills
    assert len(await replay(lobby, "rig", 1)) > 1, "the server still serves"
