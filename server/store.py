"""Where tables and hand histories are kept: one small interface, two backends.

``Store`` is the interface the rest of the server uses, written in the SQL both backends
share, on SQLite: the embedded default, one file beside the host. ``store_pg.PostgresStore``
is the same interface on PostgreSQL (``--db postgresql://…``), for several hosts sharing one
lobby; it overrides only what the two dialects say differently. ``open_store`` picks one.

Several processes may drive tables from one store (``serve --workers``, or several hosts on
PostgreSQL). Each is an *owner*: it registers (``register``) and holds a lock that lives as
long as it does (a lock file's ``flock`` on SQLite, a session's advisory lock on PostgreSQL),
so that its death frees the lock however it dies. A table names its owner and an *epoch*; a
process takes a dead owner's table (``claim``) by raising the epoch, and every write a table's
owner makes is fenced by its epoch (``fence``): a process that lost a table can never write to
it again, whatever it still believes.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import secrets
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from cardtui.engine.history import dumps
from cardtui.server import passwords
from cardtui.server.names import key_of, stored_name

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    config TEXT NOT NULL,
    created REAL NOT NULL,
    seq INTEGER NOT NULL DEFAULT 0,
    finished REAL,
    damaged TEXT,
    played TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    bot INTEGER NOT NULL,
    away INTEGER NOT NULL,
    open INTEGER NOT NULL DEFAULT 0,
    pledge TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS tokens (
    digest TEXT PRIMARY KEY,
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
CREATE TABLE IF NOT EXISTS sent (
    table_id TEXT NOT NULL,
    slot INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    audience INTEGER NOT NULL,
    holders TEXT NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (table_id, slot)
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL,
    hand INTEGER NOT NULL,
    game TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, hand)
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    public_key BLOB,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    digest TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seat_players (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS records (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    matches INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    hands INTEGER NOT NULL DEFAULT 0,
    biggest_pot INTEGER NOT NULL DEFAULT 0,
    truco_calls_won INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player, game)
);
"""

_NAMES = """
CREATE TABLE IF NOT EXISTS names (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    player TEXT NOT NULL
);
"""
"""Each name a key owns, by its comparison key (PRECIS)."""
_LOOKS = """
CREATE TABLE IF NOT EXISTS name_looks (
    looks TEXT NOT NULL,
    key TEXT NOT NULL,
    PRIMARY KEY (looks, key)
);
"""
"""What each owned name looks like: the UTS #39 skeletons of its case forms (``names.looks_of``),
one row each, so a name that looks like an owned one is found by any of its own."""
_ANALYSES = """
CREATE TABLE IF NOT EXISTS analyses (
    table_id TEXT NOT NULL,
    hand INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    analysis TEXT NOT NULL,
    PRIMARY KEY (table_id, hand, seat)
);
"""
"""Each finished hand's analysis, one seat's decisions a row (``engine.analysis.to_json``): a hand is
analysed once, and each seat's kept apart, as it is shown."""
_SCHEMA += _NAMES + _LOOKS + _ANALYSES + "CREATE INDEX IF NOT EXISTS players_key ON players (public_key);\n"
_SCHEMA += """
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    created REAL NOT NULL
);
"""
"""Each tournament whole (entries, rounds, tables, results) as one JSON document, rewritten at each change."""
_SCHEMA += """
CREATE TABLE IF NOT EXISTS owners (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    started REAL NOT NULL
);
"""
"""The processes that drive tables from this store, each with the address its tables are served at
(``:PORT`` for the host a client reached the lobby at). A row outlives its process until another
finds its lock free and takes its tables."""
_TABLE_COLUMNS = (("seq", "INTEGER NOT NULL DEFAULT 0"), ("finished", "REAL"), ("damaged", "TEXT"),
                  ("played", "TEXT"), ("owner", "TEXT"), ("epoch", "INTEGER NOT NULL DEFAULT 0"))
"""Columns of ``tables`` later than its first version (``owner``: the process driving it; ``epoch``:
raised each time a process takes it over)."""
_OWNER_INDEX = "CREATE INDEX IF NOT EXISTS tables_owner ON tables (owner)"
_SEAT_COLUMNS = (("open", "INTEGER NOT NULL DEFAULT 0"), ("pledge", "TEXT NOT NULL DEFAULT ''"))
"""Columns of ``seats`` later than its first version (``pledge``: what the seat's next link must follow, in hex)."""

PRIVATE = 0o600
"""The store's files: the owner's alone (it holds the live hands' server seeds)."""
FOLDER_MODE = 0o700
SUFFIXES = ("", "-wal", "-shm", "-journal", ".lock")
"""The store and the files SQLite and the lock keep beside it."""

log = logging.getLogger("cardtui.store")


def token_digest(token: str) -> str:
    """What the store (and the room) keep of a seat, spectator or owner token: its SHA-256.

    Tokens are 192 random bits, so a plain hash is as good as a slow one: nobody can guess a
    token from its digest, and a copy of the store acts for no seat.
    """
    return hashlib.sha256(token.encode()).hexdigest()


def _files(path: str | Path) -> list[Path]:
    return [f for f in (Path(f"{path}{suffix}") for suffix in SUFFIXES) if f.exists()]


def _tighten(path: Path, mode: int) -> None:
    """``path`` readable by its owner only; the log says so when it was not."""
    was = path.stat().st_mode & 0o777
    if was & 0o077:
        path.chmod(mode)
        log.warning("%s could be read by other users of this machine (mode %03o); it is now %03o", path, was, mode)


SESSION_DAYS = 90
"""Sessions older than this are forgotten when the store opens: the client proves its key again."""


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """A seat as a restart finds it (``server.seating.Seat`` holds what each field means)."""

    seat: int
    name: str
    bot: bool
    away: bool
    open: bool = False
    pledge: bytes | None = None


@dataclass(frozen=True, slots=True)
class Played:
    """Who played a table's hands, each once, in the order they first did: the people by name,
    the bots by level (a bot's own seat, or one standing in for a person away or gone)."""

    people: tuple[str, ...]
    bots: tuple[str, ...]


Kept = tuple[int, int, tuple[str | None, ...], bytes]
"""An event as a table's stream sends it, kept for a restart: its number, its audience, the digests of
the tokens holding each seat when it happened (None: a bot or nobody) and its body's bytes
(``server.fanout.Numbered``)."""


@dataclass(frozen=True, slots=True)
class SavedTable:
    """Everything stored about one table: enough to bring it back after a crash."""

    id: str
    game: str
    name: str
    config: dict[str, Any]
    seats: list[SavedSeat]
    log: list[tuple[int, str, int | None, dict[str, Any], int]]
    tokens: list[tuple[str, int | None, str]]
    """The digests of the table's seat and spectator tokens, with their seat (None: watching) and name."""
    hands: int
    seq: int
    """The last event number the table handed out."""
    finished: bool
    """The table has closed for good: its hands are kept, nobody plays there."""
    players: dict[int, str] = field(default_factory=dict)
    """The remembered player at each seat that has one (seat -> player id)."""
    sent: list[Kept] = field(default_factory=list)
    """The table's latest events as its streams were sent them (``Store.keep_sent``), oldest first."""


@dataclass(frozen=True, slots=True)
class Player:
    """Someone the server remembers: a person (by public key) or a bot level."""

    id: str
    name: str
    public_key: bytes | None
    """A person's raw Ed25519 public key; None for a bot level."""
    created: float


@dataclass(slots=True)
class Record:
    """One player's standing at one game on this server."""

    player: str
    game: str
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    hands: int = 0
    biggest_pot: int = 0
    truco_calls_won: int = 0


def _old_password(document: str, *within: str) -> bool:
    """Whether a stored table's config (or a tournament's settings) keeps its password as an
    earlier version did: an unsalted SHA-256."""
    try:
        found: Any = json.loads(document)
        for key in within:
            found = found[key]
        return passwords.is_old(str(found["password"]))
    except (ValueError, KeyError, TypeError):
        return False


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


class StoreDown(Exception):
    """The store cannot be reached just now (a database server gone away): nothing was written."""


class Fenced(Exception):
    """This process no longer drives the table: another took it over (a higher epoch), so it may
    write nothing more about it."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is driven by another process now")
        self.table_id = table_id


@dataclass(frozen=True, slots=True)
class Owner:
    """A process that drives tables from this store, and where its tables are served."""

    id: str
    address: str


@dataclass(frozen=True, slots=True)
class Place:
    """Where a table stands in the store: its owner (None: nobody yet), the owner's address, the
    epoch of its ownership, whether it has finished, and whether it is a tournament's."""

    table_id: str
    owner: str | None
    address: str
    epoch: int
    finished: bool
    tournament: bool


def _owner_key(owner_id: str) -> int:
    """An owner's lock as PostgreSQL's advisory locks name them: a signed 64-bit number."""
    return int.from_bytes(hashlib.sha256(f"cardtui-owner:{owner_id}".encode()).digest()[:8], "big", signed=True)


class Store:
    """Tables and hand histories in one SQLite file (``:memory:`` for a throwaway).

    One server at a time: a lock file beside the store is held while it is open. The processes
    of that server (``serve --workers``) open it ``shared``, under the server's lock.
    """

    BUSY_MS = 10_000
    """How long a write waits for another process of the server to finish its own (``shared``)."""
    FENCES = False
    """Whether a table's writes must be fenced by its epoch (``fence``). Not on SQLite: its processes
    share one host, where an owner's lock is its process's (a ``flock`` the kernel holds for exactly
    as long as the process lives), so a process that lost its lock is gone and writes nothing more.
    On PostgreSQL a host can lose its session, and its lock with it, and live on: there each write is
    fenced."""

    def __init__(self, path: str | Path, read_only: bool = False, own_folder: bool = False,
                 shared: bool = False) -> None:
        """Open (or create) the store; ``read_only`` reads beside a running server, taking no lock.

        The store is its owner's alone (``PRIVATE``): created so, and tightened if an older
        server left it readable by others. Its folder is made private when the store creates it,
        or when it is the store's ``own_folder`` (the default one); a folder named with ``--db``
        that already exists is left as its owner set it.

        ``shared``: other processes drive tables from this store too. A worker of a server opens it
        so beside the server's process, which holds the lock and brought the store up to date; the
        server's process says so too, once it starts workers. Then every write of a table is fenced.
        """
        self._lock: IO[str] | None = None
        self.path = str(path)
        self.shared = shared
        self.me = ""
        """This process's id as an owner of tables (``register``); empty until it registers."""
        self.address = ""
        """Where this process's tables are served, as it registered."""
        self._owner_locks: dict[str, IO[str]] = {}
        """The owner locks this process holds: its own, and a dead owner's while taking its tables."""
        if read_only:
            self.db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
            return
        if str(path) == ":memory:":
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._open()
            return
        folder = Path(path).parent
        made = not folder.exists()
        mask = os.umask(0o077)  # whatever is created below is the owner's alone
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if own_folder or made:
                _tighten(folder, FOLDER_MODE)
            for existing in _files(path):
                _tighten(existing, PRIVATE)
            if not shared:
                self._lock = _hold(Path(f"{path}.lock"))
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            if shared:  # the server's process holds the lock and has brought the store up to date
                self._settings()
            else:
                self._open()
        finally:
            os.umask(mask)
        for created in _files(path):
            _tighten(created, PRIVATE)

    def _settings(self) -> None:
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(f"PRAGMA busy_timeout={self.BUSY_MS}")

    def _open(self) -> None:
        """Settings, schema, and what a store written by an earlier version needs to be current."""
        self._settings()
        self.db.executescript(_SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        for column, kind in _TABLE_COLUMNS:
            if column not in columns:  # a store from an earlier version
                self.db.execute(f"ALTER TABLE tables ADD COLUMN {column} {kind}")
        self.db.execute(_OWNER_INDEX)
        seat_columns = {row[1] for row in self.db.execute("PRAGMA table_info(seats)")}
        for column, kind in _SEAT_COLUMNS:
            if column not in seat_columns:
                self.db.execute(f"ALTER TABLE seats ADD COLUMN {column} {kind}")
        self._digest_tokens()
        self._salt_passwords()
        self._key_names()
        self.db.execute("DELETE FROM sessions WHERE created < ?", (time.time() - SESSION_DAYS * 86400,))

    def _digest_tokens(self) -> None:
        """A store written before tokens were kept as digests holds them in plain text: each becomes
        its digest in place, and the old bytes are overwritten (``secure_delete``) and the journal
        emptied, so no token is left anywhere in the files."""
        if "token" not in {row[1] for row in self.db.execute("PRAGMA table_info(tokens)")}:
            return
        self.db.create_function("cardtui_digest", 1, token_digest, deterministic=True)
        self.db.execute("PRAGMA secure_delete=ON")
        with self.transaction():
            self.db.execute("ALTER TABLE tokens RENAME COLUMN token TO digest")
            count = self.db.execute("UPDATE tokens SET digest = cardtui_digest(digest)").rowcount
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.execute("PRAGMA secure_delete=OFF")
        log.warning("store %s: %d seat and spectator tokens were kept in plain text; now only their digests are",
                    self.path, count)

    def _salt_passwords(self) -> None:
        """A store written before passwords were salted keeps each table's and tournament's as an
        unsalted SHA-256: each becomes the scrypt of that digest in place (``passwords.upgraded``;
        scrypt is given the same digest of the password the people type, so they type nothing
        again), the old bytes overwritten and the journal emptied, as ``_digest_tokens`` does."""
        # A password of 64 characters (LIKE's _ is any one), with or without a space after its
        # colon: the rows worth reading; json then decides.
        like = [f'%"password":{space}"{"_" * 64}"%' for space in ("", " ")]
        tables = [(table_id, config) for table_id, config in self.db.execute(
            "SELECT id, config FROM tables WHERE config LIKE ? OR config LIKE ?", like) if _old_password(config)]
        tournaments = [(tid, data) for tid, data in self.db.execute(
            "SELECT id, data FROM tournaments WHERE data LIKE ? OR data LIKE ?", like)
            if _old_password(data, "settings")]
        if not tables and not tournaments:
            return
        configs = [json.loads(config) for _, config in tables]
        datas = [json.loads(data) for _, data in tournaments]
        olds = [c["password"] for c in configs] + [d["settings"]["password"] for d in datas]
        with ThreadPoolExecutor() as pool:  # scrypt lets go of the GIL: every core takes a share
            salted = iter(list(pool.map(passwords.upgraded, olds)))
        for config in configs:
            config["password"] = next(salted)
        for data in datas:
            data["settings"]["password"] = next(salted)
        self.db.execute("PRAGMA secure_delete=ON")
        with self.transaction():
            self.db.executemany("UPDATE tables SET config = ? WHERE id = ?",
                                [(json.dumps(c), table_id) for c, (table_id, _) in zip(configs, tables, strict=True)])
            self.db.executemany("UPDATE tournaments SET data = ? WHERE id = ?",
                                [(json.dumps(d, separators=(",", ":")), tid)
                                 for d, (tid, _) in zip(datas, tournaments, strict=True)])
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.execute("PRAGMA secure_delete=OFF")
        log.warning("store %s: %d passwords were kept as unsalted SHA-256; now each is a salted scrypt", self.path,
                    len(olds))

    def _key_names(self) -> None:
        """Names compared by their PRECIS key and looked up by their UTS #39 skeletons
        (``cardtui.server.names``). A store that compared them case-folded is rewritten: two names
        that are now one keep the older owner (the other's player keeps their records, not the name).
        A store that kept one skeleton a name (of its lower case alone) loses that column. The
        skeletons are brought up to the installed confusables data on every open."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(names)")}
        if "folded" in columns:
            rows = self.db.execute("SELECT name, player FROM names ORDER BY rowid").fetchall()
            with self.transaction():
                self.db.execute("DROP TABLE names")
                self.db.execute(_NAMES)
                for name, player in rows:
                    key = key_of(str(name))
                    if self.owner(key) is not None:
                        log.warning("store %s: the name %r is spelled as one with an older owner's now; it stays "
                                    "theirs", self.path, str(name))
                        continue
                    self.db.execute("INSERT INTO names (key, name, player) VALUES (?, ?, ?)",
                                    (key, str(name), str(player)))
        elif "looks" in columns:
            with self.transaction():
                self.db.execute("DROP INDEX IF EXISTS names_looks")
                self.db.execute("ALTER TABLE names DROP COLUMN looks")
        wanted = {(looks, str(key)) for key, name in self.db.execute("SELECT key, name FROM names")
                  for looks in stored_name(str(name)).looks}
        if wanted != set(self.db.execute("SELECT looks, key FROM name_looks")):
            with self.transaction():
                self.db.execute("DELETE FROM name_looks")
                self.db.executemany("INSERT INTO name_looks (looks, key) VALUES (?, ?)", sorted(wanted))

    def ping(self) -> None:
        """Ask the store something: ``StoreDown`` if it cannot be reached."""
        self.db.execute("SELECT 1").fetchone()

    def close(self) -> None:
        self.db.close()
        for held in self._owner_locks.values():
            held.close()
        self._owner_locks.clear()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def add_table(self, table_id: str, game: str, name: str, config: Mapping[str, Any], epoch: int = 1) -> None:
        """A new table, driven by this process (``register``) from ``epoch`` on."""
        self.db.execute(
            "INSERT INTO tables (id, game, name, config, created, owner, epoch) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET game = excluded.game, name = excluded.name, config = excluded.config",
            (table_id, game, name, json.dumps(dict(config)), time.time(), self.me or None, epoch),
        )

    def add_hand(self, table_id: str, record: Mapping[str, Any]) -> None:
        self.db.execute(
            "INSERT INTO hands (table_id, hand, game, record) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (table_id, hand) DO UPDATE SET game = excluded.game, record = excluded.record",
            (table_id, int(record["hand"]), str(record["game"]), dumps(record)),
        )

    # -- what a restart needs: seats, tokens, and each table's log of seeds and actions --
    def save_seats(self, table_id: str, seats: list[SavedSeat]) -> None:
        self.db.executemany(
            "INSERT INTO seats (table_id, seat, name, bot, away, open, pledge) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, seat) DO UPDATE SET name = excluded.name, bot = excluded.bot, "
            "away = excluded.away, open = excluded.open, pledge = excluded.pledge",
            [(table_id, s.seat, s.name, int(s.bot), int(s.away), int(s.open), (s.pledge or b"").hex()) for s in seats],
        )

    def add_token(self, digest: str, table_id: str, seat: int | None, name: str) -> None:
        """A seat or spectator token, by its digest (``token_digest``): never the token itself."""
        self.db.execute(
            "INSERT INTO tokens (digest, table_id, seat, name) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (digest) DO UPDATE SET table_id = excluded.table_id, seat = excluded.seat, "
            "name = excluded.name",
            (digest, table_id, seat, name),
        )

    def drop_token(self, digest: str) -> None:
        self.db.execute("DELETE FROM tokens WHERE digest = ?", (digest,))

    def log(self, table_id: str, n: int, kind: str, seat: int | None, data: Mapping[str, Any], seq: int) -> None:
        """One step of a table's match: ``start``/``next`` with a seed, or ``act``."""
        self.db.execute(
            "INSERT INTO log (table_id, n, kind, seat, data, seq) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, n) DO UPDATE SET kind = excluded.kind, seat = excluded.seat, "
            "data = excluded.data, seq = excluded.seq",
            (table_id, n, kind, seat, json.dumps(dict(data), separators=(",", ":")), seq),
        )

    def keep_sent(self, table_id: str, events: Sequence[Kept], slots: int) -> None:
        """The events a table has just numbered, each in the slot its number gives among ``slots``
        (a ring: the latest ``slots`` events stay), so that a restart replays what a stream missed,
        even what a process that died had journaled and not yet sent."""
        self.db.executemany(
            "INSERT INTO sent (table_id, slot, seq, audience, holders, body) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, slot) DO UPDATE SET seq = excluded.seq, audience = excluded.audience, "
            "holders = excluded.holders, body = excluded.body",
            [(table_id, seq % slots, seq, mask, json.dumps(holders, separators=(",", ":")), body)
             for seq, mask, holders, body in events],
        )

    def sent(self, table_id: str) -> list[Kept]:
        """The events ``keep_sent`` kept for a table, oldest first."""
        rows = self.db.execute("SELECT seq, audience, holders, body FROM sent WHERE table_id = ? ORDER BY seq",
                               (table_id,)).fetchall()
        return [(int(seq), int(mask), tuple(json.loads(holders)), bytes(body)) for seq, mask, holders, body in rows]

    def mark(self, table_id: str, seq: int) -> None:
        """The last event number a table handed out, so a restart never hands it out again."""
        self.db.execute("UPDATE tables SET seq = ? WHERE id = ?", (seq, table_id))

    def finish(self, table_id: str) -> None:
        """A table closes for good: what a restart would need to bring it back goes, its hands stay."""
        self.db.execute("UPDATE tables SET finished = ? WHERE id = ?", (time.time(), table_id))
        self.db.execute("DELETE FROM log WHERE table_id = ?", (table_id,))
        self.db.execute("DELETE FROM sent WHERE table_id = ?", (table_id,))
        self.db.execute("DELETE FROM tokens WHERE table_id = ?", (table_id,))

    def played(self, table_id: str) -> Played:
        """Who played a table's hands (``Played``), from its hand histories; kept beside a finished
        table once worked out, so that listing finished tables reads one row each."""
        row = self.db.execute("SELECT played, finished FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is not None and row[0] is not None:
            kept = json.loads(row[0])
            return Played(tuple(kept[0]), tuple(kept[1]))
        holders = self._holders(table_id)
        people: dict[str, None] = {}  # dicts: each once, in the order they first played
        bots: dict[str, None] = {}
        for name, bot in holders:
            if bot:
                bots[str(bot)] = None
            elif name:
                people[str(name)] = None
        played = Played(tuple(people), tuple(bots))
        if row is not None and row[1] is not None:  # finished: nobody will play there again
            self.db.execute("UPDATE tables SET played = ? WHERE id = ?",
                            (json.dumps([played.people, played.bots]), table_id))
        return played

    def _holders(self, table_id: str) -> Iterable[tuple[Any, Any]]:
        """Who held each seat of a table's hands, in order: (name, bot level or a false value)."""
        return self.db.execute(
            "SELECT name, bot FROM ("
            " SELECT h.hand AS hand, 0 AS part, j.id AS at, json_extract(j.value, '$.name') AS name,"
            "  json_extract(j.value, '$.bot') AS bot FROM hands h, json_each(h.record, '$.seats') j"
            "  WHERE h.table_id = :t"
            " UNION ALL"
            " SELECT h.hand, 1, j.id, json_extract(j.value, '$.name'), json_extract(j.value, '$.bot')"
            "  FROM hands h, json_each(h.record, '$.holders') j WHERE h.table_id = :t"
            ") ORDER BY hand, part, at",  # each hand's seats at the deal, then its changes of hands
            {"t": table_id},
        )

    def set_aside(self, table_id: str, reason: str) -> None:
        """A table that cannot be brought back is kept as damaged, out of the way, for a person to look at."""
        self.db.execute("UPDATE tables SET damaged = ? WHERE id = ?", (reason[:500], table_id))

    def trim_log(self, table_id: str, before: int) -> None:
        """A new match makes the old one's steps unnecessary for a restart."""
        self.db.execute("DELETE FROM log WHERE table_id = ? AND n < ?", (table_id, before))

    def saved_tables(self, only: Iterable[str] | None = None) -> list[SavedTable]:
        """Every table that is not set aside as damaged, oldest first (``only``: these tables)."""
        out = []
        rows = self.db.execute(
            "SELECT id, game, name, config, seq, finished FROM tables WHERE damaged IS NULL ORDER BY created"
        ).fetchall()
        if only is not None:
            wanted = set(only)
            rows = [row for row in rows if row[0] in wanted]
        for table_id, game, name, config, seq, finished in rows:
            seats = self.db.execute(
                "SELECT seat, name, bot, away, open, pledge FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
            ).fetchall()
            log = self.db.execute(
                "SELECT n, kind, seat, data, seq FROM log WHERE table_id = ? ORDER BY n", (table_id,)
            ).fetchall()
            tokens = self.db.execute(
                "SELECT digest, seat, name FROM tokens WHERE table_id = ?", (table_id,)
            ).fetchall()
            out.append(
                SavedTable(
                    id=table_id, game=game, name=name, config=json.loads(config),
                    seats=[SavedSeat(int(s), str(n), bool(b), bool(a), bool(o), bytes.fromhex(p) if p else None)
                           for s, n, b, a, o, p in seats],
                    log=[(int(n), str(k), None if s is None else int(s), json.loads(d), int(q))
                         for n, k, s, d, q in log],
                    tokens=[(str(t), None if s is None else int(s), str(n)) for t, s, n in tokens],
                    hands=self.count_hands(table_id),
                    seq=int(seq),
                    finished=finished is not None,
                    players=self.seat_players(table_id),
                    sent=self.sent(table_id),
                )
            )
        return out

    def hands(self, table_id: str | None = None, tournament: str | None = None) -> Iterator[str]:
        """Stored hand histories as JSON Lines lines, oldest table first, hands in order
        (``tournament``: the hands of that tournament's tables)."""
        query = "SELECT h.record FROM hands h JOIN tables t ON t.id = h.table_id"
        args: tuple[str, ...] = ()
        if table_id is not None:
            query += " WHERE h.table_id = ?"
            args = (table_id,)
        elif tournament is not None:
            query += f" WHERE {self._TOURNAMENT_OF} = ?"
            args = (tournament,)
        query += " ORDER BY t.created, h.table_id, h.hand"
        for (record,) in self.db.execute(query, args):
            yield record

    def last_hand(self, table_id: str) -> dict[str, Any] | None:
        """A table's newest stored hand history (what its next hand links to), or None."""
        row = self.db.execute(
            "SELECT record FROM hands WHERE table_id = ? ORDER BY hand DESC LIMIT 1", (table_id,)
        ).fetchone()
        if row is None:
            return None
        record: dict[str, Any] = json.loads(row[0])
        return record

    def hand(self, table_id: str, hand: int) -> str | None:
        """One stored hand history (a JSON Lines line), or None."""
        row = self.db.execute(
            "SELECT record FROM hands WHERE table_id = ? AND hand = ?", (table_id, hand)
        ).fetchone()
        return None if row is None else str(row[0])

    def analyses(self, table_id: str, hand: int) -> dict[int, str]:
        """A stored hand's analyses kept so far, by seat (JSON documents)."""
        rows = self.db.execute("SELECT seat, analysis FROM analyses WHERE table_id = ? AND hand = ?",
                               (table_id, hand)).fetchall()
        return {int(r[0]): str(r[1]) for r in rows}

    def add_analysis(self, table_id: str, hand: int, seat: int, analysis: str) -> None:
        """One seat's analysis of a stored hand (the same analysis again replaces nothing of value)."""
        self.db.execute("INSERT INTO analyses (table_id, hand, seat, analysis) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (table_id, hand, seat) DO UPDATE SET analysis = excluded.analysis",
                        (table_id, hand, seat, analysis))

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

    def open_tables(self) -> int:
        """The room's tables still open, whichever process drives them."""
        row = self.db.execute("SELECT count(*) FROM tables WHERE finished IS NULL AND damaged IS NULL").fetchone()
        return int(row[0])

    def count_hands(self, table_id: str | None = None) -> int:
        if table_id is None:
            return int(self.db.execute("SELECT count(*) FROM hands").fetchone()[0])
        return int(self.db.execute("SELECT count(*) FROM hands WHERE table_id = ?", (table_id,)).fetchone()[0])

    # -- owners: which process drives which table -------------------------------------------
    _BEGIN = "BEGIN IMMEDIATE"
    """A transaction takes the write lock at once: one that read first and then wrote could find
    another process of the server writing, and fail instead of waiting."""
    _FENCE = "SELECT epoch, owner FROM tables WHERE id = ?"
    _SAME = "IS"
    """SQL's null-safe equality, as the dialect spells it."""
    _TOURNAMENT_OF = "json_extract(t.config, '$.tournament.id')"
    """A table's tournament, read from its config (``t``)."""
    _ROWID = "rowid"
    """The order rows of ``names`` were written in."""

    def register(self, address: str) -> str:
        """This process becomes an owner of tables, served at ``address``; its lock is held for as
        long as the store is open (or the process lives)."""
        owner = secrets.token_hex(8)
        self._lock_owner(owner)
        self.db.execute("INSERT INTO owners (id, address, started) VALUES (?, ?, ?)", (owner, address, time.time()))
        self.me, self.address = owner, address
        return owner

    def owners(self) -> list[Owner]:
        """Every registered owner, alive or not, oldest first."""
        rows = self.db.execute("SELECT id, address FROM owners ORDER BY started, id")
        return [Owner(str(owner), str(address)) for owner, address in rows]

    def dead(self, owner_id: str) -> bool:
        """Whether ``owner_id``'s process is gone: its lock is free. If so, this process holds that
        lock from now until ``let_go_owner``, so that no other takes the dead one's tables meanwhile."""
        if owner_id == self.me:
            return False
        if owner_id in self._owner_locks:
            return True
        return self._lock_owner(owner_id, wait=False)

    def let_go_owner(self, owner_id: str) -> None:
        """Done with a dead owner's tables: its row goes once it has none left, and its lock is let go."""
        left = self.db.execute("SELECT count(*) FROM tables WHERE owner = ? AND damaged IS NULL",
                               (owner_id,)).fetchone()[0]
        if not left:
            self.db.execute("DELETE FROM owners WHERE id = ?", (owner_id,))
        self._unlock_owner(owner_id, forget=not left)

    def lead(self, role: str) -> bool:
        """Whether this process takes ``role`` in the room (running the tournaments): one process at a
        time has it, for as long as it lives. On SQLite it is the server's own process, which holds
        the store's lock."""
        return not self.shared or self._lock is not None

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    def let_go_dead(self) -> None:
        """Let go of every dead owner's lock ``dead`` took (``let_go_owner``)."""
        for owner_id in [o for o in self._owner_locks if o != self.me]:
            self.let_go_owner(owner_id)

    def orphans(self) -> list[Place]:
        """Tables whose owner is gone: its lock free (``dead``, which then holds it), or no owner."""
        owners = [row[0] for row in self.db.execute("SELECT DISTINCT owner FROM tables WHERE damaged IS NULL")]
        gone = [str(o) for o in owners if o is not None and self.dead(str(o))]
        if not gone and None not in owners:
            return []
        marks = ", ".join("?" * len(gone)) or "NULL"
        return self._places(f"t.damaged IS NULL AND (t.owner IS NULL OR t.owner IN ({marks}))", tuple(gone))

    def place(self, table_id: str) -> Place | None:
        """Where a table stands (None: no such table)."""
        found = self._places("t.id = ?", (table_id,))
        return found[0] if found else None

    def token_table(self, digest: str) -> str | None:
        """The table a seat or spectator token (by its digest) opens, wherever it is driven."""
        found = self.token_grant(digest)
        return None if found is None else found[0]

    def token_grant(self, digest: str) -> tuple[str, int | None, str] | None:
        """What a seat or spectator token (by its digest) opens, wherever its table is driven: the
        table, the seat (None: watching) and the name it was given to."""
        row = self.db.execute("SELECT table_id, seat, name FROM tokens WHERE digest = ?", (digest,)).fetchone()
        return None if row is None else (str(row[0]), None if row[1] is None else int(row[1]), str(row[2]))

    def _places(self, where: str, args: tuple[str, ...]) -> list[Place]:
        rows = self.db.execute(
            "SELECT t.id, t.owner, o.address, t.epoch, t.finished, t.config FROM tables t "
            f"LEFT JOIN owners o ON o.id = t.owner WHERE {where} ORDER BY t.created", args)
        return [Place(str(table_id), None if owner is None else str(owner), "" if address is None else str(address),
                      int(epoch), finished is not None, bool(json.loads(str(config)).get("tournament")))
                for table_id, owner, address, epoch, finished, config in rows]

    def claim(self, place: Place) -> int | None:
        """Take ``place``'s table from its dead owner: this process drives it from a new epoch on,
        returned; None if another process took it first (its epoch or owner moved)."""
        with self.transaction():
            taken = self.db.execute(
                f"UPDATE tables SET owner = ?, epoch = epoch + 1 WHERE id = ? AND epoch = ? AND owner {self._SAME} ?",
                (self.me or None, place.table_id, place.epoch, place.owner)).rowcount
            if taken != 1:
                return None
            return int(self.db.execute("SELECT epoch FROM tables WHERE id = ?", (place.table_id,)).fetchone()[0])

    def fence(self, table_id: str, epoch: int) -> None:
        """Inside a write's transaction: raise ``Fenced`` unless this process still drives the
        table at ``epoch``. On PostgreSQL the table's row stays locked until the write commits, so
        a process taking the table over waits for it, then reads the journal with it."""
        row = self.db.execute(self._FENCE, (table_id,)).fetchone()
        if row is None or int(row[0]) != epoch or row[1] != self.me:
            raise Fenced(table_id)

    def _owner_lock_path(self, owner_id: str) -> Path:
        return Path(f"{self.path}.owner-{owner_id}")

    def _lock_owner(self, owner_id: str, wait: bool = True) -> bool:
        """Take an owner's lock: a lock file's ``flock`` beside the store, freed by the kernel when
        its process ends however it ends (nothing to take in a store in memory, one process's alone)."""
        if self.path == ":memory:":
            return True
        path = self._owner_lock_path(owner_id)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE)
        handle = os.fdopen(fd, "a+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except OSError:
            handle.close()
            return False
        self._owner_locks[owner_id] = handle
        return True

    def _unlock_owner(self, owner_id: str, forget: bool) -> None:
        held = self._owner_locks.pop(owner_id, None)
        if held is None:
            return
        if forget:
            with contextlib.suppress(OSError):
                self._owner_lock_path(owner_id).unlink()
        held.close()

    # -- tournaments ------------------------------------------------------------------------
    def save_tournament(self, tournament_id: str, data: Mapping[str, Any]) -> None:
        self.db.execute(
            "INSERT INTO tournaments (id, data, created) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET data = excluded.data",
            (tournament_id, json.dumps(data, separators=(",", ":")), time.time()),
        )

    def tournaments(self) -> list[dict[str, Any]]:
        """Every stored tournament, oldest first."""
        return [json.loads(row[0]) for row in self.db.execute("SELECT data FROM tournaments ORDER BY created, id")]

    # -- players: identities, sessions and records --------------------------------------
    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything inside is written at once, or not at all (inside another: part of that one)."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute(self._BEGIN)
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def server_id(self) -> str:
        """This store's id, made once: what identity proofs sign, so they are worth nothing elsewhere."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'server_id'").fetchone()
        if row is not None:
            return str(row[0])
        made = secrets.token_hex(16)
        self.db.execute("INSERT INTO meta (key, value) VALUES ('server_id', ?) ON CONFLICT DO NOTHING", (made,))
        return str(self.db.execute("SELECT value FROM meta WHERE key = 'server_id'").fetchone()[0])

    def secret(self, key: str) -> bytes:
        """A random secret of this store's, made once and kept in ``meta`` (an invite's code is keyed
        with one, so nobody works a code out from a table's id)."""
        name = f"secret:{key}"
        self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING",
                        (name, secrets.token_hex(32)))
        return bytes.fromhex(str(self.db.execute("SELECT value FROM meta WHERE key = ?", (name,)).fetchone()[0]))

    def player(self, player_id: str) -> Player | None:
        row = self.db.execute("SELECT id, name, public_key, created FROM players WHERE id = ?", (player_id,)).fetchone()
        return None if row is None else Player(str(row[0]), str(row[1]), row[2], float(row[3]))

    def add_player(self, player_id: str, name: str, public_key: bytes | None) -> None:
        """Remember a player (a no-op for one already known, but for the name they go by now)."""
        self.db.execute(
            "INSERT INTO players (id, name, public_key, created) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET name = excluded.name",
            (player_id, name, public_key, time.time()),
        )

    def owner(self, key: str) -> str | None:
        """The player who owns a name (by its comparison key), if anyone does."""
        row = self.db.execute("SELECT player FROM names WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def lookalikes(self, looks: Sequence[str]) -> list[tuple[str, str]]:
        """The owned names (as their owners spell them) that share one of the skeletons ``looks``,
        with their players."""
        marks = ", ".join("?" * len(looks))
        rows = self.db.execute(
            f"SELECT name, player FROM names WHERE key IN (SELECT key FROM name_looks WHERE looks IN ({marks})) "
            f"ORDER BY {self._ROWID}", tuple(looks))
        return [(str(name), str(player)) for name, player in rows]

    def bind_name(self, key: str, name: str, player_id: str, looks: Iterable[str]) -> bool:
        """The name becomes the player's unless it is already someone's; whether it is the player's now."""
        self.db.execute("INSERT INTO names (key, name, player) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                        (key, name, player_id))
        if self.owner(key) != player_id:
            return False
        self.db.executemany("INSERT INTO name_looks (looks, key) VALUES (?, ?) ON CONFLICT DO NOTHING",
                            [(skeleton, key) for skeleton in looks])
        return True

    def names_of_key(self, public_key: bytes) -> int:
        """How many names the players of one public key own here."""
        row = self.db.execute(
            "SELECT count(*) FROM names n JOIN players p ON p.id = n.player WHERE p.public_key = ?", (public_key,)
        ).fetchone()
        return int(row[0])

    def add_session(self, digest: str, player_id: str, name: str) -> None:
        self.db.execute("INSERT INTO sessions (digest, player, name, created) VALUES (?, ?, ?, ?)",
                        (digest, player_id, name, time.time()))

    def session(self, digest: str) -> tuple[str, str] | None:
        """The player and the name a session proved."""
        row = self.db.execute("SELECT player, name FROM sessions WHERE digest = ?", (digest,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def save_seat_players(self, table_id: str, players: Iterable[tuple[int, str | None]]) -> None:
        for seat, player in players:
            if player is None:
                self.db.execute("DELETE FROM seat_players WHERE table_id = ? AND seat = ?", (table_id, seat))
            else:
                self.db.execute("INSERT INTO seat_players (table_id, seat, player) VALUES (?, ?, ?) "
                                "ON CONFLICT (table_id, seat) DO UPDATE SET player = excluded.player",
                                (table_id, seat, player))

    def seat_players(self, table_id: str) -> dict[int, str]:
        rows = self.db.execute("SELECT seat, player FROM seat_players WHERE table_id = ?", (table_id,))
        return {int(seat): str(player) for seat, player in rows}

    def record(self, player_id: str, game: str) -> Record | None:
        row = self.db.execute(
            "SELECT player, game, mu, sigma, matches, wins, hands, biggest_pot, truco_calls_won FROM records "
            "WHERE player = ? AND game = ?", (player_id, game),
        ).fetchone()
        return None if row is None else Record(*row)

    def save_record(self, r: Record) -> None:
        self.db.execute(
            "INSERT INTO records (player, game, mu, sigma, matches, wins, hands, biggest_pot, truco_calls_won) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player, game) DO UPDATE SET mu = excluded.mu, "
            "sigma = excluded.sigma, matches = excluded.matches, wins = excluded.wins, hands = excluded.hands, "
            "biggest_pot = excluded.biggest_pot, truco_calls_won = excluded.truco_calls_won",
            (r.player, r.game, r.mu, r.sigma, r.matches, r.wins, r.hands, r.biggest_pot, r.truco_calls_won),
        )

    def records(self, game: str | None = None, player_id: str | None = None) -> list[tuple[Record, Player]]:
        """Records with their players: one game's, or one player's, or all."""
        query = (
            "SELECT r.player, r.game, r.mu, r.sigma, r.matches, r.wins, r.hands, r.biggest_pot, r.truco_calls_won, "
            "p.id, p.name, p.public_key, p.created FROM records r JOIN players p ON p.id = r.player"
        )
        where, args = [], []
        if game is not None:
            where.append("r.game = ?")
            args.append(game)
        if player_id is not None:
            where.append("r.player = ?")
            args.append(player_id)
        if where:
            query += " WHERE " + " AND ".join(where)
        return [
            (Record(*row[:9]), Player(str(row[9]), str(row[10]), row[11], float(row[12])))
            for row in self.db.execute(query, args)
        ]
