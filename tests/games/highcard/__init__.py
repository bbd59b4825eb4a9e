"""High card, a betting game made for the tests: the room plays a game that plugs in through one folder.

Each player still holding chips antes 1 and gets one card of Cacho's pack (ace low, six high); one round of
poker-style betting (check, bet, call, raise, fold; no one bets past the smallest stack still in); the best card
wins the pot, a tie going to the eldest (nearest the dealer's left). A game of the Cacho family: its views and
events are Cacho's, so the wire, the boards and the line mode know it already.

- ``rules``: the game (``engine.core``'s ``Game``), over Cacho's state, deal and showdown;
- ``engine``: its ``Entry`` (``ENTRY``): its bot, and what the room knows of it;
- ``client``: what the client knows of it (``GAME``, a ``client.gamebook.ClientGame``);
- here: its name, its pack (Cacho's, ``cardtui.fair.PACKS``'s ``french24``) and ``registered``, which adds it to both
  registries for a test and takes it out after it.

A server started with ``CARDTUI_GAMES=tests.games.highcard`` offers it (and so do its table and bot workers).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from cardtui import fair

NAME = "highcard"
PACK_NAME = "french24"
PACK = fair.PACKS[PACK_NAME]
"""Cacho's pack, in the order its shuffle starts from."""
MODULE = __name__
"""What ``CARDTUI_GAMES`` names to load it."""


@contextmanager
def registered() -> Iterator[None]:
    """The game in this process's registries (the engine's and the client's) while the block runs."""
    from cardtui.client import gamebook
    from cardtui.engine import games
    from tests.games.highcard import client, engine

    games.register(engine.ENTRY)
    gamebook.register(client.GAME)
    try:
        yield
    finally:
        gamebook.unregister(NAME)
        games.unregister(NAME)
