"""Why a decision was flagged, in facts the seat knew: a typed reason per game family.

The analysis (``engine.analysis``) says how much a choice lost; a player also asks *why*. A reason is
worked out here from the deciding seat's own view at the decision (its cards and what was public,
never the deal revealed later), so that it says only what the player could have seen, and is typed
(numbers and cards, no sentences): the client says it in the reader's language (docs/client.md §11).
Every count of unseen or live cards is ``engine.seen``'s, the one count of what a seat has seen that
the search and the bots deal by; every fact is held to a recount from the hand's history alone
(``tests/engine/test_advice_facts.py``).

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

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cache
from itertools import combinations
from typing import Any

from cardtui.engine.betting import BET as RAISE_FIRST
from cardtui.engine.betting import CALL, CHECK, FOLD, RAISE
from cardtui.engine.bots.pifpaf import rules_of
from cardtui.engine.cacho import BET as CACHO_BET
from cardtui.engine.cacho import DECK as CACHO_DECK
from cardtui.engine.cacho import PASS as CACHO_PASS
from cardtui.engine.cacho import strength
from cardtui.engine.cacho_records import CachoView
from cardtui.engine.cacho_records import SeatStatus as CachoStatus
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, GameView
from cardtui.engine.melds import CARDS, Melder, melder
from cardtui.engine.rummy_records import CLAIM, DISCARD, DRAW, KNOCK, PILE, Phase, RummyView
from cardtui.engine.rummy_records import PASS as RUMMY_PASS
from cardtui.engine.rummy_records import SeatStatus as RummyStatus
from cardtui.engine.seen import unseen
from cardtui.engine.truco.argentino.rules import RANK as ARG_RANK
from cardtui.engine.truco.envido import envido
from cardtui.engine.truco.ladder import Bet, Word
from cardtui.engine.truco.paulista.rules import RANK as PAU_RANK
from cardtui.engine.truco.tricks import DOWN, TieRule, hand_winner, trick_winner
from cardtui.engine.truco.views import PaulistaPhase, TrucoView


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


ENVIDO_WORDS = frozenset({Word.ENVIDO, Word.REAL_ENVIDO, Word.FALTA_ENVIDO})
CALLER_HOLDS: Mapping[str, int] = {Word.ENVIDO: 27, Word.REAL_ENVIDO: 30, Word.FALTA_ENVIDO: 31}
"""The envido a player who calls (or raises to) each call usually holds at least: the common advice of the
table (call envido from 27, real envido from 30), which the bots follow too (``bots.truco``). A convention,
not a read of the caller's cards: the words say "usually"."""
CARD_PLAYS = frozenset({"play", "play_down"})


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
    is worked out (a flor, a signal, a Cacheta cut, na boa declared)."""
    if isinstance(view, TrucoView):
        return _truco(view, chosen, best)
    if isinstance(view, RummyView):
        return _rummy(view, legal, chosen, best)
    if isinstance(view, CachoView):
        return _cacho(view, legal)
    return None


# -- truco ---------------------------------------------------------------------------------------------
def _truco(view: TrucoView, chosen: Action, best: Action) -> Reason | None:
    types = {chosen.type, best.type}
    pending = view.pending
    answering_envido = pending is not None and pending.bet is Bet.ENVIDO
    if types & ENVIDO_WORDS or answering_envido:
        return _envido(view, pending.call if answering_envido and pending is not None else None)
    if any("flor" in t for t in types) or (pending is not None and pending.bet is Bet.FLOR):
        return None
    return _strength(view, chosen, best)


def _score(view: TrucoView) -> tuple[int, int]:
    team = (view.you or 0) & 1
    return view.scores[team], view.scores[1 - team]


def _envido(view: TrucoView, call: Word | None) -> EnvidoReason | None:
    part = view.argentino
    if part is None or part.your_envido is None:
        return None
    mine = part.your_envido
    left = sorted(unseen(view).elements(), key=str)
    theirs = [envido(h, part.envido_unsuited)[0] for h in combinations(left, 3)]
    floor = CALLER_HOLDS.get(call, 0) if call is not None else 0
    strong = [e for e in theirs if e >= floor] if floor else []
    us, them = _score(view)
    return EnvidoReason(mine, _beats(mine, theirs), str(call) if call is not None else "", floor,
                        _beats(mine, strong) if strong else -1.0, us, them, view.target)


def _beats(mine: int, theirs: Sequence[int]) -> float:
    if not theirs:
        return -1.0
    return sum(1.0 if mine > e else 0.5 if mine == e else 0.0 for e in theirs) / len(theirs)


def _strength(view: TrucoView, chosen: Action, best: Action) -> TrucoReason:
    paulista = view.paulista
    rank = PAU_RANK if paulista is not None else ARG_RANK
    left = list(unseen(view).elements())
    you = view.you or 0
    mine = list(view.cards)
    if paulista is not None and paulista.onze_team is not None:
        mine += view.seats[(you + 2) % len(view.seats)].cards  # a mão de onze is played on both hands
    shares = sorted((sum(1 for u in left if rank[c] > rank[u]) / max(1, len(left)) for c in mine), reverse=True)
    team = you & 1
    results = [t.team for t in view.tricks]
    won = sum(1 for r in results if r == team)
    lost = sum(1 for r in results if r is not None and r != team)
    out = TrucoReason(shares[0] if shares else -1.0, shares[1] if len(shares) > 1 else -1.0, won, lost)
    playing = not view.hand_over and (paulista is None or paulista.phase is PaulistaPhase.PLAY)
    if not playing:
        return out
    plays = [(p.seat, DOWN if p.card is None or p.face_down or p.void else rank[p.card]) for p in view.trick]
    winner, first = trick_winner(plays)
    high = next((p.card for p in view.trick if p.seat == first), None) if first is not None else None

    def side(team_of: int | None) -> Side:
        return Side.NEITHER if team_of is None else Side.YOURS if team_of == team else Side.THEIRS

    played = {p.seat for p in view.trick}
    players = view.argentino.players if view.argentino is not None else tuple(range(len(view.seats)))
    theirs = [s for s in players if s & 1 != team and s not in played and view.seats[s].card_count > 0
              and not view.seats[s].gone]

    def sure(card: Card) -> bool:
        """No card the other side may still play to the trick beats (or ties) ``card``."""
        return not theirs or all(rank[u] < rank[card] for u in left)

    def does(card: Card, down: bool) -> Outcome:
        if down:
            return Outcome.DOWN
        if not view.trick:
            return Outcome.SURE if sure(card) else Outcome.LEADS
        w, f = trick_winner([*plays, (you, rank[card])])
        if w is None:
            return Outcome.TIES if f is not None else Outcome.LOSES
        if w == you:
            return Outcome.SURE if sure(card) else Outcome.TAKES
        return Outcome.KEPT if w & 1 == team else Outcome.LOSES

    if chosen.type in CARD_PLAYS:
        card: Card | None = chosen.cards[0]
    else:
        card = max(view.cards, key=lambda c: rank[c]) if view.cards else None
    other = best.cards[0] if best.type in CARD_PLAYS and best.cards and best.cards[0] != card else None
    mano, rule = (paulista.mao, TieRule.FIRST_DECIDED) if paulista is not None else (
        (view.argentino.mano, view.argentino.ties) if view.argentino is not None else (0, TieRule.FIRST_DECIDED))
    deciding = paulista is not None and paulista.trick_decides
    return TrucoReason(
        out.first, out.second, won, lost, len(view.tricks) + 1,
        tuple(p.card for p in view.trick if p.card is not None and not p.face_down),
        high, None if first is None else side(None if winner is None else winner & 1),
        card, does(card, chosen.type == "play_down") if card is not None and not (
            chosen.type not in CARD_PLAYS and any(p.seat == you for p in view.trick)) else None,
        other, does(other, best.type == "play_down") if other is not None else None,
        side(hand_winner([*results, None], mano & 1, rule)),
        deciding or hand_winner([*results, team], mano & 1, rule) == team)


# -- Pif Paf and Cacheta -------------------------------------------------------------------------------
def live(view: RummyView) -> Counter[Card]:
    """Each kind of card's copies the seat had not seen (``engine.seen``): not in its hand, the discard pile or
    the turned card, nor known to be in another seat's hand (taken from the pile and not thrown since)."""
    return unseen(view)


def loose(m: Melder, hand: Sequence[Card]) -> int:
    """The fewest cards ``hand`` leaves outside melds."""
    return len(m.arrange(hand)[1])


def helping(m: Melder, hand: Sequence[Card], left: Counter[Card]) -> int:
    """Live copies of the cards that would bring ``hand`` (nine cards) no further from going out: a card with
    which the ten leave no more cards outside melds than the nine do (the card joins a meld, or takes a loose
    one's place, which is then thrown)."""
    now = loose(m, hand)
    return sum(left[c] for c in CARDS if left[c] and loose(m, [*hand, c]) <= now)


def fewest(m: Melder, hand: Sequence[Card]) -> int:
    """Ten cards less the discard that leaves fewest outside melds: how many it leaves."""
    return min(loose(m, _without(hand, c)) for c in set(hand))


def _rummy(view: RummyView, legal: Sequence[Action], chosen: Action, best: Action) -> Reason | None:
    m = melder(rules_of(view), view.wilds)
    left = live(view)
    count = sum(left.values())
    hand = list(view.cards)
    types = {chosen.type, best.type}
    if view.phase is Phase.BETTING:
        return _pot(view.pot, legal, -1.0, sum(1 for s in view.seats if s.status is RummyStatus.IN) - 1)
    if types & {DRAW, CLAIM, RUMMY_PASS}:
        card = (view.window.card if view.window is not None and CLAIM in types
                else view.pile[-1] if view.pile and any(a.type == DRAW and a.value == PILE for a in legal) else None)
        taking = fewest(m, [*hand, card]) if card is not None else -1
        out = card is not None and m.goes_out([*hand, card])
        ten = card is not None and m.all_melded([*hand, card])
        return DrawReason(card, loose(m, hand), taking, out, ten, helping(m, hand, left), count)
    if KNOCK in types:
        knocks = [a for a in legal if a.type == KNOCK]
        if not knocks:
            return None
        melded = 10 if any(not a.cards for a in knocks) else 9
        thrown = next((a.cards[0] for a in (chosen, best) if a.type == DISCARD and a.cards), None)
        outs = tens = -1
        cacheta = view.flip is not None
        if thrown is not None:
            kept = _without(hand, thrown)
            outs = sum(left[c] for c in CARDS if left[c] and m.goes_out([*kept, c]))
            if cacheta:
                tens = sum(left[c] for c in CARDS if left[c] and m.all_melded([*kept, c]))
        others = [s.score for s in view.seats if s.seat != view.you and s.status is RummyStatus.IN and s.score > 0]
        lowest = min(others) if cacheta and others else -1
        return KnockReason(melded, outs, count, view.stock_count, thrown, tens, lowest)
    if chosen.type == DISCARD and best.type == DISCARD and chosen.cards and best.cards:
        a, b = chosen.cards[0], best.cards[0]
        kept_a, kept_b = _without(hand, a), _without(hand, b)
        return DiscardReason(a, loose(m, kept_a), helping(m, kept_a, left), b, loose(m, kept_b),
                             helping(m, kept_b, left), count)
    return None


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


# -- betting -------------------------------------------------------------------------------------------
def _pot(pot: int, legal: Sequence[Action], chance: float, opponents: int) -> BetReason:
    kinds = {a.type: a for a in legal}
    if CHECK in kinds:
        call = 0
    elif CALL in kinds:
        call = kinds[CALL].amount
    else:  # Cacho's first rounds: to stay in is to bet
        bets = [a.amount for a in legal if a.type in (CACHO_BET, RAISE_FIRST, RAISE)]
        call = min(bets) if bets else 0
    needed = call / (pot + call) if pot + call > 0 else 0.0
    every = chance ** max(1, opponents) if chance >= 0 else -1.0
    return BetReason(pot, call, needed, chance, opponents, every)


def _cacho(view: CachoView, legal: Sequence[Action]) -> BetReason | None:
    if view.you is None or not any(a.type in (CACHO_BET, CACHO_PASS, FOLD, CALL, CHECK) for a in legal):
        return None
    me = view.seats[view.you]
    opponents = sum(1 for s in view.seats if s.status is CachoStatus.IN and s.seat != me.seat)
    chance = heads_up(tuple(sorted(me.cards, key=str))) if me.cards else -1.0
    return _pot(view.pot, legal, chance, opponents)


@cache
def _against(cards: tuple[Card, ...]) -> float:
    """Three cards against every hand of three dealt from the rest of the deck: how often they win, a tie half."""
    mine = strength(cards)
    hands = list(combinations([c for c in CACHO_DECK if c not in cards], 3))
    return sum(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
               for theirs in map(strength, hands)) / len(hands)


@cache
def heads_up(cards: tuple[Card, ...]) -> float:
    """How often these Cacho cards, completed to three from the rest of the deck, beat a hand of three dealt from
    what is left, a tie counted half: worked out over every completion and every hand, not sampled."""
    if len(cards) >= 3:
        return _against(tuple(sorted(cards, key=str)))
    rest = [c for c in CACHO_DECK if c not in cards]
    completions = list(combinations(rest, 3 - len(cards)))
    return sum(_against(tuple(sorted((*cards, *more), key=str))) for more in completions) / len(completions)


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
