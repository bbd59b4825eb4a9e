"""The lobby: the server's tables, and the dialog that creates one."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Header, Input, Label, Select, Static

from cardtui.client.connection import Connection, error_text
from cardtui.client.help import HelpScreen
from cardtui.v1 import common_pb2, lobby_pb2

STATUS = {
    common_pb2.TABLE_STATUS_WAITING: "waiting",
    common_pb2.TABLE_STATUS_PLAYING: "playing",
    common_pb2.TABLE_STATUS_FINISHED: "finished",
}


def seats_text(table: common_pb2.TableSummary) -> str:
    taken = sum(1 for s in table.seats if s.taken)
    bots = sum(1 for s in table.seats if s.bot)
    return f"{taken}/{len(table.seats)}" + (f" ({bots} bots)" if bots else "")


class OpenTable(Message):
    """Take a seat at (or watch) a table: the app opens it."""

    def __init__(self, table_id: str, spectate: bool = False, password: str = "") -> None:
        super().__init__()
        self.table_id = table_id
        self.spectate = spectate
        self.password = password


class LobbyScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "new", "New table"),
        Binding("enter", "join", "Sit"),
        Binding("s", "spectate", "Watch"),
        Binding("c", "close", "Close table"),
        Binding("r", "refresh", "Refresh"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, conn: Connection) -> None:
        super().__init__()
        self.conn = conn
        self.info: lobby_pb2.ServerInfo | None = None
        self.rows: list[str] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="server-line")
        table: DataTable[Any] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        table.add_columns("Table", "Game", "Name", "Seats", "Watching", "Status")
        yield table
        yield Static("No tables yet: press n to create one.", id="empty-hint")
        yield Static("Finished tables (their hands are kept)", id="finished-title")
        done: DataTable[Any] = DataTable(id="finished", cursor_type="row", zebra_stripes=True)
        done.add_columns("Table", "Game", "Name", "Seats")
        yield done
        yield Footer()

    async def on_mount(self) -> None:
        self.query_one("#tables", DataTable).focus()
        await self.action_refresh()
        self.set_interval(2.0, self.action_refresh)

    async def action_refresh(self) -> None:
        try:
            if self.info is None:
                self.info = await self.conn.info()
            tables = await self.conn.tables(include_finished=True)
        except Exception as err:
            self.query_one("#server-line", Static).update(Text(f"{self.conn.target}: {error_text(err)}", style="red"))
            return
        games = ", ".join(g.title for g in self.info.games)
        self.query_one("#server-line", Static).update(
            Text(f"{self.conn.target} · cardtui {self.info.version} · games: {games}")
        )
        grid = self.query_one("#tables", DataTable)
        keep = grid.cursor_row
        grid.clear()
        self.rows = []
        titles = {g.name: g.title for g in self.info.games}
        finished = [t for t in tables if t.status == common_pb2.TABLE_STATUS_FINISHED]
        done = self.query_one("#finished", DataTable)
        done.clear()
        for t in finished:
            done.add_row(Text(t.id, style="dim"), Text(titles.get(t.game, t.game), style="dim"),
                         Text(t.name, style="dim"), Text(str(len(t.seats)), style="dim"))
        done.display = self.query_one("#finished-title", Static).display = bool(finished)
        for t in tables:
            if t.status == common_pb2.TABLE_STATUS_FINISHED:
                continue
            grid.add_row(
                Text(t.id), Text(titles.get(t.game, t.game)), Text(t.name), Text(seats_text(t)),
                Text(str(t.spectators)), Text(STATUS.get(t.status, "") + (" 🔒" if t.has_password else "")),
            )
            self.rows.append(t.id)
        if self.rows:
            grid.move_cursor(row=min(keep, len(self.rows) - 1))
        self.query_one("#empty-hint", Static).display = not self.rows

    def _selected(self) -> str | None:
        grid = self.query_one("#tables", DataTable)
        if not self.rows:
            self.notify("There is no table to choose yet: press n to create one.")
            return None
        return self.rows[min(grid.cursor_row, len(self.rows) - 1)]

    def action_join(self) -> None:
        table_id = self._selected()
        if table_id:
            self.post_message(OpenTable(table_id))

    def action_spectate(self) -> None:
        table_id = self._selected()
        if table_id:
            self.post_message(OpenTable(table_id, spectate=True))

    @on(DataTable.RowSelected, "#tables")
    def _row_selected(self) -> None:
        self.action_join()

    async def action_close(self) -> None:
        table_id = self._selected()
        if table_id is None:
            return
        if table_id not in self.conn.owned:
            self.notify("Only the table's owner (who created it) may close it.", severity="warning")
            return
        try:
            await self.conn.close_table(table_id)
        except Exception as err:
            self.notify(error_text(err), title="Cannot close the table", severity="error")
            return
        await self.action_refresh()

    def action_new(self) -> None:
        if self.info is None:
            self.notify("Still talking to the server…")
            return
        self.app.push_screen(CreateTableScreen(self.info, self.conn), self._created)

    def _created(self, created: tuple[common_pb2.TableSummary, str] | None) -> None:
        if created is not None:
            table, password = created
            self.post_message(OpenTable(table.id, password=password))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(None))


class CreateTableScreen(ModalScreen[tuple[common_pb2.TableSummary, str] | None]):
    """Game, seats, bots and the game's options, as the server describes them.

    The form is built from ``GameInfo``: a yes/no option is a checkbox, a choice a list, a
    number a field with its range. A refusal keeps the dialog open with the sentence.
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "create", "Create")]
    SHORT = 36
    """Below this many rows (a phone on its side, an 80x24 terminal) the fields lose their borders,
    so the whole dialog, its Create button included, stays in view and can be tapped."""

    def __init__(self, info: lobby_pb2.ServerInfo, conn: Connection) -> None:
        super().__init__()
        self.info = info
        self.conn = conn
        self.games = {g.name: g for g in info.games}
        self.game = info.games[0]

    def compose(self) -> ComposeResult:
        first = self.game
        with Vertical(id="create-dialog"):
            yield Label("New table", id="create-title")
            with VerticalScroll(id="create-scroll"):
                with Grid(id="create-grid"):
                    yield Label("Game")
                    yield Select([(g.title, g.name) for g in self.info.games], value=first.name,
                                 allow_blank=False, id="game")
                    yield Label("Name")
                    yield Input(placeholder=f"{first.title} table", id="name", max_length=24)
                    yield Label("Players")
                    yield Select(self._counts(first), value=first.player_counts[-1], allow_blank=False, id="seats")
                    yield Label("Bots")
                    yield Select(self._bots(first.player_counts[-1]), value=first.player_counts[-1] - 1,
                                 allow_blank=False, id="bots")
                    yield Label("Bot level")
                    yield Select(self._levels(first), value=self._level(first), allow_blank=False, id="level")
                    yield Label("Turn timer (s)")
                    yield Input("30", id="turn", type="integer", placeholder="5 to 3600")
                    yield Label("Password")
                    yield Input(placeholder="none", password=True, id="password")
                    yield Label("Private")
                    yield Checkbox("no spectators", id="private")
                yield Static("Options", id="options-title")
                yield Vertical(id="options")
            yield Static("", id="create-error")
            with Horizontal(id="create-buttons"):
                yield Button("Create", variant="primary", id="create")
                yield Button("Cancel", id="cancel")
            yield Footer()

    async def on_mount(self) -> None:
        await self._build_options()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        short = height < self.SHORT
        self.set_class(short, "-short")
        for widget in self.query("Input, Select, Button, Checkbox"):
            widget.compact = short  # type: ignore[attr-defined]

    @staticmethod
    def _counts(game: lobby_pb2.GameInfo) -> list[tuple[str, int]]:
        return [(str(n), n) for n in game.player_counts]

    @staticmethod
    def _levels(game: lobby_pb2.GameInfo) -> list[tuple[str, str]]:
        return [(level, level) for level in game.bot_levels] or [("default", "")]

    @staticmethod
    def _level(game: lobby_pb2.GameInfo) -> str:
        levels = list(game.bot_levels)
        return "normal" if "normal" in levels else (levels[0] if levels else "")

    @staticmethod
    def _bots(players: int) -> list[tuple[str, int]]:
        return [(str(n), n) for n in range(players)]

    async def _build_options(self) -> None:
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        rows: list[Any] = []
        for spec in self.game.options:
            rows.append(Label(Text(spec.name.replace("_", " "), style="bold"), classes="opt-name"))
            if spec.type == lobby_pb2.OPTION_TYPE_FLAG:
                rows.append(Checkbox(spec.help, value=spec.default.flag, id=f"opt-{spec.name}"))
                continue
            rows.append(Static(Text(spec.help, style="dim"), classes="opt-help"))
            if spec.type == lobby_pb2.OPTION_TYPE_CHOICE:
                rows.append(Select([(c, c) for c in spec.choices], value=spec.default.choice, allow_blank=False,
                                   id=f"opt-{spec.name}"))
            else:
                whole = spec.type == lobby_pb2.OPTION_TYPE_NUMBER
                default = spec.default.number if whole else spec.default.fraction
                rows.append(Input(f"{default:g}", id=f"opt-{spec.name}", type="integer" if whole else "number",
                                  placeholder=f"{spec.min:g} to {spec.max:g}"))
        await box.mount_all(rows)
        self._fit(self.size.height)

    @on(Select.Changed, "#game")
    async def _game_changed(self, event: Select.Changed) -> None:
        g = self.games.get(str(event.value))
        if g is None or g is self.game:
            return
        self.game = g
        seats = self.query_one("#seats", Select)
        seats.set_options(self._counts(g))
        seats.value = g.player_counts[-1]
        self.query_one("#name", Input).placeholder = f"{g.title} table"
        level = self.query_one("#level", Select)
        level.set_options(self._levels(g))
        level.value = self._level(g)
        await self._build_options()

    @on(Select.Changed, "#seats")
    def _seats_changed(self, event: Select.Changed) -> None:
        if not isinstance(event.value, int):
            return
        bots = self.query_one("#bots", Select)
        keep = bots.value if isinstance(bots.value, int) and bots.value < event.value else event.value - 1
        bots.set_options(self._bots(event.value))
        bots.value = keep

    def _error(self, sentence: str) -> None:
        self.query_one("#create-error", Static).update(Text(sentence, style="bold red"))

    def request(self) -> lobby_pb2.CreateTableRequest | None:
        """The request the form describes, or None with the reason shown."""
        turn_text = self.query_one("#turn", Input).value.strip()
        turn = int(turn_text) if turn_text.lstrip("-").isdigit() else -1
        if not 5 <= turn <= 3600:
            self._error("The turn timer is a number of seconds from 5 to 3600.")
            return None
        options: dict[str, common_pb2.OptionValue] = {}
        for spec in self.game.options:
            widget = self.query_one(f"#opt-{spec.name}")
            if isinstance(widget, Checkbox):
                options[spec.name] = common_pb2.OptionValue(flag=widget.value)
            elif isinstance(widget, Select):
                options[spec.name] = common_pb2.OptionValue(choice=str(widget.value))
            elif isinstance(widget, Input):
                try:
                    number = float(widget.value.strip())
                except ValueError:
                    number = float("nan")
                if not spec.min <= number <= spec.max:
                    self._error(f"{spec.name.replace('_', ' ')} is a number from {spec.min:g} to {spec.max:g}.")
                    widget.focus()
                    return None
                if spec.type == lobby_pb2.OPTION_TYPE_NUMBER:
                    options[spec.name] = common_pb2.OptionValue(number=int(number))
                else:
                    options[spec.name] = common_pb2.OptionValue(fraction=number)
        seats = self.query_one("#seats", Select).value
        bots = self.query_one("#bots", Select).value
        level = self.query_one("#level", Select).value
        assert isinstance(seats, int) and isinstance(bots, int)
        return lobby_pb2.CreateTableRequest(
            game=self.game.name,
            name=self.query_one("#name", Input).value,
            seats=seats,
            bots=bots,
            options=options,
            turn_seconds=turn,
            password=self.query_one("#password", Input).value,
            private=self.query_one("#private", Checkbox).value,
            bot_levels=[level] if isinstance(level, str) and level else [],
        )

    @on(Button.Pressed, "#create")
    async def action_create(self) -> None:
        request = self.request()
        if request is None:
            return
        try:
            table = await self.conn.create(request)
        except Exception as err:  # a refusal: say it here, keep what was typed
            self._error(error_text(err))
            return
        self.dismiss((table, request.password))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
