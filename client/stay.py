"""A person's stay at a host, as their client remembers it on its own disk: every commitment it gave a link to,
and what became of it (docs/fairness.md, "Your stay at a host").

A link given to a commitment that then deals no hand (the table closed, the commitment was dropped or
misdealt, its hand was never revealed, or this client stopped following before it saw the hand played out)
was seen by the host with a deck it did not deal: closing one table and opening another with the same
people is a re-roll as much as dropping a commitment at one table is. So the memory outlives the table
(every table of the host shares it), the client's process (it is a file, read again at each step), the
host's process and store (it is keyed by the host's address as this client dialled it, never by what the
host says of itself), and the person's name (it is this client's, whatever name it sits under). Two tables
at once share it too, even from two processes: an entry whose process is still alive is not taken for
abandoned, and every change is made under a lock.

The next deal this client checks at that host, at any table, is tainted by such a commitment: the
verdict says which and why (``Taint``), and the taint is spent on it. Nothing here is secret: an entry holds
the table, the deal number, the commitment and the pledge value its link followed (public once sent), never
a link.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

FILE_NAME = "links.json"
"""The file, in the person's data folder (``platformdirs``), beside nothing of anyone else's."""
KEPT_HOSTS = 32
"""Hosts remembered, the most recent last; an older one's settled entries go first."""
KEPT_SETTLED = 64
"""Settled entries kept per host (dealt, or a taint already said); open and untold ones are always kept."""


class Fate(StrEnum):
    """What became of a commitment this client gave a link to."""

    OPEN = "open"
    """Not known yet: the link is given, and the hand not revealed."""
    DEALT = "dealt"
    """The link went into a hand this client saw dealt and revealed."""
    UNDEALT = "undealt"
    """The commitment dealt no hand: revealed undealt (the table closed), dropped for another, misdealt, or its
    hand never revealed."""
    UNSEEN = "unseen"
    """This client stopped following the table (it left, the table ended, the client stopped) before it saw
    what became of the link."""


class Kind(StrEnum):
    """How a commitment came to deal nothing, as the taint says it: the honest ones are grey, the others red."""

    VOID = "void"
    """Revealed undealt with a reason (the table closed mid-cut): an honest server's way, said in words."""
    UNSEEN = "unseen"
    """This client did not see what became of it."""
    DROPPED = "dropped"
    """Another commitment came for the table while this one waited: no honest server does that."""
    MISDEALT = "misdealt"
    """Revealed before its hand ended, or revealed with no hand dealt."""
    UNREVEALED = "unrevealed"
    """Dealt, and never revealed."""

    @property
    def honest(self) -> bool:
        """An honest host can bring it about (so its taint is grey, never red)."""
        return self in (Kind.VOID, Kind.UNSEEN)


@dataclass(frozen=True)
class Given:
    """One commitment this client gave a link to."""

    table: str
    deal: int
    commitment: str
    follows: str
    """The pledge value the link followed (hex): public once the commitment named it; the reveal's seed at this
    client's seat must hash to it."""
    pid: int
    """The process that gave it: while it lives, an open entry is a table it still follows."""
    fate: Fate = Fate.OPEN
    kind: str = ""
    """``Kind``, once the commitment is known to have dealt nothing."""
    why: str = ""
    """The server's reason, where it gave one (a void's)."""
    told: bool = False
    """A later deal's verdict has said it already: the taint is spent."""

    @property
    def taints(self) -> bool:
        return not self.told and self.fate in (Fate.UNDEALT, Fate.UNSEEN)


GIVEN_FIELDS = tuple(f.name for f in fields(Given))
"""An entry's fields, as the file keeps them (each a string, a number or a boolean: ``dataclasses.asdict``'s
deep copy of each is work for nothing, done for every entry each time a link is given or settled)."""


@dataclass(frozen=True)
class Taint:
    """A commitment this client gave a link to that dealt no hand, said on the next deal it checks at the host."""

    table: str
    deal: int
    kind: Kind
    why: str = ""

    @property
    def honest(self) -> bool:
        return self.kind.honest


def path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("cardtui")) / FILE_NAME


FOLLOWING: dict[tuple[str, str], int] = {}
"""The tables this process follows now, by host and table, each with how many streams (of every connection in
the process): an open entry of one of them is not abandoned."""


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # (another user's: alive)
    return True


class Stay:
    """One host's memory, on disk: ``gave`` when a link is sent, ``settle`` when its fate is seen, ``left`` when
    this client stops following a table, and ``taint`` when a deal is checked."""

    def __init__(self, host: str, file: Path | None = None) -> None:
        self.host = host
        self.file = file

    # -- the file ----------------------------------------------------------------------------------
    def _path(self) -> Path:
        return self.file or path()

    @contextlib.contextmanager
    def _held(self) -> Iterator[dict[str, list[dict[str, Any]]]]:
        """The whole file, read and written back under an exclusive lock (two processes of this person's, at two
        tables at once, share it)."""
        file = self._path()
        with contextlib.suppress(OSError):
            file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        lock = None
        with contextlib.suppress(OSError):
            lock = os.open(str(file) + ".lock", os.O_CREAT | os.O_RDWR, 0o600)
        try:
            if lock is not None:
                with contextlib.suppress(OSError, ImportError):
                    import fcntl

                    fcntl.flock(lock, fcntl.LOCK_EX)
            data = _read(file)
            before = {host: [dict(raw) if isinstance(raw, dict) else raw for raw in entries]
                      for host, entries in data.items()}
            yield data
            if data != before:  # (an entry holds strings, numbers and booleans: equal here is equal as JSON)
                _write(file, data)
        finally:
            if lock is not None:
                os.close(lock)

    def _entries(self, data: dict[str, list[dict[str, Any]]]) -> list[Given]:
        out = []
        for raw in data.get(self.host, []):
            with contextlib.suppress(TypeError, ValueError):
                out.append(Given(**{**raw, "fate": Fate(raw.get("fate", "open"))}))
        return out

    def _store(self, data: dict[str, list[dict[str, Any]]], entries: list[Given]) -> None:
        settled = [e for e in entries if not (e.fate is Fate.OPEN or e.taints)]
        drop = {id(e) for e in settled[:-KEPT_SETTLED]} if len(settled) > KEPT_SETTLED else set()
        data.pop(self.host, None)
        data[self.host] = [{name: getattr(e, name) for name in GIVEN_FIELDS} for e in entries if id(e) not in drop]
        while len(data) > KEPT_HOSTS:
            del data[next(iter(data))]

    # -- what happens --------------------------------------------------------------------------------
    def gave(self, table: str, deal: int, commitment: str, follows: bytes) -> None:
        """This client sends a link to ``commitment`` (noted before it leaves: a crash after sending forgets
        nothing)."""
        with self._held() as data:
            entries = [e for e in self._entries(data)
                       if (e.table, e.commitment, e.follows) != (table, commitment, follows.hex())]
            entries.append(Given(table, deal, commitment, follows.hex(), os.getpid()))
            self._store(data, entries)

    def settle(self, table: str, commitment: str, fate: Fate, kind: Kind | None = None, why: str = "") -> None:
        """What became of the link given to ``commitment`` at ``table`` (nothing, if none was given)."""
        with self._held() as data:
            entries = self._entries(data)
            for i, e in enumerate(entries):
                if (e.table, e.commitment) == (table, commitment) and e.fate is Fate.OPEN:
                    entries[i] = replace(e, fate=fate, kind=str(kind or ""), why=why)
            self._store(data, entries)

    def revealed(self, table: str, deal: int, seeds: list[bytes], void: bool, why: str = "") -> None:
        """A reveal this client saw for ``deal`` at ``table``, checked or not (a client started again that opens
        the table and sees it): a link of its own among ``seeds`` settles its entry."""
        from cardtui.fair import before

        follows = {before(s).hex() for s in seeds}
        with self._held() as data:
            entries = self._entries(data)
            for i, e in enumerate(entries):
                if e.table == table and e.deal == deal and e.fate is Fate.OPEN and (e.follows in follows or void):
                    entries[i] = replace(e, fate=Fate.UNDEALT if void else Fate.DEALT,
                                         kind=Kind.VOID if void else "", why=why, pid=os.getpid())
            self._store(data, entries)

    def follow(self, table: str) -> None:
        """This process opens ``table``: its open entries, from a process now gone (this client started again),
        are this one's to settle."""
        FOLLOWING[self.host, table] = FOLLOWING.get((self.host, table), 0) + 1
        with self._held() as data:
            entries = self._entries(data)
            for i, e in enumerate(entries):
                if e.table == table and e.fate is Fate.OPEN and not _alive(e.pid):
                    entries[i] = replace(e, pid=os.getpid())
            self._store(data, entries)

    def left(self, table: str) -> None:
        """This process stops following ``table``: a link still open there is one it will not see the fate of."""
        count = FOLLOWING.get((self.host, table), 0) - 1
        if count > 0:
            FOLLOWING[self.host, table] = count
            return
        FOLLOWING.pop((self.host, table), None)
        with self._held() as data:
            entries = self._entries(data)
            for i, e in enumerate(entries):
                if e.table == table and e.fate is Fate.OPEN and e.pid == os.getpid():
                    entries[i] = replace(e, fate=Fate.UNSEEN, kind=Kind.UNSEEN)
            self._store(data, entries)

    def taints(self, table: str, mine: frozenset[str] = frozenset()) -> list[Taint]:
        """Every commitment at this host that took a link of this client's and dealt no hand, not said yet, oldest
        first: said now, on the deal being checked (spent). An open entry of a process that is gone, or of this
        one at a table it no longer follows, counts as unseen. ``mine``: commitments at ``table`` whose fate
        the checker following it says itself (spent, not returned)."""
        out: list[Taint] = []
        with self._held() as data:
            entries = self._entries(data)
            for i, e in enumerate(entries):
                if e.told:
                    continue
                if e.table == table and e.commitment in mine:
                    if e.fate is not Fate.OPEN:
                        entries[i] = replace(e, told=True)
                    continue
                stale = e.fate is Fate.OPEN and (not _alive(e.pid) or (
                    e.pid == os.getpid() and (self.host, e.table) not in FOLLOWING))
                if e.taints or stale:
                    entries[i] = replace(e, told=True, fate=Fate.UNSEEN if stale else e.fate,
                                         kind=Kind.UNSEEN if stale else e.kind)
                    out.append(Taint(e.table, e.deal, Kind(entries[i].kind or Kind.UNSEEN), e.why))
            self._store(data, entries)
        return out

    def entries(self) -> list[Given]:
        """Everything remembered of this host (for tests and the bench)."""
        with self._held() as data:
            return self._entries(data)


def _read(file: Path) -> dict[str, list[dict[str, Any]]]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, list)}


def _write(file: Path, data: dict[str, list[dict[str, Any]]]) -> None:
    """Written whole, then put in place (a crash leaves the old file or the new, never half of one), readable by
    this person only."""
    tmp = file.with_name(file.name + f".{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        fd = os.open(tmp, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(data))  # the whole text at once: the encoder in C, not a write per fragment
        os.replace(tmp, file)
