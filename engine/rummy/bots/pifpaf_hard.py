"""Pif Paf's hard bot: draws and discards one draw ahead (``rummy_levels.hard``), and bets by playing the
hand out.

Betting is where Pif Paf's chips move: a hand is played for a pot every player paid into, and a fold
gives up what was put in. Normal bets by a formula of the hand's chance of winning (``win_chance``: its
value against unknown hands). This bot values each betting choice as the
analysis does (``rummy_search``): the unseen cards dealt many ways consistent with what it saw, each choice
played out to the hand's end with the others staying in or folding as their hands allow, and the chips it
leaves counted. So it sees what the formula cannot: how far a hand is from going out against how far the
others' are likely to be, who is still in to pay a raise, and what the pot already holds. On duplicate
deals it takes well over an even share of the matches from two normal bots (``bench/marks.md``, "Pif Paf's
hard bets by playing the hand out").

It sees only its seat's view; the deals come from its own generator, so a decision repeats.
"""

from __future__ import annotations

import random

from cardtui.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from cardtui.engine.bots.estimates import Budget, Evaluation, weighed
from cardtui.engine.core import Action
from cardtui.engine.rummy.bots import levels as rummy_levels
from cardtui.engine.rummy.bots import search as rummy_search
from cardtui.engine.rummy.records import RummyView

BETTING = Budget(3.0)
"""The deals a betting decision is played out on: three times the search's play budget (48), and only at the
betting round. Four times (64) put the slowest decisions, a betting round's with every raise to value, near the
200 ms a decision may take at p99 (``bench/marks.md``, issue 75); 32 and 64 deals were not told apart in chips a
hand against hard's betting before (issue 59). Fewer deals leave more of a bet's edge inside its error, where
``steady`` checks instead."""


STEADY = 1.0
"""A bet or a raise is made only when it stands above the check (or the call) by more than this many of its
standard errors, measured deal by deal (``steady``)."""


def hard(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """Pif Paf's hard bot (see the module)."""
    if rummy_levels.betting(legal):
        return steady(rummy_search.evaluate(view, legal, rng, BETTING))
    return rummy_levels.hard(view, legal, rng)


def steady(evaluation: Evaluation) -> Action:
    """The best choice of a betting round's evaluation, but a bet or a raise only where it stands above the
    check or the call by more than ``STEADY`` standard errors of the gap; else the better of the check, call
    and fold. On a few tens of deals the chips a bet of nine unconnected cards leaves vary by most of a
    stake, and of four bets and a check valued on them one bet often comes out ahead by its luck alone: the
    best of them by value alone (32 deals) bet such a hand on one seed in four, where a bet of the most loses
    chips against normal (``bench/pifpaf_bets.py``). A bet that a hand's strength makes pay stands well clear."""
    best = evaluation.best()
    if best.action.type not in (BET, RAISE):
        return best.action
    rows = dict(zip(evaluation.choices, evaluation.rows, strict=True))
    passive = [c for c in evaluation.choices if c.action.type in (CHECK, CALL, FOLD)]
    base = next((c for c in passive if c.action.type in (CHECK, CALL)), None)
    if base is None or not rows:
        return best.action
    pair = weighed(evaluation.unit, [[best.action], [base.action]], [rows[best], rows[base]], evaluation.weights)
    behind = pair.choices[1]
    if behind.gap > STEADY * behind.gap_error:
        return best.action
    return max(passive, key=lambda c: c.value).action
