"""Every game this client knows, by name: the client's registry.

The client learns a table's game from the stream (it imports no engine), so what it needs to show, say and check
of each game is declared here, in a module of its own per game (``client/games/<name>.py``, listed in
``built_in``): its title, its board, the words of leaving its seat, who deals and how its deal is checked
(``client/fairness.py``), and what the line mode numbers and says. Every other part of the client asks here by
the game's name.

A server newer than this client may offer a game it does not know: ``find`` says None, and each part that meets
one says so in its own way (the table's log names the game and the line that installs the server's client; the
fair-deal check says it could not compare the cards). ``get`` is for a game that must be known: an unknown one
is an ``UnknownGame``, never another game's facts.

The game modules are imported when a game is first looked up (they import the boards and the fair-deal check,
each of which asks here): so nothing here imports them by name, and a test's game registers from its own folder
(``register``).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from rich.text import Text

    from cardtui.client.boards.base import Board
    from cardtui.client.fairness import DealCheck, Dealing
    from cardtui.client.models import TableModel
    from cardtui.client.option_words import OptionWords
    from cardtui.client.shape import Family
    from cardtui.v1 import common_pb2

RESERVED = frozenset({"escape", "question_mark", "slash", "plus", "minus", "equals_sign", "enter", "tab", "i"})
"""Keys the table screen keeps for itself (leave, rules, chat, more and less): no game's action has one."""

GAMES_PACKAGE = "cardtui.client.games"
"""The games this client was made with: each a module of this package that registers its ``GAME`` (every module
there is one: adding a game adds its module, and no list here)."""


def built_in() -> tuple[str, ...]:
    """The names of the games this client was made with (the modules of ``GAMES_PACKAGE``)."""
    package = importlib.import_module(GAMES_PACKAGE)
    return tuple(sorted(info.name for info in pkgutil.iter_modules(package.__path__)))


@dataclass(frozen=True)
class ClientGame:
    """What the client knows of one game."""

    name: str
    title: str
    """As the server gives it (``GameInfo.title``), for lists read without a server (a file of hand histories)."""
    board: Callable[[], type[Board]]
    """The board that draws its view (a function, so that a module that only asks for words loads no board)."""
    pack: tuple[str, ...]
    """Its pack in notation, in the order its shuffle starts from (``cardtui.fair.PACKS``, docs/deal.md §2)."""
    dealing: Dealing
    """Who deals a match's first hand and each next one (docs/deal.md §9)."""
    deal_check: DealCheck
    """Its deal, followed from the events a seat (or a spectator) sees (docs/deal.md §10)."""
    leaving: str
    """What leaving mid-match does to the seat, in the game's own terms (chips, points, a team); ``N_`` marked."""
    teams: bool = False
    """Played in partnerships (at two seats there is no team to play on with a seat left)."""
    chips: bool = False
    """Played for chips: a seat's score is said in chips, else in points."""
    held: int = 0
    """The most cards a hand holds (the line mode numbers them 1 to this, the other actions after them)."""
    face_down: bool = False
    """Its cards may be played face down: numbered again after their own numbers."""
    cards_played: bool = False
    """Its cards are played by their place as dealt (truco), not discarded from a hand in order (rummy)."""
    kinds: tuple[str, ...] = ()
    """Every other action, in the order of its line-mode numbers (after the cards')."""
    phrases: frozenset[int] = frozenset()
    """Quick phrases only this game's tables offer (``client.phrases``: "Truco!")."""
    options: Mapping[str, OptionWords] = field(default_factory=dict)
    """Its options' words (``client.option_words.OptionWords`` by option name)."""
    keys: Mapping[str, str] = field(default_factory=dict)
    """The key of each of its action types (``b`` bets, ``t`` calls truco), by type or by type and source
    (``"draw:pile"``): a key always means the same action at this game (``client.words.key_for``)."""
    labels: Mapping[str, str] = field(default_factory=dict)
    """Its labels for its actions as its players say them (``N_`` marked, or the game's own term, the same in
    every language), by type or by type and source; a type it leaves out gets the usual word (``Bet``)."""
    labeller: Callable[[TableModel, common_pb2.Action], Text | None] | None = None
    """Its own label for an action the usual words would get wrong (a truco signal by what it promises); None
    for the usual label."""

    lines: Callable[[], Family] | None = None
    """What its family puts into the shape the line mode tells every hand in (``client.shape``): a function,
    as ``board`` is; None for a game that shares another's view (its family is found by the view's message)."""

    pack_for: Callable[[Mapping[str, common_pb2.OptionValue]], tuple[str, ...]] | None = None
    """The pack a table's options choose (Chinchón's 40 or 48 cards, with its jokers), where they choose one; None:
    always ``pack``."""

    def pack_of(self, options: Mapping[str, common_pb2.OptionValue]) -> tuple[str, ...]:
        """The pack a table with these options is dealt from."""
        return self.pack if self.pack_for is None else self.pack_for(options)

    def __post_init__(self) -> None:
        clash = RESERVED & set(self.keys.values())
        if clash:
            raise ValueError(f"{self.name}: the keys {sorted(clash)} belong to the table screen")


class UnknownGame(KeyError):
    """A game this client does not know, said in a sentence."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        return f"This client knows no game called {self.name[:40]!r}; it knows: {', '.join(GAMES)}."


GAMES: dict[str, ClientGame] = {}
"""Every game registered, by name (``built_in``'s once any is looked up)."""
_loaded: list[bool] = []


def register(game: ClientGame) -> ClientGame:
    """Add a game; a name already taken by another game is refused."""
    if game.name in GAMES and GAMES[game.name] is not game:
        raise ValueError(f"The game {game.name!r} is registered already.")
    GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    GAMES.pop(name, None)


EXTRA = "CARDTUI_GAMES"
"""The environment variable that names games from outside the package (as the engine's registry reads it,
``cardtui.engine.games.EXTRA``): packages, separated by commas, each with a ``client`` module whose ``GAME`` is
registered here when a game is first looked up."""


def _load() -> None:
    if not _loaded:
        _loaded.append(True)
        for name in built_in():
            importlib.import_module(f"{GAMES_PACKAGE}.{name}")
        for package in filter(None, (p.strip() for p in os.environ.get(EXTRA, "").split(","))):
            found = getattr(importlib.import_module(f"{package}.client"), "GAME", None)
            if not isinstance(found, ClientGame):
                raise ValueError(f"{package}.client has no GAME to register ({EXTRA}).")
            register(found)


def find(name: str) -> ClientGame | None:
    """The game called ``name``, or None for one this client does not know (a newer server's)."""
    _load()
    return GAMES.get(name)


def get(name: str) -> ClientGame:
    """The game called ``name``; ``UnknownGame`` for one this client does not know."""
    found = find(name)
    if found is None:
        raise UnknownGame(name)
    return found


def known() -> dict[str, ClientGame]:
    """Every game this client knows, by name."""
    _load()
    return GAMES


def families() -> list[Family]:
    """Each family the games this client knows declare (``ClientGame.lines``), once each, in the games' order:
    the client's registry of families (``client.shape``), asked by what a family declares, never by its name."""
    games = known()
    key = tuple(id(g) for g in games.values())
    if _families and _families[0][0] == key:
        return _families[0][1]  # (asked for every event of a stream: the games seldom change)
    out: list[Family] = []
    for game in games.values():
        family = game.lines() if game.lines is not None else None
        if family is not None and all(family.view is not f.view for f in out):
            out.append(family)
    _families[:] = [(key, out)]
    return out


_families: list[tuple[tuple[int, ...], list[Family]]] = []
"""The last families found, with the games they were found from."""


T = TypeVar("T")
D = TypeVar("D")


class Fact(Generic[T]):
    """One fact of every game, read by the game's name as a table of games would be (``HELD[game]``,
    ``KINDS.get(game, ())``): each game's own, as it declares it; ``UnknownGame`` by index for one this client
    does not know, ``default`` by ``get``."""

    def __init__(self, fact: Callable[[ClientGame], T]) -> None:
        self.fact = fact

    def __getitem__(self, name: str) -> T:
        return self.fact(get(name))

    def get(self, name: str, default: D) -> T | D:
        known = find(name)
        return self.fact(known) if known is not None else default

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and find(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(known())


class Which:
    """The games of which something holds, by name (``game in FACE_DOWN_GAMES``): each game says, as it declares
    it; none this client does not know."""

    def __init__(self, holds: Callable[[ClientGame], bool]) -> None:
        self.holds = holds

    def __contains__(self, name: object) -> bool:
        known = find(name) if isinstance(name, str) else None
        return known is not None and self.holds(known)

    def __iter__(self) -> Iterator[str]:
        return iter([name for name, game in known().items() if self.holds(game)])
