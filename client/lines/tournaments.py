"""Tournaments in the line mode: the list, one tournament's standings and round, and the form that creates one.

As on the screens (``client.screens.tournaments``) everything said comes from the server: the standings are
its reckoning. The round's tables are numbered so that ``sit`` and ``watch`` take them by number, as they
take the lobby's: a tournament's table is sat at like any. The form asks as the table's does
(``creating``): the tournament described in one sentence with its usual choices, enter creates it, ``change``
goes through each choice.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import grpc

from cardtui.client.choices import usual_seats
from cardtui.client.connection import error_text
from cardtui.client.lines.commands import plain
from cardtui.client.lines.creating import (
    Ask,
    Cancelled,
    answered,
    game_named,
    games_said,
    number_asked,
    option_asked,
    spans,
)
from cardtui.client.lines.sentences import spoken
from cardtui.client.rounds import OVER, my_table, states
from cardtui.client.screens.tournaments import STARTS, entry_names, status_text, stub
from cardtui.i18n import _
from cardtui.v1 import common_pb2, lobby_pb2, tournament_pb2

if TYPE_CHECKING:
    from cardtui.client.lines.loop import LineRoom

ROUNDS = 3
PLACES = 8
TURN = 30


def tournament_line(n: int, t: tournament_pb2.TournamentSummary, titles: dict[str, str]) -> str:
    """A tournament as the list says it: its name and game, its places, when it starts and how it stands."""
    starts = (_("starts at {time}").format(time=time.strftime("%H:%M", time.localtime(t.start_unix)))
              if t.start_unix else _("starts when full"))
    said = _("{n}: {name}, {game}, {entries} of {places} places taken, {starts}, {status}.").format(
        n=n, name=t.name, game=titles.get(t.game, t.game), entries=t.entries, places=t.max_entries, starts=starts,
        status=status_text(t))
    if t.has_password:
        said += " " + _("It asks for a password.")
    return spoken(said)


def state_lines(state: tournament_pb2.TournamentState, titles: dict[str, str], player: str) -> list[str]:
    """One tournament: how it stands, its standings (or its entries while it registers), and the round's
    tables, numbered for ``sit`` and ``watch``, the player's said."""
    s = state.summary
    names = entry_names(state)
    out = [_("{name}, {game}: {status}, {entries} of {places} places taken.").format(
        name=s.name, game=titles.get(s.game, s.game), status=status_text(s), entries=s.entries,
        places=s.max_entries)]
    if state.standings:
        out.append(_("Standings:"))
        for r in state.standings:
            who = names.get(r.entry, "?")
            if r.bot_played:
                who += ", " + _("a bot played for them")
            out.append(_("{place}: {name}, {vp} VP, {gp} GP, {played} played.").format(
                place=r.place, name=who, vp=r.vp, gp=r.gp, played=r.played))
    elif state.entries:
        out.append(_("Entered: {names}.").format(names=", ".join(names[e.entry] for e in state.entries)))
    else:
        out.append(_("Nobody has entered yet: type register to enter."))
    if s.round:
        out.append(_("Round {round} of {rounds}: {done} of {tables} tables done.").format(
            round=s.round, rounds=s.rounds, done=s.tables_done, tables=s.tables))
    if state.byes:
        out.append(_("Sitting out: {names}.").format(names=", ".join(names[b] for b in state.byes)))
    mine = my_table(state, player)
    for n, t in enumerate(round_tables(state), start=1):
        said = _("Table {n}: {players}; {hands} hands, {status}.").format(
            n=n, players=", ".join(names[e] for e in t.entries), hands=t.hands,
            status=_("over") if t.done else _("playing"))
        if mine is not None and t.table_id == mine.table_id:
            said += " " + _("Yours: type sit {n} to play it.").format(n=n)
        out.append(said)
    return [spoken(line) for line in out]


def round_tables(state: tournament_pb2.TournamentState) -> list[tournament_pb2.TournamentTable]:
    return [t for t in state.tables if t.round == state.summary.round]


@dataclass(frozen=True)
class TournamentForm:
    """A new tournament's answers so far."""

    game: lobby_pb2.GameInfo
    table_size: int
    rounds: int = ROUNDS
    places: int = PLACES
    starts: int = 0
    """Minutes from now (0: when its places are taken)."""
    bots_fill: bool = True
    turn: int = TURN
    options: tuple[tuple[str, common_pb2.OptionValue], ...] = ()
    password: str = ""

    def said(self) -> str:
        starts = next((_(words) for words, minutes in STARTS if minutes == self.starts), _("when full"))
        bots = _("bots fill the places left at the start") if self.bots_fill else _("no bots fill the places left")
        lock = _("a password") if self.password else _("no password")
        options = _("changed options") if self.options else _("the usual options")
        return _("A {game} tournament: {rounds} rounds, tables of {size}, {places} places, starting {starts}, {bots}, "
                 "a turn of {turn} seconds, {options}, {lock}.").format(
            game=self.game.title, rounds=self.rounds, size=self.table_size, places=self.places, starts=starts,
            bots=bots, turn=self.turn, options=options, lock=lock)

    def request(self) -> tournament_pb2.CreateTournamentRequest:
        return tournament_pb2.CreateTournamentRequest(
            game=self.game.name, name=_("{game} tournament").format(game=self.game.title)[:24], rounds=self.rounds,
            table_size=self.table_size, options=dict(self.options), max_entries=self.places,
            start_unix=int(time.time()) + self.starts * 60 if self.starts else 0, password=self.password,
            bots_fill=self.bots_fill, turn_seconds=self.turn)


async def tournament_form(info: lobby_pb2.ServerInfo, ask: Ask) -> tournament_pb2.CreateTournamentRequest:
    """Ask what the new tournament should be, and the request for it (``Cancelled`` if the player cancels)."""
    chosen = None
    game = ""
    while chosen is None:
        game = await answered(ask, _("A tournament of which game? {games}.").format(games=games_said(info)))
        chosen = game_named(info, game)
    form = TournamentForm(chosen, usual_seats(chosen))
    answer = await answered(ask, form.said() + " " + _("Press enter to create it, or type change to choose each "
                                                       "thing, or cancel."))
    if plain(answer) in ("change", plain(_("change"))):
        form = await _changed(form, ask)
    elif answer:
        raise Cancelled
    return form.request()


async def _changed(form: TournamentForm, ask: Ask) -> TournamentForm:
    game = form.game
    rounds = await number_asked(ask, _("How many rounds? 1 to 10; enter keeps {now}.").format(now=form.rounds),
                                list(range(1, 11)), form.rounds)
    size = await number_asked(ask, _("How many players at each table? {allowed}; enter keeps {now}.").format(
        allowed=spans(list(game.player_counts)), now=form.table_size), list(game.player_counts), form.table_size)
    places = await number_asked(ask, _("How many places (people, or teams in a team game)? 2 to 64; enter keeps "
                                       "{now}.").format(now=form.places), list(range(2, 65)), form.places)
    listed = ", ".join(f"{n} {_(words)}" for n, (words, _minutes) in enumerate(STARTS, start=1))
    start = await number_asked(ask, _("When does it start? {choices}; enter keeps 1.").format(choices=listed),
                               list(range(1, len(STARTS) + 1)), 1)
    fill = await answered(ask, _("Do bots fill the places left at the start? Yes or no; enter keeps yes."))
    bots_fill = plain(fill) not in ("no", "n", plain(_("no")))
    turn = await number_asked(ask, _("Seconds for each turn? 5 to 3600; enter keeps {now}.").format(now=form.turn),
                              list(range(5, 3601)), form.turn)
    options = []
    for spec in game.options:
        value = await option_asked(game.name, spec, ask)
        if value is not None:
            options.append((spec.name, value))
    password = await answered(ask, _("A password for the tournament? Type it, or enter for none."), secret=True)
    return TournamentForm(game, size, rounds, places, STARTS[start - 1][1], bots_fill, turn, tuple(options), password)


class TournamentsPart:
    """The tournaments' commands: the list, one tournament's standings and round (its tables numbered for
    ``sit``), the form that creates one, ``register`` (each new table of the player's said as its rounds come),
    ``withdraw`` and ``start``."""

    def __init__(self, room: LineRoom) -> None:
        self.room = room
        self.contests: list[tournament_pb2.TournamentSummary] = []
        """The tournaments as last listed: ``tournament 2`` is the second."""
        self.contest = ""
        """The tournament last told (``register``, ``start`` and ``withdraw`` with no number mean it)."""
        self.following: dict[str, asyncio.Task[None]] = {}
        """The tournaments the player entered here, followed so that each new table of theirs is said."""

    # -- tournaments ---------------------------------------------------------------------------
    async def list_tournaments(self) -> None:
        assert self.room.conn is not None
        try:
            listed = await stub(self.room.conn).ListTournaments(
                tournament_pb2.ListTournamentsRequest(include_finished=True), timeout=5)
        except grpc.aio.AioRpcError as err:
            self.room.say(error_text(err))
            return
        self.contests = list(reversed(listed.tournaments))
        if not self.contests:
            self.room.say(_("No tournaments yet: type tournament new to create one."))
            return
        self.room.say(_("Tournaments:"))
        for n, t in enumerate(self.contests, start=1):
            self.room.say(tournament_line(n, t, self.room.titles()))
        self.room.say(_("Type tournament and a number for its standings and tables, register and a number to enter "
                        "it."))

    def _contest_id(self, rest: str) -> str | None:
        rest = rest.strip()
        if rest.isdigit() and 1 <= int(rest) <= len(self.contests):
            return self.contests[int(rest) - 1].id
        if not rest and self.contest:
            return self.contest
        if not rest and len(self.contests) == 1:
            return self.contests[0].id
        self.room.say(_("Which tournament? Give its number in the list (type tournaments to hear it)."))
        return None

    async def _contest(self, tid: str) -> tournament_pb2.TournamentState | None:
        assert self.room.conn is not None
        try:
            return await stub(self.room.conn).GetTournament(tournament_pb2.TournamentRequest(tournament_id=tid),
                                                                 timeout=5)
        except grpc.aio.AioRpcError as err:
            self.room.say(error_text(err))
            return None

    async def tournament(self, rest: str) -> None:
        """A tournament's standings and its round's tables (``sit`` and a number takes one); ``new`` creates one."""
        if plain(rest) in ("new", plain(_("new"))):
            await self._new_tournament()
            return
        tid = self._contest_id(rest)
        state = await self._contest(tid) if tid is not None else None
        if tid is None or state is None:
            return
        self.contest = tid
        tables = round_tables(state)
        if tables:
            self.room.listed = [t.table_id for t in tables]
        for line in state_lines(state, self.room.titles(), self.room.name):
            self.room.say(line)
        if state.summary.status == tournament_pb2.TOURNAMENT_STATUS_REGISTERING:
            self.room.say(_("Type register to enter it, start to start it now.") if self.room.conn is not None
                     and tid in self.room.conn.owned else _("Type register to enter it."))
        elif tables:
            self.room.say(_("Type sit or watch and a table's number."))

    async def _new_tournament(self) -> None:
        assert self.room.conn is not None and self.room.info is not None
        try:
            request = await tournament_form(self.room.info, self.room.ask)
        except Cancelled:
            self.room.say(_("No tournament was created."))
            return
        try:
            created = await stub(self.room.conn).CreateTournament(request, timeout=5)
        except grpc.aio.AioRpcError as err:
            self.room.say(error_text(err) + " " + _("No tournament was created."))
            return
        tid = created.tournament.id
        self.room.conn.owned[tid] = created.owner_token
        if request.password:
            self.room.conn.passwords[tid] = request.password
        self.contest = tid
        self.room.say(_("{name} is created. Type register to enter it, start to start it now.").format(
            name=created.tournament.name))

    async def register(self, rest: str) -> None:
        """Enter a tournament: its team asked in a team game, its password if it has one; then its rounds
        followed, each new table of the player's said."""
        conn = self.room.conn
        assert conn is not None
        tid = self._contest_id(rest)
        state = await self._contest(tid) if tid is not None else None
        if tid is None or state is None:
            return
        summary = state.summary
        team = ""
        if summary.team_size > 1:
            team = (await self.room.ask(_("Your team's name? Partners type the same one; enter for a team of your "
                                          "own (a bot partners you if nobody joins it)."))).strip()
        password = conn.passwords.get(tid, "")
        if summary.has_password and not password:
            password = await self.room.ask(_("This tournament asks for a password. Type it, or enter to give up."),
                                           secret=True)
            if not password:
                return
        try:
            await conn.with_session(self.room.name, lambda session: stub(conn).Register(tournament_pb2.RegisterRequest(
                tournament_id=tid, session=session, password=password, team=team), timeout=5))
        except grpc.aio.AioRpcError as err:
            conn.passwords.pop(tid, None)
            self.room.say(_("Not registered: {why}").format(why=error_text(err)))
            return
        if password:
            conn.passwords[tid] = password
        self.contest = tid
        self.room.say(_("You are entered in {name}. When a round gives you a table, you are told.").format(
            name=summary.name))
        if tid not in self.following:
            self.following[tid] = asyncio.create_task(self._follow_contest(tid))

    async def _follow_contest(self, tid: str) -> None:
        """A tournament the player entered: each new table of theirs said, with how to sit at it."""
        assert self.room.conn is not None
        told: set[str] = set()
        async for state in states(stub(self.room.conn), tid):
            mine = my_table(state, self.room.name)
            if mine is not None and mine.table_id not in told:
                told.add(mine.table_id)
                self.room.listed = [*[t for t in self.room.listed if t != mine.table_id], mine.table_id]
                self.room.say(_("{name}, round {round}: your table is ready. Type sit {n} to take your seat.")
                              .format(name=state.summary.name, round=mine.round, n=len(self.room.listed)))
            if state.summary.status in OVER:
                self.room.say(_("{name} is over: type tournament for its standings.").format(
                    name=state.summary.name))

    async def withdraw(self, rest: str) -> None:
        conn = self.room.conn
        assert conn is not None
        tid = self._contest_id(rest)
        if tid is None:
            return
        try:
            await conn.with_session(self.room.name, lambda session: stub(conn).Unregister(
                tournament_pb2.UnregisterRequest(tournament_id=tid, session=session), timeout=5))
        except grpc.aio.AioRpcError as err:
            self.room.say(error_text(err))
            return
        task = self.following.pop(tid, None)
        if task is not None:
            task.cancel()
        self.room.say(_("You have withdrawn."))

    async def start_tournament(self, rest: str) -> None:
        assert self.room.conn is not None
        tid = self._contest_id(rest)
        if tid is None:
            return
        owner = self.room.conn.owned.get(tid)
        if owner is None:
            self.room.say(_("Only the tournament's owner (who created it) may start it early."))
            return
        try:
            request = tournament_pb2.OwnerRequest(tournament_id=tid, owner_token=owner)
            await stub(self.room.conn).StartTournament(request, timeout=5)
        except grpc.aio.AioRpcError as err:
            self.room.say(error_text(err))
            return
        self.room.say(_("The tournament starts: bots take the places left."))
