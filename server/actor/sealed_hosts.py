"""The host's own seats at a sealed table: a bot's seat, whose part of the deal the server makes itself.

A bot runs on the host, so its cards are the host's to know (docs/fairness.md, "Who the promise covers"): for each
such seat the server draws the seat's secrets (its box secret for the bot's stay, a hand secret for each hand) and
makes the seat's steps as a person's client makes its own (``client.sealed_seat``), through the same checks, so
that every other client sees a seat like any. Once the deal is done it opens the seat's cards with the keys the
other seats sealed for it and tells the engine (``Sealed.learn``): the bot then plays as at any table, each card it
plays or shows going out with its keys.

The secrets are the host's, journaled with the hand (a ``host`` step) so that a restarted server plays the seat on
with the same cards. They open the host's seats' cards and nothing else: a person's card stays closed without that
person's own key, which never leaves their client.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field

from cardtui.sealed.deck import Hand, SeatSecrets
from cardtui.sealed.envelopes import BoxKey, pledge
from cardtui.sealed.ledger import Ledger
from cardtui.sealed.seat import SeatHand
from cardtui.server.base.sealed_wire import Step

SECRET_BYTES = 32


@dataclass
class HostSeat:
    """One host seat's secrets: its box for the bot's stay, and the hand's."""

    box: BoxKey
    secret: bytes
    number: int
    """The hand ``secret`` is for."""
    mine: SeatHand | None = None
    """Its side of the hand, once the ledger exists."""
    received: set[tuple[int, int, str]] = field(default_factory=set)
    """The envelopes sealed for it that it opened."""
    sent: set[str] = field(default_factory=set)
    """The steps it made this hand (each once)."""

    def data(self) -> dict[str, object]:
        """As the journal keeps it."""
        return {"step": "host", "box": self.box.secret.hex(), "secret": self.secret.hex(), "hand": self.number}


@dataclass
class HostSeats:
    """The host's seats of a sealed table and their secrets."""

    seats: dict[int, HostSeat] = field(default_factory=dict)

    def __contains__(self, seat: int) -> bool:
        return seat in self.seats

    def ordered(self) -> tuple[int, ...]:
        return tuple(sorted(self.seats))

    def deal(self, seats: Iterable[int], number: int, fresh: Iterable[int]) -> list[tuple[int, dict[str, object]]]:
        """The host plays ``seats`` in hand ``number``: each of ``fresh`` draws its secret for the hand (and a box
        for its stay, if new to the host); what to journal for each. Seats no longer the host's are let go."""
        wanted = set(seats)
        for seat in [s for s in self.seats if s not in wanted]:
            del self.seats[seat]
        out = []
        for seat in sorted(set(fresh) & wanted):
            held = self.seats.get(seat)
            box = held.box if held is not None else BoxKey(secrets.token_bytes(SECRET_BYTES))
            self.seats[seat] = made = HostSeat(box, secrets.token_bytes(SECRET_BYTES), number)
            out.append((seat, made.data()))
        return out

    def recall(self, seat: int, data: dict[str, object]) -> None:
        """A ``host`` step of the journal, taken back."""
        self.seats[seat] = HostSeat(BoxKey(bytes.fromhex(str(data["box"]))), bytes.fromhex(str(data["secret"])),
                                    int(str(data["hand"])))

    def let_go(self, seat: int) -> None:
        """Someone sits at ``seat``: it is theirs, not the host's, from its next hand."""
        self.seats.pop(seat, None)

    def hand(self, seat: int, hand: Hand, ledger: Ledger) -> SeatHand:
        """``seat``'s side of the hand (its keys from every envelope sealed for it so far, opened)."""
        held = self.seats[seat]
        if held.mine is None or held.mine.ledger is not ledger:
            held.mine = SeatHand(SeatSecrets(held.secret, seat, hand), held.box, ledger)
            held.received = set()
        for key, envelope in sorted(ledger.envelopes.items()):
            if envelope.recipient == seat and key not in held.received and ledger.released(envelope):
                held.received.add(key)
                held.mine.receive(envelope)  # (a Cheat names its sender, as a person's client would)
        return held.mine

    def due(self, pledges: Iterable[int], boxes: Iterable[int], all_pledged: bool, hand: Hand | None,
            ledger: Ledger | None, proofs: bool = True) -> tuple[int, Step] | None:
        """The next step a host seat owes (its box pledged and shown, its lock, relock, envelopes and proofs), or
        None. Every host seat's envelopes come before any seat's proofs: a person's keys are in them, and their
        cards open once they are in. ``proofs``: False, the proofs are left for ``prove`` (None once the
        envelopes are all given)."""
        pledged, shown = set(pledges), set(boxes)
        for seat, held in sorted(self.seats.items()):
            if seat in shown:
                continue
            if seat not in pledged:
                return seat, Step("pledge", pledge=pledge(held.box.point))
            if all_pledged:
                return seat, Step("box", point=held.box.point)
        if hand is None or ledger is None:
            return None
        awaited = ledger.awaited()
        if awaited is not None:
            kind, seat = awaited
            if seat not in self.seats:
                return None
            mine = self.hand(seat, hand, ledger)
            if kind == "lock":
                return seat, Step("lock", lock=mine.lock())
            deck, commitments = mine.relock()
            return seat, Step("relock", deck=deck, commitments=commitments)
        for seat in sorted(self.seats):
            mine = self.hand(seat, hand, ledger)
            owed = tuple(e for e in mine.envelopes() if (e.sender, e.recipient, e.label) not in ledger.envelopes)
            if owed:
                return seat, Step("envelopes", envelopes=owed)
        if not proofs:
            return None
        for seat in sorted(self.seats):
            mine = self.hand(seat, hand, ledger)
            if seat not in ledger.shuffles:
                return seat, Step("shuffle", shuffle=mine.shuffle_proof())
            if seat not in ledger.proofs:
                return seat, Step("proofs", proofs=mine.proofs())
        return None

    def unproved(self, hand: Hand, ledger: Ledger) -> list[tuple[int, SeatHand, bool, bool]]:
        """The host seats whose shuffle proof or proofs are not in yet: each with its side of the hand (its keys
        opened here, on the event loop), and whether it owes the shuffle proof, the proofs."""
        return [(s, self.hand(s, hand, ledger), s not in ledger.shuffles, s not in ledger.proofs)
                for s in sorted(self.seats) if s not in ledger.shuffles or s not in ledger.proofs]


def prove(owed: Iterable[tuple[int, SeatHand, bool, bool]]) -> list[tuple[int, Step]]:
    """The shuffle proofs and proofs host seats owe (``HostSeats.unproved``), made: the costly part of a host
    seat's deal, run off the event loop (``Sealing.hosts_act``). Each reads its seat's own secrets and the deck
    as it stood once relocked, which nothing changes any more."""
    out = []
    for seat, mine, shuffle, proofs in owed:
        if shuffle:
            out.append((seat, Step("shuffle", shuffle=mine.shuffle_proof())))
        if proofs:
            out.append((seat, Step("proofs", proofs=mine.proofs())))
    return out
