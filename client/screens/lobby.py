"""The lobby: the server's tables, and the dialog that creates one."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, DataTable, Input, Label, Select, Static
from textual.worker import Worker

from cardtui import __version__
from cardtui.client import choices, versions
from cardtui.client.connection import Connection, error_text, slow
from cardtui.client.fairness import NO_CUTS_SHORT
from cardtui.client.footer import Footer
from cardtui.client.option_words import level_words, option_label, value_label
from cardtui.client.screens.confirm import ConfirmScreen
from cardtui.client.screens.help import HelpScreen
from cardtui.client.screens.invite import InviteScreen
from cardtui.client.screens.players import LeaderboardScreen
from cardtui.client.screens.polling import PollingScreen
from cardtui.client.screens.replay import TablesScreen
from cardtui.client.textual_internals import Header
from cardtui.client.typeahead import Built, Waits
from cardtui.i18n import N_, _
from cardtui.v1 import common_pb2, lobby_pb2

STATUS = {
    common_pb2.TABLE_STATUS_WAITING: N_("waiting"),
    common_pb2.TABLE_STATUS_PLAYING: N_("playing"),
    common_pb2.TABLE_STATUS_FINISHED: N_("finished"),
}


@dataclass(frozen=True)
class Seats:
    """Who holds a table's seats, as a newcomer needs it; the three add up to the seats.

    A person away (a bot plays for them meanwhile) still holds their seat; a seat someone left,
    which a bot plays until a person sits, is open (``SeatSummary.taken`` unset)."""

    people: int
    bots: int
    open: int

    @classmethod
    def of(cls, table: common_pb2.TableSummary) -> Seats:
        people = sum(1 for s in table.seats if s.taken and (not s.bot or s.away))
        bots = sum(1 for s in table.seats if s.taken and s.bot and not s.away)
        return cls(people, bots, sum(1 for s in table.seats if not s.taken))


def cup(table: common_pb2.TableSummary) -> str:
    """A tournament's table is marked: only its players sit there (anyone may watch)."""
    return "🏆 " if table.tournament_id else ""


def seated_text(table: common_pb2.TableSummary) -> str:
    """Who sits there, seat by seat ("ana, bia (away), bot 3 (hard), open"), for the line under the list."""
    parts = []
    for s in table.seats:
        if not s.taken:
            parts.append(_("open (a bot plays it)") if s.bot else _("open"))
        elif s.bot and s.away:
            parts.append(_("{name} (away)").format(name=s.name))
        elif s.bot:
            parts.append(f"{s.name} ({level_words(s.bot_level)})" if s.bot_level else s.name)
        else:
            parts.append(s.name)
    return ", ".join(parts)


NAME_MIN = 10
NAME_MAX = 24
"""A table's name is at most this long (``CreateTableRequest.name``)."""
ID_WIDTH = 8
SCROLLBAR = 2
"""Columns kept for the list's scrollbar, which shows once the tables outnumber its rows."""


def name_cell(table: common_pb2.TableSummary, width: int) -> Text:
    """A table's name, 🏆 first for a tournament's and 🔒 where it has a password, cut with … to
    ``width`` cells."""
    text = Text(cup(table) + ("🔒 " if table.has_password else "") + table.name)
    text.truncate(width, overflow="ellipsis")
    return text


def count_cell(n: int) -> Text:
    """A count under a narrow heading: right-aligned, a zero dimmed so the others stand out."""
    return Text(str(n), justify="right", style="dim" if not n else "")


def full_text(table: common_pb2.TableSummary) -> str:
    """Why a player who asked for a seat at ``table`` (by an invite, or Enter) is in the lobby instead: every
    seat has a person in it; and whether watching is the way in (a private table takes no spectators, except
    a tournament's, which anyone may watch)."""
    if table.private and not table.tournament_id:
        return _("Table {name} is full: all {seats} seats are taken, and it takes no spectators.").format(
            name=table.name, seats=len(table.seats))
    return _("Table {name} is full: all {seats} seats are taken. Press s to watch it.").format(
        name=table.name, seats=len(table.seats))


class OpenTournaments(Message):
    """The player asks for the tournaments (the app opens them: their screen builds on this module's
    table form, so this module does not import it)."""

    def __init__(self, conn: Connection, info: lobby_pb2.ServerInfo) -> None:
        super().__init__()
        self.conn = conn
        self.info = info


class OpenTable(Message):
    """Take a seat at (or watch) a table: the app opens it."""

    def __init__(self, table_id: str, spectate: bool = False, password: str = "", locked: bool | None = None) -> None:
        super().__init__()
        self.table_id = table_id
        self.spectate = spectate
        self.password = password
        self.locked = locked
        """Whether the table has a password (None: not known here)."""


class OpenCode(Message):
    """The player has an invite's code (or link) to type: the app asks it and opens its table."""


REFRESH_SECONDS = 2.0
"""How soon the lobby follows the room's list again after its stream broke; and, from a server older than the
stream, how often it asks for the list instead (while it is the screen on show)."""


class LobbyScreen(PollingScreen):
    BINDINGS = [
        # An invite (client.screens.invite): the table you created under the cursor's, else the room's; and
        # the way in with a friend's code. Out of the footer, full at 80 columns: the line under the
        # list says g on a table you created, the empty lobby says j, and the help lists both.
        Binding("g", "invite", N_("Invite"), show=False),
        Binding("j", "code", N_("Code"), show=False),
        Binding("n", "new", N_("New")),
        Binding("enter", "join", N_("Sit")),
        Binding("s", "spectate", N_("Watch")),
        # In the footer only on a table you created (``check_action``), where it is what you look for;
        # out of it, so the rest fits at 80 columns in every language (the help lists them): the
        # list refreshes itself, and ctrl+q quits anywhere.
        Binding("c", "close", N_("Close")),
        Binding("r", "refresh", N_("Refresh"), show=False),
        Binding("h", "history", N_("Hands")),
        Binding("question_mark", "help", N_("Help")),
        Binding("q", "app.quit", N_("Quit"), show=False),
        Binding("l", "leaderboard", N_("Ranks")),
        Binding("t", "tournaments", N_("Tournaments")),
    ]

    def __init__(self, conn: Connection, info: lobby_pb2.ServerInfo | None = None, note: str = "",
                 keeps: bool = True) -> None:
        super().__init__()
        self.conn = conn
        self.info = info
        self.keeps = keeps
        """The config directory is the player's own (not a browser guest's): the create form keeps choices there."""
        self.note = note
        """Where browser guests join, when this client hosts: a line under the server's, not a toast
        over the tables."""
        self.rows: list[str] = []
        self.locked: set[str] = set()
        """The listed tables that have a password."""
        self.open_tables: list[common_pb2.TableSummary] = []
        self.titles: dict[str, str] = {}
        self.wide: bool | None = None
        """Whether the list has a column for the tables' ids (a wide screen), as last laid out."""
        self.following: Worker[None] | None = None
        """What follows the room's list while the lobby is on show (``follow``)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="server-line")
        guests = Static(Text(self.note), id="guests-line")
        guests.display = bool(self.note)
        yield guests
        versions_line = Static("", id="versions-line")  # the server's version is not this client's (client.versions)
        versions_line.display = False
        yield versions_line
        yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        yield Static("", id="table-line")
        why = Static("", id="why-line")
        why.display = False
        yield why
        yield Static(_("No tables yet: press n to create one, or j to type a friend's invite."), id="empty-hint")
        yield Static(_("Finished tables (their hands are kept)"), id="finished-title")
        done: DataTable[Any] = DataTable(id="finished", cursor_type="row", zebra_stripes=True)
        done.add_columns(_("Table"), _("Game"), _("Name"), _("Seats"))
        yield done
        yield Footer(compact=True)  # room for the close key on a table you created, at 80 columns

    async def on_mount(self) -> None:
        self.query_one("#tables", DataTable).focus()
        await self.action_refresh()
        self.follow()

    def follow(self) -> None:
        """Follow the room's list by its stream while the lobby is on show (an older server: ask on a timer)."""
        if self.polling is None:
            self.following = self.run_worker(self._follow(), exclusive=True, exit_on_error=False, group="list")

    async def _follow(self) -> None:
        """The room's list as it changes: a snapshot, then the tables that changed (``Lobby.WatchTables``); a
        stream that ends or breaks is asked for again (a new snapshot), a server without it asked every
        ``REFRESH_SECONDS`` instead."""
        listed: dict[str, common_pb2.TableSummary] = {}
        while True:
            try:
                async for update in self.conn.watch_tables(include_finished=True):
                    if update.snapshot:
                        listed = {}
                    for table_id in update.removed:
                        listed.pop(table_id, None)
                    for table in update.tables:
                        listed[table.id] = table
                    await self.show(list(listed.values()))
            except grpc.aio.AioRpcError as err:
                if err.code() == grpc.StatusCode.UNIMPLEMENTED:  # a server older than the stream
                    self.poll(REFRESH_SECONDS, self.action_refresh)
                    return
                self.query_one("#server-line", Static).update(
                    Text(self.conn.unreached(err), style="bold red"))
            await asyncio.sleep(REFRESH_SECONDS)

    def on_screen_suspend(self, event: events.ScreenSuspend) -> None:
        """Another screen over the lobby: nobody reads the list, so it is not followed meanwhile."""
        if self.following is not None:
            self.following.cancel()
            self.following = None
        super().on_screen_suspend(event)

    async def on_screen_resume(self, event: events.ScreenResume) -> None:
        """On show again: the list followed again, from a snapshot (or asked at once, then on the timer)."""
        if self.polling is None and self.titles:  # mounted, and its stream followed before
            self.follow()
        await super().on_screen_resume(event)

    async def action_refresh(self) -> None:
        try:
            if self.info is None:
                self.info = await self.conn.info()
            tables = await self.conn.tables(include_finished=True)
        except Exception as err:
            self.query_one("#server-line", Static).update(Text(self.conn.unreached(err), style="bold red"))
            return
        await self.show(tables)

    async def show(self, tables: Sequence[common_pb2.TableSummary]) -> None:
        """The room's tables on screen: the open ones in the list, the finished ones under it."""
        if self.info is None:
            try:
                self.info = await self.conn.info()
            except Exception as err:
                self.query_one("#server-line", Static).update(
                    Text(self.conn.unreached(err), style="bold red"))
                return
        games = ", ".join(g.title for g in self.info.games)
        server = Text(_("{target} · cardtui {version} · games: {games}").format(target=self.conn.target,
                                                                              version=self.info.version, games=games))
        if self.info.no_cuts:  # before anyone creates a table or sits at one
            server.append(" · ⚠ " + _(NO_CUTS_SHORT), style="bold yellow")
        self.query_one("#server-line", Static).update(server)
        other = self.query_one("#versions-line", Static)
        if self.info.version != __version__ and not other.display:
            other.update(Text("⚠ " + versions.other_version(self.info.version, self.conn.offer())))
            other.display = True
        keep = self.query_one("#tables", DataTable).cursor_row
        self.locked = {t.id for t in tables if t.has_password}
        titles = {g.name: g.title for g in self.info.games}
        finished = [t for t in tables if t.status == common_pb2.TABLE_STATUS_FINISHED]
        done = self.query_one("#finished", DataTable)
        done.clear()
        for t in finished:
            done.add_row(Text(t.id, style="dim"), Text(titles.get(t.game, t.game), style="dim"),
                         Text(cup(t) + t.name, style="dim"), Text(str(len(t.seats)), style="dim"))
        done.display = self.query_one("#finished-title", Static).display = bool(finished)
        self.open_tables = [t for t in tables if t.status != common_pb2.TABLE_STATUS_FINISHED]
        self.titles = titles
        self._fill(keep)

    def _fill(self, keep: int) -> None:
        """The open tables, in as many columns as the screen's width takes (the line under the
        list says the rest of the highlighted one)."""
        grid = self.query_one("#tables", DataTable)
        wide, name_width = self.fit(self.open_tables, self.size.width)
        if wide != self.wide or not grid.columns:
            grid.clear(columns=True)
            grid.add_columns(*self.headings(wide))
            self.wide = wide
        grid.clear()
        self.rows = []
        for t in self.open_tables:
            seats = Seats.of(t)
            cells = [Text(t.id)] if wide else []
            cells += [Text(self.titles.get(t.game, t.game)), name_cell(t, name_width), count_cell(seats.people),
                      count_cell(seats.bots), count_cell(seats.open), count_cell(t.spectators),
                      Text(_(STATUS.get(t.status, "")))]
            grid.add_row(*cells)
            self.rows.append(t.id)
        if self.rows:
            grid.move_cursor(row=min(keep, len(self.rows) - 1))
        self.query_one("#empty-hint", Static).display = not self.rows
        self._describe()
        self.refresh_bindings()

    @staticmethod
    def headings(wide: bool) -> list[str]:
        return ([_("Table")] if wide else []) + [_("Game"), _("Name"), _("People"), _("Bots"), _("Open"),
                                                 _("Watching"), _("Status")]

    def fit(self, tables: Sequence[common_pb2.TableSummary], width: int) -> tuple[bool, int]:
        """Whether the table ids have a column of their own, and how wide the names may be: the
        other columns take what their words need, the names the rest (at least ``NAME_MIN``); the
        ids only where the names then still show whole."""
        headings = self.headings(False)
        game = max([cell_len(headings[0]), *(cell_len(self.titles.get(t.game, t.game)) for t in tables)])
        status = max([cell_len(headings[-1]), *(cell_len(_(word)) for word in STATUS.values())])
        counts = sum(max(cell_len(h), 3) for h in headings[2:-1])
        others = game + counts + status + 2 * (len(headings) - 1)
        room = width - others - 2 - SCROLLBAR  # the name column's own padding, the scrollbar's room
        names = max([cell_len(headings[1]), *(cell_len(name_cell(t, NAME_MAX).plain) for t in tables)])
        wide = room - (ID_WIDTH + 2) >= names
        return wide, max(NAME_MIN, room - (ID_WIDTH + 2 if wide else 0))

    @on(DataTable.RowHighlighted, "#tables")
    def _describe(self) -> None:
        """The highlighted table in full: its id (for ``--spectate``), its whole name, who sits where."""
        line = self.query_one("#table-line", Static)
        grid = self.query_one("#tables", DataTable)
        if not self.rows:
            line.update("")
            return
        t = self.open_tables[min(max(grid.cursor_row, 0), len(self.rows) - 1)]
        said = Text(_("Table {id}").format(id=t.id), style="bold")
        said.append(" · " + t.name)
        if t.has_password:
            said.append(" · 🔒 " + _("asks for a password"))
        if t.no_cuts:  # said before anyone sits: no hand there is one the players cut
            said.append(" · ⚠ " + _(NO_CUTS_SHORT), style="bold yellow")
        said.append(" · " + seated_text(t), style="dim")
        if t.id in self.conn.owned:  # yours: the way friends get here (client.screens.invite)
            said.append(" · " + _("g: invite friends"), style="bold")
        line.update(said)

    async def say_full(self, table_id: str) -> bool:
        """A seat was asked for at ``table_id`` and it is full: say so under the list, the cursor on that table
        (so s watches it, where it may be watched). False if the list does not have it to point at."""
        await self.action_refresh()
        table = next((t for t in self.open_tables if t.id == table_id), None)
        if table is None:
            return False
        self.query_one("#tables", DataTable).move_cursor(row=self.rows.index(table_id))
        self.why(full_text(table))
        return True

    def why(self, sentence: str) -> None:
        """Say (or, with "", stop saying) under the list why the player is here and not at a table."""
        line = self.query_one("#why-line", Static)
        line.update(Text(sentence, style="bold"))
        line.display = bool(sentence)

    def on_resize(self, event: events.Resize) -> None:
        if self.titles:
            self._fill(self.query_one("#tables", DataTable).cursor_row)

    async def relabel(self) -> None:
        """The lobby's words again, in the reader's language now."""
        await self.recompose()
        self.query_one("#tables", DataTable).focus()
        await self.action_refresh()

    def _selected(self) -> str | None:
        grid = self.query_one("#tables", DataTable)
        if not self.rows:
            self.notify(_("There is no table to choose yet: press n to create one."))
            return None
        return self.rows[min(grid.cursor_row, len(self.rows) - 1)]

    def action_join(self) -> None:
        self.why("")
        table_id = self._selected()
        if table_id:
            self.post_message(OpenTable(table_id, locked=table_id in self.locked))

    def action_spectate(self) -> None:
        self.why("")
        table_id = self._selected()
        if table_id:
            self.post_message(OpenTable(table_id, spectate=True, locked=table_id in self.locked))

    @on(DataTable.RowSelected, "#tables")
    def _row_selected(self) -> None:
        self.action_join()

    def _highlighted(self) -> str | None:
        """The table under the cursor, if any (without saying anything). None while the screen is
        being composed again (a language switch): the footer may ask in between."""
        grids = self.query("#tables")
        if not self.rows or not grids:
            return None
        grid = grids.first(DataTable)
        return self.rows[min(grid.cursor_row, len(self.rows) - 1)]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Closing is offered (and its key shown) only on a table this client created."""
        if action == "close":
            return self._highlighted() in self.conn.owned
        return True

    @property
    def footer_leaves_out(self) -> frozenset[str]:
        """Keys the footer leaves out now: on a table you created, Close takes Quit's room (with
        Tournaments, all would push Language past 80 columns); ctrl+q and q still quit."""
        return frozenset({"quit"}) if self._highlighted() in self.conn.owned else frozenset()

    @on(DataTable.RowHighlighted, "#tables")
    def _row_highlighted(self) -> None:
        self.refresh_bindings()

    def action_close(self) -> None:
        table_id = self._selected()
        if table_id is None:
            return
        if table_id not in self.conn.owned:
            self.notify(_("Only the table's owner (who created it) may close it."), severity="warning")
            return
        name = str(self.query_one("#tables", DataTable).get_row_at(self.rows.index(table_id))[2])
        ask = ConfirmScreen(_("Close the table “{name}”?").format(name=name),
                            _("Everyone at it is told it closed; its hands are kept."),
                            _("Keep it (escape)"), _("Close it (y)"))

        async def answered(close: bool | None) -> None:
            if not close:
                return
            try:
                await self.conn.close_table(table_id)
            except Exception as err:
                self.notify(error_text(err), title=_("Cannot close the table"), severity="error")
                return
            await self.action_refresh()

        self.app.push_screen(ask, answered)

    def action_new(self) -> None:
        if self.info is None:
            self.notify(_("The server has not answered yet: see the line at the top."), severity="warning")
            return
        self.app.push_screen(CreateTableScreen(self.info, self.conn, self.keeps), self._created)

    def _created(self, created: tuple[common_pb2.TableSummary, str] | None) -> None:
        if created is not None:
            table, password = created
            if password:  # the creator typed it: never asked for it
                self.conn.passwords[table.id] = password
            self.post_message(OpenTable(table.id, password=password, locked=bool(password)))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(None, where="lobby"))

    def action_invite(self) -> None:
        """The invite of the table you created under the cursor; elsewhere, the room's own."""
        table_id = self._highlighted()
        self.app.push_screen(InviteScreen(self.conn, table_id if table_id in self.conn.owned else ""))

    def action_code(self) -> None:
        self.post_message(OpenCode())

    def action_leaderboard(self) -> None:
        if self.info is None:
            self.notify(_("Still talking to the server…"))
            return
        self.app.push_screen(LeaderboardScreen(self.conn, self.info.games))

    def action_history(self) -> None:
        self.app.push_screen(TablesScreen(self.conn))

    def action_tournaments(self) -> None:
        if self.info is None:
            self.notify(_("Still talking to the server…"))
            return
        self.post_message(OpenTournaments(self.conn, self.info))


Field = TypeVar("Field", Input, Select[Any], Button, Checkbox)
"""A field of the table form, compact or not."""


class CreateTableScreen(Waits, ModalScreen[tuple[common_pb2.TableSummary, str] | None]):
    """Game, seats, bots and the game's options, as the server describes them.

    The form is built from ``GameInfo``: a yes/no option is a checkbox, a choice a list, a
    number a field with its range. A refusal keeps the dialog open with the sentence. Keys typed
    while it builds wait for it (``client.typeahead``), and Tab moves the focus as the key is read
    (a priority binding), so the letters typed right after a Tab land in the next field.
    """

    BINDINGS = [Binding("escape", "cancel", N_("Cancel")), Binding("ctrl+s", "create", N_("Create")),
                Binding("tab", "app.focus_next", show=False, priority=True),
                Binding("shift+tab", "app.focus_previous", show=False, priority=True)]
    AUTO_FOCUS = "#game"
    """The first field, not the scrolling box around the fields (a key typed there would go nowhere)."""
    SHORT = 36
    """Below this many rows (a phone on its side, an 80x24 terminal) the fields lose their borders,
    so the whole dialog, its Create button included, stays in view and can be tapped."""

    def __init__(self, info: lobby_pb2.ServerInfo, conn: Connection, keeps: bool = True) -> None:
        super().__init__()
        self.info = info
        self.conn = conn
        self.keeps = keeps
        """The config directory is the player's own: the form starts from their last choices, and keeps these
        (a browser guest's is the host's: nothing is read from it or written to it)."""
        self.short = False
        """The screen is short: its fields are compact (``_fit``)."""
        self.games = {g.name: g for g in info.games}
        self.game = info.games[0]
        self.fresh_game = False
        self.fresh_levels = False
        self.building = asyncio.Lock()
        """Held while the options or the levels are built again: the form closes between builds, never in one
        (a list mounted into a form being taken down read its own parts gone, and the app ended)."""
        self.rebuilds: list[Worker[None]] = []
        """The builds a change asked for, each beside the screen's own messages (``rebuild``)."""
        self.closing = False
        """Cancelled or created: a build asked for after that (a change still queued) builds nothing."""
        remembered = choices.load(conn.target) if keeps else None
        self.remembered = remembered if remembered is not None and remembered.game in self.games else None
        """The choices last used at this server: the form starts from them (``client.choices``)."""
        if self.remembered is not None:
            self.game = self.games[self.remembered.game]

    def game_and_name(self, game: str, placeholder: str) -> ComposeResult:
        """The form's first two rows, a game and a name, as every form made from this one has them."""
        yield Label(_("Game"))
        yield self.fits(Select([(g.title, g.name) for g in self.info.games], value=game, allow_blank=False, id="game"))
        yield Label(_("Name"))
        with Vertical(classes="field"):
            yield self.fits(Input(placeholder=placeholder, id="name", max_length=24))
            yield Static("", id="err-name", classes="field-error")

    def compose(self) -> ComposeResult:
        self._fit(self.app.size.height)
        first = self.game
        last = self.remembered
        seats = last.seats if last is not None and last.seats in first.player_counts else choices.usual_seats(first)
        bots = last.bots if last is not None and 0 <= last.bots < seats else seats - 1
        turn = last.turn if last is not None and 5 <= last.turn <= 3600 else 30
        with Vertical(id="create-dialog"):
            yield Label(_("New table"), id="create-title")
            with VerticalScroll(id="create-scroll"):
                with Grid(id="create-grid"):
                    yield from self.game_and_name(first.name, _("{game} table").format(game=first.title))
                    yield Label(_("Players"))
                    yield self.fits(Select(self._counts(first), value=seats, allow_blank=False, id="seats"))
                    yield Label(_("Bots"))
                    with Vertical(classes="field"):
                        yield self.fits(Select(self._bots(seats), value=bots, allow_blank=False, id="bots"))
                        yield Static("", id="err-bots", classes="field-error")
                    yield Label(_("Bot levels"))
                    yield Grid(id="levels")
                    yield Label(_("Turn timer (s)"))
                    with Vertical(classes="field"):
                        yield self.fits(Input(str(turn), id="turn", type="integer", placeholder=_("5 to 3600")))
                        yield Static("", id="err-turn", classes="field-error")
                    yield Label(_("Password"))
                    yield self.fits(Input(placeholder=_("none"), password=True, id="password"))
                    yield Label(_("Private"))
                    yield self.fits(Checkbox(_("no spectators"), value=last is not None and last.private, id="private"))
                yield Static(_("Options"), id="options-title")
                yield Vertical(id="options")
            yield Static("", id="create-error")
            with Horizontal(id="create-buttons"):
                yield self.fits(Button(_("Create"), variant="primary", id="create"))
                yield self.fits(Button(_("Cancel"), id="cancel"))
            yield Footer()

    async def on_mount(self) -> None:
        await self._build_options()
        await self._build_levels()
        self.ready()

    def ready(self) -> None:
        """Built: the focus on the game, and the keys typed meanwhile handed on (``client.typeahead``)."""
        self.set_focus(self.query_one("#game", Select))  # now, not after this turn: the keys held go there
        self.built = True
        self.post_message(Built())

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        short = self.short = height < self.SHORT
        self.set_class(short, "-short")
        for widget in self.query("Input, Select, Button, Checkbox"):
            widget.compact = short  # type: ignore[attr-defined]

    def fits(self, field: Field) -> Field:
        """A field born as ``_fit`` makes it at the screen's height (compact where the screen is short), as the
        form composes (``_fit`` first, at the app's size, which the screen takes) or builds its options and
        levels. Set after the field is mounted, its class styled it and its parts again: a few milliseconds a
        field, a tenth of a second a form (``bench/marks.md``). The same field, styled once."""
        field.set_reactive(type(field).compact, self.short)
        field.set_class(self.short, "-textual-compact", update=False)
        return field

    @staticmethod
    def _counts(game: lobby_pb2.GameInfo) -> list[tuple[str, int]]:
        return [(str(n), n) for n in game.player_counts]

    @staticmethod
    def _levels(game: lobby_pb2.GameInfo, seat: int) -> list[tuple[str, str]]:
        """A bot seat's choices, each naming the bot as the table will ("bot 4: hard")."""
        return [(_("bot {n}: {level}").format(n=seat + 1, level=level_words(level)), level)
                for level in game.bot_levels] or [(_("bot {n}").format(n=seat + 1), "")]

    @staticmethod
    def _level(game: lobby_pb2.GameInfo) -> str:
        levels = list(game.bot_levels)
        return "normal" if "normal" in levels else (levels[0] if levels else "")

    @staticmethod
    def _bots(players: int) -> list[tuple[str, int]]:
        return [(str(n), n) for n in range(players)]

    def levels(self) -> list[str]:
        """The level of each bot seat, in seat order (the last seats are the bots')."""
        return [str(w.value) for w in self.query("#levels Select").results(Select)]

    def _chosen_levels(self, bots: int) -> list[str]:
        """What to ask for: one level per bot seat, or none (the server's default) without levels to choose."""
        levels = [level for level in self.levels() if level]
        return levels if len(levels) == bots else levels[:1]

    async def close(self, result: tuple[common_pb2.TableSummary, str] | None) -> None:
        """Dismissed with ``result`` once no build is under way, and nothing built after."""
        self.closing = True
        async with self.building:
            self.dismiss(result)

    PARTS = ("#game", "#seats", "#bots", "#options", "#levels", "#create-error")
    """The fields a build reads or fills (and where it says what went wrong)."""

    def rebuild(self, *, options: bool) -> None:
        """The game's options (``options``) and the bots' levels built again for a change, beside the screen, not
        in its handler: on a slow host a build takes seconds, and a handler awaiting it holds every message of the
        screen (its footer kept offering "Dismiss menu" that long after the list had closed, and that key, tapped,
        cancelled the form). The builds still run one at a time, in the order asked (``building``)."""

        async def build() -> None:
            try:
                if options:
                    await self._build_options()
                await self._build_levels()
            except NoMatches:
                if self.is_attached and not (self._closing or self._closed) and all(
                        self.query(part) for part in self.PARTS):
                    raise  # the form is whole and up: the build's own fault
                # else the form was being taken down under the build (the app quitting, its fields removed one
                # after another): nothing left to build

        self.rebuilds = [w for w in self.rebuilds if not w.is_finished]
        self.rebuilds.append(self.run_worker(build(), group="rebuild"))

    @property
    def rebuilding(self) -> bool:
        """A build a change asked for is not done yet: the fields may still be the last game's."""
        return any(not w.is_finished for w in self.rebuilds)

    async def rebuilt(self) -> None:
        """Once every build asked for so far is done: what the form describes is read from the fields they make."""
        while self.rebuilding:
            await next(w for w in self.rebuilds if not w.is_finished).wait()

    async def _build_levels(self) -> None:
        """One choice per bot seat; a seat that stays a bot keeps the level it was given."""
        async with self.building:
            if not self.closing:
                await self._build_levels_now()

    async def _build_levels_now(self) -> None:
        seats, bots = self.query_one("#seats", Select).value, self.query_one("#bots", Select).value
        if not isinstance(seats, int) or not isinstance(bots, int):
            return
        box = self.query_one("#levels", Grid)
        wanted = [f"level-{seat}" for seat in range(seats - bots, seats)]
        if wanted and not self.fresh_levels and [child.id for child in box.children] == wanted:
            return  # the same bot seats, each with its level: built again, the form would jump under a finger
        kept = dict(enumerate(reversed(self.levels()))) if not self.fresh_levels else {}
        if not box.children and self.remembered is not None and self.remembered.game == self.game.name:
            kept = dict(enumerate(reversed(self.remembered.levels)))  # the form's first levels: as last time
        self.fresh_levels = False
        await box.remove_children()
        offered = set(self.game.bot_levels)
        widgets: list[Any] = []
        for seat in range(seats - bots, seats):
            level = kept.get(seats - 1 - seat, "")
            widgets.append(self.fits(Select(self._levels(self.game, seat), allow_blank=False, id=f"level-{seat}",
                                            value=level if level in offered else self._level(self.game))))
        if not widgets:
            widgets.append(Static(Text(_("no bots"), style="dim"), classes="opt-help"))
        await box.mount_all(widgets)
        self._fit(self.size.height)

    async def _build_options(self) -> None:
        """The game's options, each as its kind asks (a checkbox, a list, a field)."""
        async with self.building:
            if not self.closing:
                await self._build_options_now()

    async def _build_options_now(self) -> None:
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        rows: list[Any] = []
        last = self.remembered if self.remembered is not None and self.remembered.game == self.game.name else None
        for spec in self.game.options:
            game = self.game.name
            value = last.option(spec) if last is not None else spec.default
            rows.append(Label(Text(option_label(game, spec.name), style="bold"), classes="opt-name"))
            if spec.type == lobby_pb2.OPTION_TYPE_FLAG:  # its help wrapped above it: a toggle's label is one line,
                rows.append(Static(Text(_(spec.help), style="dim"), classes="opt-help"))  # cut where it runs past
                rows.append(self.fits(Checkbox(_("yes"), value=value.flag, id=f"opt-{spec.name}")))
            elif spec.type == lobby_pb2.OPTION_TYPE_CHOICE:
                rows.append(Static(Text(_("{help} (default: {value})").format(
                    help=_(spec.help), value=value_label(game, spec.name, spec.default.choice)), style="dim"),
                                   classes="opt-help"))
                rows.append(self.fits(Select([(value_label(game, spec.name, c), c) for c in spec.choices],
                                             value=value.choice, allow_blank=False, id=f"opt-{spec.name}")))
            elif spec.values:  # a whole number that takes only these
                rows.append(Static(Text(_("{help} (default {value})").format(
                    help=_(spec.help), value=spec.default.number), style="dim"), classes="opt-help"))
                rows.append(self.fits(Select([(str(v), v) for v in spec.values], value=value.number,
                                             allow_blank=False, id=f"opt-{spec.name}")))
            else:
                whole = spec.type == lobby_pb2.OPTION_TYPE_NUMBER
                default = spec.default.number if whole else spec.default.fraction
                rows.append(Static(Text(_("{help} ({min} to {max}; default {value})").format(
                    help=_(spec.help), min=f"{spec.min:g}", max=f"{spec.max:g}", value=f"{default:g}"), style="dim"),
                    classes="opt-help"))
                now = value.number if whole else value.fraction
                rows.append(self.fits(Input(f"{now:g}", id=f"opt-{spec.name}", type="integer" if whole else "number",
                                            placeholder=_("{min} to {max}").format(min=f"{spec.min:g}",
                                                                                   max=f"{spec.max:g}"))))
            rows.append(Static("", id=f"err-opt-{spec.name}", classes="field-error"))
        await box.mount_all(rows)
        self._error("")
        self._fit(self.size.height)

    @on(Select.Changed, "#game")
    def _game_changed(self, event: Select.Changed) -> None:
        g = self.games.get(str(event.value))
        if g is None or g is self.game:
            return
        self.game = g
        self.fresh_game = True  # the new game's seats come with its default bots
        seats = self.query_one("#seats", Select)
        seats.set_options(self._counts(g))
        seats.value = usual = choices.usual_seats(g)
        # The bots too, now: the levels built below read them, and the old game's count (three of four seats)
        # could exceed the new seats (three) until the seats' change came round to set them.
        bots = self.query_one("#bots", Select)
        bots.set_options(self._bots(usual))
        bots.value = usual - 1
        self.query_one("#name", Input).placeholder = _("{game} table").format(game=g.title)
        self.fresh_levels = True  # the new game's levels, each at its default
        self.rebuild(options=True)

    @on(Select.Changed, "#seats")
    def _seats_changed(self, event: Select.Changed) -> None:
        if not isinstance(event.value, int) or event.value != event.select.value:
            return  # a change already overtaken by another (setting new options changes it twice)
        bots = self.query_one("#bots", Select)
        keep = bots.value if isinstance(bots.value, int) and bots.value < event.value else event.value - 1
        if self.fresh_game:
            keep, self.fresh_game = event.value - 1, False
        bots.set_options(self._bots(event.value))
        bots.value = keep

    @on(Select.Changed, "#bots")
    def _bots_changed(self, event: Select.Changed) -> None:
        self.rebuild(options=False)

    def _error(self, sentence: str, field: str | None = None) -> None:
        """Say what is wrong: beside the field it is about, if any, else under the form."""
        field = field if field is not None else self._field_of(sentence)
        shown = False
        for error in self.query(".field-error").results(Static):
            here = bool(sentence) and error.id == f"err-{field}"
            error.update(Text(sentence, style="bold red") if here else "")
            error.display = here
            shown = shown or here
        self.query_one("#create-error", Static).update(Text("" if shown else sentence, style="bold red"))
        if shown and field is not None:
            target = self.query(f"#{field}")
            widget = self.query_one(f"#err-{field}")
            widget.scroll_visible()
            if target:
                target.first().focus()

    def _field_of(self, sentence: str) -> str | None:
        """The field a refusal is about, from its words (the server names what it refuses)."""
        low = sentence.lower()
        for spec in self.game.options:
            if f"option {spec.name}" in low or f"option '{spec.name}'" in low:
                return f"opt-{spec.name}"
        if "turn timer" in low:
            return "turn"
        if "bots" in low or "free seat" in low:
            return "bots"
        if "name" in low and "table" in low and "option" not in low:
            return "name"
        return None

    def request(self) -> lobby_pb2.CreateTableRequest | None:
        """The request the form describes, or None with the reason shown."""
        turn_text = self.query_one("#turn", Input).value.strip()
        turn = int(turn_text) if turn_text.lstrip("-").isdigit() else -1
        if not 5 <= turn <= 3600:
            self._error(_("The turn timer is a number of seconds from 5 to 3600."), "turn")
            return None
        options: dict[str, common_pb2.OptionValue] = {}
        for spec in self.game.options:
            widget = self.query_one(f"#opt-{spec.name}")
            if isinstance(widget, Checkbox):
                options[spec.name] = common_pb2.OptionValue(flag=widget.value)
            elif isinstance(widget, Select) and spec.values:
                assert isinstance(widget.value, int)
                options[spec.name] = common_pb2.OptionValue(number=widget.value)
            elif isinstance(widget, Select):
                options[spec.name] = common_pb2.OptionValue(choice=str(widget.value))
            elif isinstance(widget, Input):
                try:
                    number = float(widget.value.strip())
                except ValueError:
                    number = float("nan")
                whole = spec.type == lobby_pb2.OPTION_TYPE_NUMBER
                if not spec.min <= number <= spec.max or (whole and number != int(number)):
                    said = (_("{option} is a whole number from {min} to {max}.") if whole
                            else _("{option} is a number from {min} to {max}."))
                    self._error(said.format(option=option_label(self.game.name, spec.name), min=f"{spec.min:g}",
                                            max=f"{spec.max:g}"), f"opt-{spec.name}")
                    return None
                if spec.type == lobby_pb2.OPTION_TYPE_NUMBER:
                    options[spec.name] = common_pb2.OptionValue(number=int(number))
                else:
                    options[spec.name] = common_pb2.OptionValue(fraction=number)
        seats = self.query_one("#seats", Select).value
        bots = self.query_one("#bots", Select).value
        assert isinstance(seats, int) and isinstance(bots, int)
        if bots >= seats:
            self._error(_("Leave a seat for yourself: at most {bots} bots at {seats} seats.").format(bots=seats - 1,
                                                                                             seats=seats), "bots")
            return None
        self._error("")
        return lobby_pb2.CreateTableRequest(
            game=self.game.name,
            name=self.query_one("#name", Input).value or self.query_one("#name", Input).placeholder,
            seats=seats,
            bots=bots,
            options=options,
            turn_seconds=turn,
            password=self.query_one("#password", Input).value,
            private=self.query_one("#private", Checkbox).value,
            bot_levels=self._chosen_levels(bots),
        )

    @on(Button.Pressed, "#create")
    async def action_create(self) -> None:
        await self.rebuilt()  # a game just picked: its fields, not the last game's, make the request
        request = self.request()
        if request is None:
            return
        try:
            table = await self.conn.create(request)
        except Exception as err:  # a refusal: say it here, keep what was typed
            if slow(err):  # it may still be made: said so, not as a refusal, which a second try would double
                self._error(_("The server is busy and has not answered yet: the table may still be created. Look "
                              "for it in the lobby's list before you create another."), "")
                return
            english = (err.details() or "") if isinstance(err, grpc.aio.AioRpcError) else str(err)
            self._error(error_text(err), self._field_of(english))  # the server's English names the field
            return
        if self.keeps:
            choices.save(self.conn.target, choices.Choices.of(request))
        await self.close((table, request.password))

    @on(Button.Pressed, "#cancel")
    async def action_cancel(self) -> None:
        await self.close(None)
