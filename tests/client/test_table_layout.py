"""The table screen's layout on a fixed position, at 80x24 and 120x40: board, turn line, action bar,
log and chat, and the hand and match summaries. A fixed stream stands in for the server, so
the pictures are the same on every run."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.app import App

from cardtui.client.screens.table import TableScreen
from cardtui.client.textual_internals import drawn_lines
from cardtui.v1 import cacho_pb2, common_pb2, table_pb2
from tests.client.waiting import Script, settled, shown, until

IN, PASSED = cacho_pb2.CACHO_SEAT_STATUS_IN, cacho_pb2.CACHO_SEAT_STATUS_PASSED
NAMES = ["ana", "bea", "caio", "duda"]
RESULT = "Hand 3: ana wins the pot of 8"
FOOT = "Next hand soon · enter: back to the table"


class FixedStream(Script):
    """Just enough of a connection: a stream that says its piece and then stays quiet."""


def seats() -> list[common_pb2.SeatSummary]:
    return [common_pb2.SeatSummary(seat=i, name=n, taken=True, team=i, bot=i == 3) for i, n in enumerate(NAMES)]


def cacho_view(over: bool = False, match_over: bool = False) -> table_pb2.View:
    cards = [["6S", "5S"], [], [], []]
    chips = [17, 20, 16, 19] if not over else [21, 18, 15, 18]
    put = [3, 0, 4, 1] if not over else [0, 0, 0, 0]
    status = [IN, PASSED, IN, PASSED]
    v = cacho_pb2.CachoView(round=2, pot=8, seats=[
        cacho_pb2.CachoSeat(seat=i, name=n, chips=chips[i], put=put[i], status=status[i], cards=cards[i],
                            card_count=2) for i, n in enumerate(NAMES)])
    if match_over:
        v.seats[0].chips, v.seats[1].chips, v.seats[2].chips, v.seats[3].chips = 72, 0, 0, 0
    if over:
        strong = cacho_pb2.CachoStrength(category=cacho_pb2.CACHO_CATEGORY_CACHO, points=35)
        weak = cacho_pb2.CachoStrength(category=cacho_pb2.CACHO_CATEGORY_TWO_SUITED, points=26)
        v.result.CopyFrom(cacho_pb2.CachoResult(deltas=[4, -2, -1, -1], winner=0, pot=8, showdown=[
            cacho_pb2.CachoShowing(seat=0, cards=["6S", "5S", "4S"], strength=strong),
            cacho_pb2.CachoShowing(seat=2, cards=["6H", "AH", "3C"], strength=weak)]))
    legal = [] if over else [common_pb2.Action(type=common_pb2.ACTION_TYPE_FOLD),
                             common_pb2.Action(type=common_pb2.ACTION_TYPE_CALL, chips=1),
                             common_pb2.Action(type=common_pb2.ACTION_TYPE_RAISE, chips=5, max_chips=17)]
    return table_pb2.View(hand=3, dealer=3, you=0, to_act=[] if over else [0], hand_over=over,
                          match_over=match_over, cacho=v, legal=legal, seats=seats())


def events(over: bool) -> list[table_pb2.Event]:
    acted = common_pb2.Action
    out = [
        table_pb2.Event(seq=10, hand_started=table_pb2.HandStarted(hand=3, dealer=3)),
        table_pb2.Event(seq=11, cards_dealt=table_pb2.CardsDealt(seat=0, cards=["6S"])),
        table_pb2.Event(seq=12, acted=table_pb2.Acted(seat=0, action=acted(type=common_pb2.ACTION_TYPE_BET,
                                                                            chips=1))),
        table_pb2.Event(seq=13, acted=table_pb2.Acted(seat=1, action=acted(type=common_pb2.ACTION_TYPE_PASS))),
        table_pb2.Event(seq=14, chatted=table_pb2.Chatted(
            seat=2, name="caio", text="a long line of table talk that has to wrap inside the log, never clip")),
        table_pb2.Event(seq=15, acted=table_pb2.Acted(seat=2, action=acted(type=common_pb2.ACTION_TYPE_RAISE,
                                                                            chips=4))),
    ]
    if over:
        out.append(table_pb2.Event(seq=16, hand_ended=table_pb2.HandEnded(deltas=[4, -2, -1, -1], winner=0)))
    return out


def stream(game: str, over: bool = False, match_over: bool = False) -> FixedStream:
    summary = common_pb2.TableSummary(id="t1", game=game, name="sexta", seats=seats())
    snapshot = table_pb2.Snapshot(table=summary, seat=0, view=cacho_view(False))
    last = 16 if over else 15
    update = table_pb2.Update(events=events(over), view=cacho_view(over, match_over))
    return FixedStream([table_pb2.TableMessage(seq=9, snapshot=snapshot),
                        table_pb2.TableMessage(seq=last, update=update)])


class TableApp(App[None]):
    CSS_PATH = "../../client/app.tcss"

    def __init__(self, conn: FixedStream, game: str) -> None:
        super().__init__()
        self.conn = conn
        self.game = game

    def on_mount(self) -> None:
        table = common_pb2.TableSummary(id="t1", game=self.game, name="sexta", seats=seats())
        self.push_screen(TableScreen(self.conn, "token", 0, table))  # type: ignore[arg-type]


async def settle(pilot: Any) -> None:
    await shown(pilot)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("game", ["cacho", "generic"])
def test_a_hand_in_play(snap_compare: Any, game: str, size: tuple[int, int]) -> None:
    assert snap_compare(TableApp(stream(game), game), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_hand_summary(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(TableApp(stream("cacho", over=True), "cacho"), terminal_size=size, run_before=settle)


def test_the_plain_summary_of_a_board_without_one(snap_compare: Any) -> None:
    assert snap_compare(TableApp(stream("generic", over=True), "generic"), terminal_size=(80, 24),
                        run_before=settle)


def test_the_match_summary(snap_compare: Any) -> None:
    app = TableApp(stream("cacho", over=True, match_over=True), "cacho")
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)


@pytest.mark.parametrize("size", [(40, 60), (50, 70), (80, 70)])
async def test_a_phone_held_upright_has_the_log_under_the_board(size: tuple[int, int]) -> None:
    """Tall and narrow: the board takes the whole width and most of the height, the log goes under it."""
    app = TableApp(stream("cacho"), "cacho")
    async with app.run_test(size=size) as pilot:
        await shown(pilot)
        board = app.screen.query_one("#board").region
        log = app.screen.query_one("#log").region
        width, height = size
        assert board.width >= width - 2, (board, "the board has the full width")
        assert log.y >= board.bottom, (board, log, "the log is under the board")
        assert log.width >= width - 3, (log, "the log has the full width")
        assert board.height >= height // 3, (board, "the board has a good share of the height")


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (80, 40), (100, 50)])
async def test_a_wide_or_short_screen_keeps_the_log_beside_the_board(size: tuple[int, int]) -> None:
    app = TableApp(stream("cacho"), "cacho")
    async with app.run_test(size=size) as pilot:
        await shown(pilot)
        board = app.screen.query_one("#board").region
        log = app.screen.query_one("#log").region
        assert log.x >= board.right and log.y < board.bottom, (board, log)


async def test_a_summary_said_again_in_the_same_words_is_not_put_on_screen_again() -> None:
    """While a hand's summary is open every message shows it again (the log goes on under it): the
    same account in the same words costs no layout and no repaint; other words replace it. A hand's
    summary that fits is drawn in the board's place; one with buttons (a match's end) in its panel."""
    from rich.console import Group
    from rich.text import Text
    from textual.widgets import Static

    from cardtui.client.screens.table import TableScreen

    app = TableApp(stream("cacho", over=True), "cacho")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.summary_open
        board = screen.board
        assert board.account is not None and board.display, "a hand's summary stands in the board's place"
        body = screen.query_one("#summary-body", Static)

        def on_screen() -> str:
            return "\n".join(strip.text for strip in drawn_lines(screen))

        updates: list[object] = []
        update, repaint = body.update, board.repaint_at_paint

        def counted(*args: object, **kwargs: object) -> None:
            updates.append(args)
            update(*args, **kwargs)  # type: ignore[arg-type]

        def repainted() -> None:
            updates.append("board")
            repaint()

        body.update = counted  # type: ignore[method-assign]
        board.repaint_at_paint = repainted  # type: ignore[method-assign]
        told = screen.summary_text
        for panel in (False, True):
            if panel:  # a match's end: its summary has buttons, and a panel
                screen.ended = (True, True)
                screen._show_summary()
                # its foot is written at the screen's next tick: until then the panel is not as it stays
                await until(pilot, lambda: not board.display and FOOT in on_screen(), "the summary in its panel")
                await settled(pilot)
                assert board.account is None and not board.display
                updates.clear()
            shown_now = on_screen()
            for _ in range(3):
                screen._show_summary()
                await pilot.pause()
            assert updates == [] and on_screen() == shown_now
            more = f"and one line more ({'panel' if panel else 'board'})"
            screen.summary_text = lambda more=more: Group(told(), Text(more))  # type: ignore[method-assign]
            screen._show_summary()
            await until(pilot, lambda more=more: more in on_screen(), "the summary's new words on screen")  # type: ignore[misc]
            assert len(updates) == 1, updates


async def test_a_summary_is_drawn_once_for_each_account_and_width() -> None:
    """The summary's panel draws its account once for its words at a width: not again to measure it, nor
    when the panel is repainted or laid out again; a new width or new words draw it anew."""
    from rich.console import Group
    from rich.text import Text
    from textual.visual import Visual

    from cardtui.client.table_summary import Account

    app = TableApp(stream("cacho", over=True), "cacho")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.summary_open
        screen.ended = (True, True)  # a match's end: the summary in its panel
        screen._show_summary()
        body = screen.query_one("#summary-body", Account)
        draws: list[int] = []
        original = Visual.to_strips.__func__  # type: ignore[attr-defined]

        def counted(cls: type[Visual], widget: object, *args: Any, **kwargs: Any) -> Any:
            if widget is body:
                draws.append(args[1])
            return original(cls, widget, *args, **kwargs)

        Visual.to_strips = classmethod(counted)  # type: ignore[method-assign, assignment]
        try:
            def on_screen() -> str:
                return "\n".join(strip.text for strip in drawn_lines(screen))

            # the panel laid out and painted, its foot written at the screen's next tick
            await until(pilot, lambda: RESULT in on_screen() and FOOT in on_screen(), "the summary in its panel")
            await settled(pilot)
            draws.clear()
            shown_now = on_screen()
            for _ in range(3):
                screen.refresh(layout=True)
                body.refresh()
                await pilot.pause()
            assert draws == [] and on_screen() == shown_now
            await pilot.resize_terminal(120, 40)
            await until(pilot, lambda: screen.size.width == 120, "the screen at its new width")
            await settled(pilot)
            assert len(draws) == 1 and RESULT in on_screen()
            told = screen.summary_text
            screen.summary_text = lambda: Group(told(), Text("and one line more"))  # type: ignore[method-assign]
            screen._show_summary()
            await until(pilot, lambda: "and one line more" in on_screen(), "the summary's new words on screen")
            await settled(pilot)
            assert len(draws) == 2
        finally:
            Visual.to_strips = classmethod(original)  # type: ignore[method-assign, assignment]


AWAY_MARK = {"cacho": "[away: bot", "truco_paulista": "away: bot", "truco_argentino": "away: bot", "pifpaf": "away",
             "cacheta": "away"}
"""How each board marks the seat of a person who left, a bot playing for them (in English)."""


@pytest.mark.parametrize(("game", "seats"), [("cacho", 4), ("truco_paulista", 4), ("truco_argentino", 2),
                                             ("truco_argentino", 6), ("pifpaf", 4), ("cacheta", 8)])
async def test_at_80x24_every_seat_is_named_whole_with_its_bot_mark(server: Any, game: str, seats: int) -> None:
    """A real server's table at 80x24, its bots as the server names them ("bot 3"), a person who left (a bot
    plays for fay) and a player with a long name: each seat's name shows whole on the board, and fay's seat
    says a bot plays it: nothing is cut where the row has room."""
    from cardtui.client.app import CardApp
    from cardtui.v1 import lobby_pb2
    from tests.client.waiting import in_lobby
    from tests.conftest import Player, create

    table_id = await create(server, game=game, seats=seats, bots=seats - 2, bot_delay_ms=60_000)
    fay = await Player(f"127.0.0.1:{server.port}").join(table_id, "fay")
    app = CardApp(f"127.0.0.1:{server.port}", "mariaeduarda")
    async with app.run_test(size=(80, 24)) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.in_match(), "the match")
        await fay.lobby.Leave(lobby_pb2.LeaveRequest(token=fay.token))
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await until(pilot, lambda: any(s.away for s in screen.model.view.seats), "a bot playing for fay")  # type: ignore[union-attr]
        await settled(pilot)
        box = screen.board.region
        board = [line.text[box.x:box.right] for line in drawn_lines(screen)[box.y:box.bottom]]
        text = "\n".join(board)
        names = [s.name for s in screen.model.view.seats]  # type: ignore[union-attr]
        assert set(names) >= {"fay", "mariaeduarda"} and (seats == 2 or any(n.startswith("bot ") for n in names))
        for name in names:
            assert any(re.search(rf"(^|\s){re.escape(name)}(\s|$)", line) for line in board), f"{name}:\n{text}"
        fays = [line for line in board if re.search(r"(^|\s)fay(\s|$)", line)]
        assert any(AWAY_MARK[game] in line for line in fays), f"the bot playing for fay:\n{text}"


@pytest.mark.parametrize("order", ["view first", "screen first"])
async def test_a_new_view_reaches_the_screen_when_the_whole_screen_is_painted_with_it(order: str) -> None:
    """The board asks for a paint of the lines a new view changes; the screen, asked at the same moment
    to paint itself whole (a tap's pointer moving over it, a notice), took each widget's lines as it
    held them and forgot which had asked: a player who let a claim window go by a tap saw the window
    still open, and no turn, until the board's next change (the window's whole time). The new view
    is on screen once the app has painted, whichever is asked first."""
    app = TableApp(stream("cacho"), "cacho")
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.model.view is not None

        def on_screen() -> str:
            return "\n".join(strip.text for strip in drawn_lines(screen))

        assert "Pot 8" in on_screen()
        for pot in (31, 47, 59):
            view = table_pb2.View()
            view.CopyFrom(screen.model.view)
            view.cacho.pot = pot
            if order == "screen first":
                screen.refresh()
            screen.board.model = screen.model.with_view(view, screen.model.seq)
            if order == "view first":
                screen.refresh()
            await settled(pilot)
            assert f"Pot {pot}" in on_screen(), on_screen()
