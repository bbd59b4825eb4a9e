"""Pif Paf (docs/rules.md §1): rummy with a betting round, for 3 to 8 players and chips.

Everyone antes (the pingo); a poker-style betting round runs before play, from the dealer's
left: check or bet, call, raise (repique), fold (estou fora). No one's bet in a hand, the
ante not counted, goes past ``max_bet``. All but one fold: that player takes the pot, no
play. Then the rummy hand (see ``engine.rummy.base``): melds are sequences (ace low; Q-K-A with
``ace_high``; never K-A-2) and groups of one rank with exactly three suits (or at least
three with ``group_suits = atleast3``). A discard that completes another player's hand may
be claimed out of turn to knock with it; the claimed card must be in a meld of the knock,
so a hand already complete without it cannot claim. The knocker takes every pot they are
in; a pot they are not in goes to the next live player after them, in turn order, who is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from cardtui.engine.betting import CALL, CHECK, FOLD, BettingRound, Pots
from cardtui.engine.core import (
    Action,
    Event,
    EventBody,
    GameOptions,
    IllegalAction,
    InvalidOptions,
    SeatInfo,
)
from cardtui.engine.events import Acted, HandEnded, MatchEnded
from cardtui.engine.options import option, values
from cardtui.engine.rummy.base import RummyGame, RummyState, check_claim_ms
from cardtui.engine.rummy.melds import GroupRule, Knock, Melder, Ruleset, melder
from cardtui.engine.rummy.records import (
    CLAIM,
    Claiming,
    Phase,
    PifPafBetting,
    RummyResult,
    RummyTable,
    RummyView,
    Scoring,
)

MAX_CHIPS = 10_000
MAX_BET = 1_000
"""Bets are capped so no betting round ever lists more than about a thousand amounts."""


TABLE = RummyTable("french104", 9, Scoring.POT, Claiming.COMPLETES)
"""Pif Paf: two French decks, nine cards each, the pot to whoever goes out, a claim for whoever a discard
completes."""


class DealerRule(StrEnum):
    WINNER = "winner"
    ROTATE = "rotate"


@dataclass(frozen=True, slots=True)
class PifPafOptions(GameOptions):
    chips: int = option(50, "Chips each player starts the session with (the cacife).", min=1, max=MAX_CHIPS)
    ante: int = option(1, "Chips each player antes every hand (the pingo).", min=1, max=100)
    min_bet: int = option(0, "The smallest bet, and the smallest raise; 0: the ante.", min=0, max=MAX_BET)
    max_bet: int = option(0, "The most anyone bets in a hand, the ante not counted; 0: the ante times the players.",
                          min=0, max=MAX_BET)
    group_suits: GroupRule = option(GroupRule.EXACTLY3, "Groups show exactly three suits, or at least three.",
                                   values=(GroupRule.EXACTLY3, GroupRule.ATLEAST3))
    ace_high: bool = option(False, "Q-K-A counts as a sequence as well as A-2-3 (never K-A-2).")
    claim_ms: int = option(2500, "How long the claim window after every discard stays open, in milliseconds"
                                 " (0: no windows; nobody claims out of turn).", min=0, max=60_000)
    dealer: DealerRule = option(DealerRule.WINNER, "Who deals next: the hand's winner, or the next player left.")
    rebuy: bool = option(False, "A player who runs out of chips is restocked at the next hand.")

    def __post_init__(self) -> None:
        check_claim_ms(self.claim_ms)
        if self.ante > self.chips:
            raise InvalidOptions("Starting chips must cover the ante.")
        if self.max_bet and self.max_bet < (self.min_bet or self.ante):
            raise InvalidOptions("The largest bet cannot be smaller than the smallest.")

    @property
    def rules(self) -> Ruleset:
        return Ruleset(self.group_suits, self.ace_high)

    def limits(self, players: int) -> tuple[int, int]:
        """(smallest bet and raise step, the most one may bet in a hand)."""
        lo = self.min_bet or self.ante
        return lo, max(lo, self.max_bet or min(MAX_BET, self.ante * players))


# -- events ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PifPafAntes(EventBody):
    """What each seat anted (0: not in this hand; less than the ante: all it had)."""

    antes: tuple[int, ...]
    pot: int


@dataclass(frozen=True, slots=True)
class PifPafRebought(EventBody):
    seat: int
    chips: int


@dataclass(frozen=True, slots=True)
class PifPafPotWon(EventBody):
    """One pot awarded: the main pot, or a side pot (``side``); ``uncontested``: all the others folded."""

    seat: int
    chips: int
    side: bool
    uncontested: bool


# -- state -----------------------------------------------------------------------------------
class PifPafState(RummyState):
    def __init__(self, options: PifPafOptions, seats: Sequence[SeatInfo]) -> None:
        super().__init__(seats, options.chips, options.claim_ms)
        self.options = options
        self.pots = Pots(self.n)
        self.betting: BettingRound | None = None
        self.rebuys: dict[int, int] = {}
        self.antes: list[int] = [0] * self.n


class PifPaf(RummyGame[PifPafState, PifPafOptions]):
    name: ClassVar[str] = "pifpaf"
    title: ClassVar[str] = "Pif Paf"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 8
    usual_players: ClassVar[int] = 4
    """Four is the usual Pif Paf table: two decks keep a good draw pile, and the pot has callers enough to bet
    on; with eight a round of turns drags."""
    options_type = PifPafOptions
    claim_type: ClassVar[str] = CLAIM

    def new_state(self, options: PifPafOptions, seats: Sequence[SeatInfo]) -> PifPafState:
        return PifPafState(options, seats)

    def option_values(self, state: PifPafState) -> dict[str, Any]:
        return values(state.options)

    def table_of(self, options: PifPafOptions) -> RummyTable:
        return TABLE

    def table(self, state: PifPafState) -> RummyTable:
        return TABLE

    def melder(self, state: PifPafState) -> Melder:
        return melder(state.options.rules)

    # -- the hand around the rummy play ---------------------------------------------------------
    def next_dealer(self, state: PifPafState) -> int:
        """The winner deals next (``dealer = winner``), else the deal passes left to a player with chips."""
        result = state.result
        winner = None if result is None else result.winner
        if state.options.dealer is DealerRule.WINNER and winner is not None and state.stacks[winner] > 0:
            return winner
        d = state.dealer
        for _ in range(state.n):
            d = (d + 1) % state.n
            if state.stacks[d] > 0 or state.options.rebuy:
                return d
        return d

    def prepare(self, state: PifPafState) -> list[Event]:
        state.pots = Pots(state.n)
        state.betting = None
        state.rebuys = {}
        if state.options.rebuy:
            for s in range(state.n):
                if state.stacks[s] <= 0:
                    state.stacks[s] = state.options.chips
                    state.rebuys[s] = state.options.chips
        return [Event(PifPafRebought(s, chips)) for s, chips in state.rebuys.items()]

    def before_cards(self, state: PifPafState) -> list[Event]:
        """The pingo: everyone dealt in antes (all they have, if less)."""
        state.antes = [0] * state.n
        for s in state.playing:
            paid = min(state.options.ante, state.stacks[s])
            state.stacks[s] -= paid
            state.pots.add(s, paid)
            state.antes[s] = paid
        return [Event(PifPafAntes(tuple(state.antes), state.pots.total))]

    def head(self, state: PifPafState) -> dict[str, Any]:
        out: dict[str, Any] = {"antes": {str(s): state.antes[s] for s in state.playing}}
        if state.rebuys:
            out["rebuys"] = {str(s): v for s, v in state.rebuys.items()}
        return out

    def after_cards(self, state: PifPafState) -> list[Event]:
        lo, hi = state.options.limits(state.n)
        state.betting = BettingRound(state.playing, state.stacks, state.pots, hi, min_raise=lo)
        state.phase = Phase.BETTING
        state.turn = state.betting.to_act
        return self._after_bet(state)

    def _after_bet(self, state: PifPafState) -> list[Event]:
        b = state.betting
        assert b is not None
        if not b.done:
            state.turn = b.to_act
            return []
        state.out = set(state.pots.folded)
        live = state.live
        if len(live) == 1:
            return self._pay(state, live[0])
        return self.start_play(state)

    # -- actions -----------------------------------------------------------------------------
    def legal_actions(self, state: PifPafState, seat: int) -> list[Action]:
        if state.phase is Phase.BETTING and state.result is None:
            assert state.betting is not None
            return state.betting.legal(seat)  # each candidate kept by the round's own refusal
        return super().legal_actions(state, seat)

    def refusal(self, state: PifPafState, seat: int, action: Action) -> IllegalAction | None:
        if state.phase is Phase.BETTING and state.result is None:
            assert state.betting is not None
            return state.betting.refusal(seat, action)
        return super().refusal(state, seat, action)

    def perform(self, state: PifPafState, seat: int, action: Action) -> list[Event]:
        if state.phase is not Phase.BETTING:
            return super().perform(state, seat, action)
        b = state.betting
        assert b is not None
        moved = b.act(seat, action)
        if action.type == FOLD:
            # Out of the hand from now on: the views say so at once, so that the players still to answer the
            # round count who is left (the round's end sets the same from the pots).
            state.out.add(seat)
        if action.type == CALL:
            done = Action(CALL, moved)  # what calling moved (all in for less, perhaps)
        elif action.type in (FOLD, CHECK):
            done = Action(action.type)
        else:
            done = Action(action.type, action.amount)
        state.hand_log.act(seat, done)
        return [Event(Acted(seat, done)), *self._after_bet(state)]

    def default_action(self, state: PifPafState, seat: int) -> Action:
        """When the timer runs out: check if possible, else fold; in play, as in every rummy hand."""
        if state.phase is not Phase.BETTING:
            return super().default_action(state, seat)
        legal = self.legal_actions(state, seat)
        for kind in (CHECK, FOLD):
            if Action(kind) in legal:
                return Action(kind)
        raise IllegalAction("There is nothing for this seat to do.")

    def claim_refusal(self, state: PifPafState, seat: int) -> str | None:
        w = state.window
        assert w is not None
        m = self.melder(state)
        hand = state.hands[seat]
        if m.all_melded(hand):
            return f"Your nine cards already meld without {w.card}: a claim must use the claimed card."
        if not m.joins(hand, w.card) or not m.goes_out([*hand, w.card]):
            return f"{w.card} does not complete your hand: you cannot claim it."
        return None

    def may_claim(self, state: PifPafState, seat: int) -> bool:
        """As ``claim_refusal`` finding nothing, the check that needs no search first: most discards meet no two
        cards of a hand that meld with them (``Melder.joins``), and then neither search is made."""
        w = state.window
        assert w is not None
        m = self.melder(state)
        hand = state.hands[seat]
        return m.joins(hand, w.card) and not m.all_melded(hand) and m.goes_out([*hand, w.card])

    def knock_allowed(self, state: PifPafState, knock: Knock) -> bool:
        """A claimant's knock must use the claimed card: it is in a meld, not the discard."""
        return state.claimed is None or knock.discard != state.claimed

    # -- the end of a hand -------------------------------------------------------------------
    def settle(self, state: PifPafState, seat: int) -> list[Event]:
        return self._pay(state, seat)

    def _pay(self, state: PifPafState, winner: int) -> list[Event]:
        """The winner takes every pot they are in; any other goes to the next live seat after them who is in it."""
        ranking = [winner, *(s for s in state.after(winner) if s != winner)]
        put = list(state.pots.put)
        won = [0] * state.n
        events: list[Event] = []
        uncontested = state.knock is None
        for i, pot in enumerate(state.pots.pots()):
            taker = next((s for s in ranking if s in pot.eligible), pot.eligible[0])
            won[taker] += pot.amount
            events.append(Event(PifPafPotWon(taker, pot.amount, i > 0, uncontested)))
        for s in range(state.n):
            state.stacks[s] += won[s]
        deltas = tuple(won[s] - put[s] for s in range(state.n))
        result = RummyResult(deltas, winner, state.knock, ())
        self.end_hand(state, result, {"pot": sum(put), "won": {str(s): won[s] for s in range(state.n) if won[s]}})
        events.append(Event(HandEnded(deltas, winner)))
        if self.match_over(state):
            champ = max(range(state.n), key=lambda s: state.stacks[s])
            events.append(Event(MatchEnded(champ)))
        return events

    # -- queries -----------------------------------------------------------------------------
    def match_over(self, state: PifPafState) -> bool:
        """Over when one player holds every chip (never with rebuys: the table closes it)."""
        return not state.options.rebuy and sum(1 for c in state.stacks if c > 0) <= 1

    def view(self, state: PifPafState, seat: int | None) -> RummyView:
        b = state.betting if state.phase is Phase.BETTING else None
        betting = PifPafBetting(b.level, b.cap, b.min_raise) if b is not None else None
        seats = tuple(self.seat_record(state, s, put=state.pots.put[s]) for s in range(state.n))
        return self.build_view(state, seat, seats, pot=state.pots.total, betting=betting)


GAME = PifPaf()
