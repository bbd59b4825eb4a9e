"""One seat's side of a sealed hand: its secrets, the steps it makes, the keys it receives and its own cards.

A client holds one ``SeatHand`` a hand beside its ``Ledger`` (which it feeds everything the stream says, its own
messages included). What the seat must keep to play on after a restart is its 32-byte hand secret, its box key's
32 bytes and the envelopes the stream gave it: everything here is made again from those (``keys`` from the
envelopes, opened anew).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardtui.sealed.deck import Lock, SeatSecrets, lock, relock_cards, relock_proofs
from cardtui.sealed.envelopes import BoxKey, Disclosure, Envelope, disclose, open_envelope, seal
from cardtui.sealed.faults import Cheat, Fault
from cardtui.sealed.group import Point, mul, product
from cardtui.sealed.ledger import PASSED, Ledger, Opening
from cardtui.sealed.proofs import Proof
from cardtui.sealed.shuffle import ShuffleProof, prove_shuffle


@dataclass
class SeatHand:
    """A seat's secrets for one hand and what it has been given."""

    secrets: SeatSecrets
    box: BoxKey
    ledger: Ledger
    keys: dict[tuple[int, int], int] = field(default_factory=dict)
    """Card keys this seat holds by (whose key, place): its own are derived, not kept here."""
    _relocked: tuple[tuple[Point, ...], tuple[Point, ...], tuple[Point, ...]] | None = None

    @property
    def seat(self) -> int:
        return self.secrets.seat

    def lock(self) -> Lock:
        """This seat's lock of the deck as the ledger has it."""
        return lock(self.secrets, self.ledger.deck)

    def shuffle_proof(self) -> ShuffleProof:
        """The proof that this seat's lock (the ledger's, once recorded) was a shuffle: sent after the lock."""
        index = self.ledger.hand.order.index(self.seat)
        before = self.ledger.locks[index - 1].deck if index else self.ledger.hand.pack
        return prove_shuffle(self.secrets, before, self.ledger.locks[index].deck)

    def relock(self) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
        """This seat's relocked deck and commitments (its proofs follow: ``proofs``)."""
        before = self.ledger.deck
        deck, commitments = relock_cards(self.secrets, before)
        self._relocked = (before, deck, commitments)
        return deck, commitments

    def proofs(self) -> tuple[Proof, ...]:
        """The proofs of this seat's relock: the one it made, or (after a restart, its secrets kept and its relock
        already in the ledger) the ledger's record of it."""
        if self._relocked is None:
            index = self.ledger.hand.order.index(self.seat)
            if index >= len(self.ledger.relocks):
                raise ValueError("no relock to prove")
            before = self.ledger.relocks[index - 1].deck if index else self.ledger.locks[-1].deck
            self._relocked = (before, self.ledger.relocks[index].deck, self.ledger.relocks[index].commitments)
        return relock_proofs(self.secrets, *self._relocked)

    def envelopes(self) -> list[Envelope]:
        """Every envelope this seat owes, sealed right after the relocks: its keys for each grant of another seat's."""
        ledger, digest = self.ledger, self.ledger.hand.digest
        return [seal(self.box, self.seat, g.recipient, ledger.boxes[g.recipient], digest, g.label,
                     {(self.seat, p): self.secrets.card_key(p) for p in g.places})
                for g in ledger.grants() if g.recipient != self.seat]

    def _key(self, seat: int, place: int) -> int | None:
        return self.secrets.card_key(place) if seat == self.seat else self.keys.get((seat, place))

    def _all_keys(self, places: list[int] | tuple[int, ...]) -> dict[tuple[int, int], int]:
        found: dict[tuple[int, int], int] = {}
        for place in places:
            for seat in self.ledger.hand.order:
                key = self._key(seat, place)
                if key is None:
                    raise ValueError(f"no key of seat {seat} for card {place}")
                found[seat, place] = key
        return found

    def receive(self, envelope: Envelope) -> None:
        """Open an envelope sealed for this seat and check every key in it; ``Cheat`` names its sender if it does
        not open, lacks a key it owed or holds a wrong one (the seat then ``disclose``s, to show everyone)."""
        keys = open_envelope(self.box, self.ledger.boxes[envelope.sender], envelope, self.ledger.hand.digest)
        self.ledger.check_received(envelope, keys)
        self.keys.update(keys)

    def disclose(self, sender: int) -> Disclosure:
        return disclose(self.box, self.seat, sender, self.ledger.boxes[sender], self.ledger.hand.digest)

    def card(self, place: int) -> str | None:
        """The card at ``place``, if this seat holds every key for it (None otherwise)."""
        keys = [self._key(seat, place) for seat in self.ledger.hand.order]
        if any(key is None for key in keys):
            return None
        card = self.ledger.hand.card(mul(self.ledger.sealed.cards[place], product(k for k in keys if k)))
        if card is None:  # a lock or relock broke the deck: its proofs say whose
            self.ledger.audit()
            raise Cheat(self.ledger.hand.order[0], Fault.NOT_A_CARD, f"card {place}")
        return card

    def hand(self) -> dict[int, str | None]:
        """This seat's places and the cards it can see there (None for a card it cannot open yet)."""
        return {place: self.card(place) for place in self.ledger.holdings[self.seat]}

    def opening(self, place: int) -> Opening:
        """This seat plays or shows the card at ``place``: it names it and gives every key for it."""
        card = self.card(place)
        if card is None:
            raise ValueError(f"card {place} cannot be opened: a key is missing")
        keys = self._all_keys([place])
        return Opening(self.seat, place, card, {seat: keys[seat, place] for seat in self.ledger.hand.order})

    def passing(self, places: tuple[int, ...] | None = None) -> Envelope:
        """The mão seals every key of the block it passes for its partner: ``places``, the block it holds (before
        its ledger has the pass), or, without them, the partner's holding once its ledger has it."""
        ledger = self.ledger
        partner = ledger.layout.partner
        return seal(self.box, self.seat, partner, ledger.boxes[partner], ledger.hand.digest, PASSED,
                    self._all_keys(ledger.holdings[partner] if places is None else places))
