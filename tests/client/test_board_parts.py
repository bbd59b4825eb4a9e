"""A board drawn from kept parts shows exactly what drawing it whole shows, and draws a burst of
messages once.

The seats' grid drawn a row and a cell at a time (``GridRow``) is checked against Rich's own
``Table.grid`` segment for segment; a board's lines against Textual drawing its whole
renderable, before and after messages that change a part; and views that come together are
drawn once. (A key that changes a line or two repaints only those: ``test_rummy``.)
"""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console, Group
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.strip import Strip
from textual.visual import RichVisual, Visual

from cardtui.client.boards.base import Board
from cardtui.client.boards.parts import GridRow, part_key
from tests.client.test_table_layout import TableApp, stream
from tests.client.test_table_log import counting
from tests.client.waiting import shown

CELLS: list[Text] = [
    Text(""),
    Text("▶ ", style="bold yellow") + Text("ana", style="bold green") + Text(" (you)", style="green"),
    Text("Hand 3\nRound 2\n", style="bold", justify="center") + Text("Pot 8", style="bold yellow"),
    Text("a name far too long for any column of the grid at all, so it wraps " * 2, style="italic"),
    Text("  17 chips\n  bet 3\n   6♠  5♠\n  in", style=Style(color="red", meta={"@click": "slot(1)"})),
    Text("\n\n"),
    Text("right", justify="right"),
]


def rich_grid(rows: list[tuple[Text, Text, Text]]) -> Table:
    grid = Table.grid(expand=True, padding=(0, 1))
    for _column in range(3):
        grid.add_column(ratio=1)
    for row in rows:
        grid.add_row(*row)
    return grid


@pytest.mark.parametrize("width", [16, 17, 20, 33, 50, 51, 52, 76, 117])
def test_the_seats_grid_draws_as_rich_draws_it(width: int) -> None:
    rows = [(CELLS[(i + k) % len(CELLS)], CELLS[(i * 3 + k) % len(CELLS)], CELLS[(i * 5 + 2 * k) % len(CELLS)])
            for i in range(len(CELLS)) for k in range(3)]
    console = Console(width=width, file=io.StringIO(), color_system="truecolor")
    whole = console.render_lines(rich_grid(rows), console.options, pad=False)
    by_rows = console.render_lines(Group(*(GridRow(row) for row in rows)), console.options, pad=False)
    assert by_rows == whole


def test_a_part_is_known_by_its_content_not_its_identity() -> None:
    a = Text("bet 3", style="yellow")
    assert part_key(a) == part_key(Text("bet 3", style="yellow"))
    assert part_key(a) != part_key(Text("bet 4", style="yellow"))
    assert part_key(a) != part_key(Text("bet 3", style="red"))
    assert part_key(a) != part_key(Text("bet 3", style="yellow", justify="center"))
    styled = Text("bet 3")
    styled.stylize("bold", 0, 3)
    assert part_key(styled) != part_key(Text("bet 3"))
    assert GridRow((a, Text(""), Text(""))).key == GridRow((a.copy(), Text(""), Text(""))).key
    assert GridRow((a, Text(""), Text(""))).key != GridRow((Text(""), a, Text(""))).key


def whole(board: Board) -> list[Strip]:
    """The board drawn as Textual draws a widget's renderable whole, at its size."""
    size = board.size
    return Visual.to_strips(board, RichVisual(board, board.render()), size.width, size.height, board.visual_style)


def with_chips(board: Board, seat: int, chips: int) -> None:
    model = board.model
    assert model is not None and model.view is not None
    view = type(model.view)()
    view.CopyFrom(model.view)
    view.cacho.seats[seat].chips = chips
    board.model = model.with_view(view, model.seq + 1)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_board_drawn_from_kept_parts_shows_what_drawing_it_whole_shows(size: tuple[int, int]) -> None:
    app = TableApp(stream("cacho"), "cacho")
    async with app.run_test(size=size) as pilot:
        await shown(pilot)
        board = app.screen.query_one("#board", Board)
        assert board.lines() == whole(board)
        for chips in (5, 123, 5, 17):  # new parts, then parts drawn before
            with_chips(board, 2, chips)
            await pilot.pause()
            assert board.painted == whole(board)
            assert f"{chips} chips" in "\n".join(strip.text for strip in board.painted)


async def test_messages_that_come_together_are_drawn_once() -> None:
    """Views that come in a burst (bots at full speed) are drawn once, at the next paint, as the last
    of them: the board does not draw the views the screen would never show."""
    app = TableApp(stream("cacho"), "cacho")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot)
        board = app.screen.query_one("#board", Board)
        drawn = counting(board, "lines")
        for chips in (5, 6, 7, 123):
            with_chips(board, 2, chips)
        await pilot.pause()
        assert drawn == [1]
        assert any("123 chips" in strip.text for strip in board.painted)
        assert board.painted == whole(board)


async def test_the_seats_grid_drawn_a_cell_and_a_line_at_a_time_shows_what_drawing_it_whole_shows() -> None:
    """Cells of several lines are drawn a line at a time and kept: the same lines as the row drawn whole,
    with kept lines reused in other cells (the same words in another column or another row)."""
    app = TableApp(stream("cacho"), "cacho")
    async with app.run_test(size=(120, 40)) as pilot:
        await shown(pilot)
        board = app.screen.query_one("#board", Board)
        width = board.size.width
        for i in range(len(CELLS)):
            for k in range(3):
                row = GridRow((CELLS[(i + k) % len(CELLS)], CELLS[(i * 3 + k) % len(CELLS)],
                               CELLS[(i * 5 + 2 * k) % len(CELLS)]))
                whole_row = Visual.to_strips(board, RichVisual(board, row), width, None, board.visual_style)
                assert board.strips(row) == whole_row


def texts(n: int) -> list[Text]:
    """Lines of every kind a board draws: plain, styled whole or in parts, clickable, wide marks,
    justified, too long for a column, blank."""
    rng = random.Random(29)
    words = ["ana", "17 chips", "bet 3", "▒▒▒", " 6♠", "10♥", "⚔", "(you)", "  ", "mão", "Pot 8", "▶"]
    styles: list[str | Style] = ["", "bold", "bold green", "dim italic", "bold black on yellow", "reverse",
                                 Style(meta={"@click": "slot(2)"}), Style.parse("bold reverse") + Style.from_meta(
                                     {"@click": "slot(1)"})]
    out = [Text(""), Text(" "), Text("x" * 70)]
    for _ in range(n):
        line = Text(style=rng.choice(styles), justify=rng.choice([None, None, "left", "default", "center", "right"]))
        for _word in range(rng.randint(1, 7)):
            line.append(rng.choice(words) + rng.choice(["", " ", "  "]), style=rng.choice(styles))
        if rng.random() < 0.3:
            start = rng.randint(0, len(line))
            line.stylize(rng.choice(styles), start, start + rng.randint(0, 6))
        out.append(line)
    return out


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_line_drawn_without_rich_wrapping_it_shows_what_rich_draws(size: tuple[int, int]) -> None:
    """Lines that fit are drawn straight to segments (no wrapping): alone, as a cell of the seats'
    grid and as a line of a cell, they come out as Rich and Textual draw them."""
    app = TableApp(stream("cacho"), "cacho")
    async with app.run_test(size=size) as pilot:
        await shown(pilot)
        board = app.screen.query_one("#board", Board)
        width = board.size.width
        lines = texts(300)
        for line in lines:
            assert board.strips(line) == Visual.to_strips(board, RichVisual(board, line), width, None,
                                                          board.visual_style), line.markup
        for i in range(0, len(lines) - 3, 3):
            row = GridRow((lines[i], lines[i + 1] + Text("\n") + lines[i + 2], lines[i + 3]))
            whole_row = Visual.to_strips(board, RichVisual(board, row), width, None, board.visual_style)
            assert board.strips(row) == whole_row


def plain_table(rng: random.Random, lines: list[Text]) -> Table:
    """A table such as a board draws (seats, tricks, a result), its settings drawn at random."""
    table = Table(box=None, padding=(0, rng.choice([0, 1, 2])), pad_edge=rng.random() < 0.5,
                  collapse_padding=rng.random() < 0.5, show_header=rng.random() < 0.7,
                  header_style=rng.choice(["dim", "", "bold red"]), show_edge=False, expand=False)
    for _column in range(rng.randint(1, 6)):
        table.add_column(rng.choice(["", "chips", "in pot", Text("won by", style="italic")]),
                         justify=rng.choice(["left", "right", "center", "default"]),  # type: ignore[arg-type]
                         no_wrap=rng.random() < 0.7, overflow=rng.choice(["ellipsis", "crop", "fold"]),  # type: ignore[arg-type]
                         style=rng.choice(["", "", "dim"]), width=rng.choice([None, None, None, 1, 3]),
                         min_width=rng.choice([None, None, 4]), max_width=rng.choice([None, None, 6, 16]))
    for _row in range(rng.randint(0, 6)):
        table.add_row(*(rng.choice(lines) for _column in table.columns))
    return table


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_plain_table_drawn_a_line_and_a_cell_at_a_time_shows_what_rich_draws(size: tuple[int, int]) -> None:
    """The seats' table (and the tricks', a result's) is drawn a line at a time, each line and cell
    kept: the same lines as Rich draws the table whole, whether it fits (drawn by lines) or not
    (Rich draws it), for tables of every setting a board uses and more."""
    app = TableApp(stream("cacho"), "cacho")
    async with app.run_test(size=size) as pilot:
        await shown(pilot)
        board = app.screen.query_one("#board", Board)
        width = board.size.width
        rng = random.Random(31)
        lines = [line for line in texts(200) if line.cell_len < 24]
        by_lines = 0
        for _table in range(400):
            table = plain_table(rng, lines)
            board.table_lines.clear()
            drawn = board.strips(table)
            by_lines += bool(board.table_lines)
            assert drawn == Visual.to_strips(board, RichVisual(board, table), width, None, board.visual_style)
        assert by_lines > 150, f"{by_lines} of 400 tables drawn by lines"
