"""A truco argentino match in play: the scores, the hand dealt, and the round being played.

A hand is one round (2 or 4 players, or 6 without pica-pica), or the three 1v1 duels of a
pica-pica deal. Each round has its tricks and its three bets — truco, envido and flor —
each a ``Ladder`` (``engine.truco.ladder``). Points won wait in ``round_points`` and
``points`` until the hand ends, unless the envido is scored at once (``banked``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardtui.engine.cards import Card
from cardtui.engine.core import Action, Audience, Event, SeatInfo, only
from cardtui.engine.truco.argentino.rules import LADDER, PLAY, ArgentinoOptions, EnvidoScored, Ties
from cardtui.engine.truco.base import TrucoState
from cardtui.engine.truco.envido import TABLE as ENVIDO_TABLE
from cardtui.engine.truco.envido import envido as envido_score
from cardtui.engine.truco.envido import falta
from cardtui.engine.truco.events import Reason, ShowReason, TrucoPlayed
from cardtui.engine.truco.flor import TABLE as FLOR_TABLE
from cardtui.engine.truco.flor import flor_value
from cardtui.engine.truco.ladder import Ladder, Word
from cardtui.engine.truco.tricks import TieRule
from cardtui.engine.truco.views import TrucoRoundResult


class Record:
    """A frozen record of what was played in a round, kept in the match state.

    Not a dataclass: compiled (``cardtui.native``), a dataclass is built through the Python
    ``__init__`` the dataclass decorator writes (several a hand: ``bench/marks.md``), while a native class
    with its own ``__init__`` is a C struct filled directly. Its attributes are ``Final``
    (read only to mypy, and compiled, at run time too); equality, hashing and ``repr`` go by
    the attributes, as a dataclass's would.
    """

    __slots__ = ()

    def fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _names(type(self)))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Record) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in _names(type(self)))
        return f"{type(self).__name__}({values})"

    def __deepcopy__(self, memo: dict[int, object]) -> Record:
        return self  # a frozen record of what was played


def _names(cls: type) -> tuple[str, ...]:
    """A record class's attributes: compiled, ``__mypyc_attrs__``; plain, its ``__slots__``."""
    names: tuple[str, ...] = getattr(cls, "__mypyc_attrs__", None) or cls.__slots__  # type: ignore[attr-defined]
    return names


class EnvidoRecord(Record):
    """How a round's envido went, for the hand history."""

    __slots__ = ("accepted", "calls", "cancelled", "cards", "points", "scores", "team", "winner")

    def __init__(self, calls: tuple[Word, ...], accepted: bool, cancelled: bool, points: int, team: int | None,
                 scores: dict[int, int], winner: int | None, cards: tuple[Card, ...]) -> None:
        self.calls: Final = calls
        self.accepted: Final = accepted
        self.cancelled: Final = cancelled
        self.points: Final = points
        self.team: Final = team
        self.scores: Final = scores
        """What each seat announced."""
        self.winner: Final = winner
        self.cards: Final = cards


class FlorRecord(Record):
    """How a round's flor went: alone, folded (achico), refused, or compared (accepted)."""

    __slots__ = ("calls", "cards", "outcome", "points", "scores", "team", "winner")

    def __init__(self, calls: tuple[Word, ...], outcome: str, points: int, team: int, scores: dict[int, int],
                 winner: int | None, cards: tuple[Card, ...]) -> None:
        self.calls: Final = calls
        self.outcome: Final = outcome
        self.points: Final = points
        self.team: Final = team
        self.scores: Final = scores
        self.winner: Final = winner
        self.cards: Final = cards


class Trick(Record):
    __slots__ = ("plays", "void", "winner")

    def __init__(self, plays: tuple[tuple[int, Card | None], ...], winner: int | None, void: frozenset[int]) -> None:
        self.plays: Final = plays
        self.winner: Final = winner
        self.void: Final = void
        """Seats whose card could not win: they had gone to the deck."""


class RoundRecord(Record):
    __slots__ = ("envido", "flor", "mano", "points", "reason", "round", "seats", "stake", "team", "tricks")

    def __init__(self, round: int, seats: tuple[int, ...], mano: int, tricks: tuple[Trick, ...], team: int | None,
                 stake: int, reason: Reason, points: tuple[int, int], envido: EnvidoRecord | None,
                 flor: FlorRecord | None) -> None:
        self.round: Final = round
        self.seats: Final = seats
        self.mano: Final = mano
        self.tricks: Final = tricks
        self.team: Final = team
        self.stake: Final = stake
        self.reason: Final = reason
        self.points: Final = points
        self.envido: Final = envido
        self.flor: Final = flor

    @property
    def result(self) -> TrucoRoundResult:
        """The round's outcome as the hand's result gives it: a frozen record, shared by the rounds
        that ended alike (they recur hand after hand), as ``public`` shares events."""
        key = (self.round, self.seats, self.team, self.stake, self.reason, self.points)
        found = _RESULTS.get(key)
        if found is None:
            if len(_RESULTS) >= 4096:
                _RESULTS.clear()
            found = _RESULTS[key] = TrucoRoundResult(*key)
        return found


_RESULTS: dict[tuple[int, tuple[int, ...], int | None, int, Reason, tuple[int, int]], TrucoRoundResult] = {}

_ONLY = tuple(only(s) for s in range(6))
"""Each seat's audience (a frozen record, shared)."""


class ArgentinoState(TrucoState):
    """One match. The hand in play is dealt from ``rng``; ``points`` wait for the hand's end."""

    def __init__(self, options: ArgentinoOptions, seats: Sequence[SeatInfo]) -> None:
        super().__init__(options, seats)
        self.options = options
        self.rule = TieRule.LAST_TAKES_ALL if options.ties is Ties.PLAY_ON else TieRule.FIRST_DECIDED
        self.at_once = options.envido_scored is EnvidoScored.AT_ONCE
        self.pica = False
        self.pica_next = False
        """The next deal is a pica-pica deal (six players: the 1v1s after a 3v3 round)."""
        self.only: tuple[Audience, ...] = _ONLY[: self.n]
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        self.plays: list[list[Action]] = [[] for _ in range(self.n)]
        """Each hand's cards as the play actions that play them, in the same order."""
        self.played: list[list[Event]] = [[] for _ in range(self.n)]
        """And as the events that say so, in the same order again."""
        self.dealt: list[tuple[Card, ...]] = [() for _ in range(self.n)]
        self.env = [0] * self.n
        self.env_cards: list[tuple[Card, ...]] = [() for _ in range(self.n)]
        self.flor = [-1] * self.n
        """Each seat's flor (``engine.truco.flor``), -1 without one or with flor off."""
        self.points = [0, 0]
        """Points of the rounds of this hand already over."""
        self.banked = [0, 0]
        """Points of this hand already added to the scores (envido scored at once)."""
        self.duels: list[tuple[int, int]] = []
        self.rounds: list[RoundRecord] = []
        self.shown: dict[int, tuple[tuple[Card, ...], ShowReason]] = {}
        self.earlier: list[Card] = []
        """The cards played in this hand's earlier rounds (a pica-pica hand's duels): everyone saw them."""
        self.opened: list[list[Card]] = [[] for _ in range(self.n)]
        """Sealed: the cards of each seat the engine could not see that were opened (played face up, shown)."""
        self.folded_unseen = [0] * self.n
        """Sealed: the cards nobody has seen that each seat took to the deck (its envido may still be shown)."""
        self.showing = False
        """Sealed: the hand's play is over and its claims are being shown (``claims``), one seat after another."""
        self.round_no = 0
        self._round(())

    def _round(self, players: tuple[int, ...]) -> None:
        """Fresh trick, truco, envido and flor state for a round between ``players``."""
        n = self.n
        self.round_no += 1
        self.players = players
        self.mano = players[0] if players else 0
        self.live = [False] * n
        self.in_team = [0, 0]  # players of each team still in the round
        for s in players:
            self.live[s] = True
            self.in_team[s & 1] += 1
        self.played0 = [False] * n
        self.trick: list[tuple[int, Card | None]] = []
        self.to_play = list(players)
        self.leader = self.mano
        self.results: list[int | None] = []
        self.tricks: list[Trick] = []
        self.round_points = [0, 0]
        self.truco = Ladder(LADDER)
        self.envido = Ladder(ENVIDO_TABLE)
        self.e_open = bool(players)
        """The envido may still be called this round (by a player who has not played)."""
        self.announcer = -1
        self.ann_order: tuple[int, ...] = ()
        self.best = -1
        """The seat with the best envido announced so far."""
        self.spoken: dict[int, int] = {}
        """What each seat announced."""
        self.spoke: set[int] = set()
        """Who has announced or said son buenas."""
        self.e_record: EnvidoRecord | None = None
        self.folded: dict[int, tuple[Card, ...]] = {}
        """The cards each seat that went to the deck still held: face down, out of play."""
        self.owes = [False] * n  # holds a flor not sung yet
        for s in players:
            self.owes[s] = self.flor[s] >= 0
        self.flor_bet = Ladder(FLOR_TABLE)
        self.f_sung: list[int] = []
        self.f_asked: list[int] = []
        """A flor awaiting its first answer: the other team's seats asked in turn."""
        self.f_done = False
        """A flor met by a flor has been settled."""
        self.f_shown: list[int] = []
        self.f_record: FlorRecord | None = None

    def give(self, seat: int, cards: Sequence[Card]) -> None:
        """Put ``cards`` in ``seat``'s hand as if dealt (scores recomputed): for rigged positions."""
        self.hands[seat] = list(cards)
        self.plays[seat] = [PLAY[c] for c in cards]
        self.played[seat] = [Event(TrucoPlayed(seat, c)) for c in cards]
        self.dealt[seat] = tuple(cards)
        assert self.log is not None
        self.log.holds(seat, cards)
        self.env[seat], self.env_cards[seat] = envido_score(cards, self.options.envido_unsuited)
        self.flor[seat] = flor_value(cards) if self.options.flor else -1
        if seat in self.players and not self.played0[seat]:
            self.owes[seat] = self.flor[seat] >= 0

    @property
    def falta(self) -> int:
        """What the leading team lacks to win (falta envido, contra flor al resto)."""
        return falta(self.scores, self.options.target)

    def award(self, team: int, points: int) -> None:
        """Envido or flor points to ``team``: in the round's points, and in the scores at once if so played."""
        self.round_points[team] += points
        if self.at_once:
            self.scores[team] += points
            self.banked[team] += points

    def decided(self) -> bool:
        """A team is at or past the target and ahead (level scores past it play on)."""
        a, b = self.scores
        return max(a, b) >= self.options.target and a != b

    def envido_callable(self) -> bool:
        """The envido could still be called this round, as everyone at the table can tell: it has
        not been called, no flor was sung, no truco accepted, and someone still in has not played."""
        return self.e_open and any(self.live[s] and not self.played0[s] for s in self.players)

    def claimed(self, seat: int) -> bool:
        """Sealed: the engine cannot see ``seat``'s hand, so what it says of it (an envido, a flor) is a claim."""
        return not self.known[seat]

    def may_envido(self, seat: int) -> bool:
        """In the first trick, before this seat plays, until a truco is accepted; once a round.

        A seat holding a flor it has not sung plays no envido: it sings the flor instead.
        """
        return self.e_open and not self.played0[seat] and not self.owes[seat]
