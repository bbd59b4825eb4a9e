"""Chinchón (docs/rules.md §6): the rummy of Spain and Argentina, seven cards each from a Spanish pack.

The pack is the Spanish one of 40 (no 8 or 9: a run goes 6 7 10 11) or 48 (``cards``), with up to two jokers
(``jokers``), each acting for any card of a meld, one a meld, and never standing as itself. Seven cards each, one
at a time from the dealer's left; the next card is turned face up to start the discard pile. In turn a player
draws (the stock or the pile's top), then discards, or *closes* (cortar): discards face down and lays out the
seven left, which may leave cards outside melds counting ``limit`` points at most (``limit`` 0: all seven
melded). Melds are three or more of a rank, or three or more in a run of one suit, the ace low only.

The hand is then counted: each other player lays out its own melds and may lay loose cards off on the closer's
melds (``lay_off``; never on a close with all seven melded), and adds what its cards left outside count; the
closer adds its own, or -10 with all seven melded. Seven in one run of a suit, no joker in it, is a *chinchón*:
it wins the match at once (``chinchon = match``), or counts -10 like any close with all seven melded. A player
whose points pass ``target`` is out (if every player still in passes it in one hand, the fewest points win the
match); one may come back in, at the points of the highest still in, ``reentries`` times (the reenganche). The
last player in wins. The engine counts every hand the best way for its player: nobody arranges a hand by hand.

The stock that runs out is rebuilt once, from the pile less its top, as in every rummy hand here; once the rebuilt
stock runs out too and the player who drew its last card discards instead of closing, the hand is *void*: nobody
scores, and the deal passes on. The sources are silent on a hand nobody closes; without this, players whose cards
never come together would turn the same stock over forever.

No claim windows: a discard is taken only by the next player's draw. Where the sources disagree, each choice is
an option; docs/rules.md §6 names each option's source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar

from cardtui.engine.cards import JOKER, Card
from cardtui.engine.core import (
    Action,
    Event,
    EventBody,
    GameOptions,
    IllegalAction,
    NotYourTurn,
    SeatInfo,
)
from cardtui.engine.events import HandEnded, MatchEnded
from cardtui.engine.options import option, values
from cardtui.engine.rummy.base import RummyGame, RummyState
from cardtui.engine.rummy.melds import (
    GroupRule,
    Knock,
    Melder,
    Ruleset,
    acting_wild,
    index,
    is_meld_with_wilds,
    layout,
    melder,
)
from cardtui.engine.rummy.records import (
    DISCARD,
    DRAW,
    PASS,
    Claiming,
    Phase,
    RummyCount,
    RummyMeld,
    RummyResult,
    RummySeat,
    RummyStockRebuilt,
    RummyTable,
    RummyView,
    Scoring,
    SeatStatus,
)

REENTER = "reenter"
"""A player past the target comes back in (the reenganche)."""
ALL_MELDED = -10
"""What a close with all seven cards melded counts for the closer."""
HAND = 7


class Figures(StrEnum):
    """What the sota, the caballo and the rey count outside melds."""

    TEN = "ten"
    """10 each."""
    NUMBER = "number"
    """Their number: 10, 11 and 12."""


class ChinchonPays(StrEnum):
    """What a chinchón (a close with the seven in one run of a suit, no joker) gives its player."""

    MATCH = "match"
    """The match, at once."""
    MINUS_TEN = "minus_ten"
    """-10, as any close with all seven melded."""


@dataclass(frozen=True, slots=True)
class ChinchonOptions(GameOptions):
    cards: int = option(40, "The Spanish pack: 40 cards (no 8 or 9) or 48.", min=40, max=48, values=(40, 48))
    jokers: int = option(0, "Jokers in the pack: each acts for any card of a meld, one a meld.", min=0, max=2)
    joker_points: int = option(25, "What a joker left outside melds counts.", min=0, max=50)
    figures: Figures = option(Figures.TEN, "What the sota, the caballo and the rey count outside melds: 10 each,"
                                           " or their number (10, 11 and 12).")
    limit: int = option(5, "The most the cards left outside melds may count for a player to close (cortar).",
                        min=0, max=10)
    first_round: bool = option(True, "A player may close on the first turn of the hand.")
    chinchon: ChinchonPays = option(ChinchonPays.MATCH, "A close with the seven in one run of a suit, no joker in"
                                                        " it (chinchón): wins the match, or counts -10.")
    target: int = option(100, "A player whose points pass this is out.", min=10, max=500)
    reentries: int = option(0, "How many times a player past the target may come back in (reenganche), at the"
                               " points of the highest still in.", min=0, max=3)
    lay_off: bool = option(True, "After a close the others lay their loose cards off on the closer's melds where"
                                 " they fit (never on a close with all seven melded).")

    @property
    def pack(self) -> str:
        """The pack's name (docs/deal.md §2): ``spanish40`` to ``spanish50``."""
        return f"spanish{self.cards + self.jokers}"

    @property
    def points(self) -> tuple[int, ...]:
        """What a card outside melds counts, by rank (the joker's first)."""
        faces = (10, 10, 10) if self.figures is Figures.TEN else (10, 11, 12)
        return (self.joker_points, *range(1, 10), *faces)

    @property
    def rules(self) -> Ruleset:
        return Ruleset(GroupRule.DISTINCT, ace_high=False, wild_acts=bool(self.jokers), pack=self.pack,
                       points=self.points)


# -- events ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ChinchonUp(EventBody):
    """The pack's next card after the deal, turned face up to start the discard pile."""

    card: Card


@dataclass(frozen=True, slots=True)
class ChinchonCounted(EventBody):
    """Every seat's hand as the close counted it, the closer's first."""

    counts: tuple[RummyCount, ...]
    chinchon: bool


@dataclass(frozen=True, slots=True)
class ChinchonEliminated(EventBody):
    """Past the target: out of the match, unless it comes back in."""

    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class ChinchonReentered(EventBody):
    """Back in the match at ``points``, the highest of those still in (the reenganche)."""

    seat: int
    points: int


# -- state -----------------------------------------------------------------------------------
class ChinchonState(RummyState):
    def __init__(self, options: ChinchonOptions, seats: Sequence[SeatInfo]) -> None:
        super().__init__(seats, 0, 0)
        self.options = options
        self.turns = [0] * self.n
        """Draws each seat made this hand: the first is its first turn."""
        self.reentries = [0] * self.n
        """Times each seat came back in this match."""
        self.pending: set[int] = set()
        """Seats the hand put out that are yet to say whether they come back in."""
        self.winner: int | None = None
        """Who won the match, once it is won (by a chinchón, or as the last in)."""
        self.counts: tuple[RummyCount, ...] = ()
        self.chinchon = False
        self.eliminated: tuple[int, ...] = ()
        self.came_back: list[int] = []
        self.up: Card | None = None
        self.rebuilt = 0
        """Times the stock was rebuilt from the pile this hand: once it has been, its running out voids the hand."""


def is_chinchon(cards: Sequence[Card], rules: Ruleset) -> bool:
    """Seven cards in one run of a suit, none of them a joker."""
    if len(cards) != HAND or any(c is JOKER for c in cards) or len({c.suit for c in cards}) != 1:
        return False
    place = layout(rules.pack).place
    places = sorted(place[c.rank] for c in cards)
    return places == list(range(places[0], places[0] + HAND))


def points_of(cards: Sequence[Card], rules: Ruleset) -> int:
    """What cards left outside melds count."""
    return sum(rules.points[c.rank] for c in cards)


def lay_offs(cards: Sequence[Card], melds: Sequence[tuple[Card, ...]], rules: Ruleset, wilds: Sequence[Card]
             ) -> dict[frozenset[int], tuple[tuple[Card, ...], ...]]:
    """Every part of ``cards`` (by their places) that may be laid off on ``melds``, each card joining a meld that
    stays a meld with it, in whatever order lets them (a run grows one card after another: 10 after 7, then 11),
    with the melds it leaves: found by laying one card at a time from every part found so far."""
    known: dict[tuple[Card, ...], bool] = {}

    def fits(meld: tuple[Card, ...]) -> bool:
        key = tuple(sorted(meld, key=index))
        hit = known.get(key)
        if hit is None:
            hit = known[key] = is_meld_with_wilds(meld, rules, wilds)
        return hit

    start: frozenset[int] = frozenset()
    found: dict[frozenset[int], tuple[tuple[Card, ...], ...]] = {start: tuple(melds)}
    seen = {(start, tuple(sorted(tuple(sorted(m, key=index)) for m in melds)))}
    frontier = [(start, tuple(melds))]
    while frontier:
        laid, now = frontier.pop()
        for j, c in enumerate(cards):
            if j in laid:
                continue
            for i, m in enumerate(now):
                grown = (*m, c)
                if fits(grown):
                    more = laid | {j}
                    after = (*now[:i], grown, *now[i + 1:])
                    key = (more, tuple(sorted(tuple(sorted(x, key=index)) for x in after)))
                    if key not in seen:
                        seen.add(key)
                        found.setdefault(more, after)
                        frontier.append((more, after))
    return found


def _reaches(card: Card, melds: Sequence[tuple[Card, ...]]) -> bool:
    """Whether ``card`` might join one of ``melds``: a joker, or a card sharing a rank or a suit with one of theirs."""
    return card is JOKER or any(c.rank == card.rank or c.suit is card.suit for m in melds for c in m)


@dataclass(frozen=True, slots=True)
class Counted:
    """One seat's hand counted the best way: its melds, what it laid off (and the closer's melds after), its loose
    cards, their points."""

    melds: tuple[tuple[Card, ...], ...]
    laid: tuple[Card, ...]
    loose: tuple[Card, ...]
    points: int
    onto: tuple[tuple[Card, ...], ...]


def counted(hand: Sequence[Card], onto: Sequence[tuple[Card, ...]] | None, m: Melder) -> Counted:
    """``hand`` counted the best way: melded as the search finds best, and where ``onto`` (the closer's melds) is
    given, with whichever of its cards may be laid off there, the fewest points left outside. Every part of the
    cards that reach a meld of ``onto`` (a rank or a suit of it, or a joker) is tried (128 at most)."""
    rules = m.rules
    melds, loose = m.arrange(hand)
    best = Counted(tuple(melds), (), tuple(loose), points_of(loose, rules), tuple(onto or ()))
    if not onto or not loose:
        return best
    cards = [c for c in hand if _reaches(c, onto)]
    kept = [c for c in hand if not _reaches(c, onto)]
    for laid_at, grown in lay_offs(cards, tuple(onto), rules, m.wilds).items():
        if not laid_at:
            continue
        laid = tuple(cards[i] for i in sorted(laid_at))
        rest = [*kept, *(cards[i] for i in range(len(cards)) if i not in laid_at)]
        melds, loose = m.arrange(rest)
        pts = points_of(loose, rules)
        if pts < best.points or (pts == best.points and len(laid) < len(best.laid)):
            best = Counted(tuple(melds), laid, tuple(loose), pts, grown)
    return best


class Chinchon(RummyGame[ChinchonState, ChinchonOptions]):
    name: ClassVar[str] = "chinchon"
    title: ClassVar[str] = "Chinchón"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    usual_players: ClassVar[int] = 3
    """Three or four round one pack is the usual Chinchón; two play it often too."""
    options_type = ChinchonOptions

    def new_state(self, options: ChinchonOptions, seats: Sequence[SeatInfo]) -> ChinchonState:
        return ChinchonState(options, seats)

    def option_values(self, state: ChinchonState) -> dict[str, Any]:
        return values(state.options)

    def table_of(self, options: ChinchonOptions) -> RummyTable:
        return RummyTable(options.pack, HAND, Scoring.DEADWOOD, Claiming.NONE, options.limit, options.target,
                          options.points)

    def table(self, state: ChinchonState) -> RummyTable:
        return self.table_of(state.options)

    def melder(self, state: ChinchonState) -> Melder:
        return melder(state.options.rules, (JOKER,) if state.options.jokers else ())

    def in_game(self, state: ChinchonState, seat: int) -> bool:
        return state.stacks[seat] <= state.options.target

    def set_start(self, state: ChinchonState, start: Sequence[int]) -> None:
        state.stacks = list(start)

    def recall(self, state: ChinchonState, record: Any) -> None:
        """What a hand history says beyond its start: the times each seat came back in before it."""
        for s, n in (record.get("reentries") or {}).items():
            state.reentries[int(s)] = int(n)

    # -- the hand around the rummy play ---------------------------------------------------------
    def next_dealer(self, state: ChinchonState) -> int:
        """The deal passes left, to the next player still in."""
        d = state.dealer
        for _ in range(state.n):
            d = (d + 1) % state.n
            if self.in_game(state, d):
                return d
        return d

    def prepare(self, state: ChinchonState) -> list[Event]:
        state.turns = [0] * state.n
        state.pending = set()
        state.counts = ()
        state.chinchon = False
        state.eliminated = ()
        state.came_back = []
        state.up = None
        state.rebuilt = 0
        return []

    def head(self, state: ChinchonState) -> dict[str, Any]:
        out: dict[str, Any] = {"pack": state.options.pack}
        if any(state.reentries):
            out["reentries"] = {str(s): n for s, n in enumerate(state.reentries) if n}
        return out

    def after_cards(self, state: ChinchonState) -> list[Event]:
        """The pack's next card, turned face up to start the pile (docs/deal.md §10.5)."""
        up = state.stock.pop()
        state.pile.append(up)
        state.up = up
        state.hand_log.top["up"] = str(up)
        return [Event(ChinchonUp(up)), *self.start_play(state)]

    # -- closing (the family's knock) ------------------------------------------------------------
    def claim_refusal(self, state: ChinchonState, seat: int) -> str | None:
        return "Nobody takes a discard out of turn at Chinchón."

    def knocks(self, state: ChinchonState, seat: int) -> list[Knock]:
        """Every card ``seat`` may close with now: the seven left after it meld but for cards counting ``limit`` at
        most (the melds shown: the best way; a chinchón as its one run)."""
        hand = tuple(state.hands[seat])
        key = (seat, hand, None)
        cached = state._knocks
        if cached is not None and cached[0] == key:
            return cached[1]
        found: list[Knock] = []
        options = state.options
        if len(hand) == HAND + 1 and (options.first_round or state.turns[seat] > 1):
            m = self.melder(state)
            for d in sorted(set(hand), key=index):
                rest = list(hand)
                rest.remove(d)
                melds, loose = m.arrange(rest)
                if points_of(loose, m.rules) <= options.limit:
                    if is_chinchon(rest, m.rules):
                        melds = (tuple(sorted(rest, key=index)),)
                    found.append(Knock(d, tuple(melds)))
        state._knocks = (key, found)
        return found

    def refusal(self, state: ChinchonState, seat: int, action: Action) -> IllegalAction | None:
        if state.phase is Phase.REENTRY:
            if seat not in state.pending:
                return NotYourTurn("The hand is counted: it waits only on who may come back in.")
            if action.type not in (REENTER, PASS) or action.cards or action.amount or action.value:
                return IllegalAction("Come back in, or stay out.")
            return None
        return super().refusal(state, seat, action)

    def _knock_problem(self, state: ChinchonState, seat: int, cards: Sequence[Card]) -> str:
        if not cards:
            return "Name the card you close with: it goes face down, and the seven left are counted."
        if cards[0] not in state.hands[seat]:
            return f"You do not hold {cards[0]}."
        if not state.options.first_round and state.turns[seat] <= 1:
            return "Nobody closes on the first turn of the hand at this table."
        m = self.melder(state)
        rest = list(state.hands[seat])
        rest.remove(cards[0])
        left = points_of(m.arrange(rest)[1], m.rules)
        return (f"Closing with {cards[0]} leaves cards counting {left} outside melds: this table closes with"
                f" {state.options.limit} at most.")

    def perform(self, state: ChinchonState, seat: int, action: Action) -> list[Event]:
        if state.phase is Phase.REENTRY:
            return self._answer_reentry(state, seat, action)
        if action.type == DRAW:
            state.turns[seat] += 1
        events = super().perform(state, seat, action)
        if action.type == DRAW:
            state.rebuilt += sum(isinstance(e.body, RummyStockRebuilt) for e in events)
        elif action.type == DISCARD and not state.stock and state.rebuilt:
            events += self._void(state)
        return events

    def _void(self, state: ChinchonState) -> list[Event]:
        """The rebuilt stock ran out and nobody closed: the hand is void, nobody scores, and the deal passes on."""
        result = RummyResult((0,) * state.n, None, None, ())
        self.end_hand(state, result, {"counts": {}, "chinchon": False, "eliminated": [], "void": True})
        return [Event(HandEnded(result.deltas, None))]

    def outs(self, state: ChinchonState, seat: int) -> tuple[Card, ...]:
        """No outs are listed: a close counts points, and many cards may bring one."""
        return ()

    # -- the count ------------------------------------------------------------------------------------
    def settle(self, state: ChinchonState, seat: int) -> list[Event]:
        """``seat`` closed: count every hand, add the points, put out who passed the target."""
        knock = state.knock
        assert knock is not None
        options = state.options
        m = self.melder(state)
        rules = m.rules
        kept = state.hands[seat]
        melds = [tuple(rm.cards) for rm in knock.melds]
        in_melds = [c for mm in melds for c in mm]
        loose = list(kept)
        for c in in_melds:
            loose.remove(c)
        chinchon = is_chinchon(kept, rules)
        everything = not loose
        closer_points = ALL_MELDED if everything else points_of(loose, rules)
        counts = [RummyCount(seat, knock.melds, tuple(sorted(loose, key=index)), (), closer_points)]
        onto: tuple[tuple[Card, ...], ...] | None = tuple(melds) if options.lay_off and not everything else None
        deltas = [0] * state.n
        deltas[seat] = closer_points
        for s in state.after(seat):
            got = counted(state.hands[s], onto, m)
            if onto is not None:
                onto = got.onto
            shown = tuple(RummyMeld(mm, acting_wild(mm, rules, m.wilds)) for mm in got.melds)
            counts.append(RummyCount(s, shown, tuple(sorted(got.loose, key=index)), got.laid, got.points))
            deltas[s] = got.points
        for s in state.playing:
            state.stacks[s] += deltas[s]
        state.counts = tuple(counts)
        state.chinchon = chinchon
        events: list[Event] = [Event(ChinchonCounted(state.counts, chinchon))]
        if chinchon and options.chinchon is ChinchonPays.MATCH:
            state.winner = seat
            return events + self._finish(state, seat, deltas)
        target = options.target
        out = tuple(s for s in state.playing if state.stacks[s] > target)
        still = [s for s in range(state.n) if self.in_game(state, s)]
        if not still:
            # Everyone still in passed the target in one hand: the fewest points win (the closer first of equals).
            order = [seat, *state.after(seat)]
            state.winner = min(order, key=lambda s: (state.stacks[s], order.index(s)))
            out = tuple(s for s in out if s != state.winner)
        state.eliminated = out
        events += [Event(ChinchonEliminated(s, state.stacks[s])) for s in out]
        if state.winner is None:
            state.pending = {s for s in out if state.reentries[s] < options.reentries and still}
            if state.pending:
                state.phase = Phase.REENTRY
                state.turn = None
                state.result = RummyResult(tuple(deltas), seat, knock, out, state.counts, chinchon)
                return events
        return events + self._finish(state, seat, deltas)

    def _answer_reentry(self, state: ChinchonState, seat: int, action: Action) -> list[Event]:
        state.hand_log.act(seat, Action(action.type))
        state.pending.discard(seat)
        events: list[Event] = []
        if action.type == REENTER:
            still = [s for s in range(state.n) if self.in_game(state, s)]
            points = max((state.stacks[s] for s in still), default=0)
            state.stacks[seat] = points
            state.reentries[seat] += 1
            state.came_back.append(seat)
            events.append(Event(ChinchonReentered(seat, points)))
        if not state.pending:
            result = state.result
            assert result is not None and result.winner is not None and state.knock is not None
            events += self._finish(state, result.winner, list(result.deltas))
        return events

    def _finish(self, state: ChinchonState, closer: int, deltas: Sequence[int]) -> list[Event]:
        """The hand is over: its result, its history, and the match's end if it came."""
        knock = state.knock
        assert knock is not None
        result = RummyResult(tuple(deltas), closer, knock, state.eliminated, state.counts, state.chinchon)
        record: dict[str, Any] = {
            "counts": {str(c.seat): {"melds": [[str(x) for x in mm.cards] for mm in c.melds],
                                     "loose": [str(x) for x in c.loose], "laid_off": [str(x) for x in c.laid_off],
                                     "points": c.points} for c in state.counts},
            "chinchon": state.chinchon,
            "eliminated": list(state.eliminated),
        }
        if state.came_back:
            record["reentered"] = list(state.came_back)
        self.end_hand(state, result, record)
        events = [Event(HandEnded(result.deltas, closer))]
        if self.match_over(state):
            if state.winner is None:
                state.winner = next(s for s in range(state.n) if self.in_game(state, s))
            events.append(Event(MatchEnded(state.winner)))
        return events

    # -- queries -------------------------------------------------------------------------------
    def hand_over(self, state: ChinchonState) -> bool:
        return state.result is not None and state.phase is Phase.OVER

    def scores(self, state: ChinchonState) -> tuple[int, ...]:
        """Where each seat stands, higher better as in every game: the points it may still take and stay in (the
        target and one, less its points: 0 or less, it is out). The points themselves are each seat's ``score`` in
        the view and its ``start`` in a hand history."""
        standing = [state.options.target + 1 - p for p in state.stacks]
        if state.chinchon and state.winner is not None and state.options.chinchon is ChinchonPays.MATCH:
            # A chinchón won the match: every other seat's match is over, as if it were out.
            standing = [v if s == state.winner else min(v, 0) for s, v in enumerate(standing)]
        return tuple(standing)

    def standing(self, record: Mapping[str, Any], after: bool = True) -> dict[int, int]:
        """As ``scores``, from a hand's history: the points each seat may still take (the target and one, less its
        points), every other seat out once a chinchón wins the match."""
        options = self.options(record.get("options") or {})
        out = {s: options.target + 1 - p for s, p in super().standing(record, after).items()}
        result = record["result"]
        if after and result.get("chinchon") and options.chinchon is ChinchonPays.MATCH:
            out = {s: v if s == result["winner"] else min(v, 0) for s, v in out.items()}
        return out

    def match_over(self, state: ChinchonState) -> bool:
        """Won by a chinchón or by the fewest points when everyone passed the target; else once one is left in."""
        if state.phase is Phase.REENTRY:
            return False
        return state.winner is not None or sum(1 for s in range(state.n) if self.in_game(state, s)) <= 1

    def legal_actions(self, state: ChinchonState, seat: int) -> list[Action]:
        if state.phase is Phase.REENTRY:
            return [Action(REENTER), Action(PASS)] if seat in state.pending else []
        return super().legal_actions(state, seat)

    def to_act(self, state: ChinchonState) -> tuple[int, ...]:
        if state.phase is Phase.REENTRY:
            return tuple(sorted(state.pending))
        return super().to_act(state)

    def window_to_act(self, state: ChinchonState) -> tuple[int, ...]:
        return self.to_act(state)

    def default_action(self, state: ChinchonState, seat: int) -> Action:
        """When the timer runs out: stay out (a player away does not come back in for the table); in play, as in
        every rummy hand."""
        if state.phase is Phase.REENTRY and seat in state.pending:
            return Action(PASS)
        return super().default_action(state, seat)

    def seat_record(self, state: ChinchonState, s: int, put: int = 0, declared: bool = False,
                    burned: bool = False) -> RummySeat:
        """As every rummy seat's, out as soon as a count puts it past the target, with the times it came back in."""
        record = super().seat_record(state, s, put, declared, burned)
        if not self.in_game(state, s):
            record = replace(record, status=SeatStatus.OUT)
        return replace(record, reentries=state.reentries[s]) if state.reentries[s] else record

    def view(self, state: ChinchonState, seat: int | None) -> RummyView:
        seats = tuple(self.seat_record(state, s) for s in range(state.n))
        return self.build_view(state, seat, seats, wilds=(JOKER,) if state.options.jokers else ())


GAME = Chinchon()
