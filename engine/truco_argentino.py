"""Truco argentino (RULES.md §4, seed 003): 2, 4 or 6 players, 40 Spanish cards, to 30.

Seats are numbered counter-clockwise; the next player to the right is ``seat + 1`` and
teams alternate seats (``team = seat % 2``; see ``engine.tricks``). The dealer deals three
cards each, one at a time, starting with the mano (``dealer + 1``), who leads the first
trick. With six players and ``pica_pica`` on, the same dealer deals a 3v3 round and then
the three 1v1s (facing players, ``seat`` against ``seat + 3``, the one nearer the dealer's
right as mano), dealt together and played one after another, before the deal moves on.

Betting: truco 2 / retruco 3 / vale cuatro 4, refused for 1 / 2 / 3; the first truco may
come from either team, a raise only from the team that last accepted (answering a call
with the next raise accepts it). Calls come at any time, even out of turn, but never while
another call awaits its answer. Envido (``engine.envido``) may be called in the first
trick by a player who has not played yet, until a truco is accepted; an opponent facing a
truco may answer with envido, which is settled first. Points are added when the hand ends.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cardtui.engine import argentino_envido as envido_bet
from cardtui.engine import argentino_flor as flor_bet
from cardtui.engine.argentino_rules import (
    ACHICO,
    ANNOUNCE,
    DECK,
    ENVIDO_CALLS,
    ENVIDO_WORDS,
    FLOR,
    FLOR_ANSWERS,
    FLOR_CALLS,
    LABELS,
    MAZO,
    NO,
    NO_QUIERO,
    NOTE,
    NOTE_AT,
    PLAY,
    PLAY_AT,
    QUIERO,
    RANK,
    SON_BUENAS,
    TRUCO_CALLS,
    TRUCO_LEVEL,
    TRUCO_NAMES,
    YES,
    ArgentinoOptions,
    FlorCall,
    read_options,
    refusal,
    score_text,
)
from cardtui.engine.argentino_view import ArgentinoView, build
from cardtui.engine.cards import Card
from cardtui.engine.core import (
    EVERYONE,
    Action,
    Audience,
    Event,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    SeatInfo,
    check_seat,
    only,
)
from cardtui.engine.envido import Call, falta
from cardtui.engine.envido import envido as envido_score
from cardtui.engine.history import action_of, seats_of
from cardtui.engine.signals import SIGNAL, SIGNAL_ACTIONS, Signal, send
from cardtui.engine.tricks import (
    HandRecord,
    TieRule,
    hand_winner,
    notes,
    scores_by_seat,
    seat_deltas,
    team_points,
    team_scores,
    trick_record,
    trick_winner,
)

__all__ = ["GAME", "LABELS", "ArgentinoOptions", "ArgentinoState", "ArgentinoView", "TrucoArgentino"]


class ArgentinoState:
    """One match. The hand in play is dealt from ``rng``; ``points`` wait for the hand's end."""

    def __init__(self, options: ArgentinoOptions, seats: Sequence[SeatInfo]) -> None:
        self.options = options
        self.seats = tuple(SeatInfo(s.seat, s.name, s.seat & 1) for s in seats)
        self.n = len(seats)
        self.names = tuple(s.name for s in seats)
        self.scores = [0, 0]
        self.rule = TieRule.LAST_TAKES_ALL if options.ties == "seed" else TieRule.FIRST_DECIDED
        self.hand_no = 0
        self.dealer = self.n - 1
        self.pica = False
        self.rng: random.Random  # each hand's, from its seed (``_deal``)
        self.only: tuple[Audience, ...] = tuple(only(s) for s in range(self.n))
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        self.plays: list[list[Action]] = [[] for _ in range(self.n)]
        """Each hand's cards as the play actions that play them, in the same order."""
        self.dealt: list[tuple[Card, ...]] = [() for _ in range(self.n)]
        self.env = [0] * self.n
        self.env_cards: list[tuple[Card, ...]] = [() for _ in range(self.n)]
        self.flor = [-1] * self.n
        """Each seat's flor (``engine.argentino_flor.flor``), -1 without one or with flor off."""
        self.points = [0, 0]
        self.duels: list[tuple[int, int]] = []
        self.rounds: list[dict[str, Any]] = []
        self.signals: list[tuple[int, str, frozenset[int]]] = []
        self.shown: dict[int, tuple[Card, ...]] = {}
        self.result: dict[str, Any] | None = None
        self.log: HandRecord | None = None
        self.options_dict = options.as_dict()
        self.finished: tuple[HandRecord, dict[str, Any], bool] | None = None
        self.last_history: dict[str, Any] | None = None
        self.falta = 1
        self._round(())

    def _round(self, players: tuple[int, ...]) -> None:
        """Fresh trick, truco and envido state for a round between ``players``."""
        n = self.n
        self.players = players
        self.mano = players[0] if players else 0
        self.live = [False] * n
        self.in_team = [0, 0]  # players of each team still in the round
        for s in players:
            self.live[s] = True
            self.in_team[s & 1] += 1
        self.played0 = [False] * n
        self.trick: list[tuple[int, Card]] = []
        self.to_play = list(players)
        self.leader = self.mano
        self.results: list[int | None] = []
        self.trick_plays: list[tuple[list[tuple[int, Card]], int | None]] = []
        self.round_points = [0, 0]
        self.level = 0  # accepted truco: 0 none, 1 truco, 2 retruco, 3 vale cuatro
        self.owner = -1  # the team that may raise next; -1: either
        self.t_pending = -1  # the team whose truco call awaits an answer
        self.t_level = 0
        self.e_calls: list[Call] = []
        self.e_pending = -1  # the team whose envido call awaits an answer
        self.e_raiser = -1
        self.e_done = False
        self.ann: list[int] = []  # seats still to announce, in order
        self.best = -1  # the seat with the best envido announced so far
        self.spoken: dict[int, int] = {}
        self.e_record: dict[str, Any] | None = None
        self.owes = [False] * n  # holds a flor not sung yet
        for s in players:
            self.owes[s] = self.flor[s] >= 0
        self.f_sung: list[int] = []
        self.f_calls: list[FlorCall] = []
        self.f_pending = -1  # the team whose flor call awaits an answer
        self.f_done = False  # a flor met by a flor has been settled
        self.f_shown: list[int] = []  # the seats whose flor scored, shown at the round's end
        self.f_record: dict[str, Any] | None = None

    def give(self, seat: int, cards: Sequence[Card]) -> None:
        """Put ``cards`` in ``seat``'s hand as if dealt (scores recomputed): for rigged positions."""
        self.hands[seat] = list(cards)
        self.plays[seat] = [PLAY[c] for c in cards]
        self.dealt[seat] = tuple(cards)
        self.env[seat], self.env_cards[seat] = envido_score(cards, self.options.envido_unsuited)
        self.flor[seat] = flor_bet.flor(cards) if self.options.flor else -1
        if seat in self.players and not self.played0[seat]:
            self.owes[seat] = self.flor[seat] >= 0

    @property
    def announcing(self) -> int:
        return self.ann[0] if self.ann else -1


class TrucoArgentino:
    name: ClassVar[str] = "truco_argentino"
    teams: ClassVar[bool] = True
    title: ClassVar[str] = "Truco argentino"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    player_counts: ClassVar[tuple[int, ...]] = (2, 4, 6)

    def options(self, raw: Mapping[str, Any]) -> ArgentinoOptions:
        return read_options(raw)

    # -- match and hand flow ------------------------------------------------------
    def start(
        self, options: ArgentinoOptions, seats: Sequence[SeatInfo], seed: int
    ) -> tuple[ArgentinoState, list[Event]]:
        if len(seats) not in (2, 4, 6):
            raise InvalidOptions("Truco argentino is played by 2, 4 or 6 players.")
        state = ArgentinoState(options, seats)
        return state, self.next_hand(state, seed)

    def next_hand(self, state: ArgentinoState, seed: int) -> list[Event]:
        if state.hand_no and state.result is None:
            raise IllegalAction("The hand in play is not over yet.")
        if self.match_over(state):
            raise IllegalAction("The match is over.")
        pica = state.n == 6 and state.options.pica_pica and state.hand_no > 0 and not state.pica
        dealer = state.dealer if pica else (state.dealer + 1) % state.n
        return self._deal(state, seed, dealer, pica)

    def resume(
        self,
        options: ArgentinoOptions,
        seats: Sequence[SeatInfo],
        scores: Sequence[int],
        dealer: int,
        hand_no: int,
        seed: int,
        pica: bool = False,
    ) -> tuple[ArgentinoState, list[Event]]:
        """A hand from a given position (used to replay a hand history)."""
        state = ArgentinoState(options, seats)
        state.scores = list(scores)
        state.hand_no = hand_no - 1
        return state, self._deal(state, seed, dealer, pica)

    def _deal(self, st: ArgentinoState, seed: int, dealer: int, pica: bool) -> list[Event]:
        n = st.n
        st.hand_no += 1
        st.dealer = dealer
        st.pica = pica
        st.rng = random.Random(seed)
        st.points = [0, 0]
        st.rounds = []
        st.signals = []
        st.shown = {}
        st.result = None
        st.falta = falta(st.scores, st.options.target)
        picks = draw(st.rng, 3 * n)
        unsuited = st.options.envido_unsuited
        with_flor = st.options.flor
        log = st.log = HandRecord(
            self.name,
            st.options_dict,
            st.hand_no,
            seed,
            dealer,
            st.seats,
            scores_by_seat(st.scores, n),
        )
        kind = "the 1v1s (pica-pica)" if pica else "a round"
        events = [
            Event(
                "hand_start",
                EVERYONE,
                f"Hand {st.hand_no}: {st.names[dealer]} deals {kind}.",
                dealer,
                {"hand": st.hand_no, "dealer": dealer, "pica_pica": pica},
            )
        ]
        for s in range(n):
            i = (s - dealer - 1) % n  # one card at a time, the mano first
            a, b, c = picks[i], picks[n + i], picks[2 * n + i]
            hand = st.hands[s] = [DECK[a], DECK[b], DECK[c]]
            st.plays[s] = [PLAY_AT[a], PLAY_AT[b], PLAY_AT[c]]
            st.dealt[s] = dealt = (DECK[a], DECK[b], DECK[c])
            log.dealt(s, *dealt)
            st.env[s], st.env_cards[s] = envido_score(hand, unsuited)
            st.flor[s] = flor_bet.flor(hand) if with_flor else -1
            cards = [NOTE_AT[a], NOTE_AT[b], NOTE_AT[c]]
            events.append(Event("cards", st.only[s], f"You receive {' '.join(cards)}.", s, {"cards": cards}))
        if pica:
            st.duels = [((dealer + i) % n, (dealer + i + 3) % n) for i in (1, 2, 3)]
            return events + self._next_duel(st)
        st.duels = []
        st._round((*range(dealer + 1, n), *range(dealer + 1)))
        return events

    def _next_duel(self, st: ArgentinoState) -> list[Event]:
        a, b = st.duels.pop(0)
        st._round((a, b))
        return [
            Event(
                "duel",
                EVERYONE,
                f"{st.names[a]} against {st.names[b]}; {st.names[a]} is mano.",
                seat=a,
                data={"seats": [a, b]},
            )
        ]

    # -- what may be done ---------------------------------------------------------
    def to_act(self, st: ArgentinoState) -> tuple[int, ...]:
        """The seats the hand waits for: a call's answerers, the announcer, or the player to play."""
        if st.result is not None:
            return ()
        if st.f_pending >= 0:
            return tuple(s for s in st.players if s & 1 != st.f_pending and flor_bet.holds(st, s))
        if st.ann:
            return (st.ann[0],)
        pending = st.e_pending if st.e_pending >= 0 else st.t_pending
        if pending >= 0:
            return tuple(s for s in st.players if st.live[s] and (s & 1) != pending)
        return (st.to_play[0],)

    def legal_actions(self, st: ArgentinoState, seat: int) -> list[Action]:
        if st.result is not None:
            return []
        hand = st.hands[seat]
        if not st.live[seat]:
            return list(SIGNAL_ACTIONS) if hand else []
        if st.f_pending < 0 and st.e_pending < 0 and st.t_pending < 0 and not st.ann and not st.owes[seat]:
            # The usual case, nothing awaiting an answer: cards on one's turn, then ready-made calls.
            level = st.level
            raise_to = level + 1 if level < 3 and (st.owner < 0 or st.owner == seat & 1) else 0
            tail = _FREE[envido_bet.may_call(st, seat), raise_to, bool(hand)]
            if seat == st.to_play[0]:
                return [*st.plays[seat], *tail]
            return list(tail)
        return self._legal_otherwise(st, seat)

    def _legal_otherwise(self, st: ArgentinoState, seat: int) -> list[Action]:
        """A call awaiting its answer, an envido being announced, or a flor to sing."""
        signals = SIGNAL_ACTIONS if st.hands[seat] else ()
        team = seat & 1
        sing = st.owes[seat] and not st.f_done  # a flor is sung before anything else it affects
        if st.f_pending >= 0:
            if team == st.f_pending or st.flor[seat] < 0:
                return list(signals)
            out = list(FLOR_ANSWERS[st.f_calls[-1]])
        elif st.ann:
            if seat != st.ann[0]:
                return list(signals)
            if sing:
                out = [FLOR]
            else:
                out = [ANNOUNCE[st.env[seat]]] if envido_bet.beats(st, seat) else []
                if st.best >= 0:
                    out.append(SON_BUENAS)
        elif st.e_pending >= 0:
            if team == st.e_pending:
                return list(signals)
            out = [FLOR] if sing else [QUIERO, NO_QUIERO, *ENVIDO_CALLS.get(tuple(st.e_calls), ())]
        elif st.t_pending >= 0:
            if team == st.t_pending:
                return list(signals)
            out = [QUIERO, NO_QUIERO, TRUCO_CALLS[st.t_level + 1]] if st.t_level < 3 else [QUIERO, NO_QUIERO]
            if st.t_level == 1 and envido_bet.may_call(st, seat):
                out.extend(ENVIDO_CALLS[()])
            if sing:
                out.append(FLOR)
        else:  # free to act with a flor in hand: sung first, or (once settled) played as usual
            raise_to = st.level + 1 if st.level < 3 and (st.owner < 0 or st.owner == team) else 0
            if sing:
                return [FLOR, *_FREE[False, raise_to, bool(signals)]]
            tail = _FREE[envido_bet.may_call(st, seat), raise_to, bool(signals)]
            return [*st.plays[seat], *tail] if seat == st.to_play[0] else list(tail)
        out.extend(signals)
        return out

    def default_action(self, st: ArgentinoState, seat: int) -> Action:
        """On timeout: refuse a call, concede the envido, sing a flor, or play the lowest card."""
        legal = self.legal_actions(st, seat)
        for a in (NO_QUIERO, ACHICO, SON_BUENAS, FLOR):
            if a in legal:
                return a
        plays = [a for a in legal if a.type == "play"]
        if plays:
            return min(plays, key=lambda a: RANK[a.cards[0]])
        if legal and legal[0].type == "announce":
            return legal[0]
        raise IllegalAction("There is nothing for this seat to do now.")

    def timeout_ms(self, st: ArgentinoState) -> int | None:
        return None

    # -- doing it -----------------------------------------------------------------
    def apply(self, st: ArgentinoState, seat: int, action: Action) -> list[Event]:
        check_seat(seat, st.n)
        if st.result is not None:
            raise NotYourTurn("The hand is over.")
        action = self._legal(st, seat, action)
        t = action.type
        log = st.log
        assert log is not None
        if t == "play":
            log.act(seat, action)
            return self._play(st, seat, action)
        if t == SIGNAL:
            log.act(seat, action)
            who, event = send(st.rng, seat, st.n, Signal(action.value), st.options.signals_seen, st.names[seat])
            st.signals.append((seat, action.value, who))
            return [event]
        if t == "mazo":
            log.act(seat, action, {"discarded": [NOTE[c] for c in st.hands[seat]]})
            return self._mazo(st, seat)
        log.act(seat, action)
        if t in TRUCO_LEVEL:
            return self._truco(st, seat, TRUCO_LEVEL[t])
        if t == "quiero" or t == "no_quiero":
            if st.f_pending >= 0:
                return flor_bet.answer(st, seat, t == "quiero")
            if st.e_pending >= 0:
                return envido_bet.answer(st, seat, t == "quiero")
            return self._truco_answer(st, seat, t == "quiero")
        if t == "envido" or t == "real_envido" or t == "falta_envido":
            return envido_bet.call(st, seat, ENVIDO_WORDS[t])
        if t == "announce" or t == "son_buenas":
            return envido_bet.announce(st, seat, t == "announce")
        if t == "flor":
            return flor_bet.sing(st, seat)
        return flor_bet.call(st, seat, FLOR_CALLS[t])

    def _legal(self, st: ArgentinoState, seat: int, action: Action) -> Action:
        """The shared instance of ``action`` among the legal ones, or the reason it is refused."""
        legal = self.legal_actions(st, seat)
        for a in legal:  # the usual case: a caller hands back an action it was offered
            if a is action:
                return a
        if action in legal:
            return legal[legal.index(action)]
        raise refusal(st, seat, action)

    def _play(self, st: ArgentinoState, seat: int, action: Action) -> list[Event]:
        card = action.cards[0]
        st.hands[seat].remove(card)
        st.plays[seat].remove(action)
        st.trick.append((seat, card))
        st.to_play.pop(0)
        if not st.results:
            st.played0[seat] = True
        text = NOTE[card]
        events = [Event("play", EVERYONE, f"{st.names[seat]} plays {text}.", seat, {"card": text})]
        if not st.to_play:
            events += self._end_trick(st)
        return events

    def _end_trick(self, st: ArgentinoState) -> list[Event]:
        plays = st.trick
        winner, _ = trick_winner([(s, RANK[c]) for s, c in plays])
        team = None if winner is None else winner & 1
        st.results.append(team)
        st.trick_plays.append((plays, winner))
        st.trick = []
        if winner is None:
            events = [_TIED]
        else:
            events = [Event("trick", EVERYONE, f"{st.names[winner]} takes the trick.", winner, {"winner": winner})]
        decided = hand_winner(st.results, st.mano & 1, st.rule)
        if decided is not None:
            return events + self._end_round(st, decided, st.level + 1, "the tricks")
        if winner is not None:
            st.leader = winner
        self._order_trick(st)
        return events

    @staticmethod
    def _order_trick(st: ArgentinoState) -> None:
        """The next trick's players, from the leader (or the next one still in) to the right."""
        p = st.players
        i = p.index(st.leader)
        k = len(p)
        st.to_play = [p[(i + j) % k] for j in range(k) if st.live[p[(i + j) % k]]]

    def _truco(self, st: ArgentinoState, seat: int, level: int) -> list[Event]:
        team = seat & 1
        if st.t_pending >= 0:  # answering with a raise accepts the call
            st.level = st.t_level
        st.t_pending, st.t_level = team, level
        name = TRUCO_NAMES[level]
        return [Event("call", EVERYONE, f"{st.names[seat]}: {name}!", seat, {"call": name, "level": level})]

    def _truco_answer(self, st: ArgentinoState, seat: int, yes: bool) -> list[Event]:
        caller, level = st.t_pending, st.t_level
        st.t_pending = -1
        if yes:
            st.level, st.owner = level, seat & 1
            return [Event("answer", EVERYONE, f"{st.names[seat]}: quiero.", seat, YES)]
        events = [Event("answer", EVERYONE, f"{st.names[seat]}: no quiero.", seat, NO)]
        return events + self._end_round(st, caller, level, "a refused bet")

    def _mazo(self, st: ArgentinoState, seat: int) -> list[Event]:
        st.live[seat] = False
        st.in_team[seat & 1] -= 1
        st.hands[seat] = []
        st.plays[seat] = []
        st.owes[seat] = False  # a flor not sung leaves with the cards
        if seat in st.to_play:
            st.to_play.remove(seat)
        events = [Event("mazo", EVERYONE, f"{st.names[seat]} goes to the deck.", seat)]
        team = seat & 1
        if not st.in_team[team]:
            return events + self._end_round(st, 1 - team, st.level + 1, "the deck")
        if not st.to_play:
            events += self._end_trick(st)
        return events

    def _end_round(self, st: ArgentinoState, team: int, stake: int, how: str) -> list[Event]:
        st.round_points[team] += stake
        for s in range(2):
            st.points[s] += st.round_points[s]
        record: dict[str, Any] = {
            "seats": list(st.players),
            "tricks": [trick_record(plays, w) for plays, w in st.trick_plays],
            "truco": {"team": team, "points": stake},
            "points": team_points(st.round_points),
        }
        events = [
            Event(
                "round_end",
                EVERYONE,
                f"Team {team + 1} takes the round by {how} for {stake}.",
                data={"team": team, "points": stake},
            )
        ]
        if st.e_record is not None:
            record["envido"] = st.e_record
            w = st.e_record.get("winner")
            if w is not None:
                st.shown[w] = st.env_cards[w]
                cards = notes(st.env_cards[w])
                events.append(Event("show", EVERYONE, f"{st.names[w]} shows {' '.join(cards)}.", w, {"cards": cards}))
        if st.f_record is not None:
            record["flor"] = st.f_record
            for w in st.f_shown:
                st.shown[w] = st.dealt[w]
                cards = notes(st.dealt[w])
                events.append(Event("show", EVERYONE, f"{st.names[w]} shows {' '.join(cards)}.", w, {"cards": cards}))
        st.rounds.append(record)
        st.live = [False] * st.n
        st.ann = []
        if st.duels:
            for s in st.players:
                st.hands[s] = []
                st.plays[s] = []
            return events + self._next_duel(st)
        return events + self._finish_hand(st)

    def _finish_hand(self, st: ArgentinoState) -> list[Event]:
        assert st.log is not None
        pts = st.points
        st.scores = [st.scores[0] + pts[0], st.scores[1] + pts[1]]
        result: dict[str, Any] = {
            "deltas": seat_deltas(pts, st.n),
            "points": team_points(pts),
            "tricks": [t for r in st.rounds for t in r["tricks"]],
            "scores": list(st.scores),
        }
        if st.pica:
            result["duels"] = st.rounds
        else:
            for key in ("envido", "flor"):
                if key in st.rounds[0]:
                    result[key] = st.rounds[0][key]
        st.result = result
        st.finished = (st.log, result, st.pica)
        st.last_history = None
        events = [
            Event(
                "hand_end",
                EVERYONE,
                f"Team 1 scores {pts[0]}, team 2 scores {pts[1]}: "
                f"{score_text(st.scores[0], st.options.target)} to "
                f"{score_text(st.scores[1], st.options.target)}.",
                data=dict(result),
            )
        ]
        if self.match_over(st):
            w = 0 if st.scores[0] > st.scores[1] else 1
            events.append(Event("match_end", EVERYONE, f"Team {w + 1} wins the match.", data={"team": w}))
        return events

    # -- queries ------------------------------------------------------------------
    def hand_over(self, st: ArgentinoState) -> bool:
        return st.result is not None

    def match_over(self, st: ArgentinoState) -> bool:
        """A team has reached the target, and is ahead (level scores past it play on)."""
        a, b = st.scores
        return max(a, b) >= st.options.target and a != b

    def history(self, st: ArgentinoState) -> dict[str, Any] | None:
        if st.last_history is None and st.finished is not None:
            log, result, pica = st.finished
            st.last_history = log.record(result, pica_pica=pica)
        return st.last_history

    def view(self, st: ArgentinoState, seat: int | None) -> ArgentinoView:
        may = seat is not None and st.result is None and st.live[seat] and envido_bet.may_call(st, seat)
        return build(st, seat, self.to_act(st), self.match_over(st), may)

    def replay(self, record: Mapping[str, Any]) -> ArgentinoState:
        """Rebuild a hand from its history; the result must match the record's."""
        seats = seats_of(record)
        state, _ = self.resume(
            self.options(record["options"]),
            seats,
            team_scores(record["start"]),
            int(record["dealer"]),
            int(record["hand"]),
            int(record["seed"]),
            bool(record.get("pica_pica", False)),
        )
        for entry in record["actions"]:
            self.apply(state, int(entry["seat"]), action_of(entry))
        return state


_TIED = Event("trick", EVERYONE, "The trick is tied.", None, {"winner": None})


def draw(rng: random.Random, k: int) -> list[int]:
    """Positions in ``DECK`` of the ``k`` cards dealt: a shuffle of the pack cut short.

    These are exactly the draws of ``rng.sample(DECK, k)`` (each drawn place refilled with
    the pool's last card), written out so that a seed deals the same hand on any Python,
    and without the general function's checks.
    """
    pool = list(range(len(DECK)))
    bits = rng.getrandbits
    out = []
    for left in range(len(DECK), len(DECK) - k, -1):
        size = left.bit_length()
        j = bits(size)
        while j >= left:
            j = bits(size)
        out.append(pool[j])
        pool[j] = pool[left - 1]
    return out


def _free_tail(envido: bool, raise_to: int, cards: bool) -> tuple[Action, ...]:
    calls = (*(ENVIDO_CALLS[()] if envido else ()), *((TRUCO_CALLS[raise_to],) if raise_to else ()))
    return (*calls, MAZO, *(SIGNAL_ACTIONS if cards else ()))


_FREE = {(e, k, c): _free_tail(e, k, c) for e in (False, True) for k in range(4) for c in (False, True)}
"""What a seat free to act may say, by (envido open to it, the truco it may call, holds cards)."""

GAME = TrucoArgentino()
