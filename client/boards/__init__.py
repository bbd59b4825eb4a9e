"""One board widget per game family; each draws its game's view and nothing else."""

from __future__ import annotations

from textual.widget import Widget

from cardtui.client.boards.base import Board
from cardtui.client.boards.cacho import CachoBoard
from cardtui.client.boards.rummy import RummyBoard
from cardtui.client.boards.truco import ArgentinoBoard, PaulistaBoard

BOARDS: dict[str, type[Board]] = {
    "cacho": CachoBoard,
    "truco_paulista": PaulistaBoard,
    "truco_argentino": ArgentinoBoard,
    "pifpaf": RummyBoard,
    "cacheta": RummyBoard,
}


def board_for(game: str, seat: int | None) -> Widget:
    return BOARDS.get(game, Board)(seat, id="board")
