"""Several hosts, one PostgreSQL database: one lobby, one set of names, a table driven by exactly one.

A real PostgreSQL server (``tests/postgres.py``), real hosts on their own ports: servers in this
process, and one in a process of its own where the test kills it outright. A table created on
one host is joined from the other; the host that drives a table is killed mid-hand and the
table comes back on the survivor with nothing lost or numbered twice, the client following it
by itself; two hosts that race for one table leave it to exactly one; a host that lost its
database session (its lock with it) can never write to its table again.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import grpc
import pytest

from cardtui.client.connection import Connection
from cardtui.identity import create as create_identity
from cardtui.server.app import Running, start
from cardtui.server.lobby.routes import ROOM_KEY
from cardtui.v1 import hosts_pb2_grpc, lobby_pb2, lobby_pb2_grpc, players_pb2, table_pb2, table_pb2_grpc
from tests.waiting import eventually, eventually_async

pytestmark = [pytest.mark.postgresql, pytest.mark.xdist_group("postgresql")]


@asynccontextmanager
async def host(url: str, **settings: object) -> AsyncIterator[Running]:
    """A host of the room in this process: its own port, the shared database."""
    settings.setdefault("bot_delay", 0.01)
    settings.setdefault("next_hand_delay", 0.05)
    settings.setdefault("cut_window", 0.0)
    running = await start("127.0.0.1", 0, url, **settings)  # type: ignore[arg-type]
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


def host_process(url: str, tmp_path: Path) -> tuple[subprocess.Popen[str], int]:
    """A host in a process of its own, to kill."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--db", url, "--workers", "1",
         "--no-announce", "--log-level", "warning", "--cut-ms", "0", "--bot-delay", "10", "--next-hand-delay", "50"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "server on" in line, line
    return proc, int(line.split()[3].rsplit(":", 1)[1])


async def test_one_room_over_two_hosts_a_table_made_on_one_is_joined_from_the_other(pg_url: str,
                                                                                   tmp_path: Path) -> None:
    async with host(pg_url) as a, host(pg_url) as b, grpc.aio.insecure_channel(f"127.0.0.1:{a.port}") as ca, \
                grpc.aio.insecure_channel(f"127.0.0.1:{b.port}") as cb:
        lobby_a, lobby_b = lobby_pb2_grpc.LobbyStub(ca), lobby_pb2_grpc.LobbyStub(cb)
        made = await lobby_a.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=1,
                                                                      bot_levels=["easy"]))
        table_id = made.table.id
        assert table_id in a.room.tables and table_id not in b.room.tables
        # one lobby: either host lists every table
        for lobby in (lobby_a, lobby_b):
            listed = await lobby.ListTables(lobby_pb2.ListTablesRequest())
            assert [t.id for t in listed.tables] == [table_id]
        # joined from the other host: the seat is taken where the table is driven, and the answer
        # says where that is; the table's calls go there
        joined = await lobby_b.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="ana"))
        assert joined.address == f":{a.port}"
        assert a.room.tables[table_id].seating[joined.seat].name == "ana"
        async with grpc.aio.insecure_channel(f"127.0.0.1{joined.address}") as there:
            stream = table_pb2_grpc.TableStub(there).Subscribe(table_pb2.SubscribeRequest(token=joined.token))
            assert (await stream.read()).HasField("snapshot")
            stream.cancel()
        with pytest.raises(grpc.aio.AioRpcError) as elsewhere:  # b does not drive it
            await table_pb2_grpc.TableStub(cb).Chat(table_pb2.ChatRequest(token=joined.token, text="hi"))
        assert elsewhere.value.code() == grpc.StatusCode.UNAVAILABLE
        assert (await lobby_b.Locate(lobby_pb2.LocateRequest(token=joined.token))).address == f":{a.port}"
        # one set of names and keys: a name proved on one host is that key's on the other
        me = create_identity(tmp_path / "key.pem")
        hello = await lobby_a.Hello(players_pb2.HelloRequest(name="Bia", public_key=me.public_key))
        await lobby_a.Prove(players_pb2.ProveRequest(name="Bia", public_key=me.public_key, nonce=hello.nonce,
                                                     signature=me.sign(hello.server_id, hello.nonce, "Bia")))
        with pytest.raises(grpc.aio.AioRpcError) as taken:
            await lobby_b.Hello(players_pb2.HelloRequest(name="bia"))  # a guest, the name another's
        assert taken.value.code() in (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.ALREADY_EXISTS,
                                      grpc.StatusCode.FAILED_PRECONDITION)
        info_b = await lobby_b.Hello(players_pb2.HelloRequest(name="Bia", public_key=me.public_key))
        assert info_b.server_id == hello.server_id and info_b.known  # one room: the same id, the key known
        # one list of tournaments: made on b, run by the host that runs them, listed by both
        from cardtui.v1 import tournament_pb2, tournament_pb2_grpc

        made_t = await tournament_pb2_grpc.TournamentsStub(cb).CreateTournament(
            tournament_pb2.CreateTournamentRequest(game="cacho", table_size=2, rounds=1, max_entries=4))
        for ch in (ca, cb):
            listed_t = await tournament_pb2_grpc.TournamentsStub(ch).ListTournaments(
                tournament_pb2.ListTournamentsRequest())
            assert [t.id for t in listed_t.tournaments] == [made_t.tournament.id]


async def test_the_host_driving_a_table_is_killed_mid_hand_and_the_survivor_takes_it(pg_url: str,
                                                                                     tmp_path: Path) -> None:
    proc, port = host_process(pg_url, tmp_path)
    try:
        async with host(pg_url) as survivor:
            # the client knows the room by the survivor's address (the name both hosts stand behind)
            conn = Connection.open(f"127.0.0.1:{survivor.port}")
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
                async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as doomed:
                    made = await lobby_pb2_grpc.LobbyStub(doomed).CreateTable(lobby_pb2.CreateTableRequest(
                        game="cacho", seats=2, bots=1, bot_levels=["easy"], turn_seconds=3600))
                table_id = made.table.id
                joined = await conn.join(table_id, "ana")
                assert joined.address == f":{port}"
                task = asyncio.create_task(follow(joined.token))
                await eventually(lambda: (v := view()) is not None and len(v.legal) > 0, "ana's turn")
                before = view()
                assert before is not None
                cards = [list(s.cards) for s in before.cacho.seats]
                acted = await conn.act(joined.token, before.legal[0])
                await eventually(lambda: max((m.seq for m in seen), default=0) >= acted, "ana's move in her stream")
                last_before = max(m.seq for m in seen)
                events_before = [e.seq for m in seen if m.HasField("update") for e in m.update.events]
                count = len(seen)
                os.kill(proc.pid, signal.SIGKILL)  # mid-hand, the host that drives the table
                proc.wait(10)
                # the survivor finds the dead host's lock free and takes its tables; the client follows
                await eventually(lambda: table_id in survivor.room.tables, "the survivor taking the table")
                await eventually(lambda: any(m.HasField("snapshot") for m in seen[count:]), "the survivor's snapshot")
                resumed = next(m for m in seen[count:] if m.HasField("snapshot"))
                assert resumed.seq >= last_before
                assert conn.routes[joined.token] == ""  # the survivor is the lobby the client knows
                if (resumed.snapshot.view.hand, resumed.snapshot.view.cacho.round) == (before.hand, before.cacho.round):
                    assert [list(s.cards) for s in resumed.snapshot.view.cacho.seats] == cards
                await eventually(lambda: (v := view()) is not None and len(v.legal) > 0, "ana's turn again")
                again = await conn.act(joined.token, view().legal[0])  # type: ignore[union-attr]
                assert again > last_before
                await eventually(lambda: max(m.seq for m in seen) >= again, "ana's move on the survivor")
                events_after = [e.seq for m in seen[count:] if m.HasField("update") for e in m.update.events]
                assert events_after and min(events_after) > max(events_before)
                everything = events_before + events_after
                assert len(everything) == len(set(everything)) and everything == sorted(everything)
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
            finally:
                await conn.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


async def test_two_hosts_racing_for_one_table_leave_it_to_exactly_one(pg_url: str, tmp_path: Path) -> None:
    import psycopg  # loaded by the PostgreSQL tests' own test process, not by every one that collects them

    # tables whose host is gone: made by a host killed before anyone took its tables
    proc, port = host_process(pg_url, tmp_path)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as doomed:
            lobby = lobby_pb2_grpc.LobbyStub(doomed)
            ids = []
            for _ in range(12):  # waiting for players: nothing to play while the hosts race
                made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2))
                ids.append(made.table.id)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    # two hosts, each a process of its own, start at once: each sweeps for the dead host's tables
    racers = [subprocess.Popen(
        [sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--db", pg_url, "--workers", "1",
         "--no-announce", "--log-level", "warning", "--cut-ms", "0", "--bot-delay", "10"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "XDG_DATA_HOME": str(tmp_path)}) for _ in range(2)]
    try:
        ports = []
        for racer in racers:
            assert racer.stdout is not None
            line = racer.stdout.readline()
            assert "server on" in line, line
            ports.append(int(line.split()[3].rsplit(":", 1)[1]))
        with psycopg.connect(pg_url) as db:
            key = db.execute("SELECT value FROM meta WHERE key = 'room_key'").fetchone()[0]
        async def driven(racer_port: int) -> set[str]:
            """What a host drives, by its own account (hosts.proto)."""
            async with grpc.aio.insecure_channel(f"127.0.0.1:{racer_port}") as ch:
                reply = await hosts_pb2_grpc.HostsStub(ch).Tables(lobby_pb2.ListTablesRequest(),
                                                                  metadata=((ROOM_KEY, key),))
            return {t.id for t in reply.tables}

        async def all_driven() -> list[set[str]] | None:  # each host sweeps as it starts
            drives = [await driven(racer_port) for racer_port in ports]
            return drives if drives[0] | drives[1] >= set(ids) else None

        drives = await eventually_async(all_driven, "every table driven somewhere")
        assert not drives[0] & drives[1], "no table is driven by both"
        assert drives[0] | drives[1] == set(ids), "every table is driven"
        with psycopg.connect(pg_url) as db:
            owners = dict(db.execute("SELECT id, owner FROM tables").fetchall())
            registered = dict(db.execute("SELECT address, id FROM owners").fetchall())
        for racer_port, own in zip(ports, drives, strict=True):
            assert {owners[t] for t in own} <= {registered[f":{racer_port}"]}  # the store says the same
    finally:
        for racer in racers:
            racer.send_signal(signal.SIGTERM)
        for racer in racers:
            racer.wait(20)


async def test_a_host_that_lost_its_session_never_writes_its_table_again(pg_url: str) -> None:
    import psycopg  # loaded by the PostgreSQL tests' own test process, not by every one that collects them

    async with host(pg_url) as a, host(pg_url) as b, grpc.aio.insecure_channel(f"127.0.0.1:{a.port}") as ca:
        lobby = lobby_pb2_grpc.LobbyStub(ca)
        made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=0,
                                                                    turn_seconds=3600))
        table_id = made.table.id
        seated = [await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=n))
                  for n in ("ana", "bia")]
        await eventually(lambda: a.room.tables[table_id].match is not None, "the match dealt")
        old = a.room.tables[table_id]
        await a.keeper.stop()  # type: ignore[union-attr]  # a is idle: nothing of it touches the database
        # a's database session ends (a network cut, an administrator): its lock goes with it
        with psycopg.connect(pg_url, autocommit=True) as admin:
            pid = admin.execute("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = "
                                "(%s::bigint & 4294967295)::oid AND classid = ((%s::bigint >> 32) & 4294967295)::oid",
                                (owner_key(a.store.owners.me), owner_key(a.store.owners.me))).fetchone()
            assert pid is not None
            admin.execute("SELECT pg_terminate_backend(%s)", (pid[0],))
            await eventually(lambda: admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s",
                                                   (pid[0],)).fetchone() == (0,), "a's database session ended")
        # b finds a's lock free and takes the table, with a new epoch
        await b.keeper.sweep()  # type: ignore[union-attr]
        assert table_id in b.room.tables and b.room.tables[table_id].epoch == old.epoch + 1
        seq_b = b.room.tables[table_id].seq
        # a still holds the table in memory: whatever it is asked now, it writes nothing
        legal = [s for s in (0, 1) if old.match is not None and old.match.legal_actions(s)]
        assert legal
        token = seated[legal[0]].token
        async with grpc.aio.insecure_channel(f"127.0.0.1:{a.port}") as at_a:
            stream = table_pb2_grpc.TableStub(at_a)
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stream.Chat(table_pb2.ChatRequest(token=token, text="still here?"))
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        assert table_id not in a.room.tables  # let go at a: its clients told to find it again
        with psycopg.connect(pg_url) as db:
            kept = db.execute("SELECT seq, owner FROM tables WHERE id = %s", (table_id,)).fetchone()
            steps = db.execute("SELECT max(seq) FROM log WHERE table_id = %s", (table_id,)).fetchone()
        assert kept[1] == b.store.owners.me
        assert max(kept[0], steps[0] or 0) == seq_b  # nothing of a's after b took it
        # and the table plays on at b, numbered after everything
        where = (await lobby.Locate(lobby_pb2.LocateRequest(token=token))).address
        assert where == f":{b.port}"


def owner_key(owner_id: str) -> int:
    from cardtui.server.store import _owner_key

    return _owner_key(owner_id)
