"""A table that closes under a player: the screen stops offering what can no longer be done.

The owner closes the table while cris sits there mid-hand; cris's screen says the table is over
for them, offers no action, counts no turn, and leaves without asking (there is no match to hand
to a bot any more).
"""

from __future__ import annotations

import grpc

from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.client.screens.table import TableScreen
from cardtui.server.app import Running
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc
from tests.client.test_table_flow import SMALL, text_of
from tests.client.waiting import settled, until


async def test_a_table_closed_under_a_player_offers_nothing_and_counts_no_turn(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        created = await lobby.CreateTable(lobby_pb2.CreateTableRequest(
            game="cacho", seats=2, bots=1, bot_levels=["easy"], name="curta"))
        app = CardApp(f"127.0.0.1:{server.port}", "cris")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.rows))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.in_match()
                        and app.screen.seat in app.screen.model.view.to_act)  # type: ignore[union-attr]
            screen = app.screen
            assert isinstance(screen, TableScreen)
            assert screen.model.legal, "cris has something to do before the table closes"
            await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=created.table.id,
                                                               owner_token=created.owner_token))
            await until(pilot, lambda: screen.gone)
            await settled(pilot)
            assert "over for you" in text_of(screen, "#turn-line")
            assert "Your turn" not in text_of(screen, "#turn-line")
            assert not screen.model.legal and screen.model.deadline is None
            assert not screen.query_one(ActionBar).buttons
            assert not screen.in_match(), "nothing left to hand to a bot: escape leaves without asking"
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
