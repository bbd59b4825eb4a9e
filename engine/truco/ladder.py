"""The call, answer and raise ladder that truco, envido and flor all climb.

A bet starts at a base stake. A call proposes the next stake; the other team answers:
it accepts (the stake holds), refuses (the callers take what the refused call pays), or
raises — which accepts the call and proposes the next stake, for the callers to answer
in turn. Who may raise after an acceptance is the bet's own rule (truco: the team that
accepted; envido and flor: nobody, they are played at once).

What each sequence of calls is worth, accepted or refused, and which calls may follow it
is the bet's ``Table``: a plain ladder of stakes for truco (``Steps``: paulista 1, 3, 6,
9, 12; argentino 1, 2, 3, 4), the seed's sums for envido (``engine.truco.envido``), the
flor's own (``engine.truco.flor``). A ``Ladder`` keeps one bet's calls in a round: who
called last, which team must answer, how many calls were accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from cardtui.engine.core import copied


class Bet(StrEnum):
    """The three bets of a truco round."""

    TRUCO = "truco"
    ENVIDO = "envido"
    FLOR = "flor"


class Word(StrEnum):
    """Every call said at a truco table: each is also the action type that says it."""

    TRUCO = "truco"
    RETRUCO = "retruco"
    VALE_CUATRO = "vale_cuatro"
    SEIS = "seis"
    NOVE = "nove"
    DOZE = "doze"
    ENVIDO = "envido"
    REAL_ENVIDO = "real_envido"
    FALTA_ENVIDO = "falta_envido"
    FLOR = "flor"
    CONTRA_FLOR = "contra_flor"
    CONTRA_FLOR_AL_RESTO = "contra_flor_al_resto"
    CON_FLOR_ME_ACHICO = "con_flor_me_achico"


@dataclass(frozen=True, slots=True)
class Rung:
    """One step of a plain ladder: the call, what it stands at accepted, and refused."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Rung:
        return self  # frozen

    call: Word
    value: int
    refused: int


class Table(Protocol):
    """What a bet's calls are worth and which calls may follow them."""

    bet: Bet

    def raises(self, calls: Sequence[Word]) -> tuple[Word, ...]:
        """The calls that may follow ``calls`` (the opening calls when there are none)."""

    def acceptable(self, calls: Sequence[Word]) -> bool:
        """Whether the last call may be answered with a plain acceptance."""

    def accepted(self, calls: Sequence[Word], resto: int) -> int:
        """What the bet stands at with all of ``calls`` accepted (``resto``: what the leader lacks)."""

    def refused(self, calls: Sequence[Word]) -> int:
        """What the callers of the last call take when it is refused."""


class Steps:
    """A plain ladder: each call climbs one rung; refused, the rung below stands."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Steps:
        return self  # a game's table: immutable and shared, by copies too

    def __init__(self, bet: Bet, base: int, rungs: Sequence[Rung]) -> None:
        self.bet = bet
        self.base = base
        self.rungs = tuple(rungs)
        self._next: tuple[tuple[Word, ...], ...] = (*((r.call,) for r in self.rungs), ())

    def raises(self, calls: Sequence[Word]) -> tuple[Word, ...]:
        return self._next[len(calls)]

    def acceptable(self, calls: Sequence[Word]) -> bool:
        return True

    def accepted(self, calls: Sequence[Word], resto: int = 0) -> int:
        return self.rungs[len(calls) - 1].value if calls else self.base

    def refused(self, calls: Sequence[Word]) -> int:
        return self.rungs[len(calls) - 1].refused

    def stake(self, level: int) -> int:
        """What the bet stands at after ``level`` accepted calls."""
        return self.rungs[level - 1].value if level else self.base


class Ladder:
    """One bet in one round: the calls said, the team that must answer, who may raise."""

    __slots__ = ("caller", "calls", "closed", "level", "owner", "pending", "table")

    def __deepcopy__(self, memo: dict[int, Any]) -> Ladder:
        return copied(self, Ladder(self.table), memo)

    def __init__(self, table: Table) -> None:
        self.table = table
        self.calls: list[Word] = []
        self.pending = -1
        """The team whose call awaits an answer; -1 when none does."""
        self.caller = -1
        """The seat that said the last call."""
        self.owner = -1
        """The team that accepted last (truco: the one that may raise next); -1: none yet."""
        self.level = 0
        """How many of the calls have been accepted."""
        self.closed = False
        """Settled: refused, or accepted and played out (envido, flor)."""

    @property
    def answering(self) -> int:
        """The team that must answer now, or -1."""
        return 1 - self.pending if self.pending >= 0 else -1

    def next_calls(self) -> tuple[Word, ...]:
        """The calls that may come next, whoever says them (each game adds its own limits)."""
        return () if self.closed else self.table.raises(self.calls)

    def call(self, seat: int, word: Word) -> None:
        """A call; said while another awaits its answer, it is a raise that accepts that one."""
        if self.pending >= 0:
            self.level = len(self.calls)
            self.owner = 1 - self.pending
        self.calls.append(word)
        self.pending = seat & 1
        self.caller = seat

    def accept(self, seat: int) -> int:
        """The answering team accepts: the bet stands at the new stake (returned)."""
        self.level = len(self.calls)
        self.owner = seat & 1
        self.pending = -1
        return self.table.accepted(self.calls, 0)

    def refuse(self) -> tuple[int, int]:
        """The answering team refuses: (the callers' team, what they take)."""
        team = self.pending
        self.pending = -1
        self.closed = True
        return team, self.table.refused(self.calls)

    def if_accepted(self, resto: int) -> int:
        """What the bet stands at if the pending call is accepted."""
        return self.table.accepted(self.calls, resto)

    def if_refused(self) -> int:
        """What the callers take if the pending call is refused."""
        return self.table.refused(self.calls)
