"""Table workers (``serve --workers``): real processes, each with its own gRPC server, sharing one store.

The lobby sends each new table to a worker; joining says where the table is served, and the
client talks to that worker. A worker killed with SIGKILL mid-hand: its tables come back on a
live worker from the journal, the client follows without anyone doing anything, nothing it saw
is lost or numbered again, and a new worker takes the dead one's place.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio

from cardtui.client.connection import Connection
from cardtui.server.app import Running, start
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc


@pytest_asyncio.fixture
async def two_workers(tmp_path: Path) -> AsyncIterator[Running]:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=0.0, workers=2)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


async def created(lobby: lobby_pb2_grpc.LobbyStub, **fields: object) -> str:
    fields.setdefault("game", "cacho")
    fields.setdefault("bot_levels", ["easy"])
    reply = await lobby.CreateTable(lobby_pb2.CreateTableRequest(**fields))  # type: ignore[arg-type]
    return str(reply.table.id)


def worker_at(running: Running, where: str) -> int:
    assert running.workers is not None
    [pid] = [s.process.pid for s in running.workers.slots if s.address == where and s.process is not None]
    assert pid is not None
    return pid


async def test_the_lobby_shares_tables_among_workers_and_says_where_each_is(two_workers: Running) -> None:
    assert two_workers.workers is not None
    addresses = {s.address for s in two_workers.workers.slots}
    assert len(addresses) == 2 and all(a.startswith(":") for a in addresses)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{two_workers.port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        ids = [await created(lobby, seats=2, bots=1) for _ in range(4)]
        assert not two_workers.room.tables  # the lobby's process drives none of them
        joined = [await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=t, name=f"p{n}"))
                  for n, t in enumerate(ids)]
        assert {j.address for j in joined} == addresses  # both workers, each named as :PORT
        listed = await lobby.ListTables(lobby_pb2.ListTablesRequest())
        assert sorted(t.id for t in listed.tables) == sorted(ids)
        assert (await lobby.GetInfo(lobby_pb2.GetInfoRequest())).tables == 4
        # the table's calls are answered where it is served, and only there
        first = joined[0]
        here = f"127.0.0.1{first.address}"
        other = next(a for a in addresses if a != first.address)
        async with grpc.aio.insecure_channel(here) as table_channel:
            stream = table_pb2_grpc.TableStub(table_channel).Subscribe(table_pb2.SubscribeRequest(token=first.token))
            opening = await stream.read()
            assert opening.HasField("snapshot")
            stream.cancel()
        for elsewhere in (f"127.0.0.1:{two_workers.port}", f"127.0.0.1{other}"):
            async with grpc.aio.insecure_channel(elsewhere) as wrong:
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await table_pb2_grpc.TableStub(wrong).Chat(table_pb2.ChatRequest(token=first.token, text="hi"))
                assert refused.value.code() == grpc.StatusCode.UNAVAILABLE  # the lobby says where: Locate
        located = await lobby.Locate(lobby_pb2.LocateRequest(token=first.token))
        assert located.address == first.address
        with pytest.raises(grpc.aio.AioRpcError) as unknown:
            await lobby.Locate(lobby_pb2.LocateRequest(token="nobody's"))
        assert unknown.value.code() == grpc.StatusCode.PERMISSION_DENIED
        # the lobby's calls about a table are passed on to its worker: watch, leave, close
        watched = await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=ids[1], name="w"))
        assert watched.address == joined[1].address
        await lobby.Leave(lobby_pb2.LeaveRequest(token=watched.token))
        with pytest.raises(grpc.aio.AioRpcError) as not_owner:
            await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=ids[2], owner_token="guess"))
        assert not_owner.value.code() == grpc.StatusCode.PERMISSION_DENIED  # the worker's own refusal, handed back


async def test_a_worker_killed_mid_hand_its_tables_come_back_and_the_client_follows(two_workers: Running) -> None:
    assert two_workers.workers is not None
    conn = Connection.open(f"127.0.0.1:{two_workers.port}")
    seen: list[table_pb2.TableMessage] = []
    changed = asyncio.Event()

    async def follow(token: str) -> None:
        async for msg in conn.follow(token, max_backoff=0.2):
            seen.append(msg)
            changed.set()

    async def until(predicate: object, timeout: float = 20.0) -> None:
        async def loop() -> None:
            while not predicate():  # type: ignore[operator]
                changed.clear()
                await changed.wait()

        await asyncio.wait_for(loop(), timeout)

    def view() -> table_pb2.View | None:
        for m in reversed(seen):
            if m.HasField("snapshot"):
                return m.snapshot.view
            if m.HasField("update") and m.update.HasField("view"):
                return m.update.view
        return None

    try:
        lobby = conn.lobby
        table_id = await created(lobby, seats=2, bots=1, turn_seconds=3600)
        joined = await conn.join(table_id, "ana")
        task = asyncio.create_task(follow(joined.token))
        await until(lambda: (v := view()) is not None and len(v.legal) > 0)  # a hand dealt, ana to act
        before = view()
        assert before is not None
        mine = [list(seat.cards) for seat in before.cacho.seats]  # what ana may see of the hand: her cards
        acted = await conn.act(joined.token, before.legal[0], seen_seq=0)
        await until(lambda: max((m.seq for m in seen), default=0) >= acted)
        last_before = max(m.seq for m in seen)
        events_before = [e.seq for m in seen if m.HasField("update") for e in m.update.events]
        old_pid = worker_at(two_workers, joined.address)
        count = len(seen)
        os.kill(old_pid, signal.SIGKILL)  # mid-hand
        # the client follows the table to its new process, with no one asking it to
        await until(lambda: any(m.HasField("snapshot") for m in seen[count:]))
        resumed = next(m for m in seen[count:] if m.HasField("snapshot"))
        assert resumed.seq >= last_before  # everything seen was kept; nothing is numbered again
        assert conn.routes[joined.token] != joined.address or worker_at(two_workers, joined.address) != old_pid
        table_on = two_workers.workers.live()
        assert any(s.address == conn.routes[joined.token] for s in table_on)
        now = resumed.snapshot.view
        if (now.hand, now.cacho.round) == (before.hand, before.cacho.round):  # the same hand: the same cards
            assert [list(seat.cards) for seat in resumed.snapshot.view.cacho.seats] == mine
        # play on where it is now: the next act is numbered after everything seen
        await until(lambda: (v := view()) is not None and len(v.legal) > 0)
        again = await conn.act(joined.token, view().legal[0])  # type: ignore[union-attr]
        assert again > last_before
        await until(lambda: max(m.seq for m in seen) >= again)
        events_after = [e.seq for m in seen[count:] if m.HasField("update") for e in m.update.events]
        assert events_after and min(events_after) > max(events_before)
        everything = events_before + events_after
        assert len(everything) == len(set(everything)) and everything == sorted(everything)
        # and the dead worker's place is taken by a new one
        async def replaced() -> None:
            while len(two_workers.workers.live()) < 2:  # type: ignore[union-attr]
                await asyncio.sleep(0.05)

        await asyncio.wait_for(replaced(), 30)
        assert old_pid not in two_workers.workers.pids()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    finally:
        await conn.close()
