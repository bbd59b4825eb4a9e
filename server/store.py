"""Where tables and hand histories are kept: one small interface, SQLite underneath.

The interface is what the rest of the server uses, so a server-grade database can
replace SQLite by configuration when one host is no longer enough.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from cardtui.engine.history import dumps

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    created REAL NOT NULL,
    seq INTEGER NOT NULL DEFAULT 0,
    finished REAL,
    damaged TEXT
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
    finished: bool
    """The table has closed for good: its hands are kept, nobody plays there."""


def _hold(lock: Path) -> IO[str]:
    """Take the store's lock file, or say who holds it."""
    handle = open(lock, "a+", encoding="utf-8")  # noqa: SIM115 - held open while the store is
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise StoreInUse(
            f"The store {str(lock)[:-5]} is in use by another cardtui server ({holder}); "
            "stop it first, or give this one another --db."
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()}")
    handle.flush()
    return handle


class StoreInUse(OSError):
    """Another server holds this store: two servers on one store would play the same tables twice."""


class Store:
    """Tables and hand histories in one SQLite file (``:memory:`` for a throwaway).

    One server at a time: a lock file beside the store is held while it is open.
    """

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        """Open (or create) the store; ``read_only`` reads beside a running server, taking no lock."""
        self._lock: IO[str] | None = None
        self.path = str(path)
        if read_only:
            self.db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
            return
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._lock = _hold(Path(f"{path}.lock"))
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        for column, kind in (("seq", "INTEGER NOT NULL DEFAULT 0"), ("finished", "REAL"), ("damaged", "TEXT")):
            if column not in columns:  # a store from an earlier version
                self.db.execute(f"ALTER TABLE tables ADD COLUMN {column} {kind}")

    def close(self) -> None:
        self.db.close()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

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

    def finish(self, table_id: str) -> None:
        """A table closes for good: what a restart would need to bring it back goes, its hands stay."""
        self.db.execute("UPDATE tables SET finished = ? WHERE id = ?", (time.time(), table_id))
        self.db.execute("DELETE FROM log WHERE table_id = ?", (table_id,))
        self.db.execute("DELETE FROM tokens WHERE table_id = ?", (table_id,))

    def set_aside(self, table_id: str, reason: str) -> None:
        """A table that cannot be brought back is kept as damaged, out of the way, for a person to look at."""
        self.db.execute("UPDATE tables SET damaged = ? WHERE id = ?", (reason[:500], table_id))

    def trim_log(self, table_id: str, before: int) -> None:
        """A new match makes the old one's steps unnecessary for a restart."""
        self.db.execute("DELETE FROM log WHERE table_id = ? AND n < ?", (table_id, before))

    def saved_tables(self) -> list[SavedTable]:
        out = []
        rows = self.db.execute(
            "SELECT id, game, name, config, seq, finished FROM tables WHERE damaged IS NULL ORDER BY created"
        ).fetchall()
        for table_id, game, name, config, seq, finished in rows:
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
                    finished=finished is not None,
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

    def hand(self, table_id: str, hand: int) -> str | None:
        """One stored hand history (a JSON Lines line), or None."""
        row = self.db.execute(
            "SELECT record FROM hands WHERE table_id = ? AND hand = ?", (table_id, hand)
        ).fetchone()
        return None if row is None else str(row[0])

    def last_hands(self, table_id: str, limit: int) -> list[str]:
        """A table's last ``limit`` hand histories, oldest first."""
        rows = self.db.execute(
            "SELECT record FROM hands WHERE table_id = ? ORDER BY hand DESC LIMIT ?", (table_id, limit)
        ).fetchall()
        return [str(r[0]) for r in reversed(rows)]

    def table_config(self, table_id: str) -> tuple[dict[str, Any], bool] | None:
        """A stored table's configuration, and whether it has finished; None if unknown."""
        row = self.db.execute("SELECT config, finished FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else (json.loads(row[0]), row[1] is not None)

    def count_hands(self, table_id: str | None = None) -> int:
        if table_id is None:
            return int(self.db.execute("SELECT count(*) FROM hands").fetchone()[0])
        return int(self.db.execute("SELECT count(*) FROM hands WHERE table_id = ?", (table_id,)).fetchone()[0])
