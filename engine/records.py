"""The records that cross the engine's contract (``engine.core``): who sees an event, an action, an
event, a view, a seat; and how a match state copies itself.

Kept apart from the contract so that what the contract builds on (the hand log, ``engine.history``)
can use them without importing the contract back.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from cardtui.engine.cards import Card

SPECTATOR = None
"""The seat argument of ``view`` for a spectator: the public view only."""

@dataclass(frozen=True, slots=True)
class Audience:
    """Who may see an event: everyone (``seats is None``) or only these seats (and spectators).

    Games address seats; ``spectators`` lets a table address the people watching (table talk
    that must not reach the players during a hand).
    """

    seats: frozenset[int] | None = None
    spectators: bool = False

    def sees(self, seat: int | None) -> bool:
        if self.seats is None:
            return True
        return self.spectators if seat is None else seat in self.seats

    @property
    def public(self) -> bool:
        return self.seats is None


EVERYONE = Audience()


def only(*seats: int) -> Audience:
    return Audience(frozenset(seats))


@dataclass(frozen=True, slots=True)
class Action:
    """What a seat does: a type (per game), and an amount or cards where it needs them.

    ``amount`` is chips for bets, raises and calls, the position of an unseen card for a
    blind play, the points said for an envido announcement; ``value`` names a signal or
    where a card is drawn from. The wire gives each of these its own field.
    """

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


class EventBody:
    """What happened: each kind of event is a frozen record subclassing this.

    The record's class name is its name on the wire (``cardtui.v1`` has a message of the
    same name and fields), so the one converter in the server needs no table per event.
    """

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, and who may see it."""

    body: EventBody
    audience: Audience = EVERYONE

    @property
    def kind(self) -> str:
        return type(self.body).__name__

    @property
    def seat(self) -> int | None:
        seat = getattr(self.body, "seat", None)
        return seat if isinstance(seat, int) else None


class GameView:
    """A frozen record of what one seat (or a spectator) may see; each game's view subclasses it.

    Every view carries the facts every game has: the hand's number, the dealer, the viewer's
    seat (None for a spectator), the seats the game waits on, and whether the hand and the
    match are over.
    """

    __slots__ = ()
    hand: int
    dealer: int
    you: int | None
    to_act: tuple[int, ...]
    hand_over: bool
    match_over: bool


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    team: int = 0


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a finished hand replayed: the deal (``seat`` None) or one seat's action,
    every event it caused (whatever its audience), and the open view after them."""

    seat: int | None
    action: Action | None
    events: tuple[Event, ...]
    view: GameView


class GameOptions:
    """A frozen, validated options record: each field an option (see ``engine.options``)."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]


_T = TypeVar("_T")


def copied(old: _T, new: _T, memo: dict[int, Any]) -> _T:
    """``new``, a fresh object of ``old``'s class, given a deep copy of each attribute ``old`` has:
    how a compiled class (``cardtui.native``) copies itself in ``__deepcopy__``, since a compiled
    object cannot be made blank (its ``__new__`` runs ``__init__``). Attributes are a compiled
    class's ``__mypyc_attrs__``, or a plain one's ``__dict__`` and slots."""
    memo[id(old)] = new
    cls = type(old)
    names: tuple[str, ...] | None = getattr(cls, "__mypyc_attrs__", None)
    if names is None:
        slots = (n for c in cls.__mro__ for n in getattr(c, "__slots__", ()))
        names = (*getattr(old, "__dict__", {}), *slots)
    for name in names:
        if name != "__dict__" and hasattr(old, name):  # an attribute not set yet stays unset
            setattr(new, name, copy.deepcopy(getattr(old, name), memo))
    return new


class MatchState(Protocol):
    """What every game's match state holds besides its own: the seats and the hand in play.

    A protocol, so that a state need not inherit from it: truco's states are compiled
    (``cardtui.native``), and a compiled class cannot have a plain Python class as its base.
    """

    seats: tuple[SeatInfo, ...]
    hand_no: int
    dealer: int
