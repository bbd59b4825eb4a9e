"""One board widget per game family; each draws its game's view and nothing else."""

from __future__ import annotations

from cardtui.client.boards.base import Board
from cardtui.client.boards.cacho import CachoBoard

BOARDS: dict[str, type[Board]] = {
    "cacho": CachoBoard,
}


def board_for(game: str) -> Board:
    return BOARDS.get(game, Board)(id="board")
