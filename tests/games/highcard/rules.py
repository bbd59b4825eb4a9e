"""High card's rules: an ante, a card each, one betting round, the best card wins (see the package's docstring).

Cacho's parts do the rest: its match state (chips that carry over hands, the pots), its deal from the end of a
shuffled pack with the round's event, its betting round's bookkeeping and its showdown (one card's strength is
its rank, a tie the eldest's). Cacho's rules are compiled where the build is (``cardtui.native``), and a class of
plain Python cannot extend a compiled one: so this game uses them rather than extending them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from cardtui.engine.betting import CHECK, FOLD, BettingRound, Pots
from cardtui.engine.cacho import rules as cacho
from cardtui.engine.cacho.rules import DECK, CachoOptions, CachoState, CachoView
from cardtui.engine.cards import shuffled
from cardtui.engine.core import Action, Event, Game, IllegalAction, JsonObject, NotYourTurn, SeatInfo, check_seat
from cardtui.engine.events import HandStarted
from cardtui.engine.fairness import Seed, hand_rng
from cardtui.engine.history import HandLog
from cardtui.engine.options import values
from tests.games.highcard import NAME, PACK_NAME

ANTE = 1
CACHO = cacho.GAME
"""Whose parts this game plays with."""


class HighCard(Game[CachoState, CachoOptions, CachoView]):
    family_name: ClassVar[str] = "cacho"
    name: ClassVar[str] = NAME
    pack_name: ClassVar[str] = PACK_NAME
    title: ClassVar[str] = "High card"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    usual_players: ClassVar[int] = 3
    options_type = CachoOptions

    def new_state(self, options: CachoOptions, seats: Sequence[SeatInfo]) -> CachoState:
        return CachoState(options, seats)

    def set_start(self, state: CachoState, start: Sequence[int]) -> None:
        state.stacks = list(start)

    def next_dealer(self, state: CachoState) -> int:
        return CACHO.next_dealer(state)  # left, to the next player with chips

    def deal(self, state: CachoState, seed: Seed, dealer: int) -> list[Event]:
        """Everyone with chips antes, then a card each from the dealer's left (docs/deal.md §10.1, as Cacho's
        first round), and the betting opens."""
        state.hand_no += 1
        state.dealer, state.rng, state.pots = dealer, hand_rng(seed), Pots(state.n)
        state.shown, state.result, state.round = {}, None, 1
        state.playing = [s for s in ((dealer + 1 + i) % state.n for i in range(state.n)) if state.stacks[s] > 0]
        state.log = HandLog(self.name, values(state.options), state.hand_no, seed, dealer, state.seats, state.stacks)
        for s in state.playing:
            state.stacks[s] -= ANTE
            state.pots.add(s, ANTE)
        state.deck = shuffled(DECK, state.rng)
        state.hands = [[] for _ in state.seats]
        events = [Event(HandStarted(state.hand_no, dealer)), *CACHO._deal_card(state, state.playing)]
        state.betting = BettingRound(state.playing, state.stacks, state.pots, resto=True)
        if state.betting.done:  # nobody has a chip left to bet: straight to the showdown
            events += CACHO._finish(state, state.playing, showdown=True)
        return events

    def to_act(self, state: CachoState) -> tuple[int, ...]:
        seat = state.betting.to_act if state.betting is not None and state.result is None else None
        return () if seat is None else (seat,)

    def legal_actions(self, state: CachoState, seat: int) -> list[Action]:
        return state.betting.legal(seat) if seat in self.to_act(state) and state.betting is not None else []

    def default_action(self, state: CachoState, seat: int) -> Action:
        legal = {a.type: a for a in self.legal_actions(state, seat)}
        if not legal:
            raise IllegalAction("There is nothing for this seat to do.")
        return legal.get(CHECK) or legal[FOLD]

    def apply(self, state: CachoState, seat: int, action: Action) -> list[Event]:
        """Cacho's last round's betting, to its showdown: the best card wins."""
        check_seat(seat, state.n)
        if seat not in self.to_act(state):
            raise NotYourTurn("The hand is over." if state.result is not None else "It is not your turn.")
        return CACHO._late(state, seat, action)

    def view(self, state: CachoState, seat: int | None) -> CachoView:
        return self.views(state, [seat])[0]

    def views(self, state: CachoState, seats: Sequence[int | None]) -> list[CachoView]:
        return [self._round(state, v) for v in CACHO.views(state, seats)]

    def open_view(self, state: CachoState) -> CachoView:
        return self._round(state, CACHO.open_view(state))

    def _round(self, state: CachoState, view: CachoView) -> CachoView:
        """Cacho's view of the one round there is: who is waited on, and its betting's level and limit."""
        betting = state.betting if state.result is None else None
        return replace(view, round=1, to_act=self.to_act(state), level=betting.level if betting else 0,
                       cap=betting.cap if betting else 0)

    def hand_over(self, state: CachoState) -> bool:
        return state.result is not None

    def match_over(self, state: CachoState) -> bool:
        return CACHO.match_over(state)

    def history(self, state: CachoState) -> JsonObject | None:
        return state.log.history() if state.log is not None else None

    def scores(self, state: CachoState) -> tuple[int, ...]:
        return tuple(state.stacks)


GAME = HighCard()
