"""Every game the room offers, by name, each with its bot."""

from __future__ import annotations

from cardtui.engine.bots import cacho as cacho_bot
from cardtui.engine.cacho import GAME as CACHO
from cardtui.engine.core import Rules

CACHO.bot = cacho_bot.choose

GAMES: dict[str, Rules] = {g.name: g for g in (CACHO,)}


def get(name: str) -> Rules:
    try:
        return GAMES[name]
    except KeyError:
        shown = name[:40]
        raise ValueError(f"There is no game called {shown!r}; try one of: {', '.join(GAMES)}.") from None
