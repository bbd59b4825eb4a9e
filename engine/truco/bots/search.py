"""The truco bots' search: each choice tried on many deals of the unseen cards, valued by the match.

For a decision, the search deals the cards this seat cannot see many ways, each agreeing with
everything public (``truco_worlds``), weighs each deal by how likely it makes what the others
did (a call pending now, and, reading the others, every call, answer and envido of the round),
then plays each choice out on every deal in the model round (``trucosim``), every seat then
following the model's plain policy, the calls to come included. An outcome is valued by the
chance of winning the match from the score it leaves (``odds``), so a point near the end weighs
what it is worth. The same deals serve every choice, so their difference is not noise of the deal.

``evaluate`` gives every legal choice its estimate and standard error (``estimates``); the bots
decide on the same numbers:

- ``normal`` searches a few deals, reading only a call that awaits its answer;
- ``hard`` searches many more and reads every act of the round, and mixes its bluffs (below).

A bet is a *bluff* when the hand behind it is weak for it (an envido under ``ENVIDO_WEAK``; a
truco on a last card that cannot take the trick). No level makes a bluff that can only lose:
one whose refusal is worth too little beside what an acceptance risks, at this score, for any
sound answerer to refuse it (``sound``). ``hard`` makes the others at the frequency that leaves
an answerer no profitable fixed answer, in match odds at the score (``bluffs``), rather than
whenever its model of the others would refuse.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from cardtui.engine.bots import estimates, odds
from cardtui.engine.bots.baselines import first as _find
from cardtui.engine.bots.estimates import Budget, Evaluation, Unit, weighed
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.truco.bots import envido_game
from cardtui.engine.truco.bots.bluffs import ENVIDO_WEAK, envido_odds
from cardtui.engine.truco.bots.sim import (
    ACCEPT,
    ARGENTINO_REFUSED,
    ARGENTINO_VALUES,
    CALL,
    DOWN,
    E_ACCEPT,
    E_REFUSE,
    ENVIDO,
    MAZO,
    OURS,
    PAULISTA_REFUSED,
    PAULISTA_VALUES,
    PLAY,
    REFUSE,
    E,
    Move,
    Policy,
    Referee,
    Sim,
    env_accepted,
    env_refused,
    play_out,
)
from cardtui.engine.truco.bots.worlds import Knowledge, signal_for
from cardtui.engine.truco.envido import Unsuited
from cardtui.engine.truco.ladder import Bet, Word
from cardtui.engine.truco.signals import SIGNAL
from cardtui.engine.truco.views import PaulistaPhase, TrucoRules, TrucoView

ENVIDO_WORDS = {"envido": 0, "real_envido": 1, "falta_envido": 2}
CALL_WORDS = frozenset({"truco", "retruco", "vale_cuatro", "seis", "nove", "doze"})
Candidate = tuple[Action, Move | None]
"""A legal action and its move in the model (None: running from a mão de onze)."""
LOSER_ODDS = 0.1
"""A last card whose chance to take the trick is at most this bets truco only as a bluff."""
ONZE_PLAY: Move = (-1, 0)
"""Playing a mão de onze: the hand is played out from its first card."""
KEEP, PASS, REJECT = (-2, 0), (-3, 0), (-4, 0)
"""The mão's deal choices (truco paulista), played out from a deal of the cards to come."""
AS_MODEL: Move = (-5, 0)
"""What the model leaves out (flor and its answers, an envido announced or conceded): valued alike, as the
round played on by the model's policy from here."""
MAZO_FIRST = 1
"""What a team that goes to the deck in the first trick, while the envido could be called, gives (the
default of the table option ``mazo_first``, which a seat's view does not show)."""
WORTH_REFUSING = 0.12
"""A bluff can pay only where an answerer who refuses it gives up at least this share of what
accepting risks (``bet_share``): below it, a sound answerer accepts every bet, and the bluff only loses."""
WEAK_HAND = 0.35
"""A truco called (or raised) on a hand whose chance of taking the round is below this is a bluff."""
RARE = 0.02
"""A bluff drawn less often than this is not drawn at all."""
RAISE_READ = ((0.6, 0.1), (0.75, 0.04), (0.85, 0.02))
"""How a call awaiting its answer reads, by its rung (a truco, a first raise, a later raise): the chance of the
caller's hand at which such a call is made half the time, and the floor a bluff keeps. A raise answers a call,
so it says more: read as a truco, hard raised the raises of a player who raises only its best hands, and lost
most of those hands (``bench/marks.md``, issue 75)."""
MODEL_CALL = 0.72
"""The chance of its hand from which a seat of the model calls truco."""
MODEL_RAISE = 0.9
"""The chance of its hand from which a seat of the model raises a truco it answers."""
MODEL_ACCEPT = 0.42
"""The chance of its hand from which a seat of the model accepts a truco (normal's model, and the analysis's)."""
HARD_ACCEPT = 0.30
"""Hard's model accepts from a poorer hand: players who answer its trucos accept more than the model's 0.42 says,
and against a model that refuses that often, hard bluffed and raised on too much, in self-play to 12 within
three hands a match of truco paulista played best of three (``bench/marks.md``, issue 75)."""


def match_value(mine: int, theirs: int, target: int, paulista: bool) -> float:
    """The chance that a team on ``mine`` beats one on ``theirs`` in a match to ``target`` (``odds.truco``)."""
    return odds.truco(mine, theirs, target, paulista)


@dataclass(frozen=True, slots=True)
class Stakes:
    """What a bet pays this team: refused, and accepted (to whoever holds the better hand)."""

    refused: int
    accepted: int


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


class Searcher:
    """One decision's search (count-based: ``worlds`` deals, every candidate on each)."""

    def __init__(self, view: TrucoView, legal: list[Action], rng: random.Random, worlds: int,
                 mixed: bool = False, reads: bool = False, accept_at: float = MODEL_ACCEPT,
                 referee: Referee = OURS, read_floors: Sequence[float] | None = None, call_at: float = MODEL_CALL,
                 raise_at: float = MODEL_RAISE, last_floor: float | None = None,
                 accept_top: int | None = None, equilibrium: bool = True, exact: bool = False) -> None:
        self.view = view
        self.exact = exact
        """Where the unseen cards can lie in few ways (``EXACT_FACTOR`` times ``worlds`` or fewer: the last trick),
        the search weighs every one of those deals rather than a sample (``Knowledge.every_deal``)."""
        self.equilibrium = equilibrium
        """With ``mixed``, the envido of truco argentino heads-up bet by the equilibrium of its own game
        (``envido_history``); off, by the search and the mixed bluffs, as before."""
        self.referee = referee
        """How the table takes an answer to a truco (``sim.Referee``): the model plays it out so."""
        self.read_floors = tuple(read_floors) if read_floors is not None else None
        """A truco awaiting this seat's answer read by how the deal plays out accepted: a deal the callers lose
        keeps this share of its weight, by the call's rung (None: read by the callers' odds, ``RAISE_READ``)."""
        self.last_floor = last_floor
        """With ``read_floors``, the share a deal the callers lose keeps when a truco (not a raise) comes in the last
        trick (None: the truco's floor as in the earlier tricks)."""
        self.mixed = mixed
        """Bluffs drawn at the indifference frequency (``bluffs``) rather than left to the search."""
        self.reads = reads
        """Deals weighed by every act of the others this round, not only a call awaiting its answer."""
        self.legal = legal
        self.rng = rng
        self.worlds = worlds
        self.you = view.you if view.you is not None else 0
        self.team = self.you & 1
        self.paulista = view.rules is TrucoRules.PAULISTA
        self.policy = Policy(self.paulista, rng, call_at=call_at, accept_at=accept_at, raise_at=raise_at,
                             accept_top=accept_top)
        """How every seat plays a deal out; ``accept_at``: the chance of the hand from which it accepts a truco,
        ``accept_top``: the card from which it accepts whatever those odds (``sim.Policy``)."""
        self.values: list[float] = []

    # -- the decision ----------------------------------------------------------------------
    def decide(self) -> Action:
        rule = self.by_rule()
        if rule is not None:
            return rule
        k = Knowledge.of(self.view, self.reads, self.referee)
        cands = self.candidates()
        if self.mixed:
            history = self.envido_history()
            drawn = None if history is None else self.envido_drawn(history, k)
            if drawn is not None:
                return drawn
            if history is not None:  # the equilibrium passed: no envido this time
                cands = [c for c in cands if c[1] is None or c[1][0] != ENVIDO]
        cands = self.sound(cands, k)
        if self.mixed:
            bluff, cands = self.mix(cands, k)
            if bluff is not None:
                return bluff
        if not cands:
            return next((a for a in self.legal if a.type not in (SIGNAL, "mazo")), self.legal[0])
        if len(cands) == 1:
            return cands[0][0]
        values, weights = self.play_outs([m for _, m in cands], k)
        total = sum(weights)
        self.values = [sum(w * x for w, x in zip(weights, row, strict=True)) / total if total else 0.0
                       for row in values]
        # A call worth exactly what the best other move is worth (every deal's answer a refusal, say) is
        # made: it can only gain from an answerer who accepts.
        best = max(range(len(cands)), key=lambda j: (self.values[j], _is_call(cands[j][1]), -j))
        return cands[best][0]

    def evaluate(self) -> Evaluation:
        """Every legal choice but a signal, valued on the same weighed deals (``estimates.weighed``)."""
        k = Knowledge.of(self.view, self.reads, self.referee)
        groups = self.choices()
        if not groups:
            return weighed(Unit.MATCH, [], [], [])
        values, weights = self.play_outs([m for _, m in groups], k)
        return weighed(Unit.MATCH, [g for g, _ in groups], values, weights)

    def play_outs(self, moves: Sequence[Move | None], k: Knowledge) -> tuple[list[list[float]], list[float]]:
        """Each move's match odds on each of ``worlds`` deals, and each deal's weight."""
        onze = self.view.paulista is not None and self.view.paulista.phase is PaulistaPhase.ONZE
        dealing = self.view.paulista is not None and self.view.paulista.phase is PaulistaPhase.DEAL
        values: list[list[float]] = [[] for _ in moves]
        weights: list[float] = []
        every = None if dealing or not self.exact else k.every_deal(EXACT_FACTOR * self.worlds)
        if every is not None:  # each deal of the unseen cards, as often as makes about ``worlds`` play-outs
            deals: Sequence[dict[int, list[Card]] | None] = every * max(1, round(self.worlds / max(1, len(every))))
        else:
            deals = [None] * self.worlds
        for dealt in deals:
            if dealing:
                weights.append(1.0)
                for j, move in enumerate(moves):
                    values[j].append(self.dealt(k, move))
                continue
            hands = dealt if dealt is not None else k.deal(self.rng)
            sim = k.sim(hands)
            if onze:
                sim.stake_base = 3
            weights.append(self.likelihood(sim) * k.weight(hands))
            for j, move in enumerate(moves):
                values[j].append(self.outcome(sim, move))
        return values, weights

    def outcome(self, sim: Sim, move: Move | None) -> float:
        c = sim.copy()
        if move is None:  # running from a mão de onze: the others take 1
            c.done = True
            c.pts[1 - self.team] += 1
        else:
            if move != ONZE_PLAY and move != AS_MODEL:
                c.apply(self.you, move)
            play_out(c, self.policy)
        return self.value(c)

    def value(self, c: Sim) -> float:
        mine = c.scores[self.team] + c.pts[self.team]
        theirs = c.scores[1 - self.team] + c.pts[1 - self.team]
        return match_value(mine, theirs, self.view.target, self.paulista)

    def dealt(self, k: Knowledge, move: Move | None) -> float:
        """Truco paulista's deal: keep, pass or reject these cards, then the hand played out from its
        first card on a deal of the cards still to come (a rejected hand lies face up, out of play)."""
        v = self.view
        pool = list(k.pool)
        mine = list(v.cards)
        partner = (self.you + 2) % 4
        drawn = self.rng.sample(pool, 12)
        hands: dict[int, list[Card]] = {}
        seen: list[Card] = []
        if move == KEEP:
            hands[self.you] = mine
        elif move == PASS:
            hands[partner], hands[self.you] = mine, drawn[9:12]
        else:
            hands[self.you] = drawn[9:12]
            seen = mine
        rest = iter(drawn[:9])
        for s in range(4):
            if s not in hands:
                hands[s] = [next(rest) for _ in range(3)]
        sim = k.sim(hands)
        for c in seen:
            sim.gone[k.rank[c]] += 1
            sim.seen += 1
        play_out(sim, self.policy)
        return self.value(sim)

    def likelihood(self, sim: Sim) -> float:
        """How likely the other side's pending call is with this deal's cards (1 when none is pending)."""
        pending = self.view.pending
        if pending is None or pending.team == self.team:
            return 1.0
        c = pending.seat
        if pending.bet is Bet.ENVIDO:
            return 0.1 + 0.9 * _sigmoid((sim.env[c] - 26.5) / 1.5)
        if pending.bet is Bet.TRUCO and self.read_floors is not None:
            rung = [st.call for st in self.view.ladder].index(pending.call)
            floor = self.read_floors[min(rung, len(self.read_floors) - 1)]
            if self.last_floor is not None and rung == 0 and len(self.view.tricks) >= 2:
                floor = min(floor, self.last_floor)
            played = sim.copy()
            played.apply(played.actor(), (ACCEPT, 0))
            play_out(played, self.policy)
            team = pending.team
            won = played.pts[team] - sim.pts[team] > played.pts[1 - team] - sim.pts[1 - team]
            return 1.0 if won else floor
        if pending.bet is Bet.TRUCO:
            pre = sim.copy()
            pre.pending = -1
            p = self.policy.trick_odds(pre, c) if sim.t.trick_mode else self.policy.hand_odds(pre, c)
            rung = [st.call for st in self.view.ladder].index(pending.call)
            at, floor = RAISE_READ[min(rung, len(RAISE_READ) - 1)]
            return floor + (1.0 - floor) * _sigmoid((p - at) * 10)
        return 1.0

    # -- the envido by the equilibrium of its own game (truco argentino heads-up) --------------------
    def envido_history(self) -> str | None:
        """Where this seat stands in the envido's own game (``envido_game``), when hard bets the envido by its
        equilibrium: truco argentino heads-up, the flor not in play, the envido counted by the sum of two cards,
        and an envido this seat may call or must answer now (None otherwise: the search decides as before)."""
        v = self.view
        part = v.argentino
        if (not self.mixed or not self.equilibrium or self.referee.team_answers or part is None or len(v.seats) != 2
                or part.pica_pica or part.your_flor is not None or part.flor_calls or part.flor_sung
                or part.your_envido is None or part.envido_unsuited is not Unsuited.SUM_TWO):
            return None
        pending = v.pending
        if pending is not None and pending.bet is Bet.ENVIDO:
            if pending.team == self.team or not part.envido_calls:
                return None
            calls = "".join(envido_game.MOVE[w] for w in part.envido_calls)
            opener = pending.seat if len(calls) % 2 else self.you
            history = ("" if opener == part.mano else envido_game.PASS) + calls
        elif any(a.type in ENVIDO_WORDS for a in self.legal) and not part.envido_calls:
            history = "" if self.you == part.mano else envido_game.PASS
        else:
            return None
        node = envido_game.node(history)
        return history if node.actor == (0 if self.you == part.mano else 1) else None

    def envido_drawn(self, history: str, k: Knowledge) -> Action | None:
        """The envido's call or answer drawn from the equilibrium's mixed strategy at this seat's information set
        (its envido, the calls so far, whether it is mano, the score), seeded by what it sees there, so that the
        same view draws the same move; None where the equilibrium does not decide or it drew a pass."""
        part = self.view.argentino
        if part is None or part.your_envido is None:
            return None
        v = self.view
        mano = part.mano & 1
        points = [v.scores[t] + part.points[t] for t in (0, 1)]
        strategy = envido_game.solve(points[mano], points[1 - mano], v.target, part.falta)
        seed = f"{v.hand}|{v.scores}|{part.points}|{sorted(map(str, v.cards))}|{self.you}|{history}"
        move = envido_game.draw(strategy, history, part.your_envido, seed)
        if move == envido_game.PASS:
            return None
        pending = v.pending
        facing = pending is not None and pending.bet is Bet.TRUCO and pending.team != self.team
        word = envido_game.WORD[move]
        if word in ENVIDO_WORDS:
            if facing and part.your_envido < ENVIDO_WEAK:
                # Outside the envido's own game: a weak envido called against a truco leaves the truco waiting for
                # an answer the hand cannot give, and accepted loses the envido as well (issue 75): not made.
                return None
            if self.dominated((ENVIDO, ENVIDO_WORDS[word]), k):
                return None  # a bluff that only adds a way to lose the match (``sound``): not made
        return _find(self.legal, word)

    # -- bets that can only lose, and bluffs at the indifference frequency ------------------------
    def stakes(self, move: Move | None) -> Stakes | None:
        """What the bet ``move`` pays this team refused and accepted (None: not a bet)."""
        v = self.view
        if move is None or move[0] not in (CALL, ENVIDO):
            return None
        if move[0] == ENVIDO:
            part = v.argentino
            calls = (*(() if part is None else _env_calls(part.envido_calls)), move[1])
            return Stakes(env_refused(calls), env_accepted(calls, part.falta if part is not None else 1))
        ladder = PAULISTA_VALUES if self.paulista else ARGENTINO_VALUES
        folds = PAULISTA_REFUSED if self.paulista else ARGENTINO_REFUSED
        pending = v.pending
        if pending is not None and pending.bet is Bet.TRUCO:
            called = [st.call for st in v.ladder].index(pending.call) + 1
        else:
            called = v.level
        if called + 1 >= len(ladder):
            return None
        return Stakes(folds[called + 1], ladder[called + 1])

    def bet_share(self, stakes: Stakes) -> float:
        """The share of bluffs among bets at which an answerer is indifferent, in match odds at this score:
        accepting a bluff gains it what a refusal would have given plus what the bet wins; accepting a bet
        made with value costs it the difference between the accepted and the refused bet (``bluffs``)."""
        v = self.view
        part = v.argentino
        won = part.points if part is not None else (0, 0)
        us, them = v.scores[self.team] + won[self.team], v.scores[1 - self.team] + won[1 - self.team]

        def at(a: int, b: int) -> float:
            return match_value(a, b, v.target, self.paulista)

        on_bluff = at(us + stakes.refused, them) - at(us, them + stakes.accepted)
        on_value = at(us + stakes.accepted, them) - at(us + stakes.refused, them)
        if on_value <= 0.0 or on_bluff <= 0.0:
            return 0.0
        return on_value / (on_value + on_bluff)

    def bluffing(self, move: Move | None, k: Knowledge) -> bool:
        """Whether the bet ``move`` would be a bluff with this hand (see the module)."""
        v = self.view
        if move is None:
            return False
        if move[0] == ENVIDO:
            part = v.argentino
            env = part.your_envido if part is not None else None
            return env is not None and env < ENVIDO_WEAK
        if move[0] == CALL:
            if self.last_card_loses(move, k):
                return True
            sim = k.sim(k.deal(random.Random(0)))  # what this seat's odds read: its own cards, and the table
            decides = sim.t.trick_mode or sim.decides >= 0
            odds_now = self.policy.trick_odds(sim, self.you) if decides else self.policy.hand_odds(sim, self.you)
            return odds_now < WEAK_HAND
        return False

    def last_card_loses(self, move: Move | None, k: Knowledge) -> bool:
        """A truco called on a last card that cannot take the trick (its chance at most ``LOSER_ODDS``)
        with no partner still to play."""
        if move is None or move[0] != CALL or self.view.pending is not None or len(self.view.cards) != 1:
            return False
        sim = k.sim(k.deal(random.Random(0)))
        still = [s for s in sim.order if s != self.you]
        return not any(s & 1 == self.team for s in still) and self.policy.trick_odds(sim, self.you) <= LOSER_ODDS

    def risks_the_match(self, move: Move | None) -> bool:
        """Whether the bet ``move``, accepted and lost, ends the match where not betting would not, while
        a refusal would not win it: the bet only adds a way to lose the match (see ``sound``)."""
        stakes = self.stakes(move)
        if stakes is None or move is None:
            return False
        v = self.view
        part = v.argentino
        won = part.points if part is not None else (0, 0)
        us, them = v.scores[self.team] + won[self.team], v.scores[1 - self.team] + won[1 - self.team]
        # A refused truco ends the round; a refused envido leaves the truco to be played, which may still
        # bring the others its top stake.
        later = 0 if move[0] == CALL else (PAULISTA_VALUES if self.paulista else ARGENTINO_VALUES)[-1]
        if us + stakes.refused >= v.target and us + stakes.refused > them + later:
            return False  # a refusal wins the match
        if move[0] == ENVIDO:
            without = them  # the envido is a bet of its own: not made, the other side takes nothing by it
        else:
            pending = v.pending
            answering = pending is not None and pending.bet is Bet.TRUCO and pending.team != self.team
            without = them + (pending.value if answering and pending is not None else v.stake)
        return them + stakes.accepted >= v.target > without

    def hands_over(self, move: Move | None) -> bool:
        """Whether ``move`` refuses a call (or leaves for the deck under one) whose refusal gives the others
        the match, more than this team could still make this round: accepting can only do better."""
        v = self.view
        pending = v.pending
        if move is None or move[0] not in (REFUSE, E_REFUSE, MAZO) or pending is None or pending.team == self.team:
            return False
        if self.referee.team_answers and move[0] == REFUSE and any(s != self.you for s in v.to_act):
            return False  # the refusal hands the call to a partner still to answer it
        part = v.argentino
        won = part.points if part is not None else (0, 0)
        theirs = v.scores[1 - self.team] + won[1 - self.team] + pending.refused
        most = (PAULISTA_VALUES if self.paulista else ARGENTINO_VALUES)[-1]
        return theirs >= v.target and v.scores[self.team] + won[self.team] + most < theirs

    def dominated(self, move: Move | None, k: Knowledge) -> bool:
        """A move that can only lose: a bluff that only adds a way to lose the match, or a refusal that
        hands the match over (see ``sound``)."""
        return (self.bluffing(move, k) and self.risks_the_match(move)) or self.hands_over(move)

    def sound(self, cands: list[Candidate], k: Knowledge) -> list[Candidate]:
        """The candidates less every bluff that can only lose: one that, accepted and lost, hands the
        others the match where not betting would not, for a refusal that does not win it. Against that,
        a sound answerer accepts every bet (a bluff's refusal gains the bettor too little to matter), so
        the bluff only adds a way to lose: at 20–29 of 30, an envido on nothing; facing a truco at
        20–28, an envido worth the two points the others lack; truco paulista at 5–9, a truco. And less
        every refusal that hands the others the match (``hands_over``)."""
        out = [c for c in cands if not self.dominated(c[1], k)]
        return out or cands

    def mix(self, cands: list[Candidate], k: Knowledge) -> tuple[Action | None, list[Candidate]]:
        """The bluff drawn now, if any, and the candidates the search is left to weigh.

        A weak envido bets no real or falta envido at all, and opens a plain envido only as a bluff, never
        while facing a truco: refused it gains a point and the truco still waits for an answer the hand cannot
        give; accepted it loses the envido as well (hard answered a truco so on a sixth of the seeds, issue 75).
        A last card that cannot take the trick (its chance at most ``LOSER_ODDS``, no partner still to
        play) calls truco only as a bluff while an opponent has yet to play, never once they have. Each
        bluff is drawn at the frequency that leaves an answerer indifferent at this score (``bet_share``),
        weak hands taken as common as value hands (an envido: as ``bluffs.envido_odds`` says). Otherwise
        the search decides as before."""
        v = self.view
        part = v.argentino
        out = cands
        bets = [c for c in out if c[1] is not None and c[1][0] == ENVIDO]
        if bets and self.bluffing(bets[0][1], k):
            out = [c for c in out if c not in bets]
            plain = next((c for c in bets if c[1] == (ENVIDO, E)), None)
            pending = v.pending
            facing = pending is not None and pending.bet is Bet.TRUCO and pending.team != self.team
            opening = part is not None and not part.envido_calls and not facing
            if plain is not None and opening:
                value, weak = envido_odds()
                if self.draw(plain[1], value / weak):
                    return plain[0], out
        calls = [c for c in out if c[1] is not None and c[1][0] == CALL]
        if calls and self.last_card_loses(calls[0][1], k):
            out = [c for c in out if c not in calls]
            sim = k.sim(k.deal(self.rng))
            # A bluff only while an opponent has yet to play: one who has played sees the trick is theirs.
            if any(s != self.you for s in sim.order) and self.draw(calls[0][1], 1.0):
                return calls[0][0], out
        return None, out

    def draw(self, move: Move | None, odds_of_value: float) -> bool:
        """Whether to bluff the bet ``move`` now, value hands ``odds_of_value`` times as common as weak ones."""
        stakes = self.stakes(move)
        if stakes is None:
            return False
        share = self.bet_share(stakes)
        if share < WORTH_REFUSING:
            return False
        rate = min(1.0, share / (1.0 - share) * odds_of_value)
        return rate >= RARE and self.rng.random() < rate

    # -- what to try ---------------------------------------------------------------------------
    def candidates(self) -> list[Candidate]:
        """The bot's choices: one card of each strength, calls, envido calls, answers."""
        out: list[Candidate] = []
        for group, move in self.choices():
            if move is not None and move[0] in (DOWN, MAZO):
                continue
            out.append((group[0], move))
        return out

    def choices(self) -> list[tuple[list[Action], Move | None]]:
        """Every legal action but a signal, grouped by its move in the model (cards of one strength are
        one choice). Flor's calls and answers, which the model leaves out, are one choice together."""
        v = self.view
        pending = v.pending
        onze = v.paulista is not None and v.paulista.phase is PaulistaPhase.ONZE
        envido = pending is not None and pending.bet is Bet.ENVIDO
        rank = Knowledge.rank_of(self.paulista)
        groups: dict[Move | None, list[Action]] = {}
        order: list[Move | None] = []
        other: list[Action] = []
        for a in self.legal:
            t = a.type
            move: Move | None
            if t == SIGNAL:
                continue
            if t == "play":
                move = (PLAY, rank[a.cards[0]])
            elif t == "play_down":
                move = (DOWN, rank[a.cards[0]])
            elif t in CALL_WORDS:
                move = (CALL, 0)
            elif t in ENVIDO_WORDS:
                move = (ENVIDO, ENVIDO_WORDS[t])
            elif t in ("accept", "quiero"):
                move = ONZE_PLAY if onze else (E_ACCEPT if envido else ACCEPT, 0)
            elif t in ("run", "no_quiero"):
                move = None if onze else (E_REFUSE if envido else REFUSE, 0)
            elif t == "mazo":
                move = (MAZO, MAZO_FIRST)
            elif t == "keep":
                move = KEEP
            elif t == "pass_cards":
                move = PASS
            elif t == "reject":
                move = REJECT
            else:  # flor, its answers, an envido announced or conceded: outside the model
                other.append(a)
                continue
            if move not in groups:
                groups[move] = []
                order.append(move)
            groups[move].append(a)
        out = [(groups[m], m) for m in order]
        if other:
            out.append((other, AS_MODEL))
        return out

    def by_rule(self) -> Action | None:
        """Decisions made without search: the deal, blind plays, what the rules force, signals."""
        v = self.view
        legal = self.legal
        part = v.paulista
        if part is not None and part.phase is PaulistaPhase.DEAL:
            return self.deal_choice()
        blind = _find(legal, "play_blind")
        if blind is not None:
            return blind
        forced = _find(legal, "flor", "announce")
        if forced is not None:
            return forced
        if _find(legal, "son_buenas") and not _find(legal, "quiero", "play"):
            return _find(legal, "son_buenas")
        if v.pending is not None and v.pending.bet is Bet.FLOR:
            return self.flor_answer()
        return self.signal()

    def deal_choice(self) -> Action:
        """Keep a hand with two good cards; pass a middling one to the partner (and take three more);
        otherwise reject it while rejections are left."""
        rank = Knowledge.rank_of(True)
        top = sorted((rank[c] for c in self.view.cards), reverse=True)
        keep = _find(self.legal, "keep") or self.legal[0]
        if top[0] >= 11 or top[0] + top[1] >= 18:
            return keep
        if top[0] + top[1] >= 14:
            return _find(self.legal, "pass_cards") or keep
        return _find(self.legal, "reject") or keep

    def flor_answer(self) -> Action:
        part = self.view.argentino
        mine = part.your_flor or 0 if part is not None else 0
        if mine >= 36:
            pick = _find(self.legal, "contra_flor_al_resto", "quiero")
        elif mine >= 32:
            pick = _find(self.legal, "contra_flor", "quiero")
        else:
            pick = None
        return pick or _find(self.legal, "con_flor_me_achico", "no_quiero", "son_buenas") or self.legal[0]

    def signal(self) -> Action | None:
        """Tell partners about one's cards once a round, before one's first card (docs/rules.md, "Signals")."""
        v = self.view
        if not any(a.type == SIGNAL for a in self.legal) or not v.cards:
            return None
        if any(s.seat == self.you for s in v.signals):
            return None
        if any(p.seat == self.you for t in v.tricks for p in t.plays) or any(p.seat == self.you for p in v.trick):
            return None
        part = v.argentino
        env = part.your_envido if part is not None and part.envido_open else None
        signal = signal_for(v.cards, Knowledge.rank_of(self.paulista), env)
        if signal is None:
            return None
        return next((a for a in self.legal if a.type == SIGNAL and a.value == signal.value), None)


def _env_calls(words: Sequence[str]) -> tuple[int, ...]:
    return tuple(ENVIDO_WORDS[w] for w in words if w in ENVIDO_WORDS)


NORMAL_WORLDS = 2
"""Deals normal searches: few, so that its choice among close ones
is left to the luck of its deals (more buy little beyond 16 without a reading of the others). Two
are enough to beat every simple player at argentino (measured in ``bench/marks.md``)."""
HARD_WORLDS = 240
"""Deals hard searches: four times the 60 it searched before, which it beat, and beat the pool by more, at truco
paulista (``bench/marks.md``, issue 75); a decision takes a few milliseconds of one core."""
EXACT_FACTOR = 4
"""Hard weighs every deal of the unseen cards (``Searcher.exact``) when there are at most this many times its
worlds of them: in the last trick, one hidden card (about 28 deals, each weighed some nine times) or two (about
800, each once), where a sample of 240 leaves a raise's few winning deals to chance."""
EVALUATE_WORLDS = 60
"""The deals ``evaluate``'s budget counts in (the analysis's is eight times this): hard's before issue 75, so the
analysis costs what it cost."""


def _is_call(move: Move | None) -> bool:
    return move is not None and move[0] == CALL


def evaluate(view: TrucoView, legal: list[Action], rng: random.Random, budget: Budget = estimates.PLAY
             ) -> Evaluation:
    """Every legal choice of ``view``'s seat, in match odds, from hard's search with ``budget``."""
    return Searcher(view, legal, rng, budget.deals(EVALUATE_WORLDS), reads=True).evaluate()


def normal(view: TrucoView, legal: list[Action], rng: random.Random) -> Action:
    """The normal truco bot: the search on a few deals, reading only a call awaiting its answer."""
    return Searcher(view, legal, rng, NORMAL_WORLDS).decide()


HOUSE_ACCEPT = 0.5
"""Where a call is put to both partners (``Referee.team_answers``) each of the model's answerers accepts from this
chance of its hand, not ``HARD_ACCEPT``: the team accepts when either does, and a looser threshold would have it
accept nearly every call. Chosen in MiniTruco's house against Gasparotto's bots on seed 11 (``bench/marks.md``,
issue 88): 0.30 won 54.8% of 400 matches, 0.50 64.2% of 400, 0.60 46.2% of the 320 played before it was stopped;
on seed 4242, never tuned on, 62.3% against Gasparotto and 61.8% against Sellani."""
HOUSE_READ = (0.3, 0.05)
"""Where a call is put to both partners, a truco awaiting hard's answer is read by how each deal plays out accepted
(``Searcher.read_floors``): a deal the callers would lose keeps 0.3 of its weight for a truco, 0.05 for a raise.
The players hard meets there call for value: their trucos accepted won 72% of the hands, their raises 88%."""
HOUSE_LAST = 0.02
"""In the last trick the players hard meets there call a truco only on what wins: of hard's acceptances of those
trucos in 800 matches (seed 5309), 70 lost and 12 won, where a refusal loses a third of a lost acceptance. A deal
the callers lose keeps this share there. Their raises in the last trick keep ``HOUSE_READ``'s floor: hard won 26
of the 86 it accepted without the certain winner, and a raise refused costs half of one accepted and lost
(``bench/marks.md``, issue 88)."""


HOUSE_WORLDS = 4 * HARD_WORLDS
"""Deals hard searches where a call is put to both partners (MiniTruco's house): a decision there takes some 20 ms
of one core at 240 (p99), and on 960 hard changed about one decision in ten and won more matches against both of
MiniTruco's players on the same deals (``bench/marks.md``, issue 88). At our tables it stays at ``HARD_WORLDS``,
where its marks were measured (960 there won as many matches against normal, by fewer points a hand)."""


HOUSE_TOP = 11
"""The best-card model of an answering team (``AnswerRead``): each answerer also accepts a truco holding a card of
this strength or more (a manilha), whatever its hand's odds. Sellani's players answer so (seed 11's logs: holding a
manilha they accepted 85–100% of hard's first-trick trucos, holding at best a 2 half of them), and hard reading them
so won 67.2% of 400 matches on seed 2718; Gasparotto's accept less, and read so hard won 55.5% of the same deals,
where the odds alone won 62.3% (``bench/marks.md``, issue 88)."""
HOUSE_SWITCH = 1.5
"""How far (in nats of log-likelihood) the answers a team has given this match must favour the best-card model
over the odds alone before hard reads that team by it: the odds alone are the default, the dearer mistake being
the best-card model against a team that answers by the odds. From the answers read on seed 11 (50 matches against
each player): at 1.5, 13% of hard's calls against Gasparotto were made reading it by its best card, 48% of those
against Sellani (at 1.0: 19% and 55%; at 2.0: 5% and 28%)."""
ANSWER_FLOOR = 0.05
"""A model's chance of an acceptance is taken as at least this and at most its complement: one answer the model
called near-impossible moves the read by at most about three nats, not without bound."""
ANSWER_WORLDS = 120
"""Deals ``answer_odds`` weighs a call's acceptance on: it is counted once a call, beside the 240 of the decision."""


@dataclass(frozen=True, slots=True)
class AnswerRead:
    """What one team has seen the other answer to its trucos this match, as a lean between two models of those
    answerers: by the odds of their hand alone (``HOUSE_ACCEPT``), or also on their best card (``HOUSE_TOP``).

    Both of MiniTruco's players sit in its house, and they answer differently (a team holding at best a 2 accepts
    a tenth of hard's second-trick trucos from Gasparotto, a half from Sellani); one model of both gave up points
    against one or the other. A player at the table sees every answer to its own calls: each one moves the lean by
    how much likelier one model made it than the other (``answer_odds``), and the team is read by the best-card
    model once the lean passes ``HOUSE_SWITCH``."""

    lean: float = 0.0
    """The log-likelihood of the answers seen under the best-card model, less under the odds alone."""
    answers: int = 0

    def shown(self, odds: tuple[float, float], accepted: bool) -> AnswerRead:
        """The read after one more answer: ``odds``, each model's chance that the call is accepted."""
        by_odds, by_top = (min(1.0 - ANSWER_FLOOR, max(ANSWER_FLOOR, p)) for p in odds)
        step = math.log(by_top / by_odds) if accepted else math.log((1.0 - by_top) / (1.0 - by_odds))
        return AnswerRead(self.lean + step, self.answers + 1)

    @property
    def top(self) -> int | None:
        """The card from which hard's model of these answerers accepts whatever the odds (None: the odds alone)."""
        return HOUSE_TOP if self.lean > HOUSE_SWITCH else None


def answer_odds(view: TrucoView, legal: list[Action], rng: random.Random, referee: Referee,
                worlds: int = ANSWER_WORLDS) -> tuple[float, float]:
    """The chance that the other team accepts a truco this seat calls now, by the odds of its hands alone and by
    the best-card model (``AnswerRead``), each on the same deals, weighed as hard weighs them."""
    s = Searcher(view, legal, rng, worlds, reads=True, accept_at=HOUSE_ACCEPT, referee=referee,
                 read_floors=HOUSE_READ)
    k = Knowledge.of(view, True, referee)
    models = (Policy(s.paulista, rng, accept_at=HOUSE_ACCEPT),
              Policy(s.paulista, rng, accept_at=HOUSE_ACCEPT, accept_top=HOUSE_TOP))
    accepted = [0.0, 0.0]
    total = 0.0
    for _ in range(worlds):
        hands = k.deal(rng)
        sim = k.sim(hands)
        w = s.likelihood(sim) * k.weight(hands)
        if w <= 0.0:
            continue
        total += w
        for j, model in enumerate(models):
            c = sim.copy()
            c.apply(s.you, (CALL, 0))
            for _ in range(4):  # each answerer once, and no more
                if c.done or c.pending != s.team:
                    break
                seat = c.actor()
                c.apply(seat, model.decide(c, seat))
            accepted[j] += w * (not c.done)
    if total <= 0.0:
        return (0.5, 0.5)
    return (accepted[0] / total, accepted[1] / total)


TRUCO_CALLS = frozenset({Word.TRUCO.value, Word.RETRUCO.value, Word.VALE_CUATRO.value, Word.SEIS.value,
                         Word.NOVE.value, Word.DOZE.value})
"""The action types that call (or raise) the truco, at either game."""


def _view_seed(view: TrucoView) -> int:
    """A seed for the deals a call's odds are weighed on (``TrucoMemory``), from the caller's view alone: the same
    call weighed again (a match replayed, in another process) gives the same odds."""
    return int.from_bytes(hashlib.sha256(repr(view).encode()).digest()[:8], "big")


@dataclass(frozen=True, slots=True)
class Called:
    """One truco a seat called this match, as that seat saw it: the hand and the rung accepted when it called,
    each model's chance of an acceptance (``answer_odds``), and the answer once seen (None until then)."""

    hand: int
    level: int
    odds: tuple[float, float]
    accepted: bool | None = None

    def __reduce__(self) -> tuple[object, tuple[int, int, tuple[float, float], bool | None]]:
        """Rebuilt by its constructor (compiled, a frozen record cannot be unpickled field by field)."""
        return (Called, (self.hand, self.level, self.odds, self.accepted))


@dataclass(frozen=True, slots=True)
class TrucoMemory:
    """What a seat has seen the other team answer to its own trucos this match (``engine.core.SeatMemory``).

    Hard reads the answerers by it (``AnswerRead``). It holds only what the seat saw: its own view as it called
    (the odds of an acceptance are weighed from that view, seeded by it), and the answer, which the table shows
    everyone: the rung rose (accepted), or the hand ended at the same rung (refused). Its partner's calls are
    not in it: the odds of those would be weighed from the partner's cards. The table keeps it from the match's
    actions (``engine.core.Bound``), MiniTruco's house from what our seat is told: the same memory."""

    referee: Referee = OURS
    """The table's referee: the odds are weighed only where they are read (a call put to both partners)."""
    calls: tuple[Called, ...] = ()

    def __reduce__(self) -> tuple[object, tuple[Referee, tuple[Called, ...]]]:
        """Rebuilt by its constructor: it travels with a decision to a bot worker, and compiled
        (``cardtui.native``) a frozen record cannot be unpickled field by field."""
        return (TrucoMemory, (self.referee, self.calls))

    def heeds(self, action: Action) -> bool:
        # Only where the answers are read (a call put to both partners): at our tables hard reads none, and a
        # table's every action would otherwise build views for a memory nobody asks.
        return self.referee.team_answers and action.type in TRUCO_CALLS

    def acted(self, view: TrucoView, legal: Sequence[Action], action: Action) -> TrucoMemory:
        if action.type not in TRUCO_CALLS or view.pending is not None:  # a raise given as an answer: not a call
            return self
        odds = answer_odds(view, list(legal), random.Random(_view_seed(view)), self.referee)
        return replace(self, calls=(*self.calls, Called(view.hand, view.level, odds)))

    @property
    def watching(self) -> bool:
        return bool(self.calls) and self.calls[-1].accepted is None

    def saw(self, view: TrucoView) -> TrucoMemory:
        last = self.calls[-1]
        if view.hand == last.hand and view.level > last.level:
            accepted = True
        elif view.hand != last.hand or view.hand_over:
            accepted = False
        else:
            return self
        return replace(self, calls=(*self.calls[:-1], replace(last, accepted=accepted)))

    def read(self) -> AnswerRead:
        """The lean the answers seen give (``AnswerRead``)."""
        read = AnswerRead()
        for c in self.calls:
            if c.accepted is not None:
                read = read.shown(c.odds, c.accepted)
        return read


def hard(view: TrucoView, legal: list[Action], rng: random.Random, referee: Referee = OURS,
         memory: TrucoMemory | None = None) -> Action:
    """The hard truco bot: the search on many deals, reading the others, its bluffs mixed; ``referee``: how the
    table takes an answer to a truco, where it is not ours (MiniTruco's house puts a call to both partners; its
    players are read as they play there, ``HOUSE_ACCEPT`` and ``HOUSE_READ``, and by what the other team answered
    this seat's trucos this match, ``memory``: ``TrucoMemory``; there it searches ``HOUSE_WORLDS`` and every deal
    where few are left, ``Searcher.exact``). At our tables it reads no memory: an answer there is final, and reading
    answerers by it was not measured against main's hard; nor was every deal where few are left, which at two seats
    is from the second trick on, so it samples there as its marks were measured."""
    if referee.team_answers:
        top = memory.read().top if memory is not None else None
        return Searcher(view, legal, rng, HOUSE_WORLDS, mixed=True, reads=True, accept_at=HOUSE_ACCEPT,
                        referee=referee, read_floors=HOUSE_READ, last_floor=HOUSE_LAST, accept_top=top,
                        exact=True).decide()
    return Searcher(view, legal, rng, HARD_WORLDS, mixed=True, reads=True, accept_at=HARD_ACCEPT,
                    referee=referee).decide()


def can_only_lose(view: TrucoView, legal: list[Action], action: Action) -> bool:
    """Whether ``action`` is a move that can only lose here (``Searcher.sound``): for bots that decide
    without the search, to check their choice by."""
    s = Searcher(view, legal, random.Random(0), 1)
    moves = [m for group, m in s.choices() if action in group]
    return bool(moves) and s.dominated(moves[0], Knowledge.of(view))
