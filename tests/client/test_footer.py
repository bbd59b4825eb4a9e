"""The footer keeps only the keys it shows: a screen that refreshes its bindings over and over
(a table does, several times a message) does not pile up the keys each refresh replaced."""

from __future__ import annotations

import gc
from collections.abc import Iterator

from textual.app import App
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from cardtui.client.footer import Footer


class Keys(App[None]):
    BINDINGS = [Binding("a", "apple", "Apple"), Binding("b", "bee", "Bee")]

    def compose(self) -> Iterator[Widget]:
        yield Footer()

    def action_apple(self) -> None:
        """A key to show in the footer."""

    def action_bee(self) -> None:
        """Another."""


async def test_the_footer_keeps_no_key_a_refresh_replaced() -> None:
    app = Keys()
    async with app.run_test(size=(80, 24)) as pilot:
        footer = app.query_one(Footer)
        await pilot.pause()
        for _ in range(10):
            app.screen.refresh_bindings()  # the footer composes its keys again
            await pilot.pause()
            await pilot.pause()
        shown = list(footer.query(FooterKey).results(FooterKey))
        assert [k.description for k in shown] == ["Apple", "Bee"]
        bound = [node for node, _ in getattr(footer, "__watchers", {}).get("compact", [])]
        assert sorted(map(id, bound)) == sorted(map(id, shown)), f"{len(bound)} keys bound, {len(shown)} shown"
        gc.collect()
        alive = [o for o in gc.get_objects() if isinstance(o, FooterKey)]
        assert len(alive) == len(shown), f"{len(alive)} footer keys alive, {len(shown)} shown"
