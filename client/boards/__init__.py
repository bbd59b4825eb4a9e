"""One board widget per game family; each draws its game's view and nothing else."""

from __future__ import annotations

from cardtui.client.boards.base import Board
from cardtui.client.boards.cacho import CachoBoard
from cardtui.client.boards.rummy import RummyBoard
from cardtui.client.boards.truco import TrucoBoard

BOARDS: dict[str, type[Board]] = {
    "cacho": CachoBoard,
    "truco_paulista": TrucoBoard,
    "truco_argentino": TrucoBoard,
    "pifpaf": RummyBoard,
    "cacheta": RummyBoard,
}


def board_for(game: str) -> Board:
    return BOARDS.get(game, Board)(id="board")
