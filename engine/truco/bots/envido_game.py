"""The envido of truco argentino heads-up as a game of its own, and its equilibrium (CFR+), by which hard bets it.

The abstract game: each side holds its envido (in ``BUCKETS``: each value from 24 up on its own, the lower ones
grouped), dealt as the 40 cards deal them together (``envido_deals``, counted over every deal). The mano may open
(envido, real envido, falta envido) or pass; after a pass the other may open or pass; a call is answered by
quiero, no quiero or a raise the rules allow (``engine.truco.envido.NEXT``), and so on up the ladder. A refusal pays
the last caller what the rules say; an acceptance pays the better envido (equal ones: the mano's) what was bet, the
falta envido what the leading team lacks. What the rest of the round brings is taken as independent of the envido:
a fixed lottery of truco points (``TRUCO_POINTS``) to either side alike, after the envido's. Each outcome is worth
the match odds it leaves (``odds.truco``), so a point near the end weighs what it is worth, and falta envido's
worth changes with the score, as its refusals and acceptances do.

Calls and answers are solved together: CFR+ (regret matching+, the average strategy weighed linearly) over
``ITERATIONS`` rounds, per score (``solve``, cached). What the abstract game leaves out (cards seen in play before an
envido, a truco called first, an opponent's flor) it leaves out; hard samples its envido from the equilibrium's
mixed strategy at its information set, seeded by what it sees (``draw``).

The adversary is built alongside: ``exploitability`` is the exact best response of each side in the abstract game
against the average strategy, and what it gains on average over the game's value.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from operator import mul

from cardtui.engine.bots import odds
from cardtui.engine.truco import envido as rules

BUCKETS: tuple[tuple[int, int], ...] = (
    (0, 6), (7, 19), (20, 23), (24, 24), (25, 25), (26, 26), (27, 27), (28, 28), (29, 29), (30, 30), (31, 31),
    (32, 32), (33, 33))
"""The envido values the abstract game tells apart (counted by the sum of the two best cards when no two share a
suit, the table's default): from 24 each on its own, where one point decides the bets; below, in three groups."""
TRUCO_POINTS: tuple[tuple[int, float], ...] = ((1, 0.45), (2, 0.35), (3, 0.15), (4, 0.05))
"""What the rest of the round brings the side that takes it (either side alike), beside the envido: the truco
refused or not called (1), accepted (2), raised (3, 4). A cheap proxy: the envido's worth in match odds depends
on what else the round may bring; whose it is is taken as independent of the envido."""
ITERATIONS = 64
"""CFR+ rounds per score (each a pass for either side): a score's solve takes 15-20 ms of one core compiled
(``Flat``; 80-150 ms plain), once per process, and leaves the strategy played less than a fifth of a point of match
odds from what a best response against it would take, at the scores tested (``tests/engine/test_envido_game.py``)."""
RARE = 0.02
"""A move the average strategy makes less often than this is not made (its share given to the others): what is
left of the first rounds' uniform play, a refusal at 33, say, drawn once in a thousand hands."""
PASS, ENVIDO, REAL, FALTA, QUIERO, NO_QUIERO = "p", "E", "R", "F", "q", "n"
"""The abstract game's moves: a history is a string of them ("pE" the mano passed and the other called envido)."""
WORD = {ENVIDO: "envido", REAL: "real_envido", FALTA: "falta_envido", QUIERO: "quiero", NO_QUIERO: "no_quiero"}
"""Each move's action type at the table (a pass is any action not an envido's)."""
_CALL = {rules.ENVIDO: ENVIDO, rules.REAL: REAL, rules.FALTA: FALTA}
_WORD = {move: word for word, move in _CALL.items()}
MOVE = {word.value: move for word, move in _CALL.items()}
"""Each envido call said at the table, as a move."""
NEXT: dict[str, str] = {"".join(map(_CALL.__getitem__, calls)): "".join(map(_CALL.__getitem__, raises))
                        for calls, raises in rules.NEXT.items()}
"""The raises each sequence of calls allows: the rules' own ladder (``engine.truco.envido.NEXT``), as moves."""


def bucket_of(points: int) -> int:
    """The bucket of an envido value."""
    for i, (lo, hi) in enumerate(BUCKETS):
        if lo <= points <= hi:
            return i
    raise ValueError(f"no envido bucket holds {points}")


def accepted(calls: str, falta: int) -> int:
    """What the calls pay accepted, by the rules (``engine.truco.envido.accepted_value``)."""
    return rules.accepted_value([_WORD[c] for c in calls], falta)


def refused(calls: str) -> int:
    """What the calls pay refused, by the rules (``engine.truco.envido.refused_value``)."""
    return rules.refused_value([_WORD[c] for c in calls])


@dataclass(frozen=True, slots=True)
class Node:
    """A history of the abstract game: who acts (0 the mano, 1 the other; -1 at its end) and the moves open."""

    history: str
    actor: int
    moves: str
    calls: str
    """The envido calls made (the history less its passes and its answer)."""
    caller: int
    """Who made the last call (-1: none)."""


def node(history: str) -> Node:
    passes = len(history) - len(history.lstrip(PASS))
    body = history[passes:]
    opener = 0 if passes == 0 else 1
    if body.endswith((QUIERO, NO_QUIERO)) or history == PASS + PASS:
        calls = body[:-1] if body.endswith((QUIERO, NO_QUIERO)) else ""
        caller = (opener if len(calls) % 2 else 1 - opener) if calls else -1
        return Node(history, -1, "", calls, caller)
    if not body:
        return Node(history, passes, PASS + "ERF", "", -1)
    actor = opener if len(body) % 2 == 0 else 1 - opener
    return Node(history, actor, QUIERO + NO_QUIERO + NEXT.get(body, ""), body, 1 - actor)


@cache
def histories() -> tuple[str, ...]:
    """Every history of the abstract game, each before the ones that follow it."""
    out: list[str] = []
    todo = [""]
    while todo:
        h = todo.pop()
        out.append(h)
        todo.extend(h + m for m in reversed(node(h).moves))
    return tuple(out)


@cache
def _chance() -> tuple[tuple[tuple[float, ...], ...], ...]:
    """The deals as chances: by (mano's bucket, other's), of all; the mano's wins likewise; and both transposed."""
    from cardtui.engine.truco.bots.envido_deals import DEALS, MANO_WINS

    total = sum(map(sum, DEALS))
    deals = tuple(tuple(x / total for x in row) for row in DEALS)
    wins = tuple(tuple(x / total for x in row) for row in MANO_WINS)
    return deals, wins, tuple(zip(*deals, strict=True)), tuple(zip(*wins, strict=True))


def _dot(m: Sequence[Sequence[float]], r: Sequence[float]) -> list[float]:
    return [sum(map(mul, row, r)) for row in m]


Strategy = dict[str, tuple[tuple[float, ...], ...]]
"""For each history where someone acts: per bucket of the actor, the chance of each of the node's moves."""


class Solver:
    """CFR+ on the abstract game at one score: ``mano``, ``other`` each side's points, ``falta`` what falta
    envido pays accepted. Utilities are the mano's match odds (the other's: their complement)."""

    def __init__(self, mano: int, other: int, target: int, falta: int) -> None:
        self.n = len(BUCKETS)
        self.nodes = {h: node(h) for h in histories()}
        self.deals, self.wins, self.deals_t, self.wins_t = _chance()

        def worth(a: int, b: int) -> float:
            total = 0.0
            for t, p in TRUCO_POINTS:
                total += p * 0.5 * (odds.truco(mano + a + t, other + b, target, False)
                                    + odds.truco(mano + a, other + b + t, target, False))
            return total

        self.pay: dict[str, tuple[float, float]] = {}
        """At each end: the mano's odds if its envido wins (or the end's one outcome), and if it loses."""
        for h, nd in self.nodes.items():
            if nd.actor >= 0:
                continue
            if not nd.calls:
                w = worth(0, 0)
                self.pay[h] = (w, w)
            elif h.endswith(NO_QUIERO):
                pts = refused(nd.calls)
                w = worth(pts, 0) if nd.caller == 0 else worth(0, pts)
                self.pay[h] = (w, w)
            else:
                pts = accepted(nd.calls, falta)
                self.pay[h] = (worth(pts, 0), worth(0, pts))
        self.regret = {h: [[0.0] * len(nd.moves) for _ in range(self.n)] for h, nd in self.nodes.items()
                       if nd.actor >= 0}
        self.total = {h: [[0.0] * len(r[0]) for _ in range(self.n)] for h, r in self.regret.items()}

    def current(self, h: str) -> list[list[float]]:
        out = []
        for row in self.regret[h]:
            s = sum(row)
            out.append([x / s for x in row] if s > 0 else [1.0 / len(row)] * len(row))
        return out

    def end(self, h: str, r_mano: Sequence[float], r_other: Sequence[float]) -> tuple[list[float], list[float]]:
        """Each side's counterfactual values at an end, per its bucket (the other side's in its own odds)."""
        win, lose = self.pay[h]
        a = _dot(self.deals, r_other)
        b = _dot(self.deals_t, r_mano)
        if win == lose:
            return [win * x for x in a], [(1.0 - win) * x for x in b]
        wa = _dot(self.wins, r_other)
        wb = _dot(self.wins_t, r_mano)
        d = win - lose
        return ([lose * x + d * y for x, y in zip(a, wa, strict=True)],
                [(1.0 - lose) * x - d * y for x, y in zip(b, wb, strict=True)])

    def side(self, h: str, who: int, reach: Sequence[float]) -> list[float]:
        """``who``'s counterfactual values per bucket at an end, the other side reaching it with ``reach``."""
        win, lose = self.pay[h]
        if who == 0:
            a = _dot(self.deals, reach)
            if win == lose:
                return [win * x for x in a]
            d = win - lose
            return [lose * x + d * y for x, y in zip(a, _dot(self.wins, reach), strict=True)]
        b = _dot(self.deals_t, reach)
        if win == lose:
            return [(1.0 - win) * x for x in b]
        d = win - lose
        return [(1.0 - lose) * x - d * y for x, y in zip(b, _dot(self.wins_t, reach), strict=True)]

    def walk(self, h: str, who: int, reach: list[float], own: list[float], t: int) -> list[float]:
        """One pass of CFR+ for ``who``: its values per bucket below ``h`` (``reach``: the other side's, ``own``:
        its own), its regrets and its average strategy updated on the way (the average weighed by the round
        ``t`` and its own reach)."""
        nd = self.nodes[h]
        if nd.actor < 0:
            return self.side(h, who, reach)
        n = self.n
        sigma = self.current(h)
        if nd.actor != who:
            out = [0.0] * n
            for j, m in enumerate(nd.moves):
                r = [reach[i] * sigma[i][j] for i in range(n)]
                if any(r):
                    out = [a + b for a, b in zip(out, self.walk(h + m, who, r, own, t), strict=True)]
            return out
        vals = [self.walk(h + m, who, reach, [own[i] * sigma[i][j] for i in range(n)], t)
                for j, m in enumerate(nd.moves)]
        mine = [sum(sigma[i][j] * v[i] for j, v in enumerate(vals)) for i in range(n)]
        regret, total = self.regret[h], self.total[h]
        for i in range(n):
            ri, ti, si, mi, wi = regret[i], total[i], sigma[i], mine[i], own[i] * t
            for j, v in enumerate(vals):
                ri[j] = max(0.0, ri[j] + v[i] - mi)
                ti[j] += wi * si[j]
        return mine

    def run(self, iterations: int = ITERATIONS) -> Strategy:
        ones = [1.0] * self.n
        for t in range(1, iterations + 1):
            for who in (0, 1):
                self.walk("", who, ones, ones, t)
        return self.average()

    def average(self) -> Strategy:
        out: Strategy = {}
        for h, rows in self.total.items():
            out[h] = tuple(tuple(x / sum(row) for x in row) if sum(row) > 0 else (1.0 / len(row),) * len(row)
                           for row in rows)
        return out

    # -- the adversary: the exact best response of each side against a strategy --------------------------
    def best(self, strategy: Strategy, me: int, h: str, reach: list[float]) -> list[float]:
        """``me``'s best value per bucket below ``h``, the other side playing ``strategy`` (``reach``: its reach)."""
        nd = self.nodes[h]
        if nd.actor < 0:
            ones = [1.0] * self.n
            return self.end(h, ones, reach)[0] if me == 0 else self.end(h, reach, ones)[1]
        if nd.actor == me:
            vals = [self.best(strategy, me, h + m, reach) for m in nd.moves]
            return [max(v[i] for v in vals) for i in range(self.n)]
        out = [0.0] * self.n
        for j, m in enumerate(nd.moves):
            r = [reach[i] * strategy[h][i][j] for i in range(self.n)]
            v = self.best(strategy, me, h + m, r)
            out = [a + b for a, b in zip(out, v, strict=True)]
        return out

    def value(self, strategy: Strategy, h: str = "", reach: tuple[list[float], list[float]] | None = None) -> float:
        """The mano's match odds when both sides play ``strategy``."""
        if reach is None:
            reach = ([1.0] * self.n, [1.0] * self.n)
        nd = self.nodes[h]
        if nd.actor < 0:
            return sum(self.end(h, *reach)[0][i] * reach[0][i] for i in range(self.n))
        total = 0.0
        for j, m in enumerate(nd.moves):
            r = [reach[nd.actor][i] * strategy[h][i][j] for i in range(self.n)]
            total += self.value(strategy, h + m, (r, reach[1]) if nd.actor == 0 else (reach[0], r))
        return total


def exploitability(solver: Solver, strategy: Strategy) -> float:
    """What a best response gains on average over the game's value, each side in turn (in match odds)."""
    ones = [1.0] * solver.n
    mano = sum(solver.best(strategy, 0, "", ones))
    other = sum(solver.best(strategy, 1, "", ones))
    return (mano + other - 1.0) / 2.0


def played(strategy: Strategy) -> Strategy:
    """``strategy`` less its moves rarer than ``RARE``, the rest scaled to sum to one."""
    out: Strategy = {}
    for h, rows in strategy.items():
        kept = []
        for row in rows:
            cut = [x if x >= RARE else 0.0 for x in row]
            total = sum(cut)
            kept.append(tuple(x / total for x in cut) if total > 0 else row)
        out[h] = tuple(kept)
    return out


def refined(strategy: Strategy) -> Strategy:
    """``strategy`` with no refusal holding 33, the best envido there is: at an answer its own play never brings
    it to, or the others' never does, the average says nothing but what the first rounds' uniform play left (a
    refusal at 33 now and then); and a side may still stand there (a raise by the others it did not expect)."""
    top = len(BUCKETS) - 1
    out = dict(strategy)
    for h, rows in strategy.items():
        moves = node(h).moves
        if NO_QUIERO not in moves or rows[top][moves.index(NO_QUIERO)] == 0.0:
            continue
        row = list(rows[top])
        yes, no = moves.index(QUIERO), moves.index(NO_QUIERO)
        row[yes], row[no] = row[yes] + row[no], 0.0
        out[h] = (*rows[:top], tuple(row))
    return out


class Flat:
    """``Solver``'s CFR+, the same rounds and the same arithmetic in the same order (so the same average to the
    last bit), over flat lists instead of dicts of strings and lists of rows: the game's nodes numbered, each
    node's regrets and sums one list (bucket by bucket, a bucket's moves together), and the deals' chances by
    side and whether the envido is shown, each a list of rows. At the walker's own node the chances the other
    side's reach gives (one product of matrix and vector each) are worked out once for all its children that end
    the game, and the buckets that reach leaves out are skipped (each would add an exact 0.0). Compiled, about a
    sixth of the plain Python solve's time (17 ms against 108, bench/marks.md): a score's first decision solves it
    within the decision (``solve``)."""

    def __init__(self, solver: Solver) -> None:
        n = solver.n
        self.n = n
        order = histories()
        index = {h: k for k, h in enumerate(order)}
        self.actor: list[int] = []
        self.kids: list[list[int]] = []
        self.win: list[float] = []
        self.lose: list[float] = []
        for h in order:
            nd = solver.nodes[h]
            self.actor.append(nd.actor)
            self.kids.append([index[h + m] for m in nd.moves])
            win, lose = solver.pay[h] if nd.actor < 0 else (0.0, 0.0)
            self.win.append(win)
            self.lose.append(lose)
        self.deals = [[list(row) for row in solver.deals], [list(row) for row in solver.deals_t]]
        self.wins = [[list(row) for row in solver.wins], [list(row) for row in solver.wins_t]]
        """By the side walked (0 the mano, 1 the other): its rows of the chances of each deal, and of those its
        envido wins."""
        self.ends = [any(self.actor[c] < 0 for c in kids) for kids in self.kids]
        """Whether a node has children that end the game (their chances worked out once, at the node)."""
        self.shown = [any(self.actor[c] < 0 and self.win[c] != self.lose[c] for c in kids) for kids in self.kids]
        """Whether one of them shows the envidos (an acceptance: whose wins counts)."""
        self.regret = [[0.0] * (n * len(kids)) for kids in self.kids]
        self.total = [[0.0] * (n * len(kids)) for kids in self.kids]

    def current(self, k: int) -> list[float]:
        """Regret matching+ at node ``k``: each bucket's moves in proportion to their regrets (uniform at none)."""
        n, m = self.n, len(self.kids[k])
        regret = self.regret[k]
        out = [0.0] * (n * m)
        for i in range(n):
            base = i * m
            s = 0.0
            for j in range(m):
                s += regret[base + j]
            for j in range(m):
                out[base + j] = regret[base + j] / s if s > 0 else 1.0 / m
        return out

    def end(self, k: int, who: int, dealt: list[float], won: list[float]) -> list[float]:
        """``who``'s values per bucket at the end ``k``, from the other's reach as chances (``dealt``: of the
        deals, ``won``: of those ``who``'s envido wins; not read when the end pays the same either way)."""
        win, lose = self.win[k], self.lose[k]
        n = self.n
        out = [0.0] * n
        if win == lose:
            w = win if who == 0 else 1.0 - win
            for i in range(n):
                out[i] = w * dealt[i]
            return out
        d = win - lose
        if who == 0:
            for i in range(n):
                out[i] = lose * dealt[i] + d * won[i]
        else:
            for i in range(n):
                out[i] = (1.0 - lose) * dealt[i] - d * won[i]
        return out

    def chances(self, who: int, reach: list[float], both: bool) -> tuple[list[float], list[float]]:
        """The deals' chances for ``who``'s each bucket, the other side reaching with ``reach``, and (``both``) those
        of them ``who``'s envido wins: ``_dot``'s products, each sum left to right, less the buckets the reach
        leaves out (each adds an exact 0.0: the same sums to the bit)."""
        seen = [j for j in range(self.n) if reach[j] != 0.0]
        dealt: list[float] = []
        won: list[float] = []
        deals, wins = self.deals[who], self.wins[who]
        for i in range(self.n):
            row = deals[i]
            s = 0.0
            if both:
                line = wins[i]
                w = 0.0
                for j in seen:
                    r = reach[j]
                    s += row[j] * r
                    w += line[j] * r
                won.append(w)
            else:
                for j in seen:
                    s += row[j] * reach[j]
            dealt.append(s)
        return dealt, won

    def walk(self, k: int, who: int, reach: list[float], own: list[float], t: int) -> list[float]:
        """``Solver.walk`` at node ``k``."""
        n = self.n
        if self.actor[k] < 0:
            dealt, won = self.chances(who, reach, self.win[k] != self.lose[k])
            return self.end(k, who, dealt, won)
        kids = self.kids[k]
        m = len(kids)
        sigma = self.current(k)
        if self.actor[k] != who:
            out = [0.0] * n
            for j in range(m):
                r = [0.0] * n
                reached = False
                for i in range(n):
                    x = reach[i] * sigma[i * m + j]
                    r[i] = x
                    reached = reached or x != 0.0
                if reached:
                    v = self.walk(kids[j], who, r, own, t)
                    for i in range(n):
                        out[i] = out[i] + v[i]
            return out
        dealt, won = self.chances(who, reach, self.shown[k]) if self.ends[k] else ([], [])
        vals: list[list[float]] = []
        for j in range(m):
            c = kids[j]
            if self.actor[c] < 0:
                vals.append(self.end(c, who, dealt, won))
            else:
                mine_j = [0.0] * n
                for i in range(n):
                    mine_j[i] = own[i] * sigma[i * m + j]
                vals.append(self.walk(c, who, reach, mine_j, t))
        regret, total = self.regret[k], self.total[k]
        mine = [0.0] * n
        for i in range(n):
            base = i * m
            mi = 0.0
            for j in range(m):
                mi += sigma[base + j] * vals[j][i]
            mine[i] = mi
            wi = own[i] * t
            for j in range(m):
                x = regret[base + j] + vals[j][i] - mi
                regret[base + j] = x if x > 0.0 else 0.0
                total[base + j] += wi * sigma[base + j]
        return mine

    def run(self, iterations: int = ITERATIONS) -> Strategy:
        """``Solver.run``: the same average."""
        ones = [1.0] * self.n
        for t in range(1, iterations + 1):
            for who in (0, 1):
                self.walk(0, who, ones, ones, t)
        out: Strategy = {}
        for k, h in enumerate(histories()):
            m = len(self.kids[k])
            if self.actor[k] < 0:
                continue
            rows = []
            for i in range(self.n):
                row = self.total[k][i * m:(i + 1) * m]
                s = sum(row)
                rows.append(tuple(x / s for x in row) if s > 0 else (1.0 / m,) * m)
            out[h] = tuple(rows)
        return out


@lru_cache(maxsize=4096)
def solve(mano: int, other: int, target: int, falta: int) -> Strategy:
    """The strategy hard plays at a score (each side's points, the mano's first; what falta envido pays): the
    equilibrium's average (``Solver``'s, by ``Flat``), its rarest moves left out (``played``), 33 never refusing
    (``refined``), solved once and kept."""
    return refined(played(Flat(Solver(mano, other, target, falta)).run()))


def draw(strategy: Strategy, history: str, points: int, seed: str) -> str:
    """The move at ``history`` for a side holding ``points`` of envido, drawn from ``strategy`` by ``seed`` (what
    the side sees that fixes its choice there: the same view draws the same move)."""
    row = strategy[history][bucket_of(points)]
    x = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big") / 2.0**64
    moves = node(history).moves
    for m, p in zip(moves, row, strict=True):
        x -= p
        if x < 0:
            return m
    return moves[-1]
