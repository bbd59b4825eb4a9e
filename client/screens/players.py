"""Players who are remembered: the leaderboard, a player's card, and the seats at a table to pick from.

Everything shown comes from the server (``Lobby.Leaderboard``, ``Lobby.PlayerCard``): ratings
are openskill's as the server keeps them; the client does no sums. Names are plain text.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any, Literal, Protocol

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, OptionList, Static, Tab, Tabs
from textual.widgets.option_list import Option

from cardtui.client.connection import error_text
from cardtui.client.footer import Footer
from cardtui.client.models import TableModel
from cardtui.client.screens.polling import PollingScreen
from cardtui.client.textual_internals import Header
from cardtui.i18n import N_, _
from cardtui.v1 import common_pb2, lobby_pb2, players_pb2

KINDS = {
    players_pb2.PLAYER_KIND_PERSON: N_("remembered player"),
    players_pb2.PLAYER_KIND_BOT: N_("bot level"),
    players_pb2.PLAYER_KIND_GUEST: N_("guest"),
}


REFRESH_SECONDS = 5.0


class RecordsSource(Protocol):
    """Where the screens ask (a ``Connection``; tests give fixed answers)."""

    async def leaderboard(self, game: str) -> players_pb2.LeaderboardResponse: ...

    async def player_card(self, name: str = "", table_id: str = "", seat: int | None = None
                          ) -> players_pb2.PlayerCardResponse: ...

    async def info(self) -> lobby_pb2.ServerInfo: ...


def rating_text(rating: players_pb2.Rating) -> str:
    """The rating the leaderboard ranks by (the library's conservative one), to a tenth."""
    return f"{rating.ordinal:.1f}"


Figure = Literal["biggest_pot", "truco_calls_won"]
FIGURES: tuple[tuple[Figure, str], ...] = (("biggest_pot", N_("Best pot")), ("truco_calls_won", N_("Trucos won")))
"""What some games' records carry beyond matches and hands: (field, heading)."""


def figures(rows: Sequence[players_pb2.Stats]) -> list[tuple[Figure, str]]:
    """The figures any of these records carries, in a fixed order."""
    return [(field, heading) for field, heading in FIGURES if any(s.HasField(field) for s in rows)]


def stat_cells(stats: players_pb2.Stats, shown: Sequence[tuple[Figure, str]]) -> list[Text]:
    cells = [Text(str(n), justify="right") for n in (stats.matches, stats.wins, stats.hands)]
    for field, _heading in shown:
        if stats.HasField(field):
            cells.append(Text(str(getattr(stats, field)), justify="right"))
        else:
            cells.append(Text("—", style="dim", justify="right"))
    return cells


def heading(words: str, under: int) -> Text:
    """A column's heading over values ``under`` cells wide: on two lines where it is wider than
    them and has a space to break at ("Pozo más / grande"), so that a column is about as wide as
    its figures and a card or a leaderboard fits at 80 columns in every language."""
    spaces = [i for i, c in enumerate(words) if c == " "]
    if cell_len(words) <= under or not spaces:
        return Text(words, justify="right")
    at = min(spaces, key=lambda i: max(cell_len(words[:i]), cell_len(words[i + 1:])))
    return Text(words[:at] + "\n" + words[at + 1:], justify="right")


def stat_columns(grid: DataTable[Any], headings: Sequence[str], rows: Sequence[Sequence[Text]]) -> None:
    """Add right-aligned columns for ``headings`` (read in the reader's language), each over the
    cells of ``rows`` at its place; the heading row grows to two lines where one heading needs them."""
    widths = [max((r[i].cell_len for r in rows), default=0) for i in range(len(headings))]
    titles = [heading(_(h), width) for h, width in zip(headings, widths, strict=True)]
    for title, width in zip(titles, widths, strict=True):
        grid.add_column(title, width=max(width, *(cell_len(line) for line in title.plain.splitlines())))
    grid.header_height = max((len(t.plain.splitlines()) for t in titles), default=1)


GAMES = Binding.Group(N_("Game"), compact=True)
"""←/→ as one footer item, so that at 80 columns the screen's keys fit in every language."""


class LeaderboardScreen(PollingScreen):
    """A game's players, best first, bots among them; ←/→ (or a tap) change the game."""

    BINDINGS = [
        Binding("escape", "back", N_("Back")),
        Binding("left", "game(-1)", N_("Prev game"), priority=True, key_display="←", group=GAMES),
        Binding("right", "game(1)", N_("Next game"), priority=True, key_display="→", group=GAMES),
        Binding("i,enter", "card", N_("Player card")),
        Binding("r", "refresh", N_("Refresh")),
    ]

    def __init__(self, source: RecordsSource, games: Sequence[lobby_pb2.GameInfo], game: str = "") -> None:
        super().__init__()
        self.source = source
        self.games = list(games)
        self.game = game or (self.games[0].name if self.games else "")
        self.names: list[str] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Tabs(*(Tab(g.title, id=f"game-{g.name}") for g in self.games), active=f"game-{self.game}",
                   id="leaderboard-games")
        board: DataTable[Any] = DataTable(id="leaderboard", cursor_type="row", zebra_stripes=True)
        yield board
        yield Static("", id="leaderboard-note")
        yield Footer()

    def on_mount(self) -> None:
        self.title = _("Leaderboard")
        self.query_one("#leaderboard", DataTable).focus()
        self.load()
        self.poll(REFRESH_SECONDS, self.load)

    async def relabel(self) -> None:
        """The title, the headings and the note again, in the reader's language now."""
        self.title = _("Leaderboard")
        self.load()

    def title_of(self, game: str) -> str:
        return next((g.title for g in self.games if g.name == game), game)

    @on(Tabs.TabActivated, "#leaderboard-games")
    def _tab(self, event: Tabs.TabActivated) -> None:
        game = (event.tab.id or "").removeprefix("game-")
        if game and game != self.game:
            self.game = game
            self.query_one("#leaderboard", DataTable).move_cursor(row=0)
            self.load()

    def action_game(self, step: int) -> None:
        if not self.games:
            return
        names = [g.name for g in self.games]
        at = names.index(self.game) if self.game in names else 0
        self.query_one("#leaderboard-games", Tabs).active = f"game-{names[(at + step) % len(names)]}"

    def action_refresh(self) -> None:
        self.load()

    def action_back(self) -> None:
        self.dismiss(None)

    @work(exclusive=True, exit_on_error=False)
    async def load(self) -> None:
        game = self.game
        note = self.query_one("#leaderboard-note", Static)
        try:
            board = await self.source.leaderboard(game)
        except Exception as err:
            note.update(Text(error_text(err), style="red"))
            return
        if game == self.game:  # not another game's answer, come late
            self.show(board)

    def show(self, board: players_pb2.LeaderboardResponse) -> None:
        grid = self.query_one("#leaderboard", DataTable)
        keep = grid.cursor_row
        grid.clear(columns=True)
        grid.add_column(Text("#", justify="right"), key="place")
        # A width of its own: a column left to measure itself kept the last game's width (a name cut short).
        grid.add_column(_("Name"), key="name", width=max([cell_len(_("Name")), *(cell_len(s.name)
                                                                                  for s in board.standings)]))
        shown = figures([s.stats for s in board.standings])
        rows = [[Text(rating_text(s.rating), justify="right"), *stat_cells(s.stats, shown)] for s in board.standings]
        stat_columns(grid, (N_("Rating"), N_("Matches"), N_("Won"), N_("Hands"), *(h for _f, h in shown)), rows)
        self.names = []
        for s, cells in zip(board.standings, rows, strict=True):
            name = Text(s.name, style="italic cyan" if s.bot else "")  # plain text: a name is never markup
            grid.add_row(Text(str(s.place), justify="right"), name, *cells)
            self.names.append(s.name)
        if self.names:
            grid.move_cursor(row=min(max(keep, 0), len(self.names) - 1))
        title = self.title_of(board.game)
        if board.standings:
            listed = len(board.standings)
            some = " " + _("(the best {listed} of {players})").format(listed=listed, players=board.players) if (
                board.players > listed) else ""
            line = title + some + " · " + _("rated by openskill: a cautious rating, it grows as matches show it · "
                                            "i or enter: a player's card")
        else:
            line = _("Nobody is rated at {game} yet: a match finished by a player with a key (or against one) "
                     "puts its players here.").format(game=title)
        self.query_one("#leaderboard-note", Static).update(Text(line, style="dim"))

    @on(DataTable.RowSelected, "#leaderboard")
    def _row(self) -> None:
        self.action_card()

    def action_card(self) -> None:
        if not self.names:
            self.notify(_("Nobody is listed here yet."))
            return
        row = self.query_one("#leaderboard", DataTable).cursor_row
        name = self.names[min(max(row, 0), len(self.names) - 1)]
        self.app.push_screen(PlayerCardScreen(self.source, name=name))


class PlayerCardScreen(ModalScreen[None]):
    """One player's records at each game: a remembered player's, a bot level's, or a guest's (none)."""

    BINDINGS = [Binding("escape,i,q", "close", N_("Close"))]

    def __init__(self, source: RecordsSource, name: str = "", table_id: str = "", seat: int | None = None) -> None:
        super().__init__()
        self.source = source
        self.titles: dict[str, str] = {}
        self.who = name
        self.table_id = table_id
        self.seat = seat

    def compose(self) -> ComposeResult:
        with Vertical(id="card-dialog"):
            yield Label(Text(self.who or _("Player card")), id="card-name")
            yield Static("", id="card-line")
            table: DataTable[Any] = DataTable(id="card-games", cursor_type="none", zebra_stripes=True)
            yield table
        yield Footer()

    def on_mount(self) -> None:
        self.load()

    @work(exclusive=True, exit_on_error=False)
    async def load(self) -> None:
        try:
            card = await self.source.player_card(self.who, self.table_id, self.seat)
            self.titles = {g.name: g.title for g in (await self.source.info()).games}
        except Exception as err:
            self.query_one("#card-line", Static).update(Text(error_text(err), style="red"))
            self.query_one("#card-games").display = False
            return
        self.show(card)

    def show(self, card: players_pb2.PlayerCardResponse) -> None:
        title = Text(card.name, style="bold")
        title.append("  " + _(KINDS.get(card.kind, "")), style="dim")
        self.query_one("#card-name", Label).update(title)
        self.query_one("#card-line", Static).update(describe(card))
        grid = self.query_one("#card-games", DataTable)
        grid.clear(columns=True)
        grid.display = bool(card.games)
        if not card.games:
            return
        grid.add_column(_("Game"))
        grid.add_column(Text("#", justify="right"), key="place")  # as on the leaderboard: its place there
        shown = figures([g.stats for g in card.games])
        rows = [[Text(rating_text(g.rating), justify="right"), *stat_cells(g.stats, shown)] for g in card.games]
        stat_columns(grid, (N_("Rating"), N_("Matches"), N_("Won"), N_("Hands"), *(h for _f, h in shown)), rows)
        for g, cells in zip(card.games, rows, strict=True):
            grid.add_row(Text(self.titles.get(g.game, g.game)), Text(f"{g.place}", justify="right"), *cells)
        self.call_after_refresh(grid.refresh, layout=True)  # its height follows its rows, once measured

    def action_close(self) -> None:
        self.dismiss(None)


def describe(card: players_pb2.PlayerCardResponse) -> Text:
    if card.kind == players_pb2.PLAYER_KIND_GUEST:
        return Text(_("Plays as a guest: guests are not remembered, so they have no records here."), style="dim")
    if card.kind == players_pb2.PLAYER_KIND_BOT:
        line = _("A bot level, rated against the people it plays: how strong it is, in the same figures.")
        return Text(line if card.games else _("A bot level nobody has played against here yet."), style="dim")
    since = datetime.datetime.fromtimestamp(card.since_unix).strftime("%Y-%m-%d") if card.since_unix else "?"
    text = Text(_("Remembered here since {since} · key {key}").format(since=since, key=card.fingerprint), style="dim")
    if not card.games:
        text.append(" · " + _("no match finished yet"), style="dim")
    return text


class SeatsScreen(ModalScreen[None]):
    """The seats at a table: pick one to see its player's card."""

    BINDINGS = [Binding("escape,i", "close", N_("Close"))]

    def __init__(self, source: RecordsSource, model: TableModel) -> None:
        super().__init__()
        self.source = source
        self.table_id = model.summary.id
        seats = model.view.seats if model.view is not None and model.view.seats else model.summary.seats
        self.seats: list[common_pb2.SeatSummary] = [s for s in seats if s.name]
        self.mine = model.seat

    def compose(self) -> ComposeResult:
        with Vertical(id="seats-dialog"):
            yield Label(_("Whose card? (enter shows it)"), id="seats-title")
            options = []
            for s in self.seats:
                line = Text(f"{s.seat + 1}  ")
                line.append(s.name, style="bold green" if s.seat == self.mine else "bold")
                if s.seat == self.mine:
                    line.append("  " + _("(you)"), style="dim")
                if s.bot:
                    line.append("  " + (_("(bot)") if not s.away else _("(away: a bot plays)")), style="dim")
                options.append(Option(line, id=f"seat-{s.seat}"))
            yield OptionList(*options, id="seats-list")
        yield Footer()

    @on(OptionList.OptionSelected, "#seats-list")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        seat = int((event.option.id or "seat-0").removeprefix("seat-"))
        self.app.push_screen(PlayerCardScreen(self.source, table_id=self.table_id, seat=seat))

    def action_close(self) -> None:
        self.dismiss(None)
