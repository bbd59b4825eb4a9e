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

from cardtui.engine.core import Event
from cardtui.server import wire
from cardtui.v1 import common_pb2, table_pb2

BUFFER = 256
"""Recent events kept per table for reconnects (about a hand); older gaps get a snapshot."""
QUEUE = 1024
"""Messages a subscriber may fall behind before it is dropped (it resyncs on return)."""

Holders = tuple[str | None, ...]
"""The token sitting in each seat (None: a bot, or nobody)."""


@dataclass(eq=False)
class Subscriber:
    token: str
    seat: int | None
    queue: asyncio.Queue[bytes | None] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    dropped: bool = False
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Numbered:
    seq: int
    event: Event
    holders: Holders

    def private_to(self, token: str, seat: int | None) -> bool:
        """Whether ``token`` (now at ``seat``) may see this event: it held a seat the event is for."""
        audience = self.event.audience
        if not audience.sees(seat):
            return False
        return audience.seats is None or seat is None or self.holders[seat] == token


def events_bytes(events: Sequence[bytes]) -> bytes:
    """The ``events`` of an ``Update``, from events already serialized."""
    return b"".join(wire.field_bytes(1, e) for e in events)


def update_bytes(seq: int, events: bytes, view: bytes) -> bytes:
    """A ``TableMessage`` with an ``Update`` of already serialized events (``events_bytes``) and view.

    Built from its parts so that each event is serialized once per audience that sees it,
    the events once per distinct set of versions, and each view once per audience, however
    many streams share them.
    """
    return wire.varint(1 << 3) + wire.varint(seq) + wire.field_bytes(3, events + wire.field_bytes(2, view))


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

    def number(self, events: Sequence[Event], holders: Holders) -> list[Numbered]:
        """Give the events their numbers and keep them for replays."""
        batch = [Numbered(self.seq + 1 + i, ev, holders) for i, ev in enumerate(events)]
        if batch:
            self.seq = batch[-1].seq
            self.buffer.extend(batch)
            for n in batch:
                kind = n.event.kind
                if kind == "MatchStarted" or (kind == "HandStarted" and not self._match_opening):
                    self.hand_seq = n.seq
                self._match_opening = kind == "MatchStarted"
        return batch

    def send(self, batch: Sequence[Numbered]) -> None:
        """Each audience with a subscriber: its version of every event, then its view."""
        if not self.subscribers or not batch:
            return
        subscribers = list(self.subscribers)
        audiences = list(dict.fromkeys(sub.seat for sub in subscribers))
        views = dict(zip(audiences, self.view_bytes(audiences), strict=True))
        full: dict[int, bytes] = {}
        hidden: dict[int, bytes] = {}
        blobs: dict[tuple[bool, ...], bytes] = {}
        messages: dict[int | None, bytes] = {}
        for key in audiences:
            sees = tuple(n.event.audience.sees(key) for n in batch)
            blob = blobs.get(sees)
            if blob is None:  # the first audience to see just these events whole
                parts = []
                for n, whole in zip(batch, sees, strict=True):
                    cache = full if whole else hidden
                    part = cache.get(n.seq)
                    if part is None:
                        part = cache[n.seq] = wire.event_message(n.seq, n.event, key).SerializeToString()
                    parts.append(part)
                blob = blobs[sees] = events_bytes(parts)
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
            while not sub.queue.empty():
                sub.queue.get_nowait()
            sub.queue.put_nowait(None)
            return False

    def subscribe(
        self, token: str, seat: int | None, after_seq: int, summary: common_pb2.TableSummary
    ) -> tuple[Subscriber, list[bytes]]:
        """A new subscriber and what it gets first: a snapshot, then any missed events it may see."""
        sub = Subscriber(token, seat)
        first_seq = self.buffer[0].seq if self.buffer else self.seq + 1
        snapshot = table_pb2.Snapshot(table=summary, view=self.view_for(seat), first_seq=first_seq)
        if seat is not None:
            snapshot.seat = seat
        opening = [table_pb2.TableMessage(seq=self.seq, snapshot=snapshot).SerializeToString()]
        replay_from = after_seq
        if not after_seq:  # a newcomer: the hand so far, if one is on the table
            replay_from = max(self.hand_seq, first_seq) - 1 if self.hand_seq else -1
        if 0 <= replay_from < self.seq and replay_from + 1 >= first_seq:
            missed = []
            for n in self.buffer:
                if n.seq > replay_from:
                    viewer = seat if n.private_to(token, seat) else -1
                    missed.append(wire.event_message(n.seq, n.event, viewer, replay=True))
            update = table_pb2.Update(events=missed)
            opening.append(table_pb2.TableMessage(seq=self.seq, update=update).SerializeToString())
        self.subscribers.add(sub)
        return sub, opening

    def unsubscribe(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)

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
