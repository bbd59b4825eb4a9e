"""Cacheta and Pif Paf at the terminal: draw, pick a card, knock, all by key presses."""

from __future__ import annotations

from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.boards.rummy import RummyBoard
from cardtui.client.table_screen import TableScreen
from cardtui.engine.cards import parse_cards
from cardtui.server.app import Running
from tests.conftest import Player, create

SIZE = (120, 40)


def log_text(app: CardApp) -> str:
    return "\n".join(line.text for line in app.screen.query_one("#log").lines)  # type: ignore[attr-defined]


async def opponent_plays_a_turn(server: Running, table_id: str) -> Player:
    """The other seat, over gRPC: draws from the stock and throws its first discard."""
    other = await Player(f"127.0.0.1:{server.port}").join(table_id, "bea")
    table = server.room.tables[table_id]
    for kind in ("draw", "discard"):
        action = next(a for a in table.view(other.seat).legal if a.type == kind)
        await other.act(action)
    return other


async def answer_claim_window(pilot: object, screen: TableScreen) -> None:
    """Pass on the opponent's discard if a claim window asks us."""
    bar = screen.query_one(ActionBar)
    if any(g[0].type == "pass" for g in bar.choices):
        await pilot.press(key_for(bar, "pass"))  # type: ignore[attr-defined]
        await pilot.pause(0.3)  # type: ignore[attr-defined]


def key_for(bar: ActionBar, kind: str, value: str = "") -> str:
    for n, group in enumerate(bar.choices, start=1):
        if group[0].type == kind and (not value or group[0].value == value):
            return str(n)
    raise AssertionError(f"no {kind} {value} on offer: {[g[0].type for g in bar.choices]}")


async def test_cacheta_hand_to_a_knock_by_keys(server: Running) -> None:
    table_id = await create(server, game="cacheta", seats=2, bots=0, turn_seconds=600)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        await app.open_table(table_id)
        other = await opponent_plays_a_turn(server, table_id)
        await pilot.pause(0.4)
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.seat == 0
        await answer_claim_window(pilot, screen)
        # Rig the deal the way the engine tests do: a melded nine, and a loose card on the stock.
        state = server.room.tables[table_id].state
        assert state.turn == 0
        state.hands[0] = list(parse_cards("AS 2S 3S 4H 5H 6H 7C 8C 9C"))
        state.stock[-1] = parse_cards("KD")[0]
        board = screen.query_one(RummyBoard)
        assert board.has_focus, "the board takes the keys for picking cards"
        bar = screen.query_one(ActionBar)
        await pilot.press(key_for(bar, "draw", "stock"))
        await pilot.pause(0.3)
        assert len(board.view["your_cards"]) == 10 and board.view["can_knock"]
        await pilot.press("right", "left", "s")  # look around the hand: nothing is sent
        await pilot.press("k")
        await pilot.pause(0.4)
        assert "knock" in log_text(app).lower()
        # The hand is over (the next may already be dealt): its history holds the knock.
        import json

        (record,) = [json.loads(line) for line in server.store.hands(table_id)]
        knock = record["result"]["knock"]
        assert knock["seat"] == 0
        melded = sorted(c for meld in knock["melds"] for c in meld)
        assert len(melded) + (knock["discard"] is not None) == 10
        assert record["result"]["deltas"]["1"] < 0, "the opponent loses points"
        points = [s["chips"] for s in board.view["seats"]]
        assert points[1] < 10
        await other.close()


async def test_discard_by_selection_sends_the_card_under_the_cursor(server: Running) -> None:
    table_id = await create(server, game="cacheta", seats=2, bots=0, turn_seconds=600)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        await app.open_table(table_id)
        other = await opponent_plays_a_turn(server, table_id)
        await pilot.pause(0.4)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await answer_claim_window(pilot, screen)
        board = screen.query_one(RummyBoard)
        await pilot.press("d")  # nothing to discard before drawing: a warning, nothing sent
        await pilot.pause(0.2)
        await pilot.press(key_for(screen.query_one(ActionBar), "draw", "stock"))
        await pilot.pause(0.3)
        await pilot.press("s", "right", "right")
        chosen = board.selected()
        assert chosen is not None
        before = list(board.view["your_cards"])
        await pilot.press("d")
        await pilot.pause(0.3)
        after = list(board.view["your_cards"])
        before.remove(chosen)
        assert sorted(after) == sorted(before), "exactly the selected card left the hand"
        assert board.view["discard_top"] == chosen or board.view["phase"] == "claim"
        await other.close()
