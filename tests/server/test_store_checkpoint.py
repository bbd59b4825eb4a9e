"""The write-ahead log moved into the store's file off the event loop (``server.store.sqlite.Checkpointer``).

A commit on the serving connection never checkpoints (SQLite would, inside the commit that takes the log
past a thousand pages: tens of milliseconds of the event loop); the store's own thread does, and what it
copied is in the file alone, read without the log beside it."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from cardtui.server.store.sqlite import Store
from tests.waiting import eventually

ROWS = 3000
"""Rows of 1 KB: some 750 pages of the log, more than one commit's worth of pages in any table's change."""


def rows_in_the_file_alone(store: Path, into: Path) -> int:
    """The rows the store's file holds without its log: a copy of the file alone, read."""
    shutil.copyfile(store, into)
    db = sqlite3.connect(into)
    try:
        return int(db.execute("SELECT count(*) FROM t").fetchone()[0])
    except sqlite3.DatabaseError:  # the table still in the log only, or a copy taken as the thread wrote pages
        return 0
    finally:
        db.close()


async def test_the_log_reaches_the_file_on_the_checkpointers_thread(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    store = Store(path)
    try:
        assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0, "commits leave it to the thread"
        assert store.checkpointer is not None and store.checkpointer.thread.is_alive()
        with store.transaction():
            store.db.execute("CREATE TABLE t (x BLOB)")
            store.db.executemany("INSERT INTO t VALUES (?)", [(bytes(1024),)] * ROWS)
        assert Path(f"{path}-wal").stat().st_size > 1024 * ROWS, "the commit wrote the log, and only the log"
        await eventually(lambda: rows_in_the_file_alone(path, tmp_path / "copy.db") == ROWS,
                         "the rows in the store's file")
    finally:
        store.close()
    assert not store.checkpointer.thread.is_alive(), "closed with its store"


def test_a_store_in_memory_or_read_only_has_no_checkpointer(tmp_path: Path) -> None:
    memory = Store(":memory:")
    assert memory.checkpointer is None
    memory.close()
    Store(tmp_path / "store.db").close()
    reader = Store(tmp_path / "store.db", read_only=True)
    assert reader.checkpointer is None
    reader.close()
