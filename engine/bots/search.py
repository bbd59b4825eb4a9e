"""The search behind the bots, for any game: every legal choice of one seat, valued from what it knew.

``evaluate(view, legal, rng, budget)`` answers, at one seat's decision, what each legal action is
worth, judged from that seat's information set: its own cards and everything public. It deals the
cards the seat could not see many ways, each consistent with all that was public (cards shown or
played, calls made and answered, envido announced, cards taken from the pile, a round passed), plays
each choice out on every deal, and returns an ``estimates.Evaluation``: each choice's value and its
standard error, in the unit that decides the game (``estimates.Unit``):

- truco (both games): the chance of winning the match, from the score each choice leaves
  (``odds.truco``); the deals weighed by what the others did (``truco_worlds.Reading``);
- Cacheta: the chance of winning the match from the points the hand leaves (``odds.cacheta``);
- Cacho and Pif Paf: the chips the seat holds once the hand is over, less what it holds now.

Each family searches its own way (``engine/<family>/bots/search.py``, asked through ``engine.family``).

The seat's view is all it reads: a decision does not change when the cards it could not see are
dealt otherwise. ``budget`` is a count of deals (``estimates.PLAY`` is what the hard bot spends,
``estimates.ANALYSIS`` more), never a clock, so a search from a seeded generator repeats.
"""

from __future__ import annotations

import random

from cardtui.engine import family
from cardtui.engine.bots import estimates
from cardtui.engine.bots.estimates import Budget, Evaluation
from cardtui.engine.core import Action, GameView


def evaluate(view: GameView, legal: list[Action], rng: random.Random, budget: Budget = estimates.PLAY
             ) -> Evaluation:
    """Every legal choice but a signal of ``view``'s seat, valued from what it knew (see the module), by its
    family's search (``engine.family``); ``ValueError`` for a spectator's view or a view no family shows."""
    if getattr(view, "you", None) is None:
        raise ValueError("A spectator has no choice to value: give a seat's view.")
    return family.of(view).evaluate(view, legal, rng, budget)
