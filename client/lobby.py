"""The lobby: the server's tables, and the dialog that creates one."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, DataTable, Footer, Header, Input, Label, Select, Static

from cardtui.client.connection import error_text
from cardtui.client.help import HelpScreen

if TYPE_CHECKING:
    from cardtui.client.app import CardApp
    from cardtui.v1 import common_pb2, lobby_pb2


def seats_text(table: common_pb2.TableSummary) -> str:
    taken = sum(1 for s in table.seats if s.taken)
    bots = sum(1 for s in table.seats if s.bot)
    return f"{taken}/{len(table.seats)}" + (f" ({bots} bots)" if bots else "")


class LobbyScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "new", "New table"),
        Binding("enter", "join", "Sit"),
        Binding("s", "spectate", "Watch"),
        Binding("r", "refresh", "Refresh"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.info: lobby_pb2.ServerInfo | None = None
        self.rows: list[str] = []

    @property
    def card_app(self) -> CardApp:
        return cast("CardApp", self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="server-line")
        table: DataTable[Any] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        table.add_columns("Table", "Game", "Name", "Seats", "Watching", "Status")
        yield table
        yield Static("No tables yet: press n to create one.", id="empty-hint")
        yield Footer()

    async def on_mount(self) -> None:
        self.query_one("#tables", DataTable).focus()
        await self.action_refresh()
        self.set_interval(2.0, self.action_refresh)

    async def action_refresh(self) -> None:
        conn = self.card_app.conn
        if conn is None:
            return
        try:
            if self.info is None:
                self.info = await conn.info()
            tables = await conn.tables()
        except Exception as err:
            self.query_one("#server-line", Static).update(Text(f"{conn.target}: {error_text(err)}", style="red"))
            return
        games = ", ".join(g.title for g in self.info.games)
        self.query_one("#server-line", Static).update(
            Text(f"{conn.target} · cardtui {self.info.version} · games: {games}")
        )
        grid = self.query_one("#tables", DataTable)
        keep = grid.cursor_row
        grid.clear()
        self.rows = []
        titles = {g.name: g.title for g in self.info.games}
        for t in tables:
            grid.add_row(
                Text(t.id), Text(titles.get(t.game, t.game)), Text(t.name), Text(seats_text(t)),
                Text(str(t.spectators)), Text(t.status + (" 🔒" if t.has_password else "")),
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

    async def action_join(self) -> None:
        table_id = self._selected()
        if table_id:
            await self.card_app.open_table(table_id)

    async def action_spectate(self) -> None:
        table_id = self._selected()
        if table_id:
            await self.card_app.open_table(table_id, spectate=True)

    @on(DataTable.RowSelected)
    async def _row_selected(self) -> None:
        await self.action_join()

    def action_new(self) -> None:
        if self.info is None:
            self.notify("Still talking to the server…")
            return
        self.app.push_screen(CreateTableScreen(self.info), self._create)

    @work(exclusive=True, exit_on_error=False)
    async def _create(self, fields: dict[str, Any] | None) -> None:
        conn = self.card_app.conn
        if not fields or conn is None:
            return
        try:
            table = await conn.create(**fields)
        except Exception as err:
            self.notify(error_text(err), title="Cannot create the table", severity="error")
            return
        await self.action_refresh()
        await self.card_app.open_table(table.id, password=fields.get("password", ""))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(None))


class CreateTableScreen(ModalScreen[dict[str, Any] | None]):
    """Game, seats, bots, options: what a new table needs."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "create", "Create")]
    SHORT = 36
    """Below this many rows (a phone on its side, an 80x24 terminal) the fields lose their borders,
    so the whole dialog, its Create button included, stays in view and can be tapped."""

    def __init__(self, info: lobby_pb2.ServerInfo) -> None:
        super().__init__()
        self.info = info
        self.games = {g.name: g for g in info.games}

    def compose(self) -> ComposeResult:
        first = self.info.games[0]
        with Vertical(id="create-dialog"):
            yield Label("New table", id="create-title")
            with Grid(id="create-grid"):
                yield Label("Game")
                yield Select([(g.title, g.name) for g in self.info.games], value=first.name,
                             allow_blank=False, id="game")
                yield Label("Name")
                yield Input(placeholder=f"{first.title} table", id="name")
                yield Label("Players")
                yield Input(str(first.max_players), id="seats", type="integer")
                yield Label("Bots")
                yield Input(str(first.max_players - 1), id="bots", type="integer")
                yield Label("Turn timer (s)")
                yield Input("30", id="turn", type="integer")
                yield Label("Options (JSON)")
                yield Input(first.options_json, id="options")
                yield Label("Password")
                yield Input(placeholder="none", password=True, id="password")
                yield Label("Private")
                yield Checkbox("no spectators", id="private")
            yield Static("", id="create-error")
            with Horizontal(id="create-buttons"):
                yield Button("Create", variant="primary", id="create")
                yield Button("Cancel", id="cancel")
            yield Footer()

    def on_mount(self) -> None:
        self._fit(self.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        short = height < self.SHORT
        self.set_class(short, "-short")
        for widget in self.query("Input, Select, Button, Checkbox"):
            widget.compact = short  # type: ignore[attr-defined]

    @on(Select.Changed, "#game")
    def _game_changed(self, event: Select.Changed) -> None:
        g = self.games.get(str(event.value))
        if g is None:
            return
        self.query_one("#options", Input).value = g.options_json
        self.query_one("#seats", Input).value = str(g.max_players)
        self.query_one("#bots", Input).value = str(g.max_players - 1)
        self.query_one("#name", Input).placeholder = f"{g.title} table"

    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        def number(widget_id: str) -> int:
            text = self.query_one(f"#{widget_id}", Input).value.strip() or "0"
            return int(text)

        try:
            fields = {
                "game": str(self.query_one("#game", Select).value),
                "name": self.query_one("#name", Input).value,
                "seats": number("seats"),
                "bots": number("bots"),
                "turn_seconds": number("turn"),
                "options_json": self.query_one("#options", Input).value,
                "password": self.query_one("#password", Input).value,
                "private": self.query_one("#private", Checkbox).value,
            }
            json.loads(fields["options_json"] or "{}")
        except ValueError:
            self.query_one("#create-error", Static).update(
                Text("Players, bots and the timer are whole numbers; options are JSON.", style="red")
            )
            return
        self.dismiss(fields)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
