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


def said_key(drawing: RenderableType) -> tuple[Key | None, ...]:
    """What a drawing is made of, part by part (``part_key``; None in it: a part that cannot be
    told by its content, so the drawing is taken as new)."""
    return tuple(part_key(part) for part in flat(drawing))


def said_again(before: tuple[Key | None, ...] | None, after: tuple[Key | None, ...]) -> bool:
    """Whether a drawing made of ``after`` shows what one made of ``before`` showed (``said_key``)."""
    return after == before and None not in after


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


def cell_padding(table: Table, col: int, first_row: bool, last_row: bool) -> tuple[int, int, int, int]:
    """A cell's (top, right, bottom, left) padding, as ``Table._get_cells`` pads it."""
    top, right, bottom, left = table.padding
    if table.collapse_padding:
        if col:
            left = max(0, left - right)
        if not last_row:
            bottom = max(0, top - bottom)
    if not table.pad_edge:
        if col == 0:
            left = 0
        if col == len(table.columns) - 1:
            right = 0
        if first_row:
            top = 0
        if last_row:
            bottom = 0
    return top, right, bottom, left


def _padding_width(table: Table, col: int) -> int:
    """``Table._get_padding_width``: the padding a column's fixed or clamped width counts."""
    _top, right, _bottom, left = table.padding
    if table.collapse_padding:
        left = 0
    if not table.pad_edge:
        if col == 0:
            left = 0
        if col == len(table.columns) - 1:
            right = 0
    return left + right


def table_cells(table: Table, console: Console) -> list[list[tuple[Style, Text]]] | None:
    """A table's lines as its cells (the style Rich draws the cell in, and its text), header first;
    None where a cell is not a plain one-line text, or the table is more than a plain grid (a box,
    a title, row styles...): Rich draws it whole."""
    if (table.box is not None or table.expand or table.show_footer or table.show_lines or table.leading
            or table.min_width is not None or table.width is not None or table.title or table.caption
            or table.row_styles or table.padding[0] or table.padding[2] or not table.columns
            or any(row.style is not None for row in table.rows)):
        return None
    get_style = console.get_style
    lines: list[list[tuple[Style, Text]]] = []
    if table.show_header:
        head: list[tuple[Style, Text]] = []
        for column in table.columns:
            header = column.header
            if isinstance(header, str):
                if "[" in header or ":" in header:
                    return None  # markup or an emoji code: Rich reads it
                header = Text(header)
            if not isinstance(header, Text):
                return None
            head.append((get_style(table.header_style or "") + get_style(column.header_style), header))
        lines.append(head)
    styles = [get_style(column.style or "") for column in table.columns]
    for index in range(table.row_count):
        cells: list[tuple[Style, Text]] = []
        for column, style in zip(table.columns, styles, strict=True):
            cell = column._cells[index]
            if not isinstance(cell, Text):
                return None
            cells.append((style, cell))  # a row's own style: none (``table_cells`` draws no row styles)
        lines.append(cells)
    for cells in lines:
        for _style, text in cells:
            if "\n" in text.plain or "\t" in text.plain or text.end != "\n":
                return None
    return lines


def table_widths(table: Table, lines: list[list[tuple[Style, Text]]], width: int) -> list[int] | None:
    """The width of each column of a table (``table_cells``) drawn at ``width``, padding included,
    as ``Table._calculate_column_widths`` makes them where the table fits as it is; None where it
    does not (Rich then shrinks its columns): drawn by Rich whole."""
    last = len(lines) - 1
    widths: list[int] = []
    for col, column in enumerate(table.columns):
        padding = _padding_width(table, col)
        if column.width is not None:
            most = min(column.width + padding, width)
        else:
            most = 0
            for row, cells in enumerate(lines):
                _top, right, _bottom, left = cell_padding(table, col, row == 0, row == last)
                extra = left + right
                if width - extra < 1:
                    return None
                text = min(cells[col][1].cell_len, width)  # the text measured at the table's width
                most = max(most, min(text + extra, width))
            most = min(most, width)
            if column.min_width is not None:
                most = max(most, column.min_width + padding)
            if column.max_width is not None:
                most = min(most, column.max_width + padding)
        widths.append(most or 1)
    return widths if sum(widths) <= width else None


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
