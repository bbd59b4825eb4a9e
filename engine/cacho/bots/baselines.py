"""Cacho's simple fixed policies, the yardsticks its levels are measured against (``engine.bots.baselines`` says
what each game's are): ``cacho-value``, and the exploiters ``always-call`` and ``nuts-call``."""

from __future__ import annotations

import random

from cardtui.engine.betting import BET as BET_FIRST
from cardtui.engine.betting import CALL, CHECK, FOLD, RAISE
from cardtui.engine.bots.baselines import first
from cardtui.engine.cacho.rules import BET, CachoView, strength
from cardtui.engine.cacho.rules import CACHO as CACHO_CAT
from cardtui.engine.cacho.rules import PASS as CACHO_PASS
from cardtui.engine.core import Action, GameView


def cacho_value(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Bet the minimum with value, call with 28 or more (a suited pair of 8+, any cacho, three sixes)."""
    assert isinstance(view, CachoView)
    cards = view.seats[view.you or 0].cards
    kinds = {a.type: a for a in legal}
    if view.round == 1:
        return kinds[BET]
    if view.round == 2:
        suited = cards[0].suit is cards[1].suit
        return kinds[BET] if suited or max(c.rank for c in cards) >= 5 else kinds[CACHO_PASS]
    cat, pts = strength(cards)
    value = 99 if cat == 3 else (pts if cat else 0)
    bets = [a for a in legal if a.type in (BET_FIRST, RAISE)]
    if value >= 28 and CHECK in kinds and bets:
        return bets[0]
    if CHECK in kinds:
        return kinds[CHECK]
    return kinds[CALL] if value >= 28 and CALL in kinds else kinds[FOLD]


def cacho_always_call(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """``cacho_value``, but every bet in round 3 is called."""
    call = first(legal, CALL)
    return call if call is not None else cacho_value(view, legal, rng)


def cacho_nuts_call(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """``cacho_value``, but a bet is called only with the nuts (three sixes or a cacho), else folded."""
    assert isinstance(view, CachoView)
    fold = first(legal, FOLD)
    if fold is not None and first(legal, CALL) is not None:
        cat, _ = strength(view.seats[view.you or 0].cards)
        return first(legal, CALL) or fold if cat >= CACHO_CAT else fold
    return cacho_value(view, legal, rng)
