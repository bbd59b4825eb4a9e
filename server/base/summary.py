"""What the lobby is told of a table: its summary and each seat's, as records.

The table works on these records and ``wire`` turns them into ``TableSummary`` and ``SeatSummary``
messages (common.proto), whose fields they name the same: the table's actor builds no message.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardtui.engine.options import OptionSpec, Raw


class Status(StrEnum):
    """Where a table is in its life (the proto's ``TableStatus``, by the value's name)."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """A seat as the seat list shows it now (common.proto's ``SeatSummary`` says what each field means)."""

    seat: int
    name: str
    bot: bool
    taken: bool
    team: int
    away: bool
    bot_level: str


@dataclass(frozen=True, slots=True)
class TableSummary:
    """A table as the lobby lists it (common.proto's ``TableSummary`` says what each field means)."""

    id: str
    game: str
    name: str
    seats: tuple[SeatSummary, ...]
    spectators: int
    options: tuple[tuple[OptionSpec, Raw], ...]
    """Every option of the game with its value (defaults filled in), each with its spec: the wire
    says a value by the option's kind."""
    has_password: bool
    private: bool
    status: Status
    turn_seconds: int
    delayed_spectator_view: bool
    tournament_id: str
    tournament_round: int
    no_cuts: bool
    played_people: tuple[str, ...] = ()
    """A finished table's: everyone who played its hands (``Store.played``); empty while it is open."""
    played_bots: tuple[str, ...] = ()
