"""Cacheta's normal bot: the rummy value, with the habits that win against simple play.

Measured on duplicate deals (``cardtui arena``), the rummy value played plainly
(``rummy_levels.normal``) lost to players of ten lines: one that takes the pile's card only
when it melds at once and throws a loose card outside its pairs beat it (``bench/marks.md``). The
value took the pile's card for a hand that only looked better, and threw a card out of a
meld for a loose pair. This bot keeps the value where it judges well and the simple habits
where they win:

- it takes the pile's card only when that card melds more of the hand at once; otherwise it
  draws from the stock (a taken card also tells the other players what it collects);
- it throws only a card outside its best melds: the one that leaves the best value, less what
  handing it over costs (``DANGER`` for each card the others are known to collect near it);
- it knocks with all ten cards melded when it can (every other player loses 2 points, not 1).

It sees only its seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtui.engine.core import Action
from cardtui.engine.rummy.bots.levels import Seen, draw_open, turn
from cardtui.engine.rummy.records import DISCARD, DRAW, PILE, STOCK, RummyView

DANGER = 0.6
"""What throwing a card costs for each card near it another player took from the pile (in melded cards)."""


def _draw(seen: Seen, legal: Sequence[Action]) -> Action | None:
    open_ = draw_open(seen, legal)
    if not isinstance(open_, tuple):
        return open_
    top, hand = open_
    m = seen.m
    melded = len(hand) - len(m.arrange(hand)[1])
    more = [*hand, top]
    return Action(DRAW, value=PILE if len(more) - len(m.arrange(more)[1]) > melded else STOCK)


def _discard(seen: Seen, legal: Sequence[Action]) -> Action | None:
    if not any(a.type == DISCARD for a in legal):
        return None
    card, _ = seen.best_discard(list(seen.view.cards), DANGER, loose=True)
    return Action(DISCARD, cards=(card,))


def normal(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """Cacheta's normal bot."""
    return turn(view, legal, Seen, _draw, _discard)
