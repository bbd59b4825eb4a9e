"""A browser guest: no name given, and a finger instead of a keyboard, at 80x24."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input, Static

from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.footer import Footer
from cardtui.client.screens.leaving import LeaveScreen
from cardtui.client.screens.lobby import CreateTableScreen
from cardtui.client.screens.name import NameScreen, plain_name
from cardtui.client.screens.table import TableScreen
from cardtui.client.table_log import TableLog
from cardtui.client.textual_internals import FooterKey
from cardtui.server.app import Running
from cardtui.v1 import common_pb2
from tests.client.waiting import at_table, in_lobby, settled, until
from tests.conftest import create

SIZE = (80, 24)


def log_text(app: CardApp) -> str:
    return "\n".join(t.plain for t in app.screen.query_one("#log", TableLog).said)


async def footer_key(pilot: Pilot[None], action: str) -> FooterKey:
    """The footer's key for ``action``, once the footer shows it laid out (it recomposes after a
    change, and a key just mounted has no place on the screen yet)."""
    def keys() -> list[FooterKey]:
        return [k for k in pilot.app.screen.query_one(Footer).keys_shown()
                if k.action == action and k.is_mounted and k.region.area > 0]

    await until(pilot, keys, f"{action!r} in the footer")
    return keys()[0]


async def tap_footer(pilot: Pilot[None], action: str) -> bool:
    """Tap the footer's key for ``action``. A table's footer recomposes whenever a move changes
    the keys it shows (a bot may move at any moment): the tap may land on the new key in the old
    one's place (it acted, though the old key was not hit), or on nothing (it tries again)."""
    screen = pilot.app.screen
    for _ in range(5):
        if await pilot.click(await footer_key(pilot, action)):
            return True
        await settled(pilot)
        if pilot.app.screen is not screen:
            return True
    return False


def test_typed_names_become_plain_text() -> None:
    assert plain_name("  ana \t maria\x07 ") == "ana maria"
    assert plain_name("[red]zé[/]") == "[red]zé[/]"
    assert plain_name("\x1b\x00 \u200b") == ""


async def test_without_a_name_the_app_asks_for_one_first(server: Running) -> None:
    app = CardApp(f"127.0.0.1:{server.port}", "")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NameScreen), "the name asked for")
        await settled(pilot)
        await pilot.click("#name-go")  # nothing typed: a sentence, no lobby
        await settled(pilot)
        assert "at least one visible character" in str(app.screen.query_one("#name-error", Static).render())
        assert isinstance(app.screen, NameScreen)
        assert await pilot.click("#name-input")
        app.screen.query_one("#name-input", Input).value = "  [b]zé  "
        await pilot.press("enter")
        await in_lobby(pilot)
        assert app.player == "[b]zé"
        assert app.sub_title == f"[b]zé @ 127.0.0.1:{server.port}"
        header = app.screen.query_one("HeaderTitle")
        assert "[b]zé @" in str(header.render()), "the name is shown as typed, not as markup"


async def test_a_hand_played_by_taps_alone(server: Running) -> None:
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await in_lobby(pilot)
        assert await tap_footer(pilot, "new")  # the footer's "n New"
        await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the create form")
        await settled(pilot)  # its fields built for the server's games
        assert await pilot.click("#create")
        screen = await at_table(pilot)
        bar = screen.query_one(ActionBar)
        tapped = 0
        while "wins" not in log_text(app):
            await until(pilot, lambda: "wins" in log_text(app) or bool(bar.choices), "a turn, or a hand won")
            await settled(pilot)  # the bar shows what the view offers
            buttons = bar.buttons
            if "wins" in log_text(app) or not (buttons and bar.choices):
                continue
            assert buttons[0].region.bottom <= SIZE[1] - 1, "the action bar is on screen at 80x24"
            if not tapped:  # More and Less are in the footer exactly when there is something to change
                adjustable = any(len(g) > 1 for g in bar.choices)

                def footer() -> list[str]:
                    return [k.action for k in screen.query_one(Footer).keys_shown()]

                await until(pilot, lambda adjustable=adjustable: ("adjust(1)" in footer()) == adjustable
                            and "leave" in footer(), lambda: f"the footer's keys for {bar.choices}: {footer()}")
            seq = screen.model.seq
            assert await pilot.click(bar, offset=buttons[0].offset)
            tapped += 1
            await until(pilot, lambda seq=seq: "wins" in log_text(app) or screen.model.seq != seq,
                        "the table to take the tap")
        assert tapped, "a turn came and a tap acted"
        assert "ana " in log_text(app), log_text(app)
        assert "wins" in log_text(app), log_text(app)
        assert await tap_footer(pilot, "leave")
        await until(pilot, lambda: not isinstance(app.screen, TableScreen), "the table left, or asked first")
        await settled(pilot)
        if isinstance(app.screen, LeaveScreen):  # mid-match: asked first, answered by a tap too
            assert await pilot.click("#confirm-go")
        await in_lobby(pilot)


async def test_more_and_less_are_in_the_footer_when_there_is_something_to_change(server: Running) -> None:
    """Truco's signals share a button cycled by +: a finger cycles them with the footer's More."""
    # The bots wait: a bot's move redraws the bar, and the button under test with it.
    table_id = await create(server, game="truco_argentino", seats=4, bots=3, bot_delay_ms=60_000)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        screen = await at_table(pilot, lambda s: any(g[0].type == common_pb2.ACTION_TYPE_SIGNAL
                                                     for g in s.query_one(ActionBar).choices), "a signal on offer")
        bar = screen.query_one(ActionBar)
        await settled(pilot)  # the bar laid out
        n = next(i for i, g in enumerate(bar.choices) if g[0].type == common_pb2.ACTION_TYPE_SIGNAL)
        before = str(bar.buttons[n].label)
        assert await tap_footer(pilot, "adjust(1)")
        await until(pilot, lambda: str(bar.buttons[n].label) != before, "the bar to redraw its signal's button")
        await settled(pilot)
        signal = bar.buttons[n]
        assert str(signal.label).startswith("s ")
        assert signal.region.bottom <= SIZE[1] - 1, "the keypad fits at 80x24"
        assert await pilot.click(bar, offset=signal.offset)
        await until(pilot, lambda: "You wink" in log_text(app), "the signal in the log")
        assert "You wink — 1♧." in log_text(app)
