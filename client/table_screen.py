"""A table: the board for its game, the action bar, the log and chat.

The stream is read in a worker that posts messages; the screen keeps the latest view and
legal actions and hands them down to widgets. Widgets hold no rules: the action bar
offers exactly what the server says is legal.

While the stream is down the action bar is off and action keys do nothing, so nothing is
pressed on a screen that no longer shows the table. When a hand ends, its summary stands in
for the board until the next deal (a countdown says when) or a key; when a match ends, the
match's summary offers to play again or leave.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import replace
from math import ceil
from typing import Literal

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Offset, Region, Size
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.style import Style as TextualStyle
from textual.visual import Visual
from textual.widgets import Button, Header, Input, RichLog, Static

from cardtui.client import leaving
from cardtui.client.actionbar import ActionBar, sized_by_layout
from cardtui.client.boards.base import Board
from cardtui.client.boards.parts import flat, said_again, said_key
from cardtui.client.boards.registry import board_for
from cardtui.client.compositor import MapKeepingCompositor
from cardtui.client.confirm import ConfirmScreen
from cardtui.client.connection import Connection, closing_text, error_text
from cardtui.client.fairness import GREY, NO_CUTS, FairDeals, Verdict
from cardtui.client.footer import Footer
from cardtui.client.help import HelpScreen
from cardtui.client.models import Holders, TableModel, Then, holders_of, names_then, played_after
from cardtui.client.option_words import table_options
from cardtui.client.players import SeatsScreen
from cardtui.client.replay import open_last_hand
from cardtui.client.rounds import rounds_of
from cardtui.client.words import event_words, fmt, line, who
from cardtui.i18n import N_, _, ngettext
from cardtui.v1 import common_pb2, lobby_pb2, table_pb2

NARROW = 100
"""Below this many columns the board gives up its side padding (an 80x24 terminal)."""
FULL_AFTER = 100
"""At a table, the collector's full passes come after this many of its middle ones (Python's: 10).
What lived when the table opened is out of their sight (``_settle_memory``), and what is born at
the table mostly dies young: a full pass finds little, yet took 14 ms in the middle of play, three
times in 500 truco messages at full pace, each a frame of several messages that late."""
CHAT_IDLE = N_("/ chat")
CHAT_TYPING = N_("enter sends, esc back")
"""The chat line's placeholder before and while typing in it: short, so that all of it shows in
the 21 columns the line has at 80x24 (a test holds every language to that)."""
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


Telling = Callable[[], Text | None]
"""A log line as it is said now: in the reader's language of the moment (None: nothing to say)."""



class Column(Vertical):
    """The board's column (board or summary, turn line, action bar): its size is the screen's
    layout's, so a layout that changed what is in it asks for no second one."""

    virtual_size = sized_by_layout()


def bar_rows_changed(before: tuple[int, ...], after: tuple[int, ...]) -> list[int] | None:
    """The rows of the log's scrollbar drawn differently with its thumb at ``after`` than at
    ``before`` (``TableLog._thumb``: the bar's height and the thumb's ends, in eighths of a row);
    None: every row. A row is drawn from where the thumb's ends fall in it: a line written moves
    an end or two by an eighth, a row or two repainted instead of the bar's every row."""
    if before == after or (len(before) == len(after) == 4 and before[0] == after[0]):
        return []  # the same thumb, or none before and after (the bar's background only)
    if len(before) != 3 or len(after) != 3 or before[0] != after[0]:
        return None  # the thumb came or went, or the bar's height changed
    size, start, end = after
    _size, was_start, was_end = before
    return [y for y in range(size)
            if (_eighths(start, y), _eighths(end, y)) != (_eighths(was_start, y), _eighths(was_end, y))]


def _eighths(end: int, row: int) -> int:
    """How far into ``row`` a thumb's end falls, in eighths (0: above it, 8: below it)."""
    return max(0, min(8, end - 8 * row))


class TableLog(RichLog):
    """The log, wrapped at its own width: what it said is wrapped again when the width changes,
    and said again (in the reader's new language) when the language changes.

    A line written costs a repaint of the log, not a layout of the screen: the log's size is set
    by the screen, not by its lines, so its scrollable (virtual) size changes without the layout
    pass Textual gives a change of a widget's virtual size (only the scrollbar's coming needs
    one), and it scrolls to its end at once rather than after the next frame (which painted the
    screen twice). Each line is styled once, not again at every frame."""

    KEEP = 500

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, max_lines=self.KEEP, min_width=10)
        self.lines_: list[tuple[Telling, Text]] = []
        self.wrapped_at = 0
        self.styled: dict[tuple[int, ...], Strip] = {}
        """Each line as shown (cropped and styled), by (line, scroll x, width); and as a row of the
        log (padded to its width, under the scrollbar), by (line, scroll x, width, the log's width)."""
        self.style_now: Style | None = None
        """The log's own style, for the lines of the frame being drawn."""
        self.frame: tuple[Offset, int] | None = None
        """The scroll offset and width of the frame being drawn (looked up once, not once a row)."""

    @property
    def said(self) -> list[Text]:
        return [text for _tell, text in self.lines_]

    def say(self, text: Text | Telling) -> bool:
        """Write a line (False: there was nothing to say)."""
        tell: Telling = (lambda: text) if isinstance(text, Text) else text
        told = tell()
        if told is None:
            return False
        self.lines_.append((tell, told))
        del self.lines_[: -self.KEEP]
        self._write(told)
        return True

    def _write(self, text: Text) -> None:
        """A line at the end, the log scrolled to it."""
        self._append(text)
        self._settle()

    def _append(self, text: Text) -> None:
        """A line wrapped at the log's width into its rows (as ``RichLog.write`` wraps it, without
        measuring it first: a row is as wide as the log)."""
        if not self._size_known:
            self.write(text, scroll_end=False)  # kept until the log has its size (Textual's own deferral)
            return
        console = self.app.console
        width = max(self.scrollable_content_region.width, self.min_width)
        rows = [Strip(list(row.render(console))) for row in text.wrap(console, width)] or [Strip.blank(width)]
        self.lines.extend(rows)
        if self.max_lines is not None and len(self.lines) > self.max_lines:
            self._start_line += len(self.lines) - self.max_lines
            self.lines = self.lines[-self.max_lines:]
        self._widest_line_width = max(self._widest_line_width, *(row.cell_length for row in rows))
        self.virtual_size = Size(self._widest_line_width, len(self.lines))

    def _settle(self) -> None:
        """The scrollbar brought up to the lines, and the log scrolled to its end at once: only
        the log repainted, and its scrollbar when the thumb moved (a layout only when the
        scrollbar comes or goes)."""
        if not (self._size_known and self.is_mounted):
            return  # written once the log has its size (Textual's own deferral), settled then
        bar = self.show_vertical_scrollbar
        self._scroll_update(self.virtual_size)
        if self.show_vertical_scrollbar != bar:
            self.refresh(layout=True)  # the compositor places the scrollbar
        self.scroll_y = self.max_scroll_y
        self.refresh(self._text_region())

    def _text_region(self) -> Region:
        """The log's lines, without the scrollbar's column: a repaint of the whole log drew the
        scrollbar again too (a widget of its own, every row of it), where its thumb had not moved."""
        return Region(0, 0, self.scrollable_content_region.width, self.size.height)

    def _scroll_update(self, virtual_size: Size) -> None:
        """As Textual's, the vertical scrollbar repainted only if its thumb moved (once the log
        holds its most lines, a line written moves it no more)."""
        self._refresh_scrollbars()
        if self.show_horizontal_scrollbar:
            super()._scroll_update(virtual_size)
            return
        if self.show_vertical_scrollbar and self.styles.scrollbar_size_vertical:
            self._set_bar(window_virtual_size=virtual_size.height,
                          window_size=self.container_size.height - self.scrollbar_size_horizontal)
        self.scroll_x = self.validate_scroll_x(self.scroll_x)
        self.scroll_y = self.validate_scroll_y(self.scroll_y)

    def watch_scroll_y(self, old: float, new: float) -> None:
        if self.show_vertical_scrollbar:
            self._set_bar(position=int(new * 8) / 8)  # the bar's own granularity
        if round(old) != round(new):
            self.refresh(self._text_region())

    def _set_bar(self, **values: float) -> None:
        bar = self.vertical_scrollbar
        before = self._thumb()
        for name, value in values.items():
            bar.set_reactive(getattr(ScrollBar, name), value)
        after = self._thumb()
        if after != before:
            rows = bar_rows_changed(before, after)
            if rows is None:
                bar.refresh()
            elif rows:
                bar.refresh(*(Region(0, y, bar.size.width, 1) for y in rows))

    def _thumb(self) -> tuple[int, ...]:
        """Where the scrollbar's thumb is drawn, in eighths of a row (as ``ScrollBarRender`` draws it)."""
        bar = self.vertical_scrollbar
        size = bar.size.height
        virtual = ceil(bar.window_virtual_size)
        window = ceil(bar.window_size) if bar.window_size < bar.window_virtual_size else 0
        if not (window and size and virtual and size != virtual):
            return (size, -1, virtual, window)  # no thumb: the bar's background only
        thumb = max(1, window / (virtual / size))
        start = int((size - thumb) * (bar.position / (virtual - window)) * 8)
        return (size, start, start + ceil(thumb * 8))

    def retell(self) -> None:
        """Every line said again: a line that came as words is put in the reader's language now."""
        self.lines_ = [(tell, told) for tell, old in self.lines_ if (told := tell() or old) is not None]
        self._rewrite()

    def _rewrite(self) -> None:
        self.clear()
        self.styled.clear()
        for text in self.said:
            self._append(text)
        self._settle()

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if self.wrapped_at and width != self.wrapped_at:
            self._rewrite()
        elif not self.wrapped_at:
            self.call_later(self._settle)  # after the lines written before the log had its size
        self.wrapped_at = width

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.styled.clear()

    def render_lines(self, crop: Region) -> list[Strip]:
        style = self.rich_style  # once a frame, not once a row
        if style != self.style_now:
            self.style_now = style
            self.styled.clear()
        self.frame = (self.scroll_offset, self.scrollable_content_region.width)
        try:
            if not self._plain():
                return super().render_lines(crop)
            return self._rows(crop)
        finally:
            self.frame = None

    def _plain(self) -> bool:
        """The log's styles add nothing to its lines but a background (no border, outline, padding,
        tint, hatch, transparency or links under the mouse), as at the table."""
        styles = self.styles
        return (not any(edge for edge, _ in styles.border) and not any(edge for edge, _ in styles.outline)
                and styles.padding == (0, 0, 0, 0) and not styles.tint.a and self.opacity == 1
                and styles.text_opacity == 1 and not (styles.has_rule("hatch") and styles.hatch != "none")
                and not self.hover_style._link_id)

    def _rows(self, crop: Region) -> list[Strip]:
        """The rows Textual's styles cache would give a log of plain styles, without it: each row
        through it cost a new strip per row and frame (its padding to the log's width, under the
        scrollbar, and the effects a plain log has none of), and the log draws all its rows at every
        line written, as they all scroll. A row is padded to the width with the same style as there,
        and goes through the app's line filters as there."""
        base, background = self.background_colors
        pad = TextualStyle(background=base + background).rich_style
        width = self.size.width
        filters = self.get_line_filters()
        assert self.frame is not None  # drawn within render_lines, which looked these up for the frame
        (scroll_x, scroll_y), text_width = self.frame
        written = len(self.lines)
        rows = []
        for y in crop.line_range:
            at = scroll_y + y
            key = (at + self._start_line, scroll_x, text_width, width)
            row = self.styled.get(key) if at < written else None
            if row is None:
                row = self.render_line(y).adjust_cell_length(width, pad)
                if at < written:
                    self.styled[key] = row  # a line written: the same row until the log's style or width changes
            for line_filter in filters:
                row = row.apply_filter(line_filter, background)
            rows.append(row)
        if crop.column_span != (0, self.outer_size.width):
            x1, x2 = crop.column_span
            rows = [row.crop(x1, x2) for row in rows]
        return rows

    def render_line(self, y: int) -> Strip:
        (scroll_x, scroll_y), width = self.frame or (self.scroll_offset, self.scrollable_content_region.width)
        style = self.style_now if self.style_now is not None else self.rich_style
        at = scroll_y + y
        if at >= len(self.lines):
            return Strip.blank(width, style)
        key = (at + self._start_line, scroll_x, width)
        strip = self.styled.get(key)
        if strip is None:
            strip = self.lines[at].crop_extend(scroll_x, scroll_x + width, style).apply_style(style)
            if len(self.styled) > 4 * self.KEEP:
                self.styled.clear()
            self.styled[key] = strip
        return strip


LEAVING = {
    "cacho": N_("A bot plays your seat until someone takes it; your chips stay with the seat."),
    "pifpaf": N_("A bot plays your seat until someone takes it; your chips stay with the seat."),
    "cacheta": N_("A bot plays your seat until someone takes it; your points stay with the seat."),
    "truco_paulista": N_("A bot plays your seat until someone takes it; your team plays on with it."),
    "truco_argentino": N_("A bot plays your seat until someone takes it; your team plays on with it."),
}
"""What leaving mid-match does to the seat, in the game's own terms (chips, points, a team)."""
LEAVING_ANY = N_("A bot plays your seat until someone takes it.")
LEAVING_TOURNAMENT = N_("A bot plays your seat until you come back (nobody else may take it); "
                        "the match still counts for you.")
"""At a tournament's table the seat stays its player's: only they may sit there again."""


class LeaveScreen(ConfirmScreen):
    """Asks before leaving a hand in progress: a bot takes the seat."""

    def __init__(self, game: str, seats: int = 0, tournament: bool = False) -> None:
        said = LEAVING.get(game, LEAVING_ANY)
        if tournament:
            said = LEAVING_TOURNAMENT
        elif seats == 2 and game.startswith("truco"):
            said = LEAVING_ANY  # one against one: there is no team to play on with
        super().__init__(_("Leave the table in the middle of the match?"), _(said),
                         _("Stay (escape)"), _("Leave (y)"))


class KeyButton(Button):
    """A button that has a key of its own: it never takes the focus, so keys keep their meaning."""

    can_focus = False

    def __init__(self, label: str, variant: Literal["default", "primary"] = "default", id: str | None = None) -> None:
        super().__init__(label, variant=variant, id=id)
        self.compact = True


class Account(Static):
    """A hand's summary: drawn once for each account at each width. Textual drew it once to
    measure its height, again to paint it, and again whenever the panel was repainted (a hand's
    end at a table of bots is a layout or two in every few messages, and its table is the
    costliest thing on screen to draw)."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._drawn: tuple[object, object, int, list[Strip]] | None = None
        """The visual, its style and the width it was last drawn at, and its lines."""

    def drawn(self, width: int) -> list[Strip]:
        visual, style = self.visual, self.visual_style
        if self._drawn is not None and self._drawn[:3] == (visual, style, width):
            return self._drawn[3]
        strips = Visual.to_strips(self, visual, width, None, style)
        self._drawn = (visual, style, width, strips)
        return strips

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.drawn(width)) if width else 0

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        strips = self.drawn(width)
        return strips[y].adjust_cell_length(width) if y < len(strips) else Strip.blank(width, self.rich_style)


ADJUST = Binding.Group(N_("More/less"), compact=True)


class TableScreen(Screen[None]):
    BLANK = True
    """The screen's own background is drawn as blank lines at once, not line by line through its
    styles: its widgets cover all of it, and a frame drew it under every row it changed."""
    AUTO_FOCUS = None
    """Nothing takes the focus by itself: the chat line only on /, the board if it takes keys."""
    BINDINGS = [
        Binding("escape", "leave", N_("Leave")),
        Binding("enter", "go_on", N_("Go on")),
        Binding("slash", "chat", N_("Chat")),
        Binding("question_mark", "help", N_("Rules")),
        # In the footer (so a finger reaches them) only while there is an amount or a signal to change.
        # One footer item for both, so that at 80 columns it still fits beside the rest.
        Binding("plus,equals_sign", "adjust(1)", N_("More"), key_display="+", group=ADJUST),
        Binding("minus", "adjust(-1)", N_("Less"), key_display="-", group=ADJUST),
        Binding("i", "players", N_("Players"), show=False),
        # Spectators of a table with the delayed full view: the hands already over, every card face up.
        Binding("v", "last_hand", N_("Last hand face up")),
    ]
    footer_gives_way = ("quit", "chat")
    """When the hand's keys leave no room at 80 columns (Portuguese, Spanish), Quit and then Chat give
    way in the footer, whole: ctrl+q still quits, and the chat line under the log says "/ chat"."""

    def __init__(self, conn: Connection, token: str, seat: int, table: common_pb2.TableSummary) -> None:
        super().__init__()
        self._compositor = MapKeepingCompositor()  # the map of widgets made once per layout
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
        yield Header()
        if self.spectating:
            yield Static(Text(_("SPECTATING · read-only: public play only"), style="bold black on yellow"),
                         id="spectator-banner")
        yield Static("", id="conn-banner")
        with Horizontal(id="table-main"):
            with Column(id="table-left"):
                board = board_for(self.model.game)
                yield board
                with Vertical(id="summary"):
                    yield Account(id="summary-body")
                    yield Static("", id="summary-foot")
                    with Horizontal(id="summary-buttons"):
                        yield KeyButton(_("Play again (enter)"), variant="primary", id="summary-again")
                        yield KeyButton(_("Leave (escape)"), id="summary-leave")
                yield Static("", id="turn-line")
                if not self.spectating:
                    yield ActionBar(board.HANDLES, id="actions")
            with Vertical(id="table-right"):
                yield TableLog(id="log")
                yield Input(placeholder=_(CHAT_IDLE), id="chat", max_length=300)
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
        self.follow()
        self.set_interval(0.5, self._tick)
        self.call_after_refresh(self._settle_memory)
        if summary.tournament_id:
            self._tournament_rounds()

    @work(exit_on_error=False)
    async def _tournament_rounds(self) -> None:
        """How many rounds the tournament plays: the last round's end speaks of no next one."""
        self.rounds = await rounds_of(self.conn, self.model.summary.tournament_id)

    def _settle_memory(self) -> None:
        """Once the table is on screen: what the lobby left behind collected, and what lives now
        (the imported modules, the app, this screen's widgets: over 100,000 objects) moved out of
        the collector's sight until the table is left. A full collection otherwise walks them all:
        about one every hundred messages at full pace, each 50–100 ms on a busy 2-core machine, a
        frame late by that much (the screen's slowest paints were these, not its own work).
        A browser guest's parent froze what the guests share before forking it: left as it is."""
        if gc.get_freeze_count():
            return
        gc.collect()
        gc.freeze()
        self.froze = True
        young, middle, _full = self.thresholds
        gc.set_threshold(young, middle, FULL_AFTER)

    def on_unmount(self) -> None:
        """Leaving the table: what this screen froze is the collector's again (its widgets, which
        are garbage now, among it)."""
        if self.froze:
            self.froze = False
            gc.unfreeze()
            gc.set_threshold(*self.thresholds)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < NARROW, "-narrow")
        self.set_class(event.size.height >= TALL and event.size.height * 2 > event.size.width, "-tall")

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
        self.query_one("#summary-again", Button).label = _("Play again (enter)")
        self.query_one("#summary-leave", Button).label = _("Leave (escape)")
        chat = self.query_one("#chat", Input)
        chat.placeholder = _(CHAT_TYPING if chat.has_focus else CHAT_IDLE)
        self._show_summary()
        self._tick()

    # -- the stream ----------------------------------------------------------------
    @work(exclusive=True, exit_on_error=False)
    async def follow(self) -> None:
        try:
            async for msg in self.conn.follow(self.token, on_retry=self._retrying, fair=self.fair):
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
            self.model = self.model.with_summary(msg.snapshot.table).with_view(msg.snapshot.view, msg.seq)
            self.holders = holders_of(msg.snapshot.view.seats)
            self._set_online(True)
        elif body == "update":
            events = list(msg.update.events)
            now = (holders_of(msg.update.view.seats) if msg.update.HasField("view") else self.holders)
            played = self.model.played_by
            for ev, then in zip(events, names_then(events, now, self.seat), strict=True):
                self._note(ev, then)
                played = played_after(played, ev, then.names)
                self.write_log(self._telling(self.model.then(then), ev))
            self.model = replace(self.model, played_by=played)
            if msg.update.HasField("view"):
                self.model = self.model.with_view(msg.update.view, msg.seq)
                self.holders = now
        elif body == "closing":
            closing = msg.closing
            self.write_log(lambda: Text(closing_text(closing)), "red")
            self._set_online(False)
            if not closing.resubscribe:  # over for good: no turn, no timer, no actions
                self.gone = True
                self.model = replace(self.model, legal=(), deadline=None)
        for verdict in self.fair.told(msg):  # a finished hand's deal, checked: ✔ or a warning
            self.write_log(self._verdict(verdict))
            self.verdict = verdict
        self._ending()
        self.board.model = self.model  # every view (truco's card keys stay where each card was dealt)
        if not self.showing:  # the widgets catch up once for the messages waiting now
            self.showing = True
            self.call_later(self._show)

    def _note(self, event: table_pb2.Event, then: Then) -> None:
        """Keep what a summary needs from the events that end hands and matches."""
        kind = event.WhichOneof("body")
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
            if not ended[0]:
                self.summary_open = False  # the next hand is dealt
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
            if adjustable != self.adjustable:  # the footer offers More/Less only then
                self.adjustable = adjustable
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
        if was != self.summary_open:
            self.refresh_bindings()

    def _account(self, said: RenderableType) -> Group:
        """A summary as the board draws it: the account, then what comes next (the foot)."""
        return Group(*flat(said), Text(""), self._summary_foot())

    def summary_text(self) -> RenderableType:
        """The board's account of the hand (or match), or a plain one from the events; each seat
        named as it was when the hand ended."""
        model = self.model
        if self.ended_then is not None:
            model = model.then(self.ended_then)
        view = model.view
        assert view is not None
        parts: list[RenderableType] = []
        if view.match_over:
            parts.append(Text(ngettext("The match is over after {n} hand.", "The match is over after {n} hands.",
                                       view.hand).format(n=view.hand), style="bold magenta"))
        told = self.board.result_summary(model)
        parts.append(told if told is not None else self._plain_summary(model))
        dealt = self.dealt_names or {}  # the seeds are the dealt-to seats' holders', whoever sits there now
        seeds = self.verdict.seeds_said(lambda seat: dealt.get(seat) or model.name(seat)) \
            if self.verdict is not None else None
        if seeds is not None:  # whose seeds the deal used; anyone seated and connected left out is flagged
            parts.append(Text(""))
            parts.append(Text(seeds.text.plain, style=seeds.style))
        return Group(*parts)

    def _plain_summary(self, model: TableModel) -> Text:
        view = model.view
        assert view is not None
        out = Text(_("Hand {n} is over.").format(n=view.hand), style="bold")
        ended = self.hand_ended
        if ended is not None:
            if ended.HasField("team"):
                out.append(" " + _("Team {n} wins it.").format(n=ended.team + 1))
            elif ended.HasField("winner"):
                out.append_text(line(" ", fmt(_("{name} wins it."), name=who(model, ended.winner))))
            for seat, delta in enumerate(ended.deltas):
                out.append_text(line("\n  ", who(model, seat), f"  {delta:+d}"))
        if self.match_ended is not None:
            m = self.match_ended
            if m.HasField("team"):
                out.append("\n" + _("Team {n} wins the match.").format(n=m.team + 1), style="bold magenta")
            elif m.HasField("winner"):
                out.append_text(line("\n", fmt(_("{name} wins the match."), name=who(model, m.winner))))
        return out

    def _summary_foot(self) -> Text:
        view = self.model.view
        deadline = self.model.deadline
        secs = f"{max(0, deadline - time.monotonic()):.0f}" if deadline is not None else None
        if view is not None and view.match_over and self.model.summary.tournament_id:
            last = self.rounds is not None and self.model.summary.tournament_round >= self.rounds
            said = (_("This table's game for the tournament is over: the tournament ends when every table's is.")
                    if last else _("This table's game for the tournament is over: the next round opens when every "
                                   "table's is."))
            if self.spectating:  # a player's way back is the Leave button's (one escape line, not two)
                said += " " + _("(escape: back to the standings)")
            return Text(said, style="italic")
        if view is not None and view.match_over:
            text = _("A new game begins in {s} s.") if secs is not None else _("A new game begins soon.")
            text = text.format(s=secs)
            if self.spectating:
                text += " · " + _("enter: back to the table")
            return Text(text, style="italic")
        text = _("Next hand in {s} s") if secs is not None else _("Next hand soon")
        return Text(text.format(s=secs) + " · " + _("enter: back to the table"), style="italic")

    def action_go_on(self) -> None:
        """Enter: close the summary (at a match's end, stay for the next match)."""
        if self.summary_open:
            self.summary_open = False
            self._show_summary()

    @on(Button.Pressed, "#summary-again")
    def _again(self) -> None:
        self.action_go_on()

    @on(Button.Pressed, "#summary-leave")
    async def _summary_leave(self) -> None:
        await self.leave()

    @staticmethod
    def _telling(model: TableModel, event: table_pb2.Event) -> Telling:
        """An event's log line, said in the reader's language of the moment it is read."""
        def tell() -> Text | None:
            said = event_words(model, event)
            if said is None:
                return None
            text = said.text
            if said.style:
                text = text.copy()
                text.stylize(said.style)
            return text

        return tell

    @staticmethod
    def _verdict(verdict: Verdict) -> Telling:
        def tell() -> Text:
            said = verdict.said()
            text = said.text.copy()
            text.stylize(said.style)
            return text

        return tell

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
        line_ = self.query_one("#turn-line", Static)
        if self.summary_open and self.said_on_board is not None:  # the countdown under the summary
            self.board.show_account(self._account(self.said_on_board))
        elif self.summary_open:
            self._say(self.query_one("#summary-foot", Static), self._summary_foot(), layout=True)
        view = self.model.view
        if view is None or view.WhichOneof("game") in (None, "waiting"):
            self._say(line_, Text(_("Waiting for players to take the open seats…"), style="italic"))
            return
        if self.gone:
            self._say(line_, Text(_("This table is over for you · escape: back to the lobby"), style="bold"))
            return
        waiting = list(view.to_act)
        deadline = self.model.deadline
        secs = max(0, deadline - time.monotonic()) if deadline is not None else None
        left = f" · {secs:.0f} s" if secs is not None else ""
        if not self.online:
            left = " · " + _("the timer waits for the server")
        if not waiting:
            s = f"{secs:.0f}" if secs is not None else None
            if view.match_over:
                said = _("Match over · a new game begins in {s} s") if s else _("Match over · a new game begins soon")
                self._say(line_, Text(said.format(s=s), style="bold"))
            else:
                said = _("Hand over · next hand in {s} s") if s else _("Hand over · next hand soon")
                self._say(line_, Text(said.format(s=s) if view.hand_over else ""))
            return
        # A seat still waited on with nothing left to do (it let a claim window go, which stays open its
        # whole time) is not told "Your turn" over "Nothing to do right now".
        mine = self.seat in waiting and bool(self.model.legal)
        if self.seat in waiting and not mine:
            self._say(line_, Text(_("Waiting for the others") + left, style="bold"))
            return
        names = ", ".join(self.model.name(s) for s in waiting)
        text = _("Your turn") if mine else ngettext("{names} to act", "{names} to act", len(waiting)).format(
            names=names)
        self._say(line_, Text(text + left, style="bold reverse" if mine else "bold"))

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
        except Exception as err:
            self.notify(error_text(err), title=_("Not allowed"), severity="warning")

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
            return self.summary_open
        if action == "last_hand":
            return self.spectating and self.model.summary.delayed_spectator_view
        return True

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
            self.query_one("#chat", Input).placeholder = _(CHAT_TYPING)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget.id == "chat":
            self.query_one("#chat", Input).placeholder = _(CHAT_IDLE)

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
        # A leave the server does not hear is said so and sent again until it is (client.leaving).
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
        self.app.push_screen(HelpScreen(self.model.game, table), self._help_closed)

    def _help_closed(self, _closed: None) -> None:
        self.help_closed = time.monotonic()

    def action_players(self) -> None:
        self.app.push_screen(SeatsScreen(self.conn, self.model))
