"""The lobby's list as a stream (``Lobby.WatchTables``): a snapshot of the room's tables, then the tables that
changed, as a table's stream sends its events, instead of every person in a lobby asking for the whole list every
two seconds.

Two parts. ``Listings`` is one process's own tables, watched: a table tells it when something that its entry
shows may have changed (a seat's holder, someone away or back, a watcher's stream, play begun or over: ``touch``),
and a flush, at most every ``FLUSH_SECONDS``, looks at the tables touched since, compares a key that costs next to
nothing (the seats' version, the watchers, the status), builds an entry again only where that moved, and sends
each watcher the entries that differ from the last ones sent, built once for all of them. A table whose play
goes on with nobody coming or going costs nothing here. It does nothing at all while nobody watches.

``Feed`` is the room's list as one lobby serves it: this process's ``Listings``, and, where other processes
drive tables from the same store (table workers, other hosts), each of theirs, followed over one stream per
process (``Hosts.WatchTables``) while someone watches, whoever and however many watch; what changed goes to its
watchers in one message at most every ``PACE_SECONDS``. It keeps each table's
entry and the process it came from, so a table taken over by another process moves without being dropped, and a
process that comes back (a worker replaced) says, by its snapshot, which of its tables are gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterable, AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import grpc

from cardtui.server.base import wire
from cardtui.v1 import common_pb2, hosts_pb2_grpc, lobby_pb2

if TYPE_CHECKING:
    from cardtui.server.lobby.room import Room
    from cardtui.server.lobby.routes import Router

log = logging.getLogger("cardtui.listings")

FLUSH_SECONDS = 0.25
"""How long changes gather before they are sent: a seat taken and the match it starts, in one update."""
QUEUE = 256
"""Updates a watcher may fall behind by before its stream is ended (it asks again, and starts from a snapshot)."""
SOURCES_SECONDS = 2.0
"""How often a lobby looks in the store for the room's processes it follows (a worker replaced, a host come)."""
RETRY_SECONDS = 0.5
"""How soon a lobby follows again a process whose stream broke."""
PACE_SECONDS = 4.0
"""The most often a lobby's watcher is sent a change once the room is busy: what changes meanwhile comes together in
one message. Each message costs the server gRPC's own work for every stream it goes to, about 0.3 ms, more than the
rest of a change costs in all (``make bench --only lobby``, bench/marks.md), so a busy room's list moves once every
four seconds; but a change after a quiet spell goes out at once (``FLUSH_SECONDS``), so a person who opens a table
or takes a seat sees the lobby answer, and a room where nothing changes sends nothing."""
FIRST_SECONDS = 2.0
"""How long a new feed waits for each process's first snapshot before it gives its own (as ``ListTables`` waits
for each process's list: ``routes.LIST_SECONDS``)."""
FINISHED = common_pb2.TABLE_STATUS_FINISHED
SNAPSHOT = wire.varint(3 << 3) + wire.varint(1)
"""``TablesUpdate.snapshot = true``, serialized."""


def update_bytes(entries: list[bytes], removed: list[str], snapshot: bool = False) -> bytes:
    """A ``TablesUpdate``, serialized from entries already serialized (``Table.listed``: field 1)."""
    return (b"".join(entries) + b"".join(wire.field_bytes(2, table_id.encode()) for table_id in removed)
            + (SNAPSHOT if snapshot else b""))


class Watcher:
    """One stream's queue of serialized updates; None at its end (it fell behind)."""

    def __init__(self, include_finished: bool) -> None:
        self.include_finished = include_finished
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(QUEUE)
        self.ended = False

    def put(self, update: bytes) -> None:
        if self.ended:
            return
        try:
            self.queue.put_nowait(update)
        except asyncio.QueueFull:
            self.ended = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    async def updates(self) -> AsyncIterator[bytes]:
        while (update := await self.queue.get()) is not None:
            yield update


class Listings:
    """This process's own tables as the lobby lists them, and whoever watches them change."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.watchers: set[Watcher] = set()
        self._dirty: set[str] = set()
        self._keys: dict[str, object] = {}
        self._sent: dict[str, bytes] = {}
        """Each table's entry as last sent (the open tables', and the finished ones')."""
        self._flush: asyncio.TimerHandle | None = None

    def touching(self, table_id: str) -> Callable[[], None]:
        """What a table calls when its entry may have changed (``Table.on_listing``)."""
        return lambda: self.touch(table_id)

    def touch(self, table_id: str) -> None:
        """Something the entry of ``table_id`` shows may have changed (a table's own call, cheap when nobody
        watches)."""
        if self.watchers:
            self._dirty.add(table_id)
            if self._flush is None:
                self._flush = asyncio.get_running_loop().call_later(FLUSH_SECONDS, self.flush)

    async def watch(self, include_finished: bool) -> AsyncIterator[bytes]:
        """A snapshot of this process's tables, then each change as it is flushed."""
        watcher = Watcher(include_finished)
        if not self.watchers:  # nothing was followed while nobody watched: start from what is there now
            self._keys = {table_id: table.listing_key() for table_id, table in self.room.tables.items()}
            self._sent = {table_id: table.listed() for table_id, table in self.room.tables.items()}
            self._sent.update(self.room.finished_entries())
        self.watchers.add(watcher)
        try:
            yield update_bytes([self.room.listing(include_finished)], [], snapshot=True)
            async for update in watcher.updates():
                yield update
        finally:
            self.watchers.discard(watcher)
            if not self.watchers:
                self._dirty.clear()
                if self._flush is not None:
                    self._flush.cancel()
                    self._flush = None

    def flush(self) -> None:
        """The tables touched since the last flush: those whose entries changed, sent to every watcher."""
        self._flush = None
        dirty, self._dirty = self._dirty, set()
        changed: list[bytes] = []
        closed: list[bytes] = []
        gone: list[str] = []
        finished = self.room.finished_entries()
        for table_id in dirty:
            table = self.room.tables.get(table_id)
            if table is not None:
                key = table.listing_key()
                if self._keys.get(table_id) == key:
                    continue
                self._keys[table_id] = key
                entry = table.listed()
                if self._sent.get(table_id) != entry:
                    self._sent[table_id] = entry
                    changed.append(entry)
                continue
            self._keys.pop(table_id, None)
            if table_id in finished and self._sent.get(table_id) != finished[table_id]:
                self._sent[table_id] = finished[table_id]
                closed.append(finished[table_id])
                gone.append(table_id)
            elif table_id not in finished and self._sent.pop(table_id, None) is not None:
                gone.append(table_id)
        if len(self._sent) > len(self.room.tables) + len(finished):  # finished tables the room lists no more
            for table_id in [t for t in self._sent if t not in self.room.tables and t not in finished]:
                del self._sent[table_id]
                gone.append(table_id)
        if not (changed or gone):
            return
        with_finished = update_bytes(changed + closed, [t for t in gone if t not in finished])
        open_only = update_bytes(changed, gone)
        for watcher in list(self.watchers):
            watcher.put(with_finished if watcher.include_finished else open_only)


@dataclass
class _Entry:
    body: bytes
    """The entry, serialized as a ``tables`` field."""
    finished: bool
    source: str
    """The process it came from: "" for this one, else its address."""


@dataclass
class Feed:
    """The room's list as this lobby serves it: its own tables' and every other process's, merged."""

    room: Room
    router: Router | None = None
    entries: dict[str, _Entry] = field(default_factory=dict)
    watchers: set[Watcher] = field(default_factory=set)
    _followers: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    _task: asyncio.Task[None] | None = None
    _waiting: set[str] = field(default_factory=set)
    """The processes whose first snapshot the feed waits for before it gives its own (``FIRST_SECONDS`` at most)."""
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    _joining: int = 0
    """Watchers come and waiting for the first snapshots: while any is, the followers are kept."""
    _changed: dict[str, _Entry] = field(default_factory=dict)
    """What changed since the last message sent (``PACE_SECONDS``), and what went."""
    _gone: set[str] = field(default_factory=set)
    _pace: asyncio.TimerHandle | None = None
    _last: float = float("-inf")
    """When the last message went (the loop's clock)."""

    async def watch(self, include_finished: bool) -> AsyncIterator[bytes]:
        """The room's tables (snapshot), then each change as any process sends it."""
        watcher = Watcher(include_finished)
        self._joining += 1  # counted from here: a watcher that leaves meanwhile does not stop what this one waits for
        joined = False
        try:
            if self._task is None:
                self._ready = asyncio.Event()
                self._task = asyncio.get_running_loop().create_task(self._follow_all())
            with contextlib.suppress(TimeoutError):  # a process slow to answer: its tables come as changes
                await asyncio.wait_for(self._ready.wait(), FIRST_SECONDS)
            self.watchers.add(watcher)  # and its snapshot made at once: nothing comes between the two
            self._joining -= 1
            joined = True
            yield update_bytes([e.body for e in self.entries.values() if include_finished or not e.finished], [],
                               snapshot=True)
            async for update in watcher.updates():
                yield update
        finally:
            if not joined:
                self._joining -= 1
            self.watchers.discard(watcher)
            if not self.watchers and not self._joining:
                await self.stop()

    async def stop(self) -> None:
        """Nobody watches: stop following, forget what was followed. All of it is forgotten before the first
        wait, so a watcher who comes while the followers wind down starts afresh (a lobby that leaves its list
        and asks for it again at once: its old stream ends as its new one begins)."""
        if self._pace is not None:
            self._pace.cancel()
            self._pace = None
        self._changed, self._gone = {}, set()
        task, self._task = self._task, None
        running = [*self._followers.values(), *([task] if task is not None else [])]
        self._followers = {}
        self.entries.clear()
        for each in running:
            each.cancel()
        for each in running:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await each

    async def _follow_all(self) -> None:
        self._waiting = {""}
        self._followers[""] = asyncio.get_running_loop().create_task(self._read("", self._own()))
        while True:
            if self.router is not None:
                self._sources()
            await asyncio.sleep(SOURCES_SECONDS)

    async def _own(self) -> AsyncIterator[lobby_pb2.TablesUpdate]:
        async for update in self.room.listings.watch(include_finished=True):
            yield lobby_pb2.TablesUpdate.FromString(update)

    def _sources(self) -> None:
        """Follow every other process the store names; forget those it no longer names."""
        assert self.router is not None
        owners = self.room.store.owners
        try:
            addresses = {o.address for o in owners.all() if o.id != owners.me and o.address}
        except Exception:  # the store away: the processes followed now are followed on
            return
        for address in addresses - set(self._followers):
            if not self._ready.is_set():
                self._waiting.add(address)
            self._followers[address] = asyncio.get_running_loop().create_task(self._follow(address))
        for address in set(self._followers) - addresses - {""}:
            self._followers.pop(address).cancel()
            self._apply(address, lobby_pb2.TablesUpdate(snapshot=True))  # its tables, unless another has them

    async def _follow(self, address: str) -> None:
        """Another process's tables, followed for as long as it is in the store, its stream taken up again when it
        breaks (a worker replaced at the same address starts with a snapshot)."""
        assert self.router is not None
        router = self.router
        request = lobby_pb2.WatchTablesRequest(include_finished=True)
        while True:
            stream = hosts_pb2_grpc.HostsStub(router.channel(address)).WatchTables(
                request, metadata=router._passing(None))
            try:
                await self._read(address, stream)
            except grpc.aio.AioRpcError:
                self._answered(address)  # gone or starting: its entries stay until it answers or the store forgets it
            finally:
                stream.cancel()
            await asyncio.sleep(RETRY_SECONDS)

    async def _read(self, source: str, updates: AsyncIterable[lobby_pb2.TablesUpdate]) -> None:
        async for update in updates:
            self._apply(source, update)
            self._answered(source)

    def _answered(self, source: str) -> None:
        self._waiting.discard(source)
        if not self._waiting:
            self._ready.set()

    def _apply(self, source: str, update: lobby_pb2.TablesUpdate) -> None:
        """One process's update merged into the room's list, and what changed sent to every watcher."""
        changed: list[tuple[str, _Entry]] = []
        gone: list[str] = []
        named = {t.id for t in update.tables}
        dropped = list(update.removed)
        if update.snapshot:
            dropped += [tid for tid, e in self.entries.items() if e.source == source and tid not in named]
        for table_id in dropped:
            entry = self.entries.get(table_id)
            if entry is not None and entry.source == source:
                del self.entries[table_id]
                gone.append(table_id)
        for table in update.tables:
            entry = _Entry(wire.field_bytes(1, table.SerializeToString()), table.status == FINISHED, source)
            kept = self.entries.get(table.id)
            self.entries[table.id] = entry
            if kept is None or kept.body != entry.body:
                changed.append((table.id, entry))
        if not (changed or gone) or not self.watchers:
            return
        for table_id, entry in changed:
            self._changed[table_id] = entry
            self._gone.discard(table_id)
        for table_id in gone:
            self._changed.pop(table_id, None)
            self._gone.add(table_id)
        if self._pace is None:
            loop = asyncio.get_running_loop()
            # at once after a quiet spell (what a seat taken changes comes together first), else a pace from the last
            when = max(FLUSH_SECONDS, self._last + PACE_SECONDS - loop.time())
            self._pace = loop.call_later(when, self._send)

    def _send(self) -> None:
        """What changed since the last message, in one message to every watcher."""
        self._pace = None
        self._last = asyncio.get_running_loop().time()
        changed, gone = list(self._changed.items()), list(self._gone)
        self._changed, self._gone = {}, set()
        with_finished = update_bytes([e.body for _, e in changed], gone)
        open_only = update_bytes([e.body for _, e in changed if not e.finished],
                                 gone + [table_id for table_id, e in changed if e.finished])
        for watcher in list(self.watchers):
            watcher.put(with_finished if watcher.include_finished else open_only)
