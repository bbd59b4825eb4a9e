"""Every game the room offers, by name, with its bot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtui.engine import cacheta, pifpaf, truco_argentino, truco_paulista
from cardtui.engine.bots import cacheta as cacheta_bot
from cardtui.engine.bots import cacho as cacho_bot
from cardtui.engine.bots import pifpaf as pifpaf_bot
from cardtui.engine.bots import truco as truco_bot
from cardtui.engine.cacho import GAME as CACHO
from cardtui.engine.core import Bot, SeatInfo


@dataclass(frozen=True, slots=True)
class Entry:
    game: Any
    bot: Bot


GAMES: dict[str, Entry] = {
    "cacho": Entry(CACHO, cacho_bot.choose),
    "truco_paulista": Entry(truco_paulista.GAME, truco_bot.choose_paulista),
    "truco_argentino": Entry(truco_argentino.GAME, truco_bot.choose_argentino),
    "pifpaf": Entry(pifpaf.GAME, pifpaf_bot.choose),
    "cacheta": Entry(cacheta.GAME, cacheta_bot.choose),
}


def player_counts(game: Any) -> tuple[int, ...]:
    """How many may sit at a table of this game (truco argentino: 2, 4 or 6)."""
    counts: tuple[int, ...] = getattr(game, "player_counts", tuple(range(game.min_players, game.max_players + 1)))
    return counts


def seat_infos(game: Any, names: list[str]) -> list[SeatInfo]:
    """Seats for ``names``; in partnership games teams alternate round the table."""
    teams = getattr(game, "teams", False)
    return [SeatInfo(i, name, i % 2 if teams else i) for i, name in enumerate(names)]


def get(name: str) -> Entry:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"There is no game called {name!r}; try one of: {', '.join(GAMES)}.") from None
