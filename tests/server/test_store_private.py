"""The store is its owner's: read as another local user would, it gives no token and no way in.

A real ``cardtui serve`` process writes the store; the test then reads the store's files byte
for byte, as anyone on the host could if the modes let them, and checks the modes themselves.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import grpc

from cardtui.identity import create as create_identity
from cardtui.server.store import SUFFIXES, token_digest
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc, players_pb2, table_pb2, table_pb2_grpc
from tests.server.test_restart import snapshot
from tests.waiting import eventually_async


def serve(db: Path, log: Path, *flags: str) -> tuple[subprocess.Popen[str], int]:
    """A real server process on ``db``, its log in ``log``."""
    with log.open("a") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--db", str(db), "--no-announce",
             "--log-level", "info", "--next-hand-delay", "100", *flags],
            stdout=subprocess.PIPE, stderr=err, text=True,
        )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "server on" in line, line
    return proc, int(line.split()[3].rsplit(":", 1)[1])


def stop(proc: subprocess.Popen[str], how: int = signal.SIGTERM) -> None:
    proc.send_signal(how)
    proc.wait(timeout=20)


def files(db: Path) -> dict[str, bytes]:
    """Every file of the store, as another reader of the disk sees it (the locks of the processes
    that drive its tables too, ``cardtui.db.owner-…``)."""
    found = {p.name: p.read_bytes() for p in (Path(f"{db}{s}") for s in SUFFIXES) if p.exists()}
    found.update({p.name: p.read_bytes() for p in db.parent.glob(f"{db.name}.owner-*")})
    return found


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def at(port: int, address: str) -> str:
    """Where a table is served, as a client dials it (``JoinResponse.address``: a table worker's port)."""
    return f"127.0.0.1{address}" if address.startswith(":") else f"127.0.0.1:{port}"


async def a_table_in_play(port: int, tmp_path: Path) -> tuple[list[str], dict[str, int | None], str]:
    """Two guests and a proved player seated, a spectator, a hand dealt: every secret a client was
    given (seat, spectator and owner tokens, a session), each token's seat, and the table's id.
    With table workers, the table is served by one of them."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=3, bots=0,
                                                                    turn_seconds=3600))
        table_id = made.table.id
        seats: dict[str, int | None] = {}
        for name in ("ana", "bia"):
            joined = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=name))
            seats[joined.token] = joined.seat
        me = create_identity(tmp_path / "cris.pem")
        hello = await lobby.Hello(players_pb2.HelloRequest(name="cris", public_key=me.public_key))
        proved = await lobby.Prove(players_pb2.ProveRequest(
            name="cris", public_key=me.public_key, nonce=hello.nonce,
            signature=me.sign(hello.server_id, hello.nonce, "cris")))
        joined = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, session=proved.session))
        seats[joined.token] = joined.seat
        watch = await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="dora"))
        seats[watch.token] = None
        async with grpc.aio.insecure_channel(at(port, watch.address)) as worker:
            table = table_pb2_grpc.TableStub(worker)
            # each of the three opens the table, as a client does: else the first hand waits for that (up to ten
            # seconds: server.actor.dealing.OPENING); none pledged a chain, so no deal waits for a seed of theirs
            opened = [table.Subscribe(table_pb2.SubscribeRequest(token=token)) for token in seats]
            for stream in opened:
                await stream.read()

            async def dealt() -> bool:  # the table is full: the first hand is dealt
                return (await snapshot(table, watch.token)).snapshot.view.hand >= 1

            await eventually_async(dealt, "the first hand dealt")
            assert (await snapshot(table, watch.token)).snapshot.view.hand >= 1
            for stream in opened:
                stream.cancel()
    return [*seats, made.owner_token, proved.session], seats, table_id


def assert_private(db: Path, secrets: list[str], table_id: str) -> None:
    stored = files(db)
    assert {db.name, f"{db.name}-wal", f"{db.name}-shm", f"{db.name}.lock"} <= set(stored), sorted(stored)
    everything = b"".join(stored.values())
    assert table_id.encode() in everything and b"dora" in everything, "the reader sees the store's contents"
    for secret in secrets:
        assert secret.encode() not in everything, f"a token a client holds is in the store: {secret}"
    assert token_digest(secrets[0]).encode() in everything, "the store keeps digests instead"
    for name in stored:
        assert mode(db.parent / name) == 0o600, (name, oct(mode(db.parent / name)))


async def test_the_store_holds_no_token_and_only_its_owner_may_read_it_even_after_kill_9(tmp_path: Path) -> None:
    db = tmp_path / "host" / "data" / "cardtui.db"  # folders the store makes itself
    log = tmp_path / "server.log"
    proc, port = serve(db, log, "--workers", "2")
    try:
        secrets, seats, table_id = await a_table_in_play(port, tmp_path)
        assert_private(db, secrets, table_id)
        assert any(".owner-" in name for name in files(db)), "each process's lock is the owner's alone too"
        assert mode(db.parent) == 0o700 and mode(db.parent.parent) == 0o700
        stop(proc, signal.SIGKILL)
        assert_private(db, secrets, table_id)  # what a crash leaves on disk, the journal too
        proc, port = serve(db, log, "--workers", "2")
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            for token, seat in seats.items():  # every token opens its own seat again, or its view
                async def located(token: str = token) -> str:  # on a worker once the old server's workers have ended
                    where = (await lobby.Locate(lobby_pb2.LocateRequest(token=token))).address
                    listed = [t.id for t in (await lobby.ListTables(lobby_pb2.ListTablesRequest())).tables]
                    return where if where and table_id in listed else ""

                where = await eventually_async(located, "the table back on a worker")
                async with grpc.aio.insecure_channel(at(port, where)) as worker:
                    back = (await snapshot(table_pb2_grpc.TableStub(worker), token)).snapshot
                assert (back.seat if back.HasField("seat") else None) == seat
        assert_private(db, secrets, table_id)
    finally:
        if proc.poll() is None:
            stop(proc, signal.SIGKILL)


async def test_a_store_others_could_read_is_tightened_on_start_and_the_log_says_so(tmp_path: Path) -> None:
    db = tmp_path / "cardtui.db"
    log = tmp_path / "server.log"
    proc, _ = serve(db, log)
    stop(proc)
    for name in (db, Path(f"{db}.lock")):
        os.chmod(name, 0o644)  # as a server before this one left them
    proc, _ = serve(db, log)
    try:
        for existing in files(db):
            assert mode(tmp_path / existing) == 0o600, existing
        said = log.read_text()
        assert f"{db} could be read by other users of this machine (mode 644); it is now 600" in said, said
    finally:
        stop(proc)


async def test_the_default_folder_is_made_private_too(tmp_path: Path) -> None:
    """Without --db the store lives in the user's data folder, cardtui's own: an older server left
    it 0755 and the store 0644; both are the owner's alone once a server starts on them."""
    home = tmp_path / "share"
    folder = home / "cardtui"
    folder.mkdir(parents=True, mode=0o755)
    os.chmod(folder, 0o755)
    sqlite3.connect(folder / "cardtui.db").close()
    os.chmod(folder / "cardtui.db", 0o644)
    env = {**os.environ, "XDG_DATA_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--no-announce"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert str(folder / "cardtui.db") in line, line
        assert mode(folder) == 0o700 and mode(folder / "cardtui.db") == 0o600
        assert mode(home) == 0o755, "the folder above cardtui's own is not the store's to change"
    finally:
        stop(proc)
    assert proc.stderr is not None
    said = proc.stderr.read()
    assert f"{folder} could be read by other users of this machine (mode 755); it is now 700" in said, said


async def test_a_store_that_kept_tokens_in_plain_text_keeps_only_their_digests_once_opened(tmp_path: Path) -> None:
    """A store written by an older server holds the tokens themselves: a server opening it hashes
    them in place, leaves none of their bytes behind, and every token still opens its seat."""
    db = tmp_path / "cardtui.db"
    log = tmp_path / "server.log"
    proc, port = serve(db, log, "--workers", "1")
    try:
        secrets, seats, table_id = await a_table_in_play(port, tmp_path)
    finally:
        stop(proc, signal.SIGKILL)
    old = sqlite3.connect(db)  # what an older server wrote: the tokens themselves
    old.execute("ALTER TABLE tokens RENAME COLUMN digest TO token")
    for token in seats:
        old.execute("UPDATE tokens SET token = ? WHERE token = ?", (token, token_digest(token)))
    old.commit()
    old.close()
    assert all(token.encode() in b"".join(files(db).values()) for token in seats)
    proc, port = serve(db, log, "--workers", "1")
    try:
        assert_private(db, secrets, table_id)
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
            table = table_pb2_grpc.TableStub(ch)
            for token, seat in seats.items():
                back = (await snapshot(table, token)).snapshot
                assert (back.seat if back.HasField("seat") else None) == seat
        assert "were kept in plain text; now only their digests are" in log.read_text()
    finally:
        stop(proc, signal.SIGKILL)
