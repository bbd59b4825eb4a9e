"""Asks a guest's name when none was given (browser sessions start without one)."""

from __future__ import annotations

import unicodedata

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Static

from cardtui.client.footer import Footer
from cardtui.client.textual_internals import Header
from cardtui.i18n import N_, _

MAX_NAME = 24
"""The server's limit too: longer names are refused there with a sentence."""


def plain_name(typed: str) -> str:
    """What a typed name becomes: control characters out, runs of spaces folded."""
    kept = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in typed)
    return " ".join(kept.split())


def name_problem(name: str) -> str | None:
    """A sentence on what is wrong with ``name`` (already made plain), or None."""
    if not name:
        return _("A name needs at least one visible character.")
    if len(name) > MAX_NAME:
        return _("A name may be at most {most} characters long.").format(most=MAX_NAME)
    return None


class NameScreen(Screen[str | None]):
    """One line: the name to sit down with. Enter (or the button) goes on; ctrl+q leaves."""

    BINDINGS = [Binding("ctrl+q", "app.quit", N_("Quit"))]

    def __init__(self, problem: str = "") -> None:
        super().__init__()
        self.problem = problem
        """Why the name given before will not do (the server's sentence), shown at once."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="name-dialog"):
            yield Label(_("Your name at the tables"), id="name-title")
            yield Input(placeholder=_("type it here"), id="name-input", max_length=MAX_NAME)
            yield Static("", id="name-error")
            with Horizontal(id="name-buttons"):
                yield Button(_("Enter the room"), variant="primary", id="name-go")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#name-input", Input).focus()
        if self.problem:
            self.query_one("#name-error", Static).update(Text(self.problem, style="red"))

    @on(Input.Submitted, "#name-input")
    @on(Button.Pressed, "#name-go")
    def _go(self) -> None:
        name = plain_name(self.query_one("#name-input", Input).value)
        problem = name_problem(name)
        if problem is not None:
            self.query_one("#name-error", Static).update(Text(problem, style="red"))
            return
        self.dismiss(name)
