"""The action bar draws its own buttons: a change repaints it and lays nothing out; a click or a
key on a button chooses its action; many choices make a keypad that fits."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

from textual.app import App, ComposeResult
from textual.pilot import Pilot

import cardtui.client.boards.cacho  # noqa: F401  (Cacho's keys: p passes, b bets)
from cardtui.client.actionbar import ActionBar
from cardtui.client.models import TableModel
from cardtui.client.textual_internals import on_layout
from cardtui.v1 import common_pb2
from tests.client.waiting import settled

STYLES = Path(__file__).parents[2] / "client" / "app.tcss"
IDLE = TableModel(common_pb2.TableSummary(game="cacho"), seat=0)
TURN = replace(IDLE, legal=(common_pb2.Action(type=common_pb2.ACTION_TYPE_PASS),
                            common_pb2.Action(type=common_pb2.ACTION_TYPE_BET, chips=1),
                            common_pb2.Action(type=common_pb2.ACTION_TYPE_BET, chips=2)))
MANY = replace(IDLE, legal=tuple(common_pb2.Action(type=t) for t in (
    common_pb2.ACTION_TYPE_PASS, common_pb2.ACTION_TYPE_CALL, common_pb2.ACTION_TYPE_FOLD,
    common_pb2.ACTION_TYPE_CHECK, common_pb2.ACTION_TYPE_KNOCK)))


class BarApp(App[None]):
    CSS_PATH = STYLES

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[common_pb2.Action] = []

    def compose(self) -> ComposeResult:
        yield ActionBar(id="actions")

    def on_action_bar_chosen(self, message: ActionBar.Chosen) -> None:
        self.chosen.append(message.action)


@asynccontextmanager
async def showing(model: TableModel, size: tuple[int, int] = (80, 24),
                  ) -> AsyncIterator[tuple[BarApp, Pilot[None], ActionBar]]:
    """The bar alone in an app, offering ``model``'s choices."""
    app = BarApp()
    async with app.run_test(size=size) as pilot:
        bar = app.query_one(ActionBar)
        bar.model = model
        await settled(pilot)
        yield app, pilot, bar


async def test_choices_that_come_and_go_lay_nothing_out() -> None:
    """Buttons shown for a turn, a row turned keypad and back, and the bar idle again: each a
    repaint of the bar's rows, never a layout of the screen."""
    app = BarApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        bar = app.query_one(ActionBar)
        await settled(pilot)
        passes: list[bool] = []  # each of the screen's layout passes: True where it arranged the widgets again
        on_layout(screen, passes.append)
        for model, shown in ((MANY, 5), (TURN, 2), (IDLE, 0), (MANY, 5), (TURN, 2), (MANY, 5), (IDLE, 0)):
            bar.model = model
            await settled(pilot)
            assert len(bar.buttons) == shown
            assert all(str(b.label) in bar.text for b in bar.buttons)
            if not shown:
                assert "Nothing to do right now." in bar.text
        layouts = sum(passes)
        assert layouts == 0, f"{layouts} layouts for the bar's changes"
        assert bar.region.height == 3


async def test_a_few_choices_are_raised_buttons_and_many_a_keypad() -> None:
    async with showing(TURN) as (_app, pilot, bar):
        top, middle, bottom = bar.text.split("\n")
        first, second = bar.buttons
        assert (first.region.y, first.region.height) == (bar.content_region.y, 3)
        assert first.region.right < second.region.x, "a space between buttons"
        assert set(top[first.offset.x - 1:first.region.width]) == {"▔"}
        assert set(bottom[first.offset.x - 1:first.region.width]) == {"▁"}
        assert "p Pass" in middle and "b Bet 1 (±: 1–2)" in middle
        bar.model = MANY
        await settled(pilot)
        rows = bar.text.split("\n")
        assert [b.region.height for b in bar.buttons] == [1] * 5
        assert [b.region.y - bar.content_region.y for b in bar.buttons] == [0, 0, 0, 1, 1]
        assert rows[2].strip() == "", "four to six choices leave the keypad's third row empty"
        for button in bar.buttons:
            assert str(button.label) in rows[button.region.y - bar.content_region.y]


async def test_buttons_too_wide_for_a_row_become_a_keypad() -> None:
    async with showing(TURN, (24, 10)) as (_app, _pilot, bar):
        assert [b.region.height for b in bar.buttons] == [1, 1], bar.text
        assert [b.region.width for b in bar.buttons] == [10, 10], "two keys share the row"
        assert "p Pass" in bar.text


async def test_a_click_on_a_button_chooses_it_and_a_click_beside_does_nothing() -> None:
    async with showing(TURN) as (app, pilot, bar):
        bet = bar.buttons[1]
        assert await pilot.click(bar, offset=bet.offset)
        await settled(pilot)
        assert [(a.type, a.chips) for a in app.chosen] == [(common_pb2.ACTION_TYPE_BET, 1)]
        bar.adjust(1)
        await settled(pilot)
        assert "b Bet 2" in bar.text
        assert await pilot.click(bar, offset=(bet.offset.x, 1))  # its middle row
        assert await pilot.click(bar, offset=(bar.region.width - 2, 1))  # past the last button
        await settled(pilot)
        assert [(a.type, a.chips) for a in app.chosen] == [(common_pb2.ACTION_TYPE_BET, 1),
                                                           (common_pb2.ACTION_TYPE_BET, 2)]
        bar.disabled = True
        await settled(pilot)
        await pilot.click(bar, offset=bet.offset)
        await settled(pilot)
        assert len(app.chosen) == 2, "a disabled bar chooses nothing"


async def test_the_button_under_the_mouse_is_lit() -> None:
    async with showing(TURN) as (_app, pilot, bar):
        plain = [bar.render_line(1)]
        first = bar.buttons[0]
        await pilot.hover(bar, offset=first.offset)
        await settled(pilot)
        assert bar.hovered == 1
        lit = bar.render_line(1)
        assert lit.text == plain[0].text and list(lit) != list(plain[0])
        await pilot.hover(bar, offset=(bar.region.width - 2, 1))
        await settled(pilot)
        assert bar.hovered is None and list(bar.render_line(1)) == list(plain[0])


async def test_keys_choose_what_is_on_offer_only() -> None:
    async with showing(TURN) as (app, pilot, bar):
        assert bar.keys == ["p", "b"]
        assert bar.press("p") and not bar.press("k") and not bar.press("1")
        await settled(pilot)
        assert [a.type for a in app.chosen] == [common_pb2.ACTION_TYPE_PASS]
