"""The board every game's board builds on: seats and the view, drawn as text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from cardtui.client.models import TableModel
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


def bot_tag(seat: common_pb2.SeatSummary, away: str) -> str:
    """A bot's seat in a seat list: "bot hard" (its level), or ``away`` where a bot plays for someone away."""
    if seat.away:
        return away
    return _("bot {level}").format(level=seat.bot_level) if seat.bot_level else _("bot")


class Drawn:
    """A part of a board already drawn into lines at a width: drawn again as it is."""

    def __init__(self, lines: list[list[Segment]]) -> None:
        self.lines = lines

    def __len__(self) -> int:
        return len(self.lines)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        end = Segment.line()
        for line in self.lines:
            yield from line
            yield end


class Board(Widget):
    """Shows the table model's view; a game's board overrides ``draw``.

    ``HANDLES`` names action types the board offers itself (by its own keys), which the
    action bar then leaves out. The board holds no rules: it draws the facts the view
    carries and the legal list the server sent.
    """

    HANDLES: ClassVar[frozenset[str]] = frozenset()

    model: reactive[TableModel | None] = reactive(None, always_update=True, repaint=False)
    """Set on every message; the board repaints only when what it draws from changed (``watch_model``)."""

    KEEP_PARTS = 64
    """Parts kept drawn (``drawn_part``): a board's parts for the last few messages."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.drawn_from: tuple[object, ...] | None = None
        """The model's facts the board was last drawn from."""
        self.parts: dict[tuple[object, ...], Drawn] = {}
        """Parts drawn before, by their content and width (``drawn_part``)."""

    def watch_model(self, model: TableModel | None) -> None:
        """Repaint, unless the view, the seat and the table are as the board last drew them (a message
        with only events the board does not show, another seat's chat...). A board's own state
        (a card picked, a key pressed) repaints where it changes."""
        facts = None if model is None else (
            model.view.SerializeToString() if model.view is not None else None,
            model.seat, model.summary.SerializeToString())
        if facts != self.drawn_from or facts is None:
            self.drawn_from = facts
            self.refresh()

    def drawn_part(self, part: RenderableType, width: int) -> Drawn:
        """A part drawn at ``width``: a text drawn before with the same words and styles is not
        drawn again (most of a board stays the same from one message to the next)."""
        key: tuple[object, ...] | None = None
        if isinstance(part, Text):
            key = (part.plain, str(part.style), tuple(part.spans), part.justify, part.overflow, part.no_wrap,
                   part.end, width)
            cached = self.parts.get(key)
            if cached is not None:
                return cached
        console = self.app.console
        done = Drawn(console.render_lines(part, console.options.update_width(width), pad=False))
        if key is not None:
            self.parts[key] = done
            if len(self.parts) > self.KEEP_PARTS:
                del self.parts[next(iter(self.parts))]
        return done

    @property
    def seat(self) -> int | None:
        return None if self.model is None else self.model.seat

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
                out.append("  " + (_("(bot, {level})").format(level=s.bot_level) if s.bot_level else _("(bot)")),
                           style="dim")
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
    ) -> Table:
        """Seats around the table with the viewer at the bottom; ``rightwards``: play turns right.

        ``gap``: blank lines between the rows of seats (a tall terminal has room for them).
        """
        n = len(panels)
        ref = self.seat if self.seat is not None else 0
        places = PLACES.get(n, {d: (d // 3, d % 3) for d in range(n)})
        cells: dict[tuple[int, int], RenderableType] = {(1, 1): centre}
        for seat, panel in panels.items():
            row, col = places[(seat - ref) % n]
            cells[(row, col if rightwards else 2 - col)] = panel
        grid = Table.grid(expand=True, padding=(0, 1))
        for _column in range(3):
            grid.add_column(ratio=1)
        for row in range(3):
            if row and gap:
                grid.add_row(Text("\n" * (gap - 1)), Text(""), Text(""))
            grid.add_row(*(cells.get((row, col), Text("")) for col in range(3)))
        return grid

    def seat_name(self, seat: int) -> Text:
        model = self.model
        summary = None
        if model is not None and model.view is not None:
            summary = next((s for s in model.view.seats if s.seat == seat), None)
        name = summary.name if summary is not None and summary.name else _("seat {n}").format(n=seat + 1)
        out = Text(name, style="bold green" if seat == self.seat else "bold")
        if summary is not None and summary.bot:
            if summary.away:
                # Short, so a seat's name and tag take at most two lines in an 80x24 board's columns.
                said = _("[away: bot {level}]") if summary.bot_level else _("[away: bot]")
            else:  # a bot's seat is named "bot N" already: its level is what is left to say
                said = _("({level})") if summary.bot_level else ""
            if said:
                out.append(" " + said.format(level=summary.bot_level), style="dim")
        if seat == self.seat:
            out.append(" " + _("(you)"), style="green")
        return out
