"""Views spliced from their parts' bytes: remembered by value, within a bound, never stale; events
buffered as the bytes they go out as."""

from __future__ import annotations

import dataclasses
import gc

import pytest

from cardtui.engine.cacho.rules import CachoSeat, SeatStatus
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, Event, only
from cardtui.engine.events import Acted, CardsDealt, HandStarted
from cardtui.server.actor.fanout import Fanout, private_to, sees
from cardtui.server.base import wire
from cardtui.v1 import cacho_pb2, table_pb2


def seat(chips: int, cards: tuple[str, ...] = ()) -> CachoSeat:
    return CachoSeat(0, "ana", chips, 0, SeatStatus.IN, tuple(Card.parse(c) for c in cards), len(cards), None)


def test_a_seat_is_serialized_as_its_message_and_a_changed_seat_anew() -> None:
    encode = wire.encoder(CachoSeat, cacho_pb2.CachoSeat.DESCRIPTOR)
    before = seat(20, ("4S",))
    assert cacho_pb2.CachoSeat.FromString(encode(before)) == wire.message(before, cacho_pb2.CachoSeat)
    after = dataclasses.replace(before, chips=19, put=1)
    parsed = cacho_pb2.CachoSeat.FromString(encode(after))
    assert (parsed.chips, parsed.put, list(parsed.cards)) == (19, 1, ["4S"])
    assert encode(seat(20, ("4S",))) == encode(before)  # an equal record: the same bytes


def test_what_is_remembered_stays_within_its_bound_oldest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "MEMO_SIZE", 50)
    wire.forget()
    encode = wire.encoder(CachoSeat, cacho_pb2.CachoSeat.DESCRIPTOR)
    for chips in range(500):
        assert cacho_pb2.CachoSeat.FromString(encode(seat(chips))).chips == chips
    assert all(len(memo) <= 50 for memo in wire._MEMOS)
    assert any(seat(499) in memo for memo in wire._MEMOS)
    assert not any(seat(0) in memo for memo in wire._MEMOS)
    wire.forget()
    assert not any(wire._MEMOS)


def test_every_memo_together_stays_within_the_total(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``MEMO_TOTAL``, a memo makes room in itself, and a memo just begun takes from the largest: the memos
    together never hold more, and each still answers with the right bytes."""
    monkeypatch.setattr(wire, "MEMO_TOTAL", 60)
    wire.forget()
    seats = wire.encoder(CachoSeat, cacho_pb2.CachoSeat.DESCRIPTOR)
    for chips in range(100):
        assert cacho_pb2.CachoSeat.FromString(seats(seat(chips))).chips == chips
    assert sum(len(memo) for memo in wire._MEMOS) <= 60
    hands = wire.encoder(HandStarted, table_pb2.HandStarted.DESCRIPTOR)  # a type met late still gets its share
    for n in range(1, 40):
        assert table_pb2.HandStarted.FromString(hands(HandStarted(n, 0))).hand == n
    assert sum(len(memo) for memo in wire._MEMOS) <= 60
    assert any(HandStarted(39, 0) in memo for memo in wire._MEMOS)
    wire.forget()


def events() -> list[Event]:
    cards = tuple(Card.parse(c) for c in ("4S", "7H", "AC"))
    return [Event(HandStarted(3, 1)), Event(CardsDealt(0, cards), only(0)), Event(CardsDealt(1, cards), only(1)),
            Event(Acted(0, Action("bet", 2)))]


def test_a_buffered_event_goes_out_as_the_engine_made_it_to_those_who_may_see_it() -> None:
    fanout = Fanout(lambda seat: table_pb2.View(), lambda audiences: [b"" for _ in audiences])
    batch = fanout.number(events(), ("tok-a", "tok-b"))
    assert [seq for seq, *_ in batch] == [1, 2, 3, 4] and fanout.seq == 4 and fanout.hand_seq == 1
    for (seq, mask, _, body), event in zip(batch, events(), strict=True):
        for viewer in (0, 1, None):
            assert sees(mask, viewer) == event.audience.sees(viewer)
            got = wire.event_bytes(seq, body if sees(mask, viewer) else wire.HIDDEN)
            assert table_pb2.Event.FromString(got) == wire.event_message(seq, event, viewer)
    dealt_to_a = batch[1]
    assert private_to(dealt_to_a, "tok-a", 0) and not private_to(dealt_to_a, "tok-b", 0)  # another person in seat 0
    assert not private_to(dealt_to_a, "tok-b", 1) and not private_to(dealt_to_a, "tok-w", None)
    assert all(private_to(batch[0], token, seat) for token, seat in (("tok-a", 0), ("tok-w", None)))


def test_the_replay_buffer_is_plain_values_the_collector_stops_walking() -> None:
    """A table's buffer must not lengthen the collector's pauses: after one pass it no longer
    tracks a buffered event (records kept there were objects for it to walk at every pass)."""
    fanout = Fanout(lambda seat: table_pb2.View(), lambda audiences: [b"" for _ in audiences])
    holders = ("tok-a", None)
    for _ in range(20):
        fanout.number(events(), holders)
    gc.collect()
    assert fanout.buffer and not any(gc.is_tracked(entry) for entry in fanout.buffer)
