"""A sealed hand as everyone follows it: the steps of the deal, the envelopes, the mão's choices, every card played,
face down or shown, each checked as it comes (docs/deal.md §S7–§S9).

The server keeps one ``Ledger`` a hand and so does every client, fed the same messages from the stream: each
message that fails a check raises ``Cheat`` naming the seat that sent it, for the same reason everywhere, so that
every honest client names the same seat the server does, and none names an honest one. The ledger holds nothing
that opens a card: the decks, the lock points, the commitments, the proofs, the sealed envelopes and the cards
opened in the open. It is what the store journals and what a history keeps.

Each seat's proofs (that its lock was a shuffle, that its relock put on the keys it committed to) come after its
envelopes, so that no one waits for them on the way to their cards, and are checked as they come, behind the deal
(``full``; a ledger made without it checks them at the hand's end, ``audit``, or for each card as it opens). Play
begins once every proof is in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from cardtui.sealed.deck import Hand, Lock, Relock, SealedDeck, check_lock, check_relock
from cardtui.sealed.envelopes import Disclosure, Envelope, check_disclosure, open_with
from cardtui.sealed.faults import Cheat, Fault
from cardtui.sealed.group import Point, encode, mul, product
from cardtui.sealed.plan import SPARE_BLOCKS, Grant, Layout, Release
from cardtui.sealed.proofs import Proof
from cardtui.sealed.shuffle import ShuffleProof, check_shuffle

PASSED = "passed"
"""The label of the envelope in which the mão hands its partner every key of the block it passes."""


@dataclass(frozen=True)
class Opening:
    """A card played face up or shown: its holder names it and gives every seat's key for its place."""

    seat: int
    place: int
    card: str
    keys: Mapping[int, int]


@dataclass
class Ledger:
    """What everyone knows of a sealed hand, and the checks on each new message."""

    hand: Hand
    layout: Layout
    boxes: Mapping[int, Point]
    """Each seat's box point (its envelopes' key)."""
    full: bool = False
    """Check every relock proof as it comes (the server), rather than those of the cards opened (a client)."""
    locks: list[Lock] = field(default_factory=list)
    relocks: list[Relock] = field(default_factory=list)
    proofs: dict[int, tuple[Proof, ...]] = field(default_factory=dict)
    shuffles: dict[int, ShuffleProof] = field(default_factory=dict)
    """Each seat's proof that its lock was a shuffle (checked as it comes by the server, at ``audit`` by a client)."""
    envelopes: dict[tuple[int, int, str], Envelope] = field(default_factory=dict)
    holdings: dict[int, list[int]] = field(default_factory=dict)
    """Each seat's places in hand, unplayed and played alike, as the rules have dealt them so far."""
    played: dict[int, int] = field(default_factory=dict)
    """Place → seat, for every card played (face up or down)."""
    opened: dict[int, str] = field(default_factory=dict)
    """Place → card, for every card opened in the open (played face up, shown, rejected)."""
    face_down: set[int] = field(default_factory=set)
    chosen: dict[int, int] = field(default_factory=dict)
    """Place → seat, for each card a seat chose to play blind (a mão de ferro): its keys go to it now."""
    spares_taken: int = 0
    passed: bool = False
    kept: bool = False
    _checked: set[tuple[int, int]] = field(default_factory=set)

    def __post_init__(self) -> None:
        if tuple(sorted(self.hand.order)) != tuple(range(self.layout.seats)):
            raise ValueError("the hand's order is not the layout's seats")
        if set(self.boxes) != set(range(self.layout.seats)):
            raise ValueError("every seat has a box point")
        self.holdings = {seat: list(places) for seat, places in self.layout.hands().items()}
        if not self.layout.choosing:
            self.kept = True

    # The deal --------------------------------------------------------------------------------------------------

    @property
    def deck(self) -> tuple[Point, ...]:
        """The deck as it stands: the pack, or the last step's."""
        if self.relocks:
            return self.relocks[-1].deck
        return self.locks[-1].deck if self.locks else self.hand.pack

    def awaited(self) -> tuple[str, int] | None:
        """Whose step the deal waits for (``("lock", seat)`` or ``("relock", seat)``), or None once both passes are
        done."""
        order = self.hand.order
        if len(self.locks) < len(order):
            return ("lock", order[len(self.locks)])
        if len(self.relocks) < len(order):
            return ("relock", order[len(self.relocks)])
        return None

    def add_lock(self, step: Lock) -> None:
        if self.awaited() != ("lock", step.seat):
            raise ValueError(f"seat {step.seat} does not lock now")
        check_lock(self.hand, self.deck, step)
        self.locks.append(step)

    def add_shuffle(self, proof: ShuffleProof, checked: bool = False) -> None:
        """A seat's proof that its lock was a shuffle (§S5a), sent after its lock. ``checked``: the check ``full``
        asks for was made already, elsewhere (``shuffle_check``)."""
        index = self.hand.order.index(proof.seat)
        if index >= len(self.locks) or proof.seat in self.shuffles:
            raise ValueError(f"no lock of seat {proof.seat} awaits its shuffle's proof")
        self.shuffles[proof.seat] = proof
        if checked:
            self._checked.add((proof.seat, -1))
        elif self.full:
            self._check_shuffle(proof.seat)

    def shuffle_check(self, proof: ShuffleProof) -> Callable[[], None] | None:
        """The check ``add_shuffle`` makes of ``proof`` (raising ``Cheat``), to be run elsewhere: a server runs it in
        a thread, its loop free meanwhile to hand the deal's keys on. It reads only decks fixed once locked. None if
        ``add_shuffle`` would refuse the proof before any check."""
        if proof.seat not in self.hand.order:
            return None
        index = self.hand.order.index(proof.seat)
        if index >= len(self.locks) or proof.seat in self.shuffles:
            return None
        hand, after = self.hand, self.locks[index].deck
        before = self.locks[index - 1].deck if index else hand.pack
        return lambda: check_shuffle(hand, before, after, proof)

    def _check_shuffle(self, seat: int) -> None:
        index = self.hand.order.index(seat)
        if seat not in self.shuffles:
            raise Cheat(seat, Fault.BAD_LOCK, "its shuffle's proof never came")
        before = self.locks[index - 1].deck if index else self.hand.pack
        check_shuffle(self.hand, before, self.locks[index].deck, self.shuffles[seat])
        self._checked.add((seat, -1))

    def add_relock(self, seat: int, deck: tuple[Point, ...], commitments: tuple[Point, ...]) -> None:
        """A relocked deck and its commitments, whose proofs come after (``add_proofs``)."""
        if self.awaited() != ("relock", seat):
            raise ValueError(f"seat {seat} does not relock now")
        size = len(self.hand.cards)
        if len(deck) != size or len(commitments) != size or len({encode(p) for p in deck}) != size:
            raise Cheat(seat, Fault.BAD_RELOCK, "its deck is not as many different cards")
        self.relocks.append(Relock(seat, deck, commitments, ()))

    def _before(self, seat: int) -> tuple[Point, ...]:
        index = self.hand.order.index(seat)
        return self.relocks[index - 1].deck if index else self.locks[-1].deck

    def _lock_point(self, seat: int) -> Point:
        return next(step.point for step in self.locks if step.seat == seat)

    def add_proofs(self, seat: int, proofs: tuple[Proof, ...], checked: bool = False) -> None:
        """A seat's relock proofs (the server checks them all here; a client, for each card as it opens).
        ``checked``: the server's check was made already, elsewhere (``proofs_check``)."""
        index = self.hand.order.index(seat)
        if index >= len(self.relocks) or seat in self.proofs:
            raise ValueError(f"no relock of seat {seat} awaits its proofs")
        step = self.relocks[index]
        self.relocks[index] = full = Relock(seat, step.deck, step.commitments, proofs)
        if len(proofs) != len(self.hand.cards):
            raise Cheat(seat, Fault.BAD_RELOCK, "not a proof a card")
        self.proofs[seat] = proofs
        if self.full or checked:
            if not checked:
                check_relock(self.hand, self._lock_point(seat), self._before(seat), full)
            self._checked.update((seat, place) for place in range(len(self.hand.cards)))

    def proofs_check(self, seat: int, proofs: tuple[Proof, ...]) -> Callable[[], None] | None:
        """The check ``add_proofs`` makes of ``seat``'s relock proofs (raising ``Cheat``), to be run elsewhere, as
        ``shuffle_check``; None if ``add_proofs`` would refuse them before any check."""
        if seat not in self.hand.order:
            return None
        index = self.hand.order.index(seat)
        if index >= len(self.relocks) or seat in self.proofs or len(proofs) != len(self.hand.cards):
            return None
        step = self.relocks[index]
        full = Relock(seat, step.deck, step.commitments, proofs)
        hand, lock_point, before = self.hand, self._lock_point(seat), self._before(seat)
        return lambda: check_relock(hand, lock_point, before, full)

    def check_place(self, place: int) -> None:
        """The relock proofs of every seat for ``place`` (a client's lazy check), once."""
        for seat in self.hand.order:
            if (seat, place) in self._checked:
                continue
            if seat not in self.proofs:
                raise Cheat(seat, Fault.BAD_RELOCK, "its proofs never came")
            step = self.relocks[self.hand.order.index(seat)]
            check_relock(self.hand, self._lock_point(seat), self._before(seat), step, (place,))
            self._checked.add((seat, place))

    @property
    def sealed(self) -> SealedDeck:
        """The deck after both passes (once they are done)."""
        if self.awaited() is not None:
            raise ValueError("the deal is not done")
        return SealedDeck(self.hand, self.deck, {s.seat: s.point for s in self.locks},
                          {s.seat: s.commitments for s in self.relocks})

    # Envelopes -------------------------------------------------------------------------------------------------

    def grants(self) -> tuple[Grant, ...]:
        return self.layout.grants()

    def owed(self) -> list[tuple[int, int, str]]:
        """(sender, recipient, label) of every envelope the rules say is owed and has not come: each seat seals its
        keys for each grant of another seat's right after the relocks."""
        return [(sender, g.recipient, g.label) for g in self.grants() for sender in self.hand.order
                if sender != g.recipient and (sender, g.recipient, g.label) not in self.envelopes]

    def withheld(self) -> list[Cheat]:
        """Each seat that still owes an envelope, named (the table says so once its clock for them runs out)."""
        seats = sorted({sender for sender, _, _ in self.owed()})
        return [Cheat(seat, Fault.WITHHELD_KEY, "its sealed keys never came") for seat in seats]

    def add_envelope(self, envelope: Envelope) -> None:
        """An envelope the rules have a place for (a grant's, or the mão's pass)."""
        if self.awaited() is not None:
            raise ValueError("no envelope before the deal is done")
        key = (envelope.sender, envelope.recipient, envelope.label)
        if key in self.envelopes:
            raise ValueError("that envelope came already")
        if envelope.label == PASSED:
            if envelope.sender != self.layout.first or envelope.recipient != self.layout.partner or not self.passed:
                raise ValueError("only the mão, having passed, seals for its partner")
        elif key not in set(self.owed()):
            raise ValueError("no such envelope is owed")
        self.envelopes[key] = envelope

    def released(self, envelope: Envelope) -> bool:
        """Whether the rules hand ``envelope`` to its recipient now."""
        if envelope.label == PASSED:
            return True
        grant = next(g for g in self.grants() if (g.label, g.recipient) == (envelope.label, envelope.recipient))
        match grant.release:
            case Release.DEALT:
                return True
            case Release.TAKEN:
                return grant.block < self.spares_taken
            case Release.KEPT:
                return self.kept and not self.passed
            case Release.PLAYED:
                return grant.places[0] in self.chosen
        return False

    def dispute(self, disclosure: Disclosure) -> Cheat:
        """A recipient says an envelope from ``disclosure.sender`` did not open or held a wrong key, and shows its
        shared point: the seat at fault, the sender or (when everything was right) the recipient."""
        envelope = next((e for (s, r, _), e in self.envelopes.items()
                         if (s, r) == (disclosure.sender, disclosure.recipient)), None)
        if envelope is None or not check_disclosure(disclosure, self.boxes[disclosure.recipient],
                                                    self.boxes[disclosure.sender], self.hand.digest):
            return Cheat(disclosure.recipient, Fault.FALSE_CLAIM, "its dispute shows nothing")
        for (sender, recipient, _), sealed in sorted(self.envelopes.items()):
            if (sender, recipient) != (disclosure.sender, disclosure.recipient):
                continue
            try:
                keys = open_with(disclosure.shared, sealed, self.hand.digest)
                self._check_envelope_keys(sealed, keys)
            except Cheat as cheat:
                return cheat
        return Cheat(disclosure.recipient, Fault.FALSE_CLAIM, "the keys it disputed fit")

    def _check_envelope_keys(self, envelope: Envelope, keys: Mapping[tuple[int, int], int]) -> None:
        expected = self.expected(envelope)
        if set(keys) != expected:
            raise Cheat(envelope.sender, Fault.WITHHELD_KEY, f"its envelope {envelope.label!r} is not every key owed")
        deck = self.sealed
        for (seat, place), key in keys.items():
            try:
                deck.check_key(seat, place, key)
            except Cheat:
                raise Cheat(envelope.sender, Fault.WRONG_KEY, f"card {place}, in {envelope.label!r}") from None

    def expected(self, envelope: Envelope) -> set[tuple[int, int]]:
        """The (seat, place) keys ``envelope`` must hold."""
        if envelope.label == PASSED:
            return {(seat, place) for seat in self.hand.order for place in self.holdings[envelope.recipient]}
        grant = next(g for g in self.grants() if (g.label, g.recipient) == (envelope.label, envelope.recipient))
        return {(envelope.sender, place) for place in grant.places}

    def check_received(self, envelope: Envelope, keys: Mapping[tuple[int, int], int]) -> None:
        """The recipient's check of what an envelope held: every key owed, each fitting its commitment."""
        self._check_envelope_keys(envelope, keys)

    # The mão's choices (truco paulista) -------------------------------------------------------------------------

    def _mao_block(self) -> list[int]:
        return self.holdings[self.layout.first]

    def _take_spare(self) -> None:
        if self.spares_taken >= SPARE_BLOCKS:
            raise ValueError("no spare block is left")
        self.holdings[self.layout.first] = list(self.layout.spare(self.spares_taken))
        self.spares_taken += 1

    def reject(self, openings: list[Opening]) -> list[str]:
        """The mão rejects its block: shown face up (each card opened with every key), out of play; it takes the
        next spare block. Returns the cards shown."""
        mao = self.layout.first
        if not self.layout.choosing or self.kept:
            raise ValueError("no rejection now")
        block = self._mao_block()
        if sorted(o.place for o in openings) != sorted(block) or any(o.seat != mao for o in openings):
            raise Cheat(mao, Fault.NOT_ITS_CARD, "it did not show the block it rejected")
        shown = [self._open(o) for o in openings]
        self._take_spare()
        return shown

    def pass_block(self) -> None:
        """The mão passes its block to its partner (who now holds it) and takes the next spare block; its envelope
        of the block's keys for the partner follows (``PASSED``)."""
        if not self.layout.choosing or self.kept or self.passed:
            raise ValueError("no pass now")
        self.holdings[self.layout.partner] = self._mao_block()
        self.passed = True
        self._take_spare()

    def keep(self) -> None:
        """The mão keeps: the others' hands are theirs (the partner's own block only if nothing was passed)."""
        if not self.layout.choosing or self.kept:
            raise ValueError("no keep now")
        self.kept = True

    # Play ------------------------------------------------------------------------------------------------------

    def holds(self, seat: int, place: int) -> bool:
        """Whether ``place`` is in ``seat``'s hand and not played."""
        return place in self.holdings.get(seat, ()) and place not in self.played

    def _open(self, opening: Opening) -> str:
        """Check an opening and record its card: every seat's key fits, the card opens to the card named, and it
        was not opened before."""
        deck = self.sealed
        for seat in self.hand.order:
            if seat not in opening.keys:
                raise Cheat(opening.seat, Fault.WITHHELD_KEY, f"card {opening.place}: no key of seat {seat + 1}")
            try:
                deck.check_key(seat, opening.place, opening.keys[seat])
            except Cheat:
                raise Cheat(opening.seat, Fault.WRONG_KEY, f"card {opening.place}") from None
        self.check_place(opening.place)
        card = self.hand.card(mul(deck.cards[opening.place], product(opening.keys[s] for s in self.hand.order)))
        if card is None or card in self.opened.values():  # a lock or relock broke the deck: its proofs say whose
            self.audit()
            fault = Fault.NOT_A_CARD if card is None else Fault.DUPLICATE
            raise Cheat(self.hand.order[0], fault, f"card {opening.place}")
        if card != opening.card:
            raise Cheat(opening.seat, Fault.NOT_ITS_CARD, f"it named {opening.card} and played {card}")
        self.opened[opening.place] = card
        return card

    def choose(self, seat: int, place: int) -> None:
        """At a mão de ferro, a seat chooses the card it plays blind: the others' keys for it are handed to it, and
        its opening follows (or, should it be gone, the card is played face down)."""
        if not self.layout.ferro or not self.holds(seat, place) or (seat in self.chosen.values() and any(
                p not in self.played for p, s in self.chosen.items() if s == seat)):
            raise Cheat(seat, Fault.NOT_ITS_CARD, f"card {place} is not one it can choose now")
        self.chosen[place] = seat

    def audit(self) -> None:
        """Check every lock's shuffle and every card's relock proofs (a client's, at the hand's end or when the hand
        stops at a cheat)."""
        for seat in self.hand.order:
            if (seat, -1) not in self._checked:
                self._check_shuffle(seat)
        for place in range(len(self.hand.cards)):
            self.check_place(place)

    def play(self, opening: Opening) -> str:
        """A card played face up: it must be its seat's, unplayed, and open to the card named."""
        if not self.holds(opening.seat, opening.place):
            raise Cheat(opening.seat, Fault.NOT_ITS_CARD, f"card {opening.place} is not in its hand")
        card = self._open(opening)
        self.played[opening.place] = opening.seat
        return card

    def play_down(self, seat: int, place: int) -> None:
        """A card played face down (or a card that cannot be opened, played for a seat that is gone): never opened."""
        if not self.holds(seat, place):
            raise Cheat(seat, Fault.NOT_ITS_CARD, f"card {place} is not in its hand")
        self.played[place] = seat
        self.face_down.add(place)

    def show(self, opening: Opening) -> str:
        """A card shown (the envido's or flor's, at the hand's end): one dealt to its seat, played or not, and not
        played face down."""
        if opening.place not in self.holdings.get(opening.seat, ()) or opening.place in self.face_down:
            raise Cheat(opening.seat, Fault.NOT_ITS_CARD, f"card {opening.place} is not one it can show")
        if opening.place in self.opened:
            if self.opened[opening.place] != opening.card:
                raise Cheat(opening.seat, Fault.NOT_ITS_CARD, f"card {opening.place} was {self.opened[opening.place]}")
            return opening.card
        return self._open(opening)
