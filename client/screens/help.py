"""The help screen: the game's rules and the keys."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from cardtui.client.footer import Footer
from cardtui.i18n import N_, _, current


@dataclass(frozen=True)
class KeyRow:
    """A row of the keys table: where, the keys as shown, what they do, and what each backticked
    key runs (a binding's action, or ``game:<kind>`` for a game's action), so a test holds the
    table and the README to the bindings."""

    where: str
    keys: str
    what: str
    actions: tuple[str, ...] = ()
    games_binding: str = ""
    """For a row of some games' keys: the action whose games it names (``hint``). Its place is then every
    known game whose board binds that action, by title (``place``), so the row names whichever games have it
    and none that has gone; ``where`` is left empty."""


def games_binding(action: str) -> tuple[str, ...]:
    """The titles of the games this client knows whose board binds ``action``, in the registry's order."""
    from cardtui.client import gamebook

    return tuple(game.title for game in gamebook.known().values()
                 if any(isinstance(b, Binding) and b.action == action for b in game.board().BINDINGS))


def place(row: KeyRow) -> str:
    """Where ``row``'s keys work, as the table's first cell says it (before it is looked up in the reader's
    language: a game's title is the same in every language)."""
    return ", ".join(games_binding(row.games_binding)) if row.games_binding else row.where


KEY_ROWS: list[KeyRow] = [
    KeyRow(N_("lobby"), "`n`", N_("create a table"), ("new",)),
    KeyRow(N_("lobby"), "`enter`", N_("sit at the selected table (a table with 🔒 asks its password)"), ("join",)),
    KeyRow(N_("lobby"), "`s`", N_("watch the selected table"), ("spectate",)),
    KeyRow(N_("lobby"), "`l`", N_("the leaderboard: each game's players and bots by rating (`i`: a player's card)"),
           ("leaderboard",)),
    KeyRow(N_("lobby"), "`h`", N_("the hands of the tables that have finished: replay one, every card face up"),
           ("history",)),
    KeyRow(N_("lobby"), "`t`",
           N_("tournaments: create one (`n`), register (`r`) or withdraw (`u`), `enter` its standings"),
           ("tournaments",)),
    KeyRow(N_("tournament"), "`p`, `w`, `s`",
           N_("sit at your table of the round, watch the table picked, start now (its owner)"),
           ("sit", "watch", "start")),
    KeyRow(N_("lobby"), "`c`", N_("close a table you created (asked first)"), ("close",)),
    KeyRow(N_("lobby"), "`r`, `q`", N_("refresh the list (it also refreshes itself), quit"), ("refresh", "app.quit")),
    KeyRow(N_("lobby"), "`g`", N_("an invite: to the table you created under the cursor, else to the room (its link, "
                                 "the terminal's command, a code, a QR code)"), ("invite",)),
    KeyRow(N_("lobby"), "`j`", N_("open a friend's invite: type its code or its link"), ("code",)),
    KeyRow(N_("table"), N_("the key beside each action"),
           N_("that action; a key always means the same action at a game (`b` bets, `t` calls truco)")),
    KeyRow(N_("table"), "`+` / `-`", N_("raise the amount of a bet or raise; in truco, choose the signal"),
           ("adjust(1)", "adjust(-1)")),
    KeyRow("Pif Paf, Cacheta", "`←` / `→`, `d`, `k`", N_("pick a card, discard it, knock"),
           ("pick(-1)", "pick(1)", "discard", "knock")),
    KeyRow("Pif Paf, Cacheta", "`shift+←` / `shift+→`, `o`",
           N_("move the picked card, sort the hand (melds, suit, rank)"),
           ("move(-1)", "move(1)", "sort")),
    KeyRow("Pif Paf, Cacheta", "`s`, `p`, `c`, `x`",
           N_("draw from the stock, take the pile's top, claim or cut, let it go"),
           ("game:draw:stock", "game:draw:pile", "game:claim", "game:pass")),
    KeyRow("", "`h`", N_("meld hint: the melds the picked card joins or would complete, from your own cards"),
           ("hint",), games_binding="hint"),
    KeyRow("Cacheta; Pif Paf", "`n`; `c` `b` `r` `f`", N_("na boa; check or call, bet, raise, fold"),
           ("game:declare", "game:check", "game:bet", "game:raise", "game:fold")),
    KeyRow(N_("table"), "`/`", N_("chat (enter sends, escape returns to the table)"), ("chat",)),
    KeyRow(N_("table"), "`enter`", N_("after a hand: back to the table; after a match: play again, the same seats"),
           ("go_on",)),
    KeyRow(N_("table"), "`w`", N_("after a match: play again with the seats swapped (partners changed in team games)"),
           ("swap",)),
    KeyRow(N_("table"), "`g`", N_("invite friends to this table (its owner may put in a key to its password)"),
           ("invite",)),
    KeyRow(N_("table"), "`!`", N_("quick phrases: pick one by its number; each reader sees it in their language"),
           ("phrases",)),
    KeyRow(N_("table"), "`i`", N_("the players at the table: pick one for their card (ratings and records)"),
           ("players",)),
    KeyRow(N_("table"), "`escape`", N_("leave the table (asked first in the middle of a match)"), ("leave",)),
    KeyRow(N_("watching"), "`v`", N_("where the table allows it: the hands already over, every card face up"),
           ("last_hand",)),
    KeyRow(N_("replay"), "`←` / `→`, `home` / `end`, `pgup` / `pgdn`",
           N_("a step back or on, the deal or the end, another hand"),
           ("step(-1)", "step(1)", "to_start", "to_end", "hand(-1)", "hand(1)")),
    KeyRow(N_("no server"), "`r` / `q`", N_("try again now / quit"), ("retry", "quit")),
    KeyRow(N_("anywhere"), "`ctrl+g`", N_("the bell when it becomes your turn, on or off (off at first; kept)"),
           ("toggle_bell",)),
    KeyRow(N_("anywhere"), "`ctrl+l`", N_("the language: English, Português (Brasil), Español"), ("language",)),
    KeyRow(N_("anywhere"), "`?`", N_("this help; `ctrl+q` quits; `ctrl+p` opens the command palette"), ("help",)),
]
"""The keys table, each cell looked up in the reader's language when the help is shown; the
README's key table is this one, in English (a test says so)."""


KEY_LINK = "key:"
"""A link in the keys table that runs its key's action on the screen the help was opened from."""


def runs(row: KeyRow, where: str | None) -> str | None:
    """The action a tap on ``row``'s words runs, opened from the screen ``where`` (``lobby``, ``table``): a
    row of that screen with one action of its own (not a game's, nor one taking a value). A phone has no
    key for what the footer leaves out for room (the lobby's invite and code, the table's players)."""
    if where is None or row.where != where or len(row.actions) != 1:
        return None
    action = row.actions[0]
    return None if ":" in action or "(" in action or action.startswith("app.") else action


def keys_text(where: str | None = None) -> str:
    """The keys as a Markdown table, in the reader's language; opened from ``where``, the words of that
    screen's keys are links that run them (``runs``)."""
    def said(row: KeyRow) -> str:
        action = runs(row, where)
        return _(row.what) if action is None else f"[{_(row.what)}]({KEY_LINK}{action})"

    rows = [f"| {_(place(row))} | {_(row.keys)} | {said(row)} |" for row in KEY_ROWS]
    title, at, key, does = _("Keys"), _("where"), _("key"), _("what")
    head = f"## {title}\n| {at} | {key} | {does} |\n|---|---|---|\n"
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


def rules_text(game: str | None, table: str = "", where: str | None = None) -> str:
    """The game's rules, then ``table`` (what this table's options make the game), then the keys (those of
    the screen ``where`` tappable)."""
    if game is None:
        from cardtui.client import gamebook

        games = ", ".join(game.title for game in gamebook.known().values())  # every game registered, none left out
        about = _("A card room for {games}.").format(games=games)
        return "# cardtui\n" + about + "\n" + keys_text(where)
    text = rules_page(game)
    if text is None:
        text = f"# {game}\n" + _("No rules page yet.") + "\n"
    return text + table + keys_text(where)


class HelpScreen(ModalScreen[None]):
    """The rules and the keys. Opened from ``where`` (the lobby, a table), a tap on the words of one of that
    screen's keys closes the help and runs the key on that screen (``runs``), if it may run now."""

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", N_("Close"))]

    def __init__(self, game: str | None, table: str = "", where: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.table = table
        """A Markdown section on the table at hand (its options), shown after the rules."""
        self.where = where

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(rules_text(self.game, self.table, self.where), open_links=False)
        yield Footer()

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        if not event.href.startswith(KEY_LINK):
            return
        event.stop()
        action, below = event.href.removeprefix(KEY_LINK), self.app.screen_stack[-2]
        self.dismiss(None)
        if below.check_action(action, ()) is not False:
            self.app.call_later(below.run_action, action)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)
