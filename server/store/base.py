"""What every part of the store shares: one connection, its one transaction at a time, and the errors.

The store is a few small parts, one per domain (``tables``, ``hands``, ``owners``, ``identity``,
``ratings``, ``tournaments``, ``meta``), each holding the same ``Link``: what one part writes inside
a transaction another opened is part of that transaction, as when the store was one class.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterator

from cardtui.hashes import sha256_hex

PRIVATE = 0o600
"""The store's files: the owner's alone (it holds the live hands' server seeds)."""

log = logging.getLogger("cardtui.store")


def token_digest(token: str) -> str:
    """What the store (and the room) keep of a seat, spectator or owner token: its SHA-256.

    Tokens are 192 random bits, so a plain hash is as good as a slow one: nobody can guess a
    token from its digest, and a copy of the store acts for no seat.
    """
    return sha256_hex(token.encode())


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


class Link:
    """The connection every part of one store writes through, and its one transaction at a time.

    The store's SQL is written for SQLite; the PostgreSQL store's connection reads it as written
    (``postgresql.Connection``), so every part holds a ``sqlite3.Connection`` as far as it knows.
    """

    BEGIN = "BEGIN IMMEDIATE"
    """A transaction takes the write lock at once: one that read first and then wrote could find
    another process of the server writing, and fail instead of waiting."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything inside is written at once, or not at all (inside another: part of that one)."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute(self.BEGIN)
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")


class Part:
    """One domain's share of the store: its SQL, over the connection all the parts share."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self.db = link.db
