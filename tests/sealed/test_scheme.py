"""The sealed scheme's core (cardtui.sealed): locks, relocks, card keys, envelopes and the proofs, each
attacked as a cheat would: a wrong step is named for its seat, an honest one never is."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtui.fair import PACKS
from cardtui.sealed.deck import (
    Hand,
    Lock,
    Passes,
    Relock,
    SeatSecrets,
    check_lock,
    check_relock,
    deal,
    lock,
)
from cardtui.sealed.envelopes import (
    BoxKey,
    Envelope,
    check_disclosure,
    disclose,
    open_envelope,
    open_with,
    pledge,
    seal,
    seal_code,
)
from cardtui.sealed.faults import Cheat, Fault
from cardtui.sealed.group import G, N, add, base, card_point, decode, encode, hash_to_point, inverse, mul, product, sub
from cardtui.sealed.proofs import Proof, prove, verify
from cardtui.sealed.shuffle import ShuffleProof, answer_bytes, answer_from, check_shuffle, prove_shuffle
from tests.sealed.table import PACK_OF


def hand_of(seats: int, game: str = "truco_paulista", number: int = 1) -> Hand:
    return Hand("t-sealed", number, game, tuple(range(seats)), PACKS[PACK_OF[game]])


def secrets_of(hand: Hand, rng: random.Random) -> tuple[SeatSecrets, ...]:
    return tuple(SeatSecrets(rng.randbytes(32), seat, hand) for seat in hand.order)


@pytest.fixture(scope="module")
def dealt() -> tuple[Hand, tuple[SeatSecrets, ...], Passes]:
    hand = hand_of(4)
    seats = secrets_of(hand, random.Random(90))
    return hand, seats, deal(seats)


def test_every_card_of_both_packs_has_its_own_point() -> None:
    names = PACKS["french40"] + PACKS["spanish40"]
    encoded = {encode(card_point(card)) for card in names}
    assert len(encoded) == len(names) == 80
    assert encode(card_point("AS")) == encode(card_point("AS"))


def test_a_deal_checks_and_each_place_opens_to_one_card_with_every_key(dealt: tuple[Hand, tuple[SeatSecrets, ...],
                                                                                     Passes]) -> None:
    hand, seats, passes = dealt
    passes.check(hand)
    deck = passes.sealed(hand)
    opened = [deck.open(place, {s.seat: s.card_key(place) for s in seats}) for place in range(40)]
    assert sorted(opened, key=str) == sorted(hand.cards)  # a permutation of the pack: every card once


def test_a_card_does_not_open_without_its_holders_key(dealt: tuple[Hand, tuple[SeatSecrets, ...], Passes]) -> None:
    hand, seats, passes = dealt
    deck = passes.sealed(hand)
    with pytest.raises(Cheat) as caught:
        deck.open(0, {s.seat: s.card_key(0) for s in seats[1:]})
    assert (caught.value.seat, caught.value.fault) == (0, Fault.WITHHELD_KEY)
    # every key but one, and the holder's own replaced by any other scalar: the points open to no card
    others = product(s.card_key(0) for s in seats[1:])
    assert hand.card(mul(deck.cards[0], others)) is None
    assert hand.card(mul(deck.cards[0], others * 12345 % N)) is None


def test_a_wrong_key_is_named_for_its_seat(dealt: tuple[Hand, tuple[SeatSecrets, ...], Passes]) -> None:
    hand, seats, passes = dealt
    deck = passes.sealed(hand)
    keys = {s.seat: s.card_key(7) for s in seats}
    keys[2] = seats[2].card_key(8)  # seat 2 gives another card's key
    with pytest.raises(Cheat) as caught:
        deck.open(7, keys)
    assert (caught.value.seat, caught.value.fault) == (2, Fault.WRONG_KEY)
    assert "Seat 3" in str(caught.value)


def test_the_keys_of_one_holder_open_its_cards_only(dealt: tuple[Hand, tuple[SeatSecrets, ...], Passes]) -> None:
    hand, seats, passes = dealt
    deck = passes.sealed(hand)
    places = [0, 1, 2]
    received = {s.seat: {p: s.card_key(p) for p in places} for s in seats}
    mine = deck.open_own(places, received)
    assert len(set(mine.values())) == 3
    # the same keys on another place open nothing
    assert hand.card(mul(deck.cards[3], product(s.card_key(0) for s in seats))) is None


def test_a_lock_that_is_not_a_shuffle_is_named(dealt: tuple[Hand, tuple[SeatSecrets, ...], Passes]) -> None:
    hand, seats, passes = dealt
    before = passes.locks[0].deck
    honest = lock(seats[1], before)
    check_lock(hand, before, honest)
    s = seats[1].lock
    # a card doubled and another dropped
    doubled = Lock(1, honest.point, (honest.deck[0], *honest.deck[:-1]), honest.proof)
    # a card swapped for a card of one's choosing, and the proof made over the new deck's sum
    chosen = (mul(card_point("4C"), s), *honest.deck[1:])
    forged = prove(s, G, honest.point, add(list(before)), add(list(chosen)), hand.context(b"lock", 1))
    swapped = Lock(1, honest.point, chosen, forged)
    # the right deck under another lock than the one shown
    other = Lock(1, base(s + 1), honest.deck, honest.proof)
    for bad in (doubled, swapped, other):
        with pytest.raises(Cheat) as caught:
            check_lock(hand, before, bad)
        assert (caught.value.seat, caught.value.fault) == (1, Fault.BAD_LOCK)


def test_a_relock_with_a_key_other_than_its_commitment_is_named(dealt: tuple[Hand, tuple[SeatSecrets, ...],
                                                                             Passes]) -> None:
    hand, _, passes = dealt
    lock_points = {step.seat: step.point for step in passes.locks}
    before = passes.locks[-1].deck
    first = passes.relocks[0]
    check_relock(hand, lock_points[0], before, first)
    moved = Relock(0, (first.deck[1], first.deck[0], *first.deck[2:]), first.commitments, first.proofs)
    recommitted = Relock(0, first.deck, (base(5), *first.commitments[1:]), first.proofs)
    for bad in (moved, recommitted):
        with pytest.raises(Cheat) as caught:
            check_relock(hand, lock_points[0], before, bad)
        assert (caught.value.seat, caught.value.fault) == (0, Fault.BAD_RELOCK)


def test_a_lock_that_keeps_the_sum_but_is_no_shuffle_is_caught_by_its_shuffles_proof(
        dealt: tuple[Hand, tuple[SeatSecrets, ...], Passes]) -> None:
    """The sums' proof holds a lock to its sum; a seat that moves part of one card into another keeps the sum and
    passes it. The shuffle's proof does not pass, whatever the seat answers from its own secrets."""
    hand, seats, passes = dealt
    before = passes.locks[1].deck
    honest = lock(seats[2], before)
    check_shuffle(hand, before, honest.deck, prove_shuffle(seats[2], before, honest.deck))
    shift = card_point("AS")
    bent = list(honest.deck)
    bent[0], bent[1] = add([bent[0], shift]), sub(bent[1], shift)
    step = Lock(2, honest.point, tuple(bent), honest.proof)
    check_lock(hand, before, step)  # the sums cannot see it
    for proof in (prove_shuffle(seats[2], before, step.deck), prove_shuffle(seats[2], before, honest.deck)):
        with pytest.raises(Cheat) as caught:
            check_shuffle(hand, before, step.deck, proof)
        assert (caught.value.seat, caught.value.fault) == (2, Fault.BAD_LOCK)


def test_a_shuffles_proof_answers_for_its_own_deck_only(dealt: tuple[Hand, tuple[SeatSecrets, ...],
                                                                        Passes]) -> None:
    hand, seats, passes = dealt
    before, after = passes.locks[0].deck, passes.locks[1].deck
    proof = prove_shuffle(seats[1], before, after)
    check_shuffle(hand, before, after, proof)
    assert {a.opened for a in proof.answers} == {0, 1}  # both questions asked, so neither secret shown whole
    assert ShuffleProof(1, tuple(answer_from(answer_bytes(a)) for a in proof.answers)) == proof
    other = hand_of(4, number=2)
    for bad in (lambda: check_shuffle(other, before, after, proof),  # another hand's
                lambda: check_shuffle(hand, before, (after[1], after[0], *after[2:]), proof),  # another order
                lambda: check_shuffle(hand, before, after, ShuffleProof(1, proof.answers[:-1]))):
        with pytest.raises(Cheat):
            bad()


def test_a_proof_holds_for_its_statement_only() -> None:
    x = 0xC0FFEE
    b2 = hash_to_point(b"other base")
    proof = prove(x, G, base(x), b2, mul(b2, x), b"ctx")
    assert verify(proof, G, base(x), b2, mul(b2, x), b"ctx")
    assert not verify(proof, G, base(x), b2, mul(b2, x), b"another ctx")
    assert not verify(proof, G, base(x), b2, mul(b2, x + 1), b"ctx")
    assert not verify(Proof(proof.c, (proof.z + 1) % N), G, base(x), b2, mul(b2, x), b"ctx")
    assert Proof.from_bytes(proof.to_bytes()) == proof
    with pytest.raises(ValueError):
        Proof.from_bytes(b"\xff" * 64)


def test_points_decode_only_in_their_one_form() -> None:
    point = card_point("7H")
    assert encode(decode(encode(point))) == encode(point)
    for bad in (b"", b"\x04" + bytes(64), b"\x02" + bytes(32), encode(point)[:-1], b"\x05" + encode(point)[1:]):
        with pytest.raises(ValueError):
            decode(bad)


def test_envelopes_open_for_their_recipient_only_and_a_dispute_is_settled_by_anyone() -> None:
    rng = random.Random(3)
    ana, bia, cau = (BoxKey(rng.randbytes(32)) for _ in range(3))
    digest = hand_of(4).digest
    keys = {(0, 3): 12345, (0, 4): N - 2, (2, 5): 777}
    envelope = seal(ana, 0, 1, bia.point, digest, "deal", keys)
    assert open_envelope(bia, ana.point, envelope, digest) == keys
    with pytest.raises(Cheat) as caught:
        open_envelope(cau, ana.point, envelope, digest)  # a third seat, or a host with a key of its own
    assert (caught.value.seat, caught.value.fault) == (0, Fault.BAD_ENVELOPE)
    relabelled = Envelope(0, 1, "block 2", envelope.sealed)
    with pytest.raises(Cheat):
        open_envelope(bia, ana.point, relabelled, digest)
    tampered = Envelope(0, 1, "deal", envelope.sealed[:-1] + bytes([envelope.sealed[-1] ^ 1]))
    with pytest.raises(Cheat):
        open_envelope(bia, ana.point, tampered, digest)
    shown = disclose(bia, 1, 0, ana.point, digest)
    assert check_disclosure(shown, bia.point, ana.point, digest)
    assert open_with(shown.shared, envelope, digest) == keys
    lie = disclose(cau, 1, 0, ana.point, digest)  # a point made with another key than the recipient's
    assert not check_disclosure(lie, bia.point, ana.point, digest)


def test_the_seal_code_changes_with_any_seats_box_key() -> None:
    rng = random.Random(5)
    points = {seat: BoxKey(rng.randbytes(32)).point for seat in range(4)}
    code = seal_code(points)
    assert len(code) == 7 and code[3] == " "
    assert seal_code(dict(reversed(list(points.items())))) == code
    swapped = {**points, 2: BoxKey(rng.randbytes(32)).point}
    assert seal_code(swapped) != code
    assert pledge(points[0]) != pledge(points[1])


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=1, max_value=N - 1), st.integers(min_value=1, max_value=N - 1))
def test_locks_commute_and_undo(a: int, b: int) -> None:
    card = card_point("QD")
    assert encode(mul(mul(card, a), b)) == encode(mul(mul(card, b), a))
    assert encode(mul(mul(card, a), inverse(a))) == encode(card)


@pytest.mark.parametrize("seats", [2, 6])
def test_every_size_deals_a_permutation_argentino_too(seats: int) -> None:
    hand = hand_of(seats, "truco_argentino")
    secrets = secrets_of(hand, random.Random(seats))
    passes = deal(secrets)
    passes.check(hand)
    deck = passes.sealed(hand)
    opened = {deck.open(p, {s.seat: s.card_key(p) for s in secrets}) for p in range(40)}
    assert opened == set(hand.cards)
