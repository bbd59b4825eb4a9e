"""Each game's bots by level, weakest first: ``easy``, ``normal``, ``hard``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardtui.engine.bots import cacheta as cacheta_today
from cardtui.engine.bots import cacho as cacho_today
from cardtui.engine.bots import pifpaf as pifpaf_today
from cardtui.engine.bots import truco_easy, truco_search
from cardtui.engine.core import Action

Policy = Callable[[Any, list[Action], random.Random], Action]
"""A bot: its seat's view (each game's own record), the legal actions and the rng, to an action."""


def _same(p: Callable[..., Action]) -> dict[str, Policy]:
    return {"easy": p, "normal": p, "hard": p}


LEVELS: dict[str, dict[str, Policy]] = {
    "cacho": _same(cacho_today.choose),
    "pifpaf": _same(pifpaf_today.choose),
    "cacheta": _same(cacheta_today.choose),
    "truco_paulista": {"easy": truco_easy.choose, "normal": truco_search.normal, "hard": truco_search.hard},
    "truco_argentino": {"easy": truco_easy.choose, "normal": truco_search.normal, "hard": truco_search.hard},
}
