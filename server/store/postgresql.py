"""The store on PostgreSQL: what several hosts share (``cardtui serve --db postgresql://…``).

The parts and their SQL are ``sqlite.Store``'s; this module says only what PostgreSQL says
otherwise, in a part of its own where a part's SQL differs (``PgHands``, ``PgIdentity``,
``PgOwners``): its placeholders and types, JSON read with its own functions, and the two locks
that make one database safe for many processes. An owner's lock is a session-level advisory
lock (``pg_advisory_lock``): it lives exactly as long as the owner's connection, so a host that
dies, or loses the database, frees it at once. A table's fence is its row, locked (``FOR
UPDATE``) for the length of each write: a process taking the table over waits for a write in
flight, and the writer that lost the table finds the epoch moved.

psycopg (3), not asyncpg: the store is called synchronously from the table actor, which
journals a change before it sends it (``server.table``), as it does with SQLite; psycopg's
blocking calls keep that order as it is, where asyncpg would make every write a coroutine.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from cardtui.server.store import schema
from cardtui.server.store.base import Link, StoreDown, log
from cardtui.server.store.hands import Hands
from cardtui.server.store.identity import Identity
from cardtui.server.store.meta import Meta
from cardtui.server.store.owners import Owners, _owner_key
from cardtui.server.store.ratings import Ratings
from cardtui.server.store.sqlite import Store
from cardtui.server.store.tables import Tables
from cardtui.server.store.tournaments import Tournaments

try:
    import psycopg
    from psycopg.pq import TransactionStatus
except ImportError:  # pragma: no cover - said in a sentence by ``connect``
    psycopg = None  # type: ignore[assignment]

SCHEMA_LOCK = 0x63617264
"""The advisory lock two hosts starting at once take to create the schema one after the other."""


def _dialect(schema: str) -> str:
    """The SQLite schema as PostgreSQL types it (names keep a column that orders them)."""
    out = schema.replace(" REAL", " DOUBLE PRECISION").replace(" BLOB", " BYTEA").replace(" INTEGER", " BIGINT")
    return out.replace("CREATE TABLE IF NOT EXISTS names (\n", "CREATE TABLE IF NOT EXISTS names (\n    n BIGSERIAL,\n")


class _Cursor:
    """A finished statement's rows, as ``sqlite3.Cursor`` gives them."""

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._rows

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self._rows)


class Connection:
    """A psycopg connection that reads the store's SQL as written for SQLite (``?`` placeholders).

    A connection that breaks (the database restarted, the network dropped) is opened again at the
    next statement, and ``reconnected`` is told (the session's locks went with the old one). A
    statement outside a transaction is then sent again; one inside a transaction cannot be, and
    raises ``StoreDown``, as does a database that cannot be reached at all."""

    def __init__(self, url: str, reconnected: Callable[[], None] | None = None) -> None:
        if psycopg is None:
            raise OSError("A PostgreSQL store needs psycopg: pip install 'psycopg[binary]' (or cardtui[postgresql]).")
        self.url = url
        self.reconnected = reconnected
        try:
            self.raw = self._connect()
        except psycopg.Error as e:
            raise OSError(f"The PostgreSQL store cannot be opened: {str(e).strip()}") from None
        self._sql: dict[str, str] = {}
        self._open = False
        """A transaction this connection began is open."""

    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=10)

    def _revive(self) -> None:
        try:
            self.raw = self._connect()
        except psycopg.Error as e:
            raise StoreDown(f"the PostgreSQL store cannot be reached: {str(e).strip()}") from None
        if self.reconnected is not None:
            self.reconnected()

    def _gone(self) -> bool:
        return bool(self.raw.closed or self.raw.broken)

    def _convert(self, sql: str) -> str:
        done = self._sql.get(sql)
        if done is None:
            done = self._sql[sql] = sql.replace("%", "%%").replace("?", "%s")
        return done

    def execute(self, sql: str, args: Sequence[Any] | dict[str, Any] = ()) -> _Cursor:
        word = sql[:8].upper()
        try:
            found = self._run(sql, args)
        except psycopg.OperationalError as e:
            if not self._gone():
                raise
            was_open, self._open = self._open, False
            self._revive()
            if word.startswith("ROLLBACK"):
                return _Cursor([], 0)  # the database rolled it back when the connection went
            if was_open:
                raise StoreDown(f"the connection to the PostgreSQL store was lost in a transaction ({e})") from None
            found = self._run(sql, args)
        if word.startswith("BEGIN"):
            self._open = True
        elif word.startswith(("COMMIT", "ROLLBACK")):
            self._open = False
        return found

    def _run(self, sql: str, args: Sequence[Any] | dict[str, Any]) -> _Cursor:
        with self.raw.cursor() as cur:
            cur.execute(self._convert(sql), args if args else None)
            rows = cur.fetchall() if cur.description is not None else []
            return _Cursor(rows, cur.rowcount)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        if self._gone():
            self.execute("SELECT 1")  # opens it again, outside any transaction, or says it cannot
        with self.raw.cursor() as cur:
            cur.executemany(self._convert(sql), list(rows))

    def executescript(self, script: str) -> None:
        self.raw.execute(script.encode())

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != TransactionStatus.IDLE

    def close(self) -> None:
        self.raw.close()


class PgLink(Link):
    """A transaction on PostgreSQL begins plainly (``BEGIN IMMEDIATE`` is SQLite's)."""

    BEGIN = "BEGIN"


class PgHands(Hands):
    """Hand histories, their JSON read with PostgreSQL's functions."""

    _TOURNAMENT_OF = "(t.config::jsonb -> 'tournament' ->> 'id')"

    def _holders(self, table_id: str) -> Iterable[tuple[Any, Any]]:
        out: list[tuple[Any, Any]] = []
        for (record,) in self.db.execute("SELECT record FROM hands WHERE table_id = ? ORDER BY hand", (table_id,)):
            hand = json.loads(record)
            for entry in [*hand.get("seats", ()), *(hand.get("holders") or ())]:
                bot = entry.get("bot")
                out.append((entry.get("name"), bot if isinstance(bot, str) else None))
        return out


class PgIdentity(Identity):
    """Names in the order they were written: a column of their own (PostgreSQL has no rowid)."""

    _ROWID = "n"


class PgOwners(Owners):
    """Owners whose locks are the session's advisory locks, and whose every write is fenced."""

    FENCES = True
    _FENCE = "SELECT epoch, owner FROM tables WHERE id = ? FOR UPDATE"
    _SAME = "IS NOT DISTINCT FROM"

    def __init__(self, link: Link, path: str) -> None:
        super().__init__(link, path, shared=True)
        self._roles: set[str] = set()
        """The roles this process has in the room (``lead``): their locks are taken again with a new session."""

    def reconnected(self) -> None:
        """A new session: the locks the old one held are gone. This process's own is taken again
        (after any process that found it free has finished taking its tables: those tables are
        fenced from this process now), and its row is put back if that process removed it."""
        self._owner_locks.clear()
        for role in self._roles:
            if not self.db.execute("SELECT pg_try_advisory_lock(?)", (_owner_key(f"lead:{role}"),)).fetchone()[0]:
                log.error("another host took the %s while this one's session was away: two may run them now; "
                          "restart this host", role)
        if self.me:
            self._lock_owner(self.me)
            self.db.execute("INSERT INTO owners (id, address, started) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                            (self.me, self.address, time.time()))

    def _lock_owner(self, owner_id: str, wait: bool = True) -> bool:
        """An owner's lock: a session advisory lock, freed when its connection ends however it ends."""
        key = _owner_key(owner_id)
        if wait:
            self.db.execute("SELECT pg_advisory_lock(?)", (key,))
        elif not self.db.execute("SELECT pg_try_advisory_lock(?)", (key,)).fetchone()[0]:
            return False
        self._owner_locks[owner_id] = None  # type: ignore[assignment]
        return True

    def lead(self, role: str) -> bool:
        """One host at a time: a session advisory lock named for the role, held while it lives."""
        if not self.db.execute("SELECT pg_try_advisory_lock(?)", (_owner_key(f"lead:{role}"),)).fetchone()[0]:
            return False
        self._roles.add(role)
        return True

    def _unlock_owner(self, owner_id: str, forget: bool) -> None:
        if owner_id in self._owner_locks:
            del self._owner_locks[owner_id]
            self.db.execute("SELECT pg_advisory_unlock(?)", (_owner_key(owner_id),))

    def _clear_files(self, registered: set[str]) -> int:
        return 0  # an owner's lock is its session's: no file is left behind

    def close(self) -> None:
        self._owner_locks.clear()


class PostgresStore(Store):
    """The store in a PostgreSQL database that every host of one card room shares: other hosts drive
    tables from it, so every write of a table is fenced (``owners.shared``)."""

    owners: PgOwners

    def __init__(self, url: str) -> None:
        self.path = _shown(url)
        self.db = Connection(url, self._reconnected)  # type: ignore[assignment]
        self.link = PgLink(self.db)
        self.owners = PgOwners(self.link, self.path)
        self.hands = PgHands(self.link)
        self.tables = Tables(self.link, self.owners, self.hands)
        self.identity = PgIdentity(self.link)
        self.ratings = Ratings(self.link)
        self.tournaments = Tournaments(self.link)
        self.meta = Meta(self.link)
        try:
            self._open()
        except psycopg.Error as e:
            self.db.close()
            raise OSError(unusable(self.path, e)) from None

    def _reconnected(self) -> None:
        """A new session: the owners' locks are taken again (``PgOwners.reconnected``)."""
        self.owners.reconnected()

    def _open(self) -> None:
        """The schema, created by one host at a time; the sessions that have expired forgotten."""
        with self.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
            self.db.executescript(_dialect(schema.SCHEMA))
            for column, kind in (("owner", "TEXT"), ("epoch", "BIGINT NOT NULL DEFAULT 0")):
                self.db.execute(f"ALTER TABLE tables ADD COLUMN IF NOT EXISTS {column} {kind}")
            for column, kind in schema.SEAT_COLUMNS:
                self.db.execute(f"ALTER TABLE seats ADD COLUMN IF NOT EXISTS {column} {_dialect(' ' + kind).strip()}")
            self.db.execute(schema.OWNER_INDEX)
        schema.refresh_looks(self.link)
        schema.forget_sessions(self.link)

    def close(self) -> None:
        with contextlib.suppress(StoreDown, psycopg.Error):  # a store away: the next start forgets this owner
            self.owners.retire()
        self.owners.close()
        self.db.close()


RIGHTS = ("The role needs to own the database (createdb -O ROLE DB), or at least USAGE and CREATE on its schema and "
          "ownership of the store's tables: see cardtui db init.")
"""What a role needs to serve from a database: the schema is brought up to date at each start."""


def unusable(shown: str, error: BaseException) -> str:
    """The sentence for a database the store cannot use (the role's rights, most often), and what it needs."""
    said = " ".join(str(error).split()).rstrip(".")
    return f"The PostgreSQL store {shown} cannot be used: {said}. {RIGHTS}"


def _shown(url: str) -> str:
    """The database's address as the log may show it: without its password."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)
