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
| lobby | `enter` | sit at the selected table (a table with 🔒 asks its password) |
| lobby | `s` | watch the selected table |
| lobby | `l` | the leaderboard: each game's players and bots by rating (`i`: a player's card) |
| lobby | `h` | the hands of the tables that have finished: replay one, every card face up |
| table | the key beside each action | that action; a key always means the same action at a game """ """\
(`b` bets, `t` calls truco) |
| table | `+` / `-` | raise the amount of a bet or raise; in truco, choose the signal |
| Pif Paf, Cacheta | `←` / `→`, `d`, `k` | pick a card, discard it, knock |
| Pif Paf, Cacheta | `shift+←` / `→`, `o` | move the picked card, sort the hand (melds, suit, rank) |
| Pif Paf, Cacheta | `s`, `p`, `c`, `x` | draw from the stock, take the pile's top, claim or cut, let it go |
| Cacheta; Pif Paf | `n`; `c` `b` `r` `f` | na boa; check or call, bet, raise, fold |
| table | `/` | chat (enter sends, escape returns) |
| table | `enter` | after a hand: back to the table; after a match: play again |
| table | `i` | the players at the table: pick one for their card (ratings and records) |
| table | `escape` | leave the table (asked first in the middle of a match) |
| watching | `v` | where the table allows it: the hands already over, every card face up |
| replay | `←` / `→`, `home` / `end`, `pgup` / `pgdn` | a step back or on, the deal or the end, another hand |
| no server | `r` / `q` | try again now / quit |
| anywhere | `?` | this help; `ctrl+q` quits |
"""


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
