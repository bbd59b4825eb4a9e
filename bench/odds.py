"""How hands end between equal players, by self-play: the data behind the match odds (``engine.bots.odds``).

``python -m bench.odds [--level hard] [--hands N]`` plays bots of one level against each other
through the engines and writes ``engine/bots/hand_odds.py``: how many points a truco paulista
hand brings its winner, how often a team on 11 runs and how often it wins when it plays,
the points a truco argentino hand brings each team, how often a Cacheta knock melds all
ten cards, and how a Pif Paf hand's chance of winning grows with its value at the deal. The
match odds are worked out from these exactly; ship the file it writes.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from cardtui.engine.betting import CALL, CHECK
from cardtui.engine.games import get, player
from cardtui.engine.rummy.bots.levels import Seen
from cardtui.engine.rummy.bots.search import known_holdings
from cardtui.engine.rummy.records import RummyView
from cardtui.engine.truco.views import TrucoView

OUT = Path(__file__).resolve().parent.parent / "engine" / "bots" / "hand_odds.py"


def play(game: str, players: int, level: str, hands: int, seed: int,
         on_hand: Callable[[object, tuple[int, ...], tuple[int, ...], object], None]) -> None:
    """Play ``hands`` hands of ``level`` bots at every seat, matches after matches; ``on_hand(first view, scores
    before, scores after, history)`` after each."""
    rules = get(game)
    bot = player(game, level)
    seats = rules.seat_infos([f"p{i}" for i in range(players)])
    rng = random.Random(seed)
    done = 0
    while done < hands:
        match, _ = rules.open({}, seats, rng.getrandbits(63))
        while done < hands:
            first = match.view(0)
            before = match.scores()
            while not match.hand_over():
                waiting = [s for s in match.to_act() if match.legal_actions(s)]
                seat = waiting[int(rng.random() * len(waiting))]
                match.apply(seat, bot(match.view(seat), match.legal_actions(seat), rng))
            done += 1
            on_hand(first, before, match.scores(), match.history())
            if match.match_over():
                break
            match.next_hand(rng.getrandbits(63))


def paulista(level: str, hands: int, seed: int) -> tuple[list[tuple[int, float]], float, float]:
    points: Counter[int] = Counter()
    onze: Counter[str] = Counter()

    def on_hand(first: object, before: tuple[int, ...], after: tuple[int, ...], history: object) -> None:
        assert isinstance(first, TrucoView) and first.paulista is not None
        gain = (after[0] - before[0], after[1] - before[1])
        team = first.paulista.onze_team
        if first.paulista.ferro:
            return
        if team is not None:
            if gain[1 - team] == 1:
                onze["run"] += 1
            else:
                onze["won" if gain[team] else "lost"] += 1
            return
        points[max(gain)] += 1

    play("truco_paulista", 4, level, hands, seed, on_hand)
    total = sum(points.values())
    played = onze["won"] + onze["lost"]
    return ([(k, n / total) for k, n in sorted(points.items())], onze["run"] / max(1, played + onze["run"]),
            onze["won"] / max(1, played))


def argentino(level: str, hands: int, seed: int) -> list[tuple[tuple[int, int], float]]:
    points: Counter[tuple[int, int]] = Counter()

    def on_hand(first: object, before: tuple[int, ...], after: tuple[int, ...], history: object) -> None:
        points[(after[0] - before[0], after[1] - before[1])] += 1

    play("truco_argentino", 2, level, hands, seed, on_hand)
    total = sum(points.values())
    return [(k, n / total) for k, n in sorted(points.items())]


def cacheta(level: str, hands: int, seed: int) -> float:
    knocks: Counter[bool] = Counter()

    def on_hand(first: object, before: tuple[int, ...], after: tuple[int, ...], history: object) -> None:
        assert isinstance(history, dict)
        knock = history["result"].get("knock")
        if knock:
            knocks[knock.get("discard") is None] += 1

    play("cacheta", 2, level, hands, seed, on_hand)
    return knocks[True] / max(1, sum(knocks.values()))


def cacheta_knocks(hands: int, seed: int) -> tuple[float, float, float]:
    """Cacheta heads-up, normal against hard (seats swapped each match): at each of normal's draws, whether it can
    knock, against the draw's number n in the hand and the cards k it holds from the pile as hard sees them;
    the logistic fit ``(a, b, c)`` of ``a + b ln n + c k`` (``cacheta_hard.KNOCK_ODDS``)."""
    rules = get("cacheta")
    levels = (player("cacheta", "normal"), player("cacheta", "hard"))
    rng = random.Random(seed)
    rows: list[tuple[float, float, bool]] = []
    done = 0
    while done < hands:
        first = done % 2  # the seat normal plays this match
        match, _ = rules.open({}, rules.seat_infos(["a", "b"]), rng.getrandbits(63))
        while done < hands and not match.match_over():
            draws = 0
            while not match.hand_over():
                seat = next(s for s in match.to_act() if match.legal_actions(s))
                action = levels[seat != first](match.view(seat), match.legal_actions(seat), rng)
                match.apply(seat, action)
                if seat == first and action.type == "draw":
                    draws += 1
                    seen = _rummy(match.view(1 - first))
                    took = len(known_holdings(seen).get(first, ()))
                    can = any(a.type == "knock" for a in match.legal_actions(seat))
                    rows.append((math.log(draws), float(took), can))
            done += 1
            if not match.match_over():
                match.next_hand(rng.getrandbits(63))
    return _logistic(rows)


def _logistic(rows: list[tuple[float, float, bool]]) -> tuple[float, float, float]:
    """The maximum-likelihood ``(a, b, c)`` of ``P(y) = 1 / (1 + exp(-(a + b x + c z)))`` over ``(x, z, y)`` rows, by
    Newton's method."""
    w = [0.0, 0.0, 0.0]
    for _ in range(50):
        grad = [0.0, 0.0, 0.0]
        hess = [[0.0] * 3 for _ in range(3)]
        for x, z, y in rows:
            f = (1.0, x, z)
            p = 1.0 / (1.0 + math.exp(-(w[0] + w[1] * x + w[2] * z)))
            for i in range(3):
                grad[i] += (float(y) - p) * f[i]
                for j in range(3):
                    hess[i][j] += p * (1 - p) * f[i] * f[j]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(x) for x in step) < 1e-9:
            break
    return w[0], w[1], w[2]


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """``m x = v`` for a small symmetric positive definite ``m`` (Gaussian elimination)."""
    n = len(v)
    a = [[*row, v[i]] for i, row in enumerate(m)]
    for i in range(n):
        for k in range(i + 1, n):
            f = a[k][i] / a[i][i]
            for j in range(i, n + 1):
                a[k][j] -= f * a[i][j]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (a[i][n] - sum(a[i][j] * x[j] for j in range(i + 1, n))) / a[i][i]
    return x


def pifpaf(hands: int, seed: int) -> tuple[float, float]:
    """Pif Paf, three normal bots that check and call: each seat's hand value at the deal and whether it won;
    the strength ``b`` that makes ``exp(b v) / (exp(b v) + 2 W)`` (``W`` the mean of ``exp(b v)``) fit best."""
    rules = get("pifpaf")
    bot = player("pifpaf", "normal")
    rng = random.Random(seed)
    seats = rules.seat_infos(["a", "b", "c"])
    rows: list[tuple[float, bool]] = []
    done = 0
    while done < hands:
        match, _ = rules.open({}, seats, rng.getrandbits(63))
        for _ in range(20):
            values = {s: Seen(_rummy(match.view(s))).value(_rummy(match.view(s)).cards) for s in range(3)}
            while not match.hand_over():
                seat = next(s for s in match.to_act() if match.legal_actions(s))
                legal = match.legal_actions(seat)
                easy = next((a for a in legal if a.type in (CHECK, CALL)), None)
                match.apply(seat, easy or bot(match.view(seat), legal, rng))
            history = match.history()
            assert isinstance(history, dict)
            knock = history["result"].get("knock") or {}
            rows += [(v, knock.get("seat") == s) for s, v in values.items()]
            done += 1
            if match.match_over() or done >= hands:
                break
            match.next_hand(rng.getrandbits(63))

    def fit(b: float) -> tuple[float, float]:
        field = sum(math.exp(b * v) for v, _ in rows) / len(rows)
        ll = 0.0
        for v, won in rows:
            p = math.exp(b * v) / (math.exp(b * v) + 2 * field)
            ll += math.log(p if won else 1 - p)
        return ll, field

    best = max(((*fit(b / 100), b / 100) for b in range(5, 120)), key=lambda t: t[0])
    return best[2], best[1]


def _rummy(view: object) -> RummyView:
    assert isinstance(view, RummyView)
    return view


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.odds")
    p.add_argument("--level", default="hard", help="the bots' level at every seat")
    p.add_argument("--hands", type=int, default=4000, help="hands of each game")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cacheta-knocks", action="store_true",
                   help="only print how soon a Cacheta player can knock, heads-up (cacheta_hard.KNOCK_ODDS)")
    args = p.parse_args()
    t = time.perf_counter()
    if args.cacheta_knocks:
        a, b, c = cacheta_knocks(args.hands, args.seed)
        print(f"KNOCK_ODDS = ({a:.3f}, {b:.3f}, {c:.3f}) ({time.perf_counter() - t:.0f} s)")
        return
    pau, run, won = paulista(args.level, args.hands, args.seed)
    arg = argentino(args.level, args.hands, args.seed)
    ten = cacheta(args.level, max(1, args.hands // 4), args.seed)
    strength, field = pifpaf(max(1, args.hands // 4), args.seed)

    def pairs(items: list[tuple[object, float]]) -> str:
        return "".join(f"\n    ({k}, {p:.5f})," for k, p in items)

    OUT.write_text(f'''"""How hands end between equal players: the data the match odds are worked out from (``odds``).

Measured by ``python -m bench.odds --level {args.level} --hands {args.hands} --seed {args.seed}`` (self-play of
the {args.level} bots at every seat; Cacheta on {max(1, args.hands // 4)} hands); written by it, not by hand.
"""

PAULISTA_POINTS: tuple[tuple[int, float], ...] = ({pairs(list(pau))}
)
"""Truco paulista, neither team on 11: the points a hand brings its winner, and how often."""
PAULISTA_ONZE_RUN = {run:.5f}
"""How often a team on 11 runs from its mão de onze."""
PAULISTA_ONZE_WIN = {won:.5f}
"""How often a team on 11 that plays its mão de onze wins it."""
ARGENTINO_POINTS: tuple[tuple[tuple[int, int], float], ...] = ({pairs(list(arg))}
)
"""Truco argentino, two players: the points a hand brings each (the mano's side first or not, alike)."""
CACHETA_TEN = {ten:.5f}
"""Cacheta, two players: how often a knock melds all ten cards (every other player loses 2, not 1)."""
PIFPAF_STRENGTH = {strength:.3f}
"""Pif Paf, three players: how a hand's chance of winning grows with its value at the deal
(``rummy_levels.Seen.value``): its weight is ``exp(PIFPAF_STRENGTH * value)``..."""
PIFPAF_FIELD = {field:.3f}
"""... against the mean weight of a hand dealt, this (measured with the normal bots checking and calling)."""
''')
    print(f"wrote {OUT} in {time.perf_counter() - t:.0f} s")


if __name__ == "__main__":
    main()
