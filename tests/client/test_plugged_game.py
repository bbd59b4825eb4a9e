"""A game from outside the package (the tests' own, ``tests/games/highcard``) in the Textual client: the lobby lists
it by its title, its table shows on the board of its family, a hand is played by keys to its end, and its deal is
checked fair by the check the game names."""

from __future__ import annotations

from cardtui.client.app import CardApp
from cardtui.client.boards.cacho import CachoBoard
from cardtui.client.screens.table import TableScreen
from cardtui.client.table_log import TableLog
from cardtui.server.app import Running
from tests.client.waiting import at_table, in_lobby, play_by_keys, until
from tests.conftest import create

SIZE = (120, 40)


def log_text(app: CardApp) -> str:
    return "\n".join(t.plain for t in app.screen.query_one("#log", TableLog).said)


async def test_a_hand_of_a_game_from_one_folder_played_by_keys(game_server: Running, test_game: str) -> None:
    table_id = await create(game_server, game=test_game, name="plugged", seats=3, bots=2)
    app = CardApp(f"127.0.0.1:{game_server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await in_lobby(pilot)
        row = [str(c) for c in lobby.query_one("#tables").get_row_at(0)]  # type: ignore[attr-defined]
        assert row[:3] == [table_id, "High card", "plugged"]
        await app.open_table(table_id)
        screen = await at_table(pilot, lambda s: s.model.view.HasField("cacho"), "the table's view")
        assert isinstance(screen.query_one("#board"), CachoBoard)
        mine = next(s for s in screen.model.view.cacho.seats if s.seat == screen.seat)
        assert len(mine.cards) == 1, "one card, face up to its holder"
        await play_by_keys(pilot, lambda: " wins " in log_text(app))
        said = log_text(app)
        assert "ana bets" in said or "ana calls" in said or "ana checks" in said, said
        await until(pilot, lambda: any(v.hand == 1 for v in screen.fair.verdicts), "the first deal checked")
        [verdict] = [v for v in screen.fair.verdicts if v.hand == 1]
        assert verdict.ok, verdict.said().text.plain
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, TableScreen), "the table left")
