"""A board drawn from parts: each part known by its content, so a part that did not change from
one message to the next is not drawn again.

A board's ``render`` gives a ``Group`` of parts (a line of text, a table, a row of seats). The
board draws each part into lines once and keeps them by ``part_key``: the part's words, styles
and layout, never its identity. The seats around the table are a row of three cells each
(``GridRow``), drawn as Rich draws a ``Table.grid`` of three equal columns but each cell kept
drawn by its own words: a seat whose panel did not change costs nothing when another's did.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.strip import Strip

Key = Hashable
Lines = list[list[Segment]]

COLUMNS = 3
"""Seats sit on a 3×3 grid: three columns of equal width."""
NARROWEST = 16
"""Below this width the columns are not of equal width (Rich gives up its ratios): drawn by Rich whole."""


def text_key(text: Text) -> Key:
    """Everything that decides how a ``Text`` is drawn."""
    return (Text, text.plain, text.style, tuple(text.spans), text.justify, text.overflow, text.no_wrap, text.end,
            text.tab_size)


_TABLE_SKIP = frozenset({"columns", "rows"})


def table_key(table: Table) -> Key | None:
    """A table's settings, its columns' settings and every cell's key; None if a cell has none."""
    settings: list[object] = []
    for name, value in vars(table).items():
        if name not in _TABLE_SKIP:
            settings.append((name, tuple(value) if isinstance(value, list) else value))
    columns: list[object] = []
    for column in table.columns:
        cells = tuple(part_key(cell) for cell in column._cells)
        header, footer = _label_key(column.header), _label_key(column.footer)
        if None in cells or header is None or footer is None:
            return None
        columns.append((header, footer, column.header_style, column.footer_style, column.style, column.justify,
                        column.vertical, column.overflow, column.width, column.min_width, column.max_width,
                        column.ratio, column.no_wrap, column.highlight, cells))
    key = (Table, tuple(settings), tuple(columns), tuple((row.style, row.end_section) for row in table.rows))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _label_key(label: RenderableType) -> Key | None:
    return label if isinstance(label, str) else part_key(label)


def part_key(part: RenderableType) -> Key | None:
    """What a part is drawn from, to find it drawn before; None: drawn every time."""
    if isinstance(part, Text):
        return text_key(part)
    if isinstance(part, GridRow):
        return part.key
    if isinstance(part, Table):
        return table_key(part)
    return None


def flat(part: RenderableType) -> Iterator[RenderableType]:
    """The parts of a ``Group`` (and of groups in it), in order; any other part as it is."""
    if isinstance(part, Group):
        for child in part.renderables:
            yield from flat(child)
    else:
        yield part


class _Probe:
    """A cell that notes the width it is given."""

    def __init__(self, widths: list[int]) -> None:
        self.widths = widths

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        self.widths.append(options.max_width)
        yield Segment.line()


_WIDTHS: dict[int, tuple[int, ...]] = {}


def grid_widths(console: Console, options: ConsoleOptions) -> tuple[int, ...]:
    """The width of each column of ``Board.around``'s grid at this width, padding included, as
    Rich's ``Table.grid(expand=True, padding=(0, 1))`` of three ``ratio=1`` columns makes them
    (they do not depend on what the cells hold)."""
    width = options.max_width
    widths = _WIDTHS.get(width)
    if widths is None:
        inner: list[int] = []
        grid = Table.grid(expand=True, padding=(0, 1))
        for _column in range(COLUMNS):
            grid.add_column(ratio=1)
        grid.add_row(*(_Probe(inner) for _ in range(COLUMNS)))
        console.render_lines(grid, options.update(height=None), pad=False)
        widths = tuple(w + sum(_pads(col)) for col, w in enumerate(inner))
        _WIDTHS[width] = widths
    return widths


def grid_right(col: int) -> int:
    """The padding at the right of a cell of column ``col``."""
    return _pads(col)[1]


def _pads(col: int) -> tuple[int, int]:
    """A cell's (left, right) padding, as a grid pads it: one cell between columns (a grid collapses
    the left padding into the right one before it), none at the grid's right edge."""
    return 0, (0 if col == COLUMNS - 1 else 1)


def cell_lines(console: Console, options: ConsoleOptions, cell: RenderableType, col: int, width: int) -> Lines:
    """A cell of column ``col`` drawn at the column's ``width`` (padding included), as ``Table._render``
    draws a cell of a column with its defaults (left, top, ellipsis, wrapped)."""
    left, right = _pads(col)
    cell_options = options.update(width=width, justify="left", no_wrap=False, overflow="ellipsis", height=None,
                                  highlight=False)
    return console.render_lines(Padding(cell, (0, right, 0, left)), cell_options)


class GridRow:
    """One row of three cells of ``Board.around``'s grid, drawn line for line as Rich's
    ``Table.grid`` draws it. A board draws each cell apart (``cell``) and keeps it by its
    key; printed as it is (``__rich_console__``), the row is drawn whole."""

    def __init__(self, cells: Sequence[RenderableType]) -> None:
        self.cells = tuple(cells)
        self.keys = tuple(part_key(cell) for cell in self.cells)
        self.key: Key | None = None if None in self.keys else (GridRow, self.keys)

    def _table(self) -> Table:
        grid = Table.grid(expand=True, padding=(0, 1))
        for _column in range(COLUMNS):
            grid.add_column(ratio=1)
        grid.add_row(*self.cells)
        return grid

    def cell(self, console: Console, options: ConsoleOptions, col: int, width: int) -> Lines:
        return cell_lines(console, options, self.cells[col], col, width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width < NARROWEST:
            yield self._table()
            return
        widths = grid_widths(console, options)
        drawn = [self.cell(console, options, col, width) for col, width in enumerate(widths)]
        height = max(1, *(len(lines) for lines in drawn))
        plain = Style.null()
        shaped = [Segment.set_shape(Segment.align_top(lines, width, height, plain), width, height)
                  for lines, width in zip(drawn, widths, strict=True)]
        end = Segment.line()
        for y in range(height):
            for lines in shaped:
                yield from lines[y]
            yield end


class Drawn:
    """Lines drawn already, drawn again as they are."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        end = Segment.line()
        for line in self.lines:
            yield from line
            yield end


def keep(kept: dict[Any, Any], key: Any, value: Any, most: int) -> None:
    """Keep ``value`` by ``key``, dropping the oldest beyond ``most``."""
    kept[key] = value
    while len(kept) > most:
        del kept[next(iter(kept))]


JUSTIFIED = (None, "default", "left", "center", "right")


def one_line(text: Text, width: int) -> bool:
    """A text that Rich draws on one line at ``width`` as it is (no wrapping, no tabs, justified
    plainly): ``line_segments`` draws it without Rich's wrapping."""
    return (text.end == "\n" and text.justify in JUSTIFIED and "\n" not in text.plain and "\t" not in text.plain
            and text.cell_len <= width)


def line_segments(console: Console, text: Text, width: int, justify: str | None) -> list[Segment]:
    """A ``one_line`` text drawn as ``Text.__rich_console__`` draws it at ``width`` (``justify``: the
    options' own, used where the text has none), justified as ``Lines.justify`` does."""
    line = text.copy()
    how = text.justify or justify
    if how == "left":
        line.pad_right(width - line.cell_len)
    elif how == "center":
        line.rstrip()
        line.pad_left((width - line.cell_len) // 2)
        line.pad_right(width - line.cell_len)
    elif how == "right":
        line.rstrip()
        line.pad_left(width - line.cell_len)
    return list(Text("\n").join([line]).render(console))


def styled(segments: list[Segment], base: Style, links: tuple[Style, ...]) -> Strip:
    """A line's segments with the widget's base style under them and the style of links over any
    clickable part, as Textual styles a widget's rendered lines (``_Styled``, then ``to_strips``)."""
    out: list[Segment] = []
    add = base.__add__
    for text, style, _control in segments:
        style = add(style)
        if style._meta is not None and "@click" in style.meta:
            for link in links:
                style = style + link
        out.append(Segment(text, style))
    return Strip(out)
