"""A Cacheta bot: Pif Paf's play by distance to going out, plus na boa and cutting.

It declares na boa as soon as it may (declaring costs nothing and is needed to cut), and
cuts the line only when its own outs show that the discard lets it knock, so it never burns.
It keeps wild cards. It sees only its seat's view.
"""

from __future__ import annotations

import random

from cardtui.engine.core import Action
from cardtui.engine.rummy.bots.pifpaf import play
from cardtui.engine.rummy.cacheta import CUT, DECLARE
from cardtui.engine.rummy.records import RummyView


def choose(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """The bot's action for ``view.you`` among ``legal`` (never empty)."""
    if Action(DECLARE) in legal:
        return Action(DECLARE)
    action = play(view, legal, rng, claim=CUT)
    return action if action is not None else legal[0]
