"""Cacheta (docs/rules.md §2): rummy with wild cards and points, for 2 to 8 players.

Nine cards each; the pack's top card is then turned, the *flip*: the rank above it (K → A)
in both suits of its colour is wild, four cards in all. Melds as in Pif Paf, except that
the ace goes at both ends (A-2-3 and Q-K-A, never K-A-2), groups show at least three suits
and no suit more than twice, and a meld may hold one wild card acting as wild.

A player one card from going out may declare *na boa* (public); it counts from the next
discard on, never for the discard already on the pile. Only a declared player may *cut the
line*: take a discard out of turn and knock. The rules penalise a bad cut rather than
prevent it: a cut that cannot knock burns the player (no more cuts this hand) and the card
goes back. Several cutters: the first after the discarder goes first; if that cut fails,
the next.

Knocking with ten cards costs every opponent 2 points, with nine and a discard 1; points
never go below 0, and at 0 a player is out. The last player left wins. Points are not
chips: a hand's deltas do not sum to zero.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cardtui.engine.cards import Card
from cardtui.engine.core import Action, Event, EventBody, GameOptions, IllegalAction, NotYourTurn, SeatInfo
from cardtui.engine.events import HandEnded, MatchEnded
from cardtui.engine.options import option, values
from cardtui.engine.rummy.base import RummyGame, RummyState, check_claim_ms
from cardtui.engine.rummy.melds import CACHETA, Melder, melder, wild_cards
from cardtui.engine.rummy.records import CachetaPlace, Claiming, Phase, RummyResult, RummyTable, RummyView, Scoring
from cardtui.engine.tournament import victory_points

DECLARE = "declare"
CUT = "cut"


@dataclass(frozen=True, slots=True)
class CachetaOptions(GameOptions):
    start_points: int = option(10, "Points each player starts with (5 for ranked tables).", min=1, max=100)
    claim_ms: int = option(2500, "How long the window to cut the line after every discard stays open, in"
                                 " milliseconds (0: no windows; nobody cuts).", min=0, max=60_000)
    tournament: bool = option(False, "Score the game as a tournament: victory points by place, and game points.")

    def __post_init__(self) -> None:
        check_claim_ms(self.claim_ms)


# -- events ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CachetaFlipped(EventBody):
    flip: Card
    wilds: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CachetaDeclared(EventBody):
    """Na boa: one card from going out; it may cut the line from the next discard on."""

    seat: int


@dataclass(frozen=True, slots=True)
class CachetaBurned(EventBody):
    """Cut for ``card`` and could not knock: no more cuts this hand; the card stays on the pile."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CachetaEliminated(EventBody):
    """No points left: out of the game."""

    seat: int


@dataclass(frozen=True, slots=True)
class CachetaStandings(EventBody):
    places: tuple[CachetaPlace, ...]


# -- state -----------------------------------------------------------------------------------
class CachetaState(RummyState):
    def __init__(self, options: CachetaOptions, seats: Sequence[SeatInfo]) -> None:
        super().__init__(seats, options.start_points, options.claim_ms)
        self.options = options
        self.flip: Card | None = None
        self.wilds: tuple[Card, ...] = ()
        self.declared: dict[int, int] = {}
        """Seat → how many discards the hand had when it declared: it may cut only later ones."""
        self.burned: set[int] = set()
        self.played = [0] * self.n
        """Hands each seat was dealt into (tournament GP)."""
        self.eliminated: dict[int, int] = {}
        """Seat → the hand in which it reached 0 points."""
        self.standings: tuple[CachetaPlace, ...] = ()


TABLE = RummyTable("french104", 9, Scoring.KNOCK, Claiming.DECLARED)
"""Cacheta: two French decks, nine cards each, points lost at a knock, a cut for whoever declared na boa."""


class Cacheta(RummyGame[CachetaState, CachetaOptions]):
    name: ClassVar[str] = "cacheta"
    title: ClassVar[str] = "Cacheta"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    usual_players: ClassVar[int] = 4
    """Four round a table is the usual Cacheta: eight take a long time between one's turns."""
    options_type = CachetaOptions
    claim_type: ClassVar[str] = CUT

    def new_state(self, options: CachetaOptions, seats: Sequence[SeatInfo]) -> CachetaState:
        return CachetaState(options, seats)

    def option_values(self, state: CachetaState) -> dict[str, Any]:
        return values(state.options)

    def table_of(self, options: CachetaOptions) -> RummyTable:
        return TABLE

    def table(self, state: CachetaState) -> RummyTable:
        return TABLE

    def melder(self, state: CachetaState) -> Melder:
        return melder(CACHETA, state.wilds)

    # -- the hand around the rummy play ---------------------------------------------------------
    def next_dealer(self, state: CachetaState) -> int:
        """The deal passes left, to the next player still in."""
        d = state.dealer
        for _ in range(state.n):
            d = (d + 1) % state.n
            if state.stacks[d] > 0:
                return d
        return d

    def prepare(self, state: CachetaState) -> list[Event]:
        state.declared = {}
        state.burned = set()
        state.flip = None
        state.wilds = ()
        return []

    def after_cards(self, state: CachetaState) -> list[Event]:
        """The flip: the pack's top card, turned; it stays out of play (docs/deal.md §10.2 step 3)."""
        for s in state.playing:
            state.played[s] += 1
        flip = state.stock.pop()
        state.flip = flip
        state.wilds = wild_cards(flip)
        return [Event(CachetaFlipped(flip, state.wilds)), *self.start_play(state)]

    def out_of_play(self, state: CachetaState) -> tuple[Card, ...]:
        return () if state.flip is None else (state.flip,)

    # -- na boa and cutting the line --------------------------------------------------------------
    def candidates(self, state: CachetaState, seat: int) -> list[Action]:
        return [*super().candidates(state, seat), Action(DECLARE)]

    def refusal(self, state: CachetaState, seat: int, action: Action) -> IllegalAction | None:
        if action.type != DECLARE:
            return super().refusal(state, seat, action)
        if state.result is not None:
            return NotYourTurn("The hand is over.")
        if seat not in state.live:
            return NotYourTurn("You are not in this hand.")
        if state.phase is Phase.KNOCK:
            return NotYourTurn("{name} took the discard and is knocking: the hand is ending.",
                               name=state.name(state.turn or 0))
        if state.turn != seat and state.phase is not Phase.CLAIM:
            return NotYourTurn("Declare na boa on your own turn or in a claim window.")
        if action.cards or action.amount or action.value:
            return IllegalAction("Declaring na boa names no cards.")
        if seat in state.declared:
            return IllegalAction("You have already declared na boa.")
        hand = state.hands[seat]
        if len(hand) != 9:
            return IllegalAction("Declare na boa holding nine cards: before you draw, or after you discard.")
        if not self.completing(state, seat):
            return IllegalAction("You may declare na boa only when one card would let your nine cards go out.")
        return None

    def perform(self, state: CachetaState, seat: int, action: Action) -> list[Event]:
        if action.type != DECLARE:
            return super().perform(state, seat, action)
        state.hand_log.act(seat, Action(DECLARE))
        state.declared[seat] = state.discards
        return [Event(CachetaDeclared(seat))]

    def claim_refusal(self, state: CachetaState, seat: int) -> str | None:
        """A declared, unburned player may try to cut; whether it knocks is seen when the window resolves."""
        w = state.window
        assert w is not None
        if seat in state.burned:
            return "You are burned: you cannot cut the line again this hand."
        if seat not in state.declared:
            return "Only a player who has declared na boa may cut the line."
        if state.declared[seat] >= w.number:
            return "Your na boa counts from the next discard on, not for the one already on the pile."
        return None

    def claim_failed(self, state: CachetaState, seat: int) -> list[Event]:
        w = state.window
        assert w is not None
        state.burned.add(seat)
        return [Event(CachetaBurned(seat, w.card))]

    # -- the end of a hand -------------------------------------------------------------------
    def settle(self, state: CachetaState, seat: int) -> list[Event]:
        """Every opponent still in loses 2 (ten cards melded) or 1 (nine and a discard), never below 0."""
        knock = state.knock
        assert knock is not None
        loss = 2 if knock.discard is None else 1
        deltas = [0] * state.n
        out_now = []
        for s in state.playing:
            if s != seat:
                lost = min(loss, state.stacks[s])
                state.stacks[s] -= lost
                deltas[s] = -lost
                if state.stacks[s] == 0:
                    state.eliminated[s] = state.hand_no
                    out_now.append(s)
        result = RummyResult(tuple(deltas), seat, knock, tuple(out_now))
        events = [Event(HandEnded(result.deltas, seat)), *(Event(CachetaEliminated(s)) for s in out_now)]
        more: dict[str, Any] = {"flip": str(state.flip)}
        if self.match_over(state):
            state.standings = self.standings(state)
            more["standings"] = [dataclasses.asdict(p) for p in state.standings]
            events += [Event(CachetaStandings(state.standings)), Event(MatchEnded(seat))]
        self.end_hand(state, result, {"eliminated": out_now}, **more)
        return events

    def standings(self, state: CachetaState) -> tuple[CachetaPlace, ...]:
        """Places by elimination (later is better; the same hand ties), with VP and GP as docs/rules.md scores them."""
        def out_at(s: int) -> int:
            return state.eliminated.get(s, 1 << 30)

        rows = []
        for s in range(state.n):
            place = 1 + sum(1 for t in range(state.n) if out_at(t) > out_at(s))
            tied = sum(1 for t in range(state.n) if out_at(t) == out_at(s)) > 1
            vp = victory_points(place, tied)
            gp = state.played[s] + (1 if state.stacks[s] > 0 else 0)
            tour = state.options.tournament
            rows.append(CachetaPlace(s, place, state.stacks[s], vp if tour else None, gp if tour else None))
        return tuple(sorted(rows, key=lambda r: (r.place, r.seat)))

    # -- queries -----------------------------------------------------------------------------
    def match_over(self, state: CachetaState) -> bool:
        return sum(1 for p in state.stacks if p > 0) <= 1

    def view(self, state: CachetaState, seat: int | None) -> RummyView:
        seats = tuple(self.seat_record(state, s, declared=s in state.declared, burned=s in state.burned)
                      for s in range(state.n))
        return self.build_view(state, seat, seats, flip=state.flip, wilds=state.wilds, standings=state.standings)


GAME = Cacheta()
