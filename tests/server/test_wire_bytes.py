"""Views spliced from their parts' bytes: remembered by value, within a bound, never stale."""

from __future__ import annotations

import dataclasses

import pytest

from cardtui.engine.cacho import CachoSeat, SeatStatus
from cardtui.engine.cards import Card
from cardtui.server import wire
from cardtui.v1 import cacho_pb2


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
