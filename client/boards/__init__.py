"""One board widget per game family; each draws its game's view and nothing else."""

from __future__ import annotations

from textual.widget import Widget

from client.boards.base import Board
from client.boards.cacho import CachoBoard
from client.boards.rummy import RummyBoard
from client.boards.truco import ArgentinoBoard, PaulistaBoard

BOARDS: dict[str, type[Board]] = {
    "cacho": CachoBoard,
    "truco_paulista": PaulistaBoard,
    "truco_argentino": ArgentinoBoard,
    "pifpaf": RummyBoard,
    "cacheta": RummyBoard,
}


def board_for(game: str, seat: int | None) -> Widget:
    return BOARDS.get(game, Board)(seat, id="board")
