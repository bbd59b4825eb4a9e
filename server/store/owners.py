"""Which process drives which table: the store's owners, their locks, and the fence on each write.

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
import json
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from cardtui.hashes import sha256
from cardtui.server.store.base import PRIVATE, Fenced, Link, Part, StoreInUse


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
    gone: bool = False
    """Its owner is gone for certain: another process registered at the owner's address after it (one address is
    one listener). A worker killed -9 is replaced on its own port, so until a survivor claims its tables, the
    address they name is the replacement's, which does not drive them."""


def _owner_key(owner_id: str) -> int:
    """An owner's lock as PostgreSQL's advisory locks name them: a signed 64-bit number."""
    return int.from_bytes(sha256(f"cardtui-owner:{owner_id}".encode()).digest()[:8], "big", signed=True)


def hold(lock: Path) -> IO[str]:
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


class Owners(Part):
    """The processes that drive tables from this store, and which of them drives each table."""

    FENCES = False
    """Whether a table's writes must be fenced by its epoch (``fence``). Not on SQLite: its processes
    share one host, where an owner's lock is its process's (a ``flock`` the kernel holds for exactly
    as long as the process lives), so a process that lost its lock is gone and writes nothing more.
    On PostgreSQL a host can lose its session, and its lock with it, and live on: there each write is
    fenced."""
    _FENCE = "SELECT epoch, owner FROM tables WHERE id = ?"
    _SAME = "IS"
    """SQL's null-safe equality, as the dialect spells it."""

    def __init__(self, link: Link, path: str, shared: bool, lock: IO[str] | None = None) -> None:
        """``lock``: the store's lock file, held by the server's process (``hold``); None in a worker
        (``shared``), a reader, or a store in memory."""
        super().__init__(link)
        self.path = path
        self.shared = shared
        """Other processes drive tables from this store too (a server's workers, other hosts): every
        write of a table is fenced."""
        self.me = ""
        """This process's id as an owner of tables (``register``); empty until it registers."""
        self.address = ""
        """Where this process's tables are served, as it registered."""
        self._lock = lock
        self._owner_locks: dict[str, IO[str]] = {}
        """The owner locks this process holds: its own, and a dead owner's while taking its tables."""

    def register(self, address: str) -> str:
        """This process becomes an owner of tables, served at ``address``; its lock is held for as
        long as the store is open (or the process lives)."""
        owner = secrets.token_hex(8)
        self._lock_owner(owner)
        self.db.execute("INSERT INTO owners (id, address, started) VALUES (?, ?, ?)", (owner, address, time.time()))
        self.me, self.address = owner, address
        return owner

    def all(self) -> list[Owner]:
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

    def let_go_dead(self) -> None:
        """Let go of every dead owner's lock ``dead`` took (``let_go_owner``)."""
        for owner_id in [o for o in self._owner_locks if o != self.me]:
            self.let_go_owner(owner_id)

    def clear_dead(self) -> int:
        """Forget the owners that are gone and drive no table: their rows, and the lock files nobody holds (a
        process killed outright leaves both, and one that drove no table is never found by ``orphans``). An owner
        gone with tables is left to the sweep that hands them out. How many were forgotten."""
        forgotten = 0
        registered = set()
        for owner in self.all():
            registered.add(owner.id)
            if owner.id == self.me or owner.id in self._owner_locks or not self.dead(owner.id):
                continue
            left = self.db.execute("SELECT count(*) FROM tables WHERE owner = ? AND damaged IS NULL",
                                   (owner.id,)).fetchone()[0]
            self.let_go_owner(owner.id)
            forgotten += not left
        return forgotten + self._clear_files(registered)

    def _clear_files(self, registered: set[str]) -> int:
        """Lock files of owners the store no longer names, removed where their lock is free (held: a process
        registering now, whose row is on its way)."""
        if self.path == ":memory:":
            return 0
        store = Path(self.path)
        cleared = 0
        for lock in store.parent.glob(f"{store.name}.owner-*"):
            owner_id = lock.name.rsplit(".owner-", 1)[1]
            if owner_id in registered or owner_id in self._owner_locks or not self._lock_owner(owner_id, wait=False):
                continue
            self._unlock_owner(owner_id, forget=True)
            cleared += 1
        return cleared

    def retire(self) -> None:
        """This process stops driving tables (a clean stop): every table it drives is handed to nobody, its epoch
        raised (a write this process still tried would be fenced), and its row and lock file go. The tables stay in
        the store, each where it was: whoever sweeps next (the next start; a live worker's server, or another host,
        within seconds) takes them from the journal, as it takes a dead process's (docs/operating.md, "Litter")."""
        if not self.me:
            return
        self._hand_back(self.me)
        self.me = ""

    def forget_gone(self) -> int:
        """Every owner whose process is gone hands its tables to nobody, and its row and lock file go: what a server
        does last as it stops, once its workers have ended, so that none it made is left behind (one killed, one
        stopped while it was starting). How many were forgotten."""
        forgotten = 0
        for owner in self.all():
            if owner.id != self.me and owner.id not in self._owner_locks and self.dead(owner.id):
                self._hand_back(owner.id)
                forgotten += 1
        return forgotten + self._clear_files({owner.id for owner in self.all()})

    def _hand_back(self, owner_id: str) -> None:
        """``owner_id``'s tables to nobody (at a raised epoch) and its row gone, in one write; then its lock file."""
        with self.link.transaction():
            self.db.execute("UPDATE tables SET owner = NULL, epoch = epoch + 1 WHERE owner = ?", (owner_id,))
            self.db.execute("DELETE FROM owners WHERE id = ?", (owner_id,))
        self._unlock_owner(owner_id, forget=True)

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

    def _places(self, where: str, args: tuple[str, ...]) -> list[Place]:
        rows = self.db.execute(
            "SELECT t.id, t.owner, o.address, t.epoch, t.finished, t.config, EXISTS (SELECT 1 FROM owners n "
            "WHERE n.address = o.address AND n.started > o.started) FROM tables t "
            f"LEFT JOIN owners o ON o.id = t.owner WHERE {where} ORDER BY t.created", args)
        return [Place(str(table_id), None if owner is None else str(owner), "" if address is None else str(address),
                      int(epoch), finished is not None, bool(json.loads(str(config)).get("tournament")), bool(gone))
                for table_id, owner, address, epoch, finished, config, gone in rows]

    def claim(self, place: Place) -> int | None:
        """Take ``place``'s table from its dead owner: this process drives it from a new epoch on,
        returned; None if another process took it first (its epoch or owner moved)."""
        with self.link.transaction():
            taken = self.db.execute(
                f"UPDATE tables SET owner = ?, epoch = epoch + 1 WHERE id = ? AND epoch = ? AND owner {self._SAME} ?",
                (self.me or None, place.table_id, place.epoch, place.owner)).rowcount
            if taken != 1:
                return None
            return int(self.db.execute("SELECT epoch FROM tables WHERE id = ?", (place.table_id,)).fetchone()[0])

    def release(self, table_id: str, epoch: int, to: str = "") -> bool:
        """Stop driving a table of this process's, driven at ``epoch`` (it moves to another process:
        ``Room.hand_over``): it is handed to the owner ``to`` (empty: nobody) at a raised epoch, so that this
        process can write to it no more and the next to drive it does so from its journal (``to`` takes it over;
        should ``to`` be gone, the sweep for tables whose process is gone finds it). False if it was not this
        process's at that epoch."""
        with self.link.transaction():
            return int(self.db.execute(
                "UPDATE tables SET owner = ?, epoch = epoch + 1 WHERE id = ? AND owner = ? AND epoch = ?",
                (to or None, table_id, self.me, epoch)).rowcount) == 1

    def driven(self) -> list[Place]:
        """Every open table a live process drives (a tournament's included), oldest first."""
        return self._places("t.finished IS NULL AND t.damaged IS NULL AND t.owner IS NOT NULL", ())

    def work(self) -> dict[str, tuple[int, int]]:
        """Each owner's open tables and the seats people hold at them (bots hold no token)."""
        rows = self.db.execute(
            "SELECT t.owner, COUNT(DISTINCT t.id), COUNT(k.digest) FROM tables t "
            "LEFT JOIN tokens k ON k.table_id = t.id AND k.seat IS NOT NULL "
            "WHERE t.finished IS NULL AND t.damaged IS NULL AND t.owner IS NOT NULL GROUP BY t.owner")
        return {str(owner): (int(tables), int(seats)) for owner, tables, seats in rows}

    def fence(self, table_id: str, epoch: int) -> None:
        """Inside a write's transaction: raise ``Fenced`` unless this process still drives the
        table at ``epoch``. On PostgreSQL the table's row stays locked until the write commits, so
        a process taking the table over waits for it, then reads the journal with it."""
        row = self.db.execute(self._FENCE, (table_id,)).fetchone()
        if row is None or int(row[0]) != epoch or row[1] != self.me:
            raise Fenced(table_id)

    def close(self) -> None:
        """The locks this process holds are let go (the store's connection is closed by the store)."""
        for held in self._owner_locks.values():
            held.close()
        self._owner_locks.clear()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def _owner_lock_path(self, owner_id: str) -> Path:
        return Path(f"{self.path}.owner-{owner_id}")

    def _lock_owner(self, owner_id: str, wait: bool = True) -> bool:
        """Take an owner's lock: a lock file's ``flock`` beside the store, freed by the kernel when
        its process ends however it ends (nothing to take in a store in memory, one process's alone)."""
        if self.path == ":memory:":
            return True
        path = self._owner_lock_path(owner_id)
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE)
            handle = os.fdopen(fd, "a+", encoding="utf-8")
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except OSError:
                handle.close()
                return False
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            handle.close()  # removed (``_clear_files``) between opening and locking it: the lock is the new file's
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
