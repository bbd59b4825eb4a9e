"""Every game the room offers, by name: the engine's registry.

Each game declares its ``Entry`` (``entry.py``: its rules, its bots, how the analysis judges it, how its match
is charted) in a module of its own here; ``BUILT_IN`` is every such module's (adding a game adds its module and
no list), and ``register`` adds a game from anywhere
(a test's game, from its own folder). Every other part of the engine and the server asks here by the game's
name (``entry``, ``get``), and an unknown name is an error that says so, never another game's facts.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Mapping
from typing import Any

from cardtui.engine.bots import baselines
from cardtui.engine.bots.players import LEVELS as LEVEL_NAMES
from cardtui.engine.bots.players import Policy, takes_memory
from cardtui.engine.core import Rules
from cardtui.engine.games.entry import Entry

ENTRIES: dict[str, Entry] = {}
"""Every registered game's entry, by name."""
GAMES: dict[str, Rules] = {}
"""Every registered game's rules, by name."""
LEVELS: dict[str, Mapping[str, Policy]] = {}
"""Each game's bots by level, weakest first (``Entry.levels``)."""


class UnknownGame(ValueError):
    """A game no one registered: said in a sentence, with the games there are."""

    def __init__(self, name: str) -> None:
        super().__init__(f"There is no game called {name[:40]!r}; try one of: {', '.join(GAMES)}.")
        self.name = name


def register(entry: Entry) -> Entry:
    """Add a game to the room (its bots given to its rules); a name already taken by another game is refused."""
    name = entry.name
    if name in ENTRIES and ENTRIES[name] is not entry:
        raise ValueError(f"The game {name!r} is registered already.")
    if set(entry.levels) - set(LEVEL_NAMES):
        raise ValueError(f"{name}: bot levels are {', '.join(LEVEL_NAMES)}, not {', '.join(entry.levels)}.")
    entry.rules.bot = entry.today
    entry.rules.levels = entry.levels
    entry.rules.memory = entry.memory
    entry.rules.remembering = entry.remembering if entry.memory is not None else frozenset()
    ENTRIES[name] = entry
    GAMES[name] = entry.rules
    LEVELS[name] = entry.levels
    return entry


def unregister(name: str) -> None:
    """Take a game out of the room (a test's game, once its test is over)."""
    ENTRIES.pop(name, None)
    GAMES.pop(name, None)
    LEVELS.pop(name, None)


def entry(name: str) -> Entry:
    """The game called ``name``; ``UnknownGame`` for one no one registered."""
    try:
        return ENTRIES[name]
    except KeyError:
        raise UnknownGame(name) from None


def get(name: str) -> Rules:
    """The rules of the game called ``name``; ``UnknownGame`` for one no one registered."""
    return entry(name).rules


def standing(record: Mapping[str, Any], after: bool = True) -> Mapping[int, int]:
    """Each seat's standing before or after the hand a history records, as its game counts it
    (``Rules.standing``)."""
    return get(str(record["game"])).standing(record, after)


def built_in() -> tuple[Entry, ...]:
    """Every entry a module of this package declares (its ``ENTRY``), in the order lists show them (``Entry.place``)."""
    found = []
    for info in pkgutil.iter_modules(__path__):
        if info.name != "entry":
            found.append(importlib.import_module(f"{__name__}.{info.name}").ENTRY)
    return tuple(sorted(found, key=lambda e: (e.place, e.name)))


BUILT_IN = built_in()
"""The games the room offers, each declared in a module of this package, in the order lists show them."""
for _entry in BUILT_IN:
    register(_entry)


EXTRA = "CARDTUI_GAMES"
"""The environment variable that names games from outside the package (CONTRIBUTING, "Adding a game"): packages,
separated by commas, each with an ``engine`` module whose ``ENTRY`` this registry registers (and a ``client``
module whose ``GAME`` the client's does, ``client.gamebook``). Read when this module is first imported, so every
process the server starts (its table workers and bot workers, which import it afresh) registers them too, and
again by ``cardtui serve`` as it starts (``extra``)."""


def extra(value: str | None = None) -> list[str]:
    """Register the games ``CARDTUI_GAMES`` (or ``value``) names, each once; their names."""
    named = os.environ.get(EXTRA, "") if value is None else value
    added = []
    for package in filter(None, (p.strip() for p in named.split(","))):
        module = importlib.import_module(f"{package}.engine")
        found = getattr(module, "ENTRY", None)
        if not isinstance(found, Entry):
            raise ValueError(f"{package}.engine has no ENTRY to register ({EXTRA}).")
        added.append(register(found).name)
    return added


extra()


# -- every player the arena and the tables know by name, per game ---------------------------------------------
def levels(game: str) -> Mapping[str, Policy]:
    """The game's bots by level, weakest first."""
    return entry(game).levels


def names(game: str) -> list[str]:
    """Every name ``player`` knows for ``game`` (besides ``module:function``): ``random``, the baselines, the
    opponent pool, ``today`` and the levels."""
    e = entry(game)
    return ["random", *e.baselines, *e.pool, "today", *e.levels]


def player(game: str, name: str) -> Policy:
    """The policy called ``name`` at ``game``; ``ValueError`` with a sentence when there is none."""
    e = entry(game)
    if name == "random":
        return baselines.random_policy
    if name == "today":
        return e.today
    known = {**e.baselines, **e.pool, **e.levels}
    if name in known:
        return known[name]
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            found = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise ValueError(f"Cannot load the player {name!r}: {e}.") from None
        if not callable(found):
            raise ValueError(f"{name!r} is not a function.")
        policy: Policy = found
        return policy
    choices = ", ".join(names(game))
    raise ValueError(f"There is no player {name!r} at {game}; try one of: {choices}, or module:function.")



def remembers(game: str, policy: Policy) -> bool:
    """Whether ``policy`` at ``game`` is handed its seat's memory of the match (``engine.core.SeatMemory``), as
    ``memory=``: a level the game's entry names in ``remembering``, or any function that takes it."""
    e = entry(game)
    if e.memory is None:
        return False
    return any(policy is e.levels[level] for level in e.remembering if level in e.levels) or takes_memory(policy)
