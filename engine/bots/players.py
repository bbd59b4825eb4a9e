"""Every player the arena and the tables know by name, per game.

- ``random`` and the simple baselines (``engine.bots.baselines``);
- the opponent pool's styles, ``pool-tight`` and the rest (``engine.bots.pool``);
- ``today``: the bots as they were before levels (``engine.bots.cacho`` and its siblings);
- the levels, weakest first: ``easy`` (those heuristics, made sane), ``normal`` and ``hard``;
- ``module:function``: any importable function with the bot signature.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from cardtui.engine.bots import baselines
from cardtui.engine.bots import cacheta as cacheta_today
from cardtui.engine.bots import cacho as cacho_today
from cardtui.engine.bots import pifpaf as pifpaf_today
from cardtui.engine.bots import truco as truco_today
from cardtui.engine.core import Action

Policy = Callable[[Any, list[Action], random.Random], Action]
"""A bot: its seat's view (each game's own record), the legal actions and the rng, to an action."""

LEVELS = ("easy", "normal", "hard")
"""The levels a bot seat may be given, weakest first."""

TODAY: dict[str, Policy] = {
    "cacho": cacho_today.choose,
    "pifpaf": pifpaf_today.choose,
    "cacheta": cacheta_today.choose,
    "truco_paulista": truco_today.choose_paulista,
    "truco_argentino": truco_today.choose_argentino,
}
"""The bots before levels: what the marks are measured against."""


def levels(game: str) -> dict[str, Policy]:
    """The game's bots by level, weakest first."""
    from cardtui.engine.bots import levels as by_game

    return by_game.LEVELS[game]


def names(game: str) -> list[str]:
    """Every name ``player`` knows for ``game`` (besides ``module:function``)."""
    from cardtui.engine.bots.pool import POOL

    return ["random", *baselines.BASELINES.get(game, {}), *POOL.get(game, {}), "today", *levels(game)]


def player(game: str, name: str) -> Policy:
    """The policy called ``name`` at ``game``; ``ValueError`` with a sentence when there is none."""
    if name == "random":
        return baselines.random_policy
    if name == "today":
        return TODAY[game]
    from cardtui.engine.bots.pool import POOL

    known = {**baselines.BASELINES.get(game, {}), **POOL.get(game, {}), **levels(game)}
    if name in known:
        return known[name]
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            found = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise ValueError(f"Cannot load the player {name!r}: {e}.") from None
        if not callable(found):
            raise ValueError(f"{name!r} is not a function.")
        policy: Policy = found
        return policy
    choices = ", ".join(names(game))
    raise ValueError(f"There is no player {name!r} at {game}; try one of: {choices}, or module:function.")
