"""The sealed deck: the hand it belongs to, each seat's secrets, the two passes and the card keys.

The deck goes twice round the seats in the hand's locking order (docs/deal.md §S5–§S7):

1. **Lock.** Each seat takes the deck the previous one handed on (the first takes the pack's points in
   pack order), multiplies every card by its lock scalar ``s``, puts the cards in an order only it
   knows, and hands it on with ``S = s·G`` and a proof that the sum of what it handed on is ``s`` times
   the sum of what it was given.
2. **Relock.** Each seat, in the same order, takes its lock off each card and puts on a key of its own
   for that card alone: card ``j`` becomes ``(k_j / s)·card``. It publishes ``K_j = k_j·G`` for every
   ``j`` (its commitment to that card's key) and, per card, a proof that the card was multiplied by the
   logarithm of ``K_j`` to the base ``S``.

After both passes card ``j`` is the card's point times the product of every seat's ``k_j``. The *card key*
a seat gives for card ``j`` is ``k_j⁻¹`` mod n; it fits when ``k_j⁻¹·K_j = G``. A card opens with every
seat's card key for it, and a person's unplayed card never opens without that person's own.

Every seat's secrets for a hand come from 32 bytes (``SeatSecrets``): the client keeps those on disk and
can rebuild its lock, its order and its card keys after a restart.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property

from cardtui.hashes import sha256
from cardtui.sealed.faults import Cheat, Fault
from cardtui.sealed.group import (
    G,
    N,
    Point,
    add,
    base,
    card_point,
    decode,
    derive_scalar,
    encode,
    framed,
    inverse,
    mul,
    product,
    tag,
    u32,
    u64,
)
from cardtui.sealed.proofs import Proof, prove, verify

SECRET_BYTES = 32


@cache
def _card_points(cards: tuple[str, ...]) -> tuple[Point, ...]:
    return tuple(card_point(card) for card in cards)


@cache
def _card_names(cards: tuple[str, ...]) -> dict[bytes, str]:
    return {encode(point): card for card, point in zip(cards, _card_points(cards), strict=True)}


@dataclass(frozen=True)
class Hand:
    """The hand a sealed deck belongs to: every hash and proof of the deck is bound to it (§S3)."""

    table: str
    number: int
    game: str
    order: tuple[int, ...]
    """The seats in locking order (the same order for both passes)."""
    cards: tuple[str, ...]
    """The pack, in the order docs/deal.md §2 lists it."""

    @cached_property
    def digest(self) -> bytes:
        """SHA-256 of ``tag("hand") ‖ framed(table) ‖ u64 number ‖ framed(game) ‖ u32 len(order) ‖ u32
        each seat ‖ u32 len(cards) ‖ framed(card) each``."""
        parts = [tag("hand"), framed(self.table.encode()), u64(self.number), framed(self.game.encode()),
                 u32(len(self.order)), *(u32(seat) for seat in self.order), u32(len(self.cards)),
                 *(framed(card.encode()) for card in self.cards)]
        return sha256(b"".join(parts)).digest()

    @property
    def pack(self) -> tuple[Point, ...]:
        """The pack's points in pack order: the deck the first seat locks."""
        return _card_points(self.cards)

    def card(self, point: Point) -> str | None:
        """The card ``point`` stands for, or None if it stands for none of the pack."""
        return _card_names(self.cards).get(encode(point))

    def context(self, what: bytes, seat: int, *numbers: int) -> bytes:
        """What a proof by ``seat`` about ``what`` is bound to: the hand's digest, ``framed(what)``, the seat
        and the card's place, each u32."""
        return self.digest + framed(what) + u32(seat) + b"".join(u32(n) for n in numbers)


@dataclass(frozen=True)
class SeatSecrets:
    """One seat's secrets for one hand, all derived from 32 bytes it drew (§S4): its lock scalar, its order
    of the deck and its key for each card."""

    secret: bytes
    seat: int
    hand: Hand = field(repr=False)

    def __post_init__(self) -> None:
        if len(self.secret) != SECRET_BYTES:
            raise ValueError("a seat's secret is 32 bytes")

    def _label(self, what: bytes) -> bytes:
        return framed(self.hand.digest) + u32(self.seat) + framed(what)

    @cached_property
    def lock(self) -> int:
        """``s`` = derive_scalar(secret, framed(digest) ‖ u32 seat ‖ framed("lock"))."""
        return derive_scalar(self.secret, self._label(b"lock"))

    @cached_property
    def order(self) -> tuple[int, ...]:
        """The places of the deck handed in, in the order this seat hands them on: sorted by HMAC-SHA-256
        (key secret) of ``tag("order") ‖ framed(digest) ‖ u32 seat ‖ u32 place``."""
        label = tag("order") + self._label(b"")[:-4]  # framed(digest) ‖ u32 seat

        def rank(place: int) -> bytes:
            return hmac.new(self.secret, label + u32(place), "sha256").digest()

        return tuple(sorted(range(len(self.hand.cards)), key=rank))

    @cached_property
    def keys(self) -> tuple[int, ...]:
        """``k_j`` = derive_scalar(secret, framed(digest) ‖ u32 seat ‖ framed("card") ‖ u32 j), for each place j."""
        return tuple(derive_scalar(self.secret, self._label(b"card") + u32(j)) for j in range(len(self.hand.cards)))

    def card_key(self, place: int) -> int:
        """The key this seat gives for the card at ``place``: ``k_place⁻¹``."""
        return inverse(self.keys[place])


@dataclass(frozen=True)
class Lock:
    """A seat's first pass: the deck it hands on, its lock point ``S = s·G`` and the sums' proof."""

    seat: int
    point: Point
    deck: tuple[Point, ...]
    proof: Proof


@dataclass(frozen=True)
class Relock:
    """A seat's second pass: the deck it hands on, its commitment ``K_j`` to each card's key, a proof a card."""

    seat: int
    deck: tuple[Point, ...]
    commitments: tuple[Point, ...]
    proofs: tuple[Proof, ...]


def lock(secrets: SeatSecrets, before: Sequence[Point]) -> Lock:
    """``secrets``' seat locks and shuffles ``before``."""
    s, hand = secrets.lock, secrets.hand
    after = tuple(mul(before[place], s) for place in secrets.order)
    point = base(s)
    proof = prove(s, G, point, add(before), add(after), hand.context(b"lock", secrets.seat), b1_log=1)
    return Lock(secrets.seat, point, after, proof)


def _distinct(deck: Sequence[Point]) -> bool:
    return len({encode(point) for point in deck}) == len(deck)


def check_lock(hand: Hand, before: Sequence[Point], step: Lock) -> None:
    """Raise ``Cheat`` (bad lock) unless ``step`` is a lock of ``before`` as §S5 says: as many cards, all
    different, whose sum is ``before``'s times the scalar of ``step.point``."""
    if len(step.deck) != len(before) or not _distinct(step.deck):
        raise Cheat(step.seat, Fault.BAD_LOCK, "its deck is not as many different cards")
    try:
        after_sum = add(step.deck)
    except ValueError:
        raise Cheat(step.seat, Fault.BAD_LOCK, "its cards add up to nothing") from None
    if not verify(step.proof, G, step.point, add(before), after_sum, hand.context(b"lock", step.seat)):
        raise Cheat(step.seat, Fault.BAD_LOCK, "its proof fails")


def relock_cards(secrets: SeatSecrets, before: Sequence[Point]) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
    """``secrets``' seat takes its lock off each card of ``before`` and puts that card's key on: the deck it
    hands on and its commitments. A client sends these at once and its proofs (``relock_proofs``) after,
    while the next seat relocks: the proofs are checked behind the deal, not on its way."""
    s_inv = inverse(secrets.lock)
    deck = tuple(mul(card, key * s_inv % N) for card, key in zip(before, secrets.keys, strict=True))
    return deck, tuple(base(key) for key in secrets.keys)


def relock_proofs(secrets: SeatSecrets, before: Sequence[Point], deck: Sequence[Point],
                  commitments: Sequence[Point]) -> tuple[Proof, ...]:
    """A proof for each card that ``relock_cards`` multiplied it by ``k_j / s``, the logarithm of ``K_j`` to
    the base ``S``."""
    s, hand = secrets.lock, secrets.hand
    lock_point, s_inv = base(s), inverse(s)
    return tuple(prove(key * s_inv % N, lock_point, commitment, card, after,
                       hand.context(b"relock", secrets.seat, place), b1_log=s)
                 for place, (card, after, commitment, key)
                 in enumerate(zip(before, deck, commitments, secrets.keys, strict=True)))


def relock(secrets: SeatSecrets, before: Sequence[Point]) -> Relock:
    """``secrets``' seat's whole second pass: the deck, its commitments and their proofs."""
    deck, commitments = relock_cards(secrets, before)
    return Relock(secrets.seat, deck, commitments, relock_proofs(secrets, before, deck, commitments))


def check_relock(hand: Hand, lock_point: Point, before: Sequence[Point], step: Relock,
                 places: Iterable[int] | None = None) -> None:
    """Raise ``Cheat`` (bad relock) unless each card of ``step`` is the same card of ``before`` times the
    logarithm of its commitment to the base ``lock_point`` (the seat's ``S``), as §S6 says: every card, or
    the ``places`` given (a client checks the cards it opens; the server, every card)."""
    size = len(before)
    if not (len(step.deck) == len(step.commitments) == len(step.proofs) == size) or not _distinct(step.deck):
        raise Cheat(step.seat, Fault.BAD_RELOCK, "its deck is not as many different cards")
    for place in range(size) if places is None else places:
        context = hand.context(b"relock", step.seat, place)
        if not verify(step.proofs[place], lock_point, step.commitments[place], before[place], step.deck[place],
                      context):
            raise Cheat(step.seat, Fault.BAD_RELOCK, f"the proof of card {place} fails")


def key_fits(commitment: Point, card_key: int) -> bool:
    """Whether ``card_key`` is the key ``commitment`` promised: ``card_key · K = G``."""
    return card_key > 0 and encode(mul(commitment, card_key)) == encode(G)


@dataclass(frozen=True)
class SealedDeck:
    """A deck after both passes, as everyone holds it: the cards (locked), each seat's lock point and its
    commitments to its card keys. Nothing here opens a card."""

    hand: Hand
    cards: tuple[Point, ...]
    locks: Mapping[int, Point]
    commitments: Mapping[int, tuple[Point, ...]]

    def check_key(self, seat: int, place: int, card_key: int) -> None:
        """Raise ``Cheat`` (wrong key) unless ``card_key`` is ``seat``'s key for the card at ``place``."""
        if not key_fits(self.commitments[seat][place], card_key):
            raise Cheat(seat, Fault.WRONG_KEY, f"card {place}")

    def open(self, place: int, card_keys: Mapping[int, int], *, checked: bool = True) -> str | None:
        """The card at ``place`` opened with every seat's key (``card_keys``: seat → key), each checked
        first unless ``checked`` is False (a holder that checked them as they came); None if the keys
        open it to no card of the pack. A missing key raises ``Cheat`` (withheld) for its seat."""
        for seat in self.hand.order:
            if seat not in card_keys:
                raise Cheat(seat, Fault.WITHHELD_KEY, f"card {place}")
            if checked:
                self.check_key(seat, place, card_keys[seat])
        return self.hand.card(mul(self.cards[place], product(card_keys[seat] for seat in self.hand.order)))

    def open_own(self, places: Sequence[int], card_keys: Mapping[int, Mapping[int, int]]) -> dict[int, str]:
        """A holder's cards: each place of ``places`` opened with ``card_keys`` (seat → place → key).
        Raises ``Cheat`` for the first seat whose key is missing or wrong, and, for a card that opens to
        nothing, ``Cheat`` (not a card) naming the first seat of the order: the proofs of the locks and relocks
        (``shuffle``, ``check_relock``) then say whose step it was."""
        opened: dict[int, str] = {}
        for place in places:
            card = self.open(place, {seat: keys[place] for seat, keys in card_keys.items() if place in keys})
            if card is None:
                raise Cheat(self.hand.order[0], Fault.NOT_A_CARD, f"card {place}")
            opened[place] = card
        return opened


@dataclass(frozen=True)
class Passes:
    """Both passes of a deal, every step as it was handed on: what a checker of the whole deal reads."""

    locks: tuple[Lock, ...]
    relocks: tuple[Relock, ...]

    def sealed(self, hand: Hand) -> SealedDeck:
        """The deck the passes leave, with every seat's lock point and commitments."""
        return SealedDeck(hand, self.relocks[-1].deck, {step.seat: step.point for step in self.locks},
                          {step.seat: step.commitments for step in self.relocks})

    def check(self, hand: Hand, places: Iterable[int] | None = None) -> None:
        """Check every step in turn (§S5, §S6), the relocks of every card or of ``places``; raise ``Cheat``
        naming the first seat whose step fails."""
        if tuple(step.seat for step in self.locks) != hand.order or tuple(
                step.seat for step in self.relocks) != hand.order:
            raise ValueError("the passes are not in the hand's locking order")
        deck = hand.pack
        for step in self.locks:
            check_lock(hand, deck, step)
            deck = step.deck
        lock_points = {step.seat: step.point for step in self.locks}
        for again in self.relocks:
            check_relock(hand, lock_points[again.seat], deck, again, None if places is None else tuple(places))
            deck = again.deck


def deal(seats: Sequence[SeatSecrets]) -> Passes:
    """A whole sealed deal made at once by seats whose secrets are all at hand (tests, vectors, benches),
    ``seats`` in the hand's locking order."""
    deck: tuple[Point, ...] = seats[0].hand.pack
    locks: list[Lock] = []
    for secrets in seats:
        locks.append(lock(secrets, deck))
        deck = locks[-1].deck
    relocks: list[Relock] = []
    for secrets in seats:
        relocks.append(relock(secrets, deck))
        deck = relocks[-1].deck
    return Passes(tuple(locks), tuple(relocks))


def points(data: Sequence[bytes]) -> tuple[Point, ...]:
    """Points from their bytes (``ValueError`` names the first that is not one)."""
    return tuple(decode(item) for item in data)
