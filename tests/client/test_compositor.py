"""The table screen's compositor keeps the map of where widgets are while it is current, and what it
sends the terminal is right: after every frame of a real table at full speed, the screen a terminal
holds (every update applied as sent) is the screen drawn whole, cell for cell, text and style (the
board repaints only the lines a new view changed)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from rich.console import Console
from rich.segment import ControlType, Segment
from rich.style import Style
from textual.app import App

from cardtui.client.compositor import MapKeepingCompositor
from cardtui.client.connection import Connection
from cardtui.client.screens.table import TableScreen
from cardtui.client.textual_internals import (
    ChopsUpdate,
    CompositorUpdate,
    compositor_of,
    drawn_afresh,
    layout_pending,
    map_out_of_date,
    misplaced,
    on_arrange,
    on_display,
    use_compositor,
)
from cardtui.server.app import Running
from cardtui.v1 import common_pb2, lobby_pb2, table_pb2
from tests.client.waiting import settled, until
from tests.conftest import create

Cell = tuple[str, Style | None]


TURN = 0.02
"""Seconds the app runs between two looks at what it has shown (``until``'s ``turn``)."""


class Terminal:
    """A grid of cells that takes the updates a Textual app sends, as a terminal would."""

    def __init__(self, width: int, height: int) -> None:
        self.cells: list[list[Cell]] = [[(" ", None)] * width for _ in range(height)]
        self.console = Console(width=width, height=height, legacy_windows=False, force_terminal=True)

    def apply(self, update: CompositorUpdate) -> None:
        x = y = 0
        for segment in update.__rich_console__(self.console, self.console.options):  # type: ignore[attr-defined]
            if not isinstance(segment, Segment):
                continue
            if segment.control:
                for control in segment.control:
                    if control[0] == ControlType.CURSOR_MOVE_TO:
                        x, y = int(control[1]), int(control[2])  # type: ignore[misc]
                continue
            if segment.text == "\n":
                continue  # the next update of a line moves the cursor first
            for char in segment.text:
                self.cells[y][x] = (char, segment.style)
                x += 1

    def rows(self) -> list[list[Cell]]:
        return [list(row) for row in self.cells]


def drawn_whole(screen: TableScreen, width: int, height: int) -> list[list[Cell]]:
    """The screen drawn whole from its widgets' lines, none taken from a widget's cache of styled
    lines or of its content drawn (a line a widget failed to mark for repaint would come out the
    same there as on the terminal)."""
    cells: list[list[Cell]] = [[(" ", None)] * width for _ in range(height)]
    for y, strip in enumerate(drawn_afresh(screen)):
        x = 0
        for segment in strip:
            for char in segment.text:
                cells[y][x] = (char, segment.style)
                x += 1
    return cells


class Gated(Connection):
    """A connection whose table stream hands the screen one message per permit."""

    permits: asyncio.Queue[None]
    handed = 0

    async def follow(self, token: str, *args: Any, **kwargs: Any) -> AsyncIterator[table_pb2.TableMessage]:
        async for msg in super().follow(token, *args, **kwargs):
            await self.permits.get()
            self.handed += 1
            yield msg


class Watching(App[None]):
    """A spectator's table screen (with the player's app's stylesheet), each update it sends to the
    terminal shown to ``seen`` first."""

    CSS_PATH = "../../client/app.tcss"

    def __init__(self, conn: Connection, token: str, table_id: str, game: str,
                 seen: Callable[[Any, Any], None]) -> None:
        super().__init__()
        self.conn, self.token, self.table_id, self.game = conn, token, table_id, game
        on_display(self, seen)

    def on_mount(self) -> None:
        table = common_pb2.TableSummary(id=self.table_id, game=self.game, name="sexta")
        self.push_screen(TableScreen(self.conn, self.token, -1, table))


@pytest.mark.parametrize(("game", "seats"), [("truco_paulista", 4), ("cacho", 4), ("pifpaf", 3)])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_terminal_holds_the_screen_as_drawn_whole_after_each_message(
        server: Running, game: str, seats: int, size: tuple[int, int]) -> None:
    """Only the board lines a new view changed are repainted: a line it missed would stay wrong on
    the terminal. After each message of a real table (bots at full speed, the messages let through
    one at a time), once the screen has painted, every cell the terminal holds is the cell of the
    screen drawn whole, and every widget is where arranging the whole screen puts it."""
    table_id = await create(server, game=game, seats=seats, bots=seats)
    conn = Gated.open(f"127.0.0.1:{server.port}")
    assert isinstance(conn, Gated)
    conn.permits = asyncio.Queue()
    token = (await conn.lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="w"))).token
    width, height = size
    terminal = Terminal(width, height)
    partial = [0]

    def shown(screen: Any, update: Any) -> None:
        if isinstance(screen, TableScreen) and isinstance(update, CompositorUpdate):
            assert isinstance(compositor_of(screen), MapKeepingCompositor)
            terminal.apply(update)
            partial[0] += isinstance(update, ChopsUpdate)

    def differences(screen: TableScreen) -> list[str]:
        return [f"row {y}: {''.join(c for c, _ in held)!r} shown, {''.join(c for c, _ in drawn)!r} drawn"
                for y, (held, drawn) in enumerate(zip(terminal.rows(), drawn_whole(screen, width, height),
                                                      strict=True)) if held != drawn]

    app = Watching(conn, token, table_id, game, shown)
    try:
        async with app.run_test(size=size) as pilot:
            wrong: list[str] = []

            def painted() -> bool:
                """The screen has painted what the last message changed, and no layout is on its way."""
                screen = app.screen
                assert isinstance(screen, TableScreen)
                wrong[:] = differences(screen)
                laid_out = not (layout_pending(screen) or map_out_of_date(screen))
                if not wrong and laid_out:  # painted, and no layout on its way: the map is current
                    wrong[:] = misplaced(screen)
                return not wrong and laid_out

            for n in range(1, 41):  # the bots play on in this process: it never idles (``TURN``)
                conn.permits.put_nowait(None)
                await until(pilot, lambda n=n: conn.handed == n, f"message {n} handed to the screen", turn=TURN)
                await until(pilot, painted, lambda n=n: f"the screen as drawn whole after message {n}:\n"  # type: ignore[misc]
                            + "\n".join(wrong[:3]), turn=TURN)
    finally:
        await conn.close()
    assert conn.handed == 40
    assert partial[0] >= 20, f"{partial[0]} partial updates"  # the test saw the screen painted in part


async def test_a_widget_hidden_as_it_asks_for_a_paint_keeps_the_map_of_widgets() -> None:
    """A button hidden right after it asked for a paint: Textual took it for a widget mounted since
    the last layout and had the whole screen arranged again at the next question of where a widget is."""
    from textual.screen import Screen
    from textual.widgets import Button, Static

    class TwoScreen(Screen[None]):
        def __init__(self) -> None:
            super().__init__()
            use_compositor(self, MapKeepingCompositor())

        def compose(self) -> Any:
            yield Static("board", id="board")
            yield Button("one", id="one")

    class Two(App[None]):
        def on_mount(self) -> None:
            self.push_screen(TwoScreen())

    app = Two()
    async with app.run_test(size=(40, 10)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TwoScreen), "the screen pushed")
        await settled(pilot)
        assert isinstance(app.screen, TwoScreen)
        arranged = [0]

        def counted() -> None:
            arranged[0] += 1

        on_arrange(app.screen, counted)
        button = app.screen.query_one("#one", Button)
        board = app.screen.query_one("#board", Static)
        for n in range(5):
            button.label = f"two {n}"  # asks for a paint
            button.display = False  # and is hidden before it comes
            board.update(f"board {n}")
            await pilot.pause()
            assert board.region.width == 40  # a widget asks where it is
            button.display = True
            await pilot.pause()
        assert arranged[0] <= 10, f"{arranged[0]} arrangements of the screen for 10 layouts"

