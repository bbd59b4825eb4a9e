"""Tournaments on this server: registration, the start, each round's tables, scoring, the next round.

Scoring and pairing are the engine's (``engine.tournament``); this module runs them over real
tables. A round's tables are ordinary tables of the room with the tournament's players seated
(a person's seat is played by a bot until they sit down with their session, and whenever they
drop); each plays one match, never idles out, and anyone may watch it.

Nothing lost, nothing twice: a tournament is kept whole in the store (one JSON document), rewritten
at every change. A match's result is written with its last hand, in that hand's transaction; a
round's tables are created with the tournament's record of them, in one transaction. So after a
kill -9 the server finds each tournament as it was: the tables in play come back as every table
does, the matches already scored stay scored once, and a round whose matches were all scored
opens the next.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from cardtui.engine.core import DEFAULT_LEVEL
from cardtui.engine.games import GAMES
from cardtui.engine.options import Raw
from cardtui.engine.tournament import (
    Finish,
    RoundPlan,
    Standing,
    TableResult,
    draw,
    first_round,
    outcome,
    places,
    seat_of,
    standings,
    swiss_round,
)
from cardtui.i18n import N_
from cardtui.server.actor.table import Table
from cardtui.server.base import passwords, wire
from cardtui.server.base.clock import Timer
from cardtui.server.base.errors import (
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    quote,
)
from cardtui.server.base.names import Name, key_of, read_name, stored_name
from cardtui.server.base.text import BadText
from cardtui.server.lobby.room import MAX_PASSWORD, Room, TableRequest, new_token
from cardtui.server.store import token_digest
from cardtui.v1 import tournament_pb2

log = logging.getLogger("cardtui.tournaments")

MAX_ROUNDS = 10
MIN_ENTRIES, MAX_ENTRIES = 2, 64
MAX_OPEN = 100
"""Tournaments registering or playing at once."""
MAX_TEAM_NAME = 24
"""A team's name, like a table's, at most this long."""


def _read(typed: str) -> Name:
    """A tournament's or a team's name, read as every name is (``names.read_name``)."""
    try:
        return read_name(typed)
    except BadText as e:
        raise InvalidArgument(e.template, **e.args_) from None


def _same_team(team: str, named: Name) -> bool:
    """Whether a team's name as registered and one typed now name one team: one name however it is
    spelled (an accent typed either way, fullwidth letters, case), or names drawn alike (a
    Cyrillic ``А`` for a Latin ``A``), so partners always find each other and no second team
    reads the same as the first."""
    registered = stored_name(team)
    return registered.key == named.key or registered.looks_like(named)


class Status(StrEnum):
    REGISTERING = "registering"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass
class Member:
    name: str
    player: str | None = None
    """The remembered player; None for a bot."""
    level: str = ""
    """A bot's level."""


@dataclass
class Entry:
    """What the standings rank: a person, or a team in a team game."""

    number: int
    team: str
    members: list[Member] = field(default_factory=list)

    @property
    def bot(self) -> bool:
        return all(m.player is None for m in self.members)


@dataclass
class RoundTable:
    round: int
    number: int
    table_id: str
    entries: list[int]
    hands: int = 0
    bot_seats: list[int] = field(default_factory=list)
    """Seats where a bot played for the person at some hand (they dropped or were away)."""
    result: list[dict[str, Any]] | None = None
    """The match's ``Finish`` of each entry, once it is over."""

    def finishes(self) -> TableResult | None:
        if self.result is None:
            return None
        return TableResult(self.round, self.number, tuple(Finish(**f) for f in self.result))


@dataclass
class Settings:
    game: str
    name: str
    rounds: int
    table_size: int
    team_size: int
    options: dict[str, Raw]
    max_entries: int
    start_at: float = 0.0
    """0: when full; else the time (Unix seconds) it starts."""
    password: str = ""
    bots_fill: bool = False
    bot_level: str = DEFAULT_LEVEL
    turn_seconds: float = 0.0
    bot_delay_ms: int | None = None
    away_after: int = 0
    owner: str = ""
    """The digest of the owner token."""

    @property
    def per_table(self) -> int:
        """Entries a table."""
        return self.table_size // self.team_size


@dataclass
class Tournament:
    id: str
    settings: Settings
    status: Status = Status.REGISTERING
    entries: list[Entry] = field(default_factory=list)
    seed: int = 0
    draw: list[int] = field(default_factory=list)
    plans: list[dict[str, Any]] = field(default_factory=list)
    """Each round's plan: ``number``, ``tables`` (entries a table) and ``byes``."""
    tables: list[RoundTable] = field(default_factory=list)

    @property
    def round(self) -> int:
        return len(self.plans)

    def plan(self, number: int) -> RoundPlan:
        p = self.plans[number - 1]
        return RoundPlan(int(p["number"]), tuple(tuple(t) for t in p["tables"]), tuple(p["byes"]))

    def round_tables(self, number: int | None = None) -> list[RoundTable]:
        number = self.round if number is None else number
        return [t for t in self.tables if t.round == number]

    def standings(self) -> tuple[Standing, ...]:
        results = [r for t in self.tables if (r := t.finishes()) is not None]
        byes = [e for p in self.plans for e in p["byes"]]
        return standings(self.draw, results, byes)

    def data(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Tournament:
        return cls(
            id=data["id"],
            settings=Settings(**data["settings"]),
            status=Status(data["status"]),
            entries=[Entry(e["number"], e["team"], [Member(**m) for m in e["members"]]) for e in data["entries"]],
            seed=data["seed"],
            draw=list(data["draw"]),
            plans=list(data["plans"]),
            tables=[RoundTable(**t) for t in data["tables"]],
        )


class Tournaments:
    """Every tournament of the room; the room tells it of each hand at a tournament's table."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.store = room.store
        self.all: dict[str, Tournament] = {}
        self.clock = room.clock
        self._timers: dict[str, Timer] = {}
        self._watchers: dict[str, set[asyncio.Queue[None]]] = {}
        self._arrivals: dict[str, Timer] = {}
        """Tables of a new round waiting for their players to sit down (at most the turn timer)."""
        """Each tournament's open WatchTournament streams, told of every change."""
        room.tournaments = self

    # -- creating and registering --------------------------------------------------------------
    def create(
        self, request: tournament_pb2.CreateTournamentRequest, options: Mapping[str, Raw]
    ) -> tuple[Tournament, str]:
        rules = GAMES.get(request.game)
        if rules is None:
            raise InvalidArgument("There is no game called {game}; try one of: {games}.", game=quote(request.game),
                                  games=", ".join(GAMES))
        if sum(1 for t in self.all.values() if t.status in (Status.REGISTERING, Status.PLAYING)) >= MAX_OPEN:
            raise ResourceExhausted("This server runs as many tournaments as it can.")
        if not 1 <= request.rounds <= MAX_ROUNDS:
            raise InvalidArgument("A tournament has 1 to {most} rounds.", most=MAX_ROUNDS)
        if not MIN_ENTRIES <= request.max_entries <= MAX_ENTRIES:
            raise InvalidArgument("A tournament takes {least} to {most} entries.", least=MIN_ENTRIES, most=MAX_ENTRIES)
        if len(request.password) > MAX_PASSWORD:
            raise InvalidArgument("A tournament's password may be at most {most} characters long.", most=MAX_PASSWORD)
        if request.start_unix < 0:
            raise InvalidArgument("A start time is a time to come (seconds since 1970), or 0 for when full.")
        level = request.bot_level or (DEFAULT_LEVEL if DEFAULT_LEVEL in rules.bot_levels else rules.bot_levels[0])
        if level not in rules.bot_levels:
            raise InvalidArgument("There is no bot level {level} at {game}; try one of: {choices}.",
                                  level=quote(level), game=rules.title, choices=", ".join(rules.bot_levels))
        fallback = f"{rules.title} tournament"
        name = _read(request.name or (fallback if len(fallback) <= MAX_TEAM_NAME else rules.title)).shown
        bot_delay = request.bot_delay_ms if request.HasField("bot_delay_ms") else None
        # The tables' settings, checked now as a table checks them (a round must not fail to open).
        config = self.room.config(TableRequest(request.game, name, request.table_size, 0, options,
                                               request.turn_seconds, bot_delay, away_after=request.away_after))
        team_size = config.seats // 2 if rules.teams else 1
        per_table = config.seats // team_size
        if request.max_entries < per_table:
            raise InvalidArgument("A table takes {n} entries: take at least that many.", n=per_table)
        owner = new_token()
        settings = Settings(
            game=request.game, name=name, rounds=request.rounds, table_size=config.seats, team_size=team_size,
            options=dict(config.options), max_entries=request.max_entries, start_at=float(request.start_unix),
            password=passwords.kept(request.password) if request.password else "", bots_fill=request.bots_fill,
            bot_level=level, turn_seconds=request.turn_seconds, bot_delay_ms=bot_delay,
            away_after=request.away_after, owner=token_digest(owner),
        )
        t = Tournament(secrets.token_hex(4), settings)
        self.all[t.id] = t
        self._save(t)
        self._arm(t)
        log.info("tournament %s opened: %s, %d rounds, tables of %d, up to %d entries", t.id, t.settings.game,
                 t.settings.rounds, t.settings.table_size, t.settings.max_entries)
        return t, owner

    def get(self, tournament_id: str) -> Tournament:
        try:
            return self.all[tournament_id]
        except KeyError:
            raise NotFound("There is no tournament {id}.", id=quote(tournament_id)) from None

    async def register(self, tournament_id: str, session: str, password: str, team: str) -> int:
        t = self.get(tournament_id)
        if (t.status is Status.REGISTERING and t.settings.password
                and not await passwords.check(t.settings.password, password)):
            raise PermissionDenied("That tournament's password is wrong.")
        if t.status is not Status.REGISTERING:  # closed before, or while the password was checked
            raise FailedPrecondition("Registration for this tournament is closed.")
        if not session:
            raise PermissionDenied("Registering needs your key (a guest cannot keep a seat from round to round).")
        name, player = self.room.players.who(session, "")
        if player is None:  # pragma: no cover - a session always proves a player
            raise PermissionDenied("Registering needs your key (a guest cannot keep a seat from round to round).")
        if any(m.player == player for e in t.entries for m in e.members):
            raise FailedPrecondition("You are registered already.")
        if len(team) > MAX_TEAM_NAME:
            raise InvalidArgument("A team's name may be at most {most} characters long.", most=MAX_TEAM_NAME)
        named = _read(team) if team.strip() else None
        if t.settings.team_size == 1 and named is not None and named.key != key_of(name):
            raise InvalidArgument("At {game} each entry is one player, under their own name: leave the team's name "
                                  "out.", game=GAMES[t.settings.game].title)
        entry = None
        if t.settings.team_size > 1 and named is not None:
            entry = next((e for e in t.entries if _same_team(e.team, named)), None)
            if entry is None:
                self.room.players.check_team(named, player)
            elif len(entry.members) >= t.settings.team_size:
                raise FailedPrecondition("The team {team} is complete.", team=quote(entry.team))
        if entry is None:
            if len(t.entries) >= t.settings.max_entries:
                raise FailedPrecondition("This tournament is full.")
            entry = Entry(len(t.entries), named.shown if named is not None and t.settings.team_size > 1 else name)
            t.entries.append(entry)
        entry.members.append(Member(name, player))
        self._save(t)
        log.info("tournament %s: %s registered (entry %d)", t.id, name, entry.number)
        if not t.settings.start_at and self._full(t):
            self._start(t)
        else:
            self._changed(t)
        return entry.number

    def unregister(self, tournament_id: str, session: str) -> None:
        t = self.get(tournament_id)
        if t.status is not Status.REGISTERING:
            raise FailedPrecondition("The tournament has started: a bot plays for whoever drops out.")
        _, player = self.room.players.who(session, "") if session else ("", None)
        entry = next((e for e in t.entries if any(m.player == player for m in e.members)), None) if player else None
        if entry is None:
            raise NotFound("You are not registered for this tournament.")
        entry.members = [m for m in entry.members if m.player != player]
        if not entry.members:
            t.entries.remove(entry)
            for number, e in enumerate(t.entries):
                e.number = number
        self._save(t)
        self._changed(t)

    def _owner(self, tournament_id: str, owner_token: str) -> Tournament:
        t = self.get(tournament_id)
        if not secrets.compare_digest(t.settings.owner, token_digest(owner_token)):
            raise PermissionDenied("Only the tournament's owner (who created it) may do that.")
        return t

    def start_now(self, tournament_id: str, owner_token: str) -> Tournament:
        t = self._owner(tournament_id, owner_token)
        if t.status is not Status.REGISTERING:
            raise FailedPrecondition("This tournament has started already.")
        if not self._can_start(t):
            raise FailedPrecondition("Too few entries for one table ({n}); let bots fill the places, or wait.",
                                     n=t.settings.per_table)
        self._start(t)
        return t

    def cancel(self, tournament_id: str, owner_token: str) -> Tournament:
        t = self._owner(tournament_id, owner_token)
        if t.status is not Status.REGISTERING:
            raise FailedPrecondition("Only a tournament that has not started may be cancelled.")
        self._end(t, Status.CANCELLED)
        return t

    # -- the start and the rounds -----------------------------------------------------------
    def _full(self, t: Tournament) -> bool:
        return len(t.entries) >= t.settings.max_entries and all(
            len(e.members) == t.settings.team_size for e in t.entries)

    def _can_start(self, t: Tournament) -> bool:
        return t.settings.bots_fill or len(t.entries) >= t.settings.per_table

    def _arm(self, t: Tournament) -> None:
        """A tournament with a start time starts then (or now, if the time has passed)."""
        if t.status is not Status.REGISTERING or not t.settings.start_at:
            return
        self._timers[t.id] = self.clock.call_later(max(0.0, t.settings.start_at - self.clock.wall()), self._due, t.id)

    def _due(self, tournament_id: str) -> None:
        self._timers.pop(tournament_id, None)
        t = self.all.get(tournament_id)
        if t is None or t.status is not Status.REGISTERING:
            return
        if self._can_start(t):
            self._start(t)
        else:
            log.info("tournament %s: too few entries at its start time; cancelled", t.id)
            self._end(t, Status.CANCELLED)

    def _start(self, t: Tournament) -> None:
        """Complete the teams and fill the places with bots (as allowed), draw, open round 1."""
        timer = self._timers.pop(t.id, None)
        if timer is not None:
            timer.cancel()
        s = t.settings
        bots = 0

        def bot() -> Member:
            nonlocal bots
            bots += 1
            return Member(f"bot {bots}", None, s.bot_level)

        for e in t.entries:  # a team short of people plays with bots beside them
            while len(e.members) < s.team_size:
                e.members.append(bot())
        target = s.max_entries if s.bots_fill else len(t.entries)
        while len(t.entries) < max(target, s.per_table if s.bots_fill else 0):
            t.entries.append(Entry(len(t.entries), "", [bot() for _ in range(s.team_size)]))
        for e in t.entries:
            if not e.team:
                e.team = e.members[0].name
        t.seed = secrets.randbits(63)
        t.draw = draw(range(len(t.entries)), t.seed)
        t.status = Status.PLAYING
        log.info("tournament %s starts: %d entries, draw seed %d", t.id, len(t.entries), t.seed)
        self._open_round(t, first_round(t.draw, s.per_table))

    def _open_round(self, t: Tournament, plan: RoundPlan) -> None:
        """The round's tables, created with the tournament's record of them in one transaction."""
        opened: list[Table] = []
        with self.store.transaction():
            t.plans.append({"number": plan.number, "tables": [list(x) for x in plan.tables], "byes": list(plan.byes)})
            for number, entries in enumerate(plan.tables):
                table = self._table(t, plan, number, entries)
                t.tables.append(RoundTable(plan.number, number, table.id, list(entries)))
                opened.append(table)
            self._save(t)
        for table in opened:
            if any(seat.player is not None for seat in table.seating.seats):
                # the players have the turn timer's time to sit down before bots play for them
                self._arrivals[table.id] = self.clock.call_later(table.config.turn_seconds, self._begin, table.id)
            else:
                table.open()
        log.info("tournament %s: round %d, %d tables, byes %s", t.id, plan.number, len(opened), list(plan.byes))
        self._changed(t)

    def _table(self, t: Tournament, plan: RoundPlan, number: int, entries: tuple[int, ...]) -> Table:
        s = t.settings
        seats: list[Member | None] = [None] * s.table_size
        at: list[int] = [0] * s.table_size
        for position, entry in enumerate(entries):
            for m, member in enumerate(t.entries[entry].members):
                seat = seat_of(position, m, s.per_table)
                seats[seat], at[seat] = member, entry
        suffix = f" {plan.number}.{number + 1}"
        name = s.name if len(s.name + suffix) <= MAX_TEAM_NAME else s.name[:MAX_TEAM_NAME - len(suffix) - 1] + "…"
        config = self.room.config(TableRequest(s.game, "", s.table_size, 0, s.options, s.turn_seconds,
                                               s.bot_delay_ms, away_after=s.away_after))
        config.name = name + suffix  # made here of the tournament's name, read when it was created
        config.bot_levels = [m.level if m is not None and m.player is None else "" for m in seats]
        config.tournament = {"id": t.id, "round": plan.number, "table": number, "entries": at,
                             "byes": list(plan.byes), "draw": list(t.draw)}

        def seat_them(table: Table) -> None:
            for index, member in enumerate(seats):
                assert member is not None
                seat = table.seating[index]
                seat.name = member.name
                if member.player is None:
                    seat.bot, seat.level = True, member.level
                else:  # a bot plays for them until they sit down (JoinTable with their session)
                    seat.player, seat.away = member.player, True
            table.seating.changed()

        return self.room.open_table(config, seat_them)

    def arrived(self, table: Table) -> None:
        """A player sat down at a tournament's table: once all have, its match need not wait."""
        if table.id in self._arrivals and all(s.token is not None for s in table.seating.seats if s.player):
            self._begin(table.id)

    def _begin(self, table_id: str) -> None:
        timer = self._arrivals.pop(table_id, None)
        if timer is not None:
            timer.cancel()
        table = self.room.tables.get(table_id)
        if table is not None:
            table.open()

    def hand_done(self, table: Table) -> None:
        """A hand ended at one of the tournament's tables (inside the hand's transaction): count it,
        note who a bot played for, and score the match once it is over."""
        t = self.all.get(str(table.config.tournament.get("id")))
        rt = next((x for x in t.tables if x.table_id == table.id), None) if t is not None else None
        if t is None or rt is None or rt.result is not None or table.match is None:
            return
        rt.hands = table.hands_played
        away = {s for s, h in enumerate(table.hand_holders) if h.away}
        away |= {s for _, s, h in table.hand_changes if h.away}
        rt.bot_seats = sorted(set(rt.bot_seats) | away)
        if table.match.match_over():
            seats = range(len(table.seating))
            teams = [table.seating.team(s) for s in seats]
            team_place = places(table.match.scores(), teams, table.tally.out_at)
            result = outcome(rt.round, rt.number, table.config.tournament["entries"], teams, team_place,
                             [table.tally.dealt(s) for s in seats], [s in rt.bot_seats for s in seats])
            rt.result = [dataclasses.asdict(f) for f in result.finishes]
            log.info("tournament %s: round %d table %d scored", t.id, rt.round, rt.number + 1)  # as screens number it
            asyncio.get_running_loop().call_soon(self._advance, t.id)
        self._save(t)
        self._changed(t)

    def _advance(self, tournament_id: str) -> None:
        """Once every table of the round has its result: close them, then the next round or the end."""
        t = self.all.get(tournament_id)
        if t is None or t.status is not Status.PLAYING:
            return
        current = t.round_tables()
        if any(x.result is None for x in current):
            return
        for x in current:
            table = self.room.tables.get(x.table_id)
            if table is not None:
                self.room.finish(table, N_("This round of the tournament is over at this table."))
        if t.round >= t.settings.rounds:
            self._end(t, Status.FINISHED)
            return
        order = [row.entry for row in t.standings()]
        plans = [t.plan(n) for n in range(1, t.round + 1)]
        self._open_round(t, swiss_round(t.round + 1, order, t.settings.per_table, plans))

    def _end(self, t: Tournament, status: Status) -> None:
        timer = self._timers.pop(t.id, None)
        if timer is not None:
            timer.cancel()
        t.status = status
        self._save(t)
        log.info("tournament %s %s", t.id, status.value)
        self._changed(t)

    # -- the store and restarts ---------------------------------------------------------------
    def _save(self, t: Tournament) -> None:
        self.store.tournaments.save(t.id, t.data())

    def restore(self) -> int:
        """Every stored tournament, where it was: timers re-armed, a round all scored moves on."""
        for data in self.store.tournaments.all():
            try:
                t = Tournament.of(data)
            except (KeyError, TypeError, ValueError) as e:
                log.error("tournament %s could not be restored (%s)", data.get("id"), e)
                continue
            self.all[t.id] = t
            if t.status is Status.REGISTERING:
                self._arm(t)
            elif t.status is Status.PLAYING:
                asyncio.get_running_loop().call_soon(self._advance, t.id)
        return len(self.all)

    # -- what the wire says ------------------------------------------------------------------
    def _changed(self, t: Tournament) -> None:
        for queue in self._watchers.get(t.id, ()):
            if queue.empty():
                queue.put_nowait(None)

    async def watch(self, tournament_id: str) -> AsyncIterator[tournament_pb2.TournamentState]:
        """The state now, then at every change, until the tournament is over."""
        t = self.get(tournament_id)
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        self._watchers.setdefault(t.id, set()).add(queue)
        try:
            while True:
                over = t.status in (Status.FINISHED, Status.CANCELLED)
                yield self.state(t)
                if over:
                    return
                await queue.get()
        finally:
            self._watchers[t.id].discard(queue)

    def summary(self, t: Tournament) -> tournament_pb2.TournamentSummary:
        s = t.settings
        rules = GAMES[s.game]
        specs = {spec.name: spec for spec in rules.option_specs}
        current = t.round_tables() if t.round else []
        return tournament_pb2.TournamentSummary(
            id=t.id, game=s.game, name=s.name,
            status=tournament_pb2.TournamentStatus.Value(f"TOURNAMENT_STATUS_{t.status.value.upper()}"),
            rounds=s.rounds, round=t.round, table_size=s.table_size, team_size=s.team_size,
            max_entries=s.max_entries, entries=len(t.entries), start_unix=int(s.start_at),
            has_password=bool(s.password), bots_fill=s.bots_fill,
            options={k: wire.option_value(specs[k], v) for k, v in s.options.items() if k in specs},
            tables_done=sum(1 for x in current if x.result is not None), tables=len(current),
        )

    def state(self, t: Tournament) -> tournament_pb2.TournamentState:
        return tournament_pb2.TournamentState(
            summary=self.summary(t),
            entries=[tournament_pb2.TournamentEntry(entry=e.number, team=e.team, names=[m.name for m in e.members],
                                                    bot=e.bot) for e in t.entries],
            tables=[tournament_pb2.TournamentTable(round=x.round, number=x.number, table_id=x.table_id,
                                                   entries=x.entries, done=x.result is not None, hands=x.hands)
                    for x in t.tables],
            byes=t.plans[-1]["byes"] if t.plans else [],
            standings=[tournament_pb2.StandingRow(place=r.place, entry=r.entry, vp=r.vp, gp=r.gp,
                                                  head_to_head=r.head_to_head, draw=r.draw, played=r.played,
                                                  byes=r.byes, bot_played=r.bot)
                       for r in (t.standings() if t.status is not Status.REGISTERING and t.draw else ())],
            draw_seed=t.seed,
        )

    def listing(self, include_finished: bool) -> list[tournament_pb2.TournamentSummary]:
        over = (Status.FINISHED, Status.CANCELLED)
        return [self.summary(t) for t in self.all.values() if include_finished or t.status not in over]

