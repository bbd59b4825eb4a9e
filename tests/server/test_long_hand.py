"""A rummy hand nobody ends, on a real server: what the server keeps for it stays bounded.

The rules turn the pile over into a new stock whenever it runs out (docs/rules.md §1), so three people who never go
out play one hand for ever. Every seat's view names each card it took from the pile this hand, so those records grow
with every draw; the wire's memos keep none past ``MEMO_RECORD_BYTES`` and no more than ``MEMO_BYTES`` together, and
the hand's log names its draws and discards with one shared record each."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio

from cardtui.engine.cards import pack, parse_cards
from cardtui.engine.rummy.base import DRAWS, discard_of, drawn_keys
from cardtui.engine.rummy.records import DISCARD, DRAW, DrawSource
from cardtui.server.app import Running, start
from cardtui.server.base import wire
from cardtui.server.base.limits import Limits
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc
from tests.waiting import PATIENCE

NEVER = (common_pb2.ACTION_TYPE_KNOCK, common_pb2.ACTION_TYPE_CLAIM, common_pb2.ACTION_TYPE_FOLD)
CAP = 160
"""The longest record the memos may keep in this test: a seat's record passes it once it took some 40 cards."""
BUDGET = 32 << 10
"""The bytes the memos may hold together in this test."""


@pytest_asyncio.fixture
async def quick(tmp_path: Path) -> AsyncIterator[Running]:
    """A server whose people may move as fast as they like."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          limits=Limits(acts_per_second=1e6))
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


async def test_a_hand_nobody_ends_keeps_the_memos_within_their_bound(quick: Running,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    deck = list(pack("french104"))
    random.Random(1).shuffle(deck)
    monkeypatch.setattr("cardtui.engine.rummy.base.shuffled", lambda cards, rng: list(deck))
    monkeypatch.setattr(wire, "MEMO_RECORD_BYTES", CAP)
    monkeypatch.setattr(wire, "MEMO_BYTES", BUDGET)
    wire.forget()
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}")
    lobby, tables = lobby_pb2_grpc.LobbyStub(channel), table_pb2_grpc.TableStub(channel)
    made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(
        game="pifpaf", seats=3, bots=0, turn_seconds=60, options={"claim_ms": common_pb2.OptionValue(number=0)}))
    tokens = [(await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=made.table.id, name=f"p{i}"))).token
              for i in range(3)]
    rng = random.Random(2)
    longest = [0]
    """The most cards any seat's view says it took from the pile so far."""
    rebuilt = [0]

    async def person(token: str) -> None:
        """Moves at random, never out of the hand (the night's people before they learnt to go out)."""
        async for msg in tables.Subscribe(table_pb2.SubscribeRequest(token=token)):
            rebuilt[0] += sum(1 for e in msg.update.events if e.HasField("rummy")
                              and e.rummy.WhichOneof("body") == "stock_rebuilt")
            view = msg.snapshot.view if msg.HasField("snapshot") else msg.update.view
            longest[0] = max([longest[0], *(len(s.taken) for s in view.rummy.seats)])
            assert not view.hand_over, "somebody went out"
            legal = [a for a in view.legal if a.type not in NEVER]
            if legal:
                try:
                    await tables.Act(table_pb2.ActRequest(token=token, action=rng.choice(legal), seen_seq=msg.seq))
                except grpc.aio.AioRpcError as err:
                    assert err.code() != grpc.StatusCode.RESOURCE_EXHAUSTED

    people = [asyncio.create_task(person(t)) for t in tokens]
    try:
        async def long_enough() -> None:
            while longest[0] < 50 or not rebuilt[0]:
                done = [p for p in people if p.done()]
                if done:
                    done[0].result()  # a person's failed assertion, raised here
                await asyncio.sleep(0.05)

        await asyncio.wait_for(long_enough(), PATIENCE)
    finally:
        for p in people:
            p.cancel()
        await asyncio.gather(*people, return_exceptions=True)
        await channel.close()
    kept = [len(b) for memo in wire._MEMOS for b in memo.values()]
    assert kept and max(kept) <= CAP, max(kept)
    assert [len(kept), sum(kept)] == wire._HELD
    assert sum(kept) <= BUDGET + CAP * len(wire._MEMOS)  # each memo may hold one record past the budget
    log = quick.room.tables[made.table.id].match.state.hand_log  # type: ignore[union-attr]
    draws = [(a, extra) for _, a, extra in log.actions if a is not None and a.type == DRAW]
    discards = [(a, extra) for _, a, extra in log.actions if a is not None and a.type == DISCARD]
    assert draws and all(a is DRAWS[DrawSource(a.value)] and extra is drawn_keys(parse_cards(extra["card"])[0])
                         for a, extra in draws)
    assert discards and all(a is discard_of(a.cards[0]) and extra is None for a, extra in discards)
