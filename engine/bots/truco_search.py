"""The truco bots' search: each choice tried on many deals of the unseen cards, valued by the match.

For a decision, ``decide`` deals the cards this seat cannot see many ways, each agreeing
with everything public (``truco_worlds``), weighs each deal by how likely the other side's
pending call is with those cards (a truco called, an envido called), then plays each
candidate action out on every deal in the model round (``trucosim``), every seat then
following the model's plain policy. An outcome is valued by the chance of winning the match
from the score it leaves (``match_value``), so a point near the end weighs what it is worth.
The same deals serve every candidate, so their difference is not noise of the deal.
"""

from __future__ import annotations

import math
import random
from functools import cache

from cardtui.engine.bots.baselines import first as _find
from cardtui.engine.bots.bluffs import ENVIDO_WEAK, bluff_rate, envido_bluff_rate
from cardtui.engine.bots.truco_worlds import Knowledge, signal_for
from cardtui.engine.bots.trucosim import (
    ACCEPT,
    CALL,
    E_ACCEPT,
    E_REFUSE,
    ENVIDO,
    PLAY,
    REFUSE,
    E,
    Move,
    Policy,
    Sim,
    play_out,
)
from cardtui.engine.core import Action
from cardtui.engine.truco.ladder import Bet
from cardtui.engine.truco.signals import SIGNAL
from cardtui.engine.truco.views import PaulistaPhase, TrucoView

HAND_POINTS = {
    True: ((1, 0.55), (3, 0.33), (6, 0.08), (9, 0.03), (12, 0.01)),
    False: ((1, 0.22), (2, 0.33), (3, 0.2), (4, 0.12), (5, 0.07), (7, 0.06)),
}
"""How many points a hand brings its winner, roughly (paulista; argentino with its envido)."""
ENVIDO_WORDS = {"envido": 0, "real_envido": 1, "falta_envido": 2}
CALL_WORDS = frozenset({"truco", "retruco", "vale_cuatro", "seis", "nove", "doze"})
Candidate = tuple[Action, Move | None]
"""A legal action and its move in the model (None: running from a mão de onze)."""
LOSER_ODDS = 0.1
"""A last card whose chance to take the trick is at most this bets truco only as a bluff."""
ONZE_PLAY: Move = (-1, 0)
"""Playing a mão de onze: the hand is played out from its first card."""


@cache
def _value_table(target: int, paulista: bool) -> tuple[tuple[float, ...], ...]:
    """P(win) of the team on ``a`` against one on ``b``, both below ``target``, hands won evenly."""
    dist = HAND_POINTS[paulista]
    v = [[0.5] * (target + 1) for _ in range(target + 1)]
    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(target - 1, total) + 1):
            b = total - a
            if b >= target:
                continue
            acc = 0.0
            for pts, p in dist:
                na, nb = a + pts, b + pts
                acc += 0.5 * p * (1.0 if na >= target else v[na][b])
                acc += 0.5 * p * (0.0 if nb >= target else v[a][nb])
            v[a][b] = acc
    return tuple(tuple(row) for row in v)


def match_value(mine: int, theirs: int, target: int, paulista: bool) -> float:
    """The chance that a team on ``mine`` beats one on ``theirs`` in a match to ``target``."""
    if mine >= target and mine > theirs:
        return 1.0
    if theirs >= target and theirs > mine:
        return 0.0
    if mine >= target or theirs >= target:
        return 0.5
    return _value_table(target, paulista)[mine][theirs]


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class Searcher:
    """One decision's search (count-based: ``worlds`` deals, every candidate on each)."""

    def __init__(self, view: TrucoView, legal: list[Action], rng: random.Random, worlds: int,
                 mixed: bool = False) -> None:
        self.view = view
        self.mixed = mixed
        """Bluffs drawn at the indifference frequency (``bluffs``) rather than left to the search."""
        self.legal = legal
        self.rng = rng
        self.worlds = worlds
        self.you = view.you if view.you is not None else 0
        self.team = self.you & 1
        self.paulista = view.paulista is not None
        self.policy = Policy(self.paulista, rng)

    # -- the decision ----------------------------------------------------------------------
    def decide(self) -> Action:
        rule = self.by_rule()
        if rule is not None:
            return rule
        cands = self.candidates()
        k = Knowledge.of(self.view)
        if self.mixed:
            bluff, cands = self.mix(cands, k)
            if bluff is not None:
                return bluff
        if not cands:
            return next((a for a in self.legal if a.type not in (SIGNAL, "mazo")), self.legal[0])
        if len(cands) == 1:
            return cands[0][0]
        onze = self.paulista and self.view.paulista is not None and self.view.paulista.phase is PaulistaPhase.ONZE
        totals = [0.0] * len(cands)
        weight = 0.0
        for _ in range(self.worlds):
            hands = k.deal(self.rng)
            sim = k.sim(hands)
            if onze:
                sim.stake_base = 3
            w = self.likelihood(sim)
            weight += w
            for j, (_, move) in enumerate(cands):
                totals[j] += w * self.outcome(sim, move)
        # A call worth exactly what the best other move is worth (every deal's answer a refusal, say) is
        # made: it can only gain from an answerer who accepts.
        best = max(range(len(cands)), key=lambda j: (totals[j], _is_call(cands[j][1]), -j))
        self.values = [t / weight for t in totals] if weight else totals
        return cands[best][0]

    def outcome(self, sim: Sim, move: Move | None) -> float:
        c = sim.copy()
        if move is None:  # running from a mão de onze: the others take 1
            c.done = True
            c.pts[1 - self.team] += 1
        else:
            if move is not ONZE_PLAY:
                c.apply(self.you, move)
            play_out(c, self.policy)
        mine = c.scores[self.team] + c.pts[self.team]
        theirs = c.scores[1 - self.team] + c.pts[1 - self.team]
        return match_value(mine, theirs, self.view.target, self.paulista)

    def likelihood(self, sim: Sim) -> float:
        """How likely the other side's pending call is with this deal's cards (1 when none is pending)."""
        pending = self.view.pending
        if pending is None or pending.team == self.team:
            return 1.0
        c = pending.seat
        if pending.bet is Bet.ENVIDO:
            return 0.1 + 0.9 * _sigmoid((sim.env[c] - 26.5) / 1.5)
        if pending.bet is Bet.TRUCO:
            pre = sim.copy()
            pre.pending = -1
            p = self.policy.trick_odds(pre, c) if sim.t.trick_mode else self.policy.hand_odds(pre, c)
            return 0.1 + 0.9 * _sigmoid((p - 0.6) * 10)
        return 1.0

    # -- bluffs at the indifference frequency -------------------------------------------------
    def mix(self, cands: list[Candidate], k: Knowledge) -> tuple[Action | None, list[Candidate]]:
        """The bluff drawn now, if any, and the candidates the search is left to weigh.

        A weak envido (below ``ENVIDO_WEAK``) bets no real or falta envido at all, and opens a
        plain envido only as a bluff, at ``envido_bluff_rate``. A last card that cannot take
        the trick (its chance at most ``LOSER_ODDS``, no partner still to play) calls truco only as a
        bluff while an opponent has yet to play, at the rate of the call's stakes (sure winners and
        sure losers taken as equally common), and never once they have. Otherwise the
        search decides as before."""
        v = self.view
        part = v.argentino
        out = cands
        env = part.your_envido if part is not None else None
        if env is not None and env < ENVIDO_WEAK:
            bets = [c for c in out if c[1] is not None and c[1][0] == ENVIDO]
            if bets:
                out = [c for c in out if c not in bets]
                plain = next((c for c in bets if c[1] == (ENVIDO, E)), None)
                opening = part is not None and not part.envido_calls
                if plain is not None and opening and self.rng.random() < envido_bluff_rate():
                    return plain[0], out
        calls = [c for c in out if c[1] is not None and c[1][0] == CALL]
        if calls and v.pending is None and len(v.cards) == 1:
            sim = k.sim(k.deal(self.rng))
            still = [s for s in sim.order if s != self.you]
            if not any(s & 1 == self.team for s in still) and self.policy.trick_odds(sim, self.you) <= LOSER_ODDS:
                out = [c for c in out if c not in calls]
                values = k.table().values
                level = v.level
                # A bluff only while an opponent has yet to play: one who has played sees the trick is theirs.
                if still and level + 1 < len(values):
                    refused = values[level] if level else 1
                    if self.rng.random() < bluff_rate(refused, values[level + 1]):
                        return calls[0][0], out
        return None, out

    # -- what to try ---------------------------------------------------------------------------
    def candidates(self) -> list[tuple[Action, Move | None]]:
        v = self.view
        pending = v.pending
        out: list[tuple[Action, Move | None]] = []
        seen_strength: set[int] = set()
        rank = Knowledge.rank_of(self.paulista)
        for a in self.legal:
            t = a.type
            if t == "play":
                s = rank[a.cards[0]]
                if s not in seen_strength:
                    seen_strength.add(s)
                    out.append((a, (PLAY, s)))
            elif t in CALL_WORDS:
                out.append((a, (CALL, 0)))
            elif t in ENVIDO_WORDS:
                out.append((a, (ENVIDO, ENVIDO_WORDS[t])))
            elif t in ("accept", "quiero"):
                if v.paulista is not None and v.paulista.phase is PaulistaPhase.ONZE:
                    out.append((a, ONZE_PLAY))
                else:
                    envido = pending is not None and pending.bet is Bet.ENVIDO
                    out.append((a, (E_ACCEPT if envido else ACCEPT, 0)))
            elif t in ("run", "no_quiero"):
                if v.paulista is not None and v.paulista.phase is PaulistaPhase.ONZE:
                    out.append((a, None))
                else:
                    envido = pending is not None and pending.bet is Bet.ENVIDO
                    out.append((a, (E_REFUSE if envido else REFUSE, 0)))
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
        """Tell partners about one's cards once a round, before one's first card (seed 003's table)."""
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



NORMAL_WORLDS = 16
HARD_WORLDS = 60


def _is_call(move: Move | None) -> bool:
    return move is not None and move[0] == CALL


def normal(view: TrucoView, legal: list[Action], rng: random.Random) -> Action:
    """The normal truco bot: the search on a few deals."""
    return Searcher(view, legal, rng, NORMAL_WORLDS).decide()


def hard(view: TrucoView, legal: list[Action], rng: random.Random) -> Action:
    """The hard truco bot: the search on many deals."""
    return Searcher(view, legal, rng, HARD_WORLDS, mixed=True).decide()
