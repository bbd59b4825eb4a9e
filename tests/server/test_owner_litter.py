"""A server killed -9 again and again leaves no litter: the owners' lock files beside the store (``*.db.owner-*``)
and the owners' rows come back to one per live process (the front and its table workers) once the next start has
swept, and a graceful stop takes its own away."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from cardtui.client.connection import Connection
from cardtui.v1 import lobby_pb2
from tests import forked
from tests.arrangements import SERVE, eventually

WORKERS = 2
KILLS = 4


def litter(db: Path) -> tuple[int, int]:
    """The owners' lock files beside the store, and the owners' rows in it."""
    files = len(list(db.parent.glob(f"{db.name}.owner-*")))
    with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as store:
        rows = int(store.execute("SELECT count(*) FROM owners").fetchone()[0])
    return files, rows


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
        # the front drove no table: its own row and file went with it; the workers' stay with their tables
        files, rows = litter(db)
        assert files == rows == WORKERS
    finally:
        served.kill()
        await asyncio.sleep(0)
