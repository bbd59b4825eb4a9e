"""The records a rummy table shows, shared by every game of the family: views, events and their words.

One view (``RummyView``) serves every game; the parts only one game fills in stay empty in the
others. What a game is, as far as the family's shared code needs to know, is data the view carries
(``RummyTable``: its pack, the hand dealt, how a hand's end is scored, who may take a discard out of
turn), never a field that happens to be filled in. Each record has a message of the same name in
``proto/cardtui/v1/rummy.proto``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardtui.engine.cards import Card
from cardtui.engine.core import EventBody, GameView
from cardtui.engine.rummy.melds import GroupRule

DRAW = "draw"
DISCARD = "discard"
KNOCK = "knock"
CLAIM = "claim"
PASS = "pass"
STOCK = "stock"
PILE = "pile"


class Phase(StrEnum):
    BETTING = "betting"
    """Pif Paf: the betting round before play."""
    DRAW = "draw"
    DISCARD = "discard"
    """The player in turn has drawn: discard, or knock."""
    CLAIM = "claim"
    """A claim window on the discard just made."""
    KNOCK = "knock"
    """A claimant took the discard out of turn and now shows the knock."""
    REENTRY = "reentry"
    """Chinchón: the hand is counted, and a seat it put past the target may come back in (reenganche)."""
    OVER = "over"


class DrawSource(StrEnum):
    STOCK = STOCK
    PILE = PILE


class SeatStatus(StrEnum):
    IN = "in"
    FOLDED = "folded"
    """Pif Paf: out of this hand (estou fora)."""
    OUT = "out"
    """No chips or points left."""
    WAITING = "waiting"
    """Not dealt into this hand."""


class Scoring(StrEnum):
    """What a hand's end is played for."""

    POT = "pot"
    """Chips: whoever goes out takes the pot (Pif Paf)."""
    KNOCK = "knock"
    """Points: at a knock every other seat loses 2 (ten cards melded) or 1, never below 0; the last with points wins
    (Cacheta)."""
    DEADWOOD = "deadwood"
    """Points against: each seat adds what its cards outside melds count (``RummyTable.points``); past the target a
    seat is out, and the last one in wins (Chinchón)."""


class Claiming(StrEnum):
    """Who may take a discard out of turn."""

    COMPLETES = "completes"
    """Whoever it lets go out, at once (Pif Paf's claim)."""
    DECLARED = "declared"
    """Only a player who declared one card short beforehand (Cacheta's cut)."""
    NONE = "none"
    """Nobody: a discard is taken only by the next player's draw."""


# -- view records ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RummyTable:
    """What a game of the family is, as the family's shared code (its search, its bots, what a seat has seen)
    needs to know: each game declares it, from the table's options."""

    pack: str
    """The pack the table is dealt from (``cardtui.fair.PACKS``)."""
    hand_size: int
    """The cards each seat is dealt, and holds between turns."""
    scoring: Scoring
    claiming: Claiming
    limit: int = 0
    """The most the cards left outside melds may count when a seat goes out (Chinchón's close); 0: every card in a
    meld."""
    target: int = 0
    """Points past which a seat is out (``Scoring.DEADWOOD``); 0: none."""
    points: tuple[int, ...] = ()
    """What a card left outside melds counts, by its rank (a joker's first); empty where cards count no points."""


@dataclass(frozen=True, slots=True)
class RummyMeld:
    """A meld, and the card in it acting as wild (Cacheta), if one does: the others stand as themselves."""

    cards: tuple[Card, ...]
    wild: Card | None = None


@dataclass(frozen=True, slots=True)
class RummyMeldRules:
    """What counts as a meld at this table (Pif Paf's options; Cacheta's are fixed)."""

    group_suits: GroupRule
    ace_high: bool
    wild_acts: bool


@dataclass(frozen=True, slots=True)
class RummySeat:
    seat: int
    name: str
    score: int
    """Chips behind (Pif Paf, not counting what is in the pot) or points (Cacheta)."""
    put: int
    """Pif Paf: chips in the pot this hand."""
    status: SeatStatus
    card_count: int
    declared: bool
    """Cacheta: na boa (public)."""
    burned: bool
    """Cacheta: cut and could not knock; no more cuts this hand."""
    taken: tuple[Card, ...]
    """Every card this seat took from the discard pile this hand (drawn or claimed), in order."""
    cards: tuple[Card, ...] = ()
    """The seat's hand: only in the open view of a replay (every card face up), else empty."""
    known: tuple[Card, ...] = ()
    """The copies it is known to hold: taken from the pile and not thrown since (public, as the takes and throws
    are; a card taken and thrown back is on the pile, not here)."""
    reentries: int = 0
    """Chinchón: how many times it came back in past the target (reenganche)."""


@dataclass(frozen=True, slots=True)
class RummyWindow:
    """An open claim window: who discarded which card."""

    discarder: int
    card: Card


@dataclass(frozen=True, slots=True)
class RummyKnock:
    seat: int
    melds: tuple[RummyMeld, ...]
    discard: Card | None
    """None: all ten cards melded."""
    claimed: Card | None
    """The discard taken out of turn to knock with, if so."""


@dataclass(frozen=True, slots=True)
class RummyCount:
    """One seat's hand as a hand's end counted it (Chinchón): its melds, the cards it laid off on the closer's melds,
    the cards left outside, and the points they count (the closer's -10 for every card melded)."""

    seat: int
    melds: tuple[RummyMeld, ...]
    loose: tuple[Card, ...]
    laid_off: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class RummyResult:
    deltas: tuple[int, ...]
    """Chips (Pif Paf: they sum to zero) or points (Cacheta) won or lost per seat."""
    winner: int | None
    """None: a Chinchón hand void (the stock ran out a second time), which nobody wins."""
    knock: RummyKnock | None
    """None: Pif Paf's hand won by everyone else folding, or a Chinchón hand void."""
    eliminated: tuple[int, ...]
    """Seats this hand put out of the game (Cacheta: at 0 points; Chinchón: past the target)."""
    counts: tuple[RummyCount, ...] = ()
    """Chinchón: every seat's hand as it was counted, the closer's first."""
    chinchon: bool = False
    """Chinchón: the closer's seven cards were one run of a suit, no joker in it (the play the game is named for)."""


@dataclass(frozen=True, slots=True)
class PifPafBetting:
    """The betting round in progress: the bet to match and how high it may go."""

    level: int
    cap: int
    min_raise: int


@dataclass(frozen=True, slots=True)
class CachetaPlace:
    seat: int
    place: int
    points: int
    vp: int | None
    """Tournament scoring only: victory points by place."""
    gp: int | None
    """Tournament scoring only: game points."""


@dataclass(frozen=True, slots=True)
class RummyView(GameView):
    """What one seat (or a spectator, ``you is None``) may see of a Pif Paf or Cacheta table."""

    hand: int
    dealer: int
    you: int | None
    to_act: tuple[int, ...]
    """Whose turn it is; in a claim window every seat it is open to, whoever may claim."""
    hand_over: bool
    match_over: bool
    phase: Phase
    turn: int | None
    """Whose bet, draw, discard or knock it is (None in a claim window and between hands)."""
    rules: RummyMeldRules
    seats: tuple[RummySeat, ...]
    cards: tuple[Card, ...]
    """Your cards, in order."""
    table: RummyTable
    melds: tuple[RummyMeld, ...]
    """Your cards' best grouping into melds (a help, not a commitment)..."""
    loose: tuple[Card, ...]
    """... and the cards outside them."""
    can_knock: bool
    outs: tuple[Card, ...]
    """With nine cards: every card that would let you go out and still has a copy in play."""
    drawn: Card | None
    """The card you just drew (until you discard)."""
    stock_count: int
    pile: tuple[Card, ...]
    """The whole discard pile, first discard first: its top is the last."""
    window: RummyWindow | None
    answered: bool
    """In a claim window you may answer: whether you have."""
    result: RummyResult | None
    pot: int
    """Pif Paf: chips in the pot."""
    betting: PifPafBetting | None
    flip: Card | None
    """Cacheta: the card turned after the deal; the rank above it in its colour is wild."""
    wilds: tuple[Card, ...]
    standings: tuple[CachetaPlace, ...]
    """Cacheta: places once the game is over."""


# -- events --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RummyDealt(EventBody):
    """``count`` cards to each of these seats (each sees its own in a ``CardsDealt``)."""

    seats: tuple[int, ...]
    count: int


@dataclass(frozen=True, slots=True)
class RummyDrew(EventBody):
    """A draw, to everyone: the card is named when it came from the pile."""

    seat: int
    source: DrawSource
    card: Card | None


@dataclass(frozen=True, slots=True)
class RummyDrawnCard(EventBody):
    """The card drawn from the stock, to the drawer only."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class RummyStockRebuilt(EventBody):
    """The pile less its top card turned over, unshuffled, to make a new stock."""

    stock: int


@dataclass(frozen=True, slots=True)
class RummyDiscarded(EventBody):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class RummyWindowOpened(EventBody):
    """A claim window on the discard, open to everyone (it reveals nothing about who may claim)."""

    discarder: int
    card: Card


@dataclass(frozen=True, slots=True)
class RummyWindowClosed(EventBody):
    """The window is over: ``taken_by`` took the card out of turn, or nobody (unset) did."""

    card: Card
    taken_by: int | None


@dataclass(frozen=True, slots=True)
class RummyKnocked(EventBody):
    seat: int
    melds: tuple[RummyMeld, ...]
    discard: Card | None
    claimed: Card | None
