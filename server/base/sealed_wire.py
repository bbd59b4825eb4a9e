"""A sealed table's steps read from the wire (``SealRequest``, sealed.proto): bytes into points, proofs, keys and
envelopes, or a sentence saying what is malformed (``InvalidArgument``). What a step means, and whether it holds, is
the table's to judge (``server.actor.sealed``)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from cardtui.sealed.deck import Lock
from cardtui.sealed.envelopes import Envelope
from cardtui.sealed.group import Point, decode, scalar_from
from cardtui.sealed.ledger import Opening
from cardtui.sealed.proofs import Proof
from cardtui.sealed.shuffle import ShuffleProof, answer_from
from cardtui.server.base.errors import InvalidArgument
from cardtui.v1 import sealed_pb2

MOST = 64
"""The most items of one kind a step may carry: a deck, its commitments and its proofs are 40, a hand's
envelopes from one seat a few, a shuffle's answers 24."""
MAX_SEAT = 64
MAX_LABEL = 32
MAX_SEALED = 4096

T = TypeVar("T")


@dataclass(frozen=True)
class Step:
    """One step a seat sends (``Table.Seal``), read from the wire: ``kind`` is the request's ``step`` field."""

    kind: str
    pledge: bytes = b""
    point: Point | None = None
    lock: Lock | None = None
    deck: tuple[Point, ...] = ()
    commitments: tuple[Point, ...] = ()
    envelopes: tuple[Envelope, ...] = ()
    shuffle: ShuffleProof | None = None
    proofs: tuple[Proof, ...] = ()
    openings: tuple[Opening, ...] = ()
    place: int = -1
    checked: bool = False
    """Its proofs were checked already, against the hand as the ledger holds it (``Sealing.check_apart``, off the
    server's loop; or the host's own seat's, made by the host): never set from the wire."""


def _many(items: Sequence[bytes], read: Callable[[bytes], T], what: str) -> tuple[T, ...]:
    if len(items) > MOST:
        raise InvalidArgument("A sealed step carries at most {most} {what}.", most=MOST, what=what)
    try:
        return tuple(read(bytes(item)) for item in items)
    except ValueError as e:
        raise InvalidArgument("A sealed step's {what} are malformed: {why}.", what=what, why=str(e)) from None


def _point(data: bytes) -> Point:
    try:
        return decode(data)
    except ValueError as e:
        raise InvalidArgument("A point is malformed: {why}.", why=str(e)) from None


def _proof(data: bytes) -> Proof:
    try:
        return Proof.from_bytes(data)
    except ValueError as e:
        raise InvalidArgument("A proof is malformed: {why}.", why=str(e)) from None


def _seat(n: int) -> int:
    if not 0 <= n < MAX_SEAT:
        raise InvalidArgument("A seat is a number from 0 to {most}.", most=MAX_SEAT - 1)
    return n


def opening(msg: sealed_pb2.SealedOpening) -> Opening:
    if len(msg.keys) > MAX_SEAT or len(msg.card) > 8 or not 0 <= msg.place < MOST:
        raise InvalidArgument("A card opened is a place, a card's name and one key a seat.")
    keys: dict[int, int] = {}
    for key in msg.keys:
        try:
            keys[_seat(key.seat)] = scalar_from(bytes(key.key))
        except ValueError as e:
            raise InvalidArgument("A card key is malformed: {why}.", why=str(e)) from None
    return Opening(_seat(msg.seat), msg.place, msg.card, keys)


def envelope(msg: sealed_pb2.SealedEnvelope) -> Envelope:
    if len(msg.label) > MAX_LABEL or len(msg.sealed) > MAX_SEALED:
        raise InvalidArgument("An envelope's label is at most {label} characters and its bytes at most {most}.",
                              label=MAX_LABEL, most=MAX_SEALED)
    return Envelope(_seat(msg.sender), _seat(msg.recipient), msg.label, bytes(msg.sealed))


def said(request: sealed_pb2.SealRequest) -> bytes:
    """What a step says, whichever token sent it: its digest, by which a step sent again (its answer lost on the
    way, its sender unsure whether it was taken) is known for the one taken already (``Sealing.repeated``)."""
    step = sealed_pb2.SealRequest()
    step.CopyFrom(request)
    step.ClearField("token")
    return hashlib.sha256(step.SerializeToString(deterministic=True)).digest()


def step_of(request: sealed_pb2.SealRequest, seat: int) -> Step:
    """The request's step, read (every byte string decoded), for the table to judge."""
    kind = request.WhichOneof("step")
    match kind:
        case "pledge":
            return Step(kind, pledge=bytes(request.pledge.pledge))
        case "box":
            return Step(kind, point=_point(bytes(request.box.point)))
        case "lock":
            m = request.lock
            deck = _many(m.deck, decode, "points")
            return Step(kind, lock=Lock(seat, _point(bytes(m.point)), deck, _proof(bytes(m.proof))))
        case "relock":
            return Step(kind, deck=_many(request.relock.deck, decode, "points"),
                        commitments=_many(request.relock.commitments, decode, "commitments"))
        case "envelopes":
            if len(request.envelopes.envelopes) > MOST:
                raise InvalidArgument("A sealed step carries at most {most} envelopes.", most=MOST)
            return Step(kind, envelopes=tuple(envelope(e) for e in request.envelopes.envelopes))
        case "shuffle":
            return Step(kind, shuffle=ShuffleProof(seat, _many(request.shuffle.answers, answer_from, "answers")))
        case "proofs":
            return Step(kind, proofs=_many(request.proofs.proofs, Proof.from_bytes, "proofs"))
        case "play":
            if not request.play.HasField("card"):
                raise InvalidArgument("A card played is sent with its place, its name and its keys.")
            return Step(kind, openings=(opening(request.play.card),))
        case "down":
            if not 0 <= request.down.place < MOST:
                raise InvalidArgument("A card played face down is a place of the deck.")
            return Step(kind, place=request.down.place)
        case "show":
            if len(request.show.cards) > 3:
                raise InvalidArgument("At most three cards are shown.")
            return Step(kind, openings=tuple(opening(o) for o in request.show.cards))
        case "reject":
            if len(request.reject.cards) != 3:
                raise InvalidArgument("A block rejected is shown whole: its three cards, each with its keys.")
            return Step(kind, openings=tuple(opening(o) for o in request.reject.cards))
        case "pass_block":
            if not request.pass_block.HasField("envelope"):
                raise InvalidArgument("A block passed is sent with its keys, sealed for the partner.")
            return Step("pass", envelopes=(envelope(request.pass_block.envelope),))
        case "choose":
            if not 0 <= request.choose.place < MOST:
                raise InvalidArgument("A card chosen to play blind is a place of the deck.")
            return Step(kind, place=request.choose.place)
    raise InvalidArgument("A Seal request needs a step.")
