"""A table: the board for its game, the action bar, the log and chat.

The stream is read in a worker that posts messages; the screen keeps the latest view and
legal actions and hands them down to widgets. Widgets hold no rules: the action bar
offers exactly what the server says is legal.

While the stream is down the action bar is off and action keys do nothing, so nothing is
pressed on a screen that no longer shows the table. When a hand ends, its summary stands in
for the board until the next deal (a countdown says when) or a key; when a match ends, the
match's summary offers to play again or leave.

What the screen shows has modules of its own: the board (``client.boards``), the action bar
(``client.actionbar``), the log (``client.table_log``), the summaries (``client.table_summary``),
the turn line (``client.turn_line``), and the question before leaving a match (``client.screens.leaving``).
"""

from __future__ import annotations

import gc
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from math import ceil
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Static

from cardtui import heap
from cardtui.client import versions
from cardtui.client.actionbar import ActionBar, sized_by_layout
from cardtui.client.boards.base import Board
from cardtui.client.boards.parts import flat, said_again, said_key
from cardtui.client.boards.registry import board_for, knows
from cardtui.client.compositor import MapKeepingCompositor
from cardtui.client.connection import Connection, closing_text, error_text, refused
from cardtui.client.fairness import GREY, NO_CUTS, FairDeals, Verdict
from cardtui.client.footer import Footer
from cardtui.client.meld_hints import hint_told
from cardtui.client.models import Holders, TableModel, Then, holders_of
from cardtui.client.option_words import table_options
from cardtui.client.rematch import Rematch
from cardtui.client.rounds import rounds_of
from cardtui.client.screens import leaving
from cardtui.client.screens.analysis import (
    AnalysisScreen,
    Result,
    TableClock,
    deferred_line,
    hand_line,
    match_line,
    play_line,
)
from cardtui.client.screens.help import HelpScreen
from cardtui.client.screens.invite import InviteScreen
from cardtui.client.screens.leaving import LeaveScreen
from cardtui.client.screens.phrase import PhraseScreen
from cardtui.client.screens.players import SeatsScreen
from cardtui.client.screens.replay import open_last_hand
from cardtui.client.sealed_keys import SealedKeys
from cardtui.client.sealed_seat import SealedSeat
from cardtui.client.table_log import TableLog, Telling, event_told, verdict_told
from cardtui.client.table_state import TableState
from cardtui.client.table_summary import Account, KeyButton, summary_foot, summary_text
from cardtui.client.textual_internals import Header, use_compositor, write_to_terminal
from cardtui.client.turn_bell import TurnNotice, title_sequence, window_title
from cardtui.client.turn_line import turn_line
from cardtui.i18n import N_, _
from cardtui.v1 import analysis_pb2, common_pb2, lobby_pb2, table_pb2

if TYPE_CHECKING:
    from cardtui.client.boards.rummy import RummyBoard

NARROW = 100
"""Below this many columns the board gives up its side padding (an 80x24 terminal)."""
FULL_AFTER = 100
"""At a table, the collector's full passes come after this many of its middle ones (Python's: 10).
What lived when the table opened is out of their sight (``_settle_memory``), and what is born at
the table mostly dies young: a full pass finds little, yet its time in the middle of play makes a frame
of several messages late (measured in ``bench/marks.md``)."""
CHAT_IDLE = N_("/ chat")
CHAT_TYPING = N_("enter sends, esc back")
"""The chat line's placeholder before and while typing in it: short, so that all of it shows in
the 21 columns the line has at 80x24 (a test holds every language to that)."""
CHAT_TAP = N_("tap here to chat")
CHAT_TAP_TYPING = N_("Enter sends it")
"""The same on a touch screen: no key names, but what to tap (its keyboard's Enter is a key it has)."""
TALL = 40
"""At least this many rows on a terminal taller than wide as it looks (a cell is about twice as tall
as wide: rows × 2 > columns), as a phone held upright gives (40x60, 50x70, or 80 columns and
70 rows in the browser page): the log goes under the board, which keeps the full width."""
HELP_GRACE = 0.5
"""Seconds after the help closes in which escape does not count towards leaving."""


class Streamed(Message):
    """One message from the table's stream."""

    def __init__(self, msg: table_pb2.TableMessage) -> None:
        super().__init__()
        self.msg = msg


class Reconnecting(Message):
    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay


class Column(Vertical):
    """The board's column (board or summary, turn line, action bar): its size is the screen's
    layout's, so a layout that changed what is in it asks for no second one."""

    virtual_size = sized_by_layout()


ADJUST = Binding.Group(N_("More/less"), compact=True)


class TableScreen(Screen[None], TableState):
    BLANK = True
    """The screen's own background is drawn as blank lines at once, not line by line through its
    styles: its widgets cover all of it, and a frame drew it under every row it changed."""
    AUTO_FOCUS = None
    """Nothing takes the focus by itself: the chat line only on /, the board if it takes keys."""
    BINDINGS = [
        Binding("escape", "leave", N_("Leave")),
        Binding("enter", "go_on", N_("Go on")),
        # At a match's end (client.rematch): again with the same seats, or with the seats swapped.
        Binding("enter", "again", N_("Again")),
        Binding("w", "swap", N_("Swap seats")),
        Binding("slash", "chat", N_("Chat")),
        Binding("question_mark", "help", N_("Rules")),
        # In the footer (so a finger reaches them) only while there is an amount or a signal to change.
        # One footer item for both, so that at 80 columns it still fits beside the rest.
        Binding("plus,equals_sign", "adjust(1)", N_("More"), key_display="+", group=ADJUST),
        Binding("minus", "adjust(-1)", N_("Less"), key_display="-", group=ADJUST),
        Binding("i", "players", N_("Players"), show=False),
        # Spectators of a table with the delayed full view: the hands already over, every card face up.
        Binding("v", "last_hand", N_("Last hand face up")),
        # Friends at the table (client.screens.invite), the quick phrases (client.screens.phrase).
        Binding("g", "invite", N_("Invite")),
        Binding("exclamation_mark", "phrases", N_("Phrases"), key_display="!"),
        # A player's own decisions in the hand just over, judged (once the summary says how they played);
        # at a match's end, the whole match summed up.
        Binding("a", "analysis", N_("Analysis")),
        Binding("m", "match", N_("Match")),
    ]
    GIVES_WAY = ("quit", "invite", "phrases", "chat")
    """When the hand's keys leave no room at 80 columns (Portuguese, Spanish), Quit, Invite, Phrases and then
    Chat give way in the footer, whole: the help lists them all, ctrl+q still quits, and the chat line under
    the log says "/ chat". A board may say its own order (``Board.FOOTER_GIVES_WAY``: the rummy board's)."""

    @property
    def footer_gives_way(self) -> tuple[str, ...]:
        boards = self.query("#board")
        own = boards.first(Board).FOOTER_GIVES_WAY if boards else None
        return own if own is not None else self.GIVES_WAY

    def __init__(self, conn: Connection, token: str, seat: int, table: common_pb2.TableSummary) -> None:
        super().__init__()
        use_compositor(self, MapKeepingCompositor())  # the map of widgets made once per layout
        self.conn = conn
        self.token = token
        self.model = TableModel(table, seat if seat >= 0 else None)
        self.holders: Holders = holders_of(table.seats)
        """Who plays each seat as the latest view says (the log walks back from it)."""
        self.fair = FairDeals()
        self.verdict: Verdict | None = None
        """The check of the last hand's deal, for its summary (whose seeds went in)."""
        """Sends this seat's cut for each hand and checks each finished deal (client.fairness)."""
        self.log_lines = 0
        self.adjustable = False
        """Whether an action on offer has an amount or a kind to change (+/-)."""
        self.online = False
        """The stream is up: the snapshot came and nothing has broken since."""
        self.ended: tuple[bool, bool] = (False, False)
        """(hand over, match over) as last seen: a change to True is a new ending to sum up."""
        self.summary_said: tuple[object, ...] = ()
        """What the summary's account was made of, part by part, when last put in its panel."""
        self.said_on_board: RenderableType | None = None
        """The summary's account as the board draws it now (its countdown is drawn under it)."""
        self.summary_open = False
        self.kept: tuple[analysis_pb2.HandAnalysis, int] | None = None
        """The player's decisions in the last hand they played, judged, and its number (``a`` opens them)."""
        self.play_state = "none"
        """Where the analysis of the hand just over stands: none, waiting, deferred (until asked) or done."""
        self.play_said: Text | None = None
        """What the summary says of them: being analysed, or how many mistakes."""
        self.bar_takes_a = False
        """Whether the hand's own keys take a (then it is not the analysis's)."""
        self.hands_ended = 0
        """Hands this screen has seen end (so an analysis asked for one is not taken for the next's)."""
        self.ended_hand = 0
        """The number of the hand the summary's analysis is of (the log names it)."""
        self.match_analysis: analysis_pb2.MatchAnalysis | None = None
        """At a match's end, the player's decisions over the match summed up (``m`` opens it)."""
        self.match_said: Text | None = None
        self.hand_ended: table_pb2.HandEnded | None = None
        self.match_ended: table_pb2.MatchEnded | None = None
        self.ended_then: Then | None = None
        """Who played each seat when the hand ended (the summary names them, not today's seats), and
        whether the viewer's seat was theirs then."""
        self.dealt_names: dict[int, str] | None = None
        """Who held each seat when the hand was dealt: whose seeds went into its deal."""
        self.help_closed = 0.0
        self.gone = False
        """The server closed this table to us for good (closed, finished, or we left it elsewhere):
        nothing to act on or wait for, only the way back."""
        self.told: dict[Static, tuple[object, ...]] = {}
        """What each line updated by ``_say`` shows now."""
        self.froze = False
        """This screen moved what lived when it opened out of the collector's sight (``_settle_memory``)."""
        self.thresholds = gc.get_threshold()
        """The collector's thresholds before the table opened, put back when it is left."""
        self.showing = False
        """The widgets are to catch up with the messages handled so far (``_show`` is on its way)."""
        self.rounds: int | None = None
        """At a tournament's table: how many rounds the tournament plays, once the server said."""
        self.retry_at: float | None = None
        """While the server is gone: when the client dials it again (the banner counts down to it)."""
        self.notice = TurnNotice()
        """Whether a view begins a turn of this player's: the bell rings once per turn (client.turn_bell)."""
        self.rung = 0
        """Times the bell rang at this table."""
        self.titled = ""
        """The window title as last set (the turn's countdown)."""
        self.rematch = Rematch()
        """At a match's end, who stays and for which seats (client.rematch)."""

    @property
    def seat(self) -> int | None:
        return self.model.seat

    @property
    def spectating(self) -> bool:
        return self.model.spectating

    @property
    def board(self) -> Board:
        return self.query_one("#board", Board)

    def compose(self) -> ComposeResult:
        self._shape(self.app.size)
        yield Header()
        if self.spectating:
            yield Static(Text(_("SPECTATING · read-only: public play only"), style="bold black on yellow"),
                         id="spectator-banner")
        yield Static("", id="conn-banner")
        with Horizontal(id="table-main"):
            with Column(id="table-left"):
                board = board_for(self.model.game)
                board.touch = self.touch
                yield board
                with Vertical(id="summary"):
                    yield Account(id="summary-body")
                    yield Static("", id="summary-foot")
                    with Horizontal(id="summary-buttons"):
                        again, swap, leave = self._summary_words()
                        yield KeyButton(again, variant="primary", id="summary-again")
                        yield KeyButton(swap, id="summary-swap")
                        yield KeyButton(leave, id="summary-leave")
                yield Static("", id="turn-line")
                if not self.spectating:
                    yield ActionBar(board.HANDLES, id="actions")
            with Vertical(id="table-right"):
                yield TableLog(id="log")
                yield Input(placeholder=self._chat_words(False), id="chat", max_length=300)
        yield Footer()

    def on_mount(self) -> None:
        board = self.board
        if board.can_focus:  # boards with their own keys (picking a card) take the focus
            board.focus()
        summary = self.model.summary
        self.title = f"{summary.name} · {summary.id}"
        self.sub_title = _("watching") if self.seat is None else _("seat {n}").format(n=self.seat + 1)
        self.query_one("#conn-banner", Static).display = False
        self.query_one("#summary").display = False
        self._set_online(False)
        if summary.no_cuts:  # before anyone's first hand: no deal here will be one the players cut
            self.write_log(lambda: Text(_(NO_CUTS)), GREY)
        if not knows(summary.game) and self.conn.server is not None:
            # A newer server's game (the generic board draws what it can): said, with the line that mends it.
            unknown = versions.unknown_game(summary.game, self.conn.server.version, self.conn.offer())
            self.write_log(lambda: Text(unknown), "bold red")
        self.set_interval(0.5, self._tick)
        self.call_after_refresh(self._opened)
        if summary.tournament_id:
            self._tournament_rounds()

    @work(group="tournament", exit_on_error=False)
    async def _tournament_rounds(self) -> None:
        """How many rounds the tournament plays: the last round's end speaks of no next one. A group
        of its own: the stream's worker, exclusive in the default group, starts once the screen is
        drawn and would cancel this one if the server had not answered by then (a busy host), and
        the foot would speak of a next round forever."""
        self.rounds = await rounds_of(self.conn, self.model.summary.tournament_id)

    def _opened(self) -> None:
        """The screen is drawn and its memory settled: now the table's stream opens. Opened sooner, the
        first hand's commitment (a match starts as the last seat's stream opens) would wait on this
        screen's first paint and collection, and on a busy machine its seed reach the table after the cut
        window had closed: a seed dropped for the client's own slowness, read as the host's choice."""
        self._settle_memory()
        self.follow()

    def _settle_memory(self) -> None:
        """Once the table is on screen: what the lobby left behind collected, and what lives now
        (the imported modules, the app, this screen's widgets: over 100,000 objects) moved out of
        the collector's sight until the table is left. A full collection otherwise walks them all,
        every so many messages, a frame late by as long as it takes (the screen's slowest paints were
        these, not its own work: ``bench/marks.md``).
        A browser guest's parent froze what the guests share before forking it: left as it is."""
        if heap.frozen():
            return
        gc.collect()
        gc.freeze()
        self.froze = True
        young, middle, _full = self.thresholds
        gc.set_threshold(young, middle, FULL_AFTER)

    def on_screen_resume(self) -> None:
        """Back on top (a dialog closed: the invite, the help, the phrases): the board is drawn whole
        as the view stands now. The paints it asked for while the dialog was up were let go (a screen
        under a dialog is not painted), and the screen back on top shows the lines it kept: a match
        begun meanwhile would still show the seats waiting for players."""
        self.board.refresh()

    def on_unmount(self) -> None:
        """Leaving the table: what this screen froze is the collector's again (its widgets, which
        are garbage now, among it). The window title is the app's again."""
        if self.titled and self.titled != window_title(None, None):
            write_to_terminal(self.app, title_sequence(window_title(None, None)))
        if self.froze:
            self.froze = False
            gc.unfreeze()
            gc.set_threshold(*self.thresholds)

    def on_resize(self, event: events.Resize) -> None:
        self._shape(event.size)

    def _shape(self, size: Size) -> None:
        """The screen's classes for its size (narrow, tall), set first as it composes, at the app's size,
        which the screen takes: a class changed on a screen styles every widget under it again, and set
        there, before its widgets are mounted, it styles the screen alone (its first resize then changes
        nothing, where it restyled some 25 widgets, ~15 ms, at every table opened)."""
        self.set_class(size.width < NARROW, "-narrow")
        self.set_class(size.height >= TALL and size.height * 2 > size.width, "-tall")

    async def relabel(self) -> None:
        """Everything on the screen said again in the reader's language now: the log (lines that
        came as words), the board, the action bar, the summary, the buttons."""
        self.sub_title = _("watching") if self.seat is None else _("seat {n}").format(n=self.seat + 1)
        self.query_one("#log", TableLog).retell()
        self.board.refresh()
        if not self.spectating:
            bar = self.query_one(ActionBar)
            bar.relabel()
        if self.spectating:
            self.query_one("#spectator-banner", Static).update(
                Text(_("SPECTATING · read-only: public play only"), style="bold black on yellow"))
        again, swap, leave = self._summary_words()
        self.query_one("#summary-again", Button).label = again
        self.query_one("#summary-swap", Button).label = swap
        self.query_one("#summary-leave", Button).label = leave
        chat = self.query_one("#chat", Input)
        chat.placeholder = self._chat_words(chat.has_focus)
        self._show_summary()
        self._tick()

    # -- the stream ----------------------------------------------------------------
    @work(exclusive=True, exit_on_error=False)
    async def follow(self) -> None:
        try:
            sealed = None if self.spectating else SealedSeat(self.conn.target, SealedKeys.at_home())
            async for msg in self.conn.follow(self.token, on_retry=self._retrying, fair=self.fair, sealed=sealed):
                self.post_message(Streamed(msg))
        except Exception as err:
            self._set_online(False)
            self.notify(error_text(err), title=_("The table stream ended"), severity="error")

    def _retrying(self, delay: float) -> None:
        self.post_message(Reconnecting(delay))

    def _set_online(self, online: bool) -> None:
        """Actions only while the stream is up: a key pressed on a stale screen does nothing."""
        self.online = online
        if not self.spectating:
            self.query_one(ActionBar).disabled = not online

    def on_reconnecting(self, message: Reconnecting) -> None:
        self._set_online(False)
        self.retry_at = time.monotonic() + message.delay
        banner = self.query_one("#conn-banner", Static)
        self._say_outage()
        banner.display = True
        if self.model.deadline is not None:  # the timer runs on the server, which is gone: none counts here
            self.model = replace(self.model, deadline=None)
            self._show()
            self._tick()

    def on_streamed(self, message: Streamed) -> None:
        msg = message.msg
        body = msg.WhichOneof("body")
        if body == "snapshot":
            self.query_one("#conn-banner", Static).display = False
            self.retry_at = None
        elif body == "closing":
            closing = msg.closing
            self.write_log(lambda: Text(closing_text(closing)), "red")
            self._set_online(False)
            if not closing.resubscribe:  # over for good: no turn, no timer, no actions
                self.gone = True
        verdicts = self.track(msg, self._heard)  # the table after the message (``TableState``)
        if body == "snapshot":
            self._set_online(True)
        elif body == "update" and self.notice.rings(self.model):
            self.ring()
            self._back_to_board()
        for verdict in verdicts:  # a finished hand's deal, checked: ✔ or a warning
            self.write_log(verdict_told(verdict))
            self.verdict = verdict
        self._ending()
        self.board.model = self.model  # every view (truco's card keys stay where each card was dealt)
        if not self.showing:  # the widgets catch up once for the messages waiting now
            self.showing = True
            self.call_later(self._show)

    def _heard(self, event: table_pb2.Event, then: Then, model: TableModel) -> None:
        """An event of the stream, noted and written in the log as the table stood then."""
        self._note(event, then)
        self.write_log(event_told(model, event))

    def _note(self, event: table_pb2.Event, then: Then) -> None:
        """Keep what a summary needs from the events that end hands and matches."""
        kind = event.WhichOneof("body")
        self.rematch.heard(event)
        if kind == "match_started" and event.match_started.seats_from and self.seat is not None:
            # the seats were swapped: this player's moved too (``TableState``)
            self.sub_title = _("seat {n}").format(n=self.model.seat + 1 if self.model.seat is not None else 0)
        if kind == "hand_started":
            self.verdict = None
            self.hand_ended = None
            self.match_ended = None
            self.ended_then = None
            self.dealt_names = then.names
        elif kind == "hand_ended":
            self.hand_ended = event.hand_ended
            self.ended_then = then
        elif kind == "match_ended":
            self.match_ended = event.match_ended

    def _ending(self) -> None:
        """A hand or a match that ends opens its summary (every message is looked at, so an ending
        is summed up even when the next deal came with it)."""
        view = self.model.view
        playing = view is not None and view.WhichOneof("game") not in (None, "waiting")
        ended = (playing and view is not None and view.hand_over, playing and view is not None and view.match_over)
        if ended != self.ended:
            if any(now and not before for now, before in zip(ended, self.ended, strict=True)):
                self.summary_open = True  # a new ending: sum it up
                if ended[0] and not self.spectating:
                    self.hands_ended += 1
                    self._analyse_play(ended[1], view.hand if view is not None else 0)
            if not ended[0]:
                self.summary_open = False  # the next hand is dealt
                self.refresh_bindings()
            self.ended = ended

    def _show(self) -> None:
        """The widgets brought up to the table as last heard. Messages that come together (a bot
        acting right after another) are shown together: once, after the last of them, as the
        screen would only have painted the last anyway. The board has had each view already
        (it only repaints at the next paint)."""
        self.showing = False
        if not self.spectating:
            bar = self.query_one(ActionBar)
            bar.model = self.model
            adjustable = any(len(group) > 1 for group in bar.choices)
            takes_a = "a" in bar.keys
            if adjustable != self.adjustable or takes_a != self.bar_takes_a:  # More/Less, a: only then
                self.adjustable, self.bar_takes_a = adjustable, takes_a
                self.refresh_bindings()
        self._show_summary()
        self._tick()

    # -- the summaries ---------------------------------------------------------------
    def _show_summary(self) -> None:
        """The summary, open or not. A hand's summary that fits is drawn in the board's place
        (``Board.show_account``); one too long for it, or a match's (with its buttons), in the
        panel, which scrolls."""
        panel = self.query_one("#summary")
        board = self.board
        was = panel.display or board.account is not None
        said = self.summary_text() if self.summary_open else None
        account = None if said is None else self._account(said)
        buttons = self.ended[1] and not self.spectating
        on_board = account is not None and not buttons and board.fits(account)
        board.show_account(account if on_board else None)
        self.said_on_board = said if on_board else None
        in_panel = said is not None and not on_board
        panel.display = in_panel
        board.display = not in_panel
        if (was and not in_panel and board.can_focus and self.focused is not board
                and not isinstance(self.focused, Input)):
            board.focus()  # the board's keys are back with it
        if in_panel:
            assert said is not None
            words = said_key(said)
            if not said_again(self.summary_said, words):  # the same account again: no layout, no repaint
                self.summary_said = words
                self.query_one("#summary-body", Static).update(said)
            self.query_one("#summary-buttons").display = buttons
            # a tournament's table plays one match: no next one to stay for
            self.query_one("#summary-again").display = not self.model.summary.tournament_id
            self.query_one("#summary-swap").display = not self.model.summary.tournament_id
        if was != self.summary_open:
            self.refresh_bindings()

    def _account(self, said: RenderableType) -> Group:
        """A summary as the board draws it: the account, then what comes next (the foot)."""
        return Group(*flat(said), Text(""), summary_foot(self.model, self.rounds, self.spectating, self.touch))

    def summary_text(self) -> RenderableType:
        """The board's account of the hand (or match), or a plain one from the events; each seat
        named as it was when the hand ended (``client.table_summary``)."""
        model = self.model
        if self.ended_then is not None:
            model = model.then(self.ended_then)
        said = summary_text(model, self.board, self.verdict, self.dealt_names or {}, self.hand_ended,
                            self.match_ended)
        lines = [t for t in (self.play_said, self.match_said) if t is not None]
        if lines:
            said = Group(said, Text(""), *lines)
        view = self.model.view
        if view is not None and view.match_over and not self.model.summary.tournament_id:
            # who stays first, where the panel shows it whatever its size (it scrolls below)
            return Group(self.rematch.who(self.model), Text(""), said, Text(""), self.rematch.how())
        return said

    def again(self) -> bool:
        """At a match's end, a seat may ask to play again (a tournament's table plays one match)."""
        view = self.model.view
        return (not self.spectating and not self.gone and view is not None and view.match_over
                and not self.model.summary.tournament_id)

    async def action_again(self) -> None:
        """Enter at a match's end: stay for the next, with the same seats."""
        if self.again():
            await self.ask_again(table_pb2.REMATCH_CHOICE_SAME)

    async def action_go_on(self) -> None:
        """Enter: close a hand's summary (at a match's end, enter asks to play again: ``action_again``)."""
        if self.again():
            await self.action_again()
            return
        if self.summary_open:
            self.summary_open = False
            self._show_summary()

    async def action_swap(self) -> None:
        """W at a match's end: stay for the next, with the seats swapped (partners changed in team games)."""
        if self.again():
            await self.ask_again(table_pb2.REMATCH_CHOICE_SWAP)

    async def ask_again(self, choice: table_pb2.RematchChoice.ValueType) -> None:
        try:
            await self.conn.rematch(self.token, choice)
        except Exception as err:
            self.notify(error_text(err), title=_("Not allowed") if refused(err) else _("No answer"),
                        severity="warning")

    @on(Button.Pressed, "#summary-again")
    async def _again(self) -> None:
        await self.action_go_on()

    @on(Button.Pressed, "#summary-swap")
    async def _swap(self) -> None:
        await self.action_swap()

    @on(Button.Pressed, "#summary-leave")
    async def _summary_leave(self) -> None:
        await self.leave()

    # -- the log, the outage banner and the turn line ----------------------------------
    def write_log(self, text: Text | Telling, style: str = "") -> None:
        def styled() -> Text | None:
            told = text() if not isinstance(text, Text) else text
            if told is not None and style:
                told = told.copy()
                told.stylize(style)
            return told

        if self.query_one("#log", TableLog).say(styled):
            self.log_lines += 1

    def _say_outage(self) -> None:
        """The outage banner, counting down to the next try in whole seconds (it said "1.0 s" until
        the server came back)."""
        if self.retry_at is None:
            return
        left = ceil(max(0.0, self.retry_at - time.monotonic()))
        said = (_("Server gone · trying again in {s} s · keys do nothing until we are back").format(s=left) if left
                else _("Server gone · trying again now · keys do nothing until we are back"))
        self._say(self.query_one("#conn-banner", Static), Text(said, style="bold white on red"))

    def _tick(self) -> None:
        if not self.online:
            self._say_outage()
        if self.summary_open and self.said_on_board is not None:  # the countdown under the summary
            self.board.show_account(self._account(self.said_on_board))
        elif self.summary_open:
            foot = summary_foot(self.model, self.rounds, self.spectating, self.touch)
            self._say(self.query_one("#summary-foot", Static), foot, layout=True)
        said = turn_line(self.model, self.online, self.gone)
        self._say(self.query_one("#turn-line", Static), said)
        for screen in self.app.screen_stack:  # the analysis or its drill, read over the table: the timer shows
            if isinstance(screen, TableClock):
                screen.show_turn(said)
        self._title()

    def _back_to_board(self) -> None:
        """A turn of the player's begins while they read the analysis (or drill it) over this table: back to the
        board, the analysis closed with what it holds (``a`` and ``m`` open it again at once), so that the turn is
        not run out unseen. Only those screens step aside: a dialog the player opened on purpose stays."""
        stack = self.app.screen_stack
        while stack and stack[-1] is not self and isinstance(stack[-1], TableClock):
            stack[-1].step_aside()
            stack = self.app.screen_stack
    def _title(self) -> None:
        """The window title: at this player's turn, the seconds left before the default is played."""
        deadline = self.model.deadline
        left = deadline - time.monotonic() if deadline is not None and self.online else None
        title = window_title(self.model, left)
        if title != self.titled:
            self.titled = title
            write_to_terminal(self.app, title_sequence(title))

    def ring(self) -> None:
        """A turn of this player's begins: the bell, if they turned it on (ctrl+g)."""
        if getattr(self.app, "bell_on", False):
            self.rung += 1
            self.app.bell()

    def _say(self, where: Static, text: Text, layout: bool = False) -> None:
        """A line put on screen only when its words or style changed: the same again costs nothing.
        ``layout``: its height may change (the turn line is one row: a repaint is enough)."""
        said = (text.plain, str(text.style), tuple(text.spans))  # Text's == leaves out its own style
        if self.told.get(where) != said:
            self.told[where] = said
            where.update(text, layout=layout)

    # -- acting and chatting -------------------------------------------------------
    @on(ActionBar.Chosen)
    async def _chosen(self, message: ActionBar.Chosen) -> None:
        await self.act(message.action)

    async def act(self, action: common_pb2.Action) -> None:
        """Send an action, refused if the table moved on since this screen last heard from it."""
        if self.spectating:
            return
        if not self.online:
            self.notify(_("Not connected to the table: the action was not sent."), severity="warning")
            return
        try:
            await self.conn.act(self.token, action, self.model.seq)
        except Exception as err:  # a refusal is "not allowed"; a call that met no answer says what happened
            self.notify(error_text(err), title=_("Not allowed") if refused(err) else _("No answer"),
                        severity="warning")

    def on_key(self, event: events.Key) -> None:
        """An action's key, as the action bar shows it (letters for a game's actions, numbers else)."""
        if self.spectating or self.query_one("#chat", Input).has_focus:
            return
        if not self.online:  # keys do nothing while the table is out of sight
            return
        if self.query_one(ActionBar).press(event.key):
            event.stop()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "adjust":
            return self.adjustable
        if action == "go_on":
            return self.summary_open and not self.again()
        if action in ("again", "swap"):
            return self.again()
        if action == "phrases":
            return not self.spectating
        if action == "last_hand":
            return self.spectating and self.model.summary.delayed_spectator_view
        if action == "analysis":
            # Also once the next hand is dealt (the log says how the last one was played), unless the
            # hand's own keys take a.
            there = self.kept is not None or self.play_state in ("waiting", "deferred")
            return there and (self.summary_open or not self.bar_takes_a)
        if action == "match":
            return self.summary_open and self.ended[1] and self.match_said is not None
        return True

    async def on_rummy_board_hint_asked(self, message: RummyBoard.HintAsked) -> None:
        """The melds the picked card joins or would complete, from the server, in the log."""
        if self.spectating:
            return
        try:
            hint = await self.conn.hint(self.token, message.card)
        except Exception as err:
            self.notify(error_text(err), severity="warning")
            return
        self.write_log(lambda: hint_told(message.card, hint))

    def action_invite(self) -> None:
        self.app.push_screen(InviteScreen(self.conn, self.model.summary.id))

    def action_phrases(self) -> None:
        async def chosen(phrase: int | None) -> None:
            if phrase is None:
                return
            try:
                await self.conn.phrase(self.token, phrase)
            except Exception as err:
                self.notify(error_text(err), severity="warning")

        self.app.push_screen(PhraseScreen(self.model.game), chosen)
    def action_analysis(self) -> None:
        """The player's decisions in the last hand they played, judged: at once when they are here, else
        asked for now (the screen shows the queue and the progress)."""
        if self.play_state in ("waiting", "deferred"):
            table_id, token, asked, number = self.model.summary.id, self.token, self.hands_ended, self.ended_hand

            def updates() -> AsyncIterator[analysis_pb2.AnalyzeUpdate]:
                return self.conn.analyze(table_id, 0, token)

            def analysed(result: Result | None) -> None:
                if isinstance(result, analysis_pb2.HandAnalysis) and self.hands_ended == asked:
                    self._played(result)

            self.app.push_screen(AnalysisScreen(self.model, updates, number=number), analysed)
        elif self.kept is not None:
            self.app.push_screen(AnalysisScreen(self.model, hand=self.kept[0], number=self.kept[1]))

    def action_match(self) -> None:
        """The player's decisions over the match just over, summed up: at once when the summary has them,
        else asked for now (every hand of the match not yet analysed is, one after the other)."""
        table_id, token = self.model.summary.id, self.token

        def hand(number: int) -> AsyncIterator[analysis_pb2.AnalyzeUpdate]:
            return self.conn.analyze(table_id, number, token)

        if self.match_analysis is not None:
            self.app.push_screen(AnalysisScreen(self.model, hand=self.match_analysis, places=True, hands=hand))
            return

        def updates() -> AsyncIterator[analysis_pb2.AnalyzeUpdate]:
            return self.conn.analyze(table_id, 0, token, match=True)

        def analysed(result: Result | None) -> None:
            if isinstance(result, analysis_pb2.MatchAnalysis) and self.summary_open:
                self._matched(result)

        self.app.push_screen(AnalysisScreen(self.model, updates, places=True, hands=hand), analysed)

    def _played(self, hand: analysis_pb2.HandAnalysis) -> None:
        """The hand just over, judged: the summary and the log say how the player played it, and ``a`` opens
        it; a hand in which they decided nothing (out of chips, say) says nothing, and ``a`` still opens the
        last one they played."""
        seat, number = -1 if self.seat is None else self.seat, self.ended_hand
        self.play_state = "done"
        if any(m.seat == seat for m in hand.moments):
            self.kept = (hand, number)
            self.play_said = play_line(hand, seat)
            self.query_one("#log", TableLog).say(lambda: hand_line(number, play_line(hand, seat)))
        else:
            self.play_said = None
        self._show_summary()
        self.refresh_bindings()

    def _matched(self, match: analysis_pb2.MatchAnalysis) -> None:
        self.match_analysis = match
        self.match_said = match_line(match, -1 if self.seat is None else self.seat)
        self._show_summary()
        self.refresh_bindings()

    @work(group="analysis", exclusive=True, exit_on_error=False)
    async def _analyse_play(self, match_over: bool = False, number: int = 0) -> None:
        """How the player played the hand just over (and, at a match's end, the match), for its summary:
        analysed at once where the server finds it cheap and has a worker free (``when_idle``), else when
        the player presses ``a`` (``m``)."""
        self.play_state, self.play_said = "waiting", Text(_("Your play: being analysed…"), style="dim")
        self.match_analysis, self.match_said = None, None
        self.ended_hand = number
        self._show_summary()
        table_id = self.model.summary.id
        try:
            async for update in self.conn.analyze(table_id, 0, self.token, when_idle=True):
                what = update.WhichOneof("update")
                if what == "analysis":
                    self._played(update.analysis)
                elif what == "deferred":
                    self.play_state, self.play_said = "deferred", deferred_line()
                    self.query_one("#log", TableLog).say(lambda: hand_line(number, deferred_line()))
            if match_over:
                self.match_said = Text(_("Your match: being analysed…"), style="dim")
                self._show_summary()
                async for update in self.conn.analyze(table_id, 0, self.token, when_idle=True, match=True):
                    what = update.WhichOneof("update")
                    if what == "match":
                        self._matched(update.match)
                    elif what == "deferred":
                        self.match_said = Text(_("Your match: m to analyse it"), style="dim")
        except Exception:  # an older server, or one that analyses nothing: the summary says nothing of it
            if self.play_state == "waiting":
                self.play_state, self.play_said = "none", None
            if self.match_analysis is None:
                self.match_said = None
        self._show_summary()
        self.refresh_bindings()

    async def action_last_hand(self) -> None:
        await open_last_hand(self.app, self.conn, self.model.summary.id, self.token)

    def action_adjust(self, step: int) -> None:
        if not self.spectating:
            self.query_one(ActionBar).adjust(step)

    def action_chat(self) -> None:
        # At once, not later: what is typed right after / goes into the line, not to the table.
        self.set_focus(self.query_one("#chat", Input))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if event.widget.id == "chat":
            self.query_one("#chat", Input).placeholder = self._chat_words(True)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget.id == "chat":
            self.query_one("#chat", Input).placeholder = self._chat_words(False)

    @property
    def touch(self) -> bool:
        """Played by taps: words say what to tap, not which key (``CardApp.touch``)."""
        return bool(getattr(self.app, "touch", False))

    def _chat_words(self, typing: bool) -> str:
        if self.touch:
            return _(CHAT_TAP_TYPING if typing else CHAT_TAP)
        return _(CHAT_TYPING if typing else CHAT_IDLE)

    def _summary_words(self) -> tuple[str, str, str]:
        """The buttons under a match's end: with their keys, or (by taps) without."""
        if self.touch:
            return _("Again, same seats"), _("Seats swapped"), _("Leave")
        return _("Again, same seats (enter)"), _("Seats swapped (w)"), _("Leave (escape)")

    @on(Input.Submitted, "#chat")
    async def _send_chat(self, event: Input.Submitted) -> None:
        """Enter sends and stays in the chat line (for the next line); escape goes back to the table,
        as the line says: so an escape after sending never asks to leave the table."""
        text = event.value.strip()
        event.input.value = ""
        if text:
            try:
                await self.conn.chat(self.token, text)
            except Exception as err:
                self.notify(error_text(err), severity="warning")
        else:
            self._refocus()  # enter on an empty line: nothing to say, back to the table

    def in_match(self) -> bool:
        """A seat in a match under way: leaving now hands it to a bot."""
        view = self.model.view
        return (not self.spectating and not self.gone and view is not None
                and view.WhichOneof("game") not in (None, "waiting") and not view.match_over)

    async def action_leave(self) -> None:
        chat = self.query_one("#chat", Input)
        if chat.has_focus:
            chat.value = ""
            self._refocus()
            return
        if time.monotonic() - self.help_closed < HELP_GRACE:
            return  # the press that closed the help, repeated: not a wish to leave
        if self.in_match():
            summary = self.model.summary
            self.app.push_screen(LeaveScreen(self.model.game, len(summary.seats), bool(summary.tournament_id)),
                                 self._confirmed)
            return
        await self.leave()

    async def _confirmed(self, leave: bool | None) -> None:
        if leave:
            await self.leave()

    async def leave(self) -> None:
        # A leave the server does not hear is said so and sent again until it is (client.screens.leaving).
        await leaving.leave(self.app, self.conn, self.token, self.model.summary.name or self.model.summary.id)
        # This screen's workers only: ``self.workers`` is the app's, and cancelling them all would
        # stop the screen underneath too (a tournament's standings would freeze where they were).
        self.workers.cancel_node(self)
        self.dismiss(None)

    def _refocus(self) -> None:
        """Back from the chat line: to the board if it takes keys, else to nothing."""
        board = self.board
        self.set_focus(board if board.can_focus else None)

    def action_help(self) -> None:
        info: lobby_pb2.ServerInfo | None = getattr(self.app, "info", None)
        game = next((g for g in info.games if g.name == self.model.game), None) if info else None
        table = table_options(game, self.model.summary.options) if game else ""
        self.app.push_screen(HelpScreen(self.model.game, table, "table"), self._help_closed)

    def _help_closed(self, _closed: None) -> None:
        self.help_closed = time.monotonic()

    def action_players(self) -> None:
        self.app.push_screen(SeatsScreen(self.conn, self.model))
