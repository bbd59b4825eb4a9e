"""Each game's bots by level, weakest first: ``easy``, ``normal``, ``hard``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardtui.engine.bots import (
    cacheta_easy,
    cacheta_hard,
    cacheta_normal,
    cacho_easy,
    cacho_search,
    pifpaf_hard,
    rummy_levels,
    truco_easy,
    truco_search,
)
from cardtui.engine.core import Action

Policy = Callable[[Any, list[Action], random.Random], Action]
"""A bot: its seat's view (each game's own record), the legal actions and the rng, to an action."""


LEVELS: dict[str, dict[str, Policy]] = {
    "cacho": {"easy": cacho_easy.easy, "normal": cacho_search.normal, "hard": cacho_search.hard},
    "pifpaf": {"easy": rummy_levels.easy, "normal": rummy_levels.normal, "hard": pifpaf_hard.hard},
    "cacheta": {"easy": cacheta_easy.easy, "normal": cacheta_normal.normal, "hard": cacheta_hard.hard},
    "truco_paulista": {"easy": truco_easy.choose, "normal": truco_search.normal, "hard": truco_search.hard},
    "truco_argentino": {"easy": truco_easy.choose, "normal": truco_search.normal, "hard": truco_search.hard},
}
