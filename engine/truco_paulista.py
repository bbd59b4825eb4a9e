"""Truco paulista-style (RULES.md §3, seed 000): four players in two facing pairs, to 12.

Seats are numbered counter-clockwise, so the player to a seat's right is ``seat + 1``
(``engine.tricks``). The dealer gives three cards to the mão (``dealer + 1``), who keeps
them, passes them to the partner (then gets three more to keep or reject), or rejects
them face up (at most three times); then the dealer's partner, the mão's partner and the
dealer are dealt in turn. The mão leads; play goes to the right.

On their turn, before playing, a player may call truco (3); either opponent answers
first-come: run (the callers score the stake before the call), accept, or raise (6, 9,
12), never past what the raiser's team needs to win. With ``truco_decides = trick`` an
accepted truco makes the trick in play decide the hand (a tie there falls back to the
usual tie rules); with ``hand`` the accepting team may raise again on a later turn.
Mão de onze: one team on 11 sees both its hands, then runs (opponents +1) or plays for 3,
with no truco. Mão de ferro: both on 11, cards dealt unseen and played blind.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cardtui.engine.cards import Card, shuffled
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
from cardtui.engine.history import action_of, seats_of
from cardtui.engine.paulista_rules import (
    ACCEPT,
    CALL_OF,
    CALLS,
    DECK,
    KEEP,
    LABELS,
    PASS_CARDS,
    PLAY,
    PLAY_BLIND,
    PLAY_DOWN,
    RANK,
    REJECT,
    RUN,
    TARGET,
    VALUE_OF,
    PaulistaOptions,
    PaulistaView,
    TrucoDecides,
    build_view,
    next_stake,
    previous_stake,
    read_options,
    refusal,
)
from cardtui.engine.signals import SIGNAL, SIGNAL_ACTIONS, Signal, send
from cardtui.engine.tricks import (
    DOWN,
    HandRecord,
    TieRule,
    hand_winner,
    note,
    notes,
    scores_by_seat,
    seat_deltas,
    team_points,
    team_scores,
    trick_record,
    trick_winner,
)

__all__ = ["GAME", "LABELS", "PaulistaOptions", "PaulistaState", "PaulistaView", "TrucoPaulista"]

DEAL, ONZE, PLAY_PHASE, OVER = "deal", "onze", "play", "over"


class PaulistaState:
    """One match; the hand in play is dealt from a deck shuffled by ``rng``."""

    def __init__(self, options: PaulistaOptions, seats: Sequence[SeatInfo]) -> None:
        self.options = options
        self.options_dict = options.as_dict()
        self.seats = tuple(SeatInfo(s.seat, s.name, s.seat & 1) for s in seats)
        self.names = tuple(s.name for s in seats)
        self.scores = [0, 0]
        self.hand_no = 0
        self.dealer = 3
        self.rng = random.Random(0)
        self.deck: list[Card] = []
        self.hands: list[list[Card]] = [[], [], [], []]
        self.phase = OVER
        self.passed = False
        self.rejects = 0
        self.rejected: list[Card] = []
        self.onze = -1  # the team on 11 in a mão de onze
        self.ferro = False
        self.trick: list[tuple[int, Card, bool]] = []  # (seat, card, face down)
        self.to_play: list[int] = []
        self.results: list[int | None] = []
        self.trick_plays: list[tuple[list[tuple[int, Card | None]], int | None]] = []
        self.stake = 1
        self.pending = -1  # the team whose call awaits an answer
        self.proposed = 0
        self.owner = -1  # the team that may raise next; -1: either
        self.decides_from = -1  # truco_decides=trick: the trick that decides the hand
        self.signals: list[tuple[int, str, frozenset[int]]] = []
        self.result: dict[str, Any] | None = None
        self.log: HandRecord | None = None
        self.finished: tuple[HandRecord, dict[str, Any]] | None = None
        self.last_history: dict[str, Any] | None = None

    @property
    def mao(self) -> int:
        return (self.dealer + 1) % 4


class TrucoPaulista:
    name: ClassVar[str] = "truco_paulista"
    teams: ClassVar[bool] = True
    title: ClassVar[str] = "Truco paulista"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4

    def options(self, raw: Mapping[str, Any]) -> PaulistaOptions:
        return read_options(raw)

    # -- match and hand flow ------------------------------------------------------
    def start(
        self, options: PaulistaOptions, seats: Sequence[SeatInfo], seed: int
    ) -> tuple[PaulistaState, list[Event]]:
        if len(seats) != 4:
            raise InvalidOptions("Truco paulista is played by 4 players in two pairs.")
        state = PaulistaState(options, seats)
        return state, self.next_hand(state, seed)

    def next_hand(self, st: PaulistaState, seed: int) -> list[Event]:
        if st.hand_no and st.result is None:
            raise IllegalAction("The hand in play is not over yet.")
        if self.match_over(st):
            raise IllegalAction("The match is over.")
        return self._deal(st, seed, (st.dealer + 1) % 4)

    def resume(
        self,
        options: PaulistaOptions,
        seats: Sequence[SeatInfo],
        scores: Sequence[int],
        dealer: int,
        hand_no: int,
        seed: int,
    ) -> tuple[PaulistaState, list[Event]]:
        """A hand from a given position (used to replay a hand history)."""
        st = PaulistaState(options, seats)
        st.scores = list(scores)
        st.hand_no = hand_no - 1
        return st, self._deal(st, seed, dealer)

    def _deal(self, st: PaulistaState, seed: int, dealer: int) -> list[Event]:
        st.hand_no += 1
        st.dealer = dealer
        st.rng = random.Random(seed)
        st.deck = shuffled(DECK, st.rng)
        st.hands = [[], [], [], []]
        st.passed, st.rejects, st.rejected = False, 0, []
        st.trick, st.results, st.trick_plays, st.signals = [], [], [], []
        st.stake, st.pending, st.proposed, st.owner, st.decides_from = 1, -1, 0, -1, -1
        st.result = None
        on11 = [t for t in (0, 1) if st.scores[t] == TARGET - 1]
        st.ferro = len(on11) == 2
        st.onze = on11[0] if len(on11) == 1 else -1
        st.log = HandRecord(
            self.name, st.options_dict, st.hand_no, seed, dealer, st.seats, scores_by_seat(st.scores, 4)
        )
        mao = st.mao
        what = " (mão de ferro)" if st.ferro else " (mão de onze)" if st.onze >= 0 else ""
        events = [
            Event(
                "hand_start",
                EVERYONE,
                f"Hand {st.hand_no}: {st.names[dealer]} deals{what}.",
                dealer,
                {"hand": st.hand_no, "dealer": dealer, "onze": st.onze, "ferro": st.ferro},
            )
        ]
        if st.ferro or st.onze >= 0:
            for i in range(4):
                events += self._give(st, (mao + i) % 4, show=not st.ferro)
            if st.ferro:
                return events + self._begin_play(st)
            st.phase = ONZE
            team = [s for s in range(4) if s & 1 == st.onze]
            for s in team:
                for p in team:
                    if p != s:
                        events.append(
                            Event(
                                "partner",
                                only(s),
                                f"{st.names[p]} holds {' '.join(notes(st.hands[p]))}.",
                                p,
                                {"cards": notes(st.hands[p])},
                            )
                        )
            return events
        st.phase = DEAL
        return events + self._give(st, mao, show=True)

    def _give(self, st: PaulistaState, seat: int, show: bool, cards: list[Card] | None = None) -> list[Event]:
        """Three cards to ``seat``, from the deck unless given; only the holder is told (if anyone)."""
        if cards is None:
            cards, st.deck = st.deck[:3], st.deck[3:]
        st.hands[seat] = list(cards)
        assert st.log is not None
        st.log.dealt(seat, *cards)
        if not show:
            return [Event("deal", EVERYONE, f"{st.names[seat]} is dealt three cards face down.", seat)]
        return [Event("cards", only(seat), f"You receive {' '.join(notes(cards))}.", seat, {"cards": notes(cards)})]

    def _begin_play(self, st: PaulistaState) -> list[Event]:
        st.phase = PLAY_PHASE
        st.to_play = [(st.mao + i) % 4 for i in range(4)]
        return []

    # -- what may be done ---------------------------------------------------------
    def to_act(self, st: PaulistaState) -> tuple[int, ...]:
        """The seats the hand waits for: the mão's deal choice, the team on 11, answerers, or the player."""
        if st.result is not None:
            return ()
        if st.phase == DEAL:
            return (st.mao,)
        if st.phase == ONZE:
            return tuple(s for s in range(4) if s & 1 == st.onze)
        if st.pending >= 0:
            return tuple(s for s in range(4) if s & 1 != st.pending)
        return (st.to_play[0],)

    def _may_raise(self, st: PaulistaState, team: int, value: int) -> bool:
        """A raise from ``value`` is allowed unless ``value`` already wins the game for ``team``."""
        return value < TARGET and st.scores[team] + value < TARGET

    def legal_actions(self, st: PaulistaState, seat: int) -> list[Action]:
        if st.result is not None:
            return []
        signals = list(SIGNAL_ACTIONS) if st.hands[seat] else []
        team = seat & 1
        if st.phase == DEAL:
            if seat != st.mao:
                return signals
            out = [KEEP]
            if not st.passed:
                out.append(PASS_CARDS)
            if st.rejects < 3:
                out.append(REJECT)
            return out + signals
        if st.phase == ONZE:
            return [ACCEPT, RUN, *signals] if team == st.onze else signals
        if st.pending >= 0:
            if team == st.pending:
                return signals
            out = [ACCEPT, RUN]
            if self._may_raise(st, team, st.proposed):
                out.append(CALLS[next_stake(st.proposed)])
            return out + signals
        if seat != st.to_play[0]:
            return signals
        hand = st.hands[seat]
        if st.ferro:
            return [PLAY_BLIND[i] for i in range(1, len(hand) + 1)] + signals
        out = [PLAY[c] for c in hand]
        if st.results:
            out += [PLAY_DOWN[c] for c in hand]
        if self._may_call(st, team):
            out.append(CALLS[next_stake(st.stake)])
        return out + signals

    def _may_call(self, st: PaulistaState, team: int) -> bool:
        if st.onze >= 0 or st.ferro or not self._may_raise(st, team, st.stake):
            return False
        if st.stake == 1:
            return True
        return st.options.truco_decides is TrucoDecides.HAND and st.owner == team

    def default_action(self, st: PaulistaState, seat: int) -> Action:
        """On timeout: keep the cards, run from a call, or play the lowest card."""
        legal = self.legal_actions(st, seat)
        for a in (KEEP, RUN):
            if a in legal:
                return a
        plays = [a for a in legal if a.type == "play"]
        if plays:
            return min(plays, key=lambda a: RANK[a.cards[0]])
        blind = [a for a in legal if a.type == "play_blind"]
        if blind:
            return blind[0]
        raise IllegalAction("There is nothing for this seat to do now.")

    def timeout_ms(self, st: PaulistaState) -> int | None:
        return None

    # -- doing it -----------------------------------------------------------------
    def apply(self, st: PaulistaState, seat: int, action: Action) -> list[Event]:
        check_seat(seat, 4)
        if st.result is not None:
            raise NotYourTurn("The hand is over.")
        if action.type == "play_blind" and action.cards:  # a history names the card it turned up
            action = Action("play_blind", amount=action.amount)
        if action not in self.legal_actions(st, seat):
            raise refusal(st, seat, action)
        log = st.log
        assert log is not None
        t = action.type
        name = st.names[seat]
        if t == SIGNAL:
            log.act(seat, action)
            who, event = send(st.rng, seat, 4, Signal(action.value), st.options.signals_seen, name)
            st.signals.append((seat, action.value, who))
            return [event]
        if t == "play_blind":
            card = st.hands[seat][action.amount - 1]
            log.act(seat, action, {"cards": [note(card)]})
            return self._play(st, seat, card, down=False)
        log.act(seat, action, {"moved": notes(st.hands[seat])} if t in ("pass_cards", "reject") else None)
        if t in ("play", "play_down"):
            return self._play(st, seat, action.cards[0], down=t == "play_down")
        if st.phase == DEAL:
            return self._deal_choice(st, seat, t)
        if st.phase == ONZE:
            if t == "run":
                events = [Event("answer", EVERYONE, f"{name}: corro. The mão de onze is not played.", seat)]
                return events + self._end_hand(st, 1 - st.onze, 1, "a refused mão de onze")
            st.stake = 3
            events = [Event("answer", EVERYONE, f"{name}: the mão de onze is played for 3.", seat)]
            return events + self._begin_play(st)
        if t in VALUE_OF:
            return self._call(st, seat, VALUE_OF[t])
        return self._answer(st, seat, t == "accept")

    def _deal_choice(self, st: PaulistaState, seat: int, t: str) -> list[Event]:
        name, partner = st.names[seat], (seat + 2) % 4
        if t == "keep":
            events = [Event("deal_choice", EVERYONE, f"{name} keeps the cards.", seat, {"choice": t})]
            for s in ((seat + 1) % 4, partner, (seat + 3) % 4):
                if not st.hands[s]:
                    events += self._give(st, s, show=True)
            return events + self._begin_play(st)
        if t == "pass_cards":
            st.passed = True
            cards = st.hands[seat]
            events = [
                Event(
                    "deal_choice",
                    EVERYONE,
                    f"{name} passes the cards to {st.names[partner]}.",
                    seat,
                    {"choice": t},
                )
            ]
            events += self._give(st, partner, show=True, cards=cards)
            return events + self._give(st, seat, show=True)
        st.rejects += 1
        st.rejected += st.hands[seat]
        shown = notes(st.hands[seat])
        events = [
            Event(
                "deal_choice",
                EVERYONE,
                f"{name} rejects {' '.join(shown)}.",
                seat,
                {"choice": t, "cards": shown},
            )
        ]
        return events + self._give(st, seat, show=True)

    def _call(self, st: PaulistaState, seat: int, value: int) -> list[Event]:
        if st.pending >= 0:  # raising answers the call by accepting it
            st.stake = st.proposed
        st.pending, st.proposed = seat & 1, value
        return [Event("call", EVERYONE, f"{st.names[seat]}: {LABELS[CALL_OF[value]]}", seat, {"value": value})]

    def _answer(self, st: PaulistaState, seat: int, yes: bool) -> list[Event]:
        caller, value = st.pending, st.proposed
        st.pending = -1
        if not yes:
            events = [Event("answer", EVERYONE, f"{st.names[seat]}: corro.", seat, {"accept": False})]
            return events + self._end_hand(st, caller, previous_stake(value), "a refused truco")
        st.stake, st.owner = value, seat & 1
        if st.options.truco_decides is TrucoDecides.TRICK:
            st.decides_from = len(st.results)
        return [Event("answer", EVERYONE, f"{st.names[seat]}: aceito, for {value}.", seat, {"accept": True})]

    def _play(self, st: PaulistaState, seat: int, card: Card, down: bool) -> list[Event]:
        st.hands[seat].remove(card)
        st.trick.append((seat, card, down))
        st.to_play.pop(0)
        if down:
            event = Event("play", EVERYONE, f"{st.names[seat]} plays a card face down.", seat, {"card": "down"})
        else:
            event = Event("play", EVERYONE, f"{st.names[seat]} plays {card}.", seat, {"card": note(card)})
        if st.to_play:
            return [event]
        return [event, *self._end_trick(st)]

    def _end_trick(self, st: PaulistaState) -> list[Event]:
        plays = st.trick
        winner, first_best = trick_winner([(s, DOWN if d else RANK[c]) for s, c, d in plays])
        team = None if winner is None else winner & 1
        st.results.append(team)
        st.trick_plays.append(([(s, None if d else c) for s, c, d in plays], winner))
        leader = first_best if first_best is not None else plays[0][0]
        st.trick = []
        text = "The trick is tied." if winner is None else f"{st.names[winner]} takes the trick."
        events = [Event("trick", EVERYONE, text, winner, {"winner": winner})]
        decided = None
        if team is not None and 0 <= st.decides_from < len(st.results):
            decided = team
        if decided is None:
            decided = hand_winner(st.results, st.mao & 1, TieRule.FIRST_DECIDED)
        if decided is not None:
            return events + self._end_hand(st, decided, st.stake, "the tricks")
        st.to_play = [(leader + i) % 4 for i in range(4)]
        return events

    def _end_hand(self, st: PaulistaState, team: int, points: int, how: str) -> list[Event]:
        assert st.log is not None
        pts = [0, 0]
        pts[team] = points
        st.scores[team] += points
        st.phase = OVER
        result: dict[str, Any] = {
            "deltas": seat_deltas(pts, 4),
            "points": team_points(pts),
            "tricks": [trick_record(plays, w) for plays, w in st.trick_plays],
            "stake": points,
            "winner_team": team,
            "onze": st.onze if st.onze >= 0 else None,
            "ferro": st.ferro,
            "scores": list(st.scores),
        }
        st.result = result
        st.finished = (st.log, result)
        st.last_history = None
        events = [
            Event(
                "hand_end",
                EVERYONE,
                f"Team {team + 1} wins the hand by {how} for {points}: {st.scores[0]} to {st.scores[1]}.",
                data=dict(result),
            )
        ]
        if self.match_over(st):
            events.append(Event("match_end", EVERYONE, f"Team {team + 1} wins the match.", data={"team": team}))
        return events

    # -- queries ------------------------------------------------------------------
    def hand_over(self, st: PaulistaState) -> bool:
        return st.result is not None

    def match_over(self, st: PaulistaState) -> bool:
        return max(st.scores) >= TARGET

    def history(self, st: PaulistaState) -> dict[str, Any] | None:
        if st.last_history is None and st.finished is not None:
            log, result = st.finished
            st.last_history = log.record(result)
        return st.last_history

    def view(self, st: PaulistaState, seat: int | None) -> PaulistaView:
        return build_view(st, seat, self.to_act(st), self.match_over(st))

    def replay(self, record: Mapping[str, Any]) -> PaulistaState:
        """Rebuild a hand from its history; the result must match the record's."""
        seats = seats_of(record)
        st, _ = self.resume(
            self.options(record["options"]),
            seats,
            team_scores(record["start"]),
            int(record["dealer"]),
            int(record["hand"]),
            int(record["seed"]),
        )
        for entry in record["actions"]:
            self.apply(st, int(entry["seat"]), action_of(entry))
        return st


GAME = TrucoPaulista()
