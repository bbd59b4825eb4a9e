"""Where tables and hand histories are kept: one small interface, SQLite underneath.

The interface is what the rest of the server uses, so a server-grade database can
replace SQLite by configuration when one host is no longer enough.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from engine.history import dumps

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL,
    hand INTEGER NOT NULL,
    game TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, hand)
);
"""


class Store:
    """Tables and hand histories in one SQLite file (``:memory:`` for a throwaway)."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    def add_table(self, table_id: str, game: str, name: str, config: Mapping[str, Any]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO tables (id, game, name, config, created) VALUES (?, ?, ?, ?, ?)",
            (table_id, game, name, json.dumps(dict(config)), time.time()),
        )

    def add_hand(self, table_id: str, record: Mapping[str, Any]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO hands (table_id, hand, game, record) VALUES (?, ?, ?, ?)",
            (table_id, int(record["hand"]), str(record["game"]), dumps(record)),
        )

    def hands(self, table_id: str | None = None) -> Iterator[str]:
        """Stored hand histories as JSON Lines lines, oldest table first, hands in order."""
        query = "SELECT h.record FROM hands h JOIN tables t ON t.id = h.table_id"
        args: tuple[str, ...] = ()
        if table_id is not None:
            query += " WHERE h.table_id = ?"
            args = (table_id,)
        query += " ORDER BY t.created, h.table_id, h.hand"
        for (record,) in self.db.execute(query, args):
            yield record

    def count_hands(self, table_id: str | None = None) -> int:
        if table_id is None:
            return int(self.db.execute("SELECT count(*) FROM hands").fetchone()[0])
        return int(self.db.execute("SELECT count(*) FROM hands WHERE table_id = ?", (table_id,)).fetchone()[0])
