"""Each game's bots by level, weakest first: ``easy``, ``normal``, ``hard``."""

from __future__ import annotations

import random
from collections.abc import Callable

from cardtui.engine.bots import cacheta as cacheta_today
from cardtui.engine.bots import cacho as cacho_today
from cardtui.engine.bots import pifpaf as pifpaf_today
from cardtui.engine.bots import truco as truco_today
from cardtui.engine.core import Action, GameView

Policy = Callable[[GameView, list[Action], random.Random], Action]


def _same(p: Callable[..., Action]) -> dict[str, Policy]:
    return {"easy": p, "normal": p, "hard": p}


LEVELS: dict[str, dict[str, Policy]] = {
    "cacho": _same(cacho_today.choose),
    "pifpaf": _same(pifpaf_today.choose),
    "cacheta": _same(cacheta_today.choose),
    "truco_paulista": _same(truco_today.choose_paulista),
    "truco_argentino": _same(truco_today.choose_argentino),
}
