"""The help screen: the game's rules and the keys."""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from cardtui.client.footer import Footer
from cardtui.i18n import N_, _, current

KEY_ROWS: list[tuple[str, str, str]] = [
    (N_("lobby"), "`n`", N_("create a table")),
    (N_("lobby"), "`enter`", N_("sit at the selected table (a table with 🔒 asks its password)")),
    (N_("lobby"), "`s`", N_("watch the selected table")),
    (N_("lobby"), "`l`", N_("the leaderboard: each game's players and bots by rating (`i`: a player's card)")),
    (N_("lobby"), "`h`", N_("the hands of the tables that have finished: replay one, every card face up")),
    (N_("lobby"), "`t`", N_("tournaments: create one (`n`), register (`r`) or withdraw (`u`), `enter` its standings")),
    (N_("tournament"), "`p`, `w`, `s`",
     N_("sit at your table of the round, watch the table picked, start now (its owner)")),
    (N_("lobby"), "`c`, `r`, `q`", N_("close a table you created, refresh the list (it also refreshes itself), quit")),
    (N_("table"), N_("the key beside each action"),
     N_("that action; a key always means the same action at a game (`b` bets, `t` calls truco)")),
    (N_("table"), "`+` / `-`", N_("raise the amount of a bet or raise; in truco, choose the signal")),
    ("Pif Paf, Cacheta", "`←` / `→`, `d`, `k`", N_("pick a card, discard it, knock")),
    ("Pif Paf, Cacheta", "`shift+←` / `→`, `o`", N_("move the picked card, sort the hand (melds, suit, rank)")),
    ("Pif Paf, Cacheta", "`s`, `p`, `c`, `x`", N_("draw from the stock, take the pile's top, claim or cut, let it go")),
    ("Cacheta; Pif Paf", "`n`; `c` `b` `r` `f`", N_("na boa; check or call, bet, raise, fold")),
    (N_("table"), "`/`", N_("chat (enter sends, escape returns)")),
    (N_("table"), "`enter`", N_("after a hand: back to the table; after a match: play again")),
    (N_("table"), "`i`", N_("the players at the table: pick one for their card (ratings and records)")),
    (N_("table"), "`escape`", N_("leave the table (asked first in the middle of a match)")),
    (N_("watching"), "`v`", N_("where the table allows it: the hands already over, every card face up")),
    (N_("replay"), "`←` / `→`, `home` / `end`, `pgup` / `pgdn`",
     N_("a step back or on, the deal or the end, another hand")),
    (N_("no server"), "`r` / `q`", N_("try again now / quit")),
    (N_("anywhere"), "`ctrl+l`", N_("the language: English, Português (Brasil), Español")),
    (N_("anywhere"), "`?`", N_("this help; `ctrl+q` quits; `ctrl+p` opens the command palette")),
]
"""The keys table, each cell looked up in the reader's language when the help is shown."""


def keys_text() -> str:
    """The keys as a Markdown table, in the reader's language."""
    rows = [f"| {_(where)} | {_(key)} | {_(what)} |" for where, key, what in KEY_ROWS]
    keys, where, key, what = _("Keys"), _("where"), _("key"), _("what")
    head = f"## {keys}\n| {where} | {key} | {what} |\n|---|---|---|\n"
    return "\n" + head + "\n".join(rows) + "\n"


def rules_page(game: str, lang: str | None = None) -> str | None:
    """A game's rules page in the reader's language (``rules/<lang>/<game>.md``), else in English
    (``rules/<game>.md``); None if the game has none."""
    lang = lang or current()
    rules = resources.files("cardtui.client").joinpath("rules")
    tries = ([rules.joinpath(lang, f"{game}.md")] if lang != "en" else []) + [rules.joinpath(f"{game}.md")]
    for page in tries:
        try:
            return page.read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            continue
    return None


def rules_text(game: str | None) -> str:
    if game is None:
        about = _("A card room for Pif Paf, Cacheta, Truco paulista, Truco argentino and Cacho.")
        return "# cardtui\n" + about + "\n" + keys_text()
    text = rules_page(game)
    if text is None:
        text = f"# {game}\n" + _("No rules page yet.") + "\n"
    return text + keys_text()


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", N_("Close"))]

    def __init__(self, game: str | None) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(rules_text(self.game))
        yield Footer()

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)
