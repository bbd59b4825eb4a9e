"""Cacho's records: its options, views and events (frozen dataclasses over ``engine.core``'s bases).

They live apart from the rules (``engine.cacho.rules``, which re-exports them) because the rules are
compiled (``cardtui.native``) and these are not: a compiled class cannot extend the plain
Python bases every game's records share, and a dataclass with slots is remade as a new class,
which a compiled module's classes do not allow.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardtui.engine.cards import Card
from cardtui.engine.core import EventBody, GameOptions, GameView
from cardtui.engine.options import option


@dataclass(frozen=True, slots=True)
class CachoOptions(GameOptions):
    # Every amount a player may bet is a legal action of its own, and at the resto the
    # deepest stacks set how many: at 100,000 chips each, one act's views listed 100,000
    # bets and the whole room waited half a second for it.
    chips: int = option(20, "Chips each player starts the match with.", min=3, max=1_000)


# -- hand strength ------------------------------------------------------------------
class Category(StrEnum):
    """The showdown's categories, weakest first (the order compares)."""

    HIGH = "high"
    TWO_SUITED = "two_suited"
    CACHO = "cacho"
    SIXES = "sixes"


@dataclass(frozen=True, slots=True)
class CachoStrength:
    category: Category
    points: int


# -- views --------------------------------------------------------------------------
class SeatStatus(StrEnum):
    IN = "in"
    PASSED = "passed"
    """Passed or folded: out of this hand (a round-2 pass counts once the round is over)."""
    WAITING = "waiting"
    BUST = "bust"


@dataclass(frozen=True, slots=True)
class CachoSeat:
    seat: int
    name: str
    chips: int
    put: int
    status: SeatStatus
    cards: tuple[Card, ...]
    """The cards this viewer may see: its own, and everyone's at a showdown."""
    card_count: int
    strength: CachoStrength | None


@dataclass(frozen=True, slots=True)
class CachoShowing:
    seat: int
    cards: tuple[Card, ...]
    strength: CachoStrength


@dataclass(frozen=True, slots=True)
class CachoResult:
    deltas: tuple[int, ...]
    winner: int
    showdown: tuple[CachoShowing, ...]
    pot: int


@dataclass(frozen=True, slots=True)
class CachoView(GameView):
    hand: int
    dealer: int
    you: int | None
    to_act: tuple[int, ...]
    hand_over: bool
    match_over: bool
    round: int
    pot: int
    level: int
    cap: int
    seats: tuple[CachoSeat, ...]
    result: CachoResult | None


# -- events -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CachoRoundDealt(EventBody):
    round: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CachoRedealt(EventBody):
    pass


@dataclass(frozen=True, slots=True)
class CachoShowed(EventBody):
    seat: int
    cards: tuple[Card, ...]
    strength: CachoStrength


@dataclass(frozen=True, slots=True)
class CachoPotWon(EventBody):
    seat: int
    chips: int
    showdown: bool
