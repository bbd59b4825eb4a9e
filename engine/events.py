"""The events every game has: a hand starts, cards are dealt, a seat acts, a hand and a match end.

Each is a frozen record (see ``EventBody``); games add their own beside their rules. The
wire has a message of the same name and fields for each, and clients say them in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtui.engine.cards import Card
from cardtui.engine.core import Action, EventBody


@dataclass(frozen=True, slots=True)
class HandStarted(EventBody):
    hand: int
    dealer: int


@dataclass(frozen=True, slots=True)
class CardsDealt(EventBody):
    """Cards given to one seat: an event for that seat's eyes only."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Acted(EventBody):
    """What a seat did, when the action itself says it all (a bet, a pass, a call of truco)."""

    seat: int
    action: Action


@dataclass(frozen=True, slots=True)
class HandEnded(EventBody):
    """The hand is over: what each seat won or lost (chips, or points) and who won it."""

    deltas: tuple[int, ...]
    winner: int | None = None
    team: int | None = None


@dataclass(frozen=True, slots=True)
class MatchEnded(EventBody):
    winner: int | None = None
    team: int | None = None
