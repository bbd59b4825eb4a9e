"""A browser guest: no name given, and a finger instead of a keyboard, at 80x24."""

from __future__ import annotations

from textual.widgets import Footer, Input, Static
from textual.widgets._footer import FooterKey

from cardtui.client.actionbar import ActButton, ActionBar
from cardtui.client.app import CardApp
from cardtui.client.lobby import CreateTableScreen, LobbyScreen
from cardtui.client.name_screen import NameScreen, plain_name
from cardtui.client.table_screen import TableScreen
from cardtui.server.app import Running

SIZE = (80, 24)


def log_text(app: CardApp) -> str:
    return "\n".join(line.text for line in app.screen.query_one("#log").lines)  # type: ignore[attr-defined]


def footer_key(app: CardApp, action: str) -> FooterKey:
    return next(k for k in app.screen.query_one(Footer).query(FooterKey) if k.action.endswith(action))


def test_typed_names_become_plain_text() -> None:
    assert plain_name("  ana \t maria\x07 ") == "ana maria"
    assert plain_name("[red]zé[/]") == "[red]zé[/]"
    assert plain_name("\x1b\x00 \u200b") == ""


async def test_without_a_name_the_app_asks_for_one_first(server: Running) -> None:
    app = CardApp(f"127.0.0.1:{server.port}", "")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        assert isinstance(app.screen, NameScreen)
        await pilot.click("#name-go")  # nothing typed: a sentence, no lobby
        await pilot.pause(0.1)
        assert "at least one visible character" in str(app.screen.query_one("#name-error", Static).render())
        assert isinstance(app.screen, NameScreen)
        assert await pilot.click("#name-input")
        app.screen.query_one("#name-input", Input).value = "  [b]zé  "
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert isinstance(app.screen, LobbyScreen)
        assert app.player == "[b]zé"
        assert app.sub_title == f"[b]zé @ 127.0.0.1:{server.port}"
        header = app.screen.query_one("HeaderTitle")
        assert "[b]zé @" in str(header.render()), "the name is shown as typed, not as markup"


async def test_a_hand_played_by_taps_alone(server: Running) -> None:
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        assert await pilot.click(footer_key(app, "new"))  # the footer's "n New table"
        await pilot.pause(0.3)
        assert isinstance(app.screen, CreateTableScreen)
        assert await pilot.click("#create")
        await pilot.pause(0.5)
        assert isinstance(app.screen, TableScreen)
        screen = app.screen
        tapped = 0
        for _ in range(300):
            await pilot.pause(0.05)
            bar = screen.query_one(ActionBar)
            buttons = list(bar.query(ActButton))
            if buttons and bar.choices:
                assert buttons[0].region.bottom <= SIZE[1] - 1, "the action bar is on screen at 80x24"
                assert await pilot.click(buttons[0])
                tapped += 1
            if "wins" in log_text(app):
                break
        assert tapped, "a turn came and a tap acted"
        assert "ana " in log_text(app), log_text(app)
        assert "wins" in log_text(app), log_text(app)
        assert await pilot.click(footer_key(app, "leave"))
        await pilot.pause(0.3)
        assert isinstance(app.screen, LobbyScreen)
