"""The store's tables as SQL, and what brings a store written by an earlier version up to date.

The schema is written for SQLite; the PostgreSQL store types it in its own words
(``postgresql._dialect``) and creates it the same way. A store of an earlier version is brought
up to date on SQLite as it opens (``upgrade``): the columns added since, the tokens kept as
digests, the passwords salted, the names keyed as they are compared now.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cardtui.server.base import passwords
from cardtui.server.base.names import key_of, stored_name
from cardtui.server.store.base import Link, log, token_digest
from cardtui.server.store.identity import Identity

SCHEMA = """
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

NAMES = """
CREATE TABLE IF NOT EXISTS names (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    player TEXT NOT NULL
);
"""
"""Each name a key owns, by its comparison key (PRECIS)."""
LOOKS = """
CREATE TABLE IF NOT EXISTS name_looks (
    looks TEXT NOT NULL,
    key TEXT NOT NULL,
    PRIMARY KEY (looks, key)
);
"""
"""What each owned name looks like: the UTS #39 skeletons of its case forms (``names.looks_of``),
one row each, so a name that looks like an owned one is found by any of its own."""
ANALYSES = """
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
SCHEMA += NAMES + LOOKS + ANALYSES + "CREATE INDEX IF NOT EXISTS players_key ON players (public_key);\n"
SCHEMA += """
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    created REAL NOT NULL
);
"""
"""Each tournament whole (entries, rounds, tables, results) as one JSON document, rewritten at each change."""
SCHEMA += """
CREATE TABLE IF NOT EXISTS owners (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    started REAL NOT NULL
);
"""
"""The processes that drive tables from this store, each with the address its tables are served at
(``:PORT`` for the host a client reached the lobby at). A row outlives its process until another
finds its lock free and takes its tables."""
TABLE_COLUMNS = (("seq", "INTEGER NOT NULL DEFAULT 0"), ("finished", "REAL"), ("damaged", "TEXT"),
                 ("played", "TEXT"), ("owner", "TEXT"), ("epoch", "INTEGER NOT NULL DEFAULT 0"))
"""Columns of ``tables`` later than its first version (``owner``: the process driving it; ``epoch``:
raised each time a process takes it over)."""
OWNER_INDEX = "CREATE INDEX IF NOT EXISTS tables_owner ON tables (owner)"
SEAT_COLUMNS = (("open", "INTEGER NOT NULL DEFAULT 0"), ("pledge", "TEXT NOT NULL DEFAULT ''"))
"""Columns of ``seats`` later than its first version (``pledge``: what the seat's next link must follow, in hex)."""

SESSION_DAYS = 90
"""Sessions older than this are forgotten when the store opens: the client proves its key again."""


def upgrade(link: Link, path: str) -> None:
    """The schema, and what a store written by an earlier version needs to be current (SQLite's)."""
    db = link.db
    db.executescript(SCHEMA)
    columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
    for column, kind in TABLE_COLUMNS:
        if column not in columns:  # a store from an earlier version
            db.execute(f"ALTER TABLE tables ADD COLUMN {column} {kind}")
    db.execute(OWNER_INDEX)
    seat_columns = {row[1] for row in db.execute("PRAGMA table_info(seats)")}
    for column, kind in SEAT_COLUMNS:
        if column not in seat_columns:
            db.execute(f"ALTER TABLE seats ADD COLUMN {column} {kind}")
    _digest_tokens(link, path)
    _salt_passwords(link, path)
    _key_names(link, path)
    forget_sessions(link)


def forget_sessions(link: Link) -> None:
    """The sessions older than ``SESSION_DAYS`` go."""
    link.db.execute("DELETE FROM sessions WHERE created < ?", (time.time() - SESSION_DAYS * 86400,))


def _digest_tokens(link: Link, path: str) -> None:
    """A store written before tokens were kept as digests holds them in plain text: each becomes
    its digest in place, and the old bytes are overwritten (``secure_delete``) and the journal
    emptied, so no token is left anywhere in the files."""
    db = link.db
    if "token" not in {row[1] for row in db.execute("PRAGMA table_info(tokens)")}:
        return
    db.create_function("cardtui_digest", 1, token_digest, deterministic=True)
    db.execute("PRAGMA secure_delete=ON")
    with link.transaction():
        db.execute("ALTER TABLE tokens RENAME COLUMN token TO digest")
        count = db.execute("UPDATE tokens SET digest = cardtui_digest(digest)").rowcount
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA secure_delete=OFF")
    log.warning("store %s: %d seat and spectator tokens were kept in plain text; now only their digests are",
                path, count)


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


def _salt_passwords(link: Link, path: str) -> None:
    """A store written before passwords were salted keeps each table's and tournament's as an
    unsalted SHA-256: each becomes the scrypt of that digest in place (``passwords.upgraded``;
    scrypt is given the same digest of the password the people type, so they type nothing
    again), the old bytes overwritten and the journal emptied, as ``_digest_tokens`` does."""
    db = link.db
    # A password of 64 characters (LIKE's _ is any one), with or without a space after its
    # colon: the rows worth reading; json then decides.
    like = [f'%"password":{space}"{"_" * 64}"%' for space in ("", " ")]
    tables = [(table_id, config) for table_id, config in db.execute(
        "SELECT id, config FROM tables WHERE config LIKE ? OR config LIKE ?", like) if _old_password(config)]
    tournaments = [(tid, data) for tid, data in db.execute(
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
    db.execute("PRAGMA secure_delete=ON")
    with link.transaction():
        db.executemany("UPDATE tables SET config = ? WHERE id = ?",
                       [(json.dumps(c), table_id) for c, (table_id, _) in zip(configs, tables, strict=True)])
        db.executemany("UPDATE tournaments SET data = ? WHERE id = ?",
                       [(json.dumps(d, separators=(",", ":")), tid)
                        for d, (tid, _) in zip(datas, tournaments, strict=True)])
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA secure_delete=OFF")
    log.warning("store %s: %d passwords were kept as unsalted SHA-256; now each is a salted scrypt", path,
                len(olds))


def _key_names(link: Link, path: str) -> None:
    """Names compared by their PRECIS key and looked up by their UTS #39 skeletons
    (``cardtui.server.base.names``). A store that compared them case-folded is rewritten: two names
    that are now one keep the older owner (the other's player keeps their records, not the name).
    A store that kept one skeleton a name (of its lower case alone) loses that column. The
    skeletons are brought up to the installed confusables data on every open (``refresh_looks``)."""
    db = link.db
    columns = {row[1] for row in db.execute("PRAGMA table_info(names)")}
    if "folded" in columns:
        identity = Identity(link)
        rows = db.execute("SELECT name, player FROM names ORDER BY rowid").fetchall()
        with link.transaction():
            db.execute("DROP TABLE names")
            db.execute(NAMES)
            for name, player in rows:
                key = key_of(str(name))
                if identity.owner(key) is not None:
                    log.warning("store %s: the name %r is spelled as one with an older owner's now; it stays "
                                "theirs", path, str(name))
                    continue
                db.execute("INSERT INTO names (key, name, player) VALUES (?, ?, ?)",
                           (key, str(name), str(player)))
    elif "looks" in columns:
        with link.transaction():
            db.execute("DROP INDEX IF EXISTS names_looks")
            db.execute("ALTER TABLE names DROP COLUMN looks")
    refresh_looks(link)


def refresh_looks(link: Link) -> None:
    """The skeletons of owned names brought up to the installed confusables data (both backends)."""
    db = link.db
    wanted = {(looks, str(key)) for key, name in db.execute("SELECT key, name FROM names")
              for looks in stored_name(str(name)).looks}
    if wanted != set(db.execute("SELECT looks, key FROM name_looks")):
        with link.transaction():
            db.execute("DELETE FROM name_looks")
            db.executemany("INSERT INTO name_looks (looks, key) VALUES (?, ?)", sorted(wanted))
