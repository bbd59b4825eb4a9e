"""Who sits where: people (by token), bots, and people away whose seat a bot plays meanwhile.

A person's seat is theirs until they leave; a bot plays it while they are away (after missed
turns in a row, or dropped) and gives it back when they act or reconnect. A seat a person
left during a match is open: the next person to sit takes it over from the bot. When that
match ends with the seat still open, it becomes an open bot's seat: the next match starts with
the bot in it (nobody waits for a seat the seat list shows filled), and a person may still take
it at any time.

Who played a seat at each moment (``Holder``) is what logs, hand histories and records name:
a seat that changes hands is told as it was then, never as it is now.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtui.engine.core import DEFAULT_LEVEL, Event
from cardtui.server import wire
from cardtui.server.errors import FailedPrecondition, InvalidArgument, ResourceExhausted
from cardtui.server.events import CameBack, Joined, Left, WentAway
from cardtui.server.store import SavedSeat
from cardtui.server.summary import SeatSummary
from cardtui.v1 import common_pb2, table_pb2


def _nothing() -> None:
    pass


@dataclass
class Seat:
    index: int
    name: str = ""
    token: str | None = None
    """A person's seat token (kept while they are away)."""
    bot: bool = False
    """A bot's seat: from the start, or ``open``."""
    open: bool = False
    """A bot's seat a person may take (the seat of someone who left a match that has ended)."""
    away: bool = False
    """The person is away or left: a bot plays for them meanwhile."""
    missed: int = 0
    """Turns in a row the timer played for the person."""
    player: str | None = None
    """The remembered player (proved with a key) this seat's results go to; None for a guest or a bot."""
    level: str = ""
    """The level of the bot that plays this seat (a bot's seat; a person's while they are away)."""
    played: bool = False
    """The person holding this seat has played in the match in play: had the table open while a hand
    dealt to them was in play, or made a move of their own. A match they played none of is not
    theirs (``Table``)."""
    pledge: bytes | None = None
    """What this seat's next link must follow (``cardtui-deal/2``, docs/deal.md §3a): the pledge its person's
    client made when sitting down, then each link the table took from it. None: its deals take nothing from it."""

    @property
    def taken(self) -> bool:
        """Nobody else may sit here: a person holds it, or a bot that keeps it."""
        return self.token is not None or (self.bot and not self.open)

    @property
    def filled(self) -> bool:
        """Someone plays it: a person, or a bot (its own seat, or standing in)."""
        return self.token is not None or self.botted

    @property
    def botted(self) -> bool:
        """A bot plays this seat now."""
        return self.bot or self.away

    def holder(self) -> Holder:
        return Holder(self.name, self.botted, self.away, self.player, self.level or DEFAULT_LEVEL)

    def saved(self) -> SavedSeat:
        return SavedSeat(self.index, self.name, self.bot, self.away, self.open, self.pledge)


@dataclass(frozen=True, slots=True)
class Holder:
    """Who played a seat at one moment, as the table's log, hand histories and records name it."""

    name: str
    """As the seat list named it ("": nobody)."""
    bot: bool
    """A bot played it: a bot's seat, or one standing in for the person named (``away``)."""
    away: bool
    """The person named had left or was away; a bot played for them."""
    player: str | None
    """The remembered player the seat's results went to (None: a guest, a bot, nobody)."""
    level: str
    """The level of the bot that played it, when one did."""

    @property
    def person(self) -> bool:
        """A person played it: not a bot, and somebody."""
        return not self.bot and bool(self.name)

    def data(self) -> dict[str, Any]:
        """Its fields as the journal keeps them: ``dataclasses.asdict`` without its deep copy
        (every field is a plain value), which cost a quarter of a millisecond a deal."""
        return {"name": self.name, "bot": self.bot, "away": self.away, "player": self.player, "level": self.level}

    def record(self) -> dict[str, str | bool]:
        """As a hand history names a seat's holder (docs/history.md): a bot says so, and its level."""
        out: dict[str, str | bool] = {"name": self.name}
        if self.bot:
            out["bot"] = self.level
        if self.away:
            out["away"] = True
        return out


class Seating:
    def __init__(self, seats: int, bots: int, teams: bool, stand_in: str = DEFAULT_LEVEL) -> None:
        self.seats = [Seat(i, level=stand_in) for i in range(seats)]
        self.teams = teams
        self.keeps_left = False
        """A tournament's table: a seat its player left stays theirs (only they may sit again), so
        the seat list says it is held (``taken``), not open to a newcomer who would be refused."""
        self._wire: bytes | None = None
        self.version = 0
        """Counts the seats' changes: the lobby's list compares it rather than the seats (``server.listings``)."""
        self.on_change: Callable[[], None] = _nothing
        """Told of each change of a seat (the table passes it on to the lobby's list)."""
        for i in range(seats - bots, seats):
            self.seats[i].bot = True
            self.seats[i].name = f"bot {i + 1}"

    def __getitem__(self, seat: int) -> Seat:
        return self.seats[seat]

    def __len__(self) -> int:
        return len(self.seats)

    @property
    def full(self) -> bool:
        """Every seat is played: a match can start."""
        return all(s.filled for s in self.seats)

    @property
    def people(self) -> int:
        return sum(1 for s in self.seats if s.token is not None)

    def holders(self) -> tuple[str | None, ...]:
        return tuple(s.token for s in self.seats)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def holders_now(self) -> tuple[Holder, ...]:
        return tuple(s.holder() for s in self.seats)

    def saved(self) -> list[SavedSeat]:
        return [s.saved() for s in self.seats]

    def team(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    def changed(self) -> None:
        """Seats were changed from outside (a restore): forget what was sent of them."""
        self._touched()

    def _touched(self) -> None:
        """A seat changed: what was built of them is built again, and the lobby's list is told (``on_change``)."""
        self._wire = None
        self.version += 1
        self.on_change()

    def wire(self) -> bytes:
        """The seats as the repeated ``seats`` field of a serialized ``View``, built once per change."""
        if self._wire is None:
            self._wire = table_pb2.View(seats=self.summaries()).SerializeToString()
        return self._wire

    def summaries(self) -> list[common_pb2.SeatSummary]:
        return [wire.seat_summary(seat) for seat in self.listed()]

    def listed(self) -> tuple[SeatSummary, ...]:
        """Each seat as the seat list shows it now."""
        return tuple(
            SeatSummary(
                seat=s.index, name=s.name, bot=s.botted, taken=s.taken or (self.keeps_left and s.away),
                team=self.team(s.index), away=s.away,
                bot_level=(s.level or DEFAULT_LEVEL) if s.botted else "",
            )
            for s in self.seats
        )

    def pick(self, seat: int) -> Seat:
        """The seat a person asking for ``seat`` would take (< 0: the first free one), or the refusal."""
        if seat < 0:
            free = [s for s in self.seats if not s.taken]
            if not free:
                raise ResourceExhausted("This table has no free seat.")
            return min(free, key=lambda s: s.filled)  # an empty seat first, then one a bot plays
        if seat >= len(self.seats):
            raise InvalidArgument("This table has seats 0 to {last}.", last=len(self.seats) - 1)
        target = self.seats[seat]
        if target.taken:
            raise FailedPrecondition("Seat {seat} is taken.", seat=seat)
        return target

    def sit(self, name: str, seat: int, token: str, player: str | None = None,
            pledge: bytes | None = None) -> tuple[Seat, Event]:
        """Seat a person (``seat`` < 0: the first free one); a seat a person left may be taken over."""
        target = self.pick(seat)
        before = target.holder() if target.filled else None
        target.name, target.token, target.away, target.missed = name, token, False, 0
        target.bot = target.open = target.played = False
        target.player, target.pledge = player, pledge
        self._touched()
        joined = Joined(target.index, name)
        if before is not None:
            joined = Joined(target.index, name, before.name, before.away)
        return target, Event(joined)

    def leave(self, seat: int, playing: bool) -> tuple[str | None, Event]:
        """A person leaves: before the match the seat opens; during it, a bot plays on.

        Returns the token that held the seat, whose streams must end.
        """
        s = self.seats[seat]
        token, name = s.token, s.name
        s.token, s.missed, s.pledge = None, 0, None
        if playing:
            s.away = True  # the match's results still go to the person who left it
        else:
            s.name, s.player = "", None
        self._touched()
        return token, Event(Left(seat, name, playing))

    def reclaim(self, seat: int, token: str, pledge: bytes | None = None) -> tuple[str | None, Event | None]:
        """A remembered player sits again at the seat that is theirs (from another client, or after
        leaving mid-match): the new token holds it, and the new client's pledge. Returns the token it
        replaces, and an event if a bot was playing for them."""
        s = self.seats[seat]
        old, s.token, s.missed, s.pledge = s.token, token, 0, pledge
        self._touched()
        if not s.away:
            return old, None
        s.away = False
        return old, Event(CameBack(seat, s.name))

    def forget_left(self) -> bool:
        """A new match: each seat a person left is an open bot's seat now (a person may take it); whether any was."""
        left = [s for s in self.seats if s.token is None and s.away]
        for s in left:
            s.player, s.away, s.bot, s.open, s.name = None, False, True, True, f"bot {s.index + 1}"
            s.played = False
        if left:
            self._touched()
        return bool(left)

    def permute(self, order: Sequence[int]) -> None:
        """The seats in a new order, each with whoever held it (a new match's seats swapped): seat i
        is now what seat ``order[i]`` was."""
        self.seats = [self.seats[old] for old in order]
        for index, seat in enumerate(self.seats):
            seat.index = index
        self._touched()

    def back(self, seat: int) -> Event | None:
        """The person at ``seat`` is here (acted or reconnected): their seat is theirs again."""
        s = self.seats[seat]
        s.missed = 0
        if s.away and s.token is not None:
            s.away = False
            self._touched()
            return Event(CameBack(seat, s.name))
        return None

    def missed_turn(self, seat: int, away_after: int) -> Event | None:
        """A person's turn timer ran out; after ``away_after`` in a row a bot plays for them."""
        s = self.seats[seat]
        if s.botted:
            return None
        s.missed += 1
        if s.missed < away_after:
            return None
        s.away = True
        self._touched()
        return Event(WentAway(seat, s.name))
