"""A question before something that cannot be taken back: leaving a match, closing a table.

One dialog for every such question: a title, a line saying what follows, and two answers, the
safe one first and focused (escape or ``n``), the other on ``y``. It answers True for ``y``. The
words come first, each as tall as it wraps to, and the buttons under them (app.tcss).
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from cardtui.i18n import N_


class ConfirmScreen(ModalScreen[bool]):
    """Asks first; ``title``, ``detail`` and the two answers come already in the reader's language."""

    BINDINGS = [Binding("escape,n", "stay", N_("No")), Binding("y", "go", N_("Yes"))]

    def __init__(self, title: str, detail: str, stay: str, go: str) -> None:
        super().__init__()
        self.title_text, self.detail, self.stay, self.go = title, detail, stay, go

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(Text(self.title_text), id="confirm-title")  # a Static wraps where a Label would cut
            yield Static(Text(self.detail, style="dim"), id="confirm-detail")
            with Horizontal(id="confirm-buttons"):
                yield Button(self.stay, variant="primary", id="confirm-stay")
                yield Button(self.go, variant="error", id="confirm-go")

    def on_mount(self) -> None:
        self.query_one("#confirm-stay", Button).focus()

    @on(Button.Pressed, "#confirm-stay")
    def action_stay(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#confirm-go")
    def action_go(self) -> None:
        self.dismiss(True)
