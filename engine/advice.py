"""Why a decision was flagged, in facts the seat knew: a typed reason per game family.

The analysis (``engine.analysis``) says how much a choice lost; a player also asks *why*. A reason is
worked out here from the deciding seat's own view at the decision (its cards and what was public,
never the deal revealed later), so that it says only what the player could have seen, and is typed
(numbers and cards, no sentences): the client says it in the reader's language (docs/client.md §11).
Every count of unseen or live cards is ``engine.seen``'s, the one count of what a seat has seen that
the search and the bots deal by; every fact is held to a recount from the hand's history alone
(``tests/engine/test_advice_facts.py``). The reasons' records are here; each family works out its own
(``engine/<family>/advice.py``, asked through ``engine.family``).

Which kind a decision's reason is follows the decision at stake, the choice made or the best one: an envido
call or answer on either side (or a call of envido awaiting its answer) is told as envido; else a truco
decision as truco; a rummy draw, claim or pass as a draw, a knock made or left as a knock, a discard as a
discard; a bet as a bet.

- truco, an envido call or its answer: the seat's envido (the table's own rule for an unsuited hand), how
  often it beats a hand dealt from the cards it had not seen, and, facing a call, how often it beats what a
  caller of that call usually holds (``CALLER_HOLDS``, a convention of play, said as such); the score;
- truco, any other decision (a truco call or its answer, a card, the deck): how many of the cards still
  unseen the seat's best and second cards beat, the tricks won and lost so far, and the trick in play: the
  cards on the table and who holds it, what the card played (or for a call, the seat's best card) does to it,
  what the best choice's card would have done, and what the trick decides (a tie goes to trick 1's winner);
- Pif Paf and Cacheta, a draw or a claim: the cards outside melds now and with the pile's card taken
  (the discard that leaves fewest made), and the live cards (copies not seen anywhere) that would help the hand;
- a discard: for the card thrown and the best one, the cards left outside melds and the live cards
  that would help what is kept;
- a knock, made or left: the cards a knock melds now, and, playing on with the discard the decision named,
  the live cards that would go out later (in Cacheta, those that would meld all ten, a knock worth twice one of
  nine, and the fewest points another player holds: why waiting may pay);
- a bet (Cacho, Pif Paf's betting round): the pot against the call, the share of the pot the call
  must win to pay (pot odds), how often the hand beats one hand dealt from the cards unseen, and about how often
  it beats every player still in (the chance the pot odds are weighed against).

Pure: no clock, no global random.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from cardtui.engine import family
from cardtui.engine.betting import BET as RAISE_FIRST
from cardtui.engine.betting import CALL, CHECK, RAISE
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, GameView


class Kind(StrEnum):
    """Which reason a decision carries (its JSON's ``kind``)."""

    ENVIDO = "envido"
    TRUCO = "truco"
    DRAW = "draw"
    DISCARD = "discard"
    KNOCK = "knock"
    BET = "bet"


class Side(StrEnum):
    """A side of a truco table, as the deciding seat sees it."""

    YOURS = "yours"
    THEIRS = "theirs"
    NEITHER = "neither"
    """A trick tied between the sides; a tie that decides nothing yet."""


class Outcome(StrEnum):
    """What a card does to the trick in play, as the table stands when it is played."""

    LEADS = "leads"
    """Nothing is on the table yet."""
    TAKES = "takes"
    """Above every card on the table: it holds the trick."""
    KEPT = "kept"
    """Not above a partner's card, which still holds the trick."""
    TIES = "ties"
    """The trick stands tied between the sides with it."""
    LOSES = "loses"
    """The other side's card still holds the trick."""
    SURE = "sure"
    """It leads or holds the trick, and nothing the other side may still play to it beats it: no one of that side is
    left to play, or no card the seat has not seen is as high."""
    DOWN = "down"
    """Played face down: it cannot win."""




@dataclass(frozen=True, slots=True)
class EnvidoReason:
    """An envido call, raise or answer."""

    envido: int
    """The seat's envido."""
    beats: float
    """0 to 1: how often it beats one hand dealt from the cards the seat had not seen (a tie counts half), each
    counted by the table's own rule for an unsuited hand."""
    call: str
    """The call being answered (``Word``), or "" when the seat was not answering one."""
    caller: int
    """The envido a caller of ``call`` usually holds at least (``CALLER_HOLDS``; 0 without a call)."""
    beats_caller: float
    """0 to 1: how often the seat's envido beats such a hand (-1 without a call)."""
    mine: int
    theirs: int
    target: int
    """The score (the seat's team first) and the match's target."""

    kind = Kind.ENVIDO


@dataclass(frozen=True, slots=True)
class TrucoReason:
    """A truco call or answer, a card played, the deck: the seat's cards against the cards still unseen, and
    against the cards on the table in the trick in play."""

    first: float
    """0 to 1: the share of the cards the seat had not seen that its best card beats."""
    second: float
    """The same of its second best card (-1 with one card left)."""
    won: int
    lost: int
    """Tricks its team had won and lost so far this round."""
    trick: int = 0
    """The trick in play, 1 to 3 (0: none yet, the deal or a mão de onze's choice)."""
    table: tuple[Card, ...] = ()
    """The cards face up on the table in that trick, in the order played."""
    high: Card | None = None
    """The highest of them that can win the trick (the first played of equals)."""
    high_side: Side | None = None
    """Which side holds the trick as it stands (NEITHER: tied between the sides; None: no card can win yet)."""
    card: Card | None = None
    """The card the decision played; for a call, an answer or the deck, the seat's best card."""
    card_does: Outcome | None = None
    """What ``card`` does to the trick as it stands; None where the decision is not a card and the seat has already
    played to that trick (its best card cannot be played to it)."""
    best_card: Card | None = None
    """The card the best choice played, where it is another card."""
    best_does: Outcome | None = None
    tie_goes: Side | None = None
    """Whom a tie of this trick gives the hand (NEITHER: nobody yet, the next trick decides)."""
    decides: bool = False
    """Taking this trick takes the hand for the seat's side."""

    kind = Kind.TRUCO


@dataclass(frozen=True, slots=True)
class DrawReason:
    """A draw from the stock or the pile (or a claim of a discard)."""

    card: Card | None
    """The card that could be taken: the pile's top, or the discard a claim takes."""
    loose: int
    """Cards outside melds in the hand now."""
    taking: int
    """Cards outside melds with ``card`` taken and the discard made that leaves fewest (-1: no card to take)."""
    goes_out: bool
    """Taking ``card`` lets the hand go out now..."""
    all_ten: bool
    """... with all ten cards melded (Cacheta pays that double)."""
    outs: int
    """Live cards (copies the seat had not seen) that would help the hand now, ``helping``: a stock draw's chances..."""
    unseen: int
    """... out of these."""
    closes: bool = False
    """Chinchón: the hand goes out by a close (cortar) that keeps seven cards, and ``all_ten`` is all eight
    melded, so that the seven kept are too."""

    kind = Kind.DRAW


@dataclass(frozen=True, slots=True)
class DiscardReason:
    """A discard, beside the best one."""

    chosen: Card
    chosen_loose: int
    """Cards outside melds in what the discard kept."""
    chosen_outs: int
    """Live cards that would help what it kept (``helping``)."""
    best: Card
    best_loose: int
    best_outs: int
    unseen: int

    kind = Kind.DISCARD


@dataclass(frozen=True, slots=True)
class KnockReason:
    """A knock made, or one left for a discard."""

    melded: int
    """Cards the best knock melds (ten, or nine and a discard)."""
    outs: int
    """Playing on with ``discard``: the live cards that would take the nine kept out (-1: no choice played on)..."""
    unseen: int
    stock: int
    """... and the cards left in the stock."""
    discard: Card | None = None
    """The discard that plays on: the one chosen, or else the best choice's."""
    tens: int = -1
    """Cacheta, playing on with ``discard``: the live cards with which the nine kept would meld all ten, a knock that
    takes 2 points from every other player where a knock of nine takes 1 (-1: Pif Paf, or no choice played on)."""
    fewest: int = -1
    """Cacheta: the fewest points another player still in holds (-1: Pif Paf)."""
    closes: bool = False
    """Chinchón: a close (cortar), which keeps seven cards of the eight, not a knock: ``melded`` counts of those
    seven, and ``outs`` the live cards that would let the seven kept close."""

    kind = Kind.KNOCK


@dataclass(frozen=True, slots=True)
class BetReason:
    """A bet, call, check, pass or fold: the pot against the call."""

    pot: int
    """Chips in the pot before the decision."""
    call: int
    """Chips the seat must put in to stay in (0: staying in is free)."""
    needed: float
    """The pot odds: the share of the pot the call must win to pay, call / (pot + call)."""
    chance: float
    """0 to 1: how often the seat's hand beats one hand dealt at random from the cards it had not seen, a tie
    counted half (before its third card, its own hand completed at random too); -1: not worked out."""
    opponents: int
    chance_all: float = -1.0
    """About how often it beats every player still in: ``chance`` to the power of ``opponents`` (-1: not worked out).
    What the pot odds are weighed against: a call pays against all of them, not one."""

    kind = Kind.BET


Reason = EnvidoReason | TrucoReason | DrawReason | DiscardReason | KnockReason | BetReason


def reason(view: GameView, legal: Sequence[Action], chosen: Action, best: Action) -> Reason | None:
    """Why ``chosen`` stands where it does beside ``best``, from the seat's ``view`` alone; None where no reason
    is worked out (a flor, a signal, a Cacheta cut, na boa declared). Each family works out its own
    (``engine.family.Family.reason``: ``engine/<family>/advice.py``)."""
    return family.of(view).reason(view, legal, chosen, best)


# -- betting -------------------------------------------------------------------------------------------
def pot_reason(pot: int, legal: Sequence[Action], chance: float, opponents: int, stay: frozenset[str] = frozenset()
               ) -> BetReason:
    """A bet's reason: the pot against what staying in costs (a check: nothing; a call: its amount; else the least
    of the bets in ``stay``, the kinds of action that keep a seat in where there is no call, as Cacho's first
    rounds'), the pot odds that follow, the chance given and the opponents still in."""
    kinds = {a.type: a for a in legal}
    if CHECK in kinds:
        call = 0
    elif CALL in kinds:
        call = kinds[CALL].amount
    else:  # Cacho's first rounds: to stay in is to bet
        bets = [a.amount for a in legal if a.type in stay | {RAISE_FIRST, RAISE}]
        call = min(bets) if bets else 0
    needed = call / (pot + call) if pot + call > 0 else 0.0
    every = chance ** max(1, opponents) if chance >= 0 else -1.0
    return BetReason(pot, call, needed, chance, opponents, every)


# -- as JSON -------------------------------------------------------------------------------------------
def to_json(r: Reason) -> dict[str, Any]:
    """A reason as the analysis's JSON keeps it (docs/history.md §9): its ``kind`` and its fields (cards named,
    a list of cards as a list; None as null)."""
    out: dict[str, Any] = {"kind": str(r.kind)}
    for f in fields(r):
        value = getattr(r, f.name)
        if isinstance(value, Card):
            value = str(value)
        elif isinstance(value, tuple):
            value = [str(c) for c in value]
        elif isinstance(value, StrEnum):
            value = str(value)
        out[f.name] = value
    return out


KINDS: Mapping[str, type[Reason]] = {
    Kind.ENVIDO: EnvidoReason, Kind.TRUCO: TrucoReason, Kind.DRAW: DrawReason, Kind.DISCARD: DiscardReason,
    Kind.KNOCK: KnockReason, Kind.BET: BetReason}
CARD_FIELDS = frozenset({"card", "chosen", "best", "high", "best_card", "discard"})
CARDS_FIELDS = frozenset({"table"})
ENUM_FIELDS: Mapping[str, type[StrEnum]] = {"high_side": Side, "tie_goes": Side, "card_does": Outcome,
                                            "best_does": Outcome}


def from_json(data: Mapping[str, Any] | None) -> Reason | None:
    """A reason read back (``to_json``); None for none, or for a kind this version does not know. A field a
    reason kept before it had it takes its default."""
    if not data or data.get("kind") not in KINDS:
        return None
    cls = KINDS[str(data["kind"])]
    values: dict[str, Any] = {}
    try:
        for f in fields(cls):
            if f.name not in data:
                continue
            value = data[f.name]
            if f.name in CARD_FIELDS:
                value = parse_cards([value])[0] if value else None
            elif f.name in CARDS_FIELDS:
                value = parse_cards(value or [])
            elif f.name in ENUM_FIELDS:
                value = ENUM_FIELDS[f.name](value) if value else None
            values[f.name] = value
        return cls(**values)
    except (TypeError, ValueError):
        return None


def cards_of(r: Reason) -> Iterable[Card]:
    """The cards a reason names (for a reader that shows them)."""
    out: list[Card] = []
    for f in fields(r):
        value = getattr(r, f.name)
        if f.name in CARD_FIELDS and value is not None:
            out.append(value)
        elif f.name in CARDS_FIELDS:
            out += value
    return out
