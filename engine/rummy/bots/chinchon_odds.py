"""Chinchón's match odds by score: the chance of being the last player in, between equal players.

A Chinchón match is won by lasting: each hand adds points against every player, and whoever passes the target is
out. What a hand's points are worth therefore depends on the score: ten points to a player far from the target
cost little, the same ten on the brink cost the match. As ``engine.bots.odds`` does for truco and Cacheta, this
works the odds out from how hands end between equal players (``CLOSER``, ``OTHER``: measured by self-play of the
plain bots at two, on 300 hands): two players exactly, by dynamic programming over what each may still take before
it is out; more, from those, each seat against each other (a first approximation, ``chinchon``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

CLOSER: tuple[tuple[int, float], ...] = ((-10, 0.06), (1, 0.26), (2, 0.19), (3, 0.13), (4, 0.16), (5, 0.20))
"""What the closer's hand counts, and how often (two players, the table's default limit of 5)."""
OTHER: tuple[tuple[int, float], ...] = (
    (0, 0.07), (5, 0.34), (10, 0.25), (15, 0.11), (20, 0.09), (25, 0.07), (30, 0.03), (35, 0.02), (40, 0.02))
"""What a player who did not close counts, and how often (in steps of five)."""
ABOVE = 30
"""How far below 0 points a score is followed (a player on -10s): beyond it, as if there."""


@cache
def _heads_up(target: int) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance that the player who may still take ``a`` points before it is out beats the one
    who may take ``b``, each hand's closer either of them alike (a -10 counted as 0: the odds only ever move one
    way, and a hand in which neither moves is played again)."""
    top = target + ABOVE
    table = [[0.0] * (top + 1) for _ in range(top + 1)]
    closer = [(max(0, c), p) for c, p in CLOSER]
    for total in range(2 * top + 1):
        for a in range(max(0, total - top), min(top, total) + 1):
            b = total - a
            stay = 0.0
            value = 0.0
            for first in (True, False):
                for c, pc in closer:
                    for d, pd in OTHER:
                        p = 0.5 * pc * pd
                        lose_a, lose_b = (c, d) if first else (d, c)
                        na, nb = a - lose_a, b - lose_b
                        if na == a and nb == b:
                            stay += p
                        elif na < 0 and nb < 0:
                            value += p * (1.0 if na > nb else 0.5 if na == nb else 0.0)
                        elif na < 0:
                            pass
                        elif nb < 0:
                            value += p
                        else:
                            value += p * table[na][nb]
            table[a][b] = value / (1.0 - stay) if stay < 1.0 else 0.5
    return tuple(tuple(row) for row in table)


def heads_up(mine: int, theirs: int, target: int) -> float:
    """The chance that a player on ``mine`` points outlasts one on ``theirs``, in a match to ``target``."""
    table = _heads_up(target)
    top = len(table) - 1
    a, b = target - mine, target - theirs
    if a < 0 and b < 0:
        return 1.0 if a > b else 0.5 if a == b else 0.0
    if a < 0:
        return 0.0
    if b < 0:
        return 1.0
    return table[min(a, top)][min(b, top)]


def chinchon(points: Sequence[int], seat: int, target: int, alive: Sequence[bool] | None = None) -> float:
    """The chance that ``seat`` wins the match with every seat on ``points`` (those not ``alive`` are out): with
    nobody else in, its own standing; else the geometric mean of its chances of outlasting each other seat in,
    normalised over the seats in (the plain product counted a player far behind out twice over: one on 90 of 100
    against two on 10 had a chance in a hundred thousand)."""
    live = list(alive) if alive is not None else [p <= target for p in points]
    if not live[seat]:
        return 0.0
    rivals = [s for s in range(len(points)) if live[s]]
    if len(rivals) == 1:
        return 1.0

    def strength(s: int) -> float:
        out = 1.0
        for o in rivals:
            if o != s:
                out *= heads_up(points[s], points[o], target)
        return float(out ** (1.0 / (len(rivals) - 1)))

    total = sum(strength(s) for s in rivals)
    return strength(seat) / total if total > 0 else 1.0 / len(rivals)
