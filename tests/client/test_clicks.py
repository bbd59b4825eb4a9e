"""Played by the mouse alone at 80x24 (a phone's taps reach the app as these clicks): a whole hand of
truco and of cacheta against a bot on a real server, each card, key and button found by its words
on the screen and clicked where it is drawn. A click must do what its key does: the same action
goes to the server, and the keys are not pressed at all."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_asyncio
from textual.pilot import Pilot

from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.boards.rummy import RummyBoard
from cardtui.client.cards import glyphs
from cardtui.client.models import action_kind, action_name
from cardtui.client.screens.table import TableScreen
from cardtui.client.textual_internals import drawn_lines, notices
from cardtui.server.app import Running, start
from cardtui.v1 import common_pb2, rummy_pb2
from tests.client.rummy_rig import short_hands
from tests.client.waiting import at_table, in_lobby, settled, until
from tests.conftest import create

SMALL = (80, 24)


@pytest_asyncio.fixture
async def table_server(tmp_path: Path) -> AsyncIterator[Running]:
    """Quick bots, a quick next hand: a hand is over in seconds."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.05, next_hand_delay=0.3)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


def rows_of(app: CardApp) -> list[str]:
    """The terminal's rows as text, as the player sees them."""
    return [strip.text for strip in drawn_lines(app.screen)]


async def click_words(pilot: Pilot[None], words: str, below: int = 0) -> None:
    """Click the middle of ``words`` where the screen shows them (the first at or below row ``below``)."""
    rows = rows_of(pilot.app)  # type: ignore[arg-type]
    y = next((y for y, row in enumerate(rows) if y >= below and words in row), None)
    assert y is not None, f"{words!r} is not on the screen:\n" + "\n".join(rows)
    x = rows[y].index(words) + len(words) // 2
    assert await pilot.click(offset=(x, y)), f"nothing to click at {x},{y} ({words!r})"


async def click_button(pilot: Pilot[None], screen: TableScreen, kind: str) -> None:
    """Click the action bar's button for an action of type ``kind`` where the bar draws it."""
    bar = screen.query_one(ActionBar)
    n = next(i for i, group in enumerate(bar.choices) if kind in (action_name(group[0]), action_kind(group[0])))
    place = bar.buttons[n].region
    assert await pilot.click(offset=(place.x + place.width // 2, place.y + place.height // 2))


async def taken(pilot: Pilot[None], screen: TableScreen, seq: int, done: Callable[[], bool]) -> None:
    """Until the table has moved on from event ``seq`` (the click's action taken), or ``done()``."""
    def stuck() -> str:
        said = [str(n.message) for n in notices(pilot.app)]
        return f"the click taken (said: {said}):\n" + "\n".join(rows_of(pilot.app))  # type: ignore[arg-type]

    await until(pilot, lambda: done() or screen.model.seq != seq, stuck)


async def next_hand(pilot: Pilot[None], screen: TableScreen, hand: int) -> int:
    """Until the hand after ``hand`` is dealt (its summary closed by a click on the footer's Go on, if
    it waits for one); that hand's number."""
    def dealt() -> bool:
        view = screen.model.view
        return view is not None and view.hand != hand and not view.hand_over

    while not dealt():
        await until(pilot, lambda: dealt() or screen.summary_open, "the next hand or the summary")
        if not dealt() and "Go on" in "\n".join(rows_of(pilot.app)):  # type: ignore[arg-type]
            await click_words(pilot, "Go on")
            await until(pilot, lambda: dealt() or not screen.summary_open, "the summary closed")
        elif not dealt():
            await until(pilot, dealt, "the next hand dealt")
    view = screen.model.view
    assert view is not None
    return view.hand


async def test_a_truco_hand_by_clicks_alone(table_server: Running) -> None:
    table_id = await create(table_server, game="truco_paulista", seats=4, bots=3, turn_seconds=600)
    app = CardApp(f"127.0.0.1:{table_server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        screen = await at_table(pilot, lambda s: s.model.view is not None and s.model.view.HasField("truco"),
                                "the truco table dealt")
        first = screen.model.view.hand if screen.model.view is not None else 0
        played: list[str] = []

        def done() -> bool:
            view = screen.model.view
            return view is not None and (view.hand_over or view.match_over or view.hand != first)

        def to_do() -> bool:  # signals, calls of truco: on offer beside a card, not a turn of their own
            return bool({action_name(a) for a in screen.model.legal} & {"play", "play_blind", "accept", "keep"})

        for _ in range(200):
            await until(pilot, lambda: done() or to_do(), "ana's turn or the hand's end")
            if done() and played:
                break
            if done():  # over before ana's first card (her side ran from a truco): the next hand is played
                first = await next_hand(pilot, screen, first)
                continue
            await settled(pilot)
            seq = screen.model.seq
            kinds = {action_name(a) for a in screen.model.legal}
            if "play" in kinds:
                card = next(a.cards[0] for a in screen.model.legal if action_name(a) == "play")
                rows = rows_of(app)
                hand = next(y for y, row in enumerate(rows) if "Your cards:" in row)
                await click_words(pilot, glyphs(card), below=hand)
                played.append(card)
            else:  # a mão de onze, a call to answer: accepted by its button
                kind = next(k for k in ("accept", "keep", "play_blind") if k in kinds)
                await click_button(pilot, screen, kind)
            await taken(pilot, screen, seq, done)
        assert done(), "a whole hand was played"
        assert played, "cards were played by clicking them"


async def test_a_cacheta_hand_by_clicks_alone(table_server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    short_hands("cacheta", monkeypatch)  # the bot goes out at its second turn: ana draws, picks and discards first
    # A window after every discard that the bot, which never says it lets one go, may claim: short, and long
    # enough for ana's "let it go" on a busy machine (a window stays open its whole time, passed or not).
    table_id = await create(table_server, game="cacheta", seats=2, bots=1, turn_seconds=600,
                            options={"claim_ms": common_pb2.OptionValue(number=2000)})
    app = CardApp(f"127.0.0.1:{table_server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        screen = await at_table(pilot, lambda s: s.model.view is not None and s.model.view.HasField("rummy"),
                                "the cacheta table dealt")
        board = screen.query_one(RummyBoard)
        view = screen.model.view
        assert view is not None
        first = view.hand
        did: set[str] = set()

        def done() -> bool:
            view = screen.model.view
            return view is not None and (view.hand_over or view.match_over or view.hand != first)

        def rummy() -> rummy_pb2.RummyView:
            assert screen.model.view is not None
            return screen.model.view.rummy

        def to_do() -> bool:  # na boa may be declared at any time: not a turn of ana's
            return any(action_kind(a) != "declare" for a in screen.model.legal)

        for _ in range(40):  # a few turns each: the bot goes out at its second turn, or soon after
            await until(pilot, lambda: done() or to_do(), "ana's turn or the hand's end")
            if done():
                break
            await settled(pilot)
            seq = screen.model.seq
            kinds = {action_kind(a) for a in screen.model.legal} - {"declare"}
            if "knock" in kinds:
                await click_words(pilot, "k knocks")
                did.add("knock")
            elif "draw:stock" in kinds:
                if "s from the stock" in "\n".join(rows_of(app)):
                    await click_words(pilot, "s from the stock")
                else:  # a window closing as the turn comes: the board's prompt is not up yet, the bar's button is
                    await click_button(pilot, screen, "draw:stock")
                did.add("draw")
            elif "discard" in kinds:
                cards = list(board.order)
                last = len(cards) - 1  # the card at the right end: picked by a click first
                if board.cursor != last:
                    rows = rows_of(app)
                    y = next(y for y, row in enumerate(rows) if "Your hand" in row) + 1
                    x = rows[y].rindex(glyphs(cards[last]))  # the rightmost card of the hand
                    assert await pilot.click(offset=(x, y))
                    await settled(pilot)  # the click handled, whatever it did
                    if board.cursor != len(board.order) - 1:  # the table moved as the click came, or it missed
                        continue  # (a busy machine's frame behind the board's): look again
                    did.add("pick")
                if "d discards" not in "\n".join(rows_of(app)):  # the turn ended as the card was picked: look again
                    continue
                await click_words(pilot, "d discards")
                did.add("discard")
            elif "pass" in kinds and rummy().HasField("window"):
                await click_words(pilot, "let it go" if "let it go" in "\n".join(rows_of(app)) else "pass")
                did.add("pass")
            else:
                raise AssertionError(f"nothing to click for {sorted(kinds)}")
            await taken(pilot, screen, seq, done)
        assert done(), "a whole hand was played"
        assert {"draw", "discard", "pick", "pass"} <= did, did


async def test_a_signal_is_changed_by_the_footers_plus_and_sent_by_its_button(table_server: Running) -> None:
    """A cycled button (truco's signals) by the mouse: the footer's ``+`` goes round the kinds, as the key
    does, and a click on the button sends the kind it shows."""
    table_id = await create(table_server, game="truco_argentino", seats=4, bots=3, bot_delay_ms=60_000,
                            turn_seconds=600)
    app = CardApp(f"127.0.0.1:{table_server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        screen = await at_table(pilot, lambda s: any(action_name(a) == "signal" for a in s.model.legal),
                                "a signal on offer")
        await settled(pilot)
        bar = screen.query_one(ActionBar)

        def signal() -> str:
            return next(str(b.label) for b in bar.buttons if str(b.label).startswith("s "))

        assert signal().startswith("s Seña 1⚔"), signal()
        footer = len(rows_of(app)) - 1
        plus = rows_of(app)[footer].index("+")
        assert await pilot.click(offset=(plus, footer))
        await until(pilot, lambda: signal().startswith("s Seña 1♧"), lambda: f"a wink on the button: {signal()}")
        await click_button(pilot, screen, "signal")
        await until(pilot, lambda: "You wink" in "\n".join(rows_of(app)), "the signal in the log")
