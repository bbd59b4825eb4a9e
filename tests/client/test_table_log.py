"""The table's log: a line written costs a repaint of the log, not a layout of the screen, and the
log still scrolls to its last line, wraps at its width and keeps its scrollback."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text
from textual.app import App
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Static

from cardtui.client.table_log import TableLog, bar_rows_changed
from cardtui.client.textual_internals import drawn_lines, on_layout, restyle


class LogApp(App[None]):
    CSS = """
    #board { width: 1fr; }
    TableLog { width: 30; scrollbar-gutter: stable; overflow-x: hidden; }
    """

    def compose(self) -> Iterator[Widget]:
        with Horizontal():
            yield Static("the board", id="board")
            yield TableLog(id="log")


def counting(obj: Any, name: str) -> list[int]:
    """Counts the calls of ``obj.name`` from now on."""
    calls = [0]
    method = getattr(obj, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return method(*args, **kwargs)

    setattr(obj, name, counted)
    return calls


def bottom_row(app: App[None], log: TableLog) -> str:
    """The log's last row as the screen shows it."""
    strips = drawn_lines(app.screen)
    region = log.content_region
    return strips[region.bottom - 1].crop(region.x, region.right).text.rstrip()


async def test_a_line_written_repaints_the_log_without_a_layout() -> None:
    app = LogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(TableLog)
        for n in range(40):
            log.say(Text(f"line {n}"))
        await pilot.pause()
        assert log.show_vertical_scrollbar, "more lines than rows: the scrollbar came (with a layout)"
        layouts: list[bool] = []  # each of the screen's layout passes
        on_layout(app.screen, layouts.append)
        for n in range(40, 50):
            log.say(Text(f"line {n} and words enough to wrap at thirty columns"))
            await pilot.pause()
            assert log.scroll_y == log.max_scroll_y, "the log shows its last line"
            assert bottom_row(app, log) == "wrap at thirty columns"
        assert len(layouts) == 0, f"{len(layouts)} layouts of the screen for 10 lines written"
        assert log.vertical_scrollbar.window_virtual_size == len(log.lines) == 60
        assert log.vertical_scrollbar.position == log.max_scroll_y
        assert all(line.cell_length <= log.scrollable_content_region.width for line in log.lines)
        log.scroll_to(y=0, animate=False)  # scrollback: the first lines are still there
        await pilot.pause()
        assert "line 0" in "".join(s.text for s in drawn_lines(app.screen))


async def test_a_full_log_does_not_repaint_its_scrollbar_for_each_line() -> None:
    app = LogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(TableLog)
        for n in range(TableLog.KEEP + 5):
            log.say(Text(f"line {n}"))
        await pilot.pause()
        bar = log.vertical_scrollbar
        painted = counting(bar, "render")
        for n in range(10):
            log.say(Text(f"more {n}"))
            await pilot.pause()
        assert bottom_row(app, log) == "more 9"
        assert len(log.lines) == TableLog.KEEP and log.scroll_y == log.max_scroll_y
        assert painted[0] == 0, "the thumb stayed where it was: the scrollbar was not drawn again"
        log.scroll_to(y=0, animate=False)
        await pilot.pause()
        assert painted[0] == 1, "scrolled back: the thumb moved and was drawn again"


def thumb_and_rows(size: int, virtual: int, window: int, position: float) -> tuple[tuple[int, ...], list[object]]:
    """``TableLog._thumb`` for a bar of ``size`` rows (the log's own computation, on a stand-in
    bar), and the bar's rows as Textual's ``ScrollBarRender`` draws them."""
    from textual.scrollbar import ScrollBarRender

    class Bar:
        pass

    bar = Bar()
    bar.size = type("S", (), {"height": size})()  # type: ignore[attr-defined]
    bar.window_virtual_size, bar.window_size, bar.position = virtual, window, position  # type: ignore[attr-defined]
    log = type("L", (), {"vertical_scrollbar": bar})()
    thumb = TableLog._thumb(log)  # type: ignore[arg-type]
    window_size = window if window < virtual else 0
    rows = list(ScrollBarRender.render_bar(size=size, virtual_size=virtual, window_size=window_size,
                                           position=position).segments)
    return thumb, rows


@given(st.integers(3, 40), st.integers(1, 600), st.integers(1, 600), st.integers(1, 600), st.data())
def test_the_scrollbar_repaints_exactly_the_rows_its_thumb_changed(
        size: int, virtual: int, grown: int, window: int, data: st.DataObject) -> None:
    """A line written moves the thumb (the log grows, then scrolls): the rows said changed are
    those Textual's own scrollbar draws differently, no more and no fewer."""
    window = min(window, size)
    before_pos = data.draw(st.integers(0, max(0, virtual - window))) if virtual > window else 0
    after_pos = data.draw(st.integers(0, max(0, grown - window))) if grown > window else 0
    before, rows_before = thumb_and_rows(size, virtual, window, before_pos)
    after, rows_after = thumb_and_rows(size, grown, window, after_pos)
    changed = bar_rows_changed(before, after)
    differ = [y for y in range(size) if rows_before[y] != rows_after[y]]
    if changed is None:
        assert len(before) != len(after) or before[0] != after[0]
    else:
        assert changed == differ


async def test_the_logs_rows_are_those_textuals_styles_would_give() -> None:
    """The log draws its rows itself, not through Textual's styles cache (a new strip a row and
    frame, for effects a plain log has none of): the rows are the same, cell for cell and style for
    style, scrolled or not, whole or cropped, and a log with styles of its own goes Textual's way."""
    from textual.geometry import Region
    from textual.widget import Widget as TextualWidget

    app = LogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(TableLog)
        for n in range(60):
            log.say(Text(f"line {n}: " + "words " * (n % 9), style="bold" if n % 3 else ""))
        await pilot.pause()
        assert log._plain()
        width, height = log.outer_size
        for scroll in (log.max_scroll_y, 0, 7):
            log.scroll_to(y=scroll, animate=False)
            await pilot.pause()
            for crop in (Region(0, 0, width, height), Region(0, 3, width, 5), Region(2, 0, width - 4, height)):
                restyle(log)
                theirs = TextualWidget.render_lines(log, crop)
                ours = log.render_lines(crop)
                assert [list(row) for row in ours] == [list(row) for row in theirs], (scroll, crop)
        log.styles.padding = (0, 1)
        await pilot.pause()
        assert not log._plain(), "padding: Textual's styles draw it"
