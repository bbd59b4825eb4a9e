"""A table's events out: numbering, the replay buffer, and each subscriber's queue.

Every event gets the table's next number. Each audience (a seat, or the spectators) gets
one message per change — that seat's version of each event, then its view — serialized
once and shared by every stream of that audience. A subscriber outside an event's audience
gets a content-free placeholder with the same number, so numbering has no holes and hidden
cards never leave.

Private events are addressed to a person, not a seat: each buffered event remembers who sat
in each seat when it happened, and a replay gives a token only what was private to that
token. When a seat changes hands, every stream of the old token ends.

A subscriber that comes with nothing (``after_seq`` 0) while a hand is on the table gets the
hand so far after its snapshot, as a replay: a person who sits down or starts watching
mid-hand reads what has been played, never what was private before they came.

A stuck reader cannot hold the table up: its bounded queue overflows, it is dropped with
everything still queued, and it resumes from the last number it actually got.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from cardtui.engine.core import Audience, Event
from cardtui.server import wire
from cardtui.v1 import common_pb2, table_pb2

BUFFER = 256
"""Recent events kept per table for reconnects (about a hand); older gaps get a snapshot."""
QUEUE = 1024
"""Messages a subscriber may fall behind before it is dropped (it resyncs on return)."""

Holders = tuple[str | None, ...]
"""The token sitting in each seat (None: a bot, or nobody)."""


class Mailbox:
    """A stream's messages waiting to be written: a bounded first-in first-out line with one reader.

    ``asyncio.Queue`` serves any number of readers and writers: a line of waiting getters, one of
    waiting putters and an ``Event`` for ``join``, about 3 KB a queue and a few calls more on each
    message. A stream has one reader and writers that never wait (a full line drops its stream),
    so a list and the one future its reader awaits are all it needs. Same calls as the queue's.
    A list, not a deque: a deque keeps a block of 64 slots even empty (about 0.6 KB a stream, six
    streams a table), and a stream's line is nearly always empty or one message long, where taking
    from a list's front costs what a deque's does (a drop empties a full one at once: ``clear``).
    """

    __slots__ = ("_items", "_waiter", "maxsize")

    def __init__(self, maxsize: int = QUEUE) -> None:
        self._items: list[bytes | None] = []
        self._waiter: asyncio.Future[None] | None = None
        self.maxsize = maxsize

    def put_nowait(self, item: bytes | None) -> None:
        if len(self._items) >= self.maxsize:
            raise asyncio.QueueFull
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def get_nowait(self) -> bytes | None:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)

    def empty(self) -> bool:
        return not self._items

    def clear(self) -> None:
        """Everything waiting dropped at once."""
        self._items.clear()

    def qsize(self) -> int:
        return len(self._items)

    async def get(self) -> bytes | None:
        """The next message, once there is one."""
        while not self._items:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiter = waiter
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        return self._items.pop(0)


@dataclass(eq=False)
class Subscriber:
    token: str
    seat: int | None
    queue: Mailbox = field(default_factory=Mailbox)
    dropped: bool = False
    closed: bool = False


Numbered = tuple[int, int, Holders, bytes]
"""A buffered event, as it is sent: its number, who may see it (``audience_mask``), the
holders of the seats when it happened, and its body's bytes (``wire.event_body``).

Plain values only: the garbage collector stops looking at a tuple of them after its first
pass, so the buffers do not lengthen its later pauses. Kept as records instead, every
buffered event was half a dozen objects for it to walk at every pass while the buffers
filled, and its pauses grew long."""

SPECTATORS = 1 << 30
"""The bit of an audience mask that lets spectators see an event (seats use the low bits)."""


def audience_mask(audience: Audience) -> int:
    """An audience as an int: -1 for everyone, else a bit per seat and ``SPECTATORS``."""
    if audience.seats is None:
        return -1
    mask = SPECTATORS if audience.spectators else 0
    for seat in audience.seats:
        mask |= 1 << seat
    return mask


def sees(mask: int, seat: int | None) -> bool:
    """``Audience.sees`` for an audience mask."""
    return mask < 0 or bool(mask & (SPECTATORS if seat is None else 1 << seat))


def private_to(entry: Numbered, token: str, seat: int | None) -> bool:
    """Whether ``token`` (now at ``seat``) may see this event: it held a seat the event is for."""
    _, mask, holders, _ = entry
    return sees(mask, seat) and (mask < 0 or seat is None or holders[seat] == token)


def events_bytes(events: Sequence[bytes]) -> bytes:
    """The ``events`` of an ``Update``, from events already serialized."""
    return b"".join(wire.field_bytes(1, e) for e in events)


def update_bytes(seq: int, events: bytes, view: bytes | None) -> bytes:
    """A ``TableMessage`` with an ``Update`` of already serialized events (``events_bytes``) and
    view (None: none, as in a replay).

    Built from its parts so that each event is serialized once per audience that sees it,
    the events once per distinct set of versions, and each view once per audience, however
    many streams share them.
    """
    body = events if view is None else events + wire.field_bytes(2, view)
    return wire.varint(1 << 3) + wire.varint(seq) + wire.field_bytes(3, body)


def _nothing() -> None:
    pass


class Fanout:
    def __init__(
        self,
        view_for: Callable[[int | None], table_pb2.View],
        view_bytes: Callable[[Sequence[int | None]], list[bytes]],
    ) -> None:
        self.view_for = view_for
        self.view_bytes = view_bytes
        self.seq = 0
        self.buffer: deque[Numbered] = deque(maxlen=BUFFER)
        self.subscribers: set[Subscriber] = set()
        self.hand_seq = 0
        """The number of the event that began the hand on the table (0: none yet); a match's
        first hand begins at its ``MatchStarted``."""
        self._match_opening = False
        self.on_change: Callable[[], None] = _nothing
        """Told when a stream comes or goes (the table's watchers, in the lobby's list)."""

    def number(self, events: Sequence[Event], holders: Holders) -> list[Numbered]:
        """Give the events their numbers, serialize their bodies, and keep them for replays."""
        batch = [(self.seq + 1 + i, audience_mask(ev.audience), holders, wire.event_body(ev.body))
                 for i, ev in enumerate(events)]
        if batch:
            self.seq = batch[-1][0]
            self.buffer.extend(batch)
            for (seq, *_), ev in zip(batch, events, strict=True):
                kind = ev.kind
                if kind == "MatchStarted" or (kind == "HandStarted" and not self._match_opening):
                    self.hand_seq = seq
                self._match_opening = kind == "MatchStarted"
        return batch

    def unnumber(self, batch: Sequence[Numbered]) -> None:
        """The numbers ``number`` just gave, taken back: the change could not be journaled (the table is let go,
        and its closing word must not name a number nobody will ever see)."""
        if batch and batch[-1][0] == self.seq:
            self.seq = batch[0][0] - 1
            for _ in batch:
                if self.buffer and self.buffer[-1][0] > self.seq:
                    self.buffer.pop()

    def restore(self, seq: int, kept: Sequence[Numbered]) -> None:
        """A table brought back at event ``seq``: its buffer holds again the latest events as they
        were kept (``Journal.sent``), so a stream that resumes from before them gets them, even those
        its process journaled and died before sending. Only an unbroken run up to ``seq`` is kept
        (a store older than the kept events gives none: a snapshot then)."""
        self.seq = seq
        run: list[Numbered] = []
        for entry in reversed(kept):
            if entry[0] != (run[-1][0] - 1 if run else seq):
                break
            run.append(entry)
        self.buffer.clear()
        self.buffer.extend(reversed(run[:BUFFER]))
        self.hand_seq = 0
        for number, _, _, body in self.buffer:
            kind = table_pb2.Event.FromString(wire.event_bytes(number, body)).WhichOneof("body")
            if kind == "match_started" or (kind == "hand_started" and not self._match_opening):
                self.hand_seq = number
            self._match_opening = kind == "match_started"

    def send(self, batch: Sequence[Numbered]) -> None:
        """Each audience with a subscriber: its version of every event, then its view."""
        if not self.subscribers or not batch:
            return
        subscribers = list(self.subscribers)
        audiences = list(dict.fromkeys(sub.seat for sub in subscribers))
        views = dict(zip(audiences, self.view_bytes(audiences), strict=True))
        blobs: dict[tuple[bool, ...], bytes] = {}
        messages: dict[int | None, bytes] = {}
        for key in audiences:
            seen = tuple(sees(mask, key) for _, mask, _, _ in batch)
            blob = blobs.get(seen)
            if blob is None:  # the first audience to see just these events whole
                blob = blobs[seen] = events_bytes([wire.event_bytes(seq, body if whole else wire.HIDDEN)
                                                   for (seq, _, _, body), whole in zip(batch, seen, strict=True)])
            messages[key] = update_bytes(self.seq, blob, views[key])
        for sub in subscribers:
            self.push(sub, messages[sub.seat])

    def push(self, sub: Subscriber, msg: bytes) -> bool:
        if sub.dropped or sub.closed:
            return False
        try:
            sub.queue.put_nowait(msg)
            return True
        except asyncio.QueueFull:
            # Everything still queued goes too, so the last number it did get is where it
            # resumes: a hole in the middle of its queue would be lost for good.
            sub.dropped = True
            self.subscribers.discard(sub)
            sub.queue.clear()
            sub.queue.put_nowait(None)
            self.on_change()
            return False

    def subscribe(
        self, token: str, seat: int | None, after_seq: int, summary: common_pb2.TableSummary
    ) -> tuple[Subscriber, list[bytes]]:
        """A new subscriber and what it gets first: a snapshot, then any missed events it may see."""
        sub = Subscriber(token, seat)
        first_seq = self.buffer[0][0] if self.buffer else self.seq + 1
        snapshot = table_pb2.Snapshot(table=summary, view=self.view_for(seat), first_seq=first_seq)
        if seat is not None:
            snapshot.seat = seat
        opening = [table_pb2.TableMessage(seq=self.seq, snapshot=snapshot).SerializeToString()]
        replay_from = after_seq
        if not after_seq:  # a newcomer: the hand so far, if one is on the table
            replay_from = max(self.hand_seq, first_seq) - 1 if self.hand_seq else -1
        if 0 <= replay_from < self.seq and replay_from + 1 >= first_seq:
            missed = [wire.event_bytes(entry[0], entry[3] if private_to(entry, token, seat) else wire.HIDDEN,
                                       replay=True)
                      for entry in self.buffer if entry[0] > replay_from]
            opening.append(update_bytes(self.seq, events_bytes(missed), None))
        self.subscribers.add(sub)
        self.on_change()
        return sub, opening

    def unsubscribe(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)
        self.on_change()

    def end(self, reason: str, resubscribe: bool, token: str | None = None,
            args: Mapping[str, str] | None = None) -> None:
        """Close every stream (of ``token`` only, if given) with a closing word: ``reason`` is an
        English template (the message id), ``args`` fill in its fields."""
        said = reason.format(**args) if args else reason
        closing = table_pb2.TableMessage(
            seq=self.seq, closing=table_pb2.Closing(reason=said, resubscribe=resubscribe,
                                                    problem=wire.problem(reason, args))
        ).SerializeToString()
        for sub in list(self.subscribers):
            if token is None or sub.token == token:
                self.push(sub, closing)
                sub.closed = True
                self.subscribers.discard(sub)
        self.on_change()
