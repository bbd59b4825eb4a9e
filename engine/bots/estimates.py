"""What a search says about one seat's choices: each legal action's value and how sure it is.

The search behind the hard bots (``engine.bots.search``) and the analysis of a hand both ask
the same question at one seat's decision: what is each choice worth, judged from what that
seat knew? The answer is an ``Evaluation``: one ``Estimate`` per legal action, in the unit
that decides the game (``Unit``), each with its standard error and its gap to the best
choice. Every choice is played out on the same deals of the unseen cards, so a gap is
measured deal by deal: its error is far smaller than either value's (the luck of a deal
cancels out), and a gap is told apart from zero only when it is above a few of its errors.

A search spends a ``Budget``: a count of deals, never a clock, so that a search from a seeded
generator repeats exactly (a bot's decision is replayed from its seed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from cardtui.engine.core import Action


class Unit(StrEnum):
    """What an estimate counts."""

    MATCH = "match"
    """The chance of winning the match, 0 to 1 (truco, Cacheta: games won by matches)."""
    CHIPS = "chips"
    """The chips the seat holds once the hand is over, less what it holds now (Cacho, Pif Paf)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much one evaluation may spend, as a multiple of what the hard bot spends to play."""

    scale: float = 1.0

    def deals(self, play: int) -> int:
        """The deals to draw when the hard bot draws ``play`` of them."""
        return max(1, round(play * self.scale))


PLAY = Budget(1.0)
"""The hard bot's budget."""
ANALYSIS = Budget(8.0)
"""A larger budget, for judging a decision after the hand: eight times the deals."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """One choice's value in the evaluation's unit."""

    action: Action
    value: float
    """The mean over the deals, each deal weighed by how well it explains what the others did."""
    error: float
    """The standard error of ``value``."""
    gap: float
    """How far below the best choice it stands (0 for the best)."""
    gap_error: float
    """The standard error of ``gap``, measured deal by deal (0 for the best)."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every legal choice of one decision, valued from the deciding seat's information set."""

    unit: Unit
    choices: tuple[Estimate, ...]
    """One per legal action (a signal, which is talk, not a move, is left out), in the order given."""
    deals: int
    """Deals of the unseen cards played out."""
    effective: float
    """How many equally weighed deals the weighed ones are worth (Kish's effective sample size)."""
    rows: tuple[tuple[float, ...], ...] = ()
    """Each choice's value deal by deal (one row per choice): what another evaluation on more deals joins
    (``weighed``), and what the gap between any two choices is measured from."""
    weights: tuple[float, ...] = ()
    """Each deal's weight."""

    def best(self) -> Estimate:
        """The choice with the highest value (the first of equals)."""
        return max(self.choices, key=lambda e: (e.value, -self.choices.index(e)))

    def of(self, action: Action) -> Estimate:
        """The estimate of ``action``; ``KeyError`` when it was not a legal choice."""
        for e in self.choices:
            if e.action == action:
                return e
        raise KeyError(action)


def weighed(unit: Unit, groups: Sequence[Sequence[Action]], values: Sequence[Sequence[float]],
            weights: Sequence[float]) -> Evaluation:
    """The evaluation of choices played out on the same weighed deals.

    ``groups[j]`` are the legal actions that are one choice in the search's model (two cards of one
    strength, say), ``values[j][i]`` that choice's value on deal ``i`` and ``weights[i]`` the deal's
    weight. Means are self-normalised (weights need not sum to one); errors are those of a weighed
    mean, ``sqrt(sum w_i^2 (x_i - mean)^2) / sum w_i``.
    """
    total = sum(weights)
    n = len(weights)
    if n == 0 or total <= 0.0:
        return Evaluation(unit, tuple(Estimate(a, 0.0, math.inf, 0.0, math.inf) for g in groups for a in g), n, 0.0)
    squares = sum(w * w for w in weights)
    means = [sum(w * x for w, x in zip(weights, row, strict=True)) / total for row in values]
    errors = [_error(weights, row, m, total) for row, m in zip(values, means, strict=True)]
    lead = max(range(len(values)), key=lambda j: (means[j], -j))
    choices: list[Estimate] = []
    for j, group in enumerate(groups):
        if j == lead:
            gap, gap_error = 0.0, 0.0
        else:
            diffs = [a - b for a, b in zip(values[lead], values[j], strict=True)]
            gap = means[lead] - means[j]
            gap_error = _error(weights, diffs, gap, total)
        choices += [Estimate(a, means[j], errors[j], gap, gap_error) for a in group]
    rows = tuple(tuple(row) for row, group in zip(values, groups, strict=True) for _ in group)
    return Evaluation(unit, tuple(choices), n, min(float(n), total * total / squares), rows, tuple(weights))


def _error(weights: Sequence[float], xs: Sequence[float], mean: float, total: float) -> float:
    if len(weights) < 2:
        return math.inf
    spread = sum(w * w * (x - mean) ** 2 for w, x in zip(weights, xs, strict=True))
    return math.sqrt(spread) / total
