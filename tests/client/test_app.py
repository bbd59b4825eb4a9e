"""The Textual client driven by key presses against a real in-process server."""

from __future__ import annotations

import json

from textual.app import App

from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.help import HelpScreen
from cardtui.client.table_screen import TableScreen
from cardtui.server.app import Running
from tests.conftest import create

SIZE = (120, 40)


def board_view(app: CardApp) -> dict:
    return app.screen.query_one("#board").view  # type: ignore[attr-defined, no-any-return]


def log_text(app: CardApp) -> str:
    return "\n".join(line.text for line in app.screen.query_one("#log").lines)  # type: ignore[attr-defined]


async def test_create_a_table_and_play_a_hand_by_keys(server: Running) -> None:
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        await pilot.press("n")
        await pilot.pause(0.2)
        for key in ("tab", "tab"):  # game, name → players
            await pilot.press(key)
        await pilot.press("ctrl+s")
        await pilot.pause(0.5)
        assert isinstance(app.screen, TableScreen)
        screen = app.screen
        assert screen.seat == 0
        start_chips = [s["chips"] for s in board_view(app)["seats"]]
        assert sum(start_chips) + board_view(app)["pot"] == 80
        own = board_view(app)["seats"][0]["cards"]
        assert own and all(c is not None for c in own), "my own card is face up"
        assert all(c is None for s in board_view(app)["seats"][1:] for c in s["cards"])
        hands_seen = 0
        for _ in range(400):
            await pilot.pause(0.05)
            bar = screen.query_one(ActionBar)
            if bar.choices:
                kinds = [g[0].type for g in bar.choices]
                # Bet or call when offered, so the hand reaches a showdown now and then.
                key = next((str(i + 1) for i, k in enumerate(kinds) if k in ("bet", "call", "check")), "1")
                await pilot.press(key)
            hands_seen = log_text(app).count(" wins ")
            if hands_seen >= 2:
                break
        assert hands_seen >= 2, log_text(app)
        chips = [s["chips"] for s in board_view(app)["seats"]]
        assert sum(chips) + board_view(app)["pot"] * (not board_view(app)["hand_over"]) == 80
        assert chips != start_chips or "wins 1 unseen" in log_text(app)
        await pilot.press("escape")
        await pilot.pause(0.2)
        assert not isinstance(app.screen, TableScreen)


async def test_spectating_offers_no_action_and_shows_no_hidden_card(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=3, bots=3)
    app = CardApp(f"127.0.0.1:{server.port}", "eve", spectate=table_id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        assert isinstance(app.screen, TableScreen)
        assert app.screen.spectating
        assert not app.screen.query(ActionBar)
        banner = app.screen.query_one("#spectator-banner")
        assert "SPECTATING" in str(banner.render())
        for _ in range(60):
            await pilot.press("1", "2")
            await pilot.pause(0.05)
            view = board_view(app)
            if not view.get("hand_over"):
                assert all(c is None for s in view["seats"] for c in s["cards"])
            if " wins " in log_text(app):
                break
        assert " wins " in log_text(app)
        assert "You receive" not in log_text(app)


async def test_names_and_chat_show_literally(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=2, bots=1)
    app = CardApp(f"127.0.0.1:{server.port}", "[b]ana[/b]")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        await app.open_table(table_id)
        await pilot.pause(0.3)
        await pilot.press("t")
        for ch in "[red]hi":
            await pilot.press(ch)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert "[b]ana[/b]: [red]hi" in log_text(app)


async def test_lobby_lists_tables_with_seats_and_spectators(server: Running) -> None:
    table_id = await create(server, game="cacho", name="noite", seats=4, bots=2)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.4)
        grid = app.screen.query_one("#tables")
        row = [str(c) for c in grid.get_row_at(0)]  # type: ignore[attr-defined]
        assert row[:4] == [table_id, "Cacho", "noite", "2/4 (2 bots)"]
        await pilot.press("s")
        await pilot.pause(0.3)
        assert isinstance(app.screen, TableScreen) and app.screen.spectating
        info = json.loads(app.screen.summary.options_json)
        assert info == {"chips": 20}


class RulesApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(HelpScreen("cacho"))


def test_rules_screen_snapshot(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(RulesApp(), terminal_size=(100, 34))
