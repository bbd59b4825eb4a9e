"""Every game the room offers, by name, each with its bot."""

from __future__ import annotations

from cardtui.engine.bots import cacheta as cacheta_bot
from cardtui.engine.bots import cacho as cacho_bot
from cardtui.engine.bots import pifpaf as pifpaf_bot
from cardtui.engine.bots import truco as truco_bot
from cardtui.engine.bots.levels import LEVELS
from cardtui.engine.cacheta import GAME as CACHETA
from cardtui.engine.cacho import GAME as CACHO
from cardtui.engine.core import Rules
from cardtui.engine.pifpaf import GAME as PIFPAF
from cardtui.engine.truco.argentino.game import GAME as TRUCO_ARGENTINO
from cardtui.engine.truco.paulista.game import GAME as TRUCO_PAULISTA

CACHO.bot = cacho_bot.choose
PIFPAF.bot = pifpaf_bot.choose
CACHETA.bot = cacheta_bot.choose
TRUCO_PAULISTA.bot = truco_bot.choose_paulista
TRUCO_ARGENTINO.bot = truco_bot.choose_argentino

for _game in (CACHO, PIFPAF, CACHETA, TRUCO_PAULISTA, TRUCO_ARGENTINO):
    _game.levels = LEVELS[_game.name]

GAMES: dict[str, Rules] = {
    g.name: g for g in (CACHO, TRUCO_PAULISTA, TRUCO_ARGENTINO, PIFPAF, CACHETA)
}


def get(name: str) -> Rules:
    try:
        return GAMES[name]
    except KeyError:
        shown = name[:40]
        raise ValueError(f"There is no game called {shown!r}; try one of: {', '.join(GAMES)}.") from None
