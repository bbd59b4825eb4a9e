"""A stateful property test: people come and go at a real server that is killed and restarted.

A real ``cardtui serve`` on 127.0.0.1 runs a Cacho table. Hypothesis drives people who join,
leave, retake seats, watch, chat, act, drop their stream and resubscribe with ``after_seq``;
now and then the server is killed with -9 and restarted on its store. After every step:

- nobody has received a card outside its audience at that moment: the table's journal,
  replayed through the engine, says which events each seat could see and when;
- no client saw one number twice with different content, and none has a gap;
- every client that is listening converges to the view the server gives its token now.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cardtui.client.connection import replay_follows
from cardtui.engine.core import Event
from cardtui.engine.fairness import record_seed
from cardtui.engine.games import GAMES
from cardtui.engine.history import action_of
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc
from tests import forked
from tests.forked import Served
from tests.server.test_audit import event_cards, message_cards
from tests.waiting import eventually_async

SEATS = 3


def serve(db: Path) -> tuple[Served, int]:
    return forked.serve(
        ["--port", "0", "--db", str(db), "--bot-delay", "30", "--next-hand-delay", "50", "--log-level", "warning",
         "--no-announce", "--max-actions", "1e6", "--max-chat", "1e6", "--max-tables", "1e6",
         "--workers", "1",  # the one process the harness kills
         "--bot-workers", "0",
         # Nobody here asks for an analysis: without its pool, each of the many starts spawns no fork server
         # and resource tracker (about 0.1 s of a core a start, some 2 s of the run: bench/marks.md).
         "--analysis-workers", "0"])


@dataclass
class Client:
    """One person's token and everything its streams delivered."""

    name: str
    token: str
    seat: int | None
    seen: dict[int, bytes] = field(default_factory=dict)
    """Every event number this token received, with its content."""
    resynced: set[int] = field(default_factory=set)
    """Numbers a fresh snapshot stood in for (they were older than the server's buffer)."""
    cards: list[tuple[int, set[str]]] = field(default_factory=list)
    """The cards each message named, by the number it covers."""
    last: int = 0
    view: table_pb2.View | None = None
    task: asyncio.Task[None] | None = None
    ended: bool = False
    """The server ended this token's streams (it left)."""
    first: int = 0
    """The first number this token could have received (when it sat or began to watch)."""


def journal_events(db: Path, table: str) -> dict[int, Event]:
    """The table's engine events by number, rebuilt from its journal (the store it keeps for restarts)."""
    con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT kind, seat, data, seq FROM log WHERE table_id = ? ORDER BY n", (table,)).fetchall()
    finally:
        con.close()
    rules = GAMES["cacho"]
    out: dict[int, Event] = {}
    match = None
    for kind, seat, data, seq in rows:
        step = json.loads(data)
        if kind in ("commit", "seed", "void", "seat", "played"):
            continue  # a deal being cut (its commitment is the table's event), a seat changing hands or played
        if kind == "start":
            match, events = rules.open({}, rules.seat_infos(step["names"]), record_seed(step))
            events = [Event(type("MatchStarted", (), {})()), *events]  # the table adds its match event first
        elif kind == "next":
            assert match is not None
            events = match.next_hand(record_seed(step))
        else:
            assert match is not None
            events = match.apply(int(seat), action_of(step))
        if match.hand_over():  # the table ends a hand's batch with the fair deal's reveal
            events = [*events, Event(type("DealRevealed", (), {})())]
        for i, ev in enumerate(events):
            out[seq - len(events) + 1 + i] = ev
    return out


class Churn(RuleBasedStateMachine):
    shared: asyncio.AbstractEventLoop | None = None
    """The event loop every example runs on, made and closed once by the test: an example leaves nothing on it (its
    streams are cancelled and waited for, its channel closed, its server killed), and a loop closed after each one
    would first have to wait for grpc's poller to hand back what it holds."""

    def __init__(self) -> None:
        super().__init__()
        assert Churn.shared is not None, "the test makes the loop"
        self.loop = Churn.shared
        self.dir = Path(os.environ.get("CHURN_TMP", "/tmp")) / f"churn-{os.getpid()}-{id(self)}"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.db = self.dir / "store.db"
        self.proc: Served | None = None
        self.port = 0
        self.channel: grpc.aio.Channel | None = None
        self.table = ""
        self.clients: list[Client] = []
        self.names = 0
        self.restarts = 0

    def run(self, coro):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(coro)

    # -- the server ----------------------------------------------------------------------
    async def connect(self) -> None:
        """A channel made inside the loop it is used on (grpc.aio binds it to the running loop)."""
        self.channel = grpc.aio.insecure_channel(f"127.0.0.1:{self.port}")

    @property
    def lobby(self) -> lobby_pb2_grpc.LobbyAsyncStub:
        assert self.channel is not None
        return lobby_pb2_grpc.LobbyStub(self.channel)

    @property
    def stub(self) -> table_pb2_grpc.TableAsyncStub:
        assert self.channel is not None
        return table_pb2_grpc.TableStub(self.channel)

    @initialize()
    def open_table(self) -> None:
        self.proc, self.port = serve(self.db)
        self.loop.run_until_complete(self._open())

    async def _open(self) -> None:
        await self.connect()
        request = lobby_pb2.CreateTableRequest(game="cacho", seats=SEATS, bots=1, turn_seconds=3600, away_after=100)
        self.table = (await self.lobby.CreateTable(request)).table.id

    def teardown(self) -> None:
        for c in self.clients:
            if c.task is not None:
                c.task.cancel()
        with contextlib.suppress(Exception):
            self.run(asyncio.gather(*(c.task for c in self.clients if c.task is not None), return_exceptions=True))
        if self.channel is not None:
            with contextlib.suppress(Exception):
                self.run(self.channel.close())
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)

    # -- streams -----------------------------------------------------------------------------
    def follow(self, c: Client) -> None:
        async def read() -> None:
            after = c.last
            stream = self.stub.Subscribe(table_pb2.SubscribeRequest(token=c.token, after_seq=after))
            try:
                async for msg in stream:
                    c.cards.append((msg.seq, message_cards(msg)))
                    body = msg.WhichOneof("body")
                    if body == "closing":
                        c.ended = c.ended or not msg.closing.resubscribe
                        return
                    if body == "snapshot":
                        c.view = msg.snapshot.view
                        if after and msg.snapshot.first_seq > after + 1:
                            c.resynced.update(range(after + 1, msg.seq + 1))
                    else:
                        for e in msg.update.events:
                            raw = e.SerializeToString()
                            plain = table_pb2.Event()
                            plain.CopyFrom(e)
                            plain.replay = False
                            raw = plain.SerializeToString()
                            assert c.seen.get(e.seq, raw) == raw, f"{c.name}: event {e.seq} came twice, different"
                            c.seen[e.seq] = raw
                        if msg.update.HasField("view"):
                            c.view = msg.update.view
                    if not replay_follows(msg, c.last):  # else its replay says where the stream is
                        c.last = max(c.last, msg.seq)
            except grpc.aio.AioRpcError:
                return

        c.task = self.loop.create_task(read())

    def listening(self) -> list[Client]:
        return [c for c in self.clients if c.task is not None and not c.task.done() and not c.ended]

    # -- rules -------------------------------------------------------------------------------
    @precondition(lambda self: sum(c.seat is not None and not c.ended for c in self.clients) < SEATS - 1)
    @rule()
    def join(self) -> None:
        self.names += 1
        name = f"p{self.names}"

        async def go() -> Client:
            r = await self.lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=self.table, name=name))
            return Client(name, r.token, r.seat, first=r.first_seq)

        c = self.run(go())
        self.clients.append(c)
        self.follow(c)

    @rule()
    def watch(self) -> None:
        self.names += 1

        async def go() -> Client:
            r = await self.lobby.Spectate(lobby_pb2.SpectateRequest(table_id=self.table, name=f"w{self.names}"))
            return Client(f"w{self.names}", r.token, None, first=r.first_seq)

        c = self.run(go())
        self.clients.append(c)
        self.follow(c)

    @precondition(lambda self: any(not c.ended for c in self.clients))
    @rule(pick=st.integers(0, 99))
    def leave(self, pick: int) -> None:
        here = [c for c in self.clients if not c.ended]
        self._leave(here[pick % len(here)])

    def _leave(self, c: Client) -> None:
        self.run(self.lobby.Leave(lobby_pb2.LeaveRequest(token=c.token)))
        if c.task is not None:
            self.run(asyncio.wait_for(asyncio.shield(c.task), 5))
        c.ended = True

    @precondition(lambda self: bool(self.listening()))
    @rule(pick=st.integers(0, 99))
    def drop_and_resume(self, pick: int) -> None:
        live = self.listening()
        c = live[pick % len(live)]
        assert c.task is not None
        c.task.cancel()
        self.run(asyncio.gather(c.task, return_exceptions=True))
        self.follow(c)

    @precondition(lambda self: any(c.seat is not None and not c.ended for c in self.clients))
    @rule(pick=st.integers(0, 99), back=st.integers(1, 300))
    def hand_the_seat_over(self, pick: int, back: int) -> None:
        """Someone leaves and a newcomer takes the seat at once, then asks to replay from before."""
        seated = [c for c in self.clients if c.seat is not None and not c.ended]
        self._leave(seated[pick % len(seated)])
        self.join()
        newcomer = self.clients[-1]
        assert newcomer.task is not None
        newcomer.task.cancel()
        self.run(asyncio.gather(newcomer.task, return_exceptions=True))
        newcomer.last = max(1, newcomer.first - back)
        newcomer.seen = {}
        self.follow(newcomer)

    @precondition(lambda self: bool(self.listening()))
    @rule(pick=st.integers(0, 99), back=st.integers(1, 300))
    def resubscribe_from_long_ago(self, pick: int, back: int) -> None:
        """A client asks to replay from a number before it came (a new occupant prying)."""
        live = self.listening()
        c = live[pick % len(live)]
        assert c.task is not None
        c.task.cancel()
        self.run(asyncio.gather(c.task, return_exceptions=True))
        c.last = max(1, c.first - back)
        c.seen = {q: raw for q, raw in c.seen.items() if q <= c.last}
        self.follow(c)

    @precondition(lambda self: any(not c.ended for c in self.clients))
    @rule(pick=st.integers(0, 99), text=st.sampled_from(["hi", "boa", "[b]x", "gl"]))
    def chat(self, pick: int, text: str) -> None:
        here = [c for c in self.clients if not c.ended]
        c = here[pick % len(here)]
        self.run(self.stub.Chat(table_pb2.ChatRequest(token=c.token, text=text)))

    @precondition(lambda self: any(c.seat is not None and not c.ended and c.view is not None for c in self.clients))
    @rule(pick=st.integers(0, 99), choice=st.integers(0, 99))
    def act(self, pick: int, choice: int) -> None:
        seated = [c for c in self.clients if c.seat is not None and not c.ended and c.view is not None]
        c = seated[pick % len(seated)]
        assert c.view is not None
        legal = list(c.view.legal)
        if not legal:
            return
        action = common_pb2.Action()
        action.CopyFrom(legal[choice % len(legal)])
        action.max_chips = 0

        async def go() -> None:
            with contextlib.suppress(grpc.aio.AioRpcError):  # the table moved on (seen_seq): refused, fine
                await self.stub.Act(table_pb2.ActRequest(token=c.token, action=action, seen_seq=c.last))

        self.run(go())

    @precondition(lambda self: self.restarts < 2)
    @rule()
    def kill_and_restart(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        # On a port of its own: the old one may have gone to another test's server meanwhile.
        self.proc, self.port = serve(self.db)
        self.restarts += 1
        for c in self.clients:  # every stream broke with the server; resubscribe on the new one
            if c.task is not None:
                self.run(asyncio.gather(c.task, return_exceptions=True))
                c.task = None
        old = self.channel
        self.run(self.connect())
        if old is not None:
            self.run(old.close())
        for c in self.clients:
            if not c.ended:
                self.follow(c)

    # -- what must hold after every step ---------------------------------------------------------
    def settle(self) -> None:
        """Wait until every listening client has what the server has handed out."""
        async def converged() -> bool:
            live = self.listening()
            tops = []
            for c in live:
                stream = self.stub.Subscribe(table_pb2.SubscribeRequest(token=c.token))
                try:
                    first = await stream.read()
                except grpc.aio.AioRpcError:
                    first = None
                finally:
                    stream.cancel()
                tops.append(first)
            return all(t is not None and c.last >= t.seq and c.view is not None and same(c.view, t.snapshot.view)
                       for c, t in zip(live, tops, strict=True))

        self.run(eventually_async(converged, "the clients converging to the server's views"))

    @invariant()
    def nothing_leaks_nothing_repeats_everyone_converges(self) -> None:
        if not self.table:
            return
        self.settle()
        journal = journal_events(self.db, self.table)
        if not journal:
            return
        oldest = min(journal)  # a new match trims the journal: check what it still covers
        for c in self.clients:
            got = sorted(set(c.seen) | {q for q in c.resynced if q <= c.last})
            if got:
                assert got == list(range(got[0], got[-1] + 1)), f"{c.name}: a gap in {got}"
            # What a person may know: from the start of the hand they came into (the seat's cards,
            # the public play so far), then what each event told their seat, as it came.
            came = max((q for q, ev in journal.items() if ev.kind == "HandStarted" and q <= c.first), default=oldest)
            told = sorted((q, event_cards(ev)) for q, ev in journal.items() if q >= came and ev.audience.sees(c.seat))
            for seq, raw in c.seen.items():
                ev = journal.get(seq)
                if ev is None or ev.audience.public:
                    continue
                whole = table_pb2.Event.FromString(raw).WhichOneof("body") != "hidden"
                mine = seq >= c.first and ev.audience.sees(c.seat)  # nothing private from before they came
                assert not whole or mine, f"{c.name} (seat {c.seat}) received private event {seq} ({ev.kind})"
            for seq, cards in c.cards:
                if seq < oldest or seq < c.first:
                    continue
                allowed = set().union(*(named for q, named in told if q <= seq))
                leaked = cards - allowed
                assert not leaked, f"{c.name} (seat {c.seat}) received {sorted(leaked)} in message {seq}"


def same(a: table_pb2.View, b: table_pb2.View) -> bool:
    x, y = table_pb2.View(), table_pb2.View()
    x.CopyFrom(a)
    y.CopyFrom(b)
    x.deadline_ms = y.deadline_ms = 0
    return x.SerializeToString() == y.SerializeToString()


Churn.TestCase.settings = settings(
    max_examples=int(os.environ.get("CHURN_EXAMPLES", "25")), stateful_step_count=18, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


# A guard against a hang, not a budget: the run is bounded by its count of examples and steps, and on
# a loaded machine it may take several minutes.
@pytest.mark.timeout(900)
def test_people_come_and_go_and_the_server_restarts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHURN_TMP", str(tmp_path))
    Churn.shared = loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)  # grpc.aio finds the loop it runs on this way
    try:
        Churn.TestCase("runTest").runTest()
    finally:
        loop.run_until_complete(asyncio.sleep(0.1))  # let grpc's poller hand back what it holds before the loop closes
        loop.close()
        asyncio.set_event_loop(None)
        Churn.shared = None
