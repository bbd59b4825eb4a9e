"""The contract every game implements, and the records that cross it.

A game is a pure state machine: ``start`` makes a match from options, seats and a seed;
``apply`` takes one seat's action and returns the events it caused, each with its
audience; ``view`` is the one place that decides what a seat (or a spectator) may see.
Nothing here reads a clock, does I/O or touches global random state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from cardtui.engine.cards import Card

SPECTATOR = None
"""The seat argument of ``view`` for a spectator: the public view only."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``str()`` is a sentence a person can read."""


class NotYourTurn(IllegalAction):
    """The seat may not act at this moment."""


class InvalidOptions(ValueError):
    """Table options that break the rules' limits."""


@dataclass(frozen=True, slots=True)
class Audience:
    """Who may see an event: everyone (``seats is None``) or only these seats."""

    seats: frozenset[int] | None = None

    def sees(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)

    @property
    def public(self) -> bool:
        return self.seats is None


EVERYONE = Audience()


def only(*seats: int) -> Audience:
    return Audience(frozenset(seats))


@dataclass(frozen=True, slots=True)
class Action:
    """What a seat does: a type (per game), and an amount or cards where it needs them."""

    type: str
    amount: int = 0
    cards: tuple[Card, ...] = ()
    value: str = ""

    def describe(self) -> str:
        parts = [self.type]
        if self.amount:
            parts.append(str(self.amount))
        parts.extend(str(c) for c in self.cards)
        if self.value:
            parts.append(self.value)
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for an audience. ``text`` is the log line people read."""

    kind: str
    audience: Audience
    text: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    team: int = 0


class GameOptions(Protocol):
    """A frozen, validated options record (``InvalidOptions`` on bad values)."""

    def as_dict(self) -> dict[str, Any]: ...


S = TypeVar("S")
Opts = TypeVar("Opts")


class Game(Protocol[S, Opts]):
    """One game's rules. ``S`` is its mutable match state, ``Opts`` its options record."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    def options(self, raw: Mapping[str, Any]) -> Opts:
        """Validate raw options (from a person or a file); unknown keys are refused."""
        ...

    def start(self, options: Opts, seats: Sequence[SeatInfo], seed: int) -> tuple[S, list[Event]]:
        """A new match, with its first hand dealt from ``random.Random(seed)``."""
        ...

    def next_hand(self, state: S, seed: int) -> list[Event]:
        """Deal the next hand of a match whose last hand is over."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Everything this seat may do now, out-of-turn calls included."""
        ...

    def apply(self, state: S, seat: int, action: Action) -> list[Event]:
        """Do it and return what happened; ``IllegalAction`` and no change if not allowed."""
        ...

    def view(self, state: S, seat: int | None) -> Any:
        """Exactly what ``seat`` (or a spectator, ``None``) may see, as a frozen record."""
        ...

    def to_act(self, state: S) -> tuple[int, ...]:
        """Seats whose action the hand is waiting for (the turn timer runs on these)."""
        ...

    def default_action(self, state: S, seat: int) -> Action:
        """What a seat does when its turn timer runs out."""
        ...

    def timeout_ms(self, state: S) -> int | None:
        """A window the rules themselves time (a claim window), else None: the table's timer."""
        ...

    def hand_over(self, state: S) -> bool: ...

    def match_over(self, state: S) -> bool: ...

    def history(self, state: S) -> dict[str, Any] | None:
        """The hand history of the last finished hand (DESIGN.md contract)."""
        ...

    def replay(self, record: Mapping[str, Any]) -> S:
        """Rebuild a hand from its history, ending in the same result."""
        ...


class Bot(Protocol):
    """A bot sees only its seat's view and the legal actions; chance comes from ``rng``."""

    def __call__(self, view: Any, legal: list[Action], rng: random.Random) -> Action: ...


def check_seat(seat: int, n: int) -> None:
    if not 0 <= seat < n:
        raise IllegalAction(f"There is no seat {seat} at this table.")
