"""Fuzzing the wire: random and malformed requests against a real server on 127.0.0.1.

Whatever a client sends, the server answers with success or a proper refusal (a status
code a client can act on and a sentence a person can read), keeps serving, and a refusal
changes nothing at any table.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
import pytest_asyncio
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from cardtui.engine.cards import FRENCH_SUITS, SPANISH_SUITS, Card
from cardtui.engine.games import GAMES
from cardtui.server.actor.table import Table
from cardtui.server.app import Running, start
from cardtui.server.base.limits import Limits
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc
from tests.waiting import PATIENCE, eventually

pytestmark = pytest.mark.xdist_group("fuzz")
"""One worker runs the module's tests, in order: the second reads what the first did to their one
server (``--dist loadgroup`` sends a test without a group wherever it likes)."""

REFUSALS = {
    grpc.StatusCode.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.PERMISSION_DENIED,
    grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
}
"""The codes docs/client.md names for refusals; UNKNOWN or INTERNAL would mean a crash in a handler."""

CARDS = [str(Card.of(r, s)) for s in FRENCH_SUITS for r in range(1, 14)] + [
    str(Card.of(r, s)) for s in SPANISH_SUITS for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
]
TYPES = list(common_pb2.ActionType.values())
OPTION_VALUES = st.one_of(
    st.builds(common_pb2.OptionValue),
    st.builds(common_pb2.OptionValue, flag=st.booleans()),
    st.builds(common_pb2.OptionValue, number=st.integers(-(2**63), 2**63 - 1)),
    st.builds(common_pb2.OptionValue, fraction=st.floats(allow_nan=True, allow_infinity=True)),
    st.builds(common_pb2.OptionValue, choice=st.one_of(st.sampled_from(["always", "trick", "hand", "rotate"]),
                                                         st.text(max_size=50))),
)
OPTION_NAMES = st.one_of(st.sampled_from(sorted({s.name for g in GAMES.values() for s in g.option_specs})),
                         st.text(max_size=60))
NASTY = ["", " ", "\x00", "\x1b[31mred\x1b[0m", "\u202etxet", "[b]x[/b]", "\t\n", "é" * 30, "a" * 301, "x" * 2000]

texts = st.one_of(st.sampled_from(NASTY), st.text(max_size=40), st.text(max_size=1500))
int32 = st.one_of(st.sampled_from([0, 1, 2, 3, 4, -1, 2**31 - 1, -(2**31)]), st.integers(-(2**31), 2**31 - 1))
uint64 = st.one_of(st.sampled_from([0, 1, 2**63, 2**64 - 1]), st.integers(0, 2**64 - 1), st.integers(0, 200))
card_lists = st.lists(st.one_of(st.sampled_from(CARDS), texts), max_size=20)


@dataclass
class World:
    """A server, tables where only people act (no bots, no timers), and their tokens."""

    running: Running
    channel: grpc.aio.Channel
    lobby: lobby_pb2_grpc.LobbyStub
    table: table_pb2_grpc.TableStub
    targets: list[Table]
    seat_tokens: list[tuple[Table, int, str]] = field(default_factory=list)
    watch_tokens: list[str] = field(default_factory=list)
    compared: int = 0
    refused: int = 0


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    # No rate limits: the fuzz is about what the handlers do with what they are given.
    running = await start(
        "127.0.0.1", 0, tmp_path_factory.mktemp("fuzz") / "fuzz.db", bot_delay=1.0, next_hand_delay=0.0,
        limits=Limits(acts_per_second=1e9, chats_per_second=1e9, tables_per_minute=1e9), cut_window=0,
    )
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{running.port}")
    lobby = lobby_pb2_grpc.LobbyStub(channel)
    w = World(running, channel, lobby, table_pb2_grpc.TableStub(channel), [])
    for name, rules in GAMES.items():
        n = rules.player_counts[0]
        summary = await lobby.CreateTable(
            lobby_pb2.CreateTableRequest(game=name, seats=n, bots=0, turn_seconds=3600, away_after=100)
        )
        summary = summary.table
        table = running.room.tables[summary.id]
        for i in range(n):
            r = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=summary.id, name=f"p{i}"))
            w.seat_tokens.append((table, r.seat, r.token))
        r = await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=summary.id, name="watcher"))
        w.watch_tokens.append(r.token)
        w.targets.append(table)
    try:
        yield w
    finally:
        await channel.close()
        await running.stop(grace=0.2)


def state(table: Table) -> tuple[Any, ...]:
    """Everything a refusal must leave alone: numbering, every seat's view and legal actions."""
    views = [table.view(s) for s in [None, *range(len(table.seating))]]
    for v in views:
        v.deadline_ms = 0
    return (
        table.seq,
        [v.SerializeToString() for v in views],
        [s.SerializeToString() for s in table.seating.summaries()],
        len(table.spectators),
    )


def comparable(t: Table) -> bool:
    """A table between two of its own moves: a hand in play, no window the rules time (a claim
    window closes by the clock, which would change the table under the comparison)."""
    return t.match is not None and t.match.timeout_ms() is None and not t.match.hand_over()


async def settled(w: World) -> list[Table]:
    """The tables to compare, once at least one is comparable. Truco's and Cacho's tables time no
    window, and the next hand follows the last at once (no pause, no cut window), so this waits for
    the next hand's deal at most, however busy the machine."""
    await eventually(lambda: any(comparable(t) for t in w.targets), "a table between two of its moves")
    return [t for t in w.targets if comparable(t)]


PICK = st.integers(0, 2**16)
"""An index into a list that changes as the run goes on, so every example draws alike."""


def pick(items: list[Any], i: int) -> Any:
    return items[i % len(items)]


def token(data: st.DataObject, w: World) -> str:
    how = data.draw(st.sampled_from(["seat", "seat", "watch", "text"]), label="token kind")
    if how == "seat":
        return str(pick(w.seat_tokens, data.draw(PICK, label="seat token"))[2])
    if how == "watch":
        return str(pick(w.watch_tokens, data.draw(PICK, label="watch token")))
    return data.draw(st.one_of(texts, st.sampled_from(["x" * 32])), label="token")


def action(data: st.DataObject, w: World, token: str) -> common_pb2.Action:
    """A legal action now and then (so play moves on), bent or random ones otherwise.

    Every draw happens whatever the table's state, so hypothesis sees the same shape each time.
    """
    use_legal = data.draw(st.booleans(), label="legal")
    which, amount = data.draw(PICK, label="which legal"), data.draw(PICK, label="amount")
    bend, bent = data.draw(st.booleans(), label="bend"), data.draw(int32, label="bent amount")
    random = common_pb2.Action(
        type=data.draw(st.one_of(st.sampled_from(TYPES), int32), label="type"),
        chips=data.draw(int32, label="chips"),
        cards=data.draw(card_lists, label="cards"),
        position=data.draw(int32, label="position"),
        points=data.draw(int32, label="points"),
        signal=data.draw(int32, label="signal"),
        source=data.draw(int32, label="source"),
        max_chips=data.draw(int32, label="max"),
    )
    seat = next(((t, s) for t, s, tok in w.seat_tokens if tok == token), None)
    legal = list(seat[0].view(seat[1]).legal) if seat is not None and seat[0].match is not None else []
    if not (legal and use_legal):
        return random
    msg = common_pb2.Action()
    msg.CopyFrom(pick(legal, which))
    if msg.max_chips:
        msg.chips += amount % (msg.max_chips - msg.chips + 1)
        msg.max_chips = 0
    if bend:
        msg.chips = bent
    return msg


async def send(data: st.DataObject, w: World) -> str:
    """Draw one request, send it, and return what it was (for messages)."""
    kind = data.draw(st.sampled_from(["act", "act", "act", "chat", "chat", "subscribe", "join", "create",
                                      "spectate", "leave"]), label="kind")
    table_ids = [t.id for t in w.targets]
    if kind == "act":
        tok = token(data, w)
        req = table_pb2.ActRequest(token=tok, action=action(data, w, tok), seen_seq=data.draw(uint64))
        if data.draw(st.integers(0, 9), label="no action") == 0:
            req.ClearField("action")
        await w.table.Act(req, timeout=PATIENCE)
    elif kind == "chat":
        await w.table.Chat(table_pb2.ChatRequest(token=token(data, w), text=data.draw(texts)), timeout=PATIENCE)
    elif kind == "subscribe":
        tok = token(data, w)
        call = w.table.Subscribe(table_pb2.SubscribeRequest(token=tok, after_seq=data.draw(uint64)), timeout=PATIENCE)
        try:
            first = await call.read()
            assert first.HasField("snapshot"), "a subscription opens with a snapshot"
            seat = next((s for _, s, t in w.seat_tokens if t == tok), None)
            got = first.snapshot.seat if first.snapshot.HasField("seat") else None
            assert got == seat, "the snapshot is of the token's own seat"
        finally:
            call.cancel()
    elif kind == "join":
        req = lobby_pb2.JoinTableRequest(
            table_id=data.draw(st.one_of(st.sampled_from(table_ids), texts), label="table"),
            name=data.draw(texts, label="name"),
            password=data.draw(st.one_of(st.just(""), texts), label="password"),
        )
        if data.draw(st.booleans(), label="with seat"):
            req.seat = data.draw(int32, label="seat")
        await w.lobby.JoinTable(req, timeout=PATIENCE)
    elif kind == "create":
        req = lobby_pb2.CreateTableRequest(
            game=data.draw(st.one_of(st.sampled_from(list(GAMES)), texts), label="game"),
            name=data.draw(texts, label="name"),
            seats=data.draw(int32, label="seats"),
            bots=data.draw(int32, label="bots"),
            options=data.draw(st.dictionaries(OPTION_NAMES, OPTION_VALUES, max_size=4), label="options"),
            turn_seconds=data.draw(int32, label="turn"),
            password=data.draw(st.one_of(st.just(""), texts), label="password"),
            private=data.draw(st.booleans(), label="private"),
            away_after=data.draw(int32, label="away"),
        )
        if data.draw(st.booleans(), label="with delay"):
            req.bot_delay_ms = data.draw(int32, label="delay")
        await w.lobby.CreateTable(req, timeout=PATIENCE)
    elif kind == "spectate":
        req_s = lobby_pb2.SpectateRequest(
            table_id=data.draw(st.one_of(st.sampled_from(table_ids), texts), label="table"),
            name=data.draw(texts, label="name"),
            password=data.draw(st.one_of(st.just(""), texts), label="password"),
        )
        await w.lobby.Spectate(req_s, timeout=PATIENCE)
    else:
        # Never a seat token of a watched table: a bot would take the seat and play on its own.
        if data.draw(st.booleans(), label="a watcher's token"):
            tok = str(pick(w.watch_tokens, data.draw(PICK, label="watch token")))
        else:
            tok = data.draw(texts, label="token")
        await w.lobby.Leave(lobby_pb2.LeaveRequest(token=tok), timeout=PATIENCE)
    return kind


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.asyncio(loop_scope="module")
async def test_any_request_succeeds_or_is_refused_properly_and_a_refusal_changes_nothing(
    world: World, data: st.DataObject
) -> None:
    w = world
    compared = await settled(w)
    before = {t.id: state(t) for t in compared}
    try:
        kind = await send(data, w)
    except grpc.aio.AioRpcError as e:
        details = e.details() or ""
        assert e.code() in REFUSALS, f"a refusal, not {e.code()}: {details}"
        # A sentence: it may open with a player's name, which need not be capitalised.
        assert details.endswith(".") and (details[:1].isalnum() or details[:1] in "'\""), f"a sentence: {details!r}"
        assert all(ch.isprintable() for ch in details), f"no control characters: {details!r}"
        for t in compared:
            assert state(t) == before[t.id], f"a refused call changed table {t.id} ({t.rules.name})"
        w.refused += 1
        w.compared += bool(compared)
    else:
        note(f"{kind} succeeded")
    # Tables the fuzz opened must not play on and crowd out the rest of the run.
    for t in list(w.running.room.tables.values()):
        if t not in w.targets and not t.closed:
            t.shutdown("The fuzz is done with this table.")
            t.closed = True
    info = await w.lobby.GetInfo(lobby_pb2.GetInfoRequest(), timeout=PATIENCE)
    assert set(GAMES) <= {g.name for g in info.games}, "the server still answers"


@pytest.mark.asyncio(loop_scope="module")
async def test_the_fuzz_reached_the_tables_and_the_server_is_healthy(world: World) -> None:
    """The run above refused many requests, each with a table in play to compare, and the server still serves."""
    assert world.refused >= 100 and world.compared == world.refused, (world.refused, world.compared)
    assert any(t.seq > 1 and t.hands_played + 1 for t in world.targets)
    health = health_pb2_grpc.HealthStub(world.channel)
    reply = await health.Check(health_pb2.HealthCheckRequest(service=""), timeout=PATIENCE)
    assert reply.status == health_pb2.HealthCheckResponse.SERVING


@pytest.mark.asyncio(loop_scope="module")
async def test_bytes_that_are_no_protobuf_leave_the_server_serving(world: World) -> None:
    raw = world.channel.unary_unary("/cardtui.v1.Table/Act")
    for junk in (b"\xff" * 40, b"\x0a\xff\xff\xff\xff\x0f", b"\x12" + b"\x80" * 20):
        with pytest.raises(grpc.aio.AioRpcError):
            await raw(junk, timeout=PATIENCE)
    info = await world.lobby.GetInfo(lobby_pb2.GetInfoRequest(), timeout=PATIENCE)
    assert set(GAMES) <= {g.name for g in info.games}


@pytest.mark.asyncio(loop_scope="module")
async def test_bytes_that_are_no_protobuf_are_refused_as_malformed(world: World) -> None:
    raw = world.channel.unary_unary("/cardtui.v1.Table/Act")
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await raw(b"\xff" * 40, timeout=PATIENCE)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
