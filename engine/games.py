"""Every game the room offers, by name, with its bot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.bots import cacho as cacho_bot
from engine.cacho import GAME as CACHO
from engine.core import Bot, SeatInfo


@dataclass(frozen=True, slots=True)
class Entry:
    game: Any
    bot: Bot


GAMES: dict[str, Entry] = {
    "cacho": Entry(CACHO, cacho_bot.choose),
}


def seat_infos(game: Any, names: list[str]) -> list[SeatInfo]:
    """Seats for ``names``; in partnership games teams alternate round the table."""
    teams = getattr(game, "teams", False)
    return [SeatInfo(i, name, i % 2 if teams else i) for i, name in enumerate(names)]


def get(name: str) -> Entry:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"There is no game called {name!r}; try one of: {', '.join(GAMES)}.") from None
