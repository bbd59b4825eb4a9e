"""A terminal that shrinks and grows back faster than the app looks (a phone's keyboard coming and
going, a window dragged and let go) keeps only what it could hold at its smallest: in the alternate
screen, rows cut off are gone. The app draws the whole screen again after every resize, even where
the size it ends at is the one it had."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.geometry import Size
from textual.screen import Screen

from cardtui.client.app import CardApp
from cardtui.client.textual_internals import ChopsUpdate, LayoutUpdate, on_display
from tests.client.waiting import in_lobby, settled, until
from tests.conftest import Running

SIZE = (80, 24)


def rows_drawn(update: object) -> set[int]:
    """The rows of the terminal an update the app sends writes."""
    if isinstance(update, LayoutUpdate):
        return set(range(update.region.y, update.region.bottom))
    if isinstance(update, ChopsUpdate):
        return {y for y, _x1, _x2 in update.spans}
    return set()


async def test_a_terminal_that_shrank_and_grew_back_is_drawn_whole_again(server: Running) -> None:
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await in_lobby(pilot)
        await settled(pilot)
        drawn: set[int] = set()

        def seen(_screen: Screen[Any], update: object) -> None:
            drawn.update(rows_drawn(update))

        on_display(app, seen)
        small, whole = Size(SIZE[0], SIZE[1] - 6), Size(*SIZE)
        app.post_message(events.Resize(small, small))  # the keyboard comes up…
        app.post_message(events.Resize(whole, whole))  # …and goes, before the app has looked
        await until(pilot, lambda: drawn >= set(range(SIZE[1])),
                    lambda: f"every row drawn again; drawn: {sorted(drawn)}")
