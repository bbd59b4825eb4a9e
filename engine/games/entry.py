"""What the room knows of a game beyond its rules: its bots, how the analysis judges its hands, how its match
is charted and what a player's record of it counts. Each game declares its ``Entry`` in its own module of this
package; ``cardtui.engine.games`` registers them.

The rules (``engine/core.py``'s ``Rules``) cannot name their bots: the bots import the rules' records. An entry
stands above both, so a game's facts are written once, where the game is registered, and every part of the
room asks the registry for them by the game's name instead of keeping a table of games of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtui.engine.bots.estimates import Unit
from cardtui.engine.bots.players import Policy
from cardtui.engine.core import Game, SeatMemory

Record = Mapping[str, Any]
"""A finished hand's history (docs/history.md)."""


def chip_share(record: Record, held: Mapping[int, int], seat: int) -> float:
    """A freeze-out's standing: the seat's share of the chips on the table (see ``engine.match_chart``)."""
    mine = held.get(seat, 0)
    total = sum(max(0, v) for v in held.values())
    return max(0, mine) / total if total > 0 else 0.0


def never(record: Record) -> bool:
    return False


def one(record: Record) -> float:
    return 1.0


@dataclass(frozen=True, slots=True)
class Chart:
    """How a match of the game is drawn hand by hand (``engine.match_chart``)."""

    standing: Callable[[Record, Mapping[int, int], int], float] = chip_share
    """A seat's chance of winning the match with every seat holding ``held``."""
    even: float | None = None
    """The line of even chances; None: one over the players holding something at the start."""
    floor: bool = False
    """What a seat holds never goes below 0 (Cacheta's points)."""
    rebuys: Callable[[Record], bool] = never
    """Whether a hand was played at a table that restocks a player who runs out: such a match is charted in
    chips won (``Unit.CHIPS``), not in the chance of winning it."""


@dataclass(frozen=True, slots=True)
class Bench:
    """How the benches (``bench/``) play the game: each game says it here, so no bench keeps a list of games that
    falls behind the day a game is added, or must be edited the day one is taken away."""

    seats: int = 2
    """The table hard plays hard at where the analysis counts hard's decisions flagged (``bench.analysis``), for a
    game its self-play does not already seat."""
    night: tuple[int, tuple[str, ...]] = (2, ("easy", "normal", "hard"))
    """The table and the levels of the bots the night's soak seats at it (``bench.soak``)."""
    facts: tuple[tuple[Mapping[str, Any], int], ...] = ()
    """Each option set that changes a fact the advice states, with a count of players it allows: the advice's facts
    recounted from the history (``bench.facts``)."""
    facts_most: int | None = None
    """The most decisions of a hand the facts' bench checks (drawn through the hand), where a hand has many."""
    spoken: float = 1.0
    """The most of a hand's time its speech may take at espeak-ng's own rate (``bench.speech``, issue 91)."""
    sealed: tuple[tuple[int, float], ...] = ()
    """Each seat count the sealed deal's bench measures (``bench.sealed_live``, issue 90), with its mark: the p95 in ms
    from the last cut to a person's own cards. A game whose seats are all dealt at once, not one waiting on a person's
    choice (truco paulista's others wait for the mão's), so that the wait measured is the deal's."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One game as the room offers it."""

    rules: Game[Any, Any, Any]
    unit: Unit
    """What the analysis counts a decision's loss in, and a player's record its winnings: the match's odds, or
    chips."""
    today: Policy
    """The bot before levels: what the marks are measured against, and what plays a level the game lacks."""
    levels: Mapping[str, Policy]
    """The bots by level, weakest first: ``easy``, ``normal``, ``hard``."""
    baselines: Mapping[str, Policy] = field(default_factory=dict)
    """The simple baselines the arena knows by name (``engine.bots.baselines``), exploiters included."""
    pool: Mapping[str, Policy] = field(default_factory=dict)
    """The opponent pool's players by name (``engine.bots.pool``)."""
    memory: Callable[[], SeatMemory] | None = None
    """A seat's memory of the match as it starts, for a game whose bots keep one (``engine.core.SeatMemory``):
    the levels named in ``remembering`` are handed it (``Game.remembering``)."""
    remembering: frozenset[str] = frozenset()
    """The levels whose bot reads that memory, as ``memory=``."""
    judged: Policy | None = None
    """The bot whose moves the analysis's own player judges and keeps where the analysis says nothing of them
    (``engine.analysis.player``); None: the analysis plays the search's best choice."""
    analysed_unasked: bool = False
    """A hand is analysed in well under a second of one core (``make bench --only analysis``): its summary may
    say how its player played it without anyone asking."""
    stake: Callable[[Record], float] = one
    """The chips a hand is played for, to scale a chip loss by (``engine.analysis.stake``)."""
    chart: Chart = Chart()
    calls_won: bool = False
    """A player's record counts the calls they won (truco's)."""
    place: int = 100
    """Where the room's lists show it among the games, lower first."""
    bench: Bench = Bench()
    """How the benches play it."""

    @property
    def name(self) -> str:
        return self.rules.name
