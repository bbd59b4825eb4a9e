"""Where tables and hand histories are kept: one small interface, SQLite underneath.

The interface is what the rest of the server uses, so a server-grade database can
replace SQLite by configuration when one host is no longer enough.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtui.engine.history import dumps

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    created REAL NOT NULL,
    seq INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    bot INTEGER NOT NULL,
    away INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS tokens (
    token TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER,
    data TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL,
    hand INTEGER NOT NULL,
    game TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, hand)
);
"""


@dataclass(frozen=True, slots=True)
class SavedTable:
    """Everything stored about one table: enough to bring it back after a crash."""

    id: str
    game: str
    name: str
    config: dict[str, Any]
    seats: list[tuple[int, str, bool, bool]]
    log: list[tuple[int, str, int | None, dict[str, Any], int]]
    tokens: list[tuple[str, int | None, str]]
    hands: int
    seq: int
    """The last event number the table handed out."""


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
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        if "seq" not in columns:  # a store from before event numbers were kept
            self.db.execute("ALTER TABLE tables ADD COLUMN seq INTEGER NOT NULL DEFAULT 0")

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

    # -- what a restart needs: seats, tokens, and each table's log of seeds and actions --
    def save_seats(self, table_id: str, seats: list[tuple[int, str, bool, bool]]) -> None:
        self.db.executemany(
            "INSERT OR REPLACE INTO seats (table_id, seat, name, bot, away) VALUES (?, ?, ?, ?, ?)",
            [(table_id, seat, name, int(bot), int(away)) for seat, name, bot, away in seats],
        )

    def add_token(self, token: str, table_id: str, seat: int | None, name: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO tokens (token, table_id, seat, name) VALUES (?, ?, ?, ?)",
            (token, table_id, seat, name),
        )

    def drop_token(self, token: str) -> None:
        self.db.execute("DELETE FROM tokens WHERE token = ?", (token,))

    def log(self, table_id: str, n: int, kind: str, seat: int | None, data: Mapping[str, Any], seq: int) -> None:
        """One step of a table's match: ``start``/``next`` with a seed, or ``act``."""
        self.db.execute(
            "INSERT OR REPLACE INTO log (table_id, n, kind, seat, data, seq) VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, n, kind, seat, json.dumps(dict(data), separators=(",", ":")), seq),
        )

    def mark(self, table_id: str, seq: int) -> None:
        """The last event number a table handed out, so a restart never hands it out again."""
        self.db.execute("UPDATE tables SET seq = ? WHERE id = ?", (seq, table_id))

    def trim_log(self, table_id: str, before: int) -> None:
        """A new match makes the old one's steps unnecessary for a restart."""
        self.db.execute("DELETE FROM log WHERE table_id = ? AND n < ?", (table_id, before))

    def saved_tables(self) -> list[SavedTable]:
        out = []
        rows = self.db.execute("SELECT id, game, name, config, seq FROM tables ORDER BY created").fetchall()
        for table_id, game, name, config, seq in rows:
            seats = self.db.execute(
                "SELECT seat, name, bot, away FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
            ).fetchall()
            log = self.db.execute(
                "SELECT n, kind, seat, data, seq FROM log WHERE table_id = ? ORDER BY n", (table_id,)
            ).fetchall()
            tokens = self.db.execute(
                "SELECT token, seat, name FROM tokens WHERE table_id = ?", (table_id,)
            ).fetchall()
            out.append(
                SavedTable(
                    id=table_id, game=game, name=name, config=json.loads(config),
                    seats=[(int(s), str(n), bool(b), bool(a)) for s, n, b, a in seats],
                    log=[(int(n), str(k), None if s is None else int(s), json.loads(d), int(q))
                         for n, k, s, d, q in log],
                    tokens=[(str(t), None if s is None else int(s), str(n)) for t, s, n in tokens],
                    hands=self.count_hands(table_id),
                    seq=int(seq),
                )
            )
        return out

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
