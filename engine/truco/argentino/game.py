"""Truco argentino (docs/rules.md §4): 2, 4 or 6 players, 40 Spanish cards, to 30.

Seats are numbered counter-clockwise; the next player to the right is ``seat + 1`` and
teams alternate seats (``team = seat % 2``; see ``engine.truco.tricks``). The dealer deals
three cards each, one at a time, starting with the mano (``dealer + 1``), who leads the
first trick. With six players and ``pica_pica`` on, the same dealer deals a 3v3 round and
then the three 1v1s (facing players, ``seat`` against ``seat + 3``, the one nearer the
dealer's right as mano), dealt together and played one after another, before the deal
moves on.

Betting: truco 2 / retruco 3 / vale cuatro 4, refused for 1 / 2 / 3; the first truco may
come from either team, a raise only from the team that last accepted (answering a call
with the next raise accepts it). Calls come at any time, even out of turn, but never while
another call awaits its answer. Envido (``envido``) may be called in the first
trick by a player who has not played yet, until a truco is accepted; an opponent facing a
truco may answer with envido, which is settled first. Flor (``flor``) when the
table plays it. Going to the deck takes a player's cards out of the round (a card already
played can no longer win), and answers a call to one's team with a no quiero. Points are
added when the hand ends (or the envido's at once, by the option ``envido_scored``).

Each kind of action has one check (``checks``): it yields the reason an action
is refused, and the legal list is what passes it; the common case (nothing awaiting an
answer) is served from ready-made tuples, gated by the same checks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cardtui.engine.cards import Card
from cardtui.engine.core import EVERYONE, Action, Event, IllegalAction, NotYourTurn, SeatInfo, check_seat
from cardtui.engine.events import HandEnded, HandStarted, MatchEnded
from cardtui.engine.fairness import Seed, hand_rng
from cardtui.engine.history import HandLog
from cardtui.engine.sealed import Move, SealedDeal
from cardtui.engine.truco.argentino import checks
from cardtui.engine.truco.argentino import envido as envido_bet
from cardtui.engine.truco.argentino import flor as flor_bet
from cardtui.engine.truco.argentino.rules import (
    ACHICO,
    DECK,
    ENVIDO_CALLS,
    ENVIDO_WORDS,
    FLOR,
    FLOR_WORDS,
    LADDER,
    MAZO,
    NO_QUIERO,
    PLAY,
    PLAY_AT,
    POINTS_AT,
    QUIERO,
    RANK,
    SON_BUENAS,
    SUIT_AT,
    TRUCO_CALLS,
    TRUCO_LEVEL,
    ArgentinoOptions,
)
from cardtui.engine.truco.argentino.state import ArgentinoState, EnvidoRecord, FlorRecord, RoundRecord, Trick
from cardtui.engine.truco.argentino.view import build_view, history_result
from cardtui.engine.truco.base import TrucoGame, dealt_event, made, public
from cardtui.engine.truco.envido import Unsuited
from cardtui.engine.truco.envido import envido as envido_score
from cardtui.engine.truco.envido import of_three as envido_of_three
from cardtui.engine.truco.events import (
    ArgentinoClaimLost,
    ArgentinoRoundStarted,
    ArgentinoShown,
    ArgentinoWentToDeck,
    Reason,
    ShowReason,
    TrucoAnswered,
    TrucoCalled,
    TrucoPlayed,
    TrucoRoundEnded,
    TrucoTrickEnded,
)
from cardtui.engine.truco.flor import ALONE, flor_value
from cardtui.engine.truco.flor import of_three as flor_of_three
from cardtui.engine.truco.ladder import Bet
from cardtui.engine.truco.sealed import ENVIDO, PLAY_ANY, SHOW_ANY, UNOPENED, Claim, bears_out
from cardtui.engine.truco.sealed import FLOR as FLOR_CLAIM
from cardtui.engine.truco.signals import SIGNAL, SIGNAL_ACTIONS, SIGNALS, unmade
from cardtui.engine.truco.tricks import DOWN, hand_winner, scores_by_seat, trick_winner
from cardtui.engine.truco.views import TrucoResult, TrucoView

__all__ = ["GAME", "ArgentinoOptions", "ArgentinoState", "TrucoArgentino"]

_TRICKS, _REFUSED, _DECK, _ENVIDO = Reason.TRICKS, Reason.REFUSED, Reason.DECK, Reason.ENVIDO
_TRUCO = Bet.TRUCO
_SHOW_ENVIDO, _SHOW_FLOR = ShowReason.ENVIDO, ShowReason.FLOR


class TrucoArgentino(TrucoGame[ArgentinoState, ArgentinoOptions]):
    name: ClassVar[str] = "truco_argentino"
    pack_name: ClassVar[str] = "spanish40"
    title: ClassVar[str] = "Truco argentino"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    usual_players: ClassVar[int] = 2
    sealed_dealt: ClassVar[bool] = True
    """Truco argentino is most often played one against one; four and six are the partnership games."""
    options_type = ArgentinoOptions

    @property
    def player_counts(self) -> tuple[int, ...]:
        return (2, 4, 6)

    # -- the deal ---------------------------------------------------------------------
    def new_state(self, options: ArgentinoOptions, seats: Sequence[SeatInfo]) -> ArgentinoState:
        return ArgentinoState(options, seats)

    def next_dealer(self, st: ArgentinoState) -> int:
        """The mano deals next; with pica-pica, the dealer of a 3v3 round deals the 1v1s too."""
        return st.dealer if self._pica_comes(st) else (st.dealer + 1) % st.n

    def before_next(self, st: ArgentinoState) -> None:
        st.pica_next = self._pica_comes(st)

    @staticmethod
    def _pica_comes(st: ArgentinoState) -> bool:
        """The next hand is a pica-pica round's 1v1s (six players, the option on, the last hand a 3v3)."""
        return st.n == 6 and st.options.pica_pica and not st.pica

    def recall(self, st: ArgentinoState, record: Mapping[str, Any]) -> None:
        st.pica_next = bool(record.get("pica_pica", False))

    def deal(self, st: ArgentinoState, seed: Seed, dealer: int) -> list[Event]:
        """Three cards each, one at a time from the mano (docs/deal.md §10.4)."""
        n = st.n
        pica = st.pica_next
        st.pica_next = False
        st.hand_no += 1
        st.dealer = dealer
        st.pica = pica
        st.rng = hand_rng(seed)
        st.points = [0, 0]
        st.banked = [0, 0]
        st.rounds = []
        st.round_no = 0
        st.signals = []
        st.shown = {}
        st.earlier = []
        st.result = None
        st.showing = False
        if st.sealed:  # the deck is shuffled by the seats' own clients: the engine is dealt nothing
            picks = []
            self.seal_deal(st)
        else:
            picks = draw(st.rng, 3 * n)
        highest = st.options.envido_unsuited is Unsuited.HIGHEST
        with_flor = st.options.flor
        log = st.log = HandLog(
            self.name, st.option_values, st.hand_no, seed, dealer, st.seats, scores_by_seat(st.scores, n)
        )
        events = [public(HandStarted, st.hand_no, dealer)]
        for s in range(n):
            if st.sealed:
                st.hands[s], st.dealt[s], st.plays[s], st.played[s], st.opened[s] = [], (), [PLAY_ANY], [], []
                st.folded_unseen[s] = 0
                st.unseen[s], st.env[s], st.env_cards[s], st.flor[s] = 3, -1, (), -1
                continue
            i = (s - dealer - 1) % n  # one card at a time, the mano first
            a, b, c = picks[i], picks[n + i], picks[2 * n + i]
            dealt = st.dealt[s] = (DECK[a], DECK[b], DECK[c])
            st.hands[s] = list(dealt)
            st.plays[s] = [PLAY_AT[a], PLAY_AT[b], PLAY_AT[c]]
            played = PLAYED[s]
            st.played[s] = [played[a], played[b], played[c]]
            log.dealt(s, *dealt)
            # The envido and the flor from tables by deck position (as envido() and flor_value() count).
            pa, pb, pc = POINTS_AT[a], POINTS_AT[b], POINTS_AT[c]
            sa, sb, sc = SUIT_AT[a], SUIT_AT[b], SUIT_AT[c]
            ab, ac = sa is sb, sa is sc
            st.env[s], st.env_cards[s] = envido_of_three(*dealt, pa, pb, pc, ab, ac, sb is sc, highest)
            st.flor[s] = flor_of_three(pa, pb, pc, ab and ac) if with_flor else -1
            events.append(dealt_event(s, dealt, st.only[s]))
        if pica:
            st.duels = [((dealer + i) % n, (dealer + i + 3) % n) for i in (1, 2, 3)]
            return events + self._next_duel(st)
        st.duels = []
        st._round((*range(dealer + 1, n), *range(dealer + 1)))
        return [*events, public(ArgentinoRoundStarted, 1, st.players, st.mano, False)]

    def _next_duel(self, st: ArgentinoState) -> list[Event]:
        a, b = st.duels.pop(0)
        st._round((a, b))
        return [public(ArgentinoRoundStarted, st.round_no, (a, b), a, True)]

    # -- what may be done: one check per kind of action (``checks``) ----------
    def legal_actions(self, st: ArgentinoState, seat: int) -> list[Action]:
        legal = self._legal(st, seat)
        return unmade(legal, st.signals, seat) if st.signals else legal

    def _legal(self, st: ArgentinoState, seat: int) -> list[Action]:
        """The legal actions, every gesture among them (``legal_actions`` drops those made this hand)."""
        if st.result is not None:
            return []
        if st.showing:
            return checks.legal(st, seat, checks.SHOWING_ORDER)
        if not st.live[seat]:
            return []
        if (
            st.flor_bet.pending < 0 and st.envido.pending < 0 and st.truco.pending < 0 and st.announcer < 0
            and not st.owes[seat]
        ):
            # The usual case, nothing awaiting an answer: cards on one's turn, then ready-made calls.
            # (The gates' own tests for this case: see gate_truco, gate_envido and gate_signal.)
            truco = st.truco
            raise_to = 0 if checks.raise_gate(truco, seat & 1) else truco.level + 1
            tail = _FREE[st.may_envido(seat), raise_to, checks.gate_signal(st, seat) is None]
            if seat == st.to_play[0]:
                return [*st.plays[seat], *tail]
            return list(tail)
        waiting = st.flor_bet.pending
        if waiting < 0 and st.announcer < 0:
            waiting = st.envido.pending if st.envido.pending >= 0 else st.truco.pending
        if waiting == seat & 1 or (st.announcer >= 0 and seat != st.announcer):
            # Waiting on the other team, or on the announcer: every gate but the signals' is shut.
            return list(SIGNAL_ACTIONS) if checks.gate_signal(st, seat) is None else []
        if waiting >= 0 and st.flor_bet.pending < 0 and st.announcer < 0 and not st.owes[seat]:
            # Answering a truco or an envido with no flor to sing: the answers, raises and the deck.
            signals = checks.gate_signal(st, seat) is None
            if st.envido.pending >= 0:
                return [*_ANSWER_ENVIDO.get(tuple(st.envido.calls), _ANSWERS), *_LEAVE[signals]]
            truco = st.truco
            raise_to = 0 if checks.answer_raise_gate(truco) else len(truco.calls) + 1
            envido = checks.envido_answers_truco(truco) and st.may_envido(seat)
            return list(_ANSWER_TRUCO[raise_to, envido, signals])
        if st.flor_bet.pending >= 0:
            order = checks.FLOR_ORDER
        elif st.announcer >= 0:
            order = checks.ANNOUNCING_ORDER
        else:
            order = checks.FREE_ORDER if waiting < 0 else checks.ANSWERING_ORDER
        return checks.legal(st, seat, order)

    def to_act(self, st: ArgentinoState) -> tuple[int, ...]:
        """The seats the hand waits for: a call's answerers, the announcer, or the player to play."""
        if st.result is not None:
            return ()
        if st.showing:
            return (st.claims[0].seat,)
        if st.flor_bet.pending >= 0:
            return flor_bet.answerers(st)
        if st.announcer >= 0:
            return (st.announcer,)
        pending = st.envido.pending
        if pending < 0:
            pending = st.truco.pending
        if pending >= 0:
            return tuple(s for s in st.players if st.live[s] and (s & 1) != pending)
        return (st.to_play[0],)

    def default_action(self, st: ArgentinoState, seat: int) -> Action:
        """On timeout: refuse a call, concede the envido, sing a flor, or play the lowest card."""
        legal = self.legal_actions(st, seat)
        if SHOW_ANY in legal:
            return SHOW_ANY  # sealed: nobody here can open the cards of its claim (it is lost)
        if legal and legal[0].type == "show":
            return legal[0]  # sealed, a seat the host opened: its claim's cards
        blind = st.unseen[seat] > 0 and not st.known[seat]
        answers: tuple[Action, ...] = (NO_QUIERO, ACHICO, SON_BUENAS, *(() if blind else (FLOR,)))
        for a in answers:
            if a in legal:
                return a
        if blind and PLAY_ANY in legal:
            return UNOPENED  # sealed: nobody here can open its cards (docs/fairness.md, "Drops and crashes")
        plays = [a for a in legal if a.type == "play"]
        if plays:
            return min(plays, key=lambda a: RANK[a.cards[0]])
        if legal and legal[0].type == "announce":
            return legal[0]
        raise IllegalAction("There is nothing for this seat to do now.")

    # -- doing it ---------------------------------------------------------------------
    def apply(self, st: ArgentinoState, seat: int, action: Action) -> list[Event]:
        check_seat(seat, st.n)
        if st.result is not None:
            raise NotYourTurn("The hand is over.")
        why = checks.why(st, seat, action)
        if why is not None:
            raise self._refusal(st, why)
        t = action.type
        log = st.log
        assert log is not None
        if t == "show":
            log.act(seat, action)
            return self._show(st, seat, action.cards)
        if not action.cards and t == "play":
            raise IllegalAction("At a sealed table your client names the card, and opens it with its keys.")
        if st.sealed and (t in _FLOR_CLAIMS or t == "con_flor_me_achico"):
            if st.known[seat]:  # the history says the flor, so that it replays where nobody knows the cards
                action = Action(t, amount=max(0, st.flor[seat]))
            elif not action.amount and t in _FLOR_CLAIMS:
                raise IllegalAction("At a sealed table a flor is sung with its count: your client says it.")
        if t == "play" or t == "play_unopened":
            log.act(seat, action)
            return self._play(st, seat, action)
        if t == SIGNAL:
            log.act(seat, action)
            return [self.signal(st, seat, SIGNALS[action.value], st.options.signals_seen)]
        if t == "mazo":  # (sealed: the cards nobody has seen stay closed)
            log.act(seat, action, {"discarded": tuple(st.hands[seat])})
            events = self._mazo(st, seat)
        else:
            log.act(seat, action)
            if t in TRUCO_LEVEL:
                return self._truco(st, seat)
            events = self._bet(st, seat, action)
        # Asked again, not narrowed: the action may have ended the hand (compiled, a narrowed
        # attribute is trusted, and ``st.result`` was None at the top).
        if st.at_once and not self.hand_over(st) and st.decided():
            events += self._end_round(st, None, 0, _ENVIDO, last=True)
        return events

    def _bet(self, st: ArgentinoState, seat: int, action: Action) -> list[Event]:
        """Envido and flor calls and answers, and the truco's answers."""
        t = action.type
        if t == "quiero" or t == "no_quiero":
            if st.flor_bet.pending >= 0:
                return flor_bet.answer(st, seat, t == "quiero")
            if st.envido.pending >= 0:
                return envido_bet.answer(st, seat, t == "quiero")
            return self._truco_answer(st, seat, t == "quiero")
        if t in ENVIDO_WORDS:
            return envido_bet.call(st, seat, ENVIDO_WORDS[t])
        if t == "son_buenas":
            if st.flor_bet.pending >= 0:
                return flor_bet.pass_flor(st, seat)
            return envido_bet.announce(st, seat, False)
        if t == "announce":
            return envido_bet.announce(st, seat, True, action.amount)
        if t == "flor":
            return flor_bet.sing(st, seat, action.amount)
        return flor_bet.respond(st, seat, FLOR_WORDS[t], action.amount)

    def _refusal(self, st: ArgentinoState, why: checks.Why) -> IllegalAction:
        cls, text = why
        if why in checks.NAMED:
            names = st.names
            return cls(text, turn=names[st.to_play[0]] if st.to_play else "",
                       announcer=names[st.announcer] if st.announcer >= 0 else "",
                       asked=names[st.f_asked[0]] if st.f_asked else "")
        return cls(text)

    def _play(self, st: ArgentinoState, seat: int, action: Action) -> list[Event]:
        card: Card | None
        if action in st.plays[seat] and action is not PLAY_ANY and action.cards:
            i = st.plays[seat].index(action)  # hands, play actions and their events: one order
            card = st.hands[seat].pop(i)
            st.plays[seat].pop(i)
            events = [st.played[seat].pop(i)]
        else:  # sealed: a card the engine could not see (none: face down, never opened)
            card = action.cards[0] if action.cards else None
            st.unseen[seat] -= 1
            if not st.unseen[seat]:
                st.plays[seat] = []
            if card is not None:
                st.seen_cards.add(card)
                st.opened[seat].append(card)
            events = [public(TrucoPlayed, seat, card, card is None)]
        st.trick.append((seat, card))
        st.to_play.pop(0)
        if not st.results:
            st.played0[seat] = True
        if not st.to_play:
            events += self._end_trick(st)
        return events

    def _end_trick(self, st: ArgentinoState) -> list[Event]:
        plays = tuple(st.trick)
        live = st.live
        winner, _ = trick_winner([(s, RANK[c] if live[s] and c is not None else DOWN) for s, c in plays])
        team = None if winner is None else winner & 1
        st.results.append(team)
        void = frozenset(s for s, _ in plays if not live[s])
        st.tricks.append(Trick(plays, winner, void))
        st.trick = []
        st.e_open = False
        if winner is not None:
            st.leader = winner
        decided = hand_winner(st.results, st.mano & 1, st.rule)
        if decided is not None:
            return [
                public(TrucoTrickEnded, len(st.results), winner, team, st.leader),
                *self._end_round(st, decided, LADDER.stake(st.truco.level), _TRICKS),
            ]
        self._order_trick(st)
        return [public(TrucoTrickEnded, len(st.results), winner, team, st.to_play[0])]

    @staticmethod
    def _order_trick(st: ArgentinoState) -> None:
        """The next trick's players, from the leader (or the next one still in) to the right."""
        p = st.players
        i = p.index(st.leader)
        k = len(p)
        st.to_play = [p[(i + j) % k] for j in range(k) if st.live[p[(i + j) % k]]]

    def _truco(self, st: ArgentinoState, seat: int) -> list[Event]:
        truco = st.truco
        word = truco.next_calls()[0]
        truco.call(seat, word)
        if truco.level:
            st.e_open = False  # a raise accepts the truco: no envido after it
        return [public(TrucoCalled, seat, seat & 1, _TRUCO, word, truco.if_accepted(0), truco.if_refused())]

    def _truco_answer(self, st: ArgentinoState, seat: int, yes: bool) -> list[Event]:
        truco = st.truco
        if yes:
            value = truco.accept(seat)
            st.e_open = False
            return [public(TrucoAnswered, seat, seat & 1, _TRUCO, True, value)]
        caller, points = truco.refuse()
        events = [public(TrucoAnswered, seat, seat & 1, _TRUCO, False, points)]
        return events + self._end_round(st, caller, points, _REFUSED)

    def _mazo(self, st: ArgentinoState, seat: int) -> list[Event]:
        """Out of the round; answering a call to one's team, a no quiero. A team that leaves in
        the first trick while the envido could still be called gives ``mazo_first``."""
        team = seat & 1
        first = st.envido_callable()
        refuses = st.envido.pending if st.envido.pending >= 0 else st.truco.pending
        no_quiero = refuses >= 0
        st.live[seat] = False
        st.in_team[team] -= 1
        st.folded[seat] = tuple(st.hands[seat])
        st.hands[seat] = []
        st.plays[seat] = []
        st.unseen[seat], st.folded_unseen[seat] = 0, st.unseen[seat]
        st.owes[seat] = False  # a flor not sung leaves with the cards
        if seat in st.to_play:
            st.to_play.remove(seat)
        events = [public(ArgentinoWentToDeck, seat, team, no_quiero)]
        floor = st.options.mazo_first if first else 0
        if no_quiero and st.envido.pending >= 0:
            events += envido_bet.answer(st, seat, False)
        elif no_quiero:
            caller, points = st.truco.refuse()
            events.append(public(TrucoAnswered, seat, team, _TRUCO, False, points))
            return events + self._end_round(st, caller, max(points, floor), _REFUSED)
        st.played[seat] = []
        if not st.in_team[team]:
            stake = max(LADDER.stake(st.truco.level), floor)
            return events + self._end_round(st, 1 - team, stake, _DECK)
        if not st.to_play:
            events += self._end_trick(st)
        return events

    def _end_round(self, st: ArgentinoState, team: int | None, stake: int, reason: Reason, last: bool = False
                   ) -> list[Event]:
        if team is not None:
            st.round_points[team] += stake
        for s in range(2):
            st.points[s] += st.round_points[s]
        totals = (st.round_points[0], st.round_points[1])
        events = [public(TrucoRoundEnded, st.round_no, team, stake, reason, totals)]
        record = st.e_record
        if st.sealed:  # the cards are shown at the hand's end, each opened by its seat's client (``_show``)
            self._claims(st, record)
        elif record is not None and record.winner is not None:
            w = record.winner
            st.shown[w] = (st.env_cards[w], _SHOW_ENVIDO)
            events.append(made(Event, made(ArgentinoShown, w, st.env_cards[w], _SHOW_ENVIDO), EVERYONE))
        for w in () if st.sealed else st.f_shown:
            st.shown[w] = (st.dealt[w], _SHOW_FLOR)
            events.append(made(Event, made(ArgentinoShown, w, st.dealt[w], _SHOW_FLOR), EVERYONE))
        st.rounds.append(RoundRecord(
            st.round_no, st.players, st.mano, tuple(st.tricks), team, stake, reason, totals, st.e_record,
            st.f_record,
        ))
        st.live = [False] * st.n
        st.announcer = -1
        if st.duels and not last:
            st.earlier += [c for t in st.tricks for _, c in t.plays if c is not None] + [
                c for _, c in st.trick if c is not None]
            for s in st.players:
                st.hands[s] = []
                st.plays[s] = []
                st.played[s] = []
            return events + self._next_duel(st)
        return events + self._finish_hand(st)

    def _finish_hand(self, st: ArgentinoState) -> list[Event]:
        assert st.log is not None
        if st.claims and not st.showing:  # sealed: the claims' cards are shown first, one seat after another
            st.showing = True
            return []
        st.showing = False
        if st.sealed:  # the deal of the history: the cards each seat was seen to hold
            for s in range(st.n):
                st.log.holds(s, st.dealt[s] if st.known[s] else st.opened[s])
        pts = st.points
        st.scores = [st.scores[t] + pts[t] - st.banked[t] for t in (0, 1)]
        deltas = self.deltas(pts, st.n)
        leader = self.leader(pts)
        st.result = made(TrucoResult, deltas, (pts[0], pts[1]), leader, tuple(r.result for r in st.rounds),
                         (st.scores[0], st.scores[1]))
        st.log.finish(history_result(st, st.result, tuple(st.rounds)), pica_pica=st.pica)
        events = [public(HandEnded, deltas, None, leader)]
        if st.decided():
            events.append(public(MatchEnded, None, 0 if st.scores[0] > st.scores[1] else 1))
        return events

    # -- a sealed table (engine.truco.sealed) ----------------------------------------------
    @staticmethod
    def _claims(st: ArgentinoState, envido: EnvidoRecord | None) -> None:
        """A round's end at a sealed table: the claims the rules show (the envido's winner, each flor that scored)
        are kept, to be shown at the hand's end."""
        if envido is not None and envido.winner is not None and envido.points:
            w = envido.winner
            st.claims.append(Claim(w, ENVIDO, st.env[w], envido.points, st.round_no))
        flor = st.f_record
        for w in st.f_shown:
            won = ALONE if flor is not None and flor.outcome == "alone" else flor.points if flor is not None else 0
            st.claims.append(Claim(w, FLOR_CLAIM, st.flor[w], won, st.round_no))

    def _show(self, st: ArgentinoState, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        """The claim first in line is shown (its cards, opened by the seat's client) or not (none): cards that do not
        make the number said, or none, give what the claim won to the other team. The last one ends the hand."""
        claim = st.claims.pop(0)
        events: list[Event] = []
        reason = _SHOW_FLOR if claim.kind == FLOR_CLAIM else _SHOW_ENVIDO
        for card in cards:
            if card not in st.opened[seat] and card not in st.dealt[seat]:
                st.opened[seat].append(card)
                if st.unseen[seat]:
                    st.unseen[seat] -= 1
                else:  # a card it took to the deck unseen
                    st.folded_unseen[seat] -= 1
            st.seen_cards.add(card)
        if cards:
            st.shown[seat] = (cards, reason)
            events.append(Event(ArgentinoShown(seat, cards, reason)))
            self._shown_in(st, claim, cards)
        if not bears_out(claim, cards, st.options.envido_unsuited):
            team = seat & 1
            points = claim.points
            for scores in (st.points, *((st.scores, st.banked) if st.at_once and st.banked[team] else ())):
                scores[team] -= points
                scores[1 - team] += points
            events.append(Event(ArgentinoClaimLost(seat, team, reason, claim.value, points, bool(cards))))
        if not st.claims:
            events += self._finish_hand(st)
        return events

    @staticmethod
    def _shown_in(st: ArgentinoState, claim: Claim, cards: tuple[Card, ...]) -> None:
        """The history's record of the claim's round names the cards shown for it."""
        i = next((i for i, r in enumerate(st.rounds) if r.round == claim.round), None)
        if i is None:
            return
        r = st.rounds[i]
        e, f = r.envido, r.flor
        if claim.kind == ENVIDO and e is not None and e.winner == claim.seat:
            e = EnvidoRecord(e.calls, e.accepted, e.cancelled, e.points, e.team, e.scores, e.winner, cards)
        elif f is not None and f.winner == claim.seat:
            f = FlorRecord(f.calls, f.outcome, f.points, f.team, f.scores, f.winner, cards)
        st.rounds[i] = RoundRecord(r.round, r.seats, r.mano, r.tricks, r.team, r.stake, r.reason, r.points, e, f)

    def sealed_deal(self, st: ArgentinoState) -> SealedDeal:
        return SealedDeal("round", st.n, st.dealer, envido_unsuited=st.options.envido_unsuited.value)

    def learn(self, st: ArgentinoState, seat: int, cards: tuple[Card, ...]) -> None:
        st.known[seat] = True
        st.unseen[seat] = 0
        st.seen_cards.update(cards)
        st.dealt[seat] = cards
        st.hands[seat] = list(cards)
        st.plays[seat] = [PLAY[c] for c in cards]
        st.played[seat] = [public(TrucoPlayed, seat, c) for c in cards]
        st.env[seat], st.env_cards[seat] = envido_score(cards, st.options.envido_unsuited)
        st.flor[seat] = flor_value(cards) if st.options.flor else -1
        if st.live[seat] and not st.played0[seat]:
            st.owes[seat] = st.flor[seat] >= 0

    def sealed_move(self, st: ArgentinoState, action: Action) -> Move | None:
        return _MOVES.get(action.type)

    def sealed_action(self, st: ArgentinoState, move: Move, seat: int, cards: tuple[Card, ...], index: int
                      ) -> Action:
        if move is Move.PLAY:
            return Action("play", cards=cards)
        if move is Move.SHOW:
            return Action("show", cards=cards)
        raise ValueError(f"truco argentino has no {move.value} at a sealed table")

    def void(self, st: ArgentinoState) -> list[Event]:
        if st.result is not None:
            return []
        for t in (0, 1):  # what was scored at once is taken back with the rest
            st.scores[t] -= st.banked[t]
        st.banked, st.points, st.round_points = [0, 0], [0, 0], [0, 0]
        st.claims, st.showing, st.duels = [], False, []
        st.e_record = st.f_record = None
        st.f_shown = []
        return self._end_round(st, None, 0, Reason.VOID, last=True)

    # -- queries ----------------------------------------------------------------------
    def match_over(self, st: ArgentinoState) -> bool:
        """A team has reached the target, and is ahead (level scores past it play on)."""
        return st.result is not None and st.decided()

    def view(self, st: ArgentinoState, seat: int | None) -> TrucoView:
        may = seat is not None and st.result is None and checks.gate_envido(st, seat) is None
        return build_view(st, seat, self.to_act(st), self.match_over(st), may)

    def open_view(self, st: ArgentinoState) -> TrucoView:
        return build_view(st, None, self.to_act(st), self.match_over(st), False, open=True)


def draw(rng: random.Random, k: int) -> list[int]:
    """Positions in ``DECK`` of the ``k`` cards dealt: a shuffle of the pack cut short (docs/deal.md §8).

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


def _free_tail(envido: bool, raise_to: int, signals: bool) -> tuple[Action, ...]:
    calls = (*(ENVIDO_CALLS[()] if envido else ()), *((TRUCO_CALLS[raise_to],) if raise_to else ()))
    return (*calls, MAZO, *(SIGNAL_ACTIONS if signals else ()))


_FREE = {(e, k, c): _free_tail(e, k, c) for e in (False, True) for k in range(4) for c in (False, True)}
"""What a seat free to act may say, by (envido open to it, the truco it may call, signals open to it)."""
PLAYED = tuple(tuple(Event(TrucoPlayed(s, c)) for c in DECK) for s in range(6))
"""Every seat's play of every card, as its (public, immutable) event, by position in ``DECK``."""
_LEAVE = {False: (MAZO,), True: (MAZO, *SIGNAL_ACTIONS)}
_MOVES = {"play": Move.PLAY, "play_unopened": Move.DOWN, "show": Move.SHOW}
"""What each action does with sealed cards (``Sealed.move``)."""
_FLOR_CLAIMS = frozenset({"flor", "contra_flor", "contra_flor_al_resto"})
"""The words that claim a flor: at a sealed table, said with its count."""
_ANSWERS = (QUIERO, NO_QUIERO)
_ANSWER_ENVIDO = {calls: (QUIERO, NO_QUIERO, *raises) for calls, raises in ENVIDO_CALLS.items()}
"""Answering an envido: quiero, no quiero and the raises that may follow its calls."""
_ANSWER_TRUCO = {
    (k, e, c): (QUIERO, NO_QUIERO, *((TRUCO_CALLS[k],) if k else ()), *(ENVIDO_CALLS[()] if e else ()), *_LEAVE[c])
    for k in range(4) for e in (False, True) for c in (False, True)
}
"""Answering a truco: quiero, no quiero, the raise, envido (against a first truco), the deck, signals."""

GAME = TrucoArgentino()
