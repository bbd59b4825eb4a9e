"""The store on SQLite, and the shape every store has: one connection, a part per domain.

``Store`` is what the rest of the server holds: it owns the connection and its transaction and
hands out the parts, each a small class over the same connection (``store.tables``,
``store.hands``, ``store.owners``, ``store.identity``, ``store.ratings``, ``store.tournaments``,
``store.meta``). Their SQL is the SQL both backends share, on SQLite: the embedded default, one
file beside the host. ``postgresql.PostgresStore`` is the same store on PostgreSQL (``--db
postgresql://…``), for several hosts sharing one lobby; it puts in the parts whose SQL says things
otherwise. ``server.stores.open_store`` picks one.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from contextlib import AbstractContextManager
from pathlib import Path
from typing import IO

from cardtui.server.store import schema
from cardtui.server.store.base import PRIVATE, Link, log
from cardtui.server.store.hands import Hands
from cardtui.server.store.identity import Identity
from cardtui.server.store.meta import Meta
from cardtui.server.store.owners import Owners, hold
from cardtui.server.store.ratings import Ratings
from cardtui.server.store.tables import Tables
from cardtui.server.store.tournaments import Tournaments

FOLDER_MODE = 0o700
SUFFIXES = ("", "-wal", "-shm", "-journal", ".lock")
"""The store and the files SQLite and the lock keep beside it."""


CHECKPOINT_SECONDS = 1.0
"""How often the checkpointer looks whether the write-ahead log has grown."""


class Checkpointer:
    """Copies the write-ahead log's pages into the store's file, on a thread of its own.

    SQLite does it itself at the commit that takes the log past a thousand pages, inside that
    commit: on the event loop, which serves every table, for tens of milliseconds (the pages
    written, then synced) while every other table's act waits. That was the tail of an act's
    latency at a busy table server (bench/marks.md, issue 56). Here the store's connection leaves
    it to this thread (``wal_autocheckpoint=0``), which looks once a ``CHECKPOINT_SECONDS`` whether
    the log changed and then checkpoints it on a connection of its own, passively: it copies what
    no reader still needs and never makes a writer wait. sqlite3 lets go of the interpreter's lock
    while SQLite works, so the loop runs on meanwhile."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="store-checkpoint", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        wal = f"{self.path}-wal"
        seen: tuple[int, int] | None = None
        db: sqlite3.Connection | None = None
        try:
            while not self.stopping.wait(CHECKPOINT_SECONDS):
                try:
                    stat = os.stat(wal)
                    now = (stat.st_size, stat.st_mtime_ns)
                    if now == seen:
                        continue  # nothing written since the last look
                    if db is None:
                        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    seen = now
                except (OSError, sqlite3.Error):
                    continue  # no log yet, or the store in trouble: its connection says so where it matters
        finally:
            if db is not None:
                db.close()

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(10)


def _files(path: str | Path) -> list[Path]:
    return [f for f in (Path(f"{path}{suffix}") for suffix in SUFFIXES) if f.exists()]


def _tighten(path: Path, mode: int) -> None:
    """``path`` readable by its owner only; the log says so when it was not."""
    was = path.stat().st_mode & 0o777
    if was & 0o077:
        path.chmod(mode)
        log.warning("%s could be read by other users of this machine (mode %03o); it is now %03o", path, was, mode)


class Store:
    """Tables and hand histories in one SQLite file (``:memory:`` for a throwaway).

    One server at a time: a lock file beside the store is held while it is open. The processes
    of that server (``serve --workers``) open it ``shared``, under the server's lock.
    """

    BUSY_MS = 10_000
    """How long a write waits for another process of the server to finish its own (``shared``)."""

    db: sqlite3.Connection
    link: Link
    tables: Tables
    """Each table and its journal: what a restart needs."""
    hands: Hands
    """The finished hands' histories and their analyses."""
    owners: Owners
    """Which process drives which table, and the fence on each write."""
    identity: Identity
    """Players, their names and their sessions."""
    ratings: Ratings
    """Each player's record at each game."""
    tournaments: Tournaments
    """Each tournament, whole."""
    meta: Meta
    """The store's id, its secrets, and the room's notes."""
    checkpointer: Checkpointer | None = None
    """Who moves the write-ahead log into the file (a store on disk, written to)."""

    def __init__(self, path: str | Path, read_only: bool = False, own_folder: bool = False,
                 shared: bool = False) -> None:
        """Open (or create) the store; ``read_only`` reads beside a running server, taking no lock.

        The store is its owner's alone (``PRIVATE``): created so, and tightened if an older
        server left it readable by others. Its folder is made private when the store creates it,
        or when it is the store's ``own_folder`` (the default one); a folder named with ``--db``
        that already exists is left as its owner set it.

        ``shared``: other processes drive tables from this store too. A worker of a server opens it
        so beside the server's process, which holds the lock and brought the store up to date; the
        server's process says so too, once it starts workers (``owners.shared``). Then every write
        of a table is fenced.
        """
        self.path = str(path)
        if read_only:
            self._assemble(sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                                           check_same_thread=False), shared)
            return
        if str(path) == ":memory:":
            self._assemble(sqlite3.connect(self.path, isolation_level=None, check_same_thread=False), shared)
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
            lock = None if shared else hold(Path(f"{path}.lock"))
            self._assemble(sqlite3.connect(self.path, isolation_level=None, check_same_thread=False), shared, lock)
            if shared:  # the server's process holds the lock and has brought the store up to date
                self._settings()
            else:
                self._open()
        finally:
            os.umask(mask)
        for created in _files(path):
            _tighten(created, PRIVATE)

    def _assemble(self, db: sqlite3.Connection, shared: bool, lock: IO[str] | None = None) -> None:
        """The parts, each over ``db``."""
        self.db = db
        self.link = Link(db)
        self.owners = Owners(self.link, self.path, shared, lock)
        self.hands = Hands(self.link)
        self.tables = Tables(self.link, self.owners, self.hands)
        self.identity = Identity(self.link)
        self.ratings = Ratings(self.link)
        self.tournaments = Tournaments(self.link)
        self.meta = Meta(self.link)

    def _settings(self) -> None:
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        if self.path != ":memory:" and self.checkpointer is None:
            self.db.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's, off the event loop
            self.checkpointer = Checkpointer(self.path)
        self.db.execute(f"PRAGMA busy_timeout={self.BUSY_MS}")

    def _open(self) -> None:
        """Settings, schema, and what a store written by an earlier version needs to be current."""
        self._settings()
        schema.upgrade(self.link, self.path)

    def transaction(self) -> AbstractContextManager[None]:
        """Everything inside is written at once, or not at all (inside another: part of that one),
        whichever parts write it."""
        return self.link.transaction()

    def ping(self) -> None:
        """Ask the store something: ``StoreDown`` if it cannot be reached."""
        self.db.execute("SELECT 1").fetchone()

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):  # read-only, or a store in trouble: the next start forgets it
            self.owners.retire()
        if self.checkpointer is not None:
            self.checkpointer.close()
        self.db.close()
        self.owners.close()

