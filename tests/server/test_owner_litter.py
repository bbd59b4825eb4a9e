"""A server killed -9 again and again leaves no litter: the owners' lock files beside the store (``*.db.owner-*``)
and the owners' rows come back to one per live process (the front and its table workers) once the next start has
swept. A clean stop (SIGTERM) leaves none at all, its workers' included, also when it comes while a worker that
died is being replaced, and on PostgreSQL: every table it drove is handed to nobody, and the next start takes
them all back (docs/operating.md, "Litter")."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path

import psutil
import pytest

from cardtui.client.connection import Connection
from cardtui.v1 import common_pb2, lobby_pb2
from tests import forked
from tests.arrangements import SERVE, eventually, listening
from tests.waiting import eventually_async

WORKERS = 2
KILLS = 4
ATTEMPTS = 5


def litter(db: Path) -> tuple[int, int]:
    """The owners' lock files beside the store, and the owners' rows in it."""
    files = len(list(db.parent.glob(f"{db.name}.owner-*")))
    with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as store:
        rows = int(store.execute("SELECT count(*) FROM owners").fetchone()[0])
    return files, rows


def owned(db: Path) -> int:
    """Open tables the store names an owner for."""
    with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as store:
        return int(store.execute("SELECT count(*) FROM tables WHERE owner IS NOT NULL").fetchone()[0])


async def make_tables(port: int, n: int = 3) -> set[str]:
    """``n`` tables of bots at play (each with its hand under way as the server stops)."""
    maker = Connection.open(f"127.0.0.1:{port}")
    try:
        return {(await maker.create(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=2, bot_levels=["easy"])
                                    )).id for _ in range(n)}
    finally:
        await maker.close()


async def back(port: int, tables: set[str]) -> None:
    """Every one of ``tables`` is listed open again by the server on ``port`` (taken back from the journal)."""
    lobby = Connection.open(f"127.0.0.1:{port}")
    try:
        async def all_back() -> bool:
            return {t.id for t in await lobby.tables() if t.status != common_pb2.TABLE_STATUS_FINISHED} >= tables

        await eventually_async(all_back, f"the tables {sorted(tables)} listed open again")
    finally:
        await lobby.close()


@pytest.mark.xdist_group("owner-litter")
@pytest.mark.parametrize("workers", [1, WORKERS])
async def test_a_clean_stop_leaves_no_owner_file_or_row_and_the_next_start_takes_every_table(
        tmp_path: Path, workers: int) -> None:
    db = tmp_path / "store.db"
    args = ["--port", "0", "--db", str(db), *SERVE, "--workers", str(workers)]
    served, port = forked.serve(args, tmp_path / "server.log")
    try:
        tables = await make_tables(port)
        assert litter(db) == (1 + (workers if workers > 1 else 0),) * 2
        served.terminate()
        assert served.wait(timeout=60) == 0
        assert litter(db) == (0, 0)
        assert owned(db) == 0  # every table handed to nobody, none lost
        served, port = forked.serve(args, tmp_path / "server.log")
        await back(port, tables)
    finally:
        served.kill()


def told_to_stop(process: psutil.Process) -> bool:
    """A SIGTERM waits for ``process`` (held still), or it is gone."""
    try:
        with open(f"/proc/{process.pid}/status") as f:
            pending = [int(line.split()[1], 16) for line in f if line.startswith(("SigPnd:", "ShdPnd:"))]
    except FileNotFoundError:
        return True
    return any(mask & (1 << (signal.SIGTERM - 1)) for mask in pending)


@pytest.mark.xdist_group("owner-litter")
async def test_a_stop_while_a_dead_worker_is_replaced_leaves_no_owner_file_or_row(tmp_path: Path) -> None:
    """A worker killed, the one that replaces it held still as soon as it is forked (before it serves), the front
    told to stop meanwhile: the new worker gets its stop mid-start, and nothing of it, nor of the dead one, stays."""
    db = tmp_path / "store.db"
    args = ["--port", "0", "--db", str(db), *SERVE, "--workers", str(WORKERS)]
    served, port = forked.serve(args, tmp_path / "server.log")
    replacement: psutil.Process | None = None
    try:
        tables = await make_tables(port)
        front = psutil.Process(served.pid)
        fork_server = next(p for p in front.children() if "forkserver" in " ".join(p.cmdline()))

        def serving() -> list[psutil.Process]:
            return [p for p in fork_server.children() if listening(p.pid)]

        def forked_anew(before: set[int]) -> psutil.Process | None:
            return next((p for p in fork_server.children() if p.pid not in before), None)

        for _attempt in range(ATTEMPTS):  # until one is caught before it serves (a quick one may be serving)
            await eventually(lambda: len(serving()) == WORKERS, "every worker serving")
            before = {p.pid for p in fork_server.children()}
            serving()[0].kill()
            replacement = await eventually(lambda b=before: forked_anew(b), "the worker that replaces the dead one")
            replacement.suspend()
            if not listening(replacement.pid):
                break
            replacement.resume()
        else:
            raise AssertionError(f"no replacement worker was caught before it served, in {ATTEMPTS} tries")
        served.terminate()
        await eventually(lambda: told_to_stop(replacement), "the front telling the new worker to stop")
        replacement.resume()
        assert served.wait(timeout=60) == 0
        assert litter(db) == (0, 0)
        assert owned(db) == 0
        served, port = forked.serve(args, tmp_path / "server.log")
        await back(port, tables)
    finally:
        if replacement is not None and replacement.is_running():
            replacement.resume()
        served.kill()


@pytest.mark.postgresql
@pytest.mark.xdist_group("postgresql")
async def test_a_clean_stop_on_postgresql_leaves_no_owner_row(pg_url: str, tmp_path: Path) -> None:
    import psycopg

    args = ["--port", "0", "--db", pg_url, *SERVE, "--workers", str(WORKERS)]
    served, port = forked.serve(args, tmp_path / "server.log")

    def rows(sql: str) -> int:
        with psycopg.connect(pg_url) as conn:
            found = conn.execute(sql).fetchone()
            assert found is not None
            return int(found[0])

    try:
        tables = await make_tables(port)
        assert rows("SELECT count(*) FROM owners") == 1 + WORKERS
        served.terminate()
        assert served.wait(timeout=60) == 0
        assert rows("SELECT count(*) FROM owners") == 0
        assert rows("SELECT count(*) FROM tables WHERE owner IS NOT NULL") == 0
        served, port = forked.serve(args, tmp_path / "server.log")
        await back(port, tables)
    finally:
        served.kill()


@pytest.mark.xdist_group("owner-litter")
async def test_kills_leave_no_owner_files_or_rows_behind(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    args = ["--port", "0", "--db", str(db), *SERVE, "--workers", str(WORKERS)]
    live = 1 + WORKERS
    served, port = forked.serve(args, tmp_path / "server.log")
    try:
        maker = Connection.open(f"127.0.0.1:{port}")
        try:
            for _ in range(3):  # tables, so that each start takes some over too
                await maker.create(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=2, bot_levels=["easy"]))
        finally:
            await maker.close()
        for _ in range(KILLS):
            served.kill()
            served.wait(timeout=30)
            served, port = forked.serve(args, tmp_path / "server.log")
            await eventually(lambda: litter(db) == (live, live), f"one lock file and one row per live process ({live})")
        served.terminate()
        assert served.wait(timeout=60) == 0
        assert litter(db) == (0, 0)  # the front's and its workers': their tables handed to nobody
    finally:
        served.kill()
        await asyncio.sleep(0)
