"""A compact model of one truco round, for the bots' search: both games, cards as strengths.

The search deals the hidden cards many ways (``engine.truco.bots.worlds``) and plays each
deal out here, far faster than the engine would, because a card is only its strength (the
games' rank tables: 14 is the top card) and the round keeps only what decides it: the
tricks and their ties, the truco ladder and who may climb it, and, in truco argentino, the
envido. What the model leaves out is left out on purpose: flor (settled by rule before
play), going to the deck, signals, calls out of turn, face-down cards (they never win).
``tests/engine/test_bots.py`` plays the engine and the model side by side to keep them
telling the same story.

Actions are small tuples ``(kind, x)``: a card played (its strength), a truco call, an
answer, an envido call (its word as an int), an envido answer, or going to the deck (``MAZO``,
which only the search's own choices use: ``x`` is what a team leaving in the first trick gives).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardtui.engine.truco.argentino.rules import RANK as ARG_RANK
from cardtui.engine.truco.paulista.rules import RANK as PAU_RANK
from cardtui.engine.truco.tricks import TieRule, hand_winner, trick_winner
from cardtui.engine.truco.views import TrucoRules

PLAY, DOWN, CALL, ACCEPT, REFUSE, ENVIDO, E_ACCEPT, E_REFUSE, MAZO = range(9)
Move = tuple[int, int]

PAULISTA_VALUES = (1, 3, 6, 9, 12)
PAULISTA_REFUSED = (0, 1, 3, 6, 9)
ARGENTINO_VALUES = (1, 2, 3, 4)
ARGENTINO_REFUSED = (0, 1, 2, 3)

E, R, F = 0, 1, 2
"""Envido, real envido, falta envido."""
ENV_NEXT: dict[tuple[int, ...], tuple[int, ...]] = {
    (): (E, R, F), (E,): (E, R, F), (R,): (R, F), (E, E): (R, F), (E, R): (F,), (R, R): (F,), (E, E, R): (F,),
}


def env_accepted(calls: Sequence[int], falta: int) -> int:
    if calls and calls[-1] == F:
        return falta
    return sum(2 if c == E else 3 for c in calls)


def env_refused(calls: Sequence[int]) -> int:
    before = sum(2 if c == E else 3 for c in calls[:-1] if c != F)
    last = calls[-1]
    if last == F:
        return before or 1
    return before + (1 if last == E else 2)


@dataclass(frozen=True, slots=True)
class Referee:
    """How the table takes an answer to a truco: the search's model follows the table it sits at.

    At ours either opponent answers and the first answer is final, a raise included (docs/rules.md §3). In
    MiniTruco's house (``bench/outside_house.py``) a call is put to both partners: a refusal hands it to the partner,
    the team runs only when both refuse, and an answer is only yes or no (a raise is called on one's own turn)."""

    team_answers: bool = False
    """A refusal hands the call to a partner who has not answered; the team runs only when both refuse."""
    answer_raises: bool = True
    """An answer may be a raise."""

    def __reduce__(self) -> tuple[object, tuple[bool, bool]]:
        """Rebuilt by its constructor: compiled (``cardtui.native``), a frozen record cannot be unpickled field by
        field, and a bot's memory carries one to a bot worker (``search.TrucoMemory``)."""
        return (Referee, (self.team_answers, self.answer_raises))


OURS = Referee()
MINITRUCO = Referee(team_answers=True, answer_raises=False)


@dataclass(frozen=True, slots=True)
class Table:
    """What stays fixed through a round."""

    n: int
    players: tuple[int, ...]
    """The seats playing the round, in play order from the mano."""
    mano: int
    rules: TrucoRules
    """Which truco's rules the table plays, as its view declares them."""
    trick_mode: bool
    """Truco paulista with ``truco_decides = trick``: an accepted truco makes the trick in play decide."""
    last_takes_all: bool
    """Truco argentino's play_on ties (a tied trick makes the next take all); else a tie goes to the first
    decided trick's winner (paulista, and argentino's ``first_trick``)."""
    target: int
    no_truco: bool
    """A mão de onze played, or a mão de ferro."""
    falta: int
    """What falta envido is worth."""
    referee: Referee = OURS
    """How the table takes an answer to a truco."""

    @property
    def values(self) -> tuple[int, ...]:
        return PAULISTA_VALUES if self.rules is TrucoRules.PAULISTA else ARGENTINO_VALUES

    @property
    def refused(self) -> tuple[int, ...]:
        return PAULISTA_REFUSED if self.rules is TrucoRules.PAULISTA else ARGENTINO_REFUSED

    @property
    def rule(self) -> TieRule:
        """How a tied trick is settled: the engine's own ruling (``engine.truco.tricks.hand_winner``)."""
        return TieRule.LAST_TAKES_ALL if self.last_takes_all else TieRule.FIRST_DECIDED


class Sim:
    """One round in play; ``copy`` before playing a deal out."""

    __slots__ = (
        "caller",
        "calls",
        "decides",
        "done",
        "e_calls",
        "e_open",
        "e_pending",
        "env",
        "gone",
        "hands",
        "leader",
        "left",
        "level",
        "order",
        "owner",
        "passed",
        "pending",
        "played0",
        "pts",
        "res",
        "scores",
        "seen",
        "stake_base",
        "t",
        "trick",
    )

    def __init__(self, t: Table) -> None:
        self.t = t
        self.hands: list[list[int]] = [[] for _ in range(t.n)]
        self.trick: list[tuple[int, int]] = []
        self.order: list[int] = list(t.players)
        self.res: list[int | None] = []
        self.leader = t.mano
        self.played0 = [False] * t.n
        self.level = 0
        self.calls = 0
        self.pending = -1
        self.owner = -1
        self.caller = -1
        self.passed = -1
        """The seat that refused a call awaiting its answer and handed it to its partner (``Referee.team_answers``)."""
        self.decides = -1
        self.pts = [0, 0]
        self.done = False
        self.env = [0] * t.n
        self.e_open = False
        self.e_calls: tuple[int, ...] = ()
        self.e_pending = -1
        self.scores = [0, 0]
        self.stake_base = 1
        """What the round is worth with no truco accepted (3 in a mão de onze)."""
        self.gone = [0] * 15
        """Cards of each strength everyone has seen: played face up, or out of play face up."""
        self.seen = 0
        """How many cards that is."""
        self.left: tuple[int, ...] = ()
        """Seats gone to the deck this round."""

    def copy(self) -> Sim:
        c = Sim(self.t)  # a compiled class is made by its __init__: its fields are set again below
        c.t = self.t
        c.hands = [list(h) for h in self.hands]
        c.trick = list(self.trick)
        c.order = list(self.order)
        c.res = list(self.res)
        c.leader = self.leader
        c.played0 = list(self.played0)
        c.level, c.calls, c.pending, c.owner, c.caller = self.level, self.calls, self.pending, self.owner, self.caller
        c.passed = self.passed
        c.decides = self.decides
        c.pts = list(self.pts)
        c.done = self.done
        c.env = self.env
        c.e_open, c.e_calls, c.e_pending = self.e_open, self.e_calls, self.e_pending
        c.scores = self.scores
        c.stake_base = self.stake_base
        c.gone = list(self.gone)
        c.seen = self.seen
        c.left = self.left
        return c

    # -- state ---------------------------------------------------------------------
    @property
    def stake(self) -> int:
        return self.t.values[self.level] if self.level else self.stake_base

    def actor(self) -> int:
        """The seat to decide now (for an answer: the answering team's first player), -1 when over."""
        if self.done:
            return -1
        team = self.e_pending if self.e_pending >= 0 else self.pending
        if team >= 0:
            return next(s for s in self.t.players if s & 1 != team and s != self.passed)
        return self.order[0]

    def may_call(self, team: int) -> bool:
        t = self.t
        if t.no_truco:
            return False
        top = len(t.values) - 1
        if self.pending >= 0:
            if team == self.pending or self.calls >= top or not t.referee.answer_raises:
                return False
            stake = t.values[self.calls]
        else:
            if self.level and (t.trick_mode or self.owner != team):
                return False
            if self.calls >= top:
                return False
            stake = self.stake
        if t.rules is TrucoRules.PAULISTA:
            return stake < t.target and self.scores[team] + stake < t.target
        return True

    def partner_to_answer(self, seat: int) -> bool:
        """Whether a partner of ``seat`` in the round may still answer the call it answers."""
        return any(s != seat and s & 1 == seat & 1 and s != self.passed for s in self.t.players)

    def may_envido(self, seat: int) -> bool:
        return self.e_open and not self.played0[seat]

    def legal(self, seat: int, down: bool = False) -> list[Move]:
        """What ``seat`` may do now in the model (``down``: face-down cards too, paulista's later tricks)."""
        team = seat & 1
        if self.e_pending >= 0:
            return [(E_ACCEPT, 0), (E_REFUSE, 0), *((ENVIDO, w) for w in ENV_NEXT.get(self.e_calls, ()))]
        if self.pending >= 0:
            out = [(ACCEPT, 0), (REFUSE, 0)]
            if self.may_call(team):
                out.append((CALL, 0))
            if self.t.rules is not TrucoRules.PAULISTA and self.calls == 1 and self.may_envido(seat):
                out += [(ENVIDO, w) for w in ENV_NEXT[()]]
            return out
        out = [(PLAY, v) for v in sorted(set(self.hands[seat]))]
        if down and self.t.rules is TrucoRules.PAULISTA and self.res:
            out += [(DOWN, v) for v in sorted(set(self.hands[seat]))]
        if self.may_call(team):
            out.append((CALL, 0))
        if self.may_envido(seat) and not self.e_calls:
            out += [(ENVIDO, w) for w in ENV_NEXT[()]]
        return out

    # -- doing -----------------------------------------------------------------------
    def apply(self, seat: int, move: Move) -> None:
        kind, x = move
        if kind in (PLAY, DOWN):
            self.hands[seat].remove(x)
            self.trick.append((seat, x if kind == PLAY else -1))
            if kind == PLAY:
                self.gone[x] += 1
                self.seen += 1
            self.order.pop(0)
            if not self.res:
                self.played0[seat] = True
            if not self.order:
                self._end_trick()
        elif kind == CALL:
            self.passed = -1
            if self.pending >= 0:
                self.level = self.calls
                self.owner = 1 - self.pending
                if self.t.rules is not TrucoRules.PAULISTA:
                    self.e_open = False
            self.calls += 1
            self.pending = seat & 1
            self.caller = seat
        elif kind == ACCEPT:
            self.passed = -1
            self.level = self.calls
            self.owner = seat & 1
            self.pending = -1
            if self.t.trick_mode:
                self.decides = len(self.res)
            if self.t.rules is not TrucoRules.PAULISTA:
                self.e_open = False
        elif kind == REFUSE:
            if self.t.referee.team_answers and self.passed < 0 and self.partner_to_answer(seat):
                self.passed = seat  # the call waits on: its partner answers it
                return
            self._finish(self.pending, self.t.refused[self.calls])
        elif kind == ENVIDO:
            self.e_calls = (*self.e_calls, x)
            self.e_pending = seat & 1
            self.e_open = False
        elif kind == E_ACCEPT:
            best = -1
            for s in self.t.players:  # nearer the mano first: an equal envido does not take the lead
                if best < 0 or self.env[s] > self.env[best]:
                    best = s
            self.pts[best & 1] += env_accepted(self.e_calls, self.t.falta)
            self.e_pending = -1
        elif kind == E_REFUSE:
            self.pts[self.e_pending] += env_refused(self.e_calls)
            self.e_pending = -1
        elif kind == MAZO:
            self._mazo(seat, x)

    def _mazo(self, seat: int, first: int) -> None:
        """``seat`` goes to the deck: a no quiero to a call awaiting its team's answer; its cards leave the
        round, one it played this trick can no longer win; its team gone, the other takes the stake (or
        ``first``, when the envido could still be called in the first trick)."""
        team = seat & 1
        floor = first if self.e_open and not self.res else 0
        if self.e_pending >= 0:
            self.apply(seat, (E_REFUSE, 0))
        elif self.pending >= 0:
            points = self.t.refused[self.calls]
            self._finish(self.pending, max(points, floor))
            return
        self.hands[seat] = []
        self.left = (*self.left, seat)
        self.trick = [(s, -1 if s == seat else v) for s, v in self.trick]
        if seat in self.order:
            self.order.remove(seat)
        if all(s in self.left for s in self.t.players if s & 1 == team):
            self._finish(1 - team, max(self.stake, floor))
            return
        if not self.order:
            self._end_trick()

    def _end_trick(self) -> None:
        plays = self.trick
        winner, first_best = trick_winner(plays)  # the engine's trick: ties and cards that cannot win alike
        team = None if winner is None else winner & 1
        self.res.append(team)
        t = self.t
        if t.rules is TrucoRules.PAULISTA:
            self.leader = first_best if first_best is not None else plays[0][0]
        elif winner is not None:
            self.leader = winner
        self.trick = []
        self.e_open = False
        decided = team if team is not None and 0 <= self.decides < len(self.res) else None
        if decided is None:
            decided = hand_winner(self.res, t.mano & 1, t.rule)
        if decided is not None:
            self._finish(decided, self.stake)
            return
        p = t.players
        i = p.index(self.leader)
        self.order = [s for s in [*p[i:], *p[:i]] if self.hands[s]]  # a seat gone to the mazo has none

    def standing(self, plays: Sequence[tuple[int, int]] | None = None) -> int | None:
        """The team the trick in play (or ``plays``) goes to as it stands, as the engine rules it: the team of the
        highest card; on an opposing tie, the team the tie gives the hand to (paulista and ``first_trick``: trick
        1's winner), or None when a tie decides nothing yet or goes to neither (nor does a trick no card can win).
        """
        plays = self.trick if plays is None else plays
        if not plays:
            return None
        winner, first_best = trick_winner(plays)
        if winner is not None:
            return winner & 1
        if first_best is None:
            return None
        return hand_winner([*self.res, None], self.t.mano & 1, self.t.rule)

    def _finish(self, team: int, points: int) -> None:
        self.pts[team] += points
        self.done = True
        self.pending = -1


# -- how the model plays out a deal: every seat by a plain policy of its own cards -----------------
def copies(paulista: bool) -> tuple[int, ...]:
    """How many cards of each strength the deck holds (index: strength, 1 to 14)."""
    rank = PAU_RANK if paulista else ARG_RANK
    counts = [0] * 15
    for v in rank.values():
        counts[v] += 1
    return tuple(counts)


ENVIDO_LOOSENESS = (0, 2, 4)
"""How much below 27 the model's players answer an envido with, one chosen per answer."""


class Policy:
    """The plain policy every seat plays by in a deal played out; it sees its own cards and the table.

    ``seen`` counts the cards of each strength the table has seen (played face up); the odds
    that nobody still to play holds a higher card than one's best decide calls and answers.
    """

    def __init__(self, paulista: bool, rng: random.Random, call_at: float = 0.72, accept_at: float = 0.42,
                 raise_at: float = 0.9, bluff: float = 0.0, accept_top: int | None = None) -> None:
        self.copies = copies(paulista)
        self.rng = rng
        self.call_at = call_at
        self.accept_at = accept_at
        self.accept_top = accept_top
        """A seat holding a card at least this strong accepts a truco whatever its hand's odds (None: by the odds
        alone): how some players answer, by their best card (``engine.truco.bots.search.AnswerRead``)."""
        self.raise_at = raise_at
        self.bluff = bluff

    def trick_odds(self, sim: Sim, seat: int) -> float:
        """The chance, as ``seat`` sees it, that the trick in play goes its team's way if it plays its best card
        (or as it stands, once it has played): that the trick stands with its team as the engine rules it, its
        ties included (``Sim.standing``: a tie goes to trick 1's winner in paulista), and no opponent still to
        play holds a higher card, among the cards it has not seen."""
        hand = sim.hands[seat]
        team = seat & 1
        plays = list(sim.trick)
        if hand and not any(s == seat for s, _ in plays):
            plays.append((seat, max(hand)))
        if sim.standing(plays) != team:
            return 0.0
        top = max(v for _, v in plays)
        cards = sum(len(sim.hands[s]) for s in sim.order if s & 1 != team)
        if not cards:
            return 1.0
        gone = sim.gone
        higher = sum(self.copies[v] - gone[v] for v in range(top + 1, 15)) - sum(1 for v in hand if v > top)
        if higher <= 0:
            return 1.0
        unseen = 40 - len(hand) - sim.seen
        p = 1.0
        for i in range(cards):
            p *= max(0.0, 1 - higher / max(1, unseen - i))
        return p

    def hand_odds(self, sim: Sim, seat: int) -> float:
        """A rough chance that ``seat``'s team takes the hand (tricks won so far and its cards)."""
        team = seat & 1
        won = sum(1 for r in sim.res if r == team)
        lost = sum(1 for r in sim.res if r is not None and r != team)
        hand = sorted(sim.hands[seat], reverse=True)
        if sim.decides >= 0 or (sim.t.trick_mode and sim.pending >= 0):
            return self.trick_odds(sim, seat)
        power = sum(v for v in hand[:2]) / (14.0 * max(1, len(hand[:2])))
        return min(1.0, max(0.0, 0.5 + 0.3 * (won - lost) + 0.9 * (power - 0.55)))

    def decide(self, sim: Sim, seat: int) -> Move:
        team = seat & 1
        if sim.e_pending >= 0:
            env = sim.env[seat]
            # Players answer from 27, 25 or 23 alike: an envido called on nothing is not assumed
            # to be refused, so the search does not bluff into players who call it.
            need = 27 + 2 * (len(sim.e_calls) - 1) - self.rng.choice(ENVIDO_LOOSENESS)
            raises = ENV_NEXT.get(sim.e_calls, ())
            if env >= 31 and raises and len(sim.e_calls) < 2:
                return (ENVIDO, raises[0])
            return (E_ACCEPT, 0) if env >= need else (E_REFUSE, 0)
        if sim.pending >= 0:
            if sim.t.rules is not TrucoRules.PAULISTA and sim.calls == 1 and sim.may_envido(seat) and \
                    sim.env[seat] >= 29:
                return (ENVIDO, E)
            p = self.hand_odds(sim, seat)
            if p >= self.raise_at and sim.may_call(team):
                return (CALL, 0)
            top = self.accept_top is not None and max(sim.hands[seat], default=0) >= self.accept_top
            return (ACCEPT, 0) if p >= self.accept_at or top else (REFUSE, 0)
        if sim.may_envido(seat) and not sim.e_calls and sim.env[seat] >= 28:
            return (ENVIDO, R if sim.env[seat] >= 31 else E)
        if sim.may_call(team):
            p = self.hand_odds(sim, seat) if not sim.t.trick_mode else self.trick_odds(sim, seat)
            if p >= self.call_at or (self.bluff and self.rng.random() < self.bluff):
                return (CALL, 0)
        return (PLAY, self.card(sim, seat))

    def card(self, sim: Sim, seat: int) -> int:
        hand = sim.hands[seat]
        if len(hand) == 1:
            return hand[0]
        team = seat & 1
        best = max((v for _, v in sim.trick), default=-1)
        ordered = sorted(hand)
        ours = sim.standing() == team  # a tie that gives this team the hand holds it too
        last = len(sim.order) == 1
        critical = sim.decides == len(sim.res) or bool(sim.res)
        if not sim.trick:  # leading
            if critical:
                return ordered[-1]
            return ordered[len(ordered) // 2]
        if ours and (last or best >= 10 or not critical):
            return ordered[0]
        for v in ordered:
            if v > best:
                return v
        if best in ordered and sim.standing([*sim.trick, (seat, best)]) == team and (
                last or not any(self.copies[v] - sim.gone[v] for v in range(best + 1, 15))):
            return best  # a tie that wins the hand, and nobody left can beat it
        return ordered[0]


def play_out(sim: Sim, policy: Policy) -> None:
    """Play the round to its end by ``policy`` for every seat."""
    while not sim.done:
        seat = sim.actor()
        sim.apply(seat, policy.decide(sim, seat))
