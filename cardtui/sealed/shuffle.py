"""The proof that a lock is a shuffle (docs/deal.md §S5a): cut and choose, made non-interactive.

A lock's proof of sums (``deck.lock``) holds the deck it hands on to the sum of the deck it was handed times its lock;
it cannot tell a shuffle from a deck that moved part of one card into another. This proof can. For each of
``ROUNDS`` rounds the seat makes a *shadow* deck, the deck it was handed locked by a scalar ``t`` and put in an order
``σ`` of the round's own, both derived from its hand secret. The challenge hashes every shadow deck with the deck
handed on; for each round its bit asks the seat to show either how the shadow came from the deck handed in (``t``
and ``σ``) or how the deck handed on comes from the shadow (``u = s/t`` and the order ``ρ`` that takes the shadow to
it). Either answer alone tells nothing of ``s`` or of the seat's order; a deck that is no shuffle of ``s`` times the
deck handed in can answer at most one of the two questions of each round, so passes with a chance of 2^−ROUNDS a
try, and each try costs ROUNDS shadow decks. (That the scalar is ``s`` itself, the one ``S`` commits to, the proof
of sums already holds.)

A seat sends this proof after its lock, while the next seats lock and relock: it is checked behind the deal, never
on the way to anyone's cards.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from cardtui.hashes import sha256
from cardtui.sealed.deck import Hand, SeatSecrets
from cardtui.sealed.faults import Cheat, Fault
from cardtui.sealed.group import N, Point, derive_scalar, encode, framed, inverse, mul, scalar_bytes, tag, u32

ROUNDS = 24


@dataclass(frozen=True)
class Answer:
    """One round's answer: ``opened`` 0 shows ``scalar`` = t and ``order`` = σ (shadow[m] = t·before[σ[m]]); 1 shows
    ``scalar`` = s/t and ``order`` = ρ (after[m] = (s/t)·shadow[ρ[m]])."""

    opened: int
    scalar: int
    order: tuple[int, ...]


@dataclass(frozen=True)
class ShuffleProof:
    """The answer to each round's challenge bit. The shadow decks themselves do not travel: a checker makes each
    again from its answer (from the deck handed in, or back from the deck handed on) and hashes them to the
    challenge, which must give back the sides the answers took."""

    seat: int
    answers: tuple[Answer, ...]


def _label(secrets: SeatSecrets, what: bytes, round_no: int) -> bytes:
    return framed(secrets.hand.digest) + u32(secrets.seat) + framed(what) + u32(round_no)


def shadow(secrets: SeatSecrets, round_no: int) -> tuple[int, tuple[int, ...]]:
    """Round ``round_no``'s ``t`` = derive_scalar(secret, framed(digest) ‖ u32 seat ‖ framed("shadow") ‖ u32 round)
    and ``σ``: the places sorted by HMAC-SHA-256(secret, tag("shadow") ‖ framed(digest) ‖ u32 seat ‖ u32 round ‖
    u32 place)."""
    t = derive_scalar(secrets.secret, _label(secrets, b"shadow", round_no))
    head = tag("shadow") + framed(secrets.hand.digest) + u32(secrets.seat) + u32(round_no)

    def rank(place: int) -> bytes:
        return hmac.new(secrets.secret, head + u32(place), "sha256").digest()

    return t, tuple(sorted(range(len(secrets.hand.cards)), key=rank))


def challenge(hand: Hand, seat: int, after: Sequence[Point], shadows: Sequence[Sequence[Point]]) -> list[int]:
    """The rounds' bits: SHA-256 of ``tag("shuffle") ‖ digest ‖ u32 seat ‖ the deck handed on ‖ every shadow deck in
    round order`` (points in their 33 bytes), read from its first byte's highest bit on."""
    data = tag("shuffle") + hand.digest + u32(seat) + b"".join(encode(p) for p in after)
    data += b"".join(encode(p) for shadow in shadows for p in shadow)
    digest = sha256(data).digest()
    return [(digest[r // 8] >> (7 - r % 8)) & 1 for r in range(len(shadows))]


def prove_shuffle(secrets: SeatSecrets, before: Sequence[Point], after: Sequence[Point]) -> ShuffleProof:
    """``secrets``' seat proves that ``after`` (its lock of ``before``) is a shuffle of ``before`` times its lock."""
    made = [shadow(secrets, r) for r in range(ROUNDS)]
    shadows = tuple(tuple(mul(before[place], t) for place in sigma) for t, sigma in made)
    bits = challenge(secrets.hand, secrets.seat, after, shadows)
    answers: list[Answer] = []
    for bit, (t, sigma) in zip(bits, made, strict=True):
        if bit == 0:
            answers.append(Answer(0, t, sigma))
        else:
            where = {place: m for m, place in enumerate(sigma)}  # σ⁻¹
            answers.append(Answer(1, secrets.lock * inverse(t) % N, tuple(where[p] for p in secrets.order)))
    return ShuffleProof(secrets.seat, tuple(answers))


def check_shuffle(hand: Hand, before: Sequence[Point], after: Sequence[Point], proof: ShuffleProof) -> None:
    """Raise ``Cheat`` (bad lock) unless ``proof`` answers every round of its challenge: each shadow deck made again
    from its answer (side 0: ``shadow[m] = t·before[σ[m]]``; side 1: ``shadow[ρ[m]] = (s/t)⁻¹·after[m]``), and the
    challenge of those shadows asking, round by round, the side each answer took."""
    size = len(before)
    if len(proof.answers) != ROUNDS:
        raise Cheat(proof.seat, Fault.BAD_LOCK, "its shuffle's proof is not whole")
    shadows: list[tuple[Point, ...]] = []
    for round_no, answer in enumerate(proof.answers):
        if not (answer.opened in (0, 1) and 0 < answer.scalar < N and sorted(answer.order) == list(range(size))):
            raise Cheat(proof.seat, Fault.BAD_LOCK, f"its shuffle's proof is malformed at round {round_no + 1}")
        if answer.opened == 0:
            shadows.append(tuple(mul(before[answer.order[m]], answer.scalar) for m in range(size)))
        else:
            back = inverse(answer.scalar)
            shadow: list[Point | None] = [None] * size
            for m in range(size):
                shadow[answer.order[m]] = mul(after[m], back)
            shadows.append(tuple(p for p in shadow if p is not None))
    if challenge(hand, proof.seat, after, shadows) != [a.opened for a in proof.answers]:
        raise Cheat(proof.seat, Fault.BAD_LOCK, "its shuffle's proof fails")


def answer_bytes(answer: Answer) -> bytes:
    """An answer as it travels: one byte (which side), the scalar's 32 bytes, then the order, a byte a place."""
    return bytes([answer.opened]) + scalar_bytes(answer.scalar) + bytes(answer.order)


def answer_from(data: bytes) -> Answer:
    if len(data) < 33 or data[0] not in (0, 1):
        raise ValueError("an answer is a side, a scalar and an order")
    return Answer(data[0], int.from_bytes(data[1:33], "big"), tuple(data[33:]))
