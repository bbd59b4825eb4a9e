"""What a seat at a sealed table can be caught doing, and the one exception that names it.

A check of the sealed scheme either passes or raises ``Cheat`` naming the seat whose message failed
and why, in a sentence a person can read: every honest client and the server run the same checks on
the same messages, so they name the same seat for the same reason.
"""

from __future__ import annotations

from enum import StrEnum


class Fault(StrEnum):
    """Why a seat is named. The values are the history's and the wire's words for it."""

    BAD_LOCK = "bad_lock"
    """A first-pass lock that is not the deck it was handed, shuffled and locked (its proof fails)."""
    BAD_RELOCK = "bad_relock"
    """A second-pass relock whose card keys or proofs do not fit the deck it was handed."""
    WRONG_KEY = "wrong_key"
    """A card key that does not fit the key the seat committed to for that card."""
    WITHHELD_KEY = "withheld_key"
    """A card key the seat owed and did not give."""
    BAD_ENVELOPE = "bad_envelope"
    """An envelope of keys that does not open for the seat it was sealed for."""
    NOT_A_CARD = "not_a_card"
    """A card that, opened with every key, is no card of the pack."""
    NOT_ITS_CARD = "not_its_card"
    """A card played or shown that was not dealt to that seat, or not the one it named."""
    DUPLICATE = "duplicate"
    """A card opened twice in one hand."""
    FALSE_CLAIM = "false_claim"
    """An envido or flor claim that the cards shown do not bear out."""


SENTENCES: dict[Fault, str] = {
    Fault.BAD_LOCK: "its lock of the deck is not the deck it was handed",
    Fault.BAD_RELOCK: "its card keys do not fit the deck it was handed",
    Fault.WRONG_KEY: "it gave a key that does not fit its card",
    Fault.WITHHELD_KEY: "it did not give a key it owed",
    Fault.BAD_ENVELOPE: "its sealed keys do not open",
    Fault.NOT_A_CARD: "a card it locked opens to no card of the pack",
    Fault.NOT_ITS_CARD: "it played or showed a card that is not its own",
    Fault.DUPLICATE: "a card opened twice",
    Fault.FALSE_CLAIM: "its claim is not what its cards show",
}


class Cheat(Exception):
    """A seat's message failed a check of the sealed scheme: ``seat`` is named for ``fault``."""

    def __init__(self, seat: int, fault: Fault, detail: str = "") -> None:
        self.seat = seat
        self.fault = fault
        self.detail = detail
        said = f"Seat {seat + 1}: {SENTENCES[fault]}"
        super().__init__(f"{said} ({detail})." if detail else f"{said}.")
