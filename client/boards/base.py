"""The board every game's board builds on: seats and the view, drawn as text."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from cardtui.v1 import common_pb2

PLACES = {
    2: {0: (2, 1), 1: (0, 1)},
    3: {0: (2, 1), 1: (1, 2), 2: (1, 0)},
    4: {0: (2, 1), 1: (1, 2), 2: (0, 1), 3: (1, 0)},
    5: {0: (2, 1), 1: (1, 2), 2: (0, 2), 3: (0, 0), 4: (1, 0)},
    6: {0: (2, 1), 1: (1, 2), 2: (0, 2), 3: (0, 1), 4: (0, 0), 5: (1, 0)},
}
"""Where each seat sits on a 3×3 grid, counted round from the viewer (bottom middle)."""


class Board(Widget):
    """Shows the view; a game's board overrides ``draw``.

    ``HANDLES`` names action types the board offers itself (by its own keys), which the
    action bar then leaves out; ``legal`` is what the server says this seat may do now.
    """

    HANDLES: ClassVar[frozenset[str]] = frozenset()

    view: reactive[dict[str, Any]] = reactive(dict, always_update=True)
    seats: reactive[list[tuple[str, bool]]] = reactive(list, always_update=True)
    away: set[int] = set()

    def __init__(self, seat: int | None, id: str | None = None) -> None:
        super().__init__(id=id)
        self.seat = seat
        self.legal: list[common_pb2.Action] = []

    def render(self) -> RenderableType:
        if not self.view:
            return Text("Connecting…", style="italic")
        if self.view.get("waiting"):
            return self.draw_waiting()
        return self.draw()

    def draw_waiting(self) -> Text:
        out = Text("Waiting for players\n\n", style="bold")
        for i, (name, bot) in enumerate(self.seats):
            out.append(f"  seat {i + 1}: ")
            out.append(name or "open", style="" if name else "dim italic")
            if bot:
                out.append("  (bot)", style="dim")
            if i == self.seat:
                out.append("  ← you", style="bold green")
            out.append("\n")
        return out

    def draw(self) -> RenderableType:
        return Text(json.dumps(self.view, indent=1))

    def around(self, panels: dict[int, RenderableType], centre: RenderableType, rightwards: bool) -> Table:
        """Seats around the table with the viewer at the bottom; ``rightwards``: play turns right."""
        n = len(panels)
        ref = self.seat if self.seat is not None else 0
        places = PLACES.get(n, {d: (d // 3, d % 3) for d in range(n)})
        cells: dict[tuple[int, int], RenderableType] = {(1, 1): centre}
        for seat, panel in panels.items():
            row, col = places[(seat - ref) % n]
            cells[(row, col if rightwards else 2 - col)] = panel
        grid = Table.grid(expand=True, padding=(0, 1))
        for _ in range(3):
            grid.add_column(ratio=1)
        for row in range(3):
            grid.add_row(*(cells.get((row, col), Text("")) for col in range(3)))
            if row < 2:
                grid.add_row(Text(""), Text(""), Text(""))
        return grid

    def seat_name(self, seat: int) -> Text:
        name, bot = self.seats[seat] if seat < len(self.seats) else (f"seat {seat + 1}", False)
        out = Text(name, style="bold green" if seat == self.seat else "bold")
        if bot:
            out.append(" [away: a bot plays]" if seat in self.away else " [bot]", style="dim")
        if seat == self.seat:
            out.append(" (you)", style="green")
        return out
