"""A match drawn hand by hand, as lichess draws a game's advantage: a player's chance of winning the match before
its first hand and after each (``MatchAnalysis.charts``, worked out by the server from the scores), a bar a hand
rising above or falling below the line of even chances, the hands of the worst moments marked ``!``, a cursor moved
with the arrows or a click, and a line under it that says in words where the player stood there. ``enter`` asks for
the hand under the cursor (``MatchChart.Opened``): the screen that holds the chart opens its analysis.

Drawn a line at a time from eighths of a cell (``▁`` to ``█``), so that no plotting library is needed and the
chart reads the same in a terminal and on the browser page: Textual's ``Sparkline`` draws one row of bars from
the bottom, with no line to stand on, no marks and no cursor, and a plotting package (textual-plotext) would be a
dependency for a chart this small. A bar below the line is drawn from the top of its cell
down: the same block with its colours swapped (the glyph in the background's colour, the rest in the bar's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from cardtui.client import gamebook
from cardtui.client.models import TableModel
from cardtui.client.words import who
from cardtui.i18n import N_, _, ngettext
from cardtui.v1 import analysis_pb2

BLOCKS = " ▁▂▃▄▅▆▇█"
"""A cell filled from the bottom by 0 to 8 eighths."""
SLOT = 4
"""The most columns a hand takes (its bar and the gap after it): a short match is not drawn as wide slabs."""
TALL = 30
"""From this many rows of screen the plot is drawn ``ROWS_TALL`` high, below it ``ROWS``: at 80x24 the chart leaves
half the screen to the match's words."""
ROWS = 8
ROWS_TALL = 12
UP, DOWN, CURSOR, MARK, LINE = "green", "red", "yellow", "bold red", "bright_black"


@dataclass(frozen=True, slots=True)
class Columns:
    """Where the points go across the plot: each takes ``slot`` columns, its bar ``bar`` of them; ``count`` points
    from ``first`` are shown (a long match scrolls to keep the cursor in sight)."""

    slot: int
    bar: int
    first: int
    count: int

    def at(self, x: int) -> int | None:
        """The point drawn at column ``x`` of the plot, if any."""
        i = x // self.slot
        return self.first + i if 0 <= i < self.count else None


def columns(points: int, width: int, cursor: int) -> Columns:
    """How ``points`` fit in ``width`` columns with ``cursor`` in sight: as wide as ``SLOT`` allows, at least one
    column a point; those that do not fit are scrolled past, the cursor kept in the middle where it can be."""
    width = max(1, width)
    slot = max(1, min(SLOT, width // max(1, points)))
    bar = slot - 1 if slot > 2 else 1
    count = min(points, max(1, width // slot))
    first = min(max(0, cursor - count // 2), points - count)
    return Columns(slot, bar, first, count)


@dataclass(frozen=True, slots=True)
class Scale:
    """Values to eighths of a cell from the plot's bottom, in two straight pieces that meet at the baseline (the line
    of even chances, or no chips won), which falls on a cell's edge: a value on the line draws no bar, and the ends
    of the range draw the whole height."""

    low: float
    base: float
    high: float
    rows: int
    edge: int
    """The baseline, in eighths from the bottom: a multiple of 8."""

    def line_row(self) -> int:
        """The plot row (0 at the bottom) that draws the baseline: the one above it (a ``▁`` at its foot), or at the
        very top the one below (a ``▔`` at its head)."""
        return self.edge // 8 if self.edge < 8 * self.rows else self.rows - 1

    def eighths(self, value: float) -> int:
        top = 8 * self.rows
        if value >= self.base:
            span = self.high - self.base
            share = (value - self.base) / span if span > 0 else 0.0
            return round(self.edge + share * (top - self.edge))
        span = self.base - self.low
        share = (self.base - value) / span if span > 0 else 0.0
        return round(self.edge - share * self.edge)


def scale(chart: analysis_pb2.MatchChart, rows: int) -> Scale:
    """A chance from 0 around the line of even chances up to 1 (where there are many players and nobody went
    past twice the even chance, up to that: eight at Pif Paf start on an eighth each, and a chart to 100% would
    draw them all flat); chips from the fewest to the most, around none won."""
    values = [p.value for p in chart.points] or [0.0]
    if chart.unit == analysis_pb2.ANALYSIS_UNIT_CHIPS:
        low, base, high = min(min(values), 0.0), 0.0, max(max(values), 0.0)
    else:  # up to a sure win, or for many players up to twice the even chance where nobody went higher
        base = min(max(chart.even, 0.0), 1.0)
        low, high = 0.0, min(1.0, max(max(values), 2.0 * base))
    share = (base - low) / (high - low) if high > low else 0.0
    edge = 8 * min(rows - (1 if base < high else 0), max(1 if base > low else 0, round(share * rows)))
    return Scale(low, base, high, rows, edge)


def cell(bottom: int, top: int, edge: int) -> tuple[str, bool]:
    """A bar from ``edge`` to ``top`` (eighths from the plot's bottom) in the cell whose bottom is ``bottom``: the
    block, and whether it is drawn from the cell's top (swapped colours: a bar below the baseline)."""
    if top >= edge:  # above the line: grows up from the cell's bottom
        filled = max(0, min(8, top - bottom)) if bottom >= edge else 0
        return BLOCKS[filled], False
    if bottom + 8 > edge or bottom + 8 <= top:  # below the line: hangs from the cell's top
        return " ", False
    hangs = min(8, bottom + 8 - top)
    return (BLOCKS[8 - hangs], True) if hangs < 8 else (BLOCKS[8], False)


def value_words(chart: analysis_pb2.MatchChart, value: float) -> str:
    if chart.unit == analysis_pb2.ANALYSIS_UNIT_CHIPS:
        return f"{value:+.0f}"
    return f"{100.0 * value:.0f}%"


def held_words(game: str, held: int) -> str:
    """What a seat holds, in the game's terms: its (team's) points in truco and Cacheta, else chips."""
    known = gamebook.find(game)
    if known is not None and not known.chips:
        return ngettext("{n} point", "{n} points", held).format(n=held)
    return ngettext("{n} chip", "{n} chips", held).format(n=held)


def hand_name(hand: int, place: int, places: bool) -> str:
    """A point's hand as the screen names hands: its place in the match (``places``), or the table's count."""
    if hand == 0:
        return _("Before the first hand")
    return _("After hand {n}").format(n=place if places else hand)


def point_text(model: TableModel, match: analysis_pb2.MatchAnalysis, chart: analysis_pb2.MatchChart, at: int,
               places: bool, opens: bool) -> Text:
    """The point under the cursor in words: when, who, the chance (or chips won) and what they held; whether it is
    one of the worst moments, and that ``enter`` opens it."""
    p = chart.points[at]
    out = Text(hand_name(p.hand, at, places) + ": ", style="bold")
    out.append_text(who(model, chart.seat))
    held = held_words(match.game, p.held)
    if chart.unit == analysis_pb2.ANALYSIS_UNIT_CHIPS:
        won = round(p.value)
        out.append(", " + ngettext("{won} chip won since the match began ({held})",
                                   "{won} chips won since the match began ({held})", abs(won)).format(
            won=f"{won:+d}", held=held))
    else:
        out.append(", " + _("{chance} chance of winning the match ({held})").format(
            chance=value_words(chart, p.value), held=held))
    if p.hand in worst_hands(match):
        out.append(" · " + _("one of the worst moments"), style=MARK)
    if opens and p.hand:
        out.append(" · " + _("enter: its analysis"), style="dim")
    return out


def title_text(model: TableModel, chart: analysis_pb2.MatchChart) -> Text:
    """What the chart draws, and whose (the footer offers ``p`` for another player's)."""
    what = (_("chips won, hand by hand") if chart.unit == analysis_pb2.ANALYSIS_UNIT_CHIPS
            else _("chance of winning the match, hand by hand"))
    out = Text(_("The match drawn") + " · ", style="bold")
    out.append_text(who(model, chart.seat))
    out.append(": " + what)
    return out


def worst_hands(match: analysis_pb2.MatchAnalysis) -> set[int]:
    """The hands of the match's worst moments (the ones its summary lists under the chart), whoever's they were."""
    return {w.hand for w in match.worst}


class ChartPlot(Widget):
    """The drawing: a row of marks over the worst moments, the bars, the hands along the bottom; the values at the
    left. It draws what its ``MatchChart`` holds (its parent) and tells it of a click."""

    def __init__(self) -> None:
        super().__init__(id="chart-plot")

    @property
    def holder(self) -> MatchChart:
        parent = self.parent
        assert isinstance(parent, MatchChart)
        return parent

    def rows(self) -> int:
        return ROWS_TALL if self.screen.size.height >= TALL else ROWS

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.rows() + 2

    def axis_width(self, chart: analysis_pb2.MatchChart, s: Scale) -> int:
        return max(len(value_words(chart, v)) for v in (s.low, s.base, s.high)) + 1

    def layout_now(self) -> tuple[Scale, int, Columns] | None:
        chart = self.holder.chart
        if chart is None or not chart.points:
            return None
        s = scale(chart, self.rows())
        left = self.axis_width(chart, s)
        return s, left, columns(len(chart.points), self.size.width - left, self.holder.cursor)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        found = self.layout_now()
        chart = self.holder.chart
        if found is None or chart is None:
            return Strip.blank(width, base)
        s, left, cols = found
        rows = s.rows
        segments: list[Segment] = []
        if y == 0:
            segments += self._marks(chart, left, cols, base)
        elif y <= rows:
            segments += self._bars(chart, s, rows - y, left, cols, base)
        elif y == rows + 1:
            segments += self._axis(chart, left, cols, base)
        return Strip(segments).adjust_cell_length(width, base).crop(0, width)

    def _label(self, chart: analysis_pb2.MatchChart, s: Scale, row: int, left: int) -> str:
        """The value at the left of plot row ``row`` (0 at the bottom): the top, the baseline, the bottom."""
        if row == s.line_row():
            said = value_words(chart, s.base)
        elif row == s.rows - 1:
            said = value_words(chart, s.high)
        elif row == 0:
            said = value_words(chart, s.low)
        else:
            said = ""
        return said.rjust(left - 1) + " "

    def _bars(self, chart: analysis_pb2.MatchChart, s: Scale, row: int, left: int, cols: Columns,
              base: Style) -> list[Segment]:
        out = [Segment(self._label(chart, s, row, left), base + Style(color=LINE))]
        bottom = 8 * row
        line_row = s.line_row()
        line = "▁" if s.edge < 8 * s.rows else "▔"
        background = base.bgcolor or Color.default()
        for i in range(cols.count):
            at = cols.first + i
            top = s.eighths(chart.points[at].value)
            colour = CURSOR if at == self.holder.cursor else UP if top >= s.edge else DOWN
            glyph, hangs = cell(bottom, top, s.edge)
            bar_style = base + (Style(color=background, bgcolor=colour) if hangs else Style(color=colour))
            if glyph == " " and row == line_row:
                glyph, bar_style = line, base + Style(color=colour if at == self.holder.cursor else LINE)
            out.append(Segment(glyph * cols.bar, bar_style))
            gap = cols.slot - cols.bar
            if gap:
                out.append(Segment((line if row == line_row else " ") * gap, base + Style(color=LINE)))
        return out

    def _marks(self, chart: analysis_pb2.MatchChart, left: int, cols: Columns, base: Style) -> list[Segment]:
        worst = worst_hands(self.holder.match)
        out = [Segment(" " * left, base)]
        for i in range(cols.count):
            hand = chart.points[cols.first + i].hand
            said = "!" if hand and hand in worst else " "
            out.append(Segment(said.center(cols.bar) + " " * (cols.slot - cols.bar), base + Style.parse(MARK)))
        return out

    def _axis(self, chart: analysis_pb2.MatchChart, left: int, cols: Columns, base: Style) -> list[Segment]:
        """The hands along the bottom, each number under its bar where it fits, the cursor's always (reversed)."""
        width = left + cols.count * cols.slot
        names = [self.holder.name_of(cols.first + i) for i in range(cols.count)]
        taken = [False] * (width + 1)
        text = [" "] * width
        styles: list[Style] = [base + Style(color=LINE)] * width

        def put(i: int, style: Style) -> bool:
            word = names[i]
            start = left + i * cols.slot
            if not word or start + len(word) > width or any(taken[start:start + len(word) + 1]):
                return False
            for k, ch in enumerate(word):
                text[start + k], styles[start + k], taken[start + k] = ch, style, True
            taken[start + len(word)] = True
            return True

        here = self.holder.cursor - cols.first
        if 0 <= here < cols.count:
            put(here, base + Style(reverse=True, bold=True))
        for i in range(cols.count):
            if i != here:
                put(i, base + Style(color=LINE))
        return [Segment(ch, st) for ch, st in zip(text, styles, strict=True)]

    def on_click(self, event: events.Click) -> None:
        found = self.layout_now()
        if found is None:
            return
        _s, left, cols = found
        at = cols.at(event.x - left) if event.x >= left else None
        if at is not None:
            self.holder.clicked(at)


class MatchChart(Widget, can_focus=True):
    """A match drawn, for one player at a time (``seat``; ``p`` the next): ``←``/``→`` move the cursor from hand to
    hand, ``enter`` asks for the hand under it (``Opened``), a click moves it there (and on it, opens it)."""

    BINDINGS = [
        Binding("left", "move(-1)", N_("Hand before"), show=False),
        Binding("right", "move(1)", N_("Hand after"), show=False),
        Binding("home", "go(0)", N_("Start"), show=False),
        Binding("end", "go(-1)", N_("End"), show=False),
        Binding("enter", "open", N_("Open the hand")),
        Binding("p", "player", N_("Another player")),
    ]

    cursor: reactive[int] = reactive(0)

    class Opened(Message):
        """``enter`` (or a click) on a hand of the chart: the screen opens that hand's analysis."""

        def __init__(self, hand: int, place: int) -> None:
            super().__init__()
            self.hand = hand
            """The table's hand number (``MatchPoint.hand``)."""
            self.place = place
            """Its place in the match, from 1."""

    def __init__(self, model: TableModel, match: analysis_pb2.MatchAnalysis, seat: int | None = None,
                 places: bool = False, opens: bool = True) -> None:
        super().__init__(id="match-chart")
        self.model = model
        self.match = match
        self.places = places
        """Hands named by their place in the match, as the table names them (else by the table's count)."""
        self.opens = opens
        """Whether ``enter`` opens a hand (the screen can ask for one)."""
        self.charts: Sequence[analysis_pb2.MatchChart] = [c for c in match.charts if c.points]
        mine = next((i for i, c in enumerate(self.charts) if c.seat == seat), 0)
        self.which = mine
        self.set_reactive(MatchChart.cursor, max(0, len(self.chart.points) - 1) if self.chart is not None else 0)

    @property
    def chart(self) -> analysis_pb2.MatchChart | None:
        return self.charts[self.which] if self.charts else None

    def compose(self) -> ComposeResult:
        yield Static(id="chart-title")
        yield ChartPlot()
        yield Static(id="chart-words")

    def on_mount(self) -> None:
        self._said()

    def name_of(self, at: int) -> str:
        """A point's label along the bottom: its hand (by place, or the table's count); the start, 0 by place."""
        chart = self.chart
        if chart is None:
            return ""
        hand = chart.points[at].hand
        return str(at) if self.places else (str(hand) if hand else "")

    def watch_cursor(self) -> None:
        self._said()

    def _said(self) -> None:
        chart = self.chart
        if chart is None or not self.query("#chart-words"):
            return  # not composed yet: on_mount says it
        self.query_one("#chart-title", Static).update(title_text(self.model, chart))
        self.query_one("#chart-words", Static).update(
            point_text(self.model, self.match, chart, min(self.cursor, len(chart.points) - 1), self.places,
                       self.opens))
        self.query_one(ChartPlot).refresh()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open":
            chart = self.chart
            return self.opens and chart is not None and chart.points[self.cursor].hand > 0
        if action == "player":
            return len(self.charts) > 1
        return True

    def action_move(self, by: int) -> None:
        chart = self.chart
        if chart is not None:
            self.cursor = min(max(0, self.cursor + by), len(chart.points) - 1)
            self.refresh_bindings()

    def action_go(self, at: int) -> None:
        chart = self.chart
        if chart is not None:
            self.cursor = at % len(chart.points)
            self.refresh_bindings()

    def action_open(self) -> None:
        chart = self.chart
        if chart is not None and self.opens and chart.points[self.cursor].hand > 0:
            self.post_message(self.Opened(chart.points[self.cursor].hand, self.cursor))

    def action_player(self) -> None:
        if len(self.charts) > 1:
            self.which = (self.which + 1) % len(self.charts)
            chart = self.charts[self.which]
            self.cursor = min(self.cursor, len(chart.points) - 1)
            self._said()
            self.refresh_bindings()

    def clicked(self, at: int) -> None:
        """A click on point ``at``: the cursor goes there; on the cursor's own, the hand opens."""
        self.focus()
        if at == self.cursor:
            self.action_open()
        else:
            self.cursor = at
            self.refresh_bindings()
