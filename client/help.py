"""The help screen: the game's rules and the keys."""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

KEYS = """
## Keys
| where | key | what |
|---|---|---|
| lobby | `n` | create a table |
| lobby | `enter` | sit at the selected table |
| lobby | `s` | watch the selected table |
| table | the key beside each action | that action; a key always means the same action at a game (`b` bets, `t` calls truco) |
| table | `+` / `-` | raise the amount of a bet or raise; in truco, choose the signal |
| Pif Paf, Cacheta | `←` / `→`, `d`, `k`, `s` | pick a card, discard it, knock, sort the hand |
| table | `/` | chat (enter sends, escape returns) |
| table | `escape` | leave the table |
| anywhere | `?` | this help; `ctrl+q` quits |
"""  # noqa: E501


def rules_text(game: str | None) -> str:
    if game is None:
        return "# cardtui\nA card room for Pif Paf, Cacheta, Truco paulista, Truco argentino and Cacho.\n" + KEYS
    try:
        text = resources.files("cardtui.client").joinpath(f"rules/{game}.md").read_text(encoding="utf-8")
    except FileNotFoundError:
        text = f"# {game}\nNo rules page yet.\n"
    return text + KEYS


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]

    def __init__(self, game: str | None) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(rules_text(self.game))
        yield Footer()

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)
