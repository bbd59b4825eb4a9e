"""Why a decision was flagged, in facts the seat knew: a typed reason per game family.

The analysis (``engine.analysis``) says how much a choice lost; a player also asks *why*. A reason is
worked out here from the deciding seat's own view at the decision (its cards and what was public,
never the deal revealed later), so that it says only what the player could have seen, and is typed
(numbers and cards, no sentences): the client says it in the reader's language (docs/client.md §11).

- truco, an envido call or its answer: the seat's envido, how often it beats a hand dealt from the
  cards it had not seen, and, facing a call, how often it beats what a caller of that call usually
  holds (``CALLER_HOLDS``, a convention of play, said as such); the score;
- truco, any other decision (a truco call or its answer, a card, the deck): how many of the cards
  still unseen the seat's best and second cards beat, and the tricks won and lost so far;
- Pif Paf and Cacheta, a draw or a claim: the cards outside melds now and with the pile's card taken
  (the best discard made), and the live cards (copies not seen anywhere) that would help the hand;
- a discard: for the card thrown and the best one, the cards left outside melds and the live cards
  that would help what is kept;
- a knock, made or left: the cards a knock melds now, and the live cards that would go out later;
- a bet (Cacho, Pif Paf's betting round): the pot against the call, the share of the pot the call
  must win to pay (pot odds) and the hand's chance of taking it against the seats still in.

Pure: no clock, no global random; the Cacho chance is the bots' own fixed-sample estimate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from itertools import combinations
from typing import Any

from cardtui.engine.betting import BET as RAISE_FIRST
from cardtui.engine.betting import CALL, CHECK, FOLD, RAISE
from cardtui.engine.bots.cacho import heads_up
from cardtui.engine.bots.pifpaf import best_discard, rules_of
from cardtui.engine.cacho import BET as CACHO_BET
from cardtui.engine.cacho import PASS as CACHO_PASS
from cardtui.engine.cacho_records import CachoView
from cardtui.engine.cacho_records import SeatStatus as CachoStatus
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, GameView
from cardtui.engine.melds import CARDS, Melder, melder
from cardtui.engine.rummy import DECK as RUMMY_DECK
from cardtui.engine.rummy_records import CLAIM, DISCARD, DRAW, KNOCK, PILE, Phase, RummyView
from cardtui.engine.rummy_records import PASS as RUMMY_PASS
from cardtui.engine.rummy_records import SeatStatus as RummyStatus
from cardtui.engine.truco.argentino.rules import DECK as ARG_DECK
from cardtui.engine.truco.argentino.rules import RANK as ARG_RANK
from cardtui.engine.truco.envido import Unsuited, envido
from cardtui.engine.truco.ladder import Bet, Word
from cardtui.engine.truco.paulista.rules import DECK as PAU_DECK
from cardtui.engine.truco.paulista.rules import RANK as PAU_RANK
from cardtui.engine.truco.views import TrucoView


class Kind(StrEnum):
    """Which reason a decision carries (its JSON's ``kind``)."""

    ENVIDO = "envido"
    TRUCO = "truco"
    DRAW = "draw"
    DISCARD = "discard"
    KNOCK = "knock"
    BET = "bet"


ENVIDO_WORDS = frozenset({Word.ENVIDO, Word.REAL_ENVIDO, Word.FALTA_ENVIDO})
CALLER_HOLDS: Mapping[str, int] = {Word.ENVIDO: 27, Word.REAL_ENVIDO: 30, Word.FALTA_ENVIDO: 31}
"""The envido a player who calls (or raises to) each call usually holds at least: the common advice of the
table (call envido from 27, real envido from 30), which the bots follow too (``bots.truco``). A convention,
not a read of the caller's cards: the words say "usually"."""


@dataclass(frozen=True, slots=True)
class EnvidoReason:
    """An envido call, raise or answer."""

    envido: int
    """The seat's envido."""
    beats: float
    """0 to 1: how often it beats one hand dealt from the cards the seat had not seen (a tie counts half)."""
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
    """A truco call or answer, a card played, the deck: the seat's cards against the cards still unseen."""

    first: float
    """0 to 1: the share of the cards the seat had not seen that its best card beats."""
    second: float
    """The same of its second best card (-1 with one card left)."""
    won: int
    lost: int
    """Tricks its team had won and lost so far this round."""

    kind = Kind.TRUCO


@dataclass(frozen=True, slots=True)
class DrawReason:
    """A draw from the stock or the pile (or a claim of a discard)."""

    card: Card | None
    """The card that could be taken: the pile's top, or the discard a claim takes."""
    loose: int
    """Cards outside melds in the hand now."""
    taking: int
    """Cards outside melds with ``card`` taken and the best discard made (-1: no card to take)."""
    goes_out: bool
    """Taking ``card`` lets the hand go out now..."""
    all_ten: bool
    """... with all ten cards melded (Cacheta pays that double)."""
    outs: int
    """Live cards (copies the seat had not seen) that would help the hand now: a stock draw's chances..."""
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
    """Live cards that would help what it kept."""
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
    """Playing on (the best discard made): the live cards that would go out..."""
    unseen: int
    stock: int
    """... and the cards left in the stock."""

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
    """0 to 1: the seat's chance of taking the pot against the seats still in (-1: not estimated)."""
    opponents: int

    kind = Kind.BET


Reason = EnvidoReason | TrucoReason | DrawReason | DiscardReason | KnockReason | BetReason


def reason(view: GameView, legal: Sequence[Action], chosen: Action, best: Action) -> Reason | None:
    """Why ``chosen`` stands where it does beside ``best``, from the seat's ``view`` alone; None where no reason
    is worked out (a flor, a signal, a Cacheta cut)."""
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
    return _strength(view)


def _seen_truco(view: TrucoView) -> set[Card]:
    """Every card the seat had seen: its own, the ones played face up, shown, rejected or a partner's."""
    seen = set(view.cards)
    for trick in (*(t.plays for t in view.tricks), view.trick):
        seen.update(p.card for p in trick if p.card is not None)
    for s in view.seats:
        seen.update(s.cards)
    if view.paulista is not None:
        seen.update(view.paulista.rejected)
    if view.argentino is not None:
        for shown in view.argentino.shown:
            seen.update(shown.cards)
    return seen


def _score(view: TrucoView) -> tuple[int, int]:
    team = (view.you or 0) & 1
    return view.scores[team], view.scores[1 - team]


def _envido(view: TrucoView, call: Word | None) -> EnvidoReason | None:
    part = view.argentino
    if part is None or part.your_envido is None:
        return None
    mine = part.your_envido
    rule = Unsuited.SUM_TWO
    if len(view.cards) == 3 and envido(view.cards)[0] != mine:
        rule = Unsuited.HIGHEST  # the table plays the other unsuited rule: the seat's own envido says which
    unseen = [c for c in ARG_DECK if c not in _seen_truco(view)]
    theirs = [envido(h, rule)[0] for h in combinations(unseen, 3)]
    floor = CALLER_HOLDS.get(call, 0) if call is not None else 0
    strong = [e for e in theirs if e >= floor] if floor else []
    us, them = _score(view)
    return EnvidoReason(mine, _beats(mine, theirs), str(call) if call is not None else "", floor,
                        _beats(mine, strong) if strong else -1.0, us, them, view.target)


def _beats(mine: int, theirs: Sequence[int]) -> float:
    if not theirs:
        return -1.0
    return sum(1.0 if mine > e else 0.5 if mine == e else 0.0 for e in theirs) / len(theirs)


def _strength(view: TrucoView) -> TrucoReason:
    rank = ARG_RANK if view.argentino is not None else PAU_RANK
    deck = ARG_DECK if view.argentino is not None else PAU_DECK
    seen = _seen_truco(view)
    unseen = [c for c in deck if c not in seen]
    mine = list(view.cards)
    if view.paulista is not None and view.paulista.onze_team is not None and view.you is not None:
        mine += view.seats[(view.you + 2) % len(view.seats)].cards  # a mão de onze is played on both hands
    shares = sorted((sum(1 for u in unseen if rank[c] > rank[u]) / max(1, len(unseen)) for c in mine),
                    reverse=True)
    team = (view.you or 0) & 1
    won = sum(1 for t in view.tricks if t.team == team)
    lost = sum(1 for t in view.tricks if t.team is not None and t.team != team)
    return TrucoReason(shares[0] if shares else -1.0, shares[1] if len(shares) > 1 else -1.0, won, lost)


# -- Pif Paf and Cacheta -------------------------------------------------------------------------------
def live(view: RummyView) -> Counter[Card]:
    """Each kind of card's copies the seat had not seen: not in its hand, the discard pile or the turned card,
    nor taken from the pile by another seat (a card taken is public; one the seat took itself is in its hand or
    back on the pile). A card taken and thrown back may be counted twice: never more than its copies."""
    seen = Counter(view.cards) + Counter(view.pile) + Counter(
        c for s in view.seats if s.seat != view.you for c in s.taken)
    if view.flip is not None:
        seen[view.flip] += 1
    return Counter({c: n - seen[c] for c, n in Counter(RUMMY_DECK).items() if n > seen[c]})


def _loose(m: Melder, hand: Sequence[Card]) -> int:
    return len(m.arrange(hand)[1])


def helping(m: Melder, hand: Sequence[Card], left: Counter[Card]) -> int:
    """Live copies of the cards that would bring ``hand`` (nine cards) closer to going out: a card that would
    leave no more cards outside melds with one more card, a loose one then thrown."""
    now = _loose(m, hand)
    return sum(left[c] for c in CARDS if left[c] and _loose(m, [*hand, c]) <= now)


def _rummy(view: RummyView, legal: Sequence[Action], chosen: Action, best: Action) -> Reason | None:
    m = melder(rules_of(view), view.wilds)
    left = live(view)
    unseen = sum(left.values())
    hand = list(view.cards)
    types = {chosen.type, best.type}
    if view.phase is Phase.BETTING:
        return _pot(view.pot, legal, -1.0, sum(1 for s in view.seats if s.status is RummyStatus.IN) - 1)
    if types & {DRAW, CLAIM, RUMMY_PASS}:
        card = (view.window.card if view.window is not None and CLAIM in types
                else view.pile[-1] if view.pile and any(a.type == DRAW and a.value == PILE for a in legal) else None)
        taking = _loose(m, _kept(m, [*hand, card])) if card is not None else -1
        out = card is not None and m.goes_out([*hand, card])
        ten = card is not None and m.all_melded([*hand, card])
        return DrawReason(card, _loose(m, hand), taking, out, ten, helping(m, hand, left), unseen)
    if KNOCK in types:
        knocks = [a for a in legal if a.type == KNOCK]
        if not knocks:
            return None
        melded = 10 if any(not a.cards for a in knocks) else 9
        kept = _kept(m, hand)
        outs = sum(left[c] for c in m.completing(kept))
        return KnockReason(melded, outs, unseen, view.stock_count)
    if chosen.type == DISCARD and best.type == DISCARD and chosen.cards and best.cards:
        a, b = chosen.cards[0], best.cards[0]
        kept_a, kept_b = _without(hand, a), _without(hand, b)
        return DiscardReason(a, _loose(m, kept_a), helping(m, kept_a, left), b, _loose(m, kept_b),
                             helping(m, kept_b, left), unseen)
    return None


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def _kept(m: Melder, hand: Sequence[Card]) -> list[Card]:
    """Ten cards less the best discard (the bots' own choice of it)."""
    return _without(hand, best_discard(m, hand)[0]) if len(hand) > 9 else list(hand)


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
    return BetReason(pot, call, needed, chance, opponents)


def _cacho(view: CachoView, legal: Sequence[Action]) -> BetReason | None:
    if view.you is None or not any(a.type in (CACHO_BET, CACHO_PASS, FOLD, CALL, CHECK) for a in legal):
        return None
    me = view.seats[view.you]
    opponents = sum(1 for s in view.seats if s.status is CachoStatus.IN and s.seat != me.seat)
    chance = heads_up(tuple(sorted(me.cards))) ** max(1, opponents) if me.cards else -1.0
    return _pot(view.pot, legal, chance, opponents)


# -- as JSON -------------------------------------------------------------------------------------------
def to_json(r: Reason) -> dict[str, Any]:
    """A reason as the analysis's JSON keeps it (docs/history.md §8): its ``kind`` and its fields."""
    out: dict[str, Any] = {"kind": str(r.kind)}
    for f in fields(r):
        value = getattr(r, f.name)
        out[f.name] = str(value) if isinstance(value, Card) else value
    return out


KINDS: Mapping[str, type[Reason]] = {
    Kind.ENVIDO: EnvidoReason, Kind.TRUCO: TrucoReason, Kind.DRAW: DrawReason, Kind.DISCARD: DiscardReason,
    Kind.KNOCK: KnockReason, Kind.BET: BetReason}
CARD_FIELDS = frozenset({"card", "chosen", "best"})


def from_json(data: Mapping[str, Any] | None) -> Reason | None:
    """A reason read back (``to_json``); None for none, or for a kind this version does not know."""
    if not data or data.get("kind") not in KINDS:
        return None
    cls = KINDS[str(data["kind"])]
    values: dict[str, Any] = {}
    try:
        for f in fields(cls):
            value = data[f.name]
            values[f.name] = (parse_cards([value])[0] if value else None) if f.name in CARD_FIELDS else value
    except (KeyError, ValueError):
        return None
    return cls(**values)


def cards_of(r: Reason) -> Iterable[Card]:
    """The cards a reason names (for a reader that shows them)."""
    return [getattr(r, f.name) for f in fields(r) if f.name in CARD_FIELDS and getattr(r, f.name) is not None]
