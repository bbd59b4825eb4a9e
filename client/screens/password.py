"""Asks a table's password before sitting down at it or watching it."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from cardtui.i18n import N_, _


class PasswordScreen(ModalScreen[str | None]):
    """One hidden line: the password. Enter goes on, escape gives up (None).

    ``problem`` is why it is asked again (the last one typed was wrong).
    """

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, table_id: str, spectate: bool, problem: str = "") -> None:
        super().__init__()
        self.table_id = table_id
        self.spectate = spectate
        self.problem = problem

    def compose(self) -> ComposeResult:
        doing = _("Type it to watch the table.") if self.spectate else _("Type it to sit at the table.")
        with Vertical(id="password-dialog"):
            yield Label(_("Table {table} has a password").format(table=self.table_id), id="password-title")
            yield Static(Text(doing, style="dim"))
            yield Input(placeholder=_("password"), password=True, id="password-input", max_length=128)
            yield Static(Text(self.problem, style="bold red"), id="password-error")
            with Horizontal(id="password-buttons"):
                yield Button(_("Sit down") if not self.spectate else _("Watch"), variant="primary", id="password-go")
                yield Button(_("Cancel"), id="password-cancel")

    def on_mount(self) -> None:
        self.query_one("#password-error", Static).display = bool(self.problem)
        self.query_one("#password-input", Input).focus()

    @on(Input.Submitted, "#password-input")
    @on(Button.Pressed, "#password-go")
    def _go(self) -> None:
        password = self.query_one("#password-input", Input).value
        if not password:
            error = self.query_one("#password-error", Static)
            error.update(Text(_("This table needs its password; escape to give up."), style="bold red"))
            error.display = True
            return
        self.dismiss(password)

    @on(Button.Pressed, "#password-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
