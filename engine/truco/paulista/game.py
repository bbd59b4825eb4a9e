"""Truco paulista-style (docs/rules.md §3): four players in two facing pairs, to 12.

Seats are numbered counter-clockwise, so the player to a seat's right is ``seat + 1``
(``engine.truco.tricks``). The dealer gives three cards to the mão (``dealer + 1``), who
keeps them, passes them to the partner (then gets three more to keep or reject), or
rejects them face up (at most three times); then the dealer's partner, the mão's partner
and the dealer are dealt in turn. The mão leads; play goes to the right.

On their turn, before playing, a player may call truco (3); either opponent answers
first-come: run (the callers score the stake before the call), accept, or raise (6, 9,
12), never by a team that winning the stake would already take to 12. With
``truco_decides = trick`` an accepted truco makes the trick in play decide the hand (a
tie there falls back to the usual tie rules); with ``hand`` the accepting team may raise
again on a later turn. Mão de onze: one team on 11 sees both its hands, then runs
(opponents +1) or plays for 3, with no truco. Mão de ferro: both on 11, cards dealt
unseen and played blind, for 1; a tied iron hand scores nothing, and another follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from cardtui.engine.cards import Card, shuffled
from cardtui.engine.core import (
    Action,
    Event,
    IllegalAction,
    NotYourTurn,
    SeatInfo,
    check_seat,
    only,
)
from cardtui.engine.events import CardsDealt, HandEnded, HandStarted, MatchEnded
from cardtui.engine.fairness import Seed, hand_rng
from cardtui.engine.history import HandLog
from cardtui.engine.sealed import Move, SealedDeal
from cardtui.engine.truco.base import TrucoGame, public
from cardtui.engine.truco.events import (
    DealChoice,
    PaulistaDealChoice,
    PaulistaHandDealt,
    PaulistaOnzeDecided,
    PaulistaPartnerCards,
    Reason,
    TrucoAnswered,
    TrucoCalled,
    TrucoPlayed,
    TrucoRoundEnded,
    TrucoTrickEnded,
)
from cardtui.engine.truco.ladder import Bet, Ladder, Word
from cardtui.engine.truco.paulista.rules import (
    ACCEPT,
    ACTION_TYPES,
    CALLS,
    DECK,
    KEEP,
    LADDER,
    PLAY,
    PLAY_BLIND,
    PLAY_DOWN,
    RANK,
    RUN,
    TARGET,
    WORDS,
    PaulistaOptions,
    TrucoDecides,
)
from cardtui.engine.truco.paulista.state import PaulistaState, raise_gate
from cardtui.engine.truco.paulista.view import build_view, history_result
from cardtui.engine.truco.sealed import DOWN_ANY, PLAY_ANY, UNOPENED, may_hold
from cardtui.engine.truco.signals import MADE, SIGNAL, SIGNAL_ACTIONS, SIGNALS, made
from cardtui.engine.truco.tricks import DOWN, TieRule, hand_winner, scores_by_seat, trick_winner
from cardtui.engine.truco.views import (
    PaulistaPhase,
    TrucoResult,
    TrucoRoundResult,
    TrucoStake,
    TrucoView,
)

__all__ = ["GAME", "PaulistaOptions", "PaulistaState", "TrucoPaulista"]

DEAL, ONZE, PLAY_PHASE, OVER = PaulistaPhase.DEAL, PaulistaPhase.ONZE, PaulistaPhase.PLAY, PaulistaPhase.OVER
_MOVES_CARDS = frozenset({"play", "play_down", "pass_cards", "reject"})
"""The actions whose history entry names the cards they move (a blind play names its card apart)."""
_MOVES = {"play": Move.PLAY, "play_down": Move.DOWN, "play_unopened": Move.DOWN, "reject": Move.REJECT,
          "pass_cards": Move.PASS, "keep": Move.KEEP, "play_blind": Move.CHOOSE}
"""What each action does with sealed cards (``Sealed.move``)."""
STAKES = tuple(TrucoStake(r.call, r.value, r.refused) for r in LADDER.rungs)


class TrucoPaulista(TrucoGame[PaulistaState, PaulistaOptions]):
    name: ClassVar[str] = "truco_paulista"
    pack_name: ClassVar[str] = "french40"
    title: ClassVar[str] = "Truco paulista"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    usual_players: ClassVar[int] = 4
    """The paulista game is two partnerships facing each other, the only way this engine plays it."""
    sealed_dealt: ClassVar[bool] = True
    """Its keep, pass and reject, a mão de onze's sight and a mão de ferro's blind cards are relayed sealed."""
    options_type = PaulistaOptions

    # -- the deal -------------------------------------------------------------------
    def new_state(self, options: PaulistaOptions, seats: Sequence[SeatInfo]) -> PaulistaState:
        return PaulistaState(options, seats)

    def deal(self, st: PaulistaState, seed: Seed, dealer: int) -> list[Event]:
        """After a hand the mão deals next (the deal moves to the right). The deal: docs/deal.md §10.3."""
        st.hand_no += 1
        st.dealer = dealer
        st.rng = hand_rng(seed)
        st.deck = [] if st.sealed else shuffled(DECK, st.rng)  # a sealed deck is shuffled by the seats' own clients
        if st.sealed:
            self.seal_deal(st)
        st.hands = [[], [], [], []]
        st.passed, st.rejects, st.rejected, st.passed_cards = False, 0, [], []
        st.trick, st.results, st.trick_plays, st.signals = [], [], [], []
        st.truco = Ladder(LADDER)
        st.decides_from = -1
        st.onze_played = False
        st.result = None
        on11 = [t for t in (0, 1) if st.scores[t] == TARGET - 1]
        st.ferro = len(on11) == 2
        st.onze = on11[0] if len(on11) == 1 else -1
        st.log = HandLog(
            self.name, st.option_values, st.hand_no, seed, dealer, st.seats, scores_by_seat(st.scores, 4)
        )
        mao = st.mao
        events = [
            public(HandStarted, st.hand_no, dealer),
            public(PaulistaHandDealt, mao, st.onze if st.onze >= 0 else None, st.ferro),
        ]
        if not st.ferro and st.onze < 0:
            st.phase = DEAL
            return events + self._give(st, mao)
        # At 11: a plain deal, no passing or rejecting; both on 11, face down to everyone.
        for i in range(4):
            events += self._give(st, (mao + i) % 4, show=not st.ferro)
            st.log.holds((mao + i) % 4, st.hands[(mao + i) % 4])
        if st.ferro:
            return events + self._begin_play(st)
        st.phase = ONZE
        team = (st.onze, st.onze + 2)
        for s in team:
            for p in team:
                if p != s:
                    events.append(Event(PaulistaPartnerCards(p, tuple(st.hands[p])), only(s)))
        return events

    def _give(self, st: PaulistaState, seat: int, show: bool = True, cards: list[Card] | None = None) -> list[Event]:
        """Three cards to ``seat``, from the deck's front unless given (docs/deal.md §10.3); only the
        holder sees them (if anyone)."""
        if st.sealed and cards is None:  # three cards the engine cannot see (until the host opens a seat of its own)
            st.hands[seat] = []
            st.unseen[seat] = 3
            st.known[seat] = False
            return []
        if cards is None:
            cards, st.deck = st.deck[:3], st.deck[3:]
        st.hands[seat] = list(cards)
        return [Event(CardsDealt(seat, tuple(cards)), only(seat))] if show else []

    def _begin_play(self, st: PaulistaState) -> list[Event]:
        st.phase = PLAY_PHASE
        st.to_play = [(st.mao + i) % 4 for i in range(4)]
        assert st.log is not None
        for s in range(4):  # the deal of the history: the cards each seat plays the hand with
            st.log.holds(s, st.hands[s])
        return []

    # -- what may be done: one check per action, for both the legal list and the refusal ----
    def _why(self, st: PaulistaState, seat: int, action: Action) -> IllegalAction | None:
        """Why ``seat`` may not do ``action`` now, or None if it may."""
        t = action.type
        if t not in ACTION_TYPES:
            return IllegalAction("{kind} is not an action in truco paulista.", kind=repr(t[:40]))
        if st.result is not None:
            return NotYourTurn("The hand is over.")
        if t == SIGNAL:
            if action.value not in SIGNALS:
                return IllegalAction("{value} is not a signal; the signals are: {signals}.",
                                     value=repr(action.value[:40]), signals=", ".join(SIGNALS))
            if not st.hands[seat] and not st.unseen[seat]:
                return IllegalAction("You hold no cards to signal about.")
            return IllegalAction(MADE) if made(st.signals, seat, action.value) else None
        if t in ("keep", "pass_cards", "reject"):
            return self._why_deal_choice(st, seat, action)
        if st.phase is DEAL:
            return NotYourTurn("{name} is choosing whether to keep the cards.", name=st.names[st.mao])
        team = seat & 1
        if t in ("accept", "run"):
            if st.phase is ONZE:
                return None if team == st.onze else NotYourTurn("The team on 11 decides whether to play the hand.")
            if st.truco.pending < 0:
                return IllegalAction("There is no call to answer.")
            return NotYourTurn("Your team's call is waiting for an answer.") if team == st.truco.pending else None
        if st.phase is ONZE:
            return NotYourTurn("The team on 11 decides first whether to play the mão de onze.")
        if t in WORDS:
            return self._why_call(st, seat, WORDS[t])
        return self._why_play(st, seat, action)

    def _why_deal_choice(self, st: PaulistaState, seat: int, action: Action) -> IllegalAction | None:
        if st.phase is not DEAL:
            return IllegalAction("The cards have been dealt: the mão keeps, passes or rejects only before play.")
        if seat != st.mao:
            return NotYourTurn("{name} is choosing whether to keep the cards.", name=st.names[st.mao])
        t = action.type
        if t == "pass_cards" and st.passed:
            return IllegalAction("The cards have been passed once already: keep or reject.")
        if t == "reject" and st.rejects >= 3:
            return IllegalAction("Three hands have been rejected already: keep this one.")
        moved = () if t == "keep" else tuple(st.hands[seat])
        if st.unseen[seat] and not st.known[seat] and t != "keep" and action.cards:
            # sealed: the block its client showed (a pass names it only where the host knew it: a bot's), three cards
            # seen nowhere else
            if len(set(action.cards)) != 3 or any(c in st.seen_cards for c in action.cards):
                return IllegalAction("Reject the three cards dealt to you.")
            moved = action.cards
        if action.cards != moved or action.amount or action.value:
            return IllegalAction("Keep the cards, pass them, or reject them as they were dealt to you.")
        return None

    def _why_call(self, st: PaulistaState, seat: int, word: Word) -> IllegalAction | None:
        why = raise_gate(st, seat & 1)
        if why is not None:
            return why
        if st.truco.pending < 0 and seat != st.to_play[0]:
            return NotYourTurn("A truco is called on one's own turn, before playing.")
        following = st.truco.next_calls()[0]
        return None if word is following else IllegalAction("The next call is {call}.", call=following.value)

    def _why_play(self, st: PaulistaState, seat: int, action: Action) -> IllegalAction | None:
        if st.truco.pending >= 0:
            if seat & 1 == st.truco.pending:
                return NotYourTurn("Your team's call is waiting for an answer.")
            return IllegalAction("Answer the call first: accept, run, or raise.")
        if seat != st.to_play[0]:
            return NotYourTurn("It is {name}'s turn.", name=st.names[st.to_play[0]])
        hand = st.hands[seat]
        unseen = st.unseen[seat]
        if action.type == "play_unopened":
            return None if unseen else IllegalAction("Only a card nobody could open is played so.")
        if action.type == "play_blind":
            held = len(hand) + unseen
            if not st.ferro:
                return IllegalAction("Cards are played blind only in a mão de ferro.")
            if not 1 <= action.amount <= held:
                return IllegalAction("Choose one of your {n} unseen cards by its place, 1 to {n}.", n=held)
            if action.cards and not (len(action.cards) == 1 and may_hold(st, seat, action.cards[0])):
                return IllegalAction("You do not hold that card.")
            return None
        if st.ferro:
            return IllegalAction("In a mão de ferro the cards are played blind: choose one by its place.")
        if action.type == "play_down" and not st.results:
            return IllegalAction("A card may be played face down only on the second and third tricks.")
        if not action.cards and unseen:  # sealed: one of its own, named by its client (face down: never named)
            return None
        if len(action.cards) != 1 or not (action.cards[0] in hand or may_hold(st, seat, action.cards[0])):
            return IllegalAction("You do not hold that card.")
        return None

    def _candidates(self, st: PaulistaState, seat: int) -> list[Action]:
        """Every action that might be legal for ``seat`` now (``legal_actions`` checks each)."""
        hand = st.hands[seat]
        unseen = st.unseen[seat]
        signals = list(SIGNAL_ACTIONS) if hand or unseen else []
        if st.phase is DEAL:
            cards = tuple(hand)
            return [KEEP, Action("pass_cards", cards=cards), Action("reject", cards=cards), *signals]
        if st.phase is ONZE or st.truco.pending >= 0:
            return [ACCEPT, RUN, *CALLS.values(), *signals]
        if st.ferro:
            return [*PLAY_BLIND[1 : len(hand) + unseen + 1], *signals]
        offered = [PLAY_ANY, DOWN_ANY] if unseen else []  # sealed: its client names the card
        return [*(PLAY[c] for c in hand), *(PLAY_DOWN[c] for c in hand), *offered, *CALLS.values(), *signals]

    def legal_actions(self, st: PaulistaState, seat: int) -> list[Action]:
        if st.result is not None:
            return []
        return [a for a in self._candidates(st, seat) if self._why(st, seat, a) is None]

    def to_act(self, st: PaulistaState) -> tuple[int, ...]:
        """The mão's deal choice, the team on 11, a call's answerers, or the player to play."""
        if st.result is not None:
            return ()
        if st.phase is DEAL:
            return (st.mao,)
        if st.phase is ONZE:
            return (st.onze, st.onze + 2)
        if st.truco.pending >= 0:
            team = 1 - st.truco.pending
            return (team, team + 2)
        return (st.to_play[0],)

    def default_action(self, st: PaulistaState, seat: int) -> Action:
        """On timeout: keep the cards, run from a call, or play the lowest card."""
        legal = self.legal_actions(st, seat)
        for a in (KEEP, RUN):
            if a in legal:
                return a
        if st.unseen[seat] and not st.known[seat] and (PLAY_ANY in legal or PLAY_BLIND[1] in legal):
            return UNOPENED  # sealed: nobody here can open its cards (docs/fairness.md, "Drops and crashes")
        plays = [a for a in legal if a.type == "play"]
        if plays:
            return min(plays, key=lambda a: RANK[a.cards[0]])
        blind = [a for a in legal if a.type == "play_blind"]
        if blind:
            return blind[0]
        raise IllegalAction("There is nothing for this seat to do now.")

    # -- doing it -------------------------------------------------------------------
    def apply(self, st: PaulistaState, seat: int, action: Action) -> list[Event]:
        check_seat(seat, 4)
        if action.type == "play_blind" and action.cards and not st.unseen[seat]:  # a history names the card turned up
            action = Action("play_blind", amount=action.amount)
        why = self._why(st, seat, action)
        if why is not None:
            raise why
        unopened = st.unseen[seat] and not st.known[seat] and not action.cards
        if (action.type == "play" and not action.cards) or (action.type in ("play_blind", "reject") and unopened):
            raise IllegalAction("At a sealed table your client names the card, and opens it with its keys.")
        log = st.log
        assert log is not None
        t = action.type
        # The history records what was done, never a stray field sent with it: the cards a play
        # or a deal choice moves, a signal's gesture, and nothing for a call or an answer
        # (docs/history.md §4). The checks above have settled those that matter.
        action = Action(t, amount=action.amount if t == "play_blind" else 0,
                        cards=action.cards if t in _MOVES_CARDS or t == "play_blind" else (),
                        value=action.value if t == SIGNAL else "")
        if t == SIGNAL:
            log.act(seat, action)
            return [self.signal(st, seat, SIGNALS[action.value], st.options.signals_seen)]
        if t == "play_blind":
            card = action.cards[0] if action.cards else st.hands[seat][action.amount - 1]
            log.act(seat, Action("play_blind", amount=action.amount), {"cards": [str(card)]})
            return self._play(st, seat, card, down=False, blind=True)
        log.act(seat, action)
        if t == "play_unopened":
            return self._play(st, seat, None, down=True, blind=st.ferro)
        if t == "play" or t == "play_down":
            return self._play(st, seat, action.cards[0] if action.cards else None, down=t == "play_down")
        if st.phase is DEAL:
            return self._deal_choice(st, seat, t, action.cards)
        if st.phase is ONZE:
            return self._onze(st, seat, t == "accept")
        if t in WORDS:
            return self._call(st, seat, WORDS[t])
        return self._answer(st, seat, t == "accept")

    def _deal_choice(self, st: PaulistaState, seat: int, t: str, action_cards: tuple[Card, ...] = ()) -> list[Event]:
        """Keep, pass or reject, and the blocks each gives out (docs/deal.md §10.3 step 4)."""
        partner = (seat + 2) % 4
        if t == "keep":
            events = [Event(PaulistaDealChoice(seat, DealChoice.KEEP, ()))]
            for s in ((seat + 1) % 4, partner, (seat + 3) % 4):
                if not st.hands[s] and not st.unseen[s]:
                    events += self._give(st, s)
            return events + self._begin_play(st)
        if t == "pass_cards":
            st.passed = True
            st.passed_cards = list(st.hands[seat])
            events = [Event(PaulistaDealChoice(seat, DealChoice.PASS_CARDS, ()))]
            if st.sealed:  # the partner holds the block now, seen or not as the mão's was
                st.unseen[partner], st.known[partner] = st.unseen[seat], st.known[seat]
            return events + self._give(st, partner, cards=st.hands[seat]) + self._give(st, seat)
        st.rejects += 1
        shown = tuple(st.hands[seat]) or action_cards
        st.rejected += shown
        st.seen_cards.update(shown)
        return [Event(PaulistaDealChoice(seat, DealChoice.REJECT, shown)), *self._give(st, seat)]

    def _onze(self, st: PaulistaState, seat: int, play: bool) -> list[Event]:
        events = [public(PaulistaOnzeDecided, seat, st.onze, play)]
        if not play:
            return events + self._end_hand(st, 1 - st.onze, 1, Reason.ONZE_REFUSED)
        st.onze_played = True
        return events + self._begin_play(st)

    def _call(self, st: PaulistaState, seat: int, word: Word) -> list[Event]:
        truco = st.truco
        truco.call(seat, word)
        value, refused = truco.if_accepted(0), truco.if_refused()
        return [public(TrucoCalled, seat, seat & 1, Bet.TRUCO, word, value, refused)]

    def _answer(self, st: PaulistaState, seat: int, yes: bool) -> list[Event]:
        truco = st.truco
        if not yes:
            caller, points = truco.refuse()
            events = [public(TrucoAnswered, seat, seat & 1, Bet.TRUCO, False, points)]
            return events + self._end_hand(st, caller, points, Reason.REFUSED)
        value = truco.accept(seat)
        if st.options.truco_decides is TrucoDecides.TRICK:
            st.decides_from = len(st.results)
        return [public(TrucoAnswered, seat, seat & 1, Bet.TRUCO, True, value)]

    def _play(self, st: PaulistaState, seat: int, card: Card | None, down: bool, blind: bool = False) -> list[Event]:
        if card is not None and card in st.hands[seat]:
            st.hands[seat].remove(card)
        else:  # sealed: one the engine could not see (None: face down, never opened)
            st.unseen[seat] -= 1
        if card is not None:
            st.seen_cards.add(card)
        st.trick.append((seat, card, down))
        st.to_play.pop(0)
        event = public(TrucoPlayed, seat, None if down else card, down, blind)
        if st.to_play:
            return [event]
        return [event, *self._end_trick(st)]

    def _end_trick(self, st: PaulistaState) -> list[Event]:
        plays = tuple(st.trick)
        winner, first_best = trick_winner([(s, DOWN if d or c is None else RANK[c]) for s, c, d in plays])
        team = None if winner is None else winner & 1
        st.results.append(team)
        st.trick_plays.append((plays, winner))
        leader = first_best if first_best is not None else plays[0][0]
        st.trick = []
        events = [public(TrucoTrickEnded, len(st.results), winner, team, leader)]
        decided = team if team is not None and 0 <= st.decides_from < len(st.results) else None
        if decided is None:
            decided = hand_winner(st.results, st.mao & 1, TieRule.FIRST_DECIDED)
        if st.ferro and len(st.results) == 3 and not any(r is not None for r in st.results):
            return events + self._end_hand(st, None, 0, Reason.TIED)  # another iron hand follows
        if decided is not None:
            return events + self._end_hand(st, decided, st.stake, Reason.TRICKS)
        st.to_play = [(leader + i) % 4 for i in range(4)]
        return events

    def _end_hand(self, st: PaulistaState, team: int | None, points: int, reason: Reason) -> list[Event]:
        assert st.log is not None
        pts = (0, 0) if team is None else ((points, 0) if team == 0 else (0, points))
        st.scores = [st.scores[0] + pts[0], st.scores[1] + pts[1]]
        st.phase = OVER
        if st.sealed:  # the deal of the history: the cards each seat was seen to hold
            for s in range(4):
                opened = [c for plays, _ in st.trick_plays for p, c, d in plays if p == s and c is not None and not d]
                st.log.holds(s, [*opened, *(c for p, c, d in st.trick if p == s and c is not None and not d),
                                 *st.hands[s]])
        deltas = self.deltas(pts, 4)
        rounds = (TrucoRoundResult(1, (0, 1, 2, 3), team, points, reason, pts),)
        st.result = TrucoResult(deltas, pts, team, rounds, (st.scores[0], st.scores[1]))
        st.log.finish(history_result(st, st.result, tuple(st.trick_plays)))
        events = [
            public(TrucoRoundEnded, 1, team, points, reason, pts),
            public(HandEnded, deltas, None, team),
        ]
        if self.match_over(st):
            events.append(public(MatchEnded, None, 0 if st.scores[0] > st.scores[1] else 1))
        return events

    # -- a sealed table (engine.truco.sealed) ----------------------------------------------
    def sealed_deal(self, st: PaulistaState) -> SealedDeal:
        return SealedDeal("blocks", 4, st.dealer, st.onze if st.onze >= 0 else None, st.ferro)

    def learn(self, st: PaulistaState, seat: int, cards: tuple[Card, ...]) -> None:
        st.hands[seat] = list(cards)
        st.unseen[seat] = 0
        st.known[seat] = True
        st.seen_cards.update(cards)

    def sealed_move(self, st: PaulistaState, action: Action) -> Move | None:
        return _MOVES.get(action.type)

    def sealed_action(self, st: PaulistaState, move: Move, seat: int, cards: tuple[Card, ...], index: int) -> Action:
        if move is Move.PLAY:
            return Action("play_blind", amount=index, cards=cards) if st.ferro else Action("play", cards=cards)
        if move is Move.DOWN:
            return Action("play_down", cards=cards)
        if move is Move.REJECT:
            return Action("reject", cards=cards)
        if move is Move.PASS:
            return Action("pass_cards", cards=tuple(st.hands[seat]))
        if move is Move.KEEP:
            return KEEP
        raise ValueError(f"truco paulista has no {move.value} at a sealed table")

    def void(self, st: PaulistaState) -> list[Event]:
        if st.result is not None:
            return []
        return self._end_hand(st, None, 0, Reason.VOID)

    # -- queries ----------------------------------------------------------------------
    def match_over(self, st: PaulistaState) -> bool:
        return max(st.scores) >= TARGET

    def view(self, st: PaulistaState, seat: int | None) -> TrucoView:
        return build_view(st, seat, self.to_act(st), self.match_over(st))

    def open_view(self, st: PaulistaState) -> TrucoView:
        return build_view(st, None, self.to_act(st), self.match_over(st), open=True)


GAME = TrucoPaulista()
