"""The quick phrases' list at a table (``!``): a number or a click sends one, escape none.

What each phrase says, and which a table offers, is ``client.phrases``.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from cardtui.client.footer import Footer
from cardtui.client.phrases import offered, phrase_text
from cardtui.i18n import N_, _


class PhraseScreen(ModalScreen[int | None]):
    """The quick phrases, numbered: a number (or a click) sends one, escape sends none."""

    CSS_PATH = "invite.tcss"
    BINDINGS = [Binding("escape,exclamation_mark", "dismiss_none", N_("Cancel"))]

    def __init__(self, game: str) -> None:
        super().__init__()
        self.phrases = offered(game)

    def compose(self) -> ComposeResult:
        with Vertical(id="phrase-dialog"):
            yield Label(_("Quick phrases"), id="phrase-title")
            for n, phrase in enumerate(self.phrases, start=1):
                yield Static(Text.assemble((f" {n} ", "bold reverse"), " ", phrase_text(phrase)), id=f"phrase-{n}",
                             classes="phrase")
        yield Footer()

    def on_key(self, event: events.Key) -> None:
        key = event.key
        if key.isdigit() and 1 <= int(key) <= len(self.phrases):
            event.stop()
            self.dismiss(self.phrases[int(key) - 1])

    def on_click(self, event: events.Click) -> None:
        ident = (event.widget.id if event.widget is not None else "") or ""
        if ident.startswith("phrase-") and ident[7:].isdigit():
            self.dismiss(self.phrases[int(ident[7:]) - 1])

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
