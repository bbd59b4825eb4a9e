"""The players the arena and the tables know by name, per game (each game's are in its entry,
``engine.games``, and ``engine.games.player`` finds one by name):

- ``random`` and the simple baselines (``engine.bots.baselines``);
- the opponent pool's styles, ``pool-tight`` and the rest (``engine.bots.pool``);
- ``today``: the bots as they were before levels (``engine.cacho.bots.today`` and its siblings);
- the levels, weakest first: ``easy`` (those heuristics, made sane), ``normal`` and ``hard``;
- ``module:function``: any importable function with the bot signature.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Any

from cardtui.engine.core import Action

Policy = Callable[[Any, list[Action], random.Random], Action]
"""A bot: its seat's view (each game's own record), the legal actions and the rng, to an action."""

LEVELS = ("easy", "normal", "hard")
"""The levels a bot seat may be given, weakest first."""


def takes_memory(policy: Policy) -> bool:
    """Whether ``policy`` reads its seat's memory of the match (``engine.core.SeatMemory``), as ``memory=``: the
    table, the arena and MiniTruco's house hand it the same memory, kept from what the seat saw."""
    try:
        return "memory" in inspect.signature(policy).parameters
    except (TypeError, ValueError):
        return False
