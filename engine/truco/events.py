"""What happens at a truco table, as typed records (each a message of the same name in truco.proto).

Common records (``engine.events``) carry what every game has: ``HandStarted``,
``CardsDealt`` (to its seat only), ``HandEnded`` (each seat's delta is its team's points)
and ``MatchEnded`` (the winning team). The records here say the rest, with every number
a log line needs; clients put them in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardtui.engine.cards import Card
from cardtui.engine.core import EventBody
from cardtui.engine.truco.ladder import Bet, Word
from cardtui.engine.truco.signals import Signal


class Reason(StrEnum):
    """How a round's truco stake was won."""

    TRICKS = "tricks"
    REFUSED = "refused"
    """A call was refused (no quiero, corro): the callers take what it pays."""
    DECK = "deck"
    """Every player of the other team went to the deck."""
    ONZE_REFUSED = "onze_refused"
    """Paulista: the team on 11 ran from its mão de onze."""
    TIED = "tied"
    """Paulista: a tied mão de ferro; nobody scores and another iron hand follows."""
    ENVIDO = "envido"
    """Argentino, envido scored at once: the envido or flor won the match mid-round."""
    VOID = "void"
    """A sealed table named a seat for a cheat: the hand stopped there, and nobody scores it."""


class ShowReason(StrEnum):
    ENVIDO = "envido"
    FLOR = "flor"


class DealChoice(StrEnum):
    """What the mão does with the three cards the dealer gives first (truco paulista)."""

    KEEP = "keep"
    PASS_CARDS = "pass_cards"
    REJECT = "reject"


# -- both games ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TrucoPlayed(EventBody):
    """A card played to the trick: ``card`` is None when it went face down."""

    seat: int
    card: Card | None
    face_down: bool = False
    blind: bool = False
    """Mão de ferro: turned up from the player's unseen cards."""


@dataclass(frozen=True, slots=True)
class TrucoCalled(EventBody):
    """A call (or a raise, which accepts the call it answers); flor sung is a call too."""

    seat: int
    team: int
    bet: Bet
    call: Word
    value: int
    """What the bet stands at if this call is accepted."""
    refused: int
    """What the callers take if it is refused."""


@dataclass(frozen=True, slots=True)
class TrucoAnswered(EventBody):
    """A call accepted or refused; ``points``: the stake accepted, or what the callers take."""

    seat: int
    team: int
    bet: Bet
    accepted: bool
    points: int
    call: Word | None = None
    """The words said when they are not a plain yes or no (con flor me achico)."""


@dataclass(frozen=True, slots=True)
class TrucoTrickEnded(EventBody):
    trick: int
    """1, 2 or 3."""
    winner: int | None
    """None: tied."""
    team: int | None
    leads: int
    """Who leads the next trick."""


@dataclass(frozen=True, slots=True)
class TrucoSignalled(EventBody):
    """A gesture; seen by the signaller's partners and the opponents who caught it."""

    seat: int
    signal: Signal


@dataclass(frozen=True, slots=True)
class TrucoRoundEnded(EventBody):
    """A round is over: the truco stake went to ``team`` for ``reason``; ``totals``: the
    round's points per team, envido and flor included."""

    round: int
    team: int | None
    points: int
    reason: Reason
    totals: tuple[int, int]


# -- truco paulista ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PaulistaHandDealt(EventBody):
    """How the hand is dealt: to the mão first, or plainly at 11, or blind at 11 each."""

    mao: int
    onze_team: int | None
    ferro: bool


@dataclass(frozen=True, slots=True)
class PaulistaDealChoice(EventBody):
    """The mão keeps, passes the cards to the partner, or rejects them (shown face up)."""

    seat: int
    choice: DealChoice
    cards: tuple[Card, ...]
    """The rejected cards; none for keep or pass."""


@dataclass(frozen=True, slots=True)
class PaulistaPartnerCards(EventBody):
    """Mão de onze: the partner's hand, shown to the other player of the team on 11 only."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PaulistaOnzeDecided(EventBody):
    """The team on 11 plays its mão de onze for 3, or runs (the other team takes 1)."""

    seat: int
    team: int
    play: bool


# -- truco argentino ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ArgentinoRoundStarted(EventBody):
    """A round between these seats, mano first: the whole table, or a pica-pica duel."""

    round: int
    seats: tuple[int, ...]
    mano: int
    duel: bool


@dataclass(frozen=True, slots=True)
class ArgentinoEnvidoAnnounced(EventBody):
    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class ArgentinoSonBuenas(EventBody):
    """The seat cannot beat what was announced (envido), or holds no flor to answer one (flor)."""

    seat: int
    bet: Bet


@dataclass(frozen=True, slots=True)
class ArgentinoEnvidoWon(EventBody):
    seat: int
    team: int
    envido: int
    points: int


@dataclass(frozen=True, slots=True)
class ArgentinoEnvidoCancelled(EventBody):
    """A flor was sung: the round's envido is off, and ``points`` it had paid are struck out."""

    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class ArgentinoFlorWon(EventBody):
    """The flor is settled: ``seat`` holds the best flor (None when a call was refused)."""

    seat: int | None
    team: int
    points: int
    flor: int | None
    alone: bool


@dataclass(frozen=True, slots=True)
class ArgentinoShown(EventBody):
    """Cards shown when the round ends: the envido winner's, or a flor that scored."""

    seat: int
    cards: tuple[Card, ...]
    reason: ShowReason


@dataclass(frozen=True, slots=True)
class ArgentinoClaimLost(EventBody):
    """Sealed: a claim's cards were shown at the hand's end and do not make the number said (``shown``), or were
    not shown: what it won (``points``) goes to the other team (docs/rules.md, "Sealed tables")."""

    seat: int
    team: int
    reason: ShowReason
    value: int
    points: int
    shown: bool


@dataclass(frozen=True, slots=True)
class ArgentinoWentToDeck(EventBody):
    """The seat leaves the round; with a call to its team awaiting an answer, that is a no quiero."""

    seat: int
    team: int
    no_quiero: bool
