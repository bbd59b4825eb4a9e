"""The one proof the sealed scheme uses: two logarithms are equal (Chaum–Pedersen, made non-interactive
by Fiat–Shamir).

``prove(x, B1, B2, context)`` shows that ``Y1 = x·B1`` and ``Y2 = x·B2`` share the same ``x`` without
telling ``x``. A lock proves with it that the deck it handed on is the deck it was given times its
lock scalar (the sums of the two decks, §S5 of docs/deal.md), a relock that each card's new point is
its old one times the scalar its card key commitment names (§S6), and a seat in a dispute that the
shared point of an envelope is the one its key makes (§S8).

Bytes (docs/deal.md §S4): the nonce is ``r = derive_scalar(scalar_bytes(x), tag("nonce") ‖ transcript)``
(deterministic, as RFC 6979 makes a signature's: the same statement proves the same bytes, which the
vectors rely on, and no random source can leak ``x``); the challenge is ``c = SHA-256(tag("proof") ‖
transcript ‖ R1 ‖ R2)`` mod n, where ``transcript = framed(context) ‖ B1 ‖ Y1 ‖ B2 ‖ Y2``; and
``z = r + c·x`` mod n. A proof is ``c ‖ z``, 64 bytes. A verifier computes ``R1 = z·B1 − c·Y1``,
``R2 = z·B2 − c·Y2`` and checks that they give back ``c``.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtui.hashes import sha256
from cardtui.sealed.group import (
    SCALAR_BYTES,
    N,
    Point,
    add,
    base,
    derive_scalar,
    encode,
    framed,
    mul,
    scalar_bytes,
    tag,
)

PROOF_BYTES = 2 * SCALAR_BYTES


@dataclass(frozen=True)
class Proof:
    """A proof of equal logarithms: its challenge ``c`` and answer ``z``."""

    c: int
    z: int

    def to_bytes(self) -> bytes:
        return scalar_bytes(self.c) + scalar_bytes(self.z)

    @classmethod
    def from_bytes(cls, data: bytes) -> Proof:
        if len(data) != PROOF_BYTES:
            raise ValueError("a proof is 64 bytes")
        c, z = int.from_bytes(data[:SCALAR_BYTES], "big"), int.from_bytes(data[SCALAR_BYTES:], "big")
        if c >= N or z >= N:
            raise ValueError("a proof's numbers lie below n")
        return cls(c, z)


def _transcript(context: bytes, b1: Point, y1: Point, b2: Point, y2: Point) -> bytes:
    return framed(context) + encode(b1) + encode(y1) + encode(b2) + encode(y2)


def _challenge(transcript: bytes, r1: Point, r2: Point) -> int:
    return int.from_bytes(sha256(tag("proof") + transcript + encode(r1) + encode(r2)).digest(), "big") % N


def prove(x: int, b1: Point, y1: Point, b2: Point, y2: Point, context: bytes, b1_log: int | None = None) -> Proof:
    """A proof that ``y1 = x·b1`` and ``y2 = x·b2`` (the caller made them so). A prover that knows ``b1``'s
    logarithm (``b1 = b1_log·G``) passes it, and ``r·b1`` is made from the generator, twice as fast."""
    transcript = _transcript(context, b1, y1, b2, y2)
    r = derive_scalar(scalar_bytes(x), tag("nonce") + transcript)
    r1 = mul(b1, r) if b1_log is None else base(r * b1_log % N)
    c = _challenge(transcript, r1, mul(b2, r))
    return Proof(c, (r + c * x) % N)


def verify(proof: Proof, b1: Point, y1: Point, b2: Point, y2: Point, context: bytes) -> bool:
    """Whether ``proof`` shows that ``y1`` and ``y2`` are ``b1`` and ``b2`` times one scalar."""
    try:
        r1 = add([mul(b1, proof.z), mul(y1, N - proof.c)]) if proof.c else mul(b1, proof.z)
        r2 = add([mul(b2, proof.z), mul(y2, N - proof.c)]) if proof.c else mul(b2, proof.z)
    except ValueError:  # a zero z, or an identity on the way: no honest proof makes either
        return False
    return _challenge(_transcript(context, b1, y1, b2, y2), r1, r2) == proof.c
