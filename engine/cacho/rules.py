"""Cacho (docs/rules.md §5): three cards, three rounds of betting, sixes high, aces low.

Round 1: one card each; in turn pass (out, loses nothing) or bet 1. All pass: redeal.
Round 2: a second card; pass (out, loses the 1) or bet 2 more. All pass: all stay.
Round 3: a third card; poker-style betting capped at the smallest stack still in (resto).
Showdown: three sixes, then cacho (three suited, sum + 20), then two suited (the pair + 20),
then the highest card; equal hands go to the eldest (nearest the dealer's left).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from cardtui.engine.betting import CALL, CHECK, FOLD, BettingRound, Pots
from cardtui.engine.cacho.records import (
    CachoOptions,
    CachoPotWon,
    CachoRedealt,
    CachoResult,
    CachoRoundDealt,
    CachoSeat,
    CachoShowed,
    CachoShowing,
    CachoStrength,
    CachoView,
    Category,
    SeatStatus,
)
from cardtui.engine.cards import Card, french_deck, shuffled
from cardtui.engine.core import (
    Action,
    Event,
    Game,
    IllegalAction,
    JsonObject,
    MatchState,
    NotYourTurn,
    SeatInfo,
    check_seat,
    copied,
    only,
)
from cardtui.engine.events import Acted, CardsDealt, HandEnded, HandStarted, MatchEnded
from cardtui.engine.fairness import Seed, hand_rng
from cardtui.engine.history import HandLog
from cardtui.engine.options import values

__all__ = [
    "BET", "CACHO", "CATEGORY_NAMES", "DECK", "FLUSH2", "GAME", "HIGH", "PASS", "SIXES", "Cacho", "CachoOptions",
    "CachoPotWon", "CachoRedealt", "CachoResult", "CachoRoundDealt", "CachoSeat", "CachoShowed", "CachoShowing",
    "CachoState", "CachoStrength", "CachoView", "Category", "SeatStatus", "describe", "strength", "worth",
]

PASS = "pass"
BET = "bet"
DECK = tuple(french_deck(ranks=range(1, 7)))


# -- hand strength ------------------------------------------------------------------
HIGH, FLUSH2, CACHO, SIXES = 0, 1, 2, 3
_CATEGORIES = (Category.HIGH, Category.TWO_SUITED, Category.CACHO, Category.SIXES)
CATEGORY_NAMES = {SIXES: "three sixes", CACHO: "cacho", FLUSH2: "two of a suit", HIGH: "high card"}


def strength(cards: Sequence[Card]) -> tuple[int, int]:
    """(category, points) of a three-card hand; higher compares better."""
    if len(cards) == 3 and all(c.rank == 6 for c in cards):
        return (SIXES, 18)
    by_suit: dict[str, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, []).append(c.rank)
    best = max(by_suit.values(), key=lambda ranks: (len(ranks), sum(ranks)))
    if len(best) >= 3:
        return (CACHO, sum(best) + 20)
    if len(best) == 2:
        return (FLUSH2, sum(best) + 20)
    return (HIGH, max(c.rank for c in cards))


def describe(cards: Sequence[Card]) -> str:
    cat, pts = strength(cards)
    return CATEGORY_NAMES[cat] if cat == SIXES else f"{CATEGORY_NAMES[cat]} ({pts})"


def worth(cards: Sequence[Card]) -> CachoStrength:
    cat, pts = strength(cards)
    return CachoStrength(_CATEGORIES[cat], pts)


# -- state --------------------------------------------------------------------------
class CachoState(MatchState):
    """One match: stacks carry over hands; the current hand is dealt from ``rng``."""

    def __init__(self, options: CachoOptions, seats: Sequence[SeatInfo]) -> None:
        self.options = options
        self.seats = tuple(seats)
        self.n = len(seats)
        self.stacks = [options.chips] * self.n
        self.dealer = self.n - 1
        self.hand_no = 0
        self.round = 0
        self.rng = random.Random(0)
        self.deck: list[Card] = []
        self.hands: list[list[Card]] = [[] for _ in seats]
        self.playing: list[int] = []  # seats dealt in this hand, eldest first
        self.pots = Pots(self.n)
        self.pending: list[int] = []  # rounds 1-2: who still has to pass or bet
        self.bettors: list[int] = []
        self.passed: set[int] = set()  # rounds 1-2: who passed this round
        self.betting: BettingRound | None = None
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.result: dict[str, Any] | None = None
        self.log: HandLog | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> CachoState:
        """A copy to play on (what-ifs, tests): compiled, the state is copied attribute by attribute."""
        return copied(self, CachoState(self.options, self.seats), memo)

    @property
    def in_hand(self) -> list[int]:
        return [s for s in self.playing if s not in self.pots.folded]

    def name(self, seat: int) -> str:
        return self.seats[seat].name


class Cacho(Game[CachoState, CachoOptions, CachoView]):
    family_name: ClassVar[str] = "cacho"
    name: ClassVar[str] = "cacho"
    pack_name: ClassVar[str] = "french24"
    title: ClassVar[str] = "Cacho"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    usual_players: ClassVar[int] = 4
    """Cacho is a betting game: with four in, a bet meets callers and three-card hands are worth comparing
    (the 24 cards still leave half the deck unseen)."""
    options_type = CachoOptions

    # -- the hand lifecycle's hooks ---------------------------------------------------
    def new_state(self, options: CachoOptions, seats: Sequence[SeatInfo]) -> CachoState:
        return CachoState(options, seats)

    def set_start(self, state: CachoState, start: Sequence[int]) -> None:
        state.stacks = list(start)

    def next_dealer(self, state: CachoState) -> int:
        """The deal passes left, to the next player who still has chips."""
        d = state.dealer
        for _ in range(state.n):
            d = (d + 1) % state.n
            if state.stacks[d] > 0:
                return d
        return d

    def deal(self, state: CachoState, seed: Seed, dealer: int) -> list[Event]:
        state.hand_no += 1
        state.dealer = dealer
        state.rng = hand_rng(seed)
        state.pots = Pots(state.n)
        state.shown = {}
        state.result = None
        state.betting = None
        state.playing = [s for s in self._eldest_order(state) if state.stacks[s] > 0]
        state.log = HandLog(self.name, values(state.options), state.hand_no, seed, dealer, state.seats, state.stacks)
        events = [Event(HandStarted(state.hand_no, dealer))]
        return events + self._round_one(state)

    def _eldest_order(self, state: CachoState) -> list[int]:
        """From the dealer's left, ``dealer + 1``, round the seat numbers (docs/deal.md §9)."""
        return [(state.dealer + 1 + i) % state.n for i in range(state.n)]

    def _round_one(self, state: CachoState) -> list[Event]:
        # docs/deal.md §10.1: a fresh shuffle of the whole pack, a redeal's too, from the same stream.
        state.deck = shuffled(DECK, state.rng)
        state.hands = [[] for _ in state.seats]
        state.round = 1
        state.pending = list(state.playing)
        state.bettors = []
        state.passed = set()
        return self._deal_card(state, state.playing)

    def _deal_card(self, state: CachoState, seats: Sequence[int]) -> list[Event]:
        """A card to each of ``seats`` from the end of the pack (docs/deal.md §10.1)."""
        events = [Event(CachoRoundDealt(state.round, tuple(seats)))]
        for s in seats:
            card = state.deck.pop()
            state.hands[s].append(card)
            assert state.log is not None
            state.log.dealt(s, card)
            events.append(Event(CardsDealt(s, (card,)), only(s)))
        return events

    # -- the contract -------------------------------------------------------------
    def _turn(self, state: CachoState) -> int | None:
        if state.result is not None or state.round == 0:
            return None
        if state.round < 3:
            return state.pending[0] if state.pending else None
        return state.betting.to_act if state.betting else None

    def to_act(self, state: CachoState) -> tuple[int, ...]:
        seat = self._turn(state)
        return () if seat is None else (seat,)

    def legal_actions(self, state: CachoState, seat: int) -> list[Action]:
        if seat != self._turn(state):
            return []
        if state.round == 1:
            return [Action(PASS), Action(BET, 1)]
        if state.round == 2:
            return [Action(PASS), Action(BET, min(2, state.stacks[seat]))]
        assert state.betting is not None
        return state.betting.legal(seat)

    def default_action(self, state: CachoState, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        for kind in (CHECK, PASS, FOLD):
            for a in legal:
                if a.type == kind:
                    return a
        raise IllegalAction("There is nothing for this seat to do.")

    def apply(self, state: CachoState, seat: int, action: Action) -> list[Event]:
        check_seat(seat, state.n)
        turn = self._turn(state)
        if seat != turn:
            if state.result is not None:
                raise NotYourTurn("The hand is over.")
            raise NotYourTurn("It is {name}'s turn, not yours.", name=state.name(turn or 0))
        if state.round < 3:
            return self._early(state, seat, action)
        return self._late(state, seat, action)

    def _early(self, state: CachoState, seat: int, action: Action) -> list[Event]:
        """Rounds 1 and 2: pass or bet the fixed amount; no raises."""
        legal = self.legal_actions(state, seat)
        if action not in legal:
            raise IllegalAction("In round {round} you may pass or bet {chips}, nothing else.", round=state.round,
                                chips=legal[1].amount)
        assert state.log is not None
        state.log.act(seat, action)
        state.pending.pop(0)
        if action.type == BET:
            state.stacks[seat] -= action.amount
            state.pots.add(seat, action.amount)
            state.bettors.append(seat)
        else:
            state.passed.add(seat)
        events = [Event(Acted(seat, action))]
        if state.pending:
            return events
        return events + self._end_early_round(state)

    def _end_early_round(self, state: CachoState) -> list[Event]:
        state.passed = set()
        if state.round == 1:
            if not state.bettors:
                assert state.log is not None
                state.log.redeal({s: state.hands[s] for s in state.playing})
                return [Event(CachoRedealt()), *self._round_one(state)]
            # Passers in round 1 are out of the hand and lose nothing.
            for s in state.playing:
                if s not in state.bettors:
                    state.pots.folded.add(s)
        elif state.bettors:
            for s in state.in_hand:
                if s not in state.bettors:
                    state.pots.folded.add(s)
        # All passed in round 2: everyone stays for round 3.
        live = state.in_hand
        if len(live) == 1:
            return self._finish(state, live, showdown=False)
        state.round += 1
        state.bettors = []
        if state.round == 2:
            state.pending = list(live)
            return self._deal_card(state, live)
        return self._deal_card(state, live) + self._open_round_three(state)

    def _open_round_three(self, state: CachoState) -> list[Event]:
        live = state.in_hand
        # The resto: nobody bets past the smallest stack still in, recomputed after every fold.
        state.betting = BettingRound(live, state.stacks, state.pots, resto=True)
        if state.betting.done:  # nobody can bet: straight to the showdown
            return self._finish(state, live, showdown=True)
        return []

    def _late(self, state: CachoState, seat: int, action: Action) -> list[Event]:
        assert state.betting is not None and state.log is not None
        moved = state.betting.act(seat, action)
        # What happened, not what was sent: a call moves what it owed, whatever amount came with
        # it; a fold or a check moves nothing (docs/history.md §4, as Pif Paf records them).
        if action.type == CALL:
            done = Action(CALL, moved)
        elif action.type in (FOLD, CHECK):
            done = Action(action.type)
        else:
            done = Action(action.type, action.amount)
        state.log.act(seat, done)
        events = [Event(Acted(seat, done))]
        if state.betting.done:
            live = state.in_hand
            events += self._finish(state, live, showdown=len(live) > 1)
        return events

    def _finish(self, state: CachoState, live: list[int], showdown: bool) -> list[Event]:
        assert state.log is not None
        order = state.playing  # eldest first: ties go to the earlier seat
        events: list[Event] = []
        if showdown:
            state.shown = {s: tuple(state.hands[s]) for s in live}
            ranking = sorted(live, key=lambda s: (strength(state.hands[s]), -order.index(s)), reverse=True)
            for s in live:
                events.append(Event(CachoShowed(s, tuple(state.hands[s]), worth(state.hands[s]))))
        else:
            ranking = list(live)
        put = state.pots.put
        won = state.pots.award(ranking)
        for s in range(state.n):
            state.stacks[s] += won[s]
        deltas = tuple(won[s] - put[s] for s in range(state.n))
        winner = ranking[0]
        state.result = {
            "deltas": {str(s): d for s, d in enumerate(deltas)},
            "winner": winner,
            "showdown": {str(s): [str(c) for c in cs] for s, cs in state.shown.items()},
            "pot": sum(put),
        }
        state.round = 4
        events.append(Event(CachoPotWon(winner, sum(won), showdown)))
        events.append(Event(HandEnded(deltas, winner)))
        state.log.finish(state.result)
        if self.match_over(state):
            champ = max(range(state.n), key=lambda s: state.stacks[s])
            events.append(Event(MatchEnded(champ)))
        return events

    # -- queries ------------------------------------------------------------------
    def hand_over(self, state: CachoState) -> bool:
        return state.result is not None

    def match_over(self, state: CachoState) -> bool:
        return state.result is not None and sum(1 for c in state.stacks if c > 0) <= 1

    def history(self, state: CachoState) -> JsonObject | None:
        return state.log.history() if state.log is not None else None

    def scores(self, state: CachoState) -> tuple[int, ...]:
        return tuple(state.stacks)

    def _status(self, state: CachoState, s: int) -> SeatStatus:
        if s not in state.playing:
            return SeatStatus.BUST if state.stacks[s] == 0 else SeatStatus.WAITING
        if s in state.pots.folded or s in state.passed:
            return SeatStatus.PASSED
        return SeatStatus.IN

    def view(self, state: CachoState, seat: int | None) -> CachoView:
        return self.views(state, [seat])[0]

    def views(self, state: CachoState, seats: Sequence[int | None]) -> list[CachoView]:
        """The public view is built once; each seat's differs only in its own cards."""
        public = tuple(self._seat(state, s, s in state.shown) for s in range(state.n))
        betting = state.betting if state.round == 3 else None
        # Built from shared parts (not with ``replace``, much slower): every change builds one
        # per audience, and each audience's view shares every field but its own seat.
        to_act, over, match_over = self.to_act(state), state.result is not None, self.match_over(state)
        level, cap = (betting.level, betting.cap) if betting else (0, 0)
        result = self._result(state)

        def build(you: int | None, seats: tuple[CachoSeat, ...]) -> CachoView:
            return CachoView(hand=state.hand_no, dealer=state.dealer, you=you, to_act=to_act, hand_over=over,
                             match_over=match_over, round=min(state.round, 3), pot=state.pots.total, level=level,
                             cap=cap, seats=seats, result=result)

        out = []
        for seat in seats:
            if seat is None:
                out.append(build(None, public))
            else:
                out.append(build(seat, (*public[:seat], self._seat(state, seat, True), *public[seat + 1:])))
        return out

    def open_view(self, state: CachoState) -> CachoView:
        seats = tuple(self._seat(state, s, True) for s in range(state.n))
        return replace(self.views(state, [None])[0], seats=seats)

    def _seat(self, state: CachoState, s: int, seen: bool) -> CachoSeat:
        hand = state.hands[s]
        return CachoSeat(
            s, state.seats[s].name, state.stacks[s], state.pots.put[s], self._status(state, s),
            tuple(hand) if seen else (), len(hand), worth(hand) if seen and len(hand) == 3 else None,
        )

    def _result(self, state: CachoState) -> CachoResult | None:
        r = state.result
        if r is None:
            return None
        showdown = tuple(CachoShowing(s, cards, worth(cards)) for s, cards in state.shown.items())
        return CachoResult(tuple(r["deltas"][str(s)] for s in range(state.n)), r["winner"], showdown, r["pot"])


GAME = Cacho()
