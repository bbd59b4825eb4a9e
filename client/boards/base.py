"""The board every game's board builds on: seats and the view, drawn as text."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, ClassVar, Self

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.table import Table
from rich.text import Text
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.visual import RichVisual, Visual, visualize
from textual.widget import Widget

from cardtui.client.actionbar import ActionBar
from cardtui.client.boards.parts import (
    NARROWEST,
    Drawn,
    GridRow,
    Key,
    cell_lines,
    cell_padding,
    flat,
    grid_right,
    grid_widths,
    keep,
    line_segments,
    one_line,
    part_key,
    said_again,
    said_key,
    table_cells,
    table_widths,
    text_key,
)
from cardtui.client.models import TableModel, action_kind
from cardtui.client.option_words import level_words
from cardtui.client.textual_internals import styled
from cardtui.i18n import _
from cardtui.v1 import common_pb2, table_pb2

PLACES = {
    2: {0: (2, 1), 1: (0, 1)},
    3: {0: (2, 1), 1: (1, 2), 2: (1, 0)},
    4: {0: (2, 1), 1: (1, 2), 2: (0, 1), 3: (1, 0)},
    5: {0: (2, 1), 1: (1, 2), 2: (0, 2), 3: (0, 0), 4: (1, 0)},
    6: {0: (2, 1), 1: (1, 2), 2: (0, 2), 3: (0, 1), 4: (0, 0), 5: (1, 0)},
}
"""Where each seat sits on a 3×3 grid, counted round from the viewer (bottom middle)."""


def tapped(action: str) -> RichStyle:
    """The style that makes a part of a board answer a click (a tap on a phone) by running ``action``,
    one of the board's own actions: the same one its key runs."""
    return RichStyle.from_meta({"@click": action})


def bot_tag(seat: common_pb2.SeatSummary, away: str) -> str:
    """A bot's seat in a seat list: "bot hard" (its level), or ``away`` where a bot plays for someone away."""
    if seat.away:
        return away
    return _("bot {level}").format(level=level_words(seat.bot_level)) if seat.bot_level else _("bot")


def holder(view: table_pb2.View | None, seat: int) -> str:
    """Who holds the seat as the table's seat list says (whoever sat down last, a bot, a person a bot
    plays for), never the name a game's view was dealt with: a seat that changed hands mid-match is
    its new holder's on the board, as in the seat list."""
    summary = next((s for s in view.seats if s.seat == seat), None) if view is not None else None
    return summary.name if summary is not None and summary.name else _("seat {n}").format(n=seat + 1)


class Board(Widget):
    """Shows the table model's view; a game's board overrides ``draw``.

    ``HANDLES`` names action types the board offers itself (by its own keys), which the
    action bar then leaves out. The board holds no rules: it draws the facts the view
    carries and the legal list the server sent.
    """

    HANDLES: ClassVar[frozenset[str]] = frozenset()
    FOOTER_GIVES_WAY: ClassVar[tuple[str, ...] | None] = None
    """The actions whose keys give way first in the table's footer when it is too narrow for all of them
    (``client.footer``), if this game's table wants its own order; None: the table screen's."""

    model: reactive[TableModel | None] = reactive(None, always_update=True, repaint=False)
    """Set on every message; the board repaints only when what it draws from changed (``watch_model``)."""

    KEEP_PARTS = 128
    """Parts kept drawn (``strips``): a board's parts for the last few messages."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.touch = False
        """Played by taps (``CardApp.touch``): the board's words say what to tap, never a key."""
        self.drawn_from: tuple[object, ...] | None = None
        """The model's facts the board was last drawn from."""
        self.parts: dict[Key, list[Strip]] = {}
        """Parts drawn before, by their content (``part_key``), at ``parts_for``."""
        self.parts_for: tuple[object, ...] | None = None
        """The width and base styles the kept parts were drawn at."""
        self.cells: dict[Key, list[Strip]] = {}
        """The seats' cells drawn before (``GridRow``), by their content, column and width."""
        self.table_lines: dict[Key, Strip] = {}
        self.table_cells: dict[Key, list[Segment]] = {}
        """A plain table's lines and cells drawn before (``_plain_table``), by their content and width."""
        self.once: dict[int, list[Strip]] = {}
        """Parts without a key, drawn once for the board being drawn now (to fit, then to show); empty
        between drawings."""
        self.drawing = False
        """The board is being drawn (``lines``)."""
        self.drawn_width = 0
        """The width the board is drawn at."""
        self.base = RichStyle.null()
        self.links: tuple[RichStyle, ...] = ()
        """The base style under the board's parts and the style of links over any clickable part."""
        self.painted: list[Strip] = []
        """The board's lines as last drawn, and the size they were drawn at (``painted_at``)."""
        self.painted_at: Size | None = None
        self.stale = True
        """What the board shows may have changed since ``painted`` was drawn."""
        self.settling = False
        self.at_paint = False
        """The board is stale and compares its lines at the next paint (``repaint_at_paint``)."""
        self.on_screen: list[Strip] | None = None
        """The board's lines as the last paint left them on screen (None: not known, or a whole
        repaint is coming)."""
        self.account: Group | None = None
        """A hand's summary standing in for the board's own drawing (``show_account``)."""
        self.account_said: tuple[Key | None, ...] | None = None

    @property
    def size(self) -> Size:
        """The content's size, from the board's own outer size (as the last layout set it) and its
        gutter. Textual's asks the screen where the widget is, and a board draws in the middle of a
        paint, where that question could have the whole screen arranged again (before a layout, the
        map of where widgets are is out of date); a layout that changes the size repaints whole."""
        width, height = self.outer_size
        gutter = self.styles.gutter
        return Size(max(0, width - gutter.width), max(0, height - gutter.height))

    content_size = size

    def watch_model(self, model: TableModel | None) -> None:
        """Repaint, unless the view, the seat and the table are as the board last drew them (a message
        with only events the board does not show, another seat's chat...). A board's own state
        (a card picked, a key pressed) repaints where it changes."""
        facts = None if model is None else (
            model.view.SerializeToString() if model.view is not None else None,
            model.seat, model.summary.SerializeToString())
        if facts != self.drawn_from or facts is None:
            self.drawn_from = facts
            self.repaint_at_paint()

    def repaint_at_paint(self) -> None:
        """Draw the board at the next paint, once for any number of messages before it, and repaint
        the lines that came out different only. A whole repaint would send every line of the board
        through Textual's styles again (its padding, background, links: ``bench/marks.md``), and the
        screen would draw every widget behind and beside those lines; a new view mostly changes a
        few lines (a seat's chips, the turn's mark, the pile). The lines are compared when the screen
        gathers what to paint (``_exchange_repaint_regions``): at the paint, not at each message."""
        if not self.is_mounted:
            self.refresh()
            return
        self.stale = True  # drawn whole at the paint instead where it must be (``_changed``)
        if not self.at_paint:
            self.at_paint = True
            self.call_after_refresh(self._after_paint)
        super().refresh(Region(0, 0, 0, 0))  # asks for a paint without marking a line

    def _after_paint(self) -> None:
        """The paint asked for has been made: if the screen made it without asking the board which
        lines changed, they are marked now. A paint of the whole screen (asked by the screen itself:
        a tap's pointer moving over it, a notice) takes each widget's lines as the screen holds them
        and forgets which widgets asked for a paint; the board's new view stayed off screen until
        the board's next change, up to a claim window's whole time after the tap that let it go."""
        if self.at_paint and self.is_mounted:
            self.at_paint = False
            self._mark_changed()

    def _exchange_repaint_regions(self) -> Collection[Region]:
        """What the screen repaints of the board at this paint: for a new view, the lines that
        differ from those on screen (drawn now). Whatever is repainted, the board's lines as drawn
        are on screen after this paint (``on_screen``)."""
        if self.at_paint:
            self.at_paint = False
            changed = self._changed()
            if changed is None:
                self._set_dirty()
            elif changed:
                self._set_dirty(*changed)
        regions = super()._exchange_repaint_regions()
        if regions:
            if self.stale or self.painted_at != self.size:
                self.lines()
            self.on_screen = self.painted
        return regions

    def _set_dirty(self, *regions: Region) -> None:
        if not regions:
            self.on_screen = None  # all of it is repainted: what the screen held no longer counts
        super()._set_dirty(*regions)

    def show_account(self, account: Group | None) -> None:
        """Draw a hand's summary in the board's place (None: the board again). The summary used to
        stand in for the board as a panel of its own: the board hidden and shown again with every
        hand laid the screen out, moved the focus and the footer's keys away and back, and drew the
        board whole when it came back. Drawn here, the lines that differ are repainted, no more."""
        if account is None and self.account is None:
            return
        said = None if account is None else said_key(account)
        if said is not None and said_again(self.account_said, said):
            return  # the same words again (the summary is said again with every message)
        self.account, self.account_said = account, said
        self.repaint_at_paint()

    def fits(self, account: Group) -> bool:
        """Whether a summary fits the board's place as it stands (else it goes to a panel that scrolls)."""
        height = self.size.height
        return bool(height and self.size.width) and len(self.strips(account)) <= height

    def on_show(self) -> None:
        """Shown again (a summary stood in for it): the screen drew it without asking which lines
        changed, so it is repainted whole once, and compared line by line from then on."""
        self.refresh()

    # -- drawing only what changed ----------------------------------------------------------------
    def redraw(self) -> None:
        """Draw the board again soon (once for any number of calls before then), repainting only
        the lines that came out different: a key pressed (a card picked) or a countdown's tick
        changes a line or two. A new view is drawn at the next paint instead (``watch_model``):
        messages come in bursts at full speed, and the screen paints only the last of a burst."""
        self.stale = True
        if not self.is_mounted:
            self.refresh()
        elif not self.settling:
            self.settling = True
            self.call_later(self.settle)

    def settle(self) -> None:
        """Draw the board now and mark for repaint the lines that differ from those shown."""
        self.settling = False
        self._mark_changed()

    def _mark_changed(self) -> None:
        """Mark for repaint the lines that differ from those on screen (the whole board where that is not
        known: hidden, a summary standing in for it, drawn when shown)."""
        changed = self._changed()
        if changed is None:
            self.refresh()
        elif changed:
            super().refresh(*changed)

    def _changed(self) -> list[Region] | None:
        """Draw the board now if it is stale, and say which of its lines differ from those on screen
        (None: it must be drawn whole, being hidden, resized, or not known to be on screen as drawn).
        Lines are compared with those the last paint left (``on_screen``), not with the last drawn: the
        screen may draw a line of the board between paints (to find the style under the mouse)."""
        if not self.is_mounted:
            return []
        if self.on_screen is None or self.painted_at != self.size or not self.display or not self.outer_size:
            return None
        before = self.on_screen
        after = self.lines() if self.stale else self.painted
        width = self.size.width
        changed: list[Region] = []
        for y in range(max(len(before), len(after))):
            if y < len(before) and y < len(after) and (before[y] is after[y] or before[y] == after[y]):
                continue
            last = changed[-1] if changed else None
            if last is not None and last.bottom == y:
                changed[-1] = Region(0, last.y, width, last.height + 1)
            else:
                changed.append(Region(0, y, width, 1))
        return changed

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        """A whole repaint (a key pressed, the language changed, the size...) draws the board again."""
        if repaint and not regions:
            self.stale = True
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def render_line(self, y: int) -> Strip:
        """A line of the board, from its lines as last drawn (drawn again first if stale)."""
        if self.stale or self.painted_at != self.size:
            self.lines()
        if y < len(self.painted):
            return self.painted[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def lines(self) -> list[Strip]:
        """The board drawn into lines, from its parts (``render``): each part drawn before with the
        same content is taken as it was drawn."""
        size = self.size
        self.stale = False
        self.painted_at = size
        self._check_kept()
        self.drawing = True
        try:
            drawing = self.account if self.account is not None else self.render()
            if isinstance(drawing, Group):
                out: list[Strip] = []
                for part in flat(drawing):
                    out += self.strips(part)
            else:  # a plain text (waiting, connecting): drawn as Textual draws any widget's text
                out = Visual.to_strips(self, visualize(self, drawing, markup=False), size.width, size.height,
                                       self.visual_style)
        finally:
            self.drawing = False
            self.once.clear()
        self.painted = out[: size.height]
        return self.painted

    def _check_kept(self) -> None:
        """Forget the kept parts if they were drawn for another width, base style or style of links."""
        selecting = getattr(self.screen, "_selecting", False) if self.is_attached else False
        link = self.link_style if self.auto_links else None
        self.drawn_width = self.size.width
        now = (self.drawn_width, self.visual_style, link, selecting)
        self.base = self.visual_style.rich_style
        # a clickable part takes the style of links twice: as Textual draws a renderable, then its lines
        self.links = () if link is None else (link,) if self.is_container or selecting else (link, link)
        if now != self.parts_for or self.text_selection is not None:
            self.parts.clear()
            self.cells.clear()
            self.table_lines.clear()
            self.table_cells.clear()
            self.parts_for = None if self.text_selection is not None else now

    def strips(self, part: RenderableType) -> list[Strip]:
        """A part drawn at the board's width (a ``Group``: its parts in turn); a part drawn before with
        the same content is not drawn again."""
        if isinstance(part, Group):
            return [strip for child in flat(part) for strip in self.strips(child)]
        if not self.drawing:
            self._check_kept()
        key = part_key(part)
        found = self.parts.get(key) if key is not None else self.once.get(id(part))
        if found is not None:
            return found
        width = self.drawn_width
        if width <= 0:
            drawn: list[Strip] = []
        elif isinstance(part, GridRow) and width >= NARROWEST:
            drawn = self._row(part, width)
        elif isinstance(part, Table) and self.text_selection is None and (rows := self._plain_table(part, width)):
            drawn = rows
        elif isinstance(part, Text) and one_line(part, width) and self.text_selection is None:
            drawn = [styled(line_segments(self.app.console, part, width, None), self.base, self.links)]
        else:
            drawn = Visual.to_strips(self, RichVisual(self, part), width, None, self.visual_style)
        if key is not None:
            keep(self.parts, key, drawn, self.KEEP_PARTS)
        elif self.drawing:  # the part lives as long as the drawing: its id is its own till then
            self.once[id(part)] = drawn
        return drawn

    def _row(self, row: GridRow, width: int) -> list[Strip]:
        """A row of the seats' grid: each cell drawn apart (kept by its content), then joined line by line."""
        console = self.app.console
        options = self.app.console_options.update(highlight=False, width=width, height=None)
        widths = grid_widths(console, options)
        cells = [self._cell(cell, col, cell_width, console, options)
                 for col, (cell, cell_width) in enumerate(zip(row.cells, widths, strict=True))]
        height = max(1, *(len(strips) for strips in cells))
        blank = self.visual_style.rich_style
        return [Strip.join([strips[y] if y < len(strips) else Strip([Segment(" " * w, blank)], w)
                            for strips, w in zip(cells, widths, strict=True)])
                for y in range(height)]

    def _plain_table(self, table: Table, width: int) -> list[Strip] | None:
        """A plain table (``table_cells``) drawn a line at a time, each line and each cell kept by its
        content: where a seat's row changed (the turn's mark, its cards), that row is drawn again,
        not the table. None: Rich draws it whole (it does not fit as it is, or is more than a grid)."""
        console = self.app.console
        lines = table_cells(table, console)
        widths = None if lines is None else table_widths(table, lines, width)
        if lines is None or widths is None:
            return None
        last = len(lines) - 1
        options = self.app.console_options
        out: list[Strip] = []
        for row, cells in enumerate(lines):
            keys = []
            for col, ((style, text), cell_width) in enumerate(zip(cells, widths, strict=True)):
                column = table.columns[col]
                keys.append((text_key(text), style, cell_width, cell_padding(table, col, row == 0, row == last),
                             column.justify, column.overflow, column.no_wrap, column.highlight))
            key = (Table, tuple(keys))
            strip = self.table_lines.get(key)
            if strip is None:
                segments: list[Segment] = []
                for (style, text), cell_key in zip(cells, keys, strict=True):
                    cell = self._table_cell(console, options, style, text, cell_key)
                    if cell is None:
                        return None
                    segments += cell
                strip = styled(segments, self.base, self.links)
                keep(self.table_lines, key, strip, self.KEEP_PARTS)
            out.append(strip)
        return out

    def _table_cell(self, console: Console, options: ConsoleOptions, style: RichStyle, text: Text,
                    key: tuple[Any, ...]) -> list[Segment] | None:
        """A cell of a plain table, as ``Table._render`` draws it; None if it takes more than a line
        (a text wrapped in a narrowed column): Rich draws the table whole."""
        found = self.table_cells.get(key)
        if found is None:
            _text, _style, width, padding, justify, overflow, no_wrap, highlight = key
            cell_options = options.update(width=width, justify=justify, no_wrap=no_wrap, overflow=overflow,
                                          height=None, highlight=highlight)
            drawn = console.render_lines(Padding(text, padding), cell_options, style=style)
            if len(drawn) != 1:
                return None
            found = Segment.set_shape(drawn, width, 1)[0]
            keep(self.table_cells, key, found, self.KEEP_PARTS * 4)
        return found

    def _cell(self, cell: RenderableType, col: int, width: int, console: Console,
              options: ConsoleOptions) -> list[Strip]:
        """A cell of the seats' grid, kept by its content, column and width. A text of several lines
        is drawn a line at a time (a text wraps each of its lines on its own), each line kept: a
        seat's panel mostly changes a line or two (its chips, its bet, the turn's mark)."""
        content = part_key(cell)
        key = (content, col, width)
        found = self.cells.get(key) if content is not None else None
        if found is not None:
            return found
        right = grid_right(col)
        if isinstance(cell, Text) and "\n" in cell.plain:
            found = [strip for piece in cell.split("\n", allow_blank=True)
                     for strip in self._cell(piece, col, width, console, options)]
        elif isinstance(cell, Text) and one_line(cell, width - right) and self.text_selection is None:
            line = line_segments(console, cell, width - right, "left")
            short = width - right - Segment.get_line_length(line)
            if short > 0:  # a text justified otherwise than left: the cell pads it (Padding, unstyled)
                line.append(Segment(" " * short, RichStyle.null()))
            if right:
                line.append(Segment(" " * right, RichStyle.null()))
            found = [styled(line, self.base, self.links)]
        else:
            found = Visual.to_strips(self, RichVisual(self, Drawn(cell_lines(console, options, cell, col, width))),
                                     width, None, self.visual_style)
        if content is not None:
            keep(self.cells, key, found, self.KEEP_PARTS)
        return found

    @property
    def seat(self) -> int | None:
        return None if self.model is None else self.model.seat

    def action_choose(self, kind: str) -> None:
        """A key the board shows for an action of the action bar (its words beside it), clicked: the
        action the bar would send for that key (``ActionBar.Chosen``), if the server offers it now."""
        model = self.model
        action = next((a for a in model.legal if action_kind(a) == kind), None) if model is not None else None
        if action is not None:
            self.post_message(ActionBar.Chosen(action))

    def render(self) -> RenderableType:
        model = self.model
        if model is None or model.view is None:
            return Text(_("Connecting…"), style="italic")
        if model.view.WhichOneof("game") in (None, "waiting"):
            return self.draw_waiting(model.view)
        return self.draw(model, model.view)

    def draw_waiting(self, view: table_pb2.View) -> Text:
        out = Text(_("Waiting for players") + "\n\n", style="bold")
        for s in view.seats:
            out.append("  " + _("seat {n}").format(n=s.seat + 1) + ": ")
            out.append(s.name or _("open"), style="" if s.name else "dim italic")
            if s.bot:
                level = level_words(s.bot_level)
                out.append("  " + (_("(bot, {level})").format(level=level) if s.bot_level else _("(bot)")), style="dim")
            if s.seat == self.seat:
                out.append("  " + _("← you"), style="bold green")
            out.append("\n")
        return out

    def draw(self, model: TableModel, view: table_pb2.View) -> RenderableType:
        return Text(str(view))

    def result_summary(self, model: TableModel) -> RenderableType | None:
        """What the hand that just ended came to, from the view (``hand_over``): who won what and
        why, each seat's chips or points before and after; at ``match_over`` also the final standing.

        The table screen shows it in place of the board until the next deal. None: the screen
        says it plainly from the ``HandEnded`` and ``MatchEnded`` events.
        """
        return None

    def around(
        self, panels: Mapping[int, RenderableType], centre: RenderableType, rightwards: bool, gap: int = 0
    ) -> Group:
        """Seats around the table with the viewer at the bottom; ``rightwards``: play turns right.

        ``gap``: blank lines between the rows of seats (a tall terminal has room for them). A grid of
        three equal columns, a row at a time (``GridRow``): each seat's cell is drawn again only
        when its panel changed.
        """
        n = len(panels)
        ref = self.seat if self.seat is not None else 0
        places = PLACES.get(n, {d: (d // 3, d % 3) for d in range(n)})
        cells: dict[tuple[int, int], RenderableType] = {(1, 1): centre}
        for seat, panel in panels.items():
            row, col = places[(seat - ref) % n]
            cells[(row, col if rightwards else 2 - col)] = panel
        rows: list[GridRow] = []
        for row in range(3):
            if row and gap:
                rows.append(GridRow((Text("\n" * (gap - 1)), Text(""), Text(""))))
            rows.append(GridRow([cells.get((row, col), Text("")) for col in range(3)]))
        return Group(*rows)

    def seat_name(self, seat: int) -> Text:
        model = self.model
        summary = None
        if model is not None and model.view is not None:
            summary = next((s for s in model.view.seats if s.seat == seat), None)
        name = holder(model.view if model is not None else None, seat)
        out = Text(name, style="bold green" if seat == self.seat else "bold")
        if summary is not None and summary.bot:
            if summary.away:
                # Short, so a seat's name and tag take at most two lines in an 80x24 board's columns.
                said = _("[away: bot {level}]") if summary.bot_level else _("[away: bot]")
            else:  # a bot's seat is named "bot N" already: its level is what is left to say
                said = _("({level})") if summary.bot_level else ""
            if said:
                out.append(" " + said.format(level=level_words(summary.bot_level)), style="dim")
        if seat == self.seat:
            out.append(" " + _("(you)"), style="green")
        return out
