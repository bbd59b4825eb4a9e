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

from cardtui.engine.bots import rummy_levels, rummy_search
from cardtui.engine.bots.estimates import Budget
from cardtui.engine.core import Action
from cardtui.engine.rummy_records import RummyView

BETTING = Budget(2.0)
"""The deals a betting decision is played out on: twice the search's play budget (32), a few tens of
milliseconds a decision, and only at the betting round."""


def hard(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """Pif Paf's hard bot (see the module)."""
    if rummy_levels.betting(legal):
        return rummy_search.evaluate(view, legal, rng, BETTING).best().action
    return rummy_levels.hard(view, legal, rng)
