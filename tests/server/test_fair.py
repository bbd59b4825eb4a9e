"""Fair deals at a real table (issue 14): commitment first, the players' cuts, the reveal, the chain.

Real servers on 127.0.0.1 with real SQLite stores; clients over real gRPC. The deck a table
deals is re-derived here from what the stream revealed, through the engine and through
``cardtui verify`` on ``cardtui history export``.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import grpc
import pytest
import pytest_asyncio

from cardtui.engine.fairness import GENESIS, DealSeed, hand_hash
from cardtui.engine.games import GAMES
from cardtui.fair import before
from cardtui.server.app import Running, start
from cardtui.server.base.clock import ManualClock
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2
from tests.conftest import Player, create, kind
from tests.server.test_restart import exported, serve, stored
from tests.waiting import eventually, eventually_async, timers_until


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardtui.cli", *args], capture_output=True, text=True, timeout=120)


def events_of(p: Player, name: str) -> list[table_pb2.Event]:
    return [e for e in p.events if kind(e) == name]


class Cutter:
    """A seated client's side of the cut: a fresh seed for every commitment it sees, sent at once."""

    def __init__(self, p: Player) -> None:
        self.p = p
        self.sent: dict[int, bytes] = {}
        self.taken: dict[int, bool] = {}
        self.committed_at: dict[int, float] = {}
        self.dealt_at: dict[int, float] = {}
        """When the stream brought each hand's commitment, and then its deal."""
        self._task = asyncio.create_task(self._run())

    def _note_deals(self) -> None:
        commits = events_of(self.p, "deal_committed")
        for e in events_of(self.p, "hand_started"):
            hand = max((c.deal_committed.hand for c in commits if c.seq < e.seq), default=0)
            if hand:
                self.dealt_at.setdefault(hand, time.monotonic())

    async def _run(self) -> None:
        done = 0
        while True:
            self._note_deals()
            commits = events_of(self.p, "deal_committed")
            for e in commits[done:]:
                hand = e.deal_committed.hand
                self.committed_at[hand] = time.monotonic()
                seed = self.p.link(hand)
                self.sent[hand] = seed
                reply = await self.p.table.Cut(table_pb2.CutRequest(token=self.p.token, hand=hand, seed=seed))
                self.taken[hand] = reply.taken
            done = len(commits)
            self.p.changed.clear()
            await self.p.changed.wait()

    async def stop(self) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


@pytest_asyncio.fixture
async def fair_server(tmp_path: Path) -> AsyncIterator[Running]:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=5.0)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


async def play_until(players: list[Player], done: Callable[[], bool], timeout: float = 30) -> None:
    """Each player takes its second legal action (a bet, a call: not passing every hand away)
    whenever it may, until ``done``."""
    async def loop() -> None:
        while not done():
            moved = False
            for p in players:
                view = p.last_view
                if view is not None and view.legal:
                    action = common_pb2.Action()
                    action.CopyFrom(view.legal[min(1, len(view.legal) - 1)])
                    action.max_chips = 0
                    try:
                        seq = await p.act(action)
                    except grpc.aio.AioRpcError:
                        continue  # the view moved on meanwhile: look again
                    await p.wait_for(lambda q, seq=seq: q.messages[-1].seq >= seq)
                    moved = True
            if not moved:
                await asyncio.wait([asyncio.ensure_future(p.changed.wait()) for p in players], timeout=0.5)
                for p in players:
                    p.changed.clear()

    await asyncio.wait_for(loop(), timeout)


async def test_a_table_deals_from_the_committed_seed_and_the_players_cuts(fair_server: Running, tmp_path: Path
                                                                           ) -> None:
    table_id = await create(fair_server, game="cacho", seats=3, bots=1, turn_seconds=3600)
    address = f"127.0.0.1:{fair_server.port}"
    ana = await Player(address, cuts=False).join(table_id, "ana")
    ana.subscribe()
    await ana.wait_for(lambda q: q.last_view is not None)
    cutters = [Cutter(ana)]
    bia = await Player(address, cuts=False).join(table_id, "bia")  # the table is full: the first hand waits for her
    bia.subscribe()
    cutters.append(Cutter(bia))
    players = [ana, bia]
    # Until both streams carry hand 2's reveal (each stream goes at its own pace).
    await play_until(players, lambda: all(any(e.deal_revealed.hand == 2 for e in events_of(p, "deal_revealed"))
                                          for p in players))
    for c in cutters:
        await c.stop()
    # Hand 2 waited for both seeds, and was dealt as soon as they were in, long before the
    # 5 s window would have closed (a loaded machine may take a moment).
    assert cutters[0].dealt_at[2] - cutters[0].committed_at[2] < 4.0

    export = tmp_path / "hands.jsonl"
    done = run("history", "export", "--db", str(tmp_path / "store.db"), "--out", str(export))
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in export.read_text().splitlines()]
    assert len(records) >= 2
    for p in players:
        # bia's sitting down filled the table; hand 1 was committed once her stream was open.
        hands = [h for h in (1, 2) if h in {e.deal_committed.hand for e in events_of(p, "deal_committed")}]
        assert hands == [1, 2]
        for hand in hands:
            commit = next(e for e in events_of(p, "deal_committed") if e.deal_committed.hand == hand)
            reveal = next(e for e in events_of(p, "deal_revealed") if e.deal_revealed.hand == hand)
            # The commitment is the hand's first event: before any card of the hand.
            cards = [e for e in events_of(p, "cards_dealt") if commit.seq < e.seq < reveal.seq]
            started_at = next(e.seq for e in events_of(p, "hand_started") if e.seq > commit.seq)
            assert cards and commit.seq < started_at < cards[0].seq
            assert not [e for e in p.events if commit.seq < e.seq < started_at and kind(e) != "match_started"]
            # The reveal opens the commitment, and holds every seed the players sent, unchanged.
            r = reveal.deal_revealed
            assert r.scheme == "cardtui-deal/2" and r.table == table_id and len(r.server_seed) == 32
            # Each seed is the link its seat's pledge named in the commitment, before any was sent (§3a).
            named = {pl.seat: pl.follows for pl in commit.deal_committed.pledges}
            assert {pl.seat: pl.follows for pl in r.pledges} == named and set(named) == {0, 1}
            assert all(before(sd.seed) == named[sd.seat] for sd in r.seeds)
            assert hashlib.sha256(r.server_seed).hexdigest() == commit.deal_committed.commitment
            taken = {q.seat: c.sent[hand] for q, c in zip(players, cutters, strict=True) if c.taken.get(hand)}
            assert {s.seat: s.seed for s in r.seeds} == taken
            # Each hand waited for both seeds.
            assert len(taken) == 2
            # The engine dealt this player exactly what the revealed seeds make.
            record = records[hand - 1]
            seed = DealSeed(r.server_seed, tuple((s.seat, s.seed) for s in r.seeds), r.table, int(r.hand), r.scheme,
                            tuple(named.items()))
            assert record["fair"] == seed.as_record()
            assert [c for e in cards for c in e.cards_dealt.cards] == record["deal"][str(p.seat)]
            replayed = GAMES["cacho"].replay_match(record).history()
            assert replayed is not None and replayed["deal"] == record["deal"]
    assert records[0]["prev"] == GENESIS and records[1]["prev"] == hand_hash(records[0])
    # And cardtui verify, on the export of the store, passes every hand.
    checked = run("verify", str(export))
    assert checked.returncode == 0, checked.stdout
    assert f"{len(records)} verified ({len(records)} ✔, every seated player's seed in), 0 failed" in checked.stdout
    await ana.close()
    await bia.close()


@pytest.mark.parametrize("late", [True, False], ids=["late", "never"])
async def test_a_seed_late_or_never_sent_does_not_stall_the_table(tmp_path: Path, late: bool) -> None:
    window = 0.4
    clock = ManualClock()  # the windows run out when the test moves the clock past them, not before
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=window, bot_workers=0, clock=clock)
    try:
        table_id = await create(running, game="truco_paulista", seats=4, bots=2, turn_seconds=3600)
        address = f"127.0.0.1:{running.port}"
        ana = await Player(address, cuts=False).join(table_id, "ana")
        ana.subscribe()
        await ana.wait_for(lambda q: q.last_view is not None)
        sat = clock.now()
        bia = await Player(address, cuts=False).join(table_id, "bia")  # full; bia never opens a stream
        seen: dict[str, float] = {}

        def arrived(q: Player) -> bool:
            for e in q.events:
                seen.setdefault(kind(e), clock.now())
            return "hand_started" in seen

        await clock.advance(window * 0.9)
        assert running.room.tables[table_id].match is None, "the new match waits for bia's stream"
        await clock.advance(window * 0.1)  # bia's stream never came: the match is dealt, its deal committed
        await ana.wait_for(lambda q: "deal_committed" in [kind(e) for e in q.events] and not arrived(q))
        await clock.advance(window * 0.9)
        assert running.room.tables[table_id].cut is not None, "the deal waits for ana's seed"
        await clock.advance(window * 0.1)  # ana's seed never came: the hand is dealt without it
        await ana.wait_for(arrived)
        commit = events_of(ana, "deal_committed")[0].deal_committed
        assert commit.hand == 1 and commit.cut_ms == int(window * 1000)
        # The new match waited for bia's stream, but no longer than the window; then it
        # waited for ana's seed (her stream is open), no longer than the window either.
        assert seen["deal_committed"] - sat >= window * 0.9
        waited = seen["hand_started"] - seen["deal_committed"]
        assert 0.2 <= waited < window + 0.5, waited
        if late:
            reply = await ana.table.Cut(table_pb2.CutRequest(token=ana.token, hand=1, seed=b"\x01" * 32))
            assert not reply.taken
        # A seed for a hand not being cut, or malformed, is no help and no harm either.
        reply = await bia.table.Cut(table_pb2.CutRequest(token=bia.token, hand=7, seed=b"\x02" * 32))
        assert not reply.taken
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await bia.table.Cut(table_pb2.CutRequest(token=bia.token, hand=1, seed=b""))
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        watcher = await Player(address).spectate(table_id)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await watcher.table.Cut(table_pb2.CutRequest(token=watcher.token, hand=1, seed=b"\x03" * 32))
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        # Both people leave: the bots finish the hand, and its reveal shows no player's seed.
        await ana.lobby.Leave(lobby_pb2.LeaveRequest(token=ana.token))
        await bia.lobby.Leave(lobby_pb2.LeaveRequest(token=bia.token))
        await timers_until(clock, lambda: running.store.hands.count_hands(table_id), "the hand the bots finished")
        record = json.loads(next(running.store.hands.all(table_id)))
        assert record["fair"]["player_seeds"] == {} and record["fair"]["commitment"] == commit.commitment
        for p in (ana, bia, watcher):
            await p.close()
    finally:
        await running.stop(grace=0.2)


async def test_a_table_of_bots_deals_at_once(tmp_path: Path) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.01,
                          cut_window=5.0)
    try:
        table_id = await create(running, game="cacho", seats=3, bots=3)
        await eventually(lambda: running.store.hands.count_hands(table_id) >= 3, "three hands of bots")
        hands = [json.loads(line) for line in running.store.hands.all(table_id)]
        assert len(hands) >= 3, "nobody to wait for: no window"
        assert all(h["fair"]["player_seeds"] == {} for h in hands)
        assert [h["hand"] for h in hands] == list(range(1, len(hands) + 1))
        assert all(b["prev"] == hand_hash(a) for a, b in itertools.pairwise(hands))
    finally:
        await running.stop(grace=0.2)


async def test_kill_9_mid_hand_restores_the_same_fair_deal_and_the_chain(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    proc, port = serve(db)
    address = f"127.0.0.1:{port}"
    try:
        async with grpc.aio.insecure_channel(address) as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            request = lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=0, turn_seconds=3600)
            table_id = (await lobby.CreateTable(request)).table.id
        ana = await Player(address, cuts=False).join(table_id, "ana")
        ana.subscribe()
        await ana.wait_for(lambda q: q.last_view is not None)
        bia = await Player(address, cuts=False).join(table_id, "bia")
        bia.subscribe()
        cutters = [Cutter(ana), Cutter(bia)]
        players = [ana, bia]
        # Hand 1 to its end, then hand 2 dealt from both players' seeds and played a little.
        await play_until(players, lambda: bool(events_of(ana, "deal_revealed")))
        await ana.wait_for(lambda q: any(e.seq > events_of(q, "deal_revealed")[0].seq
                                         for e in events_of(q, "cards_dealt")), timeout=20)
        commit = next(e.deal_committed for e in events_of(ana, "deal_committed") if e.deal_committed.hand == 2)
        # the replies to the cuts may come after the deal they made
        await eventually(lambda: all(2 in c.taken for c in cutters), "the replies to hand 2's cuts")
        assert cutters[0].taken.get(2) and cutters[1].taken.get(2), "both streams were open: both seeds went in"
        before = {p.seat: [c for e in events_of(p, "cards_dealt") if e.seq > events_of(p, "deal_revealed")[0].seq
                           for c in e.cards_dealt.cards] for p in players}
        for c in cutters:
            await c.stop()
        first = exported(db)
        assert [r["hand"] for r in first] == [1]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        for p in players:
            await p.close()
        proc, port = serve(db)  # a port of its own: the old one may have gone to another test's server
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            for p in players:  # everyone leaves: bots finish hand 2 on the restored deal
                await lobby.Leave(lobby_pb2.LeaveRequest(token=p.token))
        await eventually(lambda: stored(db) >= 2, "hand 2, finished by the bots after the restart")
        records = exported(db)
        hand2 = records[1]
        assert hand2["hand"] == 2 and hand2["fair"]["commitment"] == commit.commitment
        assert hand2["fair"]["player_seeds"] == {str(p.seat): cutter.sent[2].hex()
                                                 for p, cutter in zip(players, cutters, strict=True)
                                                 if cutter.taken.get(2)}
        for seat, cards in before.items():
            assert hand2["deal"][str(seat)][: len(cards)] == cards, "the same cards after the restart"
        assert hand2["prev"] == hand_hash(records[0]), "the chain holds across the restart"
        export = tmp_path / "all.jsonl"
        export.write_text("".join(json.dumps(r) + "\n" for r in records))
        checked = run("verify", str(export))
        assert checked.returncode == 0, checked.stdout
    finally:
        proc.kill()
        proc.wait(5)


def test_the_fair_events_cross_the_wire_and_back_unchanged() -> None:
    from cardtui.engine.core import Event
    from cardtui.server.actor.events import DealCommitted, DealRevealed, PlayerSeed
    from cardtui.server.base import wire

    commit = DealCommitted(3, "ab" * 32, 1000)
    reveal = DealRevealed(3, "cardtui-deal/1", "t1", bytes(range(32)), (PlayerSeed(0, b"x"), PlayerSeed(2, b"y" * 32)))
    for record, field in ((commit, "deal_committed"), (reveal, "deal_revealed")):
        msg = wire.event_message(7, Event(record), 1)
        assert msg.WhichOneof("body") == field
        assert wire.record(getattr(msg, field), type(record)) == record


async def test_a_person_away_with_the_table_open_is_waited_for_and_cuts(server: Running) -> None:
    """A bot plays for ana once she is away (missed turns), but her client still has the table open:
    each later hand waits for her seed, takes it and names her in ``awaited``. Her client, seated
    from the commitment, counts itself waited for: the server's list agrees, and her deal is ✔."""
    from cardtui.client.fairness import FairDeals

    table_id = await create(server, game="cacho", seats=2, bots=1, short_turns=0.2)
    ana = await Player(f"127.0.0.1:{server.port}", cuts=False).join(table_id, "ana")
    fair = FairDeals()
    fair.chain = ana.chain
    stream = ana.table.Subscribe(table_pb2.SubscribeRequest(token=ana.token))
    went_away = False
    reveals: list[table_pb2.DealRevealed] = []

    async def follow() -> None:
        nonlocal went_away
        async for msg in stream:
            for hand, seed in fair.feed(msg):
                fair.taken(hand, (await ana.table.Cut(table_pb2.CutRequest(token=ana.token, hand=hand,
                                                                           seed=seed))).taken)
            for e in msg.update.events:
                if kind(e) == "went_away":
                    went_away = True
                elif kind(e) == "deal_committed" and went_away:
                    reveals.append(table_pb2.DealRevealed(hand=e.deal_committed.hand))  # a hand dealt while away
                elif kind(e) == "deal_revealed" and reveals and reveals[-1].hand == e.deal_revealed.hand:
                    reveals[-1] = e.deal_revealed
                    return  # she never acts: her turns time out until she is away

    await asyncio.wait_for(follow(), 30)
    stream.cancel()
    [away] = reveals
    assert list(away.awaited) == [ana.seat] and [s.seat for s in away.seeds] == [ana.seat]
    verdict = fair.verdicts[-1]
    assert verdict.hand == away.hand and verdict.ok and verdict.cut, verdict.said().text.plain
    await ana.close()


async def test_a_seat_that_let_its_cut_lapse_is_waited_for_briefly_after(tmp_path: Path) -> None:
    """docs/fairness.md, "One seat cannot stall a table": a person who keeps the table open and never cuts is
    waited for the whole window once; from then on each deal waits ``LAPSED`` seconds for them at most, not a
    turn clock a hand, and each reveal names their seat as one whose pledged link is not in it."""
    from cardtui.server.actor.dealing import LAPSED

    turn = 30
    clock = ManualClock()
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=turn, bot_workers=0, clock=clock)
    try:
        table_id = await create(running, game="truco_paulista", seats=4, bots=3, turn_seconds=turn)
        table = running.room.tables[table_id]
        ana = await Player(f"127.0.0.1:{running.port}", cuts=False).join(table_id, "ana")
        ana.subscribe()

        def committed() -> list[table_pb2.DealCommitted]:
            return [e.deal_committed for e in events_of(ana, "deal_committed")]

        async def until_cut(n: int) -> None:
            async def step() -> bool:  # every timer in turn (ana's turn clock too), until deal n is being cut
                cutting = table.cut is not None and table.cut.hand == n
                if not cutting and clock.pending:
                    await clock.advance(clock.pending[0] - clock.now())
                return cutting and len(committed()) >= n

            await eventually_async(step, f"deal {n} being cut")

        await until_cut(1)
        await clock.advance(turn - 0.1)
        assert table.cut is not None, "the first lapse is waited for the whole window"
        await clock.advance(0.1)
        assert table.cut is None
        for n in (2, 3):
            await until_cut(n)
            await clock.advance(LAPSED - 0.1)
            assert table.cut is not None and table.cut.hand == n
            await clock.advance(0.1)
            assert table.cut is None or table.cut.hand != n, f"deal {n} waited past {LAPSED} s for ana"
        await eventually(lambda: len(events_of(ana, "deal_revealed")) >= 2, "two reveals")
        reveals = [e.deal_revealed for e in events_of(ana, "deal_revealed")]
        assert all(not r.seeds and [p.seat for p in r.pledges] == [0] and not r.gone for r in reveals[:2])
        await ana.close()
    finally:
        await running.stop(grace=0.2)
