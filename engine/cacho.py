"""Cacho (RULES.md §5): three cards, three rounds of betting, sixes high, aces low.

Round 1: one card each; in turn pass (out, loses nothing) or bet 1. All pass: redeal.
Round 2: a second card; pass (out, loses the 1) or bet 2 more. All pass: all stay.
Round 3: a third card; poker-style betting capped at the smallest stack still in (resto).
Showdown: three sixes, then cacho (three suited, sum + 20), then two suited (the pair + 20),
then the highest card; equal hands go to the eldest (nearest the dealer's left).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from cardtui.engine.betting import CHECK, FOLD, BettingRound, Pots
from cardtui.engine.cards import Card, french_deck, shuffled
from cardtui.engine.core import (
    EVERYONE,
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    SeatInfo,
    check_seat,
    only,
)
from cardtui.engine.history import HandLog, action_of, seats_of

PASS = "pass"
BET = "bet"
DECK = tuple(french_deck(ranks=range(1, 7)))


@dataclass(frozen=True, slots=True)
class CachoOptions:
    chips: int = 20
    """Chips each player starts a match with."""

    def __post_init__(self) -> None:
        if not 3 <= self.chips <= 100_000:
            raise InvalidOptions("Starting chips must be between 3 and 100000.")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- hand strength ------------------------------------------------------------------
SIXES, CACHO, FLUSH2, HIGH = 3, 2, 1, 0
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


# -- views --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    chips: int
    put: int
    status: str  # "in", "out" (passed/folded), "waiting" (no chips), "bust"
    cards: tuple[str | None, ...]  # None: a card face down


@dataclass(frozen=True, slots=True)
class CachoView:
    game: str
    hand: int
    dealer: int
    round: int
    pot: int
    level: int
    cap: int
    to_act: int | None
    you: int | None
    seats: tuple[SeatView, ...]
    hand_over: bool
    match_over: bool
    result: Mapping[str, Any] | None


# -- state --------------------------------------------------------------------------
class CachoState:
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
        self.betting: BettingRound | None = None
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.result: dict[str, Any] | None = None
        self.log: HandLog | None = None
        self.last_history: dict[str, Any] | None = None

    @property
    def in_hand(self) -> list[int]:
        return [s for s in self.playing if s not in self.pots.folded]

    def name(self, seat: int) -> str:
        return self.seats[seat].name


class Cacho:
    name: ClassVar[str] = "cacho"
    title: ClassVar[str] = "Cacho"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def options(self, raw: Mapping[str, Any]) -> CachoOptions:
        unknown = set(raw) - {"chips"}
        if unknown:
            raise InvalidOptions(f"Cacho has no option {sorted(unknown)[0]!r}.")
        try:
            return CachoOptions(**{k: int(v) for k, v in raw.items()})
        except (TypeError, ValueError) as e:
            if isinstance(e, InvalidOptions):
                raise
            raise InvalidOptions("Cacho's options are whole numbers.") from None

    # -- match and hand flow ------------------------------------------------------
    def start(
        self, options: CachoOptions, seats: Sequence[SeatInfo], seed: int
    ) -> tuple[CachoState, list[Event]]:
        if not self.min_players <= len(seats) <= self.max_players:
            raise InvalidOptions("Cacho is played by 2 to 4 players.")
        state = CachoState(options, seats)
        return state, self.next_hand(state, seed)

    def next_hand(self, state: CachoState, seed: int) -> list[Event]:
        if state.round and state.result is None:
            raise IllegalAction("The hand in play is not over yet.")
        if sum(1 for c in state.stacks if c > 0) <= 1:
            raise IllegalAction("The match is over: one player holds every chip.")
        return self._deal_hand(state, seed, self._next_dealer(state))

    def resume(
        self, options: CachoOptions, seats: Sequence[SeatInfo], stacks: Sequence[int],
        dealer: int, hand_no: int, seed: int,
    ) -> tuple[CachoState, list[Event]]:
        """A hand from a given position (used to replay a hand history)."""
        state = CachoState(options, seats)
        state.stacks = list(stacks)
        state.hand_no = hand_no - 1
        return state, self._deal_hand(state, seed, dealer)

    def _next_dealer(self, state: CachoState) -> int:
        d = state.dealer
        for _ in range(state.n):
            d = (d + 1) % state.n
            if state.stacks[d] > 0:
                return d
        return d

    def _deal_hand(self, state: CachoState, seed: int, dealer: int) -> list[Event]:
        state.hand_no += 1
        state.dealer = dealer
        state.rng = random.Random(seed)
        state.pots = Pots(state.n)
        state.shown = {}
        state.result = None
        state.betting = None
        state.playing = [
            s for s in self._eldest_order(state) if state.stacks[s] > 0
        ]
        state.log = HandLog(
            self.name, state.options.as_dict(), state.hand_no, seed, dealer, state.seats, state.stacks
        )
        events = [
            Event(
                "hand_start",
                EVERYONE,
                f"Hand {state.hand_no}: {state.name(dealer)} deals.",
                data={"hand": state.hand_no, "dealer": dealer},
            )
        ]
        return events + self._round_one(state)

    def _eldest_order(self, state: CachoState) -> list[int]:
        return [(state.dealer + 1 + i) % state.n for i in range(state.n)]

    def _round_one(self, state: CachoState) -> list[Event]:
        state.deck = shuffled(DECK, state.rng)
        state.hands = [[] for _ in state.seats]
        state.round = 1
        state.pending = list(state.playing)
        state.bettors = []
        return self._deal_card(state, state.playing)

    def _deal_card(self, state: CachoState, seats: Sequence[int]) -> list[Event]:
        events = [
            Event(
                "deal",
                EVERYONE,
                f"Round {state.round}: a card to each of {len(seats)} players.",
                data={"round": state.round, "seats": list(seats)},
            )
        ]
        for s in seats:
            card = state.deck.pop()
            state.hands[s].append(card)
            assert state.log is not None
            state.log.dealt(s, card)
            events.append(
                Event("card", only(s), f"You receive {card}.", seat=s, data={"card": str(card)})
            )
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
        if seat != self._turn(state):
            if state.result is not None:
                raise NotYourTurn("The hand is over.")
            raise NotYourTurn(f"It is {state.name(self._turn(state) or 0)}'s turn, not yours.")
        if state.round < 3:
            events = self._early(state, seat, action)
        else:
            events = self._late(state, seat, action)
        return events

    def _early(self, state: CachoState, seat: int, action: Action) -> list[Event]:
        """Rounds 1 and 2: pass or bet the fixed amount; no raises."""
        legal = self.legal_actions(state, seat)
        if action not in legal:
            raise IllegalAction(
                f"In round {state.round} you may pass or bet {legal[1].amount}, nothing else."
            )
        assert state.log is not None
        state.log.act(seat, action)
        state.pending.pop(0)
        if action.type == BET:
            state.stacks[seat] -= action.amount
            state.pots.add(seat, action.amount)
            state.bettors.append(seat)
            name = state.name(seat)
            text = f"{name} bets {action.amount}." if action.amount else f"{name} stays in, all in."
        else:
            text = f"{state.name(seat)} passes."
        events = [Event("action", EVERYONE, text, seat=seat, data=_act_data(action))]
        if state.pending:
            return events
        return events + self._end_early_round(state)

    def _end_early_round(self, state: CachoState) -> list[Event]:
        if state.round == 1:
            if not state.bettors:
                state.round = 1
                events = [Event("redeal", EVERYONE, "Everyone passed: the cards are dealt again.")]
                return events + self._round_one(state)
            # Passers in round 1 are out of the hand and lose nothing.
            for s in state.playing:
                if s not in state.bettors:
                    state.pots.folded.add(s)
        else:
            if state.bettors:
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
        cap = min(state.stacks[s] for s in live)
        state.betting = BettingRound(live, state.stacks, state.pots, cap)
        if state.betting.done:  # nobody can bet: straight to the showdown
            return self._finish(state, live, showdown=True)
        return []

    def _late(self, state: CachoState, seat: int, action: Action) -> list[Event]:
        assert state.betting is not None and state.log is not None
        before = state.betting.level
        moved = state.betting.act(seat, action)
        state.log.act(seat, action)
        name = state.name(seat)
        text = {
            FOLD: f"{name} passes and is out.",
            CHECK: f"{name} checks.",
        }.get(action.type, "")
        if not text:
            if action.type == "call":
                text = f"{name} calls {moved}."
            else:
                verb = "bets" if before == 0 else "raises to"
                text = f"{name} {verb} {action.amount}."
        events = [Event("action", EVERYONE, text, seat=seat, data=_act_data(action))]
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
                events.append(
                    Event(
                        "show",
                        EVERYONE,
                        f"{state.name(s)} shows {' '.join(map(str, state.hands[s]))}: "
                        f"{describe(state.hands[s])}.",
                        seat=s,
                        data={"cards": [str(c) for c in state.hands[s]]},
                    )
                )
        else:
            ranking = list(live)
        put = state.pots.put
        won = state.pots.award(ranking)
        for s in range(state.n):
            state.stacks[s] += won[s]
        deltas = {str(s): won[s] - put[s] for s in range(state.n)}
        winner = ranking[0]
        state.result = {
            "deltas": deltas,
            "winner": winner,
            "showdown": {str(s): [str(c) for c in cs] for s, cs in state.shown.items()},
            "pot": sum(put),
        }
        state.round = 4
        how = "at the showdown" if showdown else "unseen"
        events.append(
            Event(
                "hand_end",
                EVERYONE,
                f"{state.name(winner)} wins {sum(won)} {how}.",
                seat=winner,
                data=dict(state.result),
            )
        )
        state.last_history = state.log.record(state.result)
        if self.match_over(state):
            champ = max(range(state.n), key=lambda s: state.stacks[s])
            events.append(
                Event("match_end", EVERYONE, f"{state.name(champ)} holds every chip and wins the match.",
                      seat=champ)
            )
        return events

    # -- queries ------------------------------------------------------------------
    def timeout_ms(self, state: CachoState) -> int | None:
        return None

    def hand_over(self, state: CachoState) -> bool:
        return state.result is not None

    def match_over(self, state: CachoState) -> bool:
        return state.result is not None and sum(1 for c in state.stacks if c > 0) <= 1

    def history(self, state: CachoState) -> dict[str, Any] | None:
        return state.last_history

    def view(self, state: CachoState, seat: int | None) -> CachoView:
        seats = []
        for s in range(state.n):
            cards: tuple[str | None, ...]
            if s == seat or s in state.shown:
                cards = tuple(str(c) for c in state.hands[s])
            else:
                cards = tuple(None for _ in state.hands[s])
            if s not in state.playing:
                status = "bust" if state.stacks[s] == 0 else "waiting"
            elif s in state.pots.folded:
                status = "out"
            else:
                status = "in"
            seats.append(SeatView(s, state.name(s), state.stacks[s], state.pots.put[s], status, cards))
        betting = state.betting if state.round == 3 else None
        return CachoView(
            game=self.name,
            hand=state.hand_no,
            dealer=state.dealer,
            round=min(state.round, 3),
            pot=state.pots.total,
            level=betting.level if betting else 0,
            cap=betting.cap if betting else 0,
            to_act=self._turn(state),
            you=seat,
            seats=tuple(seats),
            hand_over=state.result is not None,
            match_over=self.match_over(state),
            result=state.result,
        )

    def replay(self, record: Mapping[str, Any]) -> CachoState:
        """Rebuild a hand from its history; the result must match the record's."""
        seats = seats_of(record)
        stacks = [int(record["start"][str(i)]) for i in range(len(seats))]
        state, _ = self.resume(
            self.options(record["options"]), seats, stacks, int(record["dealer"]),
            int(record["hand"]), int(record["seed"]),
        )
        for entry in record["actions"]:
            self.apply(state, int(entry["seat"]), action_of(entry))
        return state


def _act_data(action: Action) -> dict[str, Any]:
    return {"type": action.type, "amount": action.amount}


GAME = Cacho()
