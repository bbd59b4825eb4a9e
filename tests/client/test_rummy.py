"""Pif Paf and Cacheta at the terminal, at 80x24: play by keys against a real server, and the
board on rigged positions (snapshots at 80x24 and 120x40)."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Static

from cardtui import i18n
from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.boards.rummy import RummyBoard
from cardtui.client.boards.rummy_table import game_line, seats_grid
from cardtui.client.footer import Footer
from cardtui.client.models import TableModel, action_kind
from cardtui.client.screens.table import TableScreen
from cardtui.client.words import event_words
from cardtui.engine.rummy.cacheta import GAME as CACHETA
from cardtui.engine.rummy.pifpaf import GAME as PIFPAF
from cardtui.i18n import speaking
from cardtui.server.app import Running
from cardtui.v1 import common_pb2, rummy_pb2, table_pb2
from tests.client.footer_check import cut_off, footer_items
from tests.client.rummy_rig import Position, ScriptedTable, rigged_deck
from tests.client.test_table_log import counting
from tests.client.waiting import in_lobby, shown, until
from tests.conftest import Player, create

SMALL = (80, 24)
LARGE = (120, 40)
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[SHDC](?![0-9A-Za-z])")
"""A card in notation ("KD"): the screen shows glyphs ("K♦"), never these."""

NAMES8 = ["ana", "bia", "caio", "duda", "edu", "fabiana", "gustavo", "heloísa"]


# -- rigged positions ---------------------------------------------------------------------------
def cacheta_window() -> Position:
    """Four at Cacheta; ana declared na boa, duda's discard 9♣ completes her hand: the window waits on her."""
    hands = {0: "AS 2S 3S 4H 5H 6H 7C 8C KD", 1: "QH QS QC 9D 10D JD 5C 5S 2C",
             2: "4C 4D 4S 7S 8S 9S JH QC 8D", 3: "9H 9S 10H 10S AH AD 7D 6D 3C"}
    deck = rigged_deck(hands, [1, 2, 3, 0], flip="2D", stock="JS KS QD JC 4D 9C 6C 3H 8S 2H")
    p = Position(CACHETA, ["ana", "bia", "caio", "duda"], deck, {"claim_ms": 60000})
    p.act(1, "draw", value="stock")
    p.act(1, "discard", "JS")
    p.act(2, "draw", value="pile")
    p.act(2, "discard", "8D")
    p.act(3, "draw", value="stock")
    p.act(3, "discard", "KS")
    p.act(0, "declare")  # on her own turn, before drawing
    p.act(0, "draw", value="stock")
    p.act(0, "discard", "QD")
    for seat, card in ((1, "JC"), (2, "4D")):  # a round of discards that do not complete her hand
        p.act(seat, "draw", value="stock")
        p.act(seat, "discard", card)
        p.act(0, "pass")
    p.act(3, "draw", value="stock")
    p.act(3, "discard", "9C")
    return p


def pifpaf_window() -> Position:
    """Three at Pif Paf; bia's discard J♦ completes caio's hand: the window waits on caio."""
    hands = {0: "AS 2S 3S 4H 5H 6H 7C 8C KD", 1: "QH QS QC 9D 10D 5D 5C 5S 2C", 2: "4C 4D 4S 7S 8S 9S JH JC 3D"}
    deck = rigged_deck(hands, [1, 2, 0], stock="JD")
    p = Position(PIFPAF, ["ana", "bia", "caio"], deck, {"claim_ms": 60000})
    for seat in (1, 2, 0):
        p.act(seat, "check")
    p.act(1, "draw", value="stock")
    p.act(1, "discard", "JD")
    return p


def pifpaf_betting() -> Position:
    """Five at Pif Paf, betting: bia checked, caio bet 2, duda called, edu folded; ana to act."""
    hands = {0: "AS 2S 3S 4H 5H 6H 7C 8C KD", 1: "QH QS QC 9D 10D JD 5C 5S 2C",
             2: "4C 4D 6S 7S JH JC KH KC 8D", 3: "9H 9S 10H 10S AH AD 7D 6D 3C", 4: "2H 2D 3H 3D 4S 5D 6C 9C 10C"}
    deck = rigged_deck(hands, [1, 2, 3, 4, 0], stock="JS 9C 6C")
    p = Position(PIFPAF, ["ana", "bia", "caio", "duda", "edu"], deck)
    p.act(1, "check")
    p.act(2, "bet", amount=2)
    p.act(3, "call", amount=2)
    p.act(4, "fold")
    return p


def cacheta8_drawn(hand: str) -> Position:
    """Eight at Cacheta (8♣ turned), ana holding ``hand``: the seven others draw and discard from
    the stock, then ana draws J♣."""
    deck = rigged_deck({0: hand}, [1, 2, 3, 4, 5, 6, 7, 0], flip="8C", stock="2S 3S 4S 5S 6S 7S 8S JC")
    p = Position(CACHETA, NAMES8, deck, {"claim_ms": 60000})
    for s in range(1, 8):
        p.act(s, "draw", value="stock")
        p.act(s, "discard", str(p.state.drawn))
    p.act(0, "draw", value="stock")
    return p


def cacheta8_discard() -> Position:
    """Eight at Cacheta, ana has drawn J♣: a wild (9♠) acts as 7♥, the other (9♣) stands as itself."""
    return cacheta8_drawn("5H 6H 9S QS QH QD 9C 10C KD")


def pifpaf8_discard() -> Position:
    deck = rigged_deck({0: "AS 2S 3S 4H 5H 6H 7C 8C KD"}, [1, 2, 3, 4, 5, 6, 7, 0], stock="2D 3D 4D 5D 6D 7D 8D 9C")
    p = Position(PIFPAF, NAMES8, deck)
    for s in [1, 2, 3, 4, 5, 6, 7, 0]:
        p.act(s, "check")
    for s in range(1, 8):
        p.act(s, "draw", value="stock")
        p.act(s, "discard", str(p.state.drawn))
    p.act(0, "draw", value="stock")
    return p


def cacheta_knocked() -> Position:
    p = cacheta_window()
    p.act(0, "cut")
    p.act(0, "knock", "KD")
    return p


# -- helpers ------------------------------------------------------------------------------------
def board_text(board: RummyBoard) -> str:
    console = Console(width=board.size.width, file=io.StringIO(), record=True, color_system=None)
    console.print(board.render())
    return console.export_text()


def log_text(app: Any) -> str:
    """The log as one line of words (the log wraps its lines to its width)."""
    return " ".join(" ".join(line.text for line in app.screen.query_one("#log").lines).split())


def table_screen(app: Any) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen)
    return screen


def rummy(screen: TableScreen) -> rummy_pb2.RummyView:
    """The rummy view on the screen; an empty one until the first view arrives (so waits go on)."""
    return screen.model.view.rummy if screen.model.view is not None else rummy_pb2.RummyView()


def bar_keys(screen: TableScreen) -> dict[str, str]:
    bar = screen.query_one(ActionBar)
    return {action_kind(group[0]): key for group, key in zip(bar.choices, bar.keys, strict=True)}


def action(kind: int, **fields: Any) -> common_pb2.Action:
    return common_pb2.Action(type=kind, **fields)


STOCK = action(common_pb2.ACTION_TYPE_DRAW, source=common_pb2.DRAW_SOURCE_STOCK)
LET_GO = action(common_pb2.ACTION_TYPE_PASS)
"""A window let go: every window stays open its whole time unless everyone it is open to does this."""


async def ana_lets_go(pilot: Any, screen: TableScreen) -> None:
    """The window after someone else's discard: ana presses x."""
    await until(pilot, lambda: rummy(screen).HasField("window") and not rummy(screen).answered, "a window for ana")
    await pilot.press("x")


def discard(card: str) -> common_pb2.Action:
    return action(common_pb2.ACTION_TYPE_DISCARD, cards=[card])


# -- playing by keys against a real server ------------------------------------------------------
async def test_cacheta_hand_to_a_knock_by_keys(server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """Na boa, a draw (the cursor on the new card), a discard picked with the arrows, a window let go, a knock."""
    hands = {0: "AS 2S 3S 4H 5H 6H 7C 8C KD", 1: "QH QS QC 9D 10D JD 5C 5S 2C"}
    deck = rigged_deck(hands, [1, 0], flip="2D", stock="JS 10D 9C 6C")
    monkeypatch.setattr("cardtui.engine.rummy.base.shuffled", lambda cards, rng: list(deck))
    table_id = await create(server, game="cacheta", seats=2, bots=0, turn_seconds=600,
                            options={"claim_ms": common_pb2.OptionValue(number=60000)})
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        bia = await Player(f"127.0.0.1:{server.port}").join(table_id, "bia")
        screen = table_screen(app)
        board = screen.query_one(RummyBoard)
        assert board.has_focus, "the board takes the keys for picking cards"
        await until(pilot, lambda: rummy(screen).phase == rummy_pb2.RUMMY_PHASE_DRAW, "the deal")
        await bia.act(STOCK)
        await bia.act(discard("JS"))
        # The window opens though JS completes nothing of ana's: she may only let it go (or wait it out).
        await until(pilot, lambda: rummy(screen).HasField("window"), "the window on J♠")
        assert bar_keys(screen) == {"pass": "x", "declare": "n"}
        assert "Not yours to take: x let it go" in board_text(board)
        await pilot.press("x")
        await until(pilot, lambda: 0 in screen.model.view.to_act and not rummy(screen).HasField("window"),  # type: ignore[union-attr]
                    "ana's turn")
        assert bar_keys(screen) == {"draw:stock": "s", "draw:pile": "p", "declare": "n"}
        assert "Draw: s from the stock · p takes J♠" in board_text(board)
        await pilot.press("n")
        await until(pilot, lambda: "You declare na boa!" in log_text(app), "na boa")
        assert "na boa" in board_text(board)
        await pilot.press("s")
        await until(pilot, lambda: rummy(screen).HasField("drawn"), "the draw")
        assert rummy(screen).drawn == "10D" and board.picked() == "10D", "the cursor is on the card just drawn"
        text = board_text(board)
        assert "you drew 10♦" in text and "Discard: ←/→ pick, d discards 10♦" in text
        assert "On the board: d Discard" in screen.query_one(ActionBar).text
        await pilot.press("right")
        assert board.picked() == "KD"
        await pilot.press("d")
        await until(pilot, lambda: list(rummy(screen).pile)[-1:] == ["KD"], "the discard")
        assert "KD" not in rummy(screen).cards and "You discard K♦." in log_text(app)
        await bia.act(LET_GO)
        await bia.act(STOCK)
        await bia.act(discard("9C"))  # completes ana's hand: the window waits on her
        await until(pilot, lambda: rummy(screen).HasField("window"), "the window")
        assert bar_keys(screen) == {"pass": "x", "cut": "c"}
        assert "It completes your hand: c cut · x pass" in board_text(board)
        await pilot.press("x")
        await until(pilot, lambda: 0 in screen.model.view.to_act and not rummy(screen).HasField("window"),  # type: ignore[union-attr]
                    "the window closes")
        await pilot.press("s")
        await until(pilot, lambda: rummy(screen).can_knock, "a hand that knocks")
        assert "k knocks!" in board_text(board)
        await pilot.press("k")
        await until(pilot, lambda: "You knock:" in log_text(app), "the knock")
        (record,) = [json.loads(line) for line in server.store.hands.all(table_id)]
        knock = record["result"]["knock"]
        assert knock["seat"] == 0 and knock["discard"] == "10D"
        assert record["result"]["deltas"]["1"] == -1
        assert "You knock: A♠ 2♠ 3♠ │ 4♥ 5♥ 6♥ │ 6♣ 7♣ 8♣, discarding 10♦." in log_text(app)
        assert not CARD_CODE.search(log_text(app)), "cards in the log are glyphs"
        await bia.close()


async def test_a_window_let_go_says_it_waits_for_the_others_not_your_turn(
    server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three at Cacheta: bia discards, ana lets the window go (x) while caio has not answered. The
    window stays open its whole time; ana has nothing to do, and the line above the bar says the
    table waits for the others, not "Your turn" over "Nothing to do right now"."""
    hands = {0: "AS 5D 9H KC 3C 7D JH 2H 6S", 1: "QH QS QC 9D 10D JD 5C 5S 2C", 2: "4C 4D 4S 7S 8S 9S JH QC 8D"}
    deck = rigged_deck(hands, [1, 2, 0], flip="2D", stock="JS 10D 9C 6C")  # ana's cards meld nothing: no na boa
    monkeypatch.setattr("cardtui.engine.rummy.base.shuffled", lambda cards, rng: list(deck))
    table_id = await create(server, game="cacheta", seats=3, bots=0, turn_seconds=600,
                            options={"claim_ms": common_pb2.OptionValue(number=60000)})
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        bia = await Player(f"127.0.0.1:{server.port}").join(table_id, "bia")
        await Player(f"127.0.0.1:{server.port}").join(table_id, "caio")
        screen = table_screen(app)
        await until(pilot, lambda: rummy(screen).phase == rummy_pb2.RUMMY_PHASE_DRAW, "the deal")
        await bia.act(STOCK)
        await bia.act(discard("JS"))
        await ana_lets_go(pilot, screen)
        await until(pilot, lambda: rummy(screen).answered and not screen.model.legal, "ana's answer")
        line = screen.query_one("#turn-line", Static)
        await until(pilot, lambda: "Waiting for the others" in str(line.render()), "the line saying so")  # it ticks
        assert "Your turn" not in str(line.render()) and " s" in str(line.render()), "the window's time still shows"
        assert "Nothing to do right now" in screen.query_one(ActionBar).text
        assert "you have answered" in " ".join(board_text(screen.query_one(RummyBoard)).split())


def test_the_window_says_closing_when_its_time_is_up() -> None:
    """Its last half second the window said "0 s"; it is closing (the server closes it)."""
    board = RummyBoard()
    for left, said in ((3.2, "· 3 s"), (0.2, "· closing")):
        model = dataclasses.replace(TableModel(cacheta_window().summary(), 1).with_view(cacheta_window().view(1), 1),
                                    deadline=time.monotonic() + left)
        text = board._window(model, model.view.rummy)  # type: ignore[union-attr]
        assert text is not None and said in text.plain and "0 s" not in text.plain, text


async def test_pifpaf_betting_and_a_discard_by_keys(server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """Call by its key, draw, discard the drawn card; a claim prompt only for the seat it completes."""
    hands = {0: "AS 2S 3S 4H 5H 6H 7C 8C KD", 1: "QH QS QC 9D 10D JD 5C 5S 2C", 2: "4C 4D 4S 7S 8S 9S JH JC 3D"}
    deck = rigged_deck(hands, [1, 2, 0], stock="10H 10C 3H")
    monkeypatch.setattr("cardtui.engine.rummy.base.shuffled", lambda cards, rng: list(deck))
    table_id = await create(server, game="pifpaf", seats=3, bots=0, turn_seconds=600,
                            options={"claim_ms": common_pb2.OptionValue(number=60000)})
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        bia = await Player(f"127.0.0.1:{server.port}").join(table_id, "bia")
        caio = await Player(f"127.0.0.1:{server.port}").join(table_id, "caio")
        screen = table_screen(app)
        board = screen.query_one(RummyBoard)
        await until(pilot, lambda: rummy(screen).phase == rummy_pb2.RUMMY_PHASE_BETTING, "the betting")
        await bia.act(action(common_pb2.ACTION_TYPE_CHECK))
        await caio.act(action(common_pb2.ACTION_TYPE_BET, chips=1))
        await until(pilot, lambda: 0 in screen.model.view.to_act, "ana's bet")  # type: ignore[union-attr]
        assert bar_keys(screen) == {"fold": "f", "call": "c", "raise": "r"}
        text = board_text(board)
        assert "Your bet: 1 to call." in text and "bet to match 1" in text and "Pot 4" in text
        await pilot.press("c")
        await until(pilot, lambda: "ana calls 1." in log_text(app), "the call")
        await bia.act(action(common_pb2.ACTION_TYPE_CALL, chips=1))
        await until(pilot, lambda: rummy(screen).phase == rummy_pb2.RUMMY_PHASE_DRAW, "play")
        await bia.act(STOCK)
        await bia.act(discard("10H"))
        await caio.act(LET_GO)
        await ana_lets_go(pilot, screen)
        await until(pilot, lambda: 2 in screen.model.view.to_act and not rummy(screen).HasField("window"),  # type: ignore[union-attr]
                    "caio's turn")
        await caio.act(STOCK)
        await caio.act(discard("3D"))
        await bia.act(LET_GO)
        await ana_lets_go(pilot, screen)
        await until(pilot, lambda: 0 in screen.model.view.to_act and rummy(screen).phase == rummy_pb2.RUMMY_PHASE_DRAW,  # type: ignore[union-attr]
                    "ana's draw")
        assert bar_keys(screen) == {"draw:stock": "s", "draw:pile": "p"}
        await pilot.press("s")
        await until(pilot, lambda: rummy(screen).HasField("drawn"), "the draw")
        assert board.picked() == "3H" == rummy(screen).drawn
        await pilot.press("left", "right")  # round the hand and back: the cursor is on 3♥ again
        assert board.picked() == "3H"
        for _ in range(board.order.index("KD") - board.cursor):
            await pilot.press("right")
        assert board.picked() == "KD"
        await pilot.press("d")  # K♦ completes nobody's hand
        await until(pilot, lambda: rummy(screen).HasField("window"), "the window on K♦")
        await bia.act(LET_GO)
        await caio.act(LET_GO)
        await until(pilot, lambda: rummy(screen).phase == rummy_pb2.RUMMY_PHASE_DRAW and 1 in screen.model.view.to_act,  # type: ignore[union-attr]
                    "bia's turn")
        assert "You discard K♦." in log_text(app)
        assert rummy(screen).seats[0].put == 2 and rummy(screen).pot == 6
        await bia.close()
        await caio.close()


async def test_a_spectator_sees_the_table_and_no_hand(server: Running) -> None:
    table_id = await create(server, game="cacheta", seats=3, bots=3)
    app = CardApp(f"127.0.0.1:{server.port}", "eve", spectate=table_id)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        screen = table_screen(app)
        await until(pilot, lambda: "discards" in log_text(app), "play")
        board = screen.query_one(RummyBoard)
        # Between hands a summary stands in for the board: wait for a hand in play.
        await until(pilot, lambda: "Stock" in board_text(board), "the board in play")
        text = board_text(board)
        assert "Your hand" not in text and "Stock" in text and "Flip" in text
        assert not board.check_action("discard", ()), "no hand to pick from"
        assert "You draw" not in log_text(app) and "You receive" not in log_text(app)


# -- rigged positions on a scripted stream ------------------------------------------------------
WINDOWS = {
    "cacheta": (cacheta_window, 0, 3, "Window on 9♣", "It completes your hand: c cut · x pass"),
    "pifpaf": (pifpaf_window, 2, 1, "Window on J♦", "It completes your hand: c claim · x pass"),
}


@pytest.mark.parametrize("game", ["cacheta", "pifpaf"])
@pytest.mark.parametrize("who", ["claimant", "discarder", "other", "spectator"])
async def test_the_claim_prompt_shows_only_to_a_seat_that_may_take_the_card(game: str, who: str) -> None:
    """Everyone sees the window on the discard; only the seat it completes (Cacheta: declared) is asked."""
    position, claimant, discarder, window, prompt = WINDOWS[game]
    other = next(s for s in range(3) if s not in (claimant, discarder))
    seat = {"claimant": claimant, "discarder": discarder, "other": other, "spectator": None}[who]
    app = ScriptedTable(position(), seat)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        screen = table_screen(app)
        text = board_text(screen.query_one(RummyBoard))
        assert window in text
        assert (prompt in text) is (who == "claimant")
        assert ("(your discard)" in text) is (who == "discarder")
        if seat is not None:
            keys = bar_keys(screen)
            assert (keys.get("claim" if game == "pifpaf" else "cut") == "c") is (who == "claimant")
            assert (keys.get("pass") == "x") is (who == "claimant")


async def keys_at(position: Position, seat: int) -> dict[str, str]:
    app = ScriptedTable(position, seat)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        return bar_keys(table_screen(app))


async def test_keys_keep_their_meaning_when_a_window_opens() -> None:
    """Na boa is n before a window and in it; pass (x) and cut (c) have keys of their own."""
    in_window = await keys_at(cacheta_window(), 2)  # caio is one card away, not declared: he may declare
    claimant = await keys_at(cacheta_window(), 0)
    p = cacheta_window()
    p.act(0, "pass")
    p.act(0, "draw", value="stock")
    p.act(0, "discard", "6C")
    p.act(1, "draw", value="stock")
    p.act(1, "discard", "2C")
    p.act(0, "pass")  # a declared player is asked at every discard (a bad cut burns)
    drawing = await keys_at(p, 2)
    assert in_window == {"declare": "n"}
    assert claimant == {"pass": "x", "cut": "c"}
    assert drawing == {"draw:stock": "s", "draw:pile": "p", "declare": "n"}
    betting = await keys_at(pifpaf_betting(), 0)
    assert betting == {"fold": "f", "call": "c", "raise": "r"}


async def test_the_drawn_card_is_marked_and_picked_and_wilds_are_marked() -> None:
    app = ScriptedTable(cacheta8_discard(), 0)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        board = table_screen(app).query_one(RummyBoard)
        assert board.picked() == "JC"
        text = board_text(board)
        assert "you drew J♣" in text
        assert "9♠*" in text, "the wild acting as 7♥"
        assert "9♣°" in text, "the wild standing as itself"
        lines = text.splitlines()
        row = next(i for i, ln in enumerate(lines) if "9♠*" in ln)
        assert lines[row + 1].index("▲") == lines[row].index("J♣") + 0, "the cursor mark sits under J♣"
        assert "heloísa" in text and "Discard: ←/→ pick, d discards J♣ · k knocks!" in text


async def test_reorder_the_hand_by_keys() -> None:
    app = ScriptedTable(pifpaf8_discard(), 0)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        screen = table_screen(app)
        board = screen.query_one(RummyBoard)
        melds = list(board.order)
        assert board.picked() == "9C" and board.sort == "melds"
        await pilot.press("shift+left", "shift+left")
        assert board.picked() == "9C" and board.order.index("9C") == melds.index("9C") - 2
        assert board.sort == "your order" and "Your hand · your order" in board_text(board)
        board.model = screen.model  # a new view of the same hand keeps the order made
        assert board.order.index("9C") == melds.index("9C") - 2
        await pilot.press("o")
        assert board.sort == "melds" and board.order == melds
        await pilot.press("o")
        assert board.sort == "suit" and board.order == ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "KD"]
        await pilot.press("o")
        assert board.sort == "rank" and board.order[:3] == ["AS", "2S", "3S"] and board.order[-1] == "KD"
        assert board.picked() == "9C", "sorting keeps the card picked"
        await pilot.press("home", "d")
        await until(pilot, lambda: app.conn.sent, "the discard sent")
        assert list(app.conn.sent[-1].cards) == ["AS"], "d sends the card picked"


async def test_the_result_summary_reads_at_80x24() -> None:
    app = ScriptedTable(cacheta_knocked(), 1)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        screen = table_screen(app)
        board = screen.query_one(RummyBoard)
        summary = board.result_summary(screen.model)
        assert summary is not None
        console = Console(width=46, file=io.StringIO(), record=True, color_system=None)
        console.print(summary)
        text = console.export_text()
        assert "ana knocks cutting the line with 9♣" in text
        assert "A♠ 2♠ 3♠ │ 4♥ 5♥ 6♥ │ 7♣ 8♣ 9♣" in text and "discards K♦" in text
        assert re.search(r"bia\s+10\s+→\s+9\s+-1", text) and re.search(r"ana\s+10\s+→\s+10\s+·\s+wins", text)
        assert max(len(ln) for ln in text.splitlines()) <= 46
        assert board.result_summary(TableModel(screen.model.summary, 1)) is None
        assert "ana wins the hand: bia -1, caio -1, duda -1 points." in log_text(app)


def test_every_rummy_event_in_words() -> None:
    """Glyphs, no notation, no noise: the window opening after each discard is not news."""
    p = cacheta_knocked()
    model = TableModel(p.summary(), 0).with_view(p.view(0), 0)
    lines = [said.text.plain for e in p.stream(0)[1].update.events if (said := event_words(model, e)) is not None]
    text = "\n".join(lines)
    assert "The flip is 2♦: 3♥ and 3♦ are wild." in text
    assert "bia draws from the stock." in text and "caio takes J♠ from the pile." in text
    assert "You declare na boa!" in text and "You cut the line for 9♣!" in text
    assert "window" not in text.lower() and "to draw" not in text and "Cut" not in text, "a cut is said once"
    assert not CARD_CODE.search(text)
    bia = TableModel(p.summary(), 1).with_view(p.view(1), 0)
    theirs = [said.text.plain for e in p.stream(1)[1].update.events if (said := event_words(bia, e)) is not None]
    assert "ana cuts the line for 9♣!" in theirs and "ana declares na boa!" in theirs


# -- snapshots ---------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_pifpaf_betting_snapshot(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(ScriptedTable(pifpaf_betting(), 0), terminal_size=size, run_before=_settle)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
def test_cacheta_window_snapshot(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(ScriptedTable(cacheta_window(), 0), terminal_size=size, run_before=_settle)


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_every_key_of_a_betting_hand_fits_the_footer_at_80_columns(lang: str) -> None:
    """Picking, the amount's +/-, the hint (h), the chat (/), the phrases (!) and the rules show: none is cut
    off or covered; a key that has no room gives way whole, never cut ("^l Idio" in Spanish): Quit, Invite,
    Language, then moving and sorting the hand (all in the help)."""
    with speaking(lang):
        app = ScriptedTable(pifpaf_betting(), 0)
        async with app.run_test(size=SMALL) as pilot:
            await _settle(pilot)
            shown = {words for _, _, words in footer_items(app.screen)}
            wanted = ("Hint", "Chat", "Phrases", "Leave", "Rules", "Pick", "More/less")
            assert {i18n._(w) for w in wanted} <= shown, shown
            assert cut_off(app.screen, SMALL[0]) == []


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
@pytest.mark.parametrize("position", [cacheta_window, pifpaf8_discard, cacheta8_discard])
async def test_at_a_rummy_table_the_hint_chat_and_phrases_keys_show_whole_in_every_language(
    lang: str, position: Callable[[], Position],
) -> None:
    """Pif Paf and Cacheta at 80 columns, at a claim window and with a card to discard: h (the hint), / (the
    chat) and ! (the phrases) show whole, beside Leave, Sort and the rules; Quit, Invite and Language give
    way (ctrl+q and ctrl+l work anywhere, the help lists them)."""
    with speaking(lang):
        app = ScriptedTable(position(), 0)
        async with app.run_test(size=SMALL) as pilot:
            await _settle(pilot)
            items = footer_items(app.screen)
            shown = {words for _, _, words in items}
            assert {i18n._(w) for w in ("Hint", "Chat", "Phrases", "Sort", "Leave", "Rules")} <= shown, shown
            assert cut_off(app.screen, SMALL[0]) == []
            keys = {k.key for k in app.screen.query_one(Footer).keys_shown()}
            assert {"h", "slash", "exclamation_mark"} <= keys, keys


async def _settle(pilot: Any) -> None:
    await shown(pilot)


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_pif_paf_betting_line_is_whole_beside_the_log_at_80_columns(lang: str) -> None:
    """The pot's line (bet to match, cap, least raise) fits the board's 50 columns at 80x24: it was
    cut with … in Portuguese and Spanish ("nenhuma aposta ainda · teto 3 · aumento …")."""
    from rich.cells import cell_len

    model = TableModel(summary=common_pb2.TableSummary(game="pifpaf"), seat=0)
    with speaking(lang):
        for level in (0, 12):
            view = rummy_pb2.RummyView(pot=120, betting=rummy_pb2.PifPafBetting(level=level, cap=50, min_raise=5))
            said = game_line(model, view)
            assert said is not None and cell_len(said.plain) <= 50, said.plain


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_long_notes_give_way_to_names_on_a_watchers_board(lang: str) -> None:
    """Eight at Pif Paf, watched at 80x24 (the seats get 50 columns): a dealer who folded and took
    cards, a bot's level, someone away. The notes are cut (…), never the names, the numbers or
    their headings: in Spanish the names were cut to three letters."""
    names = ["ana", "Lucho2", "carolina", "duda", "edu", "fabiana", "gustavo", "heloísa"]
    seats = [rummy_pb2.RummySeat(seat=i, name=n, score=49, put=1, card_count=9) for i, n in enumerate(names)]
    seats[0].status = seats[2].status = rummy_pb2.RUMMY_SEAT_STATUS_FOLDED
    seats[0].taken.extend(["5H", "6H", "7H"])
    seats[3].taken.extend(["5S", "6S", "7S", "8S"])
    seats[4].status = rummy_pb2.RUMMY_SEAT_STATUS_WAITING
    view = table_pb2.View(dealer=0, rummy=rummy_pb2.RummyView(seats=seats, turn=1), seats=[
        common_pb2.SeatSummary(seat=i, name=n, bot=i in (0, 5, 6), bot_level="normal", away=i == 6)
        for i, n in enumerate(names)])
    model = TableModel(common_pb2.TableSummary(game="pifpaf"), None)
    with speaking(lang):
        console = Console(width=50, record=True)
        console.print(seats_grid(model, view, False))
        headings = [i18n._("chips"), i18n._("in pot"), i18n._("cards")]
    lines = console.export_text().splitlines()
    assert all(heading in lines[0] for heading in headings), lines[0]
    for n, name in enumerate(names):
        assert lines[n + 1].split()[0 if n != 1 else 1] == name, lines
        assert "49" in lines[n + 1].split(), lines
    assert lines[2].startswith("▶ Lucho2"), lines
    assert "…" in lines[1], "the dealer's long notes are what gives way"


async def test_the_cursor_stays_on_the_drawn_card_beside_its_twin() -> None:
    """Two decks: ana holds J♣ and draws the other J♣. The cursor goes to the card drawn and stays
    there as messages come that change nothing of the hand (it does not jump to the twin)."""
    p = cacheta8_drawn("5H 6H 9S QS QH QD 9C JC KD")
    app = ScriptedTable(p, 0)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        board = table_screen(app).query_one(RummyBoard)
        twins = [i for i, c in enumerate(board.order) if c == "JC"]
        assert len(twins) == 2 and board.cursor == twins[-1]
        drawn_before = board_text(board)
        board.model = board.model  # a message that changes nothing of the hand (a chat line, a bot's signal)
        await pilot.pause()
        assert board.cursor == twins[-1]
        assert board_text(board) == drawn_before
        assert [strip.text for strip in board.painted] == [strip.text for strip in board.lines()]


async def test_a_key_that_moves_the_cursor_repaints_only_the_lines_it_changed() -> None:
    """← / → move the cursor: the board repaints the lines that changed (the cursor's mark, the
    prompt naming the card) and leaves the seats, the pile and the cards as painted."""
    app = ScriptedTable(cacheta8_discard(), 0)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        board = table_screen(app).query_one(RummyBoard)
        before = list(board.painted)
        painted: list[int] = []
        draw = board.render_line

        def spy(y: int) -> Any:
            painted.append(y)
            return draw(y)

        board.render_line = spy  # type: ignore[method-assign]
        await pilot.press("left")
        await pilot.pause()
        after = list(board.painted)
        changed = {y for y, (a, b) in enumerate(zip(before, after, strict=True)) if a != b}  # words or styles
        assert changed and set(painted) == changed
        assert len(changed) < len(after) // 2
        assert [strip.text for strip in board.painted] == [strip.text for strip in board.lines()]


async def test_the_window_countdown_is_drawn_again_only_when_its_seconds_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock ticks twice a second and the board shows whole seconds: a tick that would show the
    same number draws nothing; one that shows another draws the countdown anew. (The board reads a
    clock that stands still: on a busy machine the real one may cross a second between two lines.)"""
    import cardtui.client.boards.rummy as rummy_board

    class Still:
        """A clock that stands still."""

        @staticmethod
        def monotonic() -> float:
            return 1000.0

    app = ScriptedTable(pifpaf_window(), 2)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        monkeypatch.setattr(rummy_board, "time", Still)
        board = table_screen(app).query_one(RummyBoard)
        assert board.model is not None
        board.model = dataclasses.replace(board.model, deadline=Still.monotonic() + 7.3)
        board.redraw()
        await pilot.pause()
        assert "· 7 s" in board_text(board)
        drawn = counting(board, "lines")
        board._tick()
        await pilot.pause()
        assert drawn == [0], "the same seconds: nothing drawn"
        board.model = dataclasses.replace(board.model, deadline=Still.monotonic() + 4.2)
        board._tick()
        await pilot.pause()
        assert drawn == [1]
        assert "· 4 s" in board_text(board) and "· 7 s" not in board_text(board)
