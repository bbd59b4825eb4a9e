"""Replays: a finished hand again, step by step, with every card face up and the log beside it.

The steps come over the wire as the tables send their play: typed events, and a view (here
with every card face up) that the game's own board draws. Where they come from is a
``HandSource``: the server (``ServerHands``: a finished table's hands, or a table's past hands
for its spectators where it allows it), or anything else that hands over the same messages
(``cardtui replay FILE`` rebuilds a file's hands in its own process).

Screens: ``TablesScreen`` (the lobby's history: finished tables), ``HandsScreen`` (a table's
hands), ``ReplayScreen`` (one hand, ←/→ to step, Home/End, PgUp/PgDn for the hand before or
after). ``open_replay`` and ``open_last_hand`` open one from anywhere (a player's card, a
spectator's table screen); ``ReplayApp`` is the app ``cardtui replay`` runs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, RichLog, Static

from cardtui.client import gamebook
from cardtui.client.boards.base import Board
from cardtui.client.boards.registry import board_for
from cardtui.client.connection import Connection, error_text
from cardtui.client.footer import Footer
from cardtui.client.models import TableModel, holders_of, shown
from cardtui.client.screens.analysis import AnalysisScreen, Result, step_verdict
from cardtui.client.textual_internals import Header
from cardtui.client.words import event_words, label, line, who
from cardtui.i18n import N_, _, ngettext
from cardtui.v1 import analysis_pb2, common_pb2, replay_pb2

Steps = list[replay_pb2.ReplayStep]


class HandSource(Protocol):
    """Where a replay's hands come from: a list of hands, and each hand's steps."""

    @property
    def title(self) -> str:
        """What the hands are (a table's name, a file's)."""

    async def hands(self) -> list[replay_pb2.HandSummary]: ...

    async def steps(self, hand: replay_pb2.HandSummary) -> Steps: ...


class ServerHands:
    """A table's finished hands on the server (a spectator's token opens a table still playing)."""

    def __init__(self, conn: Connection, table_id: str, token: str = "", password: str = "") -> None:
        self.conn = conn
        self.table_id = table_id
        self.token = token
        self.password = password
        self.table: common_pb2.TableSummary | None = None

    @property
    def title(self) -> str:
        name = self.table.name if self.table is not None and self.table.name else ""
        return f"{name} · {self.table_id}" if name else _("table {id}").format(id=self.table_id)

    async def hands(self) -> list[replay_pb2.HandSummary]:
        listed = await self.conn.list_hands(self.table_id, self.token, self.password)
        self.table = listed.table
        return list(listed.hands)

    async def steps(self, hand: replay_pb2.HandSummary) -> Steps:
        return await self.conn.replay(self.table_id, hand.hand, self.token, self.password)


def result_text(model: TableModel, hand: replay_pb2.HandSummary) -> Text:
    """"ana +3 · bia -3": what each seat won or lost; in partnership games, each team once."""
    out = Text()
    deltas = dict(zip((s.seat for s in hand.seats), hand.deltas, strict=False))
    teams = sorted({s.team for s in hand.seats})
    partnership = len(teams) < len(hand.seats)
    parts: list[tuple[Text, int]] = []
    if partnership:
        for team in teams:
            seat = next(s.seat for s in hand.seats if s.team == team)
            parts.append((Text(_("team {n}").format(n=team + 1), style="bold"), deltas.get(seat, 0)))
    else:
        parts = [(who(model, s.seat), deltas.get(s.seat, 0)) for s in hand.seats]
    for i, (name, delta) in enumerate(parts):
        if i:
            out.append(" · ")
        out.append_text(name)
        out.append(f" {delta:+d}", style="green" if delta > 0 else "red" if delta < 0 else "dim")
    return out


def hand_players(hand: replay_pb2.HandSummary) -> list[Text]:
    """Who played each seat of a hand: as dealt, and "beto → carla" where a newcomer took it over."""
    ended = {s.seat: s.name for s in hand.ended}
    out = []
    for s in hand.seats:
        last = ended.get(s.seat, s.name)
        out.append(Text(s.name) if last == s.name else Text(f"{s.name} → {last}"))
    return out


def game_title(game: str) -> str:
    """A game's name as a list shows it ("pifpaf" → "Pif Paf"; one this client does not know: spaced)."""
    known = gamebook.find(game)  # its title as the server gives it, for lists read without a server (a file)
    return known.title if known is not None else game.replace("_", " ").capitalize()


def hand_model(hand: replay_pb2.HandSummary, table: common_pb2.TableSummary | None = None) -> TableModel:
    """What a board needs to draw a replayed hand: its game and seats, watched by nobody in particular."""
    summary = common_pb2.TableSummary(id=hand.table_id, game=hand.game, seats=hand.seats)
    if table is not None:
        summary.name = table.name
    return TableModel(summary, None, names={s.seat: s.name for s in hand.seats})


STEPS = Binding.Group(N_("Step"), compact=True)
ENDS = Binding.Group(N_("Deal/end"))
HANDS = Binding.Group(N_("Hand"))
"""Keys that go together are one footer item each, so that at 80 columns they fit in every language."""


class ReplayScreen(Screen[None]):
    """One finished hand: the board with every card face up, the log of every step so far beside it."""

    BINDINGS = [
        Binding("escape", "close", N_("Close")),
        Binding("left", "step(-1)", N_("Back"), key_display="←", group=STEPS),
        Binding("right", "step(1)", N_("Step"), key_display="→", group=STEPS),
        Binding("home", "to_start", N_("Deal"), group=ENDS),
        Binding("end", "to_end", N_("End"), group=ENDS),
        # In the footer only when there are other hands to go to.
        Binding("pageup", "hand(-1)", N_("Prev hand"), key_display="pgup", group=HANDS),
        Binding("pagedown", "hand(1)", N_("Next hand"), key_display="pgdn", group=HANDS),
        Binding("a", "analysis", N_("Analysis")),
        Binding("m", "match", N_("Match")),
    ]
    footer_gives_way = ("quit", "match", "analysis")
    """At 80 columns Quit gives way (ctrl+q still quits), then, in longer languages, the analyses' keys."""

    def __init__(self, source: HandSource, hands: list[replay_pb2.HandSummary], index: int, steps: Steps) -> None:
        super().__init__()
        self.source = source
        self.hand_list = hands
        self.index = index
        self.steps = steps
        self.at = 0
        self.logged = 0
        """Lines the log holds: every step's so far."""
        self.model = self._model()
        self.analysis: analysis_pb2.HandAnalysis | None = None
        """The hand's analysis, once asked for: each step's verdict is on the replay's line."""

    @property
    def hand(self) -> replay_pb2.HandSummary:
        if self.steps and self.steps[0].HasField("hand"):
            return self.steps[0].hand
        return self.hand_list[self.index]

    def _model(self) -> TableModel:
        table = getattr(self.source, "table", None)
        return hand_model(self.hand, table if isinstance(table, common_pb2.TableSummary) else None)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="replay-line")
        with Horizontal(id="replay-main"):
            yield board_for(self.model.game)
            log = RichLog(id="replay-log", wrap=True, markup=False, min_width=20)
            log.can_focus = False
            yield log
        yield Footer()

    def on_mount(self) -> None:
        self.title = _("Replay") + f" · {self.source.title}"
        board = self.query_one("#board", Board)
        board.can_focus = False  # nothing to play: the keys step through the hand
        self._show()

    @property
    def board(self) -> Board:
        return self.query_one("#board", Board)

    # -- stepping --------------------------------------------------------------------
    def action_step(self, by: int) -> None:
        self.go(self.at + by)

    def action_to_start(self) -> None:
        self.go(0)

    def action_to_end(self) -> None:
        self.go(len(self.steps) - 1)

    def go(self, at: int) -> None:
        at = max(0, min(at, len(self.steps) - 1))
        if at != self.at:
            self.at = at
            self._show()

    def _show(self) -> None:
        if not self.steps:
            return
        step = self.steps[self.at]
        self.model = self.model.with_view(step.view, self.at)
        self.model = replace(self.model, names=shown(holders_of(step.view.seats)))  # as they sat at this step
        self.board.model = self.model
        hand = self.hand
        said = Text(_("Hand {n}").format(n=hand.hand), style="bold")
        if hand.match:
            said.append(" (" + _("game {n}").format(n=hand.match) + ")", style="dim")
        said.append(" · " + _("step {n} of {all}").format(n=self.at + 1, all=len(self.steps)) + " · ")
        if step.HasField("seat"):
            said.append_text(line(who(self.model, step.seat), ": ", label(self.model, step.action)))
        else:
            said.append(_("the deal"))
        verdict = step_verdict(self.model, self.analysis, self.at) if self.analysis is not None else None
        if verdict is not None:
            said.append(" · ")
            said.append_text(verdict)
        if self.at == len(self.steps) - 1:
            said.append(" · ")
            said.append_text(result_text(self.model, hand))
        self.query_one("#replay-line", Static).update(said)
        self._write_log()

    def _write_log(self) -> None:
        """Every step so far, the latest in bold: stepping back takes its lines away again."""
        log = self.query_one("#replay-log", RichLog)
        log.clear()
        self.logged = 0
        for n, step in enumerate(self.steps[: self.at + 1]):
            latest = n == self.at
            then = replace(self.model, names=shown(holders_of(step.view.seats)))  # who held each seat then
            for event in step.events:
                said = event_words(then, event)
                if said is None:
                    continue
                text = said.text.copy()
                if said.style:
                    text.stylize(said.style)
                if not latest:
                    text.stylize("dim")
                else:
                    text = line(Text("▶ ", style="bold yellow"), text)
                log.write(text)
                self.logged += 1
        log.scroll_end(animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hand":
            return len(self.hand_list) > 1
        if action in ("analysis", "match"):  # a server's hands (a file's are analysed with cardtui analyze)
            return isinstance(self.source, ServerHands)
        return True

    # -- other hands -----------------------------------------------------------------
    async def action_hand(self, by: int) -> None:
        index = self.index + by
        if not 0 <= index < len(self.hand_list):
            self.notify(_("There is no hand before this one.") if by < 0 else _("There is no hand after this one."))
            return
        try:
            steps = await self.source.steps(self.hand_list[index])
        except Exception as err:
            self.notify(error_text(err), title=_("Cannot open that hand"), severity="error")
            return
        game = self.model.game
        self.index, self.steps, self.at, self.analysis = index, steps, 0, None
        self.model = self._model()
        if self.model.game != game:  # a file may hold hands of several games
            await self.board.remove()
            board = board_for(self.model.game)
            board.can_focus = False
            await self.query_one("#replay-main", Horizontal).mount(board, before=0)
        self._show()

    def action_close(self) -> None:
        self.dismiss(None)

    def _asking(self, match: bool = False) -> Callable[[], AsyncIterator[analysis_pb2.AnalyzeUpdate]] | None:
        """How to ask the server for this hand's analysis (``match``: its match's), or None for hands
        read from a file (said so)."""
        source = self.source
        if not isinstance(source, ServerHands):
            self.notify(_("Hands read from a file are analysed with: cardtui analyze FILE"))
            return None
        number = self.hand.hand

        def updates() -> AsyncIterator[analysis_pb2.AnalyzeUpdate]:
            return source.conn.analyze(source.table_id, number, source.token, source.password, match=match)

        return updates

    def action_analysis(self) -> None:
        """Every seat's decisions in this hand judged (a finished table's hands, from its server)."""
        updates = self._asking()
        if updates is None:
            return

        def analysed(result: Result | None) -> None:
            if isinstance(result, analysis_pb2.HandAnalysis) and result.hand == self.hand.hand:
                self.analysis = result
                self._show()

        self.app.push_screen(AnalysisScreen(self.model, updates, self.analysis), analysed)

    def action_match(self) -> None:
        """The match this hand belongs to, summed up: each seat's accuracy and the worst three moments."""
        updates = self._asking(match=True)
        source = self.source
        if updates is not None and isinstance(source, ServerHands):

            def hand(number: int) -> AsyncIterator[analysis_pb2.AnalyzeUpdate]:
                return source.conn.analyze(source.table_id, number, source.token, source.password)

            self.app.push_screen(AnalysisScreen(self.model, updates, hands=hand))


class HandsScreen(Screen[None]):
    """A table's finished hands: enter replays the one selected."""

    BINDINGS = [Binding("escape", "close", N_("Close")), Binding("enter", "open", N_("Replay"))]

    def __init__(self, source: HandSource) -> None:
        super().__init__()
        self.source = source
        self.hand_list: list[replay_pb2.HandSummary] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="hands-line")
        grid: DataTable[Any] = DataTable(id="hands", cursor_type="row", zebra_stripes=True)
        grid.add_columns(_("Hand"), _("Game"), _("Players"), _("Result"))
        yield grid
        yield Footer()

    async def relabel(self) -> None:
        """The list again, its headings and lines in the reader's language now."""
        await self.recompose()
        await self.on_mount()

    async def on_mount(self) -> None:
        self.title = _("Hands") + f" · {self.source.title}"
        grid = self.query_one("#hands", DataTable)
        grid.focus()
        try:
            self.hand_list = await self.source.hands()
        except Exception as err:
            self.query_one("#hands-line", Static).update(Text(error_text(err), style="red"))
            return
        self.title = _("Hands") + f" · {self.source.title}"
        if not self.hand_list:
            self.query_one("#hands-line", Static).update(Text(_("No finished hand yet."), style="italic"))
            return
        self.query_one("#hands-line", Static).update(
            Text(ngettext("{n} finished hand: enter replays it, every card face up.",
                          "{n} finished hands: enter replays one, every card face up.", len(self.hand_list)).format(
                n=len(self.hand_list)), style="dim"))
        for h in self.hand_list:
            model = hand_model(h)
            number = f"{h.hand}" + (" (" + _("game {n}").format(n=h.match) + ")" if h.match > 1 else "")
            names = Text(", ").join(hand_players(h))
            if h.ended:  # what each seat came to, named as it was held when the hand ended
                model = replace(model, names=shown(holders_of(h.ended)))
            grid.add_row(Text(number), Text(game_title(h.game)), names, result_text(model, h))
        grid.move_cursor(row=len(self.hand_list) - 1)

    @property
    def selected(self) -> int | None:
        if not self.hand_list:
            return None
        return min(self.query_one("#hands", DataTable).cursor_row, len(self.hand_list) - 1)

    async def action_open(self) -> None:
        index = self.selected
        if index is not None:
            await show_hand(self.app, self.source, self.hand_list, index)

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        await self.action_open()

    def action_close(self) -> None:
        self.dismiss(None)


PLAYERS_MIN = 12


def players_text(table: common_pb2.TableSummary) -> Text:
    """Everyone who played a finished table: "ana, dan · bots: hard, normal"."""
    said = Text(", ".join(table.played_people))
    if table.played_bots:
        if table.played_people:
            said.append(" · ")
        said.append(_("bots: {levels}").format(levels=", ".join(table.played_bots)), style="italic cyan")
    if not said:
        said.append(_("no hand was played"), style="dim")
    return said


class TablesScreen(Screen[None]):
    """The lobby's history: the tables that have finished (their hands are kept); enter lists a table's hands."""

    BINDINGS = [Binding("escape", "close", N_("Close")), Binding("enter", "open", N_("Hands"))]

    def __init__(self, conn: Connection) -> None:
        super().__init__()
        self.conn = conn
        self.tables: list[common_pb2.TableSummary] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="history-line")
        grid: DataTable[Any] = DataTable(id="history", cursor_type="row", zebra_stripes=True)
        grid.add_columns(_("Table"), _("Game"), _("Name"), _("Players"))
        yield grid
        yield Static("", id="history-players")
        yield Footer()

    async def relabel(self) -> None:
        """The list again, its headings and lines in the reader's language now."""
        await self.recompose()
        await self.on_mount()

    async def on_mount(self) -> None:
        self.title = _("History")
        grid = self.query_one("#history", DataTable)
        grid.focus()
        line_ = self.query_one("#history-line", Static)
        try:
            tables = await self.conn.tables(include_finished=True)
        except Exception as err:
            line_.update(Text(error_text(err), style="red"))
            return
        self.tables = [t for t in tables if t.status == common_pb2.TABLE_STATUS_FINISHED and not t.private]
        if not self.tables:
            line_.update(Text(_("No table has finished yet: their hands open here once they have."), style="italic"))
            return
        line_.update(Text(_("Finished tables: enter lists a table's hands. Tables still playing show theirs "
                            "once they finish."), style="dim"))
        self._fill()

    def _fill(self) -> None:
        """One line a table, its players cut to what the screen leaves them (all of them under the list)."""
        grid = self.query_one("#history", DataTable)
        keep = grid.cursor_row
        grid.clear()
        headings = (_("Table"), _("Game"), _("Name"))
        others = [max([cell_len(h), *(cell_len(c) for c in cells)]) + 2 for h, cells in zip(headings, zip(
            *((t.id, game_title(t.game), t.name) for t in self.tables), strict=True), strict=True)]
        room = max(PLAYERS_MIN, self.size.width - sum(others) - 2 - 2)  # its padding, the scrollbar's room
        for t in self.tables:
            said = players_text(t)
            said.truncate(room, overflow="ellipsis")
            grid.add_row(Text(t.id), Text(game_title(t.game)), Text(t.name), said)
        grid.move_cursor(row=min(max(keep, 0), len(self.tables) - 1))
        self._describe()

    def on_resize(self) -> None:
        if self.tables:
            self._fill()

    @on(DataTable.RowHighlighted, "#history")
    def _describe(self) -> None:
        """Everyone who played the highlighted table, whatever the width."""
        if not self.tables:
            return
        t = self.tables[min(max(self.query_one("#history", DataTable).cursor_row, 0), len(self.tables) - 1)]
        said = Text(_("Played at {name}:").format(name=t.name or t.id) + " ", style="bold")
        said.append_text(players_text(t))
        self.query_one("#history-players", Static).update(said)

    async def action_open(self) -> None:
        if not self.tables:
            return
        table = self.tables[min(self.query_one("#history", DataTable).cursor_row, len(self.tables) - 1)]
        if table.has_password:
            self.notify(_("That table has a password: open its hands with cardtui replay --table {id} --password …")
                        .format(id=table.id), severity="warning")
            return
        await self.app.push_screen(HandsScreen(ServerHands(self.conn, table.id)))

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        await self.action_open()

    def action_close(self) -> None:
        self.dismiss(None)


# -- ways in ----------------------------------------------------------------------------------
async def show_hand(app: App[Any], source: HandSource, hands: list[replay_pb2.HandSummary], index: int,
                    done: Callable[[None], None] | None = None) -> bool:
    """Fetch a hand's steps and show it; a refusal is said, and nothing opens."""
    try:
        steps = await source.steps(hands[index])
    except Exception as err:
        app.notify(error_text(err), title=_("Cannot open that hand"), severity="error")
        return False
    await app.push_screen(ReplayScreen(source, hands, index, steps), done)
    return True


async def open_replay(app: App[Any], conn: Connection, table_id: str, hand: int, token: str = "",
                      password: str = "") -> bool:
    """Open hand ``hand`` of a table (a player's card, a link): its replay, or a notice saying why not."""
    source = ServerHands(conn, table_id, token, password)
    try:
        hands = await source.hands()
    except Exception as err:
        app.notify(error_text(err), title=_("Cannot open that hand"), severity="error")
        return False
    index = next((i for i, h in enumerate(hands) if h.hand == hand), None)
    if index is None:
        app.notify(_("Table {id} has no finished hand {hand}.").format(id=table_id, hand=hand), severity="warning")
        return False
    return await show_hand(app, source, hands, index)


async def open_last_hand(app: App[Any], conn: Connection, table_id: str, token: str = "") -> bool:
    """The last finished hand of a table, face up (a spectator's delayed full view)."""
    source = ServerHands(conn, table_id, token)
    try:
        hands = await source.hands()
    except Exception as err:
        app.notify(error_text(err), title=_("No replay"), severity="warning")
        return False
    if not hands:
        app.notify(_("No hand has finished at this table yet."))
        return False
    return await show_hand(app, source, hands, len(hands) - 1)


class ReplayApp(App[None]):
    """``cardtui replay``: a table's hands from a server, or a file's, with no lobby.

    ``source`` is called inside the running app (a connection to a server is made there);
    ``hand`` opens that hand at once, else the list of hands does (one hand opens at once).
    """

    CSS_PATH = str(Path(__file__).parent.parent / "app.tcss")  # the app's, beside client/app.py, whoever subclasses it
    TITLE = "cardtui replay"
    ENABLE_COMMAND_PALETTE = False  # its footer room goes to the replay's keys
    BINDINGS = [Binding("ctrl+q", "quit", N_("Quit"), priority=True)]

    def __init__(self, source: Callable[[], HandSource], hand: int | None = None,
                 close: Callable[[], Awaitable[None]] | None = None) -> None:
        super().__init__()
        self.make_source = source
        self.hand = hand
        self.close_source = close

    async def on_mount(self) -> None:
        source = self.make_source()
        try:
            hands = await source.hands()
        except Exception as err:
            self.exit(return_code=1, message=f"cardtui: {error_text(err)}")
            return
        if self.hand is not None or len(hands) == 1:
            index = next((i for i, h in enumerate(hands) if self.hand is None or h.hand == self.hand), None)
            if index is None:
                self.exit(return_code=1,
                          message="cardtui: " + _("there is no finished hand {n} there.").format(n=self.hand))
                return
            if not await show_hand(self, source, hands, index, self._screen_closed):
                self.exit(return_code=1, message="cardtui: " + _("that hand cannot be opened."))
            return
        await self.push_screen(HandsScreen(source), self._screen_closed)

    def _screen_closed(self, result: None) -> None:
        self.exit()

    async def on_unmount(self) -> None:
        if self.close_source is not None:
            await self.close_source()
