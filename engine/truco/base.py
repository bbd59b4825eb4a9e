"""What both trucos' games share: team scores, signals, the hand's record and its end.

Each variant subclasses ``TrucoState`` and ``TrucoGame`` and fills in its own deal and
play; this base holds what reads the same in both (python-chess's variants over one
board, here two rule sets over one family of records).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any, ClassVar, TypeVar

from cardtui.engine.cards import Card
from cardtui.engine.core import (
    Action,
    Audience,
    Event,
    EventBody,
    Game,
    GameOptions,
    JsonObject,
    SeatInfo,
    copied,
    only,
)
from cardtui.engine.events import CardsDealt
from cardtui.engine.history import HandLog
from cardtui.engine.options import values
from cardtui.engine.sealed import Move, Sealed, SealedDeal
from cardtui.engine.truco.events import TrucoSignalled
from cardtui.engine.truco.sealed import Claim, TrucoSealed
from cardtui.engine.truco.signals import Signal, audience
from cardtui.engine.truco.views import TrucoResult, TrucoSignalSeen, TrucoView


class TrucoState:
    """A match: team scores carry over hands; each hand is dealt from its own seeded rng.

    An ``engine.core.MatchState`` by its attributes, not by inheritance: compiled, this is a
    native class (attributes in C slots), which a plain Python base would not allow.
    """

    def __init__(self, options: GameOptions, seats: Sequence[SeatInfo]) -> None:
        self.option_values = _values(options)
        """The options as a hand history records them (shared by the matches of these options: read only)."""
        self.seats = tuple(s if s.team == s.seat & 1 else SeatInfo(s.seat, s.name, s.seat & 1) for s in seats)
        self.n = len(seats)
        self.names = tuple(s.name for s in seats)
        self.scores = [0, 0]
        self.hand_no = 0
        self.dealer = self.n - 1
        self.rng = _UNDEALT
        self.signals: list[tuple[int, Signal, frozenset[int]]] = []
        self.log: HandLog | None = None
        self.result: TrucoResult | None = None
        self.options_given = options
        self.sealed = bool(getattr(options, "sealed", False))
        """A sealed table (``engine.truco.sealed``): the engine is dealt no card."""
        self.unseen = [0] * self.n
        """Sealed: how many cards each seat holds that the engine has not seen."""
        self.known = [True] * self.n
        """Sealed: whether the engine knows each seat's hand (a seat the host opened: a bot's)."""
        self.seen_cards: set[Card] = set()
        """Sealed: every card the engine has seen this hand (known hands, played face up, shown, rejected)."""
        self.claims: list[Claim] = []
        """Sealed: the claims the rules show at the hand's end, in the order they are shown."""

    def __deepcopy__(self, memo: dict[int, Any]) -> TrucoState:
        """A copy to play on (what-ifs, tests): compiled, the state is copied attribute by attribute."""
        return copied(self, type(self)(self.options_given, self.seats), memo)


R = TypeVar("R")

_VALUES: dict[GameOptions, dict[str, Any]] = {}


def _values(options: GameOptions) -> dict[str, Any]:
    """``values(options)``, once per options record (a frozen record, and the tables of a room
    play a handful of them): each match starts without walking the record's fields again, and
    a match with the very record of the last one without hashing it either."""
    global _LAST
    if options is _LAST[0]:
        return _LAST[1]
    found = _VALUES.get(options)
    if found is None:
        if len(_VALUES) >= 256:  # options come from players: the cache stays small whatever they send
            _VALUES.clear()
        found = values(options)
        if not found.get("sealed", True):  # written only at a sealed table: every other history stays as it was
            del found["sealed"]
        _VALUES[options] = found
    _LAST = options, found
    return found


_LAST: tuple[GameOptions | None, dict[str, Any]] = (None, {})
"""The options record asked for last, and its values."""
_UNDEALT = random.Random(0)
"""A match's generator before its first deal, which replaces it: nothing draws from it (a seat
acts only in a hand dealt), so matches share it rather than seed one each (a cost measured in
``bench/marks.md``)."""


_SHARED: dict[tuple[Any, ...], Event] = {}


def public(body: type[EventBody], *fields: Any) -> Event:
    """A public event, made once and shared: its record is immutable, and these recur hand after
    hand (a call, an answer, a trick's end), so the hot path does not build them again."""
    key = (body, *fields)
    event = _SHARED.get(key)
    if event is None:
        event = _SHARED[key] = Event(body(*fields))
    return event


def dealt_event(seat: int, cards: tuple[Card, ...], audience: Audience) -> Event:
    """``Event(CardsDealt(seat, cards), audience)``, its slots filled directly: the records are
    plain Python frozen dataclasses, whose ``__init__`` (a Python frame setting each field
    through ``object.__setattr__``) is most of what a seat's deal costs compiled. The same
    records, equal and hashing alike; a test holds the two ways to each other."""
    body = _NEW(CardsDealt)
    _DEALT_SEAT(body, seat)
    _DEALT_CARDS(body, cards)
    event = _NEW(Event)
    _EVENT_BODY(event, body)
    _EVENT_AUDIENCE(event, audience)
    return event  # type: ignore[no-any-return]


def made(cls: type[R], *values: Any) -> R:
    """``cls(*values)`` for a frozen, slotted dataclass of plain Python whose fields are all given
    (no defaults, no ``__post_init__``), its slots filled as ``dealt_event`` fills them: for the
    records a hand makes once (its result), without the Python frame of their ``__init__``."""
    setters = _SETTERS.get(cls)
    if setters is None:
        setters = _SETTERS[cls] = tuple(cls.__dict__[f.name].__set__ for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    if len(values) != len(setters):
        raise TypeError(f"{cls.__name__} has {len(setters)} fields, not {len(values)}")
    record = _NEW(cls)
    for i, value in enumerate(values):
        setters[i](record, value)
    return record  # type: ignore[no-any-return]


_NEW: Any = object.__new__
_DEALT_SEAT: Any = CardsDealt.__dict__["seat"].__set__
_DEALT_CARDS: Any = CardsDealt.__dict__["cards"].__set__
_EVENT_BODY: Any = Event.__dict__["body"].__set__
_EVENT_AUDIENCE: Any = Event.__dict__["audience"].__set__
_SETTERS: dict[type, tuple[Any, ...]] = {}


S = TypeVar("S", bound=TrucoState)
O = TypeVar("O", bound=GameOptions)  # noqa: E741


class TrucoGame(Game[S, O, TrucoView]):
    family_name: ClassVar[str] = "truco"
    teams: ClassVar[bool] = True

    def first_dealer(self, state: S) -> int:
        """Seat 0 deals the first hand: seat 1 is the first mão (mano)."""
        return 0

    def set_start(self, state: S, start: Sequence[int]) -> None:
        state.scores = [int(start[0]), int(start[1])]

    def scores(self, state: S) -> tuple[int, ...]:
        return tuple(state.scores[s & 1] for s in range(state.n))

    def hand_over(self, state: S) -> bool:
        return state.result is not None

    # -- a sealed table (engine.truco.sealed) --------------------------------------------------
    def sealed(self, state: S) -> Sealed | None:
        return TrucoSealed(self, state) if state.sealed else None  # type: ignore[arg-type]

    @staticmethod
    def seal_deal(state: S) -> None:
        """A sealed hand's deal: every seat holds three cards the engine cannot see, until told."""
        state.unseen = [0] * state.n
        state.known = [False] * state.n
        state.seen_cards = set()
        state.claims = []

    def sealed_deal(self, state: S) -> SealedDeal:
        """How the hand in play was dealt (``Sealed.deal``)."""
        raise NotImplementedError

    def learn(self, state: S, seat: int, cards: tuple[Card, ...]) -> None:
        """The host opened ``seat``'s cards (``Sealed.learn``, checked there): the seat plays them as at any table."""
        raise NotImplementedError

    def sealed_move(self, state: S, action: Action) -> Move | None:
        raise NotImplementedError

    def sealed_action(self, state: S, move: Move, seat: int, cards: tuple[Card, ...], index: int) -> Action:
        raise NotImplementedError

    def void(self, state: S) -> list[Event]:
        """The hand stops, void: nobody scores (``Sealed.void``)."""
        raise NotImplementedError

    def history(self, state: S) -> JsonObject | None:
        return state.log.history() if state.log is not None and state.result is not None else None

    @staticmethod
    def signal(state: S, seat: int, signal: Signal, chance: float) -> Event:
        """A gesture: partners see it, each opponent catches it by chance (the hand's rng)."""
        who = audience(state.rng, seat, state.n, chance)
        state.signals.append((seat, signal, who))
        return Event(TrucoSignalled(seat, signal), only(*who))

    @staticmethod
    def signals_seen(state: S, seat: int | None, everyone: bool = False) -> tuple[TrucoSignalSeen, ...]:
        """The signals ``seat`` caught (``everyone``: every signal made, for the open view)."""
        if everyone:
            return tuple(TrucoSignalSeen(s, sig) for s, sig, _ in state.signals)
        if seat is None:
            return ()
        return tuple(TrucoSignalSeen(s, sig) for s, sig, who in state.signals if seat in who)

    @staticmethod
    def deltas(points: Sequence[int], n: int) -> tuple[int, ...]:
        """Each seat's delta: what its team gained."""
        return tuple(points[s & 1] for s in range(n))

    @staticmethod
    def leader(points: Sequence[int]) -> int | None:
        return None if points[0] == points[1] else (0 if points[0] > points[1] else 1)
