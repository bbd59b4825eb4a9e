"""The action bar's changes cost the screen one layout, not a second one right after it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.app import App, ComposeResult
from textual.screen import Screen

from cardtui.client.actionbar import ActionBar
from cardtui.client.models import TableModel
from cardtui.v1 import common_pb2


class BarApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ActionBar(id="actions")


async def test_choices_that_come_and_go_lay_the_screen_out_once_each() -> None:
    """Buttons shown for a turn, the bar resized from keypad to row and back, and hidden again:
    one layout each. Textual laid the screen out again whenever a widget's virtual size changed,
    which the first layout had just done for the bar and its buttons: two layouts a change. The first turn at a table
    mounts the buttons, which may take a second layout on a busy machine (the new widgets' styles
    can land a frame later); it is not counted, as it happens once, not with every message."""
    app = BarApp()
    layouts = 0
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        original = Screen._refresh_layout

        def counted(*args: Any, **kwargs: Any) -> None:
            nonlocal layouts
            if screen._layout_required:
                layouts += 1
            original(screen, *args, **kwargs)

        screen._refresh_layout = counted  # type: ignore[method-assign]
        bar = app.query_one(ActionBar)
        idle = TableModel(common_pb2.TableSummary(game="cacho"), seat=0)
        turn = replace(idle, legal=(common_pb2.Action(type=common_pb2.ACTION_TYPE_PASS),
                                    common_pb2.Action(type=common_pb2.ACTION_TYPE_BET, chips=1)))
        many = replace(idle, legal=tuple(common_pb2.Action(type=t) for t in (
            common_pb2.ACTION_TYPE_PASS, common_pb2.ACTION_TYPE_CALL, common_pb2.ACTION_TYPE_FOLD,
            common_pb2.ACTION_TYPE_CHECK, common_pb2.ACTION_TYPE_KNOCK)))
        changes = ((many, 5), (turn, 2), (idle, 0), (many, 5), (turn, 2), (many, 5), (idle, 0))
        for n, (model, shown) in enumerate(changes):
            before = layouts
            bar.model = model
            for _ in range(200):  # until the change is laid out (a busy machine may take seconds)
                await pilot.pause(0.05)
                if len(bar.buttons) == shown and layouts > before and not screen._layout_required:
                    break
            for _ in range(5):  # and a few frames more, for a second layout to show itself
                await pilot.pause(0.05)
            assert len(bar.buttons) == shown
            if n == 0:
                assert layouts > before, "the first turn's buttons were never laid out"
                continue
            assert layouts - before == 1, f"{layouts - before} layouts for one change of the bar"
