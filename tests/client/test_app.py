"""The Textual client driven by key presses against a real in-process server."""

from __future__ import annotations

from textual.app import App

from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.help import HelpScreen
from cardtui.client.models import action_name
from cardtui.client.table_log import TableLog
from cardtui.client.table_screen import TableScreen
from cardtui.server.app import Running
from cardtui.v1 import cacho_pb2
from tests.conftest import create

SIZE = (120, 40)


def board_view(app: CardApp) -> cacho_pb2.CachoView:
    screen = app.screen
    assert isinstance(screen, TableScreen) and screen.model.view is not None
    return screen.model.view.cacho


def hand_over(app: CardApp) -> bool:
    screen = app.screen
    assert isinstance(screen, TableScreen) and screen.model.view is not None
    return screen.model.view.hand_over


def log_text(app: CardApp) -> str:
    return "\n".join(t.plain for t in app.screen.query_one("#log", TableLog).said)


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
        start_chips = [s.chips for s in board_view(app).seats]
        assert sum(start_chips) + board_view(app).pot == 80
        assert board_view(app).seats[0].cards, "my own card is face up"
        assert all(not s.cards and s.card_count for s in board_view(app).seats[1:])
        hands_seen = 0
        moved = False  # chips changed hands at some point (two hands may well cancel out)
        for _ in range(400):
            await pilot.pause(0.05)
            bar = screen.query_one(ActionBar)
            if bar.choices:
                kinds = [action_name(g[0]) for g in bar.choices]
                # Bet or call when offered, by their own keys, so the hand reaches a showdown now and then.
                key = next((bar.keys[i] for i, k in enumerate(kinds) if k in ("bet", "call", "check")), bar.keys[0])
                await pilot.press(key)
            moved = moved or [s.chips for s in board_view(app).seats] != start_chips
            hands_seen = log_text(app).count(" wins ")
            if hands_seen >= 2:
                break
        assert hands_seen >= 2, log_text(app)
        chips = [s.chips for s in board_view(app).seats]
        assert sum(chips) + board_view(app).pot * (not hand_over(app)) == 80
        assert moved or "wins 1 unseen" in log_text(app)
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
            await pilot.press("p", "b", "1")
            await pilot.pause(0.05)
            view = board_view(app)
            if not hand_over(app):
                assert all(not s.cards for s in view.seats)
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
        await pilot.press("slash")
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
        assert row[:6] == [table_id, "Cacho", "noite", "0", "2", "2"], "nobody yet, 2 bots, 2 open seats"
        await pilot.press("s")
        await pilot.pause(0.3)
        assert isinstance(app.screen, TableScreen) and app.screen.spectating
        options = app.screen.model.summary.options
        assert {k: v.number for k, v in options.items()} == {"chips": 20}


class RulesApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(HelpScreen("cacho"))


def test_rules_screen_snapshot(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(RulesApp(), terminal_size=(100, 34))


async def test_a_key_always_means_the_same_action(server: Running) -> None:
    """Keys by action type: a key whose action is not on offer does nothing, never another action."""
    table_id = await create(server, game="cacho", seats=2, bots=1, bot_delay_ms=60_000, turn_seconds=3600)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        await app.open_table(table_id)
        for _ in range(40):
            await pilot.pause(0.05)
            if isinstance(app.screen, TableScreen) and app.screen.query_one(ActionBar).choices:
                break
        screen = app.screen
        assert isinstance(screen, TableScreen)
        bar = screen.query_one(ActionBar)
        assert dict(zip([action_name(g[0]) for g in bar.choices], bar.keys, strict=True)) == {"pass": "p", "bet": "b"}
        seq = screen.model.seq
        await pilot.press("r")  # raise: not on offer in round 1
        await pilot.pause(0.3)
        assert screen.model.seq == seq, "nothing happened"
        await pilot.press("b")
        for _ in range(40):
            await pilot.pause(0.05)
            if "ana bets 1" in log_text(app):
                break
        assert "ana bets 1" in log_text(app)
