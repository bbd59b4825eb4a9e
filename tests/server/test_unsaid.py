"""A restart never unsays what everyone saw: kill -9 at every kind of event no request made.

A real server (``cardtui serve`` in a process of its own on 127.0.0.1, forked by ``tests.forked``,
with a real SQLite store) is killed with SIGKILL the moment a client has received each kind of
change that a timer or the server itself makes: a seed taken for a deal being cut, a commitment
published, a cut window closing on its deal, a Cacho redeal, a bot's move, a claim window lapsing,
a turn timer's default with the away mark it brings. It is started again on the same store each
time, and every stream comes back from the last number it got.

What each stream saw is kept across every kill and held against what it sees after: an event
number never names two different events; a stream never finds the table behind what it last
saw (an earlier number, or the same number with another state); a hand never gets a second
commitment; every reveal opens the commitment published before the kill; a seed the server
said it took is in its deal. The test waits for events, never for time: a kill waits for the
event it is aimed at, and each kind is aimed at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import os
import signal
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from cardtui.fair import Chain
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc
from tests import forked
from tests.conftest import kind
from tests.forked import Served
from tests.waiting import PATIENCE, eventually

SERVE = ("--next-hand-delay", "300", "--bot-delay", "200", "--cut-ms", "1500", "--log-level", "warning",
         "--no-announce", "--max-actions", "1e6", "--workers", "1", "--analysis-workers", "0")
"""One process, the one the harness kills (a table worker killed is tests/server/test_workers.py's), and no analysis
pool, which nobody here asks for (its processes would start again at every restart)."""
"""Short pauses, so that a run is quick; a cut window long enough for every stream to be back
before a deal a restart left waiting is made."""

KINDS = ("seed taken", "commitment", "cut closed", "redeal", "bot move", "lapse", "timeout default")
"""Each kind of change the server is killed at, once."""

GAME_EVENTS = frozenset({"rummy", "cacho", "truco", "acted"})
"""The events a move makes (table events such as a seat going away are not moves)."""


def inner(event: table_pb2.Event) -> Any:
    """An event's innermost body (``RummyDrew``, ``WentAway``...)."""
    name = event.WhichOneof("body") or ""
    body: Any = getattr(event, name) if name else None
    while body is not None and body.DESCRIPTOR.oneofs_by_name.get("body") is not None:
        field_name = body.WhichOneof("body")
        body = getattr(body, field_name) if field_name else None
    return body


def event_key(event: table_pb2.Event) -> bytes:
    """An event as a stream saw it, whether sent live or again after a reconnect."""
    copy = table_pb2.Event()
    copy.CopyFrom(event)
    copy.replay = False
    return copy.SerializeToString(deterministic=True)


def view_key(view: table_pb2.View) -> bytes:
    """A view less its clock, which a restart sets going again."""
    copy = table_pb2.View()
    copy.CopyFrom(view)
    copy.deadline_ms = 0
    return copy.SerializeToString(deterministic=True)


@dataclass(eq=False)
class Stream:
    """One token's stream, followed across restarts."""

    label: str
    table: str
    token: str
    seat: int | None
    seen: dict[int, bytes] = field(default_factory=dict)
    """Every event number this stream got, and the event it named."""
    last: int = 0
    """The number of the last message it got: where it resumes."""
    view: bytes | None = None
    """The state the last message brought (``view_key``)."""
    following: bool = True
    task: asyncio.Task[None] | None = None
    chain: Chain = field(default_factory=lambda: Chain.make(length=64))
    """The seat's pledged chain (docs/deal.md §3a): its links are the seeds it cuts with."""


React = Callable[[Stream, int, table_pb2.View, Sequence[table_pb2.Event]], None]
"""A player's answer to what its stream brought: the message's number, its view, its events."""


class Run:
    """The server, the streams that follow its tables, the kills and what they must not undo."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.proc: Served | None = None
        self.channel: grpc.aio.Channel | None = None
        self.streams: list[Stream] = []
        self.wanted = set(KINDS)
        self.killed_at: list[tuple[str, str, int]] = []
        self.down = asyncio.Event()
        self.changed = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()
        self.commitments: dict[tuple[str, int], str] = {}
        self.taken: dict[tuple[str, int], tuple[int, bytes]] = {}
        self.revealed: set[tuple[str, int]] = set()
        self.restarts = 0
        self.failures: list[BaseException] = []
        """What went wrong in a stream or a player's request, for the test to raise."""
        self.aims: dict[str, set[str]] = {}
        """The kinds of change a kill is aimed at on each table: only these bring the server down,
        so that nothing the test asks of the server meanwhile meets a kill."""
        self.react: dict[str, React] = {}
        """What the test does for a stream's player when a message comes (by label)."""

    # -- the server ---------------------------------------------------------------------------
    def start(self) -> None:
        self.proc, port = forked.serve(["--port", "0", "--db", str(self.db), *SERVE])
        self.channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
        self.lobby = lobby_pb2_grpc.LobbyStub(self.channel)
        self.table = table_pb2_grpc.TableStub(self.channel)

    def kill(self, aim: str, stream: Stream, seq: int) -> None:
        """SIGKILL now, if ``aim`` is still wanted, at this table, and the server is up."""
        if aim not in self.wanted or aim not in self.aims.get(stream.table, ()) or self.down.is_set() \
                or self.proc is None:
            return
        os.kill(self.proc.pid, signal.SIGKILL)
        self.wanted.discard(aim)
        self.killed_at.append((aim, stream.label, seq))
        self.down.set()
        self.changed.set()

    async def restart(self) -> None:
        """The server is dead: every stream ends; a new server on the same store; every stream back."""
        assert self.proc is not None and self.channel is not None
        await asyncio.to_thread(self.proc.wait, 10)
        await asyncio.gather(*(s.task for s in self.streams if s.task is not None), *self.tasks)
        await self.channel.close()
        self.start()
        self.restarts += 1
        self.down.clear()
        for s in self.streams:
            if s.following:
                s.task = asyncio.create_task(self.follow(s))

    async def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            await asyncio.to_thread(self.proc.wait, 10)
        for s in self.streams:
            if s.task is not None:
                s.task.cancel()
        await asyncio.gather(*(s.task for s in self.streams if s.task is not None), *self.tasks,
                             return_exceptions=True)
        if self.channel is not None:
            await self.channel.close()

    async def until(self, done: Callable[[], bool], timeout: float = PATIENCE) -> None:
        """Wait for ``done``, restarting the server whenever a kill brought it down."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    if self.failures:
                        raise self.failures[0]
                    if self.down.is_set():
                        await self.restart()
                        continue
                    if done():
                        return
                    self.changed.clear()
                    await self.changed.wait()
        except TimeoutError:
            raise AssertionError(f"still waiting after {timeout} s: killed at {self.killed_at}, still to kill at "
                                 f"{sorted(self.wanted)}, streams at {[(s.label, s.last) for s in self.streams]}"
                                 ) from None

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """A request made for a player: an answer lost to a kill is no failure."""
        async def run() -> None:
            try:
                await work
            except grpc.aio.AioRpcError as e:
                if not self.down.is_set() and e.code() != grpc.StatusCode.FAILED_PRECONDITION:
                    self.fail(e)
            except AssertionError as e:
                self.fail(e)

        task = asyncio.create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- the streams ------------------------------------------------------------------------------
    async def join(self, table_id: str, name: str, label: str) -> Stream:
        chain = Chain.make(length=64)
        r = await self.lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=name, pledge=chain.pledge))
        return self.add(Stream(label, table_id, r.token, r.seat, chain=chain))

    async def watch(self, table_id: str, label: str) -> Stream:
        r = await self.lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name=label))
        return self.add(Stream(label, table_id, r.token, None))

    def add(self, s: Stream) -> Stream:
        self.streams.append(s)
        s.task = asyncio.create_task(self.follow(s))
        return s

    async def follow(self, s: Stream) -> None:
        opened = False
        call = self.table.Subscribe(table_pb2.SubscribeRequest(token=s.token, after_seq=s.last))
        try:
            async for msg in call:
                if not opened:
                    self.came_back(s, msg)
                    opened = True
                else:
                    self.got(s, msg)
                self.changed.set()
        except grpc.aio.AioRpcError as e:
            if not self.down.is_set() and s.following:
                self.fail(e)
        except AssertionError as e:
            self.fail(e)

    def fail(self, e: BaseException) -> None:
        self.failures.append(e)
        self.changed.set()

    def came_back(self, s: Stream, msg: table_pb2.TableMessage) -> None:
        """A stream's first message, a snapshot: never behind what the stream saw before."""
        assert msg.HasField("snapshot"), s.label
        if s.last:
            assert msg.seq >= s.last, (f"{s.label}: after restart {self.restarts} the table is back at event "
                                       f"{msg.seq}, though this stream had got {s.last} ({self.killed_at[-1:]})")
            if msg.seq == s.last and s.view is not None:
                assert view_key(msg.snapshot.view) == s.view, (
                    f"{s.label}: after restart {self.restarts}, event {msg.seq} stands for another state than "
                    f"before ({self.killed_at[-1:]}):\n{msg.snapshot.view}")
        s.last, s.view = msg.seq, view_key(msg.snapshot.view)
        self.answer(s, msg.seq, msg.snapshot.view, [])

    def got(self, s: Stream, msg: table_pb2.TableMessage) -> None:
        if msg.HasField("closing"):
            s.following = msg.closing.resubscribe
            return
        assert msg.HasField("update"), s.label
        events = msg.update.events
        for e in events:
            key = event_key(e)
            assert s.seen.setdefault(e.seq, key) == key, (
                f"{s.label}: event {e.seq} was one event, and after restart {self.restarts} another: "
                f"{table_pb2.Event.FromString(s.seen[e.seq])} then {e}")
            if not e.replay:
                assert e.seq > s.last, f"{s.label}: event {e.seq} came live after {s.last}"
            self.fair(s, e)
        s.last = msg.seq
        if msg.update.HasField("view"):
            s.view = view_key(msg.update.view)
        if events:
            self.aim(s, msg)
        self.answer(s, msg.seq, msg.update.view, events)

    def answer(self, s: Stream, seq: int, view: table_pb2.View, events: Sequence[table_pb2.Event]) -> None:
        react = self.react.get(s.label)
        if react is not None and not self.down.is_set():
            react(s, seq, view, events)

    def fair(self, s: Stream, e: table_pb2.Event) -> None:
        """One commitment a hand; each reveal opens it and holds every seed the server took."""
        if kind(e) == "deal_committed":
            c = e.deal_committed
            known = self.commitments.setdefault((s.table, c.hand), c.commitment)
            assert known == c.commitment, f"{s.label}: hand {c.hand} was committed twice: {known}, then {c.commitment}"
        elif kind(e) == "deal_revealed":
            r = e.deal_revealed
            assert hashlib.sha256(r.server_seed).hexdigest() == self.commitments[(s.table, r.hand)], (
                f"{s.label}: hand {r.hand}'s reveal does not open the commitment published before")
            took = self.taken.get((s.table, r.hand))
            if took is not None:
                assert (took[0], took[1]) in {(p.seat, p.seed) for p in r.seeds}, (
                    f"{s.label}: the server took seat {took[0]}'s seed for hand {r.hand}, but dealt without it")
            self.revealed.add((s.table, r.hand))

    def aim(self, s: Stream, msg: table_pb2.TableMessage) -> None:
        """Kill the server if this message brings a change of a kind still wanted."""
        events = msg.update.events
        first, name = events[0], kind(events[0])
        names = {kind(e) for e in events}
        bots = {seat.seat for seat in msg.update.view.seats if seat.bot}
        if name == "deal_committed" and len(events) == 1 and not first.replay and first.deal_committed.cut_ms:
            self.kill("commitment", s, msg.seq)
        elif name in ("match_started", "hand_started"):  # a deal, its commitment gone out before it
            self.kill("cut closed", s, msg.seq)
        elif "redealt" in names:
            self.kill("redeal", s, msg.seq)
        elif name == "window_closed" and not first.rummy.window_closed.HasField("taken_by"):
            self.kill("lapse", s, msg.seq)
        elif "went_away" in names:
            self.kill("timeout default", s, msg.seq)
        elif first.WhichOneof("body") in GAME_EVENTS and getattr(inner(first), "seat", None) in bots:
            self.kill("bot move", s, msg.seq)

    # -- what the players do ------------------------------------------------------------------------
    def act(self, s: Stream, seq: int, action: common_pb2.Action) -> None:
        async def send() -> None:
            await self.table.Act(table_pb2.ActRequest(token=s.token, action=action, seen_seq=seq))

        self.spawn(send())

    def cut(self, s: Stream, hand: int, follows: bytes) -> None:
        """Send this seat's seed (the link after the one its commitment named); once the server says it took it,
        kill it."""
        async def send() -> None:
            seed = s.chain.after(follows) or bytes(32)
            reply = await self.table.Cut(table_pb2.CutRequest(token=s.token, hand=hand, seed=seed))
            if reply.taken:
                assert s.seat is not None
                self.taken[(s.table, hand)] = (s.seat, seed)
                self.kill("seed taken", s, s.last)

        self.spawn(send())


def passes(run: Run) -> React:
    """A Cacho player who passes in round 1 until a redeal has been killed at; the first player
    cuts every deal while a taken seed is still wanted."""
    def react(s: Stream, seq: int, view: table_pb2.View, events: Sequence[table_pb2.Event]) -> None:
        last = events[-1] if events else None
        if (s.label == "bia" and last is not None and kind(last) == "deal_committed" and not last.replay
                and last.deal_committed.cut_ms and "seed taken" in run.wanted):
            named = {p.seat: p.follows for p in last.deal_committed.pledges}
            if s.seat in named:
                run.cut(s, last.deal_committed.hand, named[s.seat])
        if "redeal" in run.wanted and any(a.type == common_pb2.ACTION_TYPE_PASS for a in view.legal):
            run.act(s, seq, common_pb2.Action(type=common_pb2.ACTION_TYPE_PASS))

    return react


def plays(run: Run) -> React:
    """A Cacheta player who lets every claim window lapse and otherwise plays at once, except when
    a turn timer's default is all that is left to kill at: then she waits for it."""
    def react(s: Stream, seq: int, view: table_pb2.View, events: Sequence[table_pb2.Event]) -> None:
        legal = view.legal
        if not legal or any(a.type == common_pb2.ACTION_TYPE_PASS for a in legal):
            return
        if "timeout default" in run.wanted and not {"lapse", "bot move", "commitment"} & run.wanted:
            return
        action = common_pb2.Action()
        action.CopyFrom(legal[0])
        action.max_chips = 0
        run.act(s, seq, action)

    return react


async def test_a_kill_9_at_any_kind_of_event_unsays_nothing(tmp_path: Path) -> None:
    run = Run(tmp_path / "store.db")
    run.start()
    try:
        # Cacho for two: a seed taken for a deal still being cut, the cut closing, a redeal.
        created = await run.lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, turn_seconds=3600))
        cacho = created.table.id
        run.aims[cacho] = {"seed taken", "cut closed", "redeal"}
        run.react["bia"] = run.react["caio"] = passes(run)
        await run.watch(cacho, "sam")
        bia = await run.join(cacho, "bia", "bia")
        await run.until(lambda: bia.last > 0)
        await run.join(cacho, "caio", "caio")
        await run.until(lambda: not {"seed taken", "redeal"} & run.wanted)
        for s in run.streams:
            if s.label in ("bia", "caio"):  # bots finish the hand: its reveal must hold bia's seed
                s.following = False
                await run.lobby.Leave(lobby_pb2.LeaveRequest(token=s.token))

        # Cacheta, a person and a bot: a commitment, a bot's move, a lapse, a turn timer's default.
        created = await run.lobby.CreateTable(lobby_pb2.CreateTableRequest(
            game="cacheta", seats=2, bots=1, turn_seconds=5, away_after=1,
            options={"claim_ms": common_pb2.OptionValue(number=500)}))
        cacheta = created.table.id
        run.aims[cacheta] = {"commitment", "cut closed", "bot move", "lapse", "timeout default"}
        run.react["ana"] = plays(run)
        await run.watch(cacheta, "tom")
        await run.join(cacheta, "ana", "ana")
        await run.until(lambda: not run.wanted)
        await run.until(lambda: set(run.taken) <= run.revealed)
        assert run.taken, "a seed was taken while its deal was being cut"
        # One more change on every table after the last restart, held against what came before.
        marks = {s.label: s.last for s in run.streams if s.following}
        await run.until(lambda: all(s.last > marks[s.label] for s in run.streams if s.label in marks))
    finally:
        await run.stop()
    assert sorted(k for k, _, _ in run.killed_at) == sorted(KINDS), run.killed_at
    assert run.restarts == len(KINDS)


async def test_a_deal_being_cut_is_cut_on_after_a_crash_and_dealt_as_committed(tmp_path: Path) -> None:
    """The journal's side of a cut, from the store itself: a restart brings back the commitment and
    the seeds taken for it; a seat that empties before its match begins does not drop the deal (a
    commitment is final): a bot plays the seat, and the deal is dealt without its link, said as away."""
    from cardtui.server.lobby.room import Room, TableRequest
    from cardtui.server.store import Store

    path = tmp_path / "store.db"

    def crash(room: Room, store: Store, cut_window: float = 60) -> tuple[Store, Room]:
        """What kill -9 leaves: the store as written, no timer run, no goodbye to anyone."""
        for table in room.tables.values():
            table.pacer.stop()
        store.close()
        again = Store(path)
        room = Room(again, cut_window=cut_window)
        assert room.restore() == 1
        return again, room

    store = Store(path)
    room = Room(store, cut_window=60)
    table, _ = room.create(TableRequest("cacho", "t", 2, 0, {}))
    tokens = []
    chains = [Chain.make(length=8), Chain.make(length=8)]
    for name, chain in zip(("bia", "caio"), chains, strict=True):
        joined: Any = room.join(table.id, name, -1, "", pledge=chain.pledge)  # a coroutine: a password is checked
        token, grant = await joined if inspect.isawaitable(joined) else joined
        tokens.append(token)
        table.subscribe(grant.key, grant.seat, 0)
    cut = table.cut
    assert cut is not None and cut.waiting == {0, 1}, "both people are awaited"
    seed = chains[0].after(cut.follows[0])
    assert seed is not None and table.take_cut(0, cut.hand, seed)
    seq = table.seq

    store, room = crash(room, store, cut_window=0.05)
    table = room.tables[table.id]
    again = table.cut
    assert again is not None, "the deal is still being cut"
    assert (again.hand, again.server_seed, again.seeds, again.waiting, again.awaited) == (
        cut.hand, cut.server_seed, {0: seed}, {1}, (0, 1)), "the same commitment, the seed taken, the one awaited"
    assert table.seq == seq and table.match is None

    room.leave(tokens[1])  # a seat empties before the match begins: its stream ends, and the deal goes on
    await eventually(lambda: table.cut is None, "the deal dealt")
    assert table.match is not None and table.seating[1].botted, "a bot plays the seat its person left"
    assert table.deal_seed is not None and table.deal_seed.server_seed == cut.server_seed, "the committed deal"
    assert dict(table.deal_seed.player_seeds) == {0: seed} and table.dealing.gone == (1,), "dealt without, as away"
    store, room = crash(room, store)
    table = room.tables[table.id]
    assert table.cut is None and table.match is not None and not table.starting, "the hand dealt is the one in play"
    assert table.deal_seed is not None and table.deal_seed.server_seed == cut.server_seed
    room.shutdown("done")
    store.close()
