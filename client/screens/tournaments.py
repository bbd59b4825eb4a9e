"""Tournaments (tournament.proto): the list, the form that creates one, and one tournament's
standings with its round's tables, live.

Everything shown comes from the server: standings are its reckoning (VP, GP, head-to-head, the
draw); the client does no sums. A player sits at their table of the round with ``enter`` (their
session holds the seat); anyone may watch any table with ``w``.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from typing import Any

import grpc
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Input, Label, Select, Static

from cardtui.client.choices import usual_seats
from cardtui.client.connection import Connection, error_text
from cardtui.client.footer import Footer
from cardtui.client.rounds import Entered, my_table
from cardtui.client.screens.lobby import CreateTableScreen, OpenTable
from cardtui.client.screens.password import PasswordScreen
from cardtui.client.screens.polling import PollingScreen
from cardtui.client.textual_internals import Header
from cardtui.i18n import N_, NP_, _, pgettext
from cardtui.v1 import lobby_pb2, tournament_pb2, tournament_pb2_grpc

STATUS = {
    tournament_pb2.TOURNAMENT_STATUS_REGISTERING: NP_("tournament", "registering"),
    tournament_pb2.TOURNAMENT_STATUS_PLAYING: NP_("tournament", "playing"),
    tournament_pb2.TOURNAMENT_STATUS_FINISHED: NP_("tournament", "finished"),
    tournament_pb2.TOURNAMENT_STATUS_CANCELLED: NP_("tournament", "cancelled"),
}
"""Said of a tournament (``pgettext``): "terminado", where a table is "terminada"."""
STARTS = ((N_("when full"), 0), (N_("in 5 minutes"), 5), (N_("in 15 minutes"), 15), (N_("in 30 minutes"), 30),
          (N_("in 1 hour"), 60))
"""When a new tournament starts: when its places are taken, or so many minutes from now."""
REFRESH_SECONDS = 2.0
BOT_MARK = "⚙"
"""Beside an entry a bot played for at some table (someone dropped or was away)."""


def stub(conn: Connection) -> tournament_pb2_grpc.TournamentsAsyncStub:
    return tournament_pb2_grpc.TournamentsStub(conn.channel)


def status_text(summary: tournament_pb2.TournamentSummary) -> str:
    said = pgettext("tournament", STATUS.get(summary.status, "?"))
    if summary.status == tournament_pb2.TOURNAMENT_STATUS_PLAYING:
        return _("{status}: round {round}/{rounds}").format(status=said, round=summary.round, rounds=summary.rounds)
    return said


def entry_names(state: tournament_pb2.TournamentState) -> dict[int, str]:
    """Each entry as people read it: its people (a team: its name and theirs)."""
    out = {}
    for e in state.entries:
        names = " + ".join(e.names)
        out[e.entry] = names if len(e.names) < 2 or e.team in e.names else f"{e.team} ({names})"
    return out


class TournamentsScreen(PollingScreen):
    """The server's tournaments: create one, register, open one's standings."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("n", "new", N_("New")),
        Binding("enter", "open", N_("Standings")),
        Binding("r", "register", N_("Register")),
        Binding("u", "unregister", N_("Withdraw")),
    ]

    def __init__(self, conn: Connection, info: lobby_pb2.ServerInfo, player: str) -> None:
        super().__init__()
        self.conn = conn
        self.info = info
        self.player = player
        self.rows: list[str] = []
        self.summaries: dict[str, tournament_pb2.TournamentSummary] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        grid: DataTable[Any] = DataTable(id="tournaments", cursor_type="row", zebra_stripes=True)
        yield grid
        yield Static("", id="tournaments-hint")
        yield Footer(compact=True)

    async def on_mount(self) -> None:
        await self.relabel()
        self.query_one("#tournaments", DataTable).focus()
        self.poll(REFRESH_SECONDS, self.refresh_list)

    async def relabel(self) -> None:
        self.title = _("Tournaments")
        grid = self.query_one("#tournaments", DataTable)
        grid.clear(columns=True)
        grid.add_columns(_("Name"), _("Game"), _("Entries"), _("Starts"), _("Status"))
        await self.refresh_list()

    async def refresh_list(self) -> None:
        try:
            listed = await stub(self.conn).ListTournaments(
                tournament_pb2.ListTournamentsRequest(include_finished=True), timeout=5)
        except Exception as err:
            self.query_one("#tournaments-hint", Static).update(Text(error_text(err), style="bold red"))
            return
        titles = {g.name: g.title for g in self.info.games}
        grid = self.query_one("#tournaments", DataTable)
        keep = grid.cursor_row
        grid.clear()
        self.rows = []
        for t in reversed(listed.tournaments):
            starts = (datetime.datetime.fromtimestamp(t.start_unix).strftime("%H:%M") if t.start_unix
                      else _("when full"))
            lock = "🔒 " if t.has_password else ""
            grid.add_row(Text(lock + t.name), titles.get(t.game, t.game), f"{t.entries}/{t.max_entries}", starts,
                         status_text(t))
            self.rows.append(t.id)
            self.summaries[t.id] = t
        if self.rows:
            grid.move_cursor(row=min(keep, len(self.rows) - 1))
        self.query_one("#tournaments-hint", Static).update(
            Text("" if self.rows else _("No tournaments yet: press n to create one."), style="dim"))

    def _selected(self) -> str | None:
        if not self.rows:
            self.notify(_("No tournaments yet: press n to create one."))
            return None
        return self.rows[min(self.query_one("#tournaments", DataTable).cursor_row, len(self.rows) - 1)]

    def action_new(self) -> None:
        self.app.push_screen(CreateTournamentScreen(self.info, self.conn), self._created)

    def _created(self, created: Any) -> None:
        """The new tournament's id (the form's result), or None if it was cancelled."""
        if isinstance(created, str):
            self.app.push_screen(TournamentScreen(self.conn, self.info, created, self.player))

    def action_open(self) -> None:
        tid = self._selected()
        if tid:
            self.app.push_screen(TournamentScreen(self.conn, self.info, tid, self.player))

    @on(DataTable.RowSelected, "#tournaments")
    def _row_selected(self) -> None:
        self.action_open()

    async def action_register(self) -> None:
        tid = self._selected()
        if tid:
            await register(self, self.conn, self.summaries[tid], self.player)
            await self.refresh_list()

    async def action_unregister(self) -> None:
        tid = self._selected()
        if tid is None:
            return
        try:
            await self.conn.with_session(self.player, lambda session: stub(self.conn).Unregister(
                tournament_pb2.UnregisterRequest(tournament_id=tid, session=session), timeout=5))
        except Exception as err:
            self.notify(error_text(err), title=_("Cannot withdraw"), severity="error")
            return
        self.notify(_("You have withdrawn."))
        await self.refresh_list()


class TournamentPasswordScreen(PasswordScreen):
    """A tournament's password, asked before registering."""

    def __init__(self, name: str, problem: str = "") -> None:
        super().__init__(name, False, problem)

    def compose(self) -> ComposeResult:
        with Vertical(id="password-dialog"):
            yield Label(_("{name} has a password").format(name=self.table_id), id="password-title")
            yield Static(Text(_("Type it to register."), style="dim"))
            yield Input(placeholder=_("password"), password=True, id="password-input", max_length=128)
            yield Static(Text(self.problem, style="bold red"), id="password-error")
            with Horizontal(id="password-buttons"):
                yield Button(_("Register"), variant="primary", id="password-go")
                yield Button(_("Cancel"), id="password-cancel")


class TeamScreen(ModalScreen[str | None]):
    """In a team game: the team's name, the same for partners (empty: a team of one's own)."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def compose(self) -> ComposeResult:
        with Vertical(id="password-dialog"):
            yield Label(_("Your team"), id="password-title")
            yield Static(Text(_("Partners type the same team name; leave it empty for a team of your own "
                                "(a bot partners you if nobody joins it)."), style="dim"))
            yield Input(placeholder=_("team name"), id="team-input", max_length=24)
            with Horizontal(id="password-buttons"):
                yield Button(_("Register"), variant="primary", id="team-go")
                yield Button(_("Cancel"), id="team-cancel")

    def on_mount(self) -> None:
        self.query_one("#team-input", Input).focus()

    @on(Input.Submitted, "#team-input")
    @on(Button.Pressed, "#team-go")
    def _go(self) -> None:
        self.dismiss(self.query_one("#team-input", Input).value.strip())

    @on(Button.Pressed, "#team-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


async def register(screen: Screen[Any], conn: Connection, summary: tournament_pb2.TournamentSummary,
                   player: str) -> None:
    """Register the player (their session proves them): in a team game with the team they name, and
    with the password if the tournament has one this client has not given yet; a refusal is said
    and changes nothing."""
    if summary.team_size > 1:
        async def named(team: str | None) -> None:
            if team is not None:
                await _with_password(screen, conn, summary, player, team)

        screen.app.push_screen(TeamScreen(), named)
    else:
        await _with_password(screen, conn, summary, player, "")


async def _with_password(screen: Screen[Any], conn: Connection, summary: tournament_pb2.TournamentSummary,
                         player: str, team: str) -> None:
    password = conn.passwords.get(summary.id, "")
    if summary.has_password and not password:
        _ask(screen, conn, summary, player, team, "")
    else:
        await _register(screen, conn, summary, player, team, password)


def _ask(screen: Screen[Any], conn: Connection, summary: tournament_pb2.TournamentSummary, player: str, team: str,
         problem: str) -> None:
    async def answered(password: str | None) -> None:
        if password is not None:
            await _register(screen, conn, summary, player, team, password)

    screen.app.push_screen(TournamentPasswordScreen(summary.name, problem), answered)


async def _register(screen: Screen[Any], conn: Connection, summary: tournament_pb2.TournamentSummary, player: str,
                    team: str, password: str) -> None:
    try:
        await conn.with_session(player, lambda session: stub(conn).Register(
            tournament_pb2.RegisterRequest(tournament_id=summary.id, session=session, password=password, team=team),
            timeout=5))
    except grpc.aio.AioRpcError as err:
        if err.code() == grpc.StatusCode.PERMISSION_DENIED and "password" in (err.details() or ""):
            conn.passwords.pop(summary.id, None)
            _ask(screen, conn, summary, player, team, error_text(err))
            return
        screen.notify(error_text(err), title=_("Cannot register"), severity="error")
        return
    if password:
        conn.passwords[summary.id] = password
    screen.notify(_("Registered for {name}.").format(name=summary.name))
    screen.post_message(Entered(summary.id))  # its rounds are followed from now, wherever the player is


class CreateTournamentScreen(CreateTableScreen):
    """The table form (game, options, turn timer, password: the same fields, checked the same way)
    and a tournament's own: rounds, places, when it starts, whether bots fill the places left."""

    def compose(self) -> ComposeResult:
        self._fit(self.app.size.height)
        first = self.game
        with Vertical(id="create-dialog"):
            yield Label(_("New tournament"), id="create-title")
            with VerticalScroll(id="create-scroll"):
                with Grid(id="create-grid"):
                    yield from self.game_and_name(first.name, self._title(first))
                    yield Label(_("Rounds"))
                    yield self.fits(Select([(str(n), n) for n in range(1, 11)], value=3, allow_blank=False,
                                           id="rounds"))
                    yield Label(_("Table size"))
                    yield self.fits(Select(self._counts(first), value=usual_seats(first), allow_blank=False,
                                           id="seats"))
                    yield Label(_("Places"))
                    with Vertical(classes="field"):
                        yield self.fits(Input("8", id="entries", type="integer", placeholder=_("2 to 64")))
                        yield Static("", id="err-entries", classes="field-error")
                    yield Label(_("Starts"))
                    yield self.fits(Select([(_(words), minutes) for words, minutes in STARTS], value=0,
                                           allow_blank=False, id="starts"))
                    yield Label(_("Bots"))
                    yield self.fits(Checkbox(_("fill the places left at the start"), value=True, id="fill"))
                    yield Label(_("Turn timer (s)"))
                    with Vertical(classes="field"):
                        yield self.fits(Input("30", id="turn", type="integer", placeholder=_("5 to 3600")))
                        yield Static("", id="err-turn", classes="field-error")
                    yield Label(_("Password"))
                    yield self.fits(Input(placeholder=_("none"), password=True, id="password"))
                    # what the table form keeps and a tournament decides itself
                    yield self.fits(Select([(str(n), n) for n in range(8)], value=0, allow_blank=False, id="bots",
                                           classes="hidden"))
                    yield Grid(id="levels", classes="hidden")
                    yield self.fits(Checkbox("", id="private", classes="hidden"))
                yield Static(_("Options"), id="options-title")
                yield Vertical(id="options")
            yield Static("", id="create-error")
            with Horizontal(id="create-buttons"):
                yield self.fits(Button(_("Create"), variant="primary", id="create"))
                yield self.fits(Button(_("Cancel"), id="cancel"))
            yield Footer()

    @staticmethod
    def _title(game: lobby_pb2.GameInfo) -> str:
        return _("{game} tournament").format(game=game.title)

    async def on_mount(self) -> None:
        for hidden in self.query(".hidden"):
            hidden.display = False
        await self._build_options()
        self.ready()

    async def _build_levels(self) -> None:
        """A tournament's bots play at the server's default level: no level per seat here."""

    @on(Select.Changed, "#game")
    def _game_changed(self, event: Select.Changed) -> None:
        g = self.games.get(str(event.value))
        if g is None or g is self.game:
            return
        self.game = g
        seats = self.query_one("#seats", Select)
        seats.set_options(self._counts(g))
        seats.value = usual_seats(g)
        self.query_one("#name", Input).placeholder = self._title(g)
        self.rebuild(options=True)

    def tournament_request(self) -> tournament_pb2.CreateTournamentRequest | None:
        table = self.request()
        if table is None:
            return None
        text = self.query_one("#entries", Input).value.strip()
        entries = int(text) if text.isdigit() else 0
        if not 2 <= entries <= 64:
            self._error(_("Places: a number from 2 to 64 (people, or teams in a team game)."), "entries")
            return None
        minutes = self.query_one("#starts", Select).value
        rounds = self.query_one("#rounds", Select).value
        assert isinstance(minutes, int) and isinstance(rounds, int)
        name = self.query_one("#name", Input).value or self._title(self.game)
        return tournament_pb2.CreateTournamentRequest(
            game=table.game, name=name[:24], rounds=rounds, table_size=table.seats, options=table.options,
            max_entries=entries, start_unix=int(time.time()) + minutes * 60 if minutes else 0,
            password=table.password, bots_fill=self.query_one("#fill", Checkbox).value,
            turn_seconds=table.turn_seconds,
        )

    @on(Button.Pressed, "#create")
    async def action_create(self) -> None:
        await self.rebuilt()  # a game just picked: its fields, not the last game's, make the request
        request = self.tournament_request()
        if request is None:
            return
        try:
            created = await stub(self.conn).CreateTournament(request, timeout=5)
        except Exception as err:
            english = (err.details() or "") if isinstance(err, grpc.aio.AioRpcError) else str(err)
            self._error(error_text(err), self._field_of(english))
            return
        tid = created.tournament.id
        self.conn.owned[tid] = created.owner_token
        if request.password:
            self.conn.passwords[tid] = request.password
        await self.close(tid)  # type: ignore[arg-type]


class TournamentScreen(Screen[None]):
    """One tournament: standings after the rounds played, and the round's tables with their progress."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("p", "sit", N_("My table")),
        Binding("w", "watch", N_("Watch")),
        Binding("r", "register", N_("Register")),
        Binding("s", "start", N_("Start now")),
    ]

    def __init__(self, conn: Connection, info: lobby_pb2.ServerInfo, tournament_id: str, player: str) -> None:
        super().__init__()
        self.conn = conn
        self.info = info
        self.tid = tournament_id
        self.player = player
        self.state: tournament_pb2.TournamentState | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="tournament-line")
        standings: DataTable[Any] = DataTable(id="standings", cursor_type="row", zebra_stripes=True)
        yield standings
        yield Static("", id="round-line")
        tables: DataTable[Any] = DataTable(id="round-tables", cursor_type="row", zebra_stripes=True)
        yield tables
        yield Footer(compact=True)

    async def on_mount(self) -> None:
        await self.relabel()
        self.query_one("#round-tables", DataTable).focus()
        self.follow()

    async def relabel(self) -> None:
        self.title = _("Tournament")
        grid = self.query_one("#standings", DataTable)
        grid.clear(columns=True)
        grid.add_columns("#", _("Player"), "VP", "GP", _("H2H"), _("Played"))
        tables = self.query_one("#round-tables", DataTable)
        tables.clear(columns=True)
        tables.add_columns(_("Table"), _("Players"), _("Hands"), _("Status"))
        if self.state is not None:
            self.show(self.state)

    @work(exclusive=True, exit_on_error=False)
    async def follow(self) -> None:
        """The state as the server tells it, at every change; again after a drop, every few seconds."""
        while True:
            try:
                async for state in stub(self.conn).WatchTournament(
                        tournament_pb2.TournamentRequest(tournament_id=self.tid)):
                    self.state = state
                    self.show(state)
                return
            except grpc.aio.AioRpcError as err:
                self.query_one("#tournament-line", Static).update(Text(error_text(err), style="bold red"))
                if err.code() == grpc.StatusCode.NOT_FOUND:
                    return
            await self._pause()

    async def _pause(self) -> None:
        await asyncio.sleep(REFRESH_SECONDS)

    def show(self, state: tournament_pb2.TournamentState) -> None:
        s = state.summary
        titles = {g.name: g.title for g in self.info.games}
        line = _("{name} · {game} · {status} · {entries}/{places} entries").format(
            name=s.name, game=titles.get(s.game, s.game), status=status_text(s), entries=s.entries,
            places=s.max_entries)
        self.query_one("#tournament-line", Static).update(Text(line))
        self.refresh_bindings()  # Register and Start now come and go with the status
        names = entry_names(state)
        grid = self.query_one("#standings", DataTable)
        grid.clear()
        for r in state.standings:
            who = names.get(r.entry, "?") + (f" {BOT_MARK}" if r.bot_played else "")
            grid.add_row(str(r.place), Text(who), Text(str(r.vp), justify="right"), Text(str(r.gp), justify="right"),
                         Text(f"{r.head_to_head:+d}" if r.head_to_head else "", justify="right"),
                         Text(str(r.played), justify="right"))
        if not state.standings:
            for number, e in enumerate(state.entries, start=1):
                grid.add_row(str(number), Text(names[e.entry]), "", "", "", "")
        current = [t for t in state.tables if t.round == s.round]
        round_words = _("Round {round} of {rounds}: {done} of {tables} tables done").format(
            round=s.round, rounds=s.rounds, done=s.tables_done, tables=s.tables) if s.round else _(
            "Registration: {entries} of {places} places taken").format(entries=s.entries, places=s.max_entries)
        if state.byes:
            round_words += " · " + _("sitting out: {names}").format(names=", ".join(names[b] for b in state.byes))
        if any(r.bot_played for r in state.standings):
            round_words += " · " + _("{mark} a bot played for them").format(mark=BOT_MARK)
        self.query_one("#round-line", Static).update(Text(round_words, style="bold"))
        tables = self.query_one("#round-tables", DataTable)
        keep = tables.cursor_row
        tables.clear()
        for t in current:
            tables.add_row(f"{t.round}.{t.number + 1}", Text(" · ".join(names[e] for e in t.entries)),
                           Text(str(t.hands), justify="right"), _("over") if t.done else _("playing"))
        if current:
            tables.move_cursor(row=min(keep, len(current) - 1))

    def _mine(self) -> tournament_pb2.TournamentTable | None:
        """The player's table of the round in play, while its match goes on (the app takes the
        player to it when the round opens, wherever they are: ``client.rounds``)."""
        return None if self.state is None else my_table(self.state, self.player)

    def _table(self) -> str | None:
        state = self.state
        if state is None:
            return None
        current = [t for t in state.tables if t.round == state.summary.round]
        if not current:
            self.notify(_("The tournament has no tables yet."))
            return None
        return current[min(self.query_one("#round-tables", DataTable).cursor_row, len(current) - 1)].table_id

    def action_sit(self) -> None:
        """To the player's own table of the round (their seat waits, a bot playing it meanwhile)."""
        table = self._mine()
        if table is None:
            self.notify(_("You have no table in play in this round: w watches the one picked."))
            return
        self.post_message(OpenTable(table.table_id, locked=False))

    @on(DataTable.RowSelected, "#round-tables")
    def _row_selected(self) -> None:
        self.action_sit()

    def action_watch(self) -> None:
        table_id = self._table()
        if table_id:
            self.post_message(OpenTable(table_id, spectate=True, locked=False))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Register and Start now are in the footer only while they can work: during registration,
        and Start now for the tournament's owner alone (once it plays, they only said no)."""
        if action in ("register", "start"):
            state = self.state
            if state is None or state.summary.status != tournament_pb2.TOURNAMENT_STATUS_REGISTERING:
                return False
            if action == "start" and self.tid not in self.conn.owned:
                return False
        return True

    async def action_register(self) -> None:
        if self.state is not None:
            await register(self, self.conn, self.state.summary, self.player)

    async def action_start(self) -> None:
        owner = self.conn.owned.get(self.tid)
        if owner is None:
            self.notify(_("Only the tournament's owner (who created it) may start it early."), severity="warning")
            return
        try:
            await stub(self.conn).StartTournament(tournament_pb2.OwnerRequest(tournament_id=self.tid,
                                                                              owner_token=owner), timeout=5)
        except Exception as err:
            self.notify(error_text(err), title=_("Cannot start"), severity="error")
