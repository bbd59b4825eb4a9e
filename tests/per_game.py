"""What each game's own test module tells the shared tests that play every game at a server.

A shared test that needs a table per game (how many play a short match, the options that keep it short, the kinds
of action offered, a rigged hand, the deal's rule) reads each game's row from ``TESTS`` in that game's own module,
``tests/engine/test_<game>.py``, not from a table of its own: a game added or taken away changes its own tests, and
no shared one (``tests/test_layout.py`` counts the shared test modules that still name a game).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

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
class Hands:
    """A table a shared test plays in one process, no server: how many play, how many hands, its options, and what
    its case is called beside the game's name when a game has more than one (``label``)."""

    players: int
    hands: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""


@dataclass(frozen=True)
class Sim:
    """A run of ``cardtui sim`` whose histories must validate (tests/test_history_schema.py): how many play, the
    options, how many hands, the bots' level, and the keys some record of the run must hold."""

    players: int
    options: Mapping[str, Any]
    hands: int
    level: str
    keys: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ShortHand:
    """A short rummy hand at the fewest players, the same each time, for the tests that play one through a client
    (tests/client/rummy_rig.py ``short_hands``): the seats' cards, the order dealt, the card shown after the deal
    (a flip, a card turned up), the stock from its top, and the pack and the cards dealt each where they are not
    the two French decks and nine."""

    hands: Mapping[int, str]
    order: tuple[int, ...]
    shown: str | None
    stock: str
    pack: str | None = None
    size: int | None = None


@dataclass(frozen=True)
class Taps:
    """A hand of the game played on a phone by taps alone (tests/test_web_taps.py): the players picked in the
    form (the first of these the list shows; None: the game's only count), whether it is also played with the
    phone on its side, the form's fields and what is typed in each (a rummy table's claim window made short: the
    bots never say they let a window go, so every discard's window is waited out whole), and whether the hand is
    a whole match (a field typed makes the short hand, ``ShortHand``, the match's end)."""

    players: tuple[str, ...] | None
    on_its_side: bool = True
    fields: tuple[tuple[str, str], ...] = ()
    match_in_one: bool = False


@dataclass(frozen=True)
class Reason:
    """A kind of analysis reason (an ``analysis_pb2.AnalysisReason``), and what is said of it in each language
    (tests/client/test_advice.py)."""

    reason: Any
    said: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class Matrix:
    """What the matrix (tests/test_matrix.py) plays at a table of this game: how its people play (``"deck"``: to
    the deck each turn, a match ended by a falta envido; ``"close"``: close as soon as one may, else draw from the
    stock and throw the card drawn), the slow client's table (seats, bots, hands each cast plays, options), and the
    options of a match two people end quickly. The matrix's rummy tables (a kill mid-move, the workers' and the
    store's tables) are of the first game that closes."""

    plays: str
    slow: tuple[int, int, int, Mapping[str, int]] | None = None
    quick_match: Mapping[str, int] | None = None


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
    usual: int
    """How many usually play: where a new table's form starts (tests/client/test_table_flow.py)."""
    fair: tuple[Hands, ...]
    """The tables whose every hand each seat and a spectator check fair (tests/client/test_fairness.py)."""
    sims: tuple[Sim, ...]
    """The runs of ``cardtui sim`` whose histories validate (tests/test_history_schema.py)."""
    seldom: tuple[tuple[int, str], ...] = ()
    """(players, the action) that ``cardtui sim`` plays off the bots' path, for histories to hold it."""
    tampered: bool = False
    """Whether the client's deal check is shown an altered deal and reveal at one of its tables (one game a
    family is enough, and each pack's game)."""
    short_hand: ShortHand | None = None
    fair_short: tuple[int, int] | None = None
    """A fair short hand 1 for the by-ear tests: the seats of the table (the fewest) and the server's seed there, at
    which the bot after the person claims the person's first discard and knocks (tests/client/rummy_rig.py,
    ``claimed_at_once``; ``fair_short_seed`` finds one)."""
    by_name: bool = False
    """Whether the card-by-name test (tests/client/lines/test_rummy_by_name.py) sits at this game: one is enough."""
    taps: Taps | None = None
    reasons: Mapping[str, Reason] = field(default_factory=dict)
    """The analysis's reasons this game gives, each said in every language (tests/client/test_advice.py)."""
    replayed: Callable[[], Any] | None = None
    """A rigged hand played live to its end (``tests.engine.replaying.played``'s answer), whose replay the
    replay tests check here, over the wire and on the screen."""
    deal: Callable[[dict[str, Any]], dict[str, list[str]]] | None = None
    """The deal's rule (docs/deal.md §10) a published deal vector of this game is read by: each seat's cards, and
    what else the deal lays out (tests/test_deal_vectors.py)."""
    matrix: Matrix | None = None
    """What the matrix (tests/test_matrix.py) plays at a table of this game, if anything."""


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
