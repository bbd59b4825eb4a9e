"""Which board draws each game (the table screen and the replay ask here): the one its game declares
(``client.gamebook``), or the generic board for a game this client does not know (a newer server's: the table
screen says so)."""

from __future__ import annotations

from cardtui.client import gamebook
from cardtui.client.boards.base import Board


def knows(game: str) -> bool:
    """Whether this client has the game's own board."""
    return gamebook.find(game) is not None


def board_for(game: str) -> Board:
    known = gamebook.find(game)
    return (known.board() if known is not None else Board)(id="board")
