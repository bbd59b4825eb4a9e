"""The Textual client driven by key presses against a real in-process server."""

from __future__ import annotations

from textual.app import App

from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.models import action_name
from cardtui.client.screens.help import HelpScreen
from cardtui.client.screens.lobby import CreateTableScreen
from cardtui.client.screens.table import TableScreen
from cardtui.client.table_log import TableLog
from cardtui.server.app import Running
from cardtui.v1 import cacho_pb2
from tests.client.waiting import at_table, in_lobby, play_by_keys, settled, until
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
        await in_lobby(pilot)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the create form")
        await settled(pilot)  # its fields built for the server's games
        for key in ("tab", "tab"):  # game, name → players
            await pilot.press(key)
        await pilot.press("ctrl+s")
        screen = await at_table(pilot)
        assert screen.seat == 0
        start_chips = [s.chips for s in board_view(app).seats]
        assert sum(start_chips) + board_view(app).pot == 80
        assert board_view(app).seats[0].cards, "my own card is face up"
        assert all(not s.cards and s.card_count for s in board_view(app).seats[1:])
        moved = False  # chips changed hands at some point (two hands may well cancel out)

        def two_hands() -> bool:
            nonlocal moved
            moved = moved or [s.chips for s in board_view(app).seats] != start_chips
            return log_text(app).count(" wins ") >= 2

        # Bet or call when offered, by their own keys, so the hand reaches a showdown now and then.
        await play_by_keys(pilot, two_hands)
        chips = [s.chips for s in board_view(app).seats]
        assert sum(chips) + board_view(app).pot * (not hand_over(app)) == 80
        assert moved or "wins 1 unseen" in log_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, TableScreen), "the table left")


async def test_spectating_offers_no_action_and_shows_no_hidden_card(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=3, bots=3)
    app = CardApp(f"127.0.0.1:{server.port}", "eve", spectate=table_id)
    async with app.run_test(size=SIZE) as pilot:
        await at_table(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.screen.spectating
        assert not app.screen.query(ActionBar)
        banner = app.screen.query_one("#spectator-banner")
        assert "SPECTATING" in str(banner.render())
        def seen_through_a_hand() -> bool:
            view = board_view(app)
            if not hand_over(app):
                assert all(not s.cards for s in view.seats)
            return " wins " in log_text(app)

        while not seen_through_a_hand():
            seq = app.screen.model.seq
            await pilot.press("p", "b", "1")
            await until(pilot, lambda seq=seq: app.screen.model.seq != seq, "the bots to play on")  # type: ignore[attr-defined]
        assert " wins " in log_text(app)
        assert "You receive" not in log_text(app)


async def test_names_and_chat_show_literally(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=2, bots=1)
    app = CardApp(f"127.0.0.1:{server.port}", "[b]ana[/b]")
    async with app.run_test(size=SIZE) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        await at_table(pilot)
        await pilot.press("slash")
        for ch in "[red]hi":
            await pilot.press(ch)
        await pilot.press("enter")
        await until(pilot, lambda: "[red]hi" in log_text(app), "the chat line in the log")
        assert "[b]ana[/b]: [red]hi" in log_text(app)


async def test_lobby_lists_tables_with_seats_and_spectators(server: Running) -> None:
    table_id = await create(server, game="cacho", name="noite", seats=4, bots=2)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await in_lobby(pilot)
        grid = lobby.query_one("#tables")
        row = [str(c) for c in grid.get_row_at(0)]  # type: ignore[attr-defined]
        assert row[:6] == [table_id, "Cacho", "noite", "0", "2", "2"], "nobody yet, 2 bots, 2 open seats"
        await pilot.press("s")
        await at_table(pilot)
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
        await in_lobby(pilot)
        await app.open_table(table_id)
        screen = await at_table(pilot, lambda s: s.query_one(ActionBar).choices, "something on offer")
        bar = screen.query_one(ActionBar)
        assert dict(zip([action_name(g[0]) for g in bar.choices], bar.keys, strict=True)) == {"pass": "p", "bet": "b"}
        seq, table = screen.model.seq, server.room.tables[table_id]
        at = table.seq
        await pilot.press("r")  # raise: not on offer in round 1
        await settled(pilot)  # the key handled: an action it had sent would have had its answer
        assert table.seq == at, "nothing sent"
        assert screen.model.seq == seq, "nothing happened"
        await pilot.press("b")
        await until(pilot, lambda: "ana bets 1" in log_text(app), "ana's bet in the log")
