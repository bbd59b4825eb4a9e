"""The table's log: what happened at the table, a line each, wrapped at the log's width.

Each line is kept as a way of saying it (``Telling``), so that the log says every line again in
the reader's new language when the language changes, and wraps it again when the width changes.
The widget is drawn for speed (a line written repaints the log, never lays out the screen): the
table writes a line for most messages, at full pace several a frame.
"""

from __future__ import annotations

from collections.abc import Callable
from math import ceil

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Offset, Region, Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.style import Style as TextualStyle
from textual.widgets import RichLog

from cardtui.client.fairness import Verdict
from cardtui.client.models import TableModel
from cardtui.client.words import event_words
from cardtui.v1 import table_pb2

Telling = Callable[[], Text | None]
"""A log line as it is said now: in the reader's language of the moment (None: nothing to say)."""


def event_told(model: TableModel, event: table_pb2.Event) -> Telling:
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


def verdict_told(verdict: Verdict) -> Telling:
    """A finished hand's deal, checked (``client.fairness``): its log line, said in the reader's language."""
    def tell() -> Text:
        said = verdict.said()
        text = said.text.copy()
        text.stylize(said.style)
        return text

    return tell


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

