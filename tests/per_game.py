"""What each game's own test module tells the shared tests that play every game at a server.

A shared test that needs a table per game (how many play a short match, the options that keep it short, the kinds
of action offered) reads
each game's row from ``TESTS`` in that game's own module, ``tests/engine/test_<game>.py``, not from a table of its
own: a game added or taken away changes its own tests, and no shared one.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from cardtui.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from cardtui.engine.games import GAMES
from cardtui.v1 import common_pb2

BETTING = frozenset({BET, CHECK, CALL, RAISE, FOLD})
"""The kinds of action of a betting round, offered by each game that bets."""


@dataclass(frozen=True)
class Short:
    """A short match of bots at a server: how many play, and the options (numbers) that keep it short."""

    players: int
    options: Mapping[str, int] = field(default_factory=dict)

    def wire(self) -> dict[str, common_pb2.OptionValue]:
        """The options as a table's or a tournament's request carries them."""
        return {name: common_pb2.OptionValue(number=value) for name, value in self.options.items()}


@dataclass(frozen=True)
class GameTests:
    """One game's rows in the shared tests: ``watched``, a whole bot match a spectator follows with the delayed
    view (tests/server/test_replays.py); ``tournament``, each table of a three-round tournament of bots, and
    ``entries``, how many enter it (tests/server/test_tournaments.py); ``offered``, the kinds of action it may
    offer (``client.models.action_kind``), each of which needs a label in every language
    (tests/client/test_key_labels.py, which holds the list to what random play offers)."""

    watched: Short
    tournament: Short
    entries: int
    offered: frozenset[str]


def declared() -> dict[str, GameTests]:
    """Every registered game's ``TESTS``, from its own test module, in the registry's order. A game without one
    is an error that names the module to write it in: a shared test never skips a game unsaid."""
    out: dict[str, GameTests] = {}
    for name in GAMES:
        module = f"tests.engine.test_{name}"
        try:
            tests = importlib.import_module(module).TESTS
        except (ModuleNotFoundError, AttributeError) as error:
            raise LookupError(f"{name} declares no TESTS for the shared tests: write it in {module}") from error
        assert isinstance(tests, GameTests), f"{module}.TESTS is not a GameTests"
        out[name] = tests
    return out
