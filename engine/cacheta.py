"""Cacheta (RULES.md §2): rummy with wild cards and points, for 2 to 8 players.

Nine cards each; the pack's top card is then turned, the *flip*: the rank above it (K → A)
in both suits of its colour is wild, four cards in all. Each meld may hold one wild card
acting as wild. Knocking with ten cards costs every opponent still in 2 points, with nine
and a discard 1. At 0 a player is out; the last one left wins.

A player one card from knocking may declare *na boa* (public). Only a declared player may
*cut the line*: take a discard out of turn and knock. After each discard a claim window
opens to every other player at once (so opening it reveals nothing); a declared, unburned
player may answer ``cut``. The rules penalise a bad cut rather than prevent it: a cut that
cannot knock burns the player (no more cuts this hand) and the card stays on the pile.
Several cutters: the first after the discarder goes first; if that cut fails, the next.

Points are not chips: a hand's ``result.deltas`` are the point changes per seat and do not
sum to zero.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from cardtui.engine.cards import Card
from cardtui.engine.core import (
    EVERYONE,
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    SeatInfo,
    check_seat,
)
from cardtui.engine.history import HandLog, action_of, jsonable, seats_of
from cardtui.engine.melds import CACHETA, Knock, Melder, melder, wild_cards
from cardtui.engine.pifpaf import PASS, Phase, RummyGame, RummyState, RummyView, parse_options

DECLARE = "declare"
CUT = "cut"
VP_BY_PLACE = {1: 5, 2: 3, 3: 2}
VP_TIED = {1: 3, 2: 2, 3: 1}


@dataclass(frozen=True, slots=True)
class CachetaOptions:
    start_points: int = 10
    """Points each player starts with (5 for ranked tables)."""
    claim_ms: int = 2500
    tournament: bool = False
    """Report tournament scoring (VP by place, GP) in the match result."""

    def __post_init__(self) -> None:
        if not 1 <= self.start_points <= 100:
            raise InvalidOptions("Starting points must be between 1 and 100.")
        if not 500 <= self.claim_ms <= 60_000:
            raise InvalidOptions("The claim window must last between 500 and 60000 ms.")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = jsonable(asdict(self))
        return out


class CachetaState(RummyState):
    def __init__(self, options: CachetaOptions, seats: Sequence[SeatInfo]) -> None:
        super().__init__(options, seats, options.start_points)
        self.options: CachetaOptions = options
        self.flip: Card | None = None
        self.wilds: tuple[Card, ...] = ()
        self.declared: set[int] = set()
        self.burned: set[int] = set()
        self.played = [0] * self.n
        """Hands each seat was dealt into (tournament GP)."""
        self.eliminated: dict[int, int] = {}
        """Seat → the hand in which it reached 0 points."""
        self.standings: list[dict[str, Any]] = []
        """Places at the end of the match (and VP/GP with ``tournament``)."""


class Cacheta(RummyGame):
    name: ClassVar[str] = "cacheta"
    title: ClassVar[str] = "Cacheta"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8

    def options(self, raw: Mapping[str, Any]) -> CachetaOptions:
        opts: CachetaOptions = parse_options(CachetaOptions, raw, self.title)
        return opts

    def melder(self, state: RummyState) -> Melder:
        assert isinstance(state, CachetaState)
        return melder(CACHETA, state.wilds)

    def claim_type(self) -> str:
        return CUT

    # -- match and hand flow ------------------------------------------------------------
    def start(self, options: CachetaOptions, seats: Sequence[SeatInfo], seed: int
              ) -> tuple[CachetaState, list[Event]]:
        if not self.min_players <= len(seats) <= self.max_players:
            raise InvalidOptions("Cacheta is played by 2 to 8 players.")
        state = CachetaState(options, seats)
        return state, self._deal_hand(state, seed, 0)

    def next_hand(self, state: CachetaState, seed: int) -> list[Event]:
        if state.hand_no and state.result is None:
            raise IllegalAction("The hand in play is not over yet.")
        if self.match_over(state):
            raise IllegalAction("The game is over: only one player has points left.")
        d = state.dealer
        for _ in range(state.n):  # the deal passes left, to the next player still in
            d = (d + 1) % state.n
            if state.stacks[d] > 0:
                break
        return self._deal_hand(state, seed, d)

    def resume(self, options: CachetaOptions, seats: Sequence[SeatInfo], points: Sequence[int], dealer: int,
               hand_no: int, seed: int) -> tuple[CachetaState, list[Event]]:
        """A hand from a given position (used to replay a hand history)."""
        state = CachetaState(options, seats)
        state.stacks = list(points)
        state.hand_no = hand_no - 1
        return state, self._deal_hand(state, seed, dealer)

    def _deal_hand(self, state: CachetaState, seed: int, dealer: int) -> list[Event]:
        state.hand_no += 1
        state.dealer = dealer
        state.rng = random.Random(seed)
        state.out = set()
        state.result = None
        state.knock = None
        state.window = None
        state.drawn = None
        state.declared = set()
        state.burned = set()
        order = [(dealer + 1 + i) % state.n for i in range(state.n)]
        state.playing = [s for s in order if state.stacks[s] > 0]
        for s in state.playing:
            state.played[s] += 1
        log = HandLog(self.name, state.options.as_dict(), state.hand_no, seed, dealer, state.seats, state.stacks)
        state.log = log
        events = [Event("hand_start", EVERYONE, f"Hand {state.hand_no}: {state.name(dealer)} deals.",
                        data={"hand": state.hand_no, "dealer": dealer})]
        events += self.deal_cards(state, log)
        flip = state.stock.pop()
        state.flip = flip
        state.wilds = wild_cards(flip)
        events.append(Event("flip", EVERYONE, f"The flip is {flip}: {' and '.join(map(str, state.wilds))} are wild.",
                            data={"flip": str(flip), "wilds": [str(w) for w in state.wilds]}))
        return events + self.start_play(state)

    # -- the contract ----------------------------------------------------------------------
    def _may_declare(self, state: CachetaState, seat: int) -> bool:
        hand = state.hands[seat]
        return (seat in state.live and seat not in state.declared and len(hand) == 9
                and bool(self.melder(state).completing(hand)))

    def legal_actions(self, state: CachetaState, seat: int) -> list[Action]:
        if state.result is not None or not 0 <= seat < state.n:
            return []
        acts = self.play_legal(state, seat)
        if self._may_declare(state, seat):
            acts.append(Action(DECLARE))
        return acts

    def may_claim(self, state: RummyState, seat: int) -> bool:
        """A declared, unburned player may try to cut; whether it knocks is seen at the close."""
        assert isinstance(state, CachetaState)
        return state.window is not None and seat in state.declared and seat not in state.burned

    def refuse_claim(self, state: Any, seat: int) -> list[Event]:
        if seat in state.burned:
            raise IllegalAction("You are burned: you cannot cut the line again this hand.")
        raise IllegalAction("Only a player who has declared na boa may cut the line.")

    def default_action(self, state: CachetaState, seat: int) -> Action:
        return self.play_default(state, seat)

    def apply(self, state: CachetaState, seat: int, action: Action) -> list[Event]:
        check_seat(seat, state.n)
        if state.result is not None:
            raise NotYourTurn("The hand is over.")
        if action.type == DECLARE:
            if not self._may_declare(state, seat):
                if seat in state.declared:
                    raise IllegalAction("You have already declared na boa.")
                raise IllegalAction("You may declare na boa only when one card would let your nine cards go out.")
            assert state.log is not None
            state.log.act(seat, action)
            state.declared.add(seat)
            return [Event(DECLARE, EVERYONE, f"{state.name(seat)} is na boa.", seat=seat)]
        if action.type == CUT and state.phase is not Phase.CLAIM:
            raise IllegalAction("There is no discard to cut right now.")
        return self.play_apply(state, seat, action)

    def claim_failed(self, state: RummyState, seat: int) -> list[Event]:
        assert isinstance(state, CachetaState)
        state.burned.add(seat)
        card = state.window.card if state.window else None
        return [Event("burned", EVERYONE, f"{state.name(seat)} cut for {card} but cannot knock: burned.", seat=seat,
                      data={"card": str(card)})]

    def settle(self, state: RummyState, seat: int, knock: Knock) -> list[Event]:
        """Every opponent still in loses 2 (ten cards melded) or 1 (nine and a discard)."""
        assert isinstance(state, CachetaState) and state.log is not None
        loss = 2 if knock.discard is None else 1
        deltas = {str(s): 0 for s in range(state.n)}
        out_now = []
        for s in state.playing:
            if s != seat:
                lost = min(loss, state.stacks[s])
                state.stacks[s] -= lost
                deltas[str(s)] = -lost
                if state.stacks[s] == 0:
                    state.eliminated[s] = state.hand_no
                    out_now.append(s)
        state.result = {"deltas": deltas, "winner": seat, "knock": state.knock, "eliminated": out_now}
        state.phase = Phase.OVER
        events = [Event("hand_end", EVERYONE, f"{state.name(seat)} wins the hand; the others lose {loss}.",
                        seat=seat, data=dict(state.result))]
        for s in out_now:
            events.append(Event("eliminated", EVERYONE, f"{state.name(s)} has no points left and is out.", seat=s))
        more: dict[str, Any] = {"flip": str(state.flip)}
        if self.match_over(state):
            state.standings = self.standings(state)
            more["match"] = {"standings": state.standings}
            events.append(Event("match_end", EVERYONE, f"{state.name(seat)} is the last player left and wins.",
                                seat=seat, data={"standings": state.standings}))
        state.last_history = state.log.record(state.result, **more)
        return events

    def standings(self, state: CachetaState) -> list[dict[str, Any]]:
        """Places by elimination (later is better; the same hand ties), with VP and GP per seed 001."""
        def out_at(s: int) -> int:
            return state.eliminated.get(s, 1 << 30)

        rows = []
        for s in range(state.n):
            place = 1 + sum(1 for t in range(state.n) if out_at(t) > out_at(s))
            tied = sum(1 for t in range(state.n) if out_at(t) == out_at(s)) > 1
            vp = (VP_TIED if tied else VP_BY_PLACE).get(place, 0)
            gp = state.played[s] + (1 if state.stacks[s] > 0 else 0)
            row: dict[str, Any] = {"seat": s, "place": place, "points": state.stacks[s]}
            if state.options.tournament:
                row.update(vp=vp, gp=gp)
            rows.append(row)
        return sorted(rows, key=lambda r: (r["place"], r["seat"]))

    # -- queries -------------------------------------------------------------------------
    def match_over(self, state: Any) -> bool:
        return sum(1 for p in state.stacks if p > 0) <= 1

    def seat_flags(self, state: RummyState, s: int) -> dict[str, bool]:
        assert isinstance(state, CachetaState)
        return {"declared": s in state.declared, "burned": s in state.burned}

    def view(self, state: CachetaState, seat: int | None) -> RummyView:
        return self.base_view(state, seat, flip=str(state.flip) if state.flip else None,
                              wilds=tuple(str(w) for w in state.wilds), standings=tuple(state.standings),
                              group_suits=CACHETA.group.value, ace_high=True)

    def replay(self, record: Mapping[str, Any]) -> CachetaState:
        """Rebuild a hand from its history; the result must match the record's."""
        seats = seats_of(record)
        points = [int(record["start"][str(i)]) for i in range(len(seats))]
        state, _ = self.resume(self.options(record["options"]), seats, points, int(record["dealer"]),
                               int(record["hand"]), int(record["seed"]))
        for entry in record["actions"]:
            self.apply(state, int(entry["seat"]), action_of(entry))
        return state


GAME = Cacheta()
__all__ = ["CUT", "DECLARE", "GAME", "PASS", "Cacheta", "CachetaOptions", "CachetaState"]
