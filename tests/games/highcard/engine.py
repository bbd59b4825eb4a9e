"""High card in the room: its ``Entry``, with one bot at every level (``cardtui.engine.games`` registers it, or
``CARDTUI_GAMES`` names this package)."""

from __future__ import annotations

import random

from cardtui.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from cardtui.engine.bots.estimates import Unit
from cardtui.engine.cacho.rules import CachoView
from cardtui.engine.core import Action
from cardtui.engine.games.entry import Entry
from tests.games.highcard.rules import GAME


def choose(view: CachoView, legal: list[Action], rng: random.Random) -> Action:
    """Bets the least with a five or a six, calls with a three or better, else checks or folds."""
    mine = next(s for s in view.seats if s.seat == view.you)
    rank = mine.cards[0].rank if mine.cards else 0
    by = {a.type: a for a in reversed(legal)}  # a bet or raise: its smallest amount
    wanted = (BET, RAISE, CALL, CHECK) if rank >= 5 else (CALL, CHECK) if rank >= 3 else (CHECK, FOLD)
    return next((by[kind] for kind in wanted if kind in by), legal[0])


ENTRY = Entry(rules=GAME, unit=Unit.CHIPS, today=choose, levels={"easy": choose, "normal": choose, "hard": choose})
