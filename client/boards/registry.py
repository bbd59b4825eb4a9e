"""Which board draws each game (the table screen and the replay ask here)."""

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
