"""Quick phrases at a table: a short list, each sent with one key once the list is open (``!``).

A phrase goes on the wire as its number (table.proto's ``Phrase``), never as words, so each reader
sees it in their own language; it follows the chat's rules (at truco paulista, players keep silent
during a hand). None of them says anything about anyone's cards: no phrase can carry a signal.
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
from cardtui.i18n import N_, _
from cardtui.v1 import table_pb2

P = table_pb2
PHRASES: dict[int, str] = {
    P.PHRASE_GOOD_GAME: N_("Good game"),
    P.PHRASE_TRUCO: "Truco!",  # the game's own word, in every language
    P.PHRASE_WELL_PLAYED: N_("Well played"),
    P.PHRASE_HURRY_UP: N_("Hurry up"),
    P.PHRASE_OOPS: N_("Oops"),
}
"""Each phrase's words, looked up in the reader's language when shown."""
TRUCO_ONLY = frozenset({P.PHRASE_TRUCO})


def phrase_text(phrase: int) -> str:
    """A phrase in the reader's language (its number, if this client does not know it)."""
    words = PHRASES.get(phrase)
    return _(words) if words is not None else f"#{phrase}"


def offered(game: str) -> list[int]:
    """The phrases a table offers, in the order of their keys: "Truco!" only where truco is played."""
    return [p for p in PHRASES if p not in TRUCO_ONLY or game.startswith("truco")]


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
