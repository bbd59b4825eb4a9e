"""Cacho's easy bot: a beginner who plays the hand by its look, not by its odds.

The levels above search the deals; a beginner sorts a hand into what it looks like and plays
that sort the same way every time, whoever bets and whatever the pot:

- round 1: in with almost anything (a card above a two);
- round 2: goes on only with two of a suit, giving up the chip it put in with anything else,
  a pair of high cards of two suits included (they look like nothing yet);
- round 3, first to bet: bets only a hand that looks strong (a cacho, three sixes, or two of a
  suit worth ``GOOD`` or more), and then only a little (``SMALL`` of the pot, never the
  bigger bet the hand could carry); it never bluffs;
- facing a bet: calls only with a hand that looks strong, and only a bet no bigger than the pot
  was before it; anything less it gives up, whatever the price; once it has bet and is raised,
  it gives up unless the hand is a cacho or three sixes.

It is beatable the way a timid beginner is: it gives up too early (a chip each time in round
2) and a bet takes the pot from it far too often (three chips each time it folds), and it
makes too little of its good hands. It is never absurd: it never folds when it may check, never
folds a cacho or three sixes, and takes the pot back unseen when everyone else has passed.
It sees only its seat's view.
"""

from __future__ import annotations

import random

from cardtui.engine.betting import BET as OPEN
from cardtui.engine.betting import CALL, CHECK, FOLD, RAISE
from cardtui.engine.cacho.rules import BET, CACHO, FLUSH2, PASS, CachoView, SeatStatus, strength
from cardtui.engine.cards import Card
from cardtui.engine.core import Action

GOOD = 28
"""Two of a suit from these points up (a six with a two, a five with a three and up) looks strong."""
SMALL = 0.25
"""What a beginner bets, as a share of the pot: a bet that shows the hand and asks little."""


def looks_strong(cards: tuple[Card, ...]) -> bool:
    """A cacho, three sixes, or a high two of a suit: the hands a beginner bets."""
    cat, points = strength(cards)
    return cat >= CACHO or (cat == FLUSH2 and points >= GOOD)


def looks_playable(cards: tuple[Card, ...], rnd: int) -> bool:
    """Rounds 1 and 2: whether what is shown so far looks worth going on with."""
    if rnd == 1:
        return cards[0].rank > 2
    return cards[0].suit is cards[1].suit


def _raised(view: CachoView, seat: int) -> bool:
    """Whether this seat has bet in round 3 and is facing a raise since (its own round-3 chips short of the level)."""
    live = [s for s in view.seats if s.status is SeatStatus.IN]
    before = max((s.put for s in live), default=0) - view.level
    mine = view.seats[seat].put - before
    return 0 < mine < view.level


def easy(view: CachoView, legal: list[Action], rng: random.Random) -> Action:
    """The easy Cacho bot: a hand played by its look (see the module)."""
    me = view.seats[view.you or 0]
    kinds = {a.type: a for a in legal}
    opponents = sum(1 for s in view.seats if s.status is SeatStatus.IN and s.seat != me.seat)
    if view.round < 3:
        if BET in kinds and (not opponents or looks_playable(me.cards, view.round)):
            return kinds[BET]  # alone, a bet takes the pot back unseen
        return kinds.get(PASS, legal[0])
    cat, _ = strength(me.cards)
    strong = looks_strong(me.cards)
    raises = [a for a in legal if a.type in (OPEN, RAISE)]
    if CHECK in kinds:
        if strong and raises:
            want = view.level + max(1, round(SMALL * view.pot))
            return min(raises, key=lambda a: abs(a.amount - want))
        return kinds[CHECK]
    call = kinds.get(CALL)
    if call is None:
        return legal[0]
    if cat >= CACHO:
        return call  # a beginner does not fold what looks this good, nor raise it
    if _raised(view, me.seat):
        return kinds.get(FOLD, call)
    if strong and 2 * call.amount <= view.pot:  # the bet at most what was in the pot before it
        return call
    return kinds.get(FOLD, call)
