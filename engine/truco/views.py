"""What one seat (or a spectator) sees of a truco table: one view record for both games.

``TrucoView`` holds what both trucos share; the variant's own facts are in ``paulista`` or
``argentino`` (exactly one is set), and which truco's rules the table plays is ``rules``, as the game declares it:
the shared code asks that, never which part is there. Every fact a screen needs is computed here by the
engine: which team may raise and to what, what a pending call pays, the envido of the
seat, whether envido may still be called, the malas and buenas of a score.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardtui.engine.cards import Card
from cardtui.engine.core import GameView
from cardtui.engine.truco.envido import Unsuited
from cardtui.engine.truco.events import Reason, ShowReason
from cardtui.engine.truco.ladder import Bet, Word
from cardtui.engine.truco.signals import Signal
from cardtui.engine.truco.tricks import TieRule


@dataclass(frozen=True, slots=True)
class TrucoSeat:
    seat: int
    name: str
    team: int
    cards: tuple[Card, ...]
    """The cards of this seat the viewer may see: its own; a partner's in a mão de onze; every
    seat's in a replay's open view."""
    card_count: int
    playing: bool
    """In the round now (a pica-pica duel has two; a player gone to the deck is out)."""
    gone: bool
    """Went to the deck this round."""
    envido: int | None
    """The envido this seat announced this round."""


@dataclass(frozen=True, slots=True)
class TrucoPlay:
    seat: int
    card: Card | None
    """None: played face down (its player's own view and a replay's open view show it, with ``face_down`` set)."""
    face_down: bool
    void: bool
    """Its player went to the deck: it cannot win the trick, as if face down."""


@dataclass(frozen=True, slots=True)
class TrucoTrick:
    plays: tuple[TrucoPlay, ...]
    winner: int | None
    """None: tied (opponents tied for the highest card, or no card could win)."""
    team: int | None


@dataclass(frozen=True, slots=True)
class TrucoStake:
    """A rung of the truco ladder: the call, what it stands at accepted, what refusing pays."""

    call: Word
    value: int
    refused: int


@dataclass(frozen=True, slots=True)
class TrucoCall:
    """A call awaiting its answer."""

    bet: Bet
    call: Word
    seat: int
    team: int
    answering_team: int
    value: int
    """What the bet stands at if accepted."""
    refused: int
    """What the callers take if it is refused."""
    raises: tuple[Word, ...]
    """The raises the answering team may make (within its limits)."""


@dataclass(frozen=True, slots=True)
class TrucoSignalSeen:
    seat: int
    signal: Signal


@dataclass(frozen=True, slots=True)
class TrucoShown:
    seat: int
    cards: tuple[Card, ...]
    reason: ShowReason


@dataclass(frozen=True, slots=True)
class TrucoRoundResult:
    round: int
    seats: tuple[int, ...]
    team: int | None
    """Who took the truco stake (None: a tied mão de ferro)."""
    stake: int
    reason: Reason
    points: tuple[int, int]
    """The round's points per team, envido and flor included."""


@dataclass(frozen=True, slots=True)
class TrucoResult:
    deltas: tuple[int, ...]
    """Per seat: what its team gained this hand."""
    points: tuple[int, int]
    team: int | None
    """The team that gained more this hand (None: equal)."""
    rounds: tuple[TrucoRoundResult, ...]
    scores: tuple[int, int]


class PaulistaPhase(StrEnum):
    DEAL = "deal"
    """The mão keeps, passes or rejects."""
    ONZE = "onze"
    """The team on 11 decides whether to play its mão de onze."""
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class PaulistaPart:
    phase: PaulistaPhase
    mao: int
    passed: bool
    """The mão passed the first three cards to the partner."""
    may_pass: bool
    rejects_left: int
    rejected: tuple[Card, ...]
    """Rejected cards, face up and out of play."""
    onze_team: int | None
    """The team on 11 in a mão de onze."""
    ferro: bool
    """Both on 11: cards dealt face down and played blind."""
    trick_decides: bool
    """A truco was accepted with ``truco_decides = trick``: the trick in play decides the hand."""
    call_decides: bool
    """With ``truco_decides = trick`` and no trick deciding yet: a call accepted now (a truco, or a raise
    awaiting its answer, which itself accepted the truco) makes the trick in play decide the hand."""
    passed_cards: tuple[Card, ...] = ()
    """The cards the mão passed to its partner, in the mão's own view (the partner holds them)."""


@dataclass(frozen=True, slots=True)
class ArgentinoScore:
    """A score told in malas (0–15) and buenas (16–30): ``count`` of them."""

    count: int
    buenas: bool


@dataclass(frozen=True, slots=True)
class ArgentinoPart:
    mano: int
    round: int
    """1 for the round; 1 to 3 for the pica-pica duels."""
    players: tuple[int, ...]
    """The seats playing the round now, mano first (two in a pica-pica duel)."""
    pica_pica: bool
    told: tuple[ArgentinoScore, ...]
    """Each team's score in malas and buenas (empty when playing to 15)."""
    points: tuple[int, int]
    """Points won this hand and not yet added to the scores."""
    falta: int
    """What the leading team lacks to win: falta envido and contra flor al resto."""
    envido_calls: tuple[Word, ...]
    envido_open: bool
    """The envido may still be called this round (by someone who has not played)."""
    may_envido: bool
    """You may call it now."""
    your_envido: int | None
    your_envido_cards: tuple[Card, ...]
    announcing: int | None
    best_envido: int | None
    """The seat holding the best envido announced so far."""
    flor_calls: tuple[Word, ...]
    flor_sung: tuple[int, ...]
    flor_done: bool
    must_flor: bool
    """You hold a flor you have not sung: sing it before your first card."""
    your_flor: int | None
    shown: tuple[TrucoShown, ...]
    earlier: tuple[Card, ...] = ()
    """The cards played in this hand's earlier rounds (a pica-pica hand's duels), which everyone saw."""
    ties: TieRule = TieRule.LAST_TAKES_ALL
    """How a tied trick is settled at this table (its ``ties`` option)."""
    envido_unsuited: Unsuited = Unsuited.SUM_TWO
    """How this table counts the envido of a hand with no two cards of one suit (its ``envido_unsuited`` option)."""


class TrucoRules(StrEnum):
    """Which truco's rules a table plays, as the family's shared code (its bots, what a seat has seen, the match
    odds) needs to know: the pack and its order of strength, the ladder and what a refusal takes, how a tied trick
    falls, whether there is an envido. Each game declares its own (``engine/truco/paulista/view.py``)."""

    PAULISTA = "paulista"
    """French 40, the manilha above the rest; truco, seis, nove, doze; a tie goes to the first trick's winner."""
    ARGENTINO = "argentino"
    """Spanish 40; truco, retruco, vale cuatro; the envido and the flor; ties by the table's option."""


@dataclass(frozen=True, slots=True)
class TrucoView(GameView):
    hand: int
    dealer: int
    you: int | None
    to_act: tuple[int, ...]
    hand_over: bool
    match_over: bool
    seats: tuple[TrucoSeat, ...]
    cards: tuple[Card, ...]
    """Your hand (empty for a spectator, and in a mão de ferro)."""
    turn: int | None
    """Whose card the trick waits for."""
    tricks: tuple[TrucoTrick, ...]
    trick: tuple[TrucoPlay, ...]
    scores: tuple[int, int]
    target: int
    stake: int
    """What the round is played for now."""
    ladder: tuple[TrucoStake, ...]
    level: int
    """How many rungs of the ladder have been accepted."""
    raisers: tuple[int, ...]
    """The teams that may raise the truco next (both before any call; none at the top)."""
    your_raise: TrucoStake | None
    """The raise your team may make (calling, or answering a call), if any."""
    pending: TrucoCall | None
    signals: tuple[TrucoSignalSeen, ...]
    """Signals this seat saw."""
    result: TrucoResult | None
    paulista: PaulistaPart | None
    argentino: ArgentinoPart | None
    rules: TrucoRules
    """Which truco's rules the table plays (``TrucoRules``): the game's own declaration, not which part is set."""
