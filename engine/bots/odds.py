"""Match odds by score: the chance of winning a match from where it stands, between equal players.

Truco and Cacheta are won by matches, so what a point is worth depends on the score: a point
that takes a team to the target is worth the match, one in the middle of a long match little.
Backgammon players value a move by a *match equity table*; this module is that table for our
games, worked out exactly by dynamic programming from how hands end between equal players.
How hands end (how many points a truco hand brings, how often a mão de onze is run, how often
Cacheta's knock melds all ten cards) is measured by self-play (``python -m bench.odds``) and
kept in ``engine.bots.hand_odds``; everything else follows from the rules:

- truco paulista, to 12: one team takes each hand; a team on 11 sees its partner's cards and
  runs (the others take 1) or plays for 3, with no truco; both on 11, an even iron hand;
- truco argentino, to 15 or 30: a hand brings points to either team or both (envido and
  truco); a team at or past the target and ahead after a hand has won, both level past it
  play on;
- Cacheta, every player on points: each hand one player knocks, and every other loses 2
  (ten cards melded) or 1, never below 0; the last player left wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from cardtui.engine.bots import hand_odds


def truco(mine: int, theirs: int, target: int, paulista: bool) -> float:
    """The chance that the team on ``mine`` beats the team on ``theirs`` in a match to ``target``."""
    if mine >= target and mine > theirs:
        return 1.0
    if theirs >= target and theirs > mine:
        return 0.0
    if mine >= target or theirs >= target:
        return 0.5
    table = _paulista(target) if paulista else _argentino(target)
    return table[mine][theirs]


@cache
def _paulista(target: int) -> tuple[tuple[float, ...], ...]:
    """Truco paulista's table. A team on ``target - 1`` plays a mão de onze: it runs with the chance
    ``PAULISTA_ONZE_RUN`` (the others take 1), else plays for 3 and wins with ``PAULISTA_ONZE_WIN``."""
    onze = target - 1
    run, won = hand_odds.PAULISTA_ONZE_RUN, hand_odds.PAULISTA_ONZE_WIN
    v = [[0.5] * (target + 1) for _ in range(target + 1)]

    def at(a: int, b: int) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        return v[a][b]

    for total in range(2 * onze, -1, -1):
        for a in range(max(0, total - onze), min(onze, total) + 1):
            b = total - a
            if a == onze and b == onze:
                v[a][b] = 0.5  # iron hands until one team takes one: even
            elif a == onze:
                v[a][b] = run * at(a, b + 1) + (1 - run) * (won + (1 - won) * at(a, b + 3))
            elif b == onze:
                v[a][b] = run * at(a + 1, b) + (1 - run) * (1 - won) * at(a + 3, b)
            else:
                v[a][b] = sum(p * 0.5 * (at(a + k, b) + at(a, b + k)) for k, p in hand_odds.PAULISTA_POINTS)
    return tuple(tuple(row) for row in v)


@cache
def _argentino(target: int) -> tuple[tuple[float, ...], ...]:
    """Truco argentino's table, from the points a hand brings each team (``ARGENTINO_POINTS``, made
    even between the two: either team may be the one that took ``x``)."""
    outcomes = [(x, y, p / 2) for (x, y), p in hand_odds.ARGENTINO_POINTS] + [
        (y, x, p / 2) for (x, y), p in hand_odds.ARGENTINO_POINTS]
    stay = sum(p for x, y, p in outcomes if x == 0 and y == 0)
    moving = [(x, y, p / (1 - stay)) for x, y, p in outcomes if x or y]
    v = [[0.5] * target for _ in range(target)]

    def at(a: int, b: int) -> float:
        if a >= target or b >= target:
            return 1.0 if a > b else 0.0 if b > a else 0.5
        return v[a][b]

    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(target - 1, total) + 1):
            b = total - a
            v[a][b] = sum(p * at(a + x, b + y) for x, y, p in moving)
    return tuple(tuple(row) for row in v)


def cacheta(points: Sequence[int], seat: int) -> float:
    """The chance that ``seat`` is the last player left, with every player on ``points`` (0: out)."""
    if points[seat] <= 0:
        return 0.0
    alive = sorted((p for p in points if p > 0), reverse=True)
    if len(alive) == 1:
        return 1.0
    shares = _cacheta(tuple(alive))
    mine = points[seat]
    # Players on equal points stand alike: share what their places are worth.
    places = [i for i, p in enumerate(alive) if p == mine]
    return sum(shares[i] for i in places) / len(places)


@cache
def _cacheta(alive: tuple[int, ...]) -> tuple[float, ...]:
    """For players on ``alive`` points (sorted, highest first, all above 0), each one's chance to win."""
    n = len(alive)
    if n == 1:
        return (1.0,)
    ten = hand_odds.CACHETA_TEN
    out = [0.0] * n
    for knocker in range(n):
        for loss, p in ((2, ten), (1, 1.0 - ten)):
            after = [(alive[i] if i == knocker else alive[i] - loss, i) for i in range(n)]
            left = sorted(((pts, i) for pts, i in after if pts > 0), key=lambda t: -t[0])
            if len(left) == 1:
                out[left[0][1]] += p / n
                continue
            shares = _cacheta(tuple(pts for pts, _ in left))
            for k, (_, i) in enumerate(left):
                out[i] += p / n * shares[k]
    return tuple(out)


# -- what one stake of a hand is worth to a match ----------------------------------------------------------------
FLOOR = 0.01
"""The least match odds a stake is taken to be worth: at a score where a hand can hardly move the match (29 to 0
of 30), a loss is not magnified past 125 points for each point of match odds."""


def match_stake(win: float, lose: float) -> float:
    """One stake of a hand, in match odds: half the odds between taking it and losing it (``FLOOR`` at least). A
    loss of match odds is turned into stakes of the hand by it, as gnubg turns a match equity loss into money
    equity by the game's worth to the match (its "EMG"): without it, a truco hand at 0 to 0 of 12 moved the match
    so little that accepting a truco surely lost (3 points given where running gave 1) cost 8.5 points of match
    odds, under the mistake line, and no card played in an early hand could ever be a mistake."""
    return max(FLOOR, (win - lose) / 2.0)
