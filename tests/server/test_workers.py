"""Table workers (``serve --workers``): real processes, each with its own gRPC server, sharing one store.

The lobby sends each new table to a worker; joining says where the table is served, and the
client talks to that worker. A worker killed with SIGKILL mid-hand: its tables come back on a
live worker from the journal, the client follows without anyone doing anything, nothing it saw
is lost or numbered again, and a new worker takes the dead one's place.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio

from cardtui.client.connection import Connection
from cardtui.server.app import Running, start
from cardtui.server.base.limits import Limits
from cardtui.server.lobby.routes import PEER, ROOM_KEY
from cardtui.server.processes import workers
from cardtui.v1 import (
    analysis_pb2,
    common_pb2,
    hosts_pb2,
    hosts_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
    table_pb2,
    table_pb2_grpc,
)
from tests.arrangements import free_run, stopped_between_writes
from tests.conftest import Player
from tests.server.test_records import boldest
from tests.waiting import PATIENCE, eventually, eventually_async


@pytest_asyncio.fixture
async def two_workers(tmp_path: Path) -> AsyncIterator[Running]:
    """A server with two table workers laid out as ``cardtui serve`` lays them out by default: the server on a port
    of its own, the workers on the two after it, each replaced on its own port (so a dead worker's address is its
    replacement's)."""
    for attempt in range(5):
        try:
            running = await start("127.0.0.1", free_run(3), tmp_path / f"store{attempt}.db", bot_delay=0.01,
                                  next_hand_delay=0.05, cut_window=0.0, workers=2)
            break
        except OSError:  # a port of the run taken meanwhile
            if attempt == 4:
                raise
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


def parent_of(pid: int) -> int:
    """A process's parent, as the system says it."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2:].split()[1])


def forked_clean(running: Running) -> None:
    """Every table worker of the server is a child of its fork server (which never runs gRPC), not
    of the server's process, whose gRPC server was made after them (``server.pools``)."""
    assert running.workers is not None and running.pools is not None
    pids = running.workers.pids()
    assert pids
    parents = {parent_of(pid) for pid in pids}
    assert os.getpid() not in parents, "a table worker forked from the process that runs gRPC"
    assert len(parents) == 1, parents
    [fork_server] = parents
    assert parent_of(fork_server) == os.getpid()


async def test_the_lobby_shares_tables_among_workers_and_says_where_each_is(two_workers: Running) -> None:
    assert two_workers.workers is not None
    forked_clean(two_workers)
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


async def test_a_new_table_goes_to_the_worker_with_the_fewest_tables_then_the_fewest_seats(
        two_workers: Running) -> None:
    """Placement by work (docs/hosting.md, "Which worker drives a table"): tables first, then seats people hold."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{two_workers.port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)

        async def where(table_id: str) -> str:
            watching = await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="w"))
            await lobby.Leave(lobby_pb2.LeaveRequest(token=watching.token))
            return str(watching.address)

        a = await created(lobby, seats=2, bots=1, turn_seconds=3600)
        b = await created(lobby, seats=2, bots=1, turn_seconds=3600)
        x, y = await where(a), await where(b)
        assert x != y  # one table each
        await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=a, name="ana"))  # x: a seat held
        c = await created(lobby, seats=2, bots=1, turn_seconds=3600)
        assert await where(c) == y  # as many tables: the fewer seats
        d = await created(lobby, seats=2, bots=1, turn_seconds=3600)
        assert await where(d) == x  # the fewer tables, whatever the seats


async def test_a_worker_killed_mid_hand_its_tables_come_back_and_the_client_follows(two_workers: Running) -> None:
    assert two_workers.workers is not None
    conn = Connection.open(f"127.0.0.1:{two_workers.port}")
    seen: list[table_pb2.TableMessage] = []

    async def follow(token: str) -> None:
        async for msg in conn.follow(token, max_backoff=0.2):
            seen.append(msg)

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
        await eventually(lambda: (v := view()) is not None and len(v.legal) > 0, "a hand dealt, ana to act")
        before = view()
        assert before is not None
        mine = [list(seat.cards) for seat in before.cacho.seats]  # what ana may see of the hand: her cards
        acted = await conn.act(joined.token, before.legal[0], seen_seq=0)
        await eventually(lambda: max((m.seq for m in seen), default=0) >= acted, "ana's act on her stream")
        last_before = max(m.seq for m in seen)
        events_before = [e.seq for m in seen if m.HasField("update") for e in m.update.events]
        old_pid = worker_at(two_workers, joined.address)
        count = len(seen)
        workers = two_workers.workers
        [other] = [s.process.pid for s in workers.slots if s.process is not None and s.process.pid != old_pid]
        # the adversary: the survivor stalls just as the other dies, so its replacement serves at the dead one's
        # address while the table is nobody's yet
        await stopped_between_writes(other)
        try:
            os.kill(old_pid, signal.SIGKILL)  # mid-hand
            await eventually(lambda: len(workers.live()) == 2 and old_pid not in workers.pids(),
                             "the replacement serving at the dead one's address")
            assert worker_at(two_workers, joined.address) != old_pid
            # the lobby sends nobody to the replacement, which does not drive the table: it says "not now" at once
            for ask in (lambda: lobby.Locate(lobby_pb2.LocateRequest(token=joined.token), timeout=5),
                        lambda: lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="wes"), timeout=5)):
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await ask()
                assert refused.value.code() == grpc.StatusCode.UNAVAILABLE, refused.value
        finally:
            os.kill(other, signal.SIGCONT)
        # the client follows the table to its new process, with no one asking it to
        await eventually(lambda: any(m.HasField("snapshot") for m in seen[count:]), "a snapshot from the new process")
        resumed = next(m for m in seen[count:] if m.HasField("snapshot"))
        assert resumed.seq >= last_before  # everything seen was kept; nothing is numbered again
        assert conn.routes[joined.token] != joined.address or worker_at(two_workers, joined.address) != old_pid
        table_on = two_workers.workers.live()
        assert any(s.address == conn.routes[joined.token] for s in table_on)
        now = resumed.snapshot.view
        if (now.hand, now.cacho.round) == (before.hand, before.cacho.round):  # the same hand: the same cards
            assert [list(seat.cards) for seat in resumed.snapshot.view.cacho.seats] == mine
        # play on where it is now: the next act is numbered after everything seen
        await eventually(lambda: (v := view()) is not None and len(v.legal) > 0, "ana to act again")
        again = await conn.act(joined.token, view().legal[0])  # type: ignore[union-attr]
        assert again > last_before
        await eventually(lambda: max(m.seq for m in seen) >= again, "ana's act after the move on her stream")
        events_after = [e.seq for m in seen[count:] if m.HasField("update") for e in m.update.events]
        assert events_after and min(events_after) > max(events_before)
        everything = events_before + events_after
        assert len(everything) == len(set(everything)) and everything == sorted(everything)
        # and the dead worker's place is taken by a new one
        await eventually(lambda: len(workers.live()) >= 2, "a new worker in the dead one's place")
        assert old_pid not in two_workers.workers.pids()
        forked_clean(two_workers)  # the new one too, though the server's gRPC server runs now
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    finally:
        await conn.close()


async def test_outsiders_reach_nothing_between_the_processes_and_limits_count_their_own_address(
        tmp_path: Path) -> None:
    """What only the room's own processes may ask (hosts.proto) is refused to anyone without the
    room's key, and a caller who forges the metadata a lobby passes calls on with (another
    address) is still counted as itself: the limits per address hold at every worker."""
    limits = Limits(acts_per_second=0.01, passwords_per_second=0.01)
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=0.0, workers=2, limits=limits)
    try:
        assert running.workers is not None
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            lobby = lobby_pb2_grpc.LobbyStub(channel)
            locked = await created(lobby, seats=2, bots=0, password="right one")
            open_table = await created(lobby, seats=2, bots=0, turn_seconds=3600)
            seated = [await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=open_table, name=n))
                      for n in ("ana", "bia")]
            for where in [f"127.0.0.1:{running.port}", *(f"127.0.0.1{s.address}" for s in running.workers.slots)]:
                async with grpc.aio.insecure_channel(where) as ch:
                    hosts = hosts_pb2_grpc.HostsStub(ch)
                    for metadata in ((), ((ROOM_KEY, "a guess"),), ((PEER, "ipv4:10.1.2.3:4"),)):
                        with pytest.raises(grpc.aio.AioRpcError) as denied:
                            await hosts.TakeOver(hosts_pb2.TakeOverRequest(table_ids=[open_table]),
                                                 metadata=metadata)
                        assert denied.value.code() in (grpc.StatusCode.PERMISSION_DENIED,
                                                       grpc.StatusCode.UNIMPLEMENTED)
                        with pytest.raises(grpc.aio.AioRpcError) as listing:
                            await hosts.Tables(lobby_pb2.ListTablesRequest(), metadata=metadata)
                        assert listing.value.code() in (grpc.StatusCode.PERMISSION_DENIED,
                                                        grpc.StatusCode.UNIMPLEMENTED)
            assert running.store.owners.place(open_table).owner != running.store.owners.me  # type: ignore[union-attr]
            # wrong passwords through the lobby: counted at the worker against this address, whatever
            # address the caller claims to pass on for
            codes = []
            for n in range(14):
                forged = ((PEER, f"ipv4:10.0.0.{n}:5"),)
                try:
                    await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=locked, name=f"x{n}", password="wrong"),
                                          metadata=forged)
                except grpc.aio.AioRpcError as e:
                    codes.append(e.code())
            assert codes.count(grpc.StatusCode.PERMISSION_DENIED) == 10  # the burst: each a slow check
            assert codes[10:] == [grpc.StatusCode.RESOURCE_EXHAUSTED] * 4
            # actions at the worker that serves the table: its limit counts this address
            where = f"127.0.0.1{seated[0].address}"
            async with grpc.aio.insecure_channel(where) as ch:
                table = table_pb2_grpc.TableStub(ch)
                refused = []
                for _ in range(4):
                    try:
                        await table.Chat(table_pb2.ChatRequest(token=seated[0].token, text="x"))
                        await table.Act(table_pb2.ActRequest(token=seated[0].token,
                                                             action=common_pb2.Action(type=common_pb2.ACTION_TYPE_CALL)))
                    except grpc.aio.AioRpcError as e:
                        refused.append(e.code())
                assert grpc.StatusCode.RESOURCE_EXHAUSTED in refused
    finally:
        await running.stop(grace=0.2)


async def test_each_seat_sees_its_own_cards_only_at_a_worker(two_workers: Running) -> None:
    """Redaction holds where the table is served: a seat never sees another's cards, a watcher no one's."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{two_workers.port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        table_id = await created(lobby, seats=3, bots=0, turn_seconds=3600)
        seated = [await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=n))
                  for n in ("ana", "bia", "cris")]
        watch = await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="dora"))
        async with grpc.aio.insecure_channel(f"127.0.0.1{watch.address}") as ch:
            table = table_pb2_grpc.TableStub(ch)

            async def dealt(token: str) -> table_pb2.View:
                async def snapshot() -> table_pb2.View | None:
                    stream = table.Subscribe(table_pb2.SubscribeRequest(token=token))
                    view = (await stream.read()).snapshot.view
                    stream.cancel()
                    return view if view.hand >= 1 else None

                return await eventually_async(snapshot, "a hand dealt")

            for joined in seated:
                view = await dealt(joined.token)
                for seat in view.cacho.seats:
                    assert bool(seat.cards) == (seat.seat == joined.seat), (joined.seat, seat)
            watched = await dealt(watch.token)
            assert not any(seat.cards for seat in watched.cacho.seats)


def test_a_call_passed_on_is_counted_against_its_caller_and_only_the_room_may_say_so(tmp_path: Path) -> None:
    from cardtui.server.lobby.routes import Router
    from cardtui.server.store import Store

    store = Store(tmp_path / "store.db")
    router = Router(store, "127.0.0.1")

    class Context:
        def __init__(self, peer: str, metadata: tuple[tuple[str, str], ...]) -> None:
            self._peer, self._metadata = peer, metadata

        def peer(self) -> str:
            return self._peer

        def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
            return self._metadata

    client = Context("ipv4:192.168.1.7:5000", ())
    passed = dict(router._passing(client))
    assert passed == {ROOM_KEY: router.key, PEER: "ipv4:192.168.1.7:5000"}  # what the lobby sends on
    at_worker = Context("ipv4:127.0.0.1:6000", tuple(passed.items()))
    assert router.trusted(at_worker) and router.peer(at_worker) == "ipv4:192.168.1.7:5000"
    forged = Context("ipv4:10.9.9.9:1", ((PEER, "ipv4:192.168.1.7:1"), (ROOM_KEY, "not the key")))
    assert not router.trusted(forged) and router.peer(forged) == "ipv4:10.9.9.9:1"
    assert Router(Store(tmp_path / "store.db", shared=True), "127.0.0.1").key == router.key  # one key per room
    assert router.dialable(":7000") == "127.0.0.1:7000" and Router(store, "0.0.0.0").dialable(":7") == "127.0.0.1:7"
    assert router.dialable("cards.example:50051") == "cards.example:50051"
    store.close()


async def test_a_call_passed_on_waits_no_longer_than_its_caller_and_is_not_passed_on_once_it_has_gone(
        tmp_path: Path) -> None:
    """The table's process is given the caller's own deadline, not the lobby's longer one: on a starved host a
    CreateTable passed on with ten seconds made tables for callers who had stopped waiting after five, tables whose
    owner token nobody got. A call whose caller has already gone is not passed on at all."""
    from cardtui.server.lobby.routes import PASS_ON_SECONDS, Router
    from cardtui.server.store import Store

    seen: list[float | None] = []

    class Worker(lobby_pb2_grpc.LobbyServicer):
        async def CreateTable(self, request: lobby_pb2.CreateTableRequest, context: grpc.aio.ServicerContext[
                lobby_pb2.CreateTableRequest, lobby_pb2.CreatedTable]) -> lobby_pb2.CreatedTable:
            seen.append(context.time_remaining())
            return lobby_pb2.CreatedTable(owner_token="owner")

    class Aborted(Exception):
        pass

    class Caller:
        def __init__(self, left: float | None) -> None:
            self.left = left
            self.code: grpc.StatusCode | None = None

        def peer(self) -> str:
            return "ipv4:192.168.1.7:5000"

        def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
            return ()

        def time_remaining(self) -> float | None:
            return self.left

        async def abort(self, code: grpc.StatusCode, details: str = "", trailing_metadata: object = ()) -> None:
            self.code = code
            raise Aborted(details)

    server = grpc.aio.server()
    lobby_pb2_grpc.add_LobbyServicer_to_server(Worker(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    store = Store(tmp_path / "store.db")
    router = Router(store, "127.0.0.1")
    request = lobby_pb2.CreateTableRequest(game="cacho")
    try:
        assert (await router.pass_on(f":{port}", "CreateTable", request, Caller(None))).owner_token == "owner"
        assert seen[-1] is not None and 5.0 < seen[-1] < PASS_ON_SECONDS + 0.5  # no deadline: the lobby's
        await router.pass_on(f":{port}", "CreateTable", request, Caller(2.0))
        assert seen[-1] is not None and seen[-1] < 2.5, "passed on with longer than its caller waits"  # ms rounding
        gone = Caller(0.0)
        with pytest.raises(Aborted):
            await router.pass_on(f":{port}", "CreateTable", request, gone)
        assert gone.code == grpc.StatusCode.DEADLINE_EXCEEDED and len(seen) == 2  # never reached the worker
    finally:
        await router.close()
        await server.stop(0)
        store.close()


async def test_an_invite_to_a_table_a_worker_drives_names_the_room_and_opens_the_table(two_workers: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{two_workers.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        locked = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=3, bots=1,
                                                                      bot_levels=["easy"], password="segredo"))
        table_id = locked.table.id
        assert table_id not in two_workers.room.tables, "a worker drives it, not the lobby's process"
        plain = await lobby.Invite(lobby_pb2.InviteRequest(table_id=table_id))
        assert plain.servers == [f"127.0.0.1:{two_workers.port}"], "friends dial the room, never a worker"
        assert plain.table.id == table_id and not plain.opens_lock
        key = await lobby.Invite(lobby_pb2.InviteRequest(table_id=table_id, with_password=True,
                                                         owner_token=locked.owner_token))
        assert key.opens_lock and key.code != plain.code
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.Invite(lobby_pb2.InviteRequest(table_id=table_id, with_password=True, owner_token="x"))
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        opened = await lobby.OpenInvite(lobby_pb2.OpenInviteRequest(code=key.code.lower()))
        assert opened.table.id == table_id and opened.opens_lock
        assert opened.servers == [f"127.0.0.1:{two_workers.port}"]
        joined = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="bia", invite=key.code))
        assert joined.seat >= 0 and joined.address, "seated by the worker, which says where it is"
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.OpenInvite(lobby_pb2.OpenInviteRequest(code=plain.code[:-1] + ("2" if plain.code[-1] != "2"
                                                                                        else "3")))
        assert refused.value.code() == grpc.StatusCode.NOT_FOUND


async def test_a_hand_a_worker_played_is_analysed_in_the_lobbys_process_for_its_holder_alone(
        two_workers: Running) -> None:
    """The analysis pool is the lobby's (``server.pools``): a finished hand of a table a worker drives is
    analysed there, for the seat's holder (checked against the store's tokens), never for a watcher or
    another seat while the table plays; the workers have no pool of their own."""
    assert two_workers.analyst is not None
    async with grpc.aio.insecure_channel(f"127.0.0.1:{two_workers.port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        table_id = await created(lobby, seats=2, bots=1)
        ana = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="ana"))
        watch = await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="dora"))
        assert not two_workers.room.tables and ana.address  # a worker drives it
        player = Player(f"127.0.0.1{ana.address}", ana.token, ana.seat)
        player.subscribe()
        deadline = time.monotonic() + PATIENCE
        while two_workers.store.hands.count_hands(table_id) < 1:  # ana plays her first hand herself
            assert time.monotonic() < deadline, "no hand finished"
            view = player.last_view
            if view is not None and view.legal and not view.hand_over:
                with contextlib.suppress(grpc.aio.AioRpcError):  # the table moved on meanwhile
                    await player.act(boldest(list(view.legal)))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(player.changed.wait(), 0.5)
            player.changed.clear()
        await player.close()

        def ask(token: str, seat: int | None = None) -> AsyncIterator[analysis_pb2.AnalyzeUpdate]:
            request = analysis_pb2.AnalyzeRequest(table_id=table_id, hand=1, token=token)
            if seat is not None:
                request.seat = seat
            return lobby.Analyze(request)

        for token, seat, refusal in ((watch.token, None, "Spectators"), ("", None, "still playing"),
                                     (ana.token, 1 - ana.seat, "holder's alone")):
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                [u async for u in ask(token, seat)]
            assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED and refusal in str(refused.value.details())
        updates = [u async for u in ask(ana.token)]
        assert updates[-1].WhichOneof("update") == "analysis"
        got = updates[-1].analysis
        assert list(got.seats) == [ana.seat] and got.moments and all(m.seat == ana.seat for m in got.moments)
        assert set(two_workers.store.hands.analyses(table_id, 1)) == {ana.seat}, "kept in the shared store"


def test_a_killed_servers_counters_folder_is_swept_by_the_next_and_a_running_ones_is_kept(tmp_path: Path) -> None:
    """A server killed -9 cannot remove its counters folder: the next one to start removes the folders whose
    process is gone, never a running server's."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    gone = tmp_path / f"{workers.COUNTS}{ended.pid}-abc"
    mine = tmp_path / f"{workers.COUNTS}{os.getpid()}-def"
    other = tmp_path / "cardtui-other-1"
    for folder in (gone, mine, other):
        (folder / "worker-1").mkdir(parents=True)
    assert workers.sweep_counts(str(tmp_path)) == [str(gone)]
    assert not gone.exists() and mine.exists() and other.exists()
