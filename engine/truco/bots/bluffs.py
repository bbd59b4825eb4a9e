"""How often truco's bots bluff an envido, and how often hard defends against one: the frequency of
``engine.bots.bluffs`` for the envido's own stakes, from how often a dealt hand of truco argentino holds a value
envido and a weak one; and, for an answer, the share of the answerer's hands that defend, strongest first."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from cardtui.engine.bots.bluffs import bluff_rate
from cardtui.engine.truco.argentino.rules import DECK as ARG_DECK
from cardtui.engine.truco.envido import Unsuited, envido

ENVIDO_VALUE = 27
"""An envido that bets for value (the search bets these as it likes)."""
ENVIDO_WEAK = 24
"""Below this an envido is weak: it bets only as a bluff, and only plain envido (never real or
falta: refused they pay 2 or 1, accepted they lose 3 or the match)."""



@cache
def envido_odds() -> tuple[float, float]:
    """How often a dealt hand of truco argentino has a value envido (``ENVIDO_VALUE`` or more) and a
    weak one (below ``ENVIDO_WEAK``), over every three cards of the deck (by the two best cards)."""
    value = weak = total = 0
    for hand in combinations(ARG_DECK, 3):
        points = envido(hand)[0]
        total += 1
        value += points >= ENVIDO_VALUE
        weak += points < ENVIDO_WEAK
    return value / total, weak / total


def envido_bluff_rate() -> float:
    """The chance to open an envido (2, or 1 refused) on a weak hand."""
    value, weak = envido_odds()
    return bluff_rate(1, 2, value, weak)


@cache
def envido_spread(unsuited: Unsuited = Unsuited.SUM_TWO) -> tuple[tuple[int, float], ...]:
    """How often a dealt hand of truco argentino holds each envido, over every three cards of the deck, strongest
    first: what an answerer's hands look like to the caller, who sees none of them."""
    counts: dict[int, int] = {}
    for hand in combinations(ARG_DECK, 3):
        points = envido(hand, unsuited)[0]
        counts[points] = counts.get(points, 0) + 1
    total = sum(counts.values())
    return tuple((points, counts[points] / total) for points in sorted(counts, reverse=True))


def defend_chance(points: int, share: float, floor: int = 0, unsuited: Unsuited = Unsuited.SUM_TWO) -> float:
    """The chance that an answerer holding an envido of ``points`` defends, when the strongest ``share`` of its hands
    (those of ``floor`` or more: its own envido calls this round said so much) defend and the rest give up: a hand
    every stronger hand leaves room for always defends, one they fill never does, and the hands of the envido at
    the edge defend with the chance that makes the share exact. A caller then cannot tell a bluff's answer from
    the hand it meets, and the share (``Searcher.defence``) leaves a bluff no profit."""
    spread = [(e, p) for e, p in envido_spread(unsuited) if e >= floor]
    total = sum(p for _, p in spread)
    if total <= 0.0:
        return 0.0
    better = sum(p for e, p in spread if e > points) / total
    here = sum(p for e, p in spread if e == points) / total
    if better >= share:
        return 0.0
    if here <= 0.0:
        return 1.0
    return min(1.0, (share - better) / here)
