"""The screens around the boards, at 80x24: passwords, leaving, the way in, summaries, the log.

A real server on 127.0.0.1 and the real app under Pilot, driven by keys.
"""

from __future__ import annotations

import gc
import io
import socket
import time
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Button, Input, Static

from cardtui import cli, heap
from cardtui.cli.flags import table_password
from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.models import action_name
from cardtui.client.screens.connect import ConnectScreen
from cardtui.client.screens.help import HelpScreen
from cardtui.client.screens.leaving import LeaveScreen
from cardtui.client.screens.lobby import CreateTableScreen, LobbyScreen
from cardtui.client.screens.password import PasswordScreen
from cardtui.client.screens.table import FULL_AFTER, TableScreen
from cardtui.client.table_log import TableLog
from cardtui.client.textual_internals import drawn_lines
from cardtui.client.words import fmt
from cardtui.i18n import _, speaking
from cardtui.server.actor.table import Table
from cardtui.server.app import Running, start
from cardtui.v1 import common_pb2, lobby_pb2
from tests.client.footer_check import footer_items
from tests.client.waiting import PATIENCE, exited, in_lobby, settled, until
from tests.conftest import Player, bots_wait, create, next_hand_now
from tests.per_game import declared
from tests.waiting import eventually

SMALL = (80, 24)
BET = common_pb2.ACTION_TYPE_BET


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def log_text(screen: TableScreen) -> str:
    return "\n".join(t.plain for t in screen.query_one("#log", TableLog).said)


def text_of(screen: object, selector: str) -> str:
    """What a Static shows, as plain text (rendered, whatever it holds: text, tables, groups)."""
    widget = screen.query_one(selector, Static)  # type: ignore[attr-defined]
    console = Console(width=max(20, widget.size.width or 80), file=io.StringIO(), record=True)
    console.print(widget.content)
    return console.export_text()


def summary_shown(screen: TableScreen) -> bool:
    """A summary is on screen: drawn in the board's place, or in its own panel."""
    return screen.board.account is not None or bool(screen.query_one("#summary").display)


def summary_of(screen: TableScreen) -> str:
    """The summary on screen as plain text (its account and what comes next), wherever it shows."""
    account = screen.board.account
    if account is None:
        return text_of(screen, "#summary-body") + text_of(screen, "#summary-foot")
    console = Console(width=max(20, screen.board.size.width or 80), file=io.StringIO(), record=True)
    console.print(account)
    return console.export_text()


async def type_text(pilot: Pilot[None], text: str) -> None:
    for ch in text:
        await pilot.press(ch)


# -- passwords ---------------------------------------------------------------------------------
async def test_a_password_table_asks_others_and_never_its_creator(server: Running) -> None:
    address = f"127.0.0.1:{server.port}"
    ana = CardApp(address, "ana")
    async with ana.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(ana.screen, LobbyScreen))
        await pilot.press("n")
        await until(pilot, lambda: isinstance(ana.screen, CreateTableScreen))
        await settled(pilot)  # its fields built for the server's games
        ana.screen.query_one("#password", Input).value = "segredo"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(ana.screen, TableScreen))
        table_id = ana.screen.model.summary.id
        assert ana.screen.model.summary.has_password
        # Back in the lobby and in again: the creator is still not asked.
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(ana.screen, (LobbyScreen, LeaveScreen)))
        if isinstance(ana.screen, LeaveScreen):
            await pilot.press("y")
        await until(pilot, lambda: isinstance(ana.screen, LobbyScreen))
        await ana.open_table(table_id, locked=True)
        await until(pilot, lambda: isinstance(ana.screen, TableScreen))

    bea = CardApp(address, "bea")
    async with bea.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(bea.screen, LobbyScreen) and bool(bea.screen.rows))
        await pilot.press("s")  # watch: asked too
        await until(pilot, lambda: isinstance(bea.screen, PasswordScreen))
        assert "has a password" in str(bea.screen.query_one("#password-title").render())
        await type_text(pilot, "wrong")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(bea.screen, PasswordScreen) and bool(bea.screen.problem))
        assert "password is wrong" in text_of(bea.screen, "#password-error"), "says so, and asks again"
        await type_text(pilot, "segredo")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(bea.screen, TableScreen))
        assert bea.screen.spectating


async def test_connect_password_opens_the_table_without_asking(server: Running, tmp_path: Path) -> None:
    table_id = await create(server, game="cacho", seats=3, bots=3, password="pw")
    app = CardApp(f"127.0.0.1:{server.port}", "eve", spectate=table_id, password="pw")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.screen.spectating
    (tmp_path / "pw").write_text("pw\n")
    args = cli.parser().parse_args(["connect", "host", "--password-file", str(tmp_path / "pw"), "--spectate", table_id])
    assert (table_password(args), args.spectate, args.target) == (("pw", None), table_id, "host")


# -- leaving ----------------------------------------------------------------------------------
async def test_escape_asks_before_leaving_a_hand_and_the_help_escape_does_not_count(
        server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second escape comes within the help's grace however slow the machine (a grace of an
    hour), and the next once it is over (none)."""
    from cardtui.client.screens import table as table_screen

    table_id = await create(server, game="cacho", seats=2, bots=1, bot_delay_ms=60_000, turn_seconds=3600)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await app.open_table(table_id)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.in_match())
        table = app.screen
        # The help closes with escape; pressed twice, the second is not a wish to leave.
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        monkeypatch.setattr(table_screen, "HELP_GRACE", 3600.0)
        await pilot.press("escape", "escape")
        await settled(pilot)
        assert app.screen is table, "still at the table, and nothing asked"
        monkeypatch.setattr(table_screen, "HELP_GRACE", 0.0)  # the grace is over
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LeaveScreen))
        assert "middle of the match" in str(app.screen.query_one("#confirm-title").render())
        await pilot.press("escape")  # stay
        await until(pilot, lambda: app.screen is table)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LeaveScreen))
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        seats = server.room.tables[table_id].summary().seats
        assert seats[0].bot, "a bot plays the seat now"


async def test_a_spectator_leaves_without_being_asked(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=2, bots=2, bot_delay_ms=60_000)
    app = CardApp(f"127.0.0.1:{server.port}", "eve", spectate=table_id)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.model.view is not None)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_a_table_keeps_what_lived_when_it_opened_out_of_the_collector_until_it_is_left(
        server: Running) -> None:
    """A full collection would walk every object the client holds (a paint 50–100 ms late, about one
    in a hundred messages at full pace): at a table, what lived when it opened is frozen, and given
    back to the collector when the table is left (its widgets are garbage then); and the full
    passes come less often there, back to the collector's own pace when it is left."""
    heap.unfreeze()  # the in-process server froze what it held at its start; a client runs apart from it
    before = gc.get_threshold()
    table_id = await create(server, game="cacho", seats=2, bots=2, bot_delay_ms=60_000)
    app = CardApp(f"127.0.0.1:{server.port}", "eve", spectate=table_id)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.model.view is not None)
        await until(pilot, lambda: gc.get_freeze_count() > 0)
        assert gc.get_threshold() == (before[0], before[1], FULL_AFTER), "full passes rarer at the table"
        screen = app.screen
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await until(pilot, lambda: not screen.is_attached)
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == before, "the collector's own pace back once the table is left"

# -- the way in -------------------------------------------------------------------------------
async def test_a_refused_port_shows_the_connection_screen_and_a_retry_reaches_the_lobby(tmp_path: Path) -> None:
    port = free_port()
    app = CardApp(f"127.0.0.1:{port}", "ana")
    running: Running | None = None
    try:
        async with app.run_test(size=SMALL) as pilot:
            # between two tries (a busy machine may be at the second already): the countdown to the next
            await until(pilot, lambda: isinstance(app.screen, ConnectScreen)
                        and "trying again in" in text_of(app.screen, "#connect-status"), "the countdown to a try")
            screen = app.screen
            assert f"127.0.0.1:{port}" in text_of(screen, "#connect-address")
            assert "refused" in text_of(screen, "#connect-reason")
            assert "trying again in" in text_of(screen, "#connect-status")
            running = await start("127.0.0.1", port, tmp_path / "store.db")
            await pilot.press("r")
            await in_lobby(pilot)
            assert "cardtui" in text_of(app.screen, "#server-line")
            await pilot.press("n")  # the server is known: the dialog opens
            await until(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            assert app.screen.query("#create-dialog")
    finally:
        if running is not None:
            await running.stop(grace=0.1)


async def test_a_bad_address_is_told_as_such() -> None:
    app = CardApp("127.0.0.1:notaport", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ConnectScreen))
        assert "not a port" in text_of(app.screen, "#connect-reason")
        assert not app.screen.query("#connect-retry"), "nothing to retry"
        await pilot.press("q")
        await exited(app)
    assert app.return_code is not None


@pytest.mark.parametrize(("target", "words"), [(":notaport", "not a port"), (":99999", "no port 99999"),
                                               ("", "No server address"), ("host:", "no port after")])
def test_the_command_line_tells_a_bad_address(target: str, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["connect", target]) == 2
    assert words in capsys.readouterr().err


# -- summaries ---------------------------------------------------------------------------------
async def test_hand_and_match_summaries_with_a_countdown_and_two_choices(tmp_path: Path) -> None:
    """Two players and three chips each: a match ends within a few hands."""
    # Each pause between hands lasts until the test has read the summary (then it ends it).
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=PATIENCE)
    try:
        table_id = await create(running, game="cacho", seats=2, bots=1, turn_seconds=3600,
                                options={"chips": common_pb2.OptionValue(number=3)})
        app = CardApp(f"127.0.0.1:{running.port}", "ana")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await app.open_table(table_id)
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            screen = app.screen
            assert isinstance(screen, TableScreen)
            table = running.room.tables[table_id]
            bar = screen.query_one(ActionBar)
            hands_summed = 0
            matches = 0
            deadline = time.monotonic() + 4 * PATIENCE
            # Until two match summaries and a hand's have shown: with 3 chips most hands end
            # the match, and only a hand someone passes ends without ending it.
            # Then the next match summary is left by escape.
            left = False
            while not left:
                assert time.monotonic() < deadline, f"{matches} matches summed, {hands_summed} hands"
                await until(pilot, lambda: summary_shown(screen) or (bool(bar.choices) and not bar.disabled),
                            "a summary, or ana's turn")
                await settled(pilot)
                view = screen.model.view
                if screen.query_one("#summary").display and view is not None and view.match_over:
                    assert screen.board.account is None, "a match's summary, with its buttons, has a panel"
                    body = text_of(screen, "#summary-body")
                    assert "The match is over after" in body and "wins the match" in body
                    assert screen.query_one("#summary-buttons").display
                    labels = [str(b.label) for b in screen.query("#summary-buttons Button").results(Button)]
                    assert labels == ["Again, same seats (enter)", "Seats swapped (w)", "Leave (escape)"]
                    assert body.startswith("Again? you: not yet"), "the summary says who stays, first"
                    assert "everyone staying agrees" in " ".join(body.split())
                    keys = {words for _, _, words in footer_items(screen)}
                    assert {"Again", "Swap seats"} <= keys and "Go on" not in keys, keys  # the buttons may scroll
                    matches += 1
                    if matches < 2 or hands_summed < 1:
                        await pilot.press("enter")  # play again: stay for the next match, the same seats
                        game = f"Game {matches + 1} begins: the same seats, as everyone asked."
                        await until(pilot, lambda game=game: game in log_text(screen))
                        assert "ana: again, the same seats." in log_text(screen)
                        await until(pilot, lambda: not summary_shown(screen))
                        assert app.screen is screen
                    else:
                        await pilot.press("escape")  # leave, and nobody asks: the match is over
                        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                        left = True
                    continue
                if summary_shown(screen) and view is not None and view.hand_over:
                    body = summary_of(screen)
                    assert f"Hand {view.hand}:" in body and "wins the pot" in body and "→" in body
                    assert "Next hand in" in body and "enter" in body, body
                    assert screen.board.account is not None, "the summary stands in for the board's drawing"
                    hands_summed += 1
                    await pilot.press("enter")
                    await settled(pilot)
                    assert not summary_shown(screen)
                    next_hand_now(table)
                    await until(pilot, lambda: screen.model.view is not None and not screen.model.view.hand_over,
                                "the next hand dealt")
                    continue
                if bar.choices and not bar.disabled:
                    kinds = [action_name(g[0]) for g in bar.choices]
                    if "bet" in kinds or "raise" in kinds:
                        bar.adjust(1000)  # all in: the match ends sooner
                    key = next((bar.keys[i] for i, k in enumerate(kinds) if k in ("raise", "bet", "call", "check")),
                               bar.keys[0])
                    seq = screen.model.seq
                    await pilot.press(key)
                    await until(pilot, lambda seq=seq: screen.model.seq != seq, "the table to take ana's move")
            assert matches >= 2 and hands_summed >= 1, f"{matches} matches summed, {hands_summed} hands"
            assert isinstance(app.screen, LobbyScreen)
    finally:
        await running.stop(grace=0.1)


# -- the log -----------------------------------------------------------------------------------
async def test_who_comes_mid_hand_reads_the_hand_so_far(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=2, bots=1, bot_delay_ms=60_000, turn_seconds=3600)
    ana = await Player(f"127.0.0.1:{server.port}").join(table_id, "ana")
    ana.subscribe()
    await ana.wait_for(lambda q: q.last_view is not None and bool(q.last_view.legal))
    await ana.act(next(a for a in ana.last_view.legal if a.type == BET))  # type: ignore[union-attr]
    await ana.lobby.Leave(lobby_pb2.LeaveRequest(token=ana.token))
    await ana.close()
    app = CardApp(f"127.0.0.1:{server.port}", "bea")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await app.open_table(table_id)  # bea takes the seat the bot keeps for ana
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and "sits down" in log_text(app.screen))
        text = log_text(app.screen)
        assert "Hand 1:" in text and "deals" in text
        assert "ana bets 1." in text, "named as who did it then, not who sits there now"
        assert "You receive" not in text, "the seat's cards were ana's, before bea came"


def mid_hand(table: Table, first: object) -> bool:
    """A later hand of the match ``first``, in which the bot has played."""
    match = table.match
    return (match is first and match is not None and table.hands_played >= 1 and match.logged() >= 2
            and not match.hand_over())


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_a_seat_that_changed_hands_is_told_as_it_was_then(server: Running, lang: str) -> None:
    """ana leaves a truco match; a bot plays her seat into the next hand; dan sits there mid-hand.
    dan's log names every earlier line of that seat as it was then (ana's seat played by a bot),
    never dan, whose sitting down comes last; the hand's history says the same."""
    for _try in range(3):  # a falta envido may end the match in its first hand: then at a new table
        table_id = await create(server, game="truco_argentino", seats=2, bots=1, bot_delay_ms=150, turn_seconds=3600)
        ana = await Player(f"127.0.0.1:{server.port}").join(table_id, "ana")
        ana.subscribe()
        await ana.wait_for(lambda q: q.last_view is not None and q.last_view.hand >= 1)
        table = server.room.tables[table_id]
        first = table.match
        await ana.lobby.Leave(lobby_pb2.LeaveRequest(token=ana.token))
        await ana.close()
        await eventually(lambda table=table, first=first: mid_hand(table, first) or table.match is not first,
                         "the bots playing on")
        bots_wait(table)  # the bots wait while dan sits down (a move on its way too)
        if mid_hand(table, first):
            break
    assert mid_hand(table, first), "ana's match ended in its first hand three times"
    with speaking(lang):
        played_for_ana = _("{name} (bot)").format(name="ana")
        app = CardApp(f"127.0.0.1:{server.port}", "dan")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await app.open_table(table_id)  # dan takes the seat the bot plays for ana
            sits = fmt(_("{name} sits down at seat {seat}."), name="dan", seat=1).plain
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and sits in log_text(app.screen))
            lines = log_text(app.screen).splitlines()
        joined = next(i for i, said in enumerate(lines) if sits in said)
        before = "\n".join(lines[:joined])
        assert "dan" not in before, f"nothing before dan sat is dan's:\n{before}"
        assert played_for_ana in before, f"the seat was ana's, a bot playing for her:\n{before}"


# -- the log's width ---------------------------------------------------------------------------
async def test_the_log_wraps_at_its_width_and_rewraps_on_resize(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=4, bots=4, bot_delay_ms=20)
    app = CardApp(f"127.0.0.1:{server.port}", "eve", spectate=table_id)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.log_lines > 30)
        bots_wait(server.room.tables[table_id])  # the table stands still: the screen settles after each resize
        log = app.screen.query_one("#log")
        for size in ((80, 24), (120, 40)):
            await pilot.resize_terminal(*size)
            await until(pilot, lambda size=size: app.screen.size == size, f"the screen at {size}")
            await settled(pilot)
            width = log.scrollable_content_region.width
            widths = [line.cell_length for line in log.lines]  # type: ignore[attr-defined]
            assert widths and max(widths) <= width, f"a line wider than the log at {size}"
            assert log.max_scroll_x == 0, "nothing to scroll sideways: no line is clipped"



# -- the create dialog -------------------------------------------------------------------------
async def create_form(pilot: Pilot[None], app: CardApp) -> CreateTableScreen:
    """The new-table dialog, opened from the lobby with n (its fields built for the server's games)."""
    await in_lobby(pilot)
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, CreateTableScreen))
    await settled(pilot)
    assert isinstance(app.screen, CreateTableScreen)
    return app.screen


def typed(app: CardApp, *keys: str) -> None:
    """Keys as a terminal reads a quick typist's: all at once, none waiting for the one before it to be handled
    (``pilot.press`` waits for each, and so hides what a key read too early does)."""
    from textual import events

    for key in keys:
        event = events.Key(key, "\t" if key == "tab" else key)
        event.set_sender(app)  # as the terminal's driver sends it
        app.post_message(event)


async def test_keys_typed_as_the_create_form_opens_land_in_its_fields(
    server: Running, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A player presses n and types at once: Tab, a name. The keys read while the form builds its fields wait
    for them, the first field has the focus (not the box that scrolls them), and Tab moves on as it is read."""
    import asyncio

    from textual.widgets import Select

    building = asyncio.Event()
    build = CreateTableScreen._build_options

    async def slow_build(self: CreateTableScreen) -> None:  # a busy machine: the fields come late
        await building.wait()
        await build(self)

    monkeypatch.setattr(CreateTableScreen, "_build_options", slow_build)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        typed(app, "n")
        await until(pilot, lambda: isinstance(app.screen, CreateTableScreen) and bool(app.screen.query("#name")))
        dialog = app.screen
        try:
            assert isinstance(dialog, CreateTableScreen) and not dialog.built
            typed(app, "tab", *"noite")  # while the form is still building
        finally:
            building.set()
        await settled(pilot)
        assert dialog.query_one("#name", Input).value == "noite"
        assert app.focused is dialog.query_one("#name", Input)
        # Tabs and letters read in one go: each Tab has moved the focus before the next key goes anywhere.
        chain = dialog.focus_chain
        password = dialog.query_one("#password", Input)
        typed(app, *["tab"] * (chain.index(password) - chain.index(app.focused)), *"segredo")
        await settled(pilot)
        assert password.value == "segredo" and app.focused is password
        assert dialog.query_one("#game", Select).value == dialog.game.name, "no key went to the game's list"


async def test_the_create_form_is_built_from_the_options_and_says_what_is_wrong_beside_the_field(
    server: Running,
) -> None:
    import grpc
    from textual.widgets import Checkbox, Select

    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        dialog.query_one("#game", Select).value = "truco_argentino"
        await until(pilot, lambda: bool(dialog.query("#opt-ties")))
        await settled(pilot)  # the game's change handled whole
        assert isinstance(dialog.query_one("#opt-flor"), Checkbox), "yes or no: a toggle"
        sealed = dialog.query_one("#opt-sealed", Checkbox)
        assert str(sealed.label) == _("yes"), "a toggle's label is one line, cut where it runs past: its help is above"
        sealed.scroll_visible(animate=False)
        await settled(pilot)
        drawn = " ".join(line.text for line in drawn_lines(app.screen))
        assert "the host included" in drawn and "seats)." in drawn, "the sealed option's help drawn whole at 80x24"
        assert isinstance(dialog.query_one("#opt-ties"), Select), "one of several: a choice"
        mazo = dialog.query_one("#opt-mazo_first", Input)
        assert mazo.value == "1"
        helps = " ".join(str(h.render()) for h in dialog.query(".opt-help").results(Static))
        assert "(1 to 2; default 1)" in helps, "a number says its range and default"
        # A number that takes only some values in its range offers just those.
        target = dialog.query_one("#opt-target", Select)
        await until(pilot, lambda: target.value == 30)
        assert [v for _, v in target._options] == [15, 30]  # type: ignore[attr-defined]
        target.value = 15
        request = dialog.request()
        assert request is not None and request.options["target"].number == 15
        # Bots fill at most all seats but one: the creator's.
        seats = dialog.query_one("#seats", Select)
        assert seats.value == 2, "truco argentino starts as it is mostly played, one against one"
        seats.value = 6
        bots_select = dialog.query_one("#bots", Select)
        await settled(pilot)
        assert max(v for _, v in bots_select._options if isinstance(v, int)) == 5  # type: ignore[attr-defined]
        # Out of range: said beside the field, the dialog stays and keeps what was typed.
        dialog.query_one("#name", Input).value = "noite"
        mazo.value = "9"
        await pilot.press("ctrl+s")
        await settled(pilot)
        assert app.screen is dialog
        beside = dialog.query_one("#err-opt-mazo_first", Static)
        said = str(beside.render())
        assert beside.display and "the first trick is a whole number from 1 to 2" in said
        dialog.query_one("#turn", Input).value = "0"
        mazo.value = "2"
        await pilot.press("ctrl+s")
        await settled(pilot)
        assert not beside.display
        assert "5 to 3600" in str(dialog.query_one("#err-turn", Static).render()), "timer 0 is refused, not 30 s"
        # A refusal from the server about one option lands beside it too.
        dialog.query_one("#turn", Input).value = "30"

        async def refuse(request: object) -> object:
            raise grpc.aio.AioRpcError(grpc.StatusCode.INVALID_ARGUMENT, grpc.aio.Metadata(), grpc.aio.Metadata(),
                                       "The option mazo_first must be from 1 to 2.")

        assert app.conn is not None
        app.conn.create = refuse  # type: ignore[method-assign]
        await pilot.press("ctrl+s")
        await settled(pilot)
        assert app.screen is dialog and dialog.query_one("#name", Input).value == "noite"
        assert "must be from 1 to 2" in str(dialog.query_one("#err-opt-mazo_first", Static).render())


USUAL = {game: tests.usual for game, tests in declared().items()}
"""How many usually play each game: where a new table's form starts (``GameTests.usual``, in each game's tests)."""


async def test_a_new_table_starts_with_as_many_players_as_usually_play_its_game(server: Running) -> None:
    """Not the most the game allows (truco argentino 6, Cacheta 8 with 7 bots): the usual table, bots in the
    seats but the creator's; the server offers that count, and creating the form as it starts makes that table."""
    from textual.widgets import Select

    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        assert {g.name: g.usual_players for g in dialog.info.games} == USUAL
        seats, bots = dialog.query_one("#seats", Select), dialog.query_one("#bots", Select)
        for game, players in USUAL.items():
            dialog.query_one("#game", Select).value = game
            await until(pilot, lambda game=game, players=players: dialog.game.name == game  # type: ignore[misc]
                        and (seats.value, bots.value) == (players, players - 1),
                        lambda game=game: f"{game}: {seats.value} players, {bots.value} bots")  # type: ignore[misc]
            await settled(pilot)
            assert len(dialog.levels()) == players - 1
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, CreateTableScreen))
        assert app.conn is not None
        [table] = await app.conn.tables()
        last = list(USUAL)[-1]  # the game picked last
        assert table.game == last and len(table.seats) == USUAL[last]
        assert sum(s.bot for s in table.seats) == USUAL[last] - 1


async def test_each_bot_seat_gets_its_own_level(server: Running) -> None:
    """One choice per bot seat, named as the table names the bot; fewer bots keep the levels of those left."""
    from textual.widgets import Select

    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        dialog.query_one("#game", Select).value = "cacho"
        await until(pilot, lambda: len(dialog.levels()) == 3)  # four seats, three bots: seats 2 to 4
        await settled(pilot)  # the game's change handled whole: its levels are not built again after
        assert dialog.levels() == ["normal"] * 3
        assert dialog.query_one("#level-3", Select).selection == "normal"
        dialog.query_one("#level-3", Select).value = "hard"
        dialog.query_one("#level-1", Select).value = "easy"
        dialog.query_one("#bots", Select).value = 2
        await until(pilot, lambda: len(dialog.levels()) == 2 and "Select.NULL" not in dialog.levels())  # mounted, set
        await settled(pilot)
        assert dialog.levels() == ["normal", "hard"], "bots 3 and 4 stay; bot 4 keeps hard"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, CreateTableScreen))
        assert app.conn is not None
        [table] = await app.conn.tables()
        assert [(s.seat, s.bot_level) for s in table.seats if s.bot] == [(2, "normal"), (3, "hard")]


async def test_a_new_game_never_shows_more_bot_levels_than_its_seats_take(server: Running) -> None:
    """From the form's first game (four seats, three bots) to the game with the most seats fewer (three, with the
    games there are today): every time the levels are built they are one per bot of the seats then chosen, never
    the old game's three bots at three seats (three levels for two bots, until the bots were changed by hand)."""
    from textual.widgets import Select

    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        seats, bots = dialog.query_one("#seats", Select), dialog.query_one("#bots", Select)
        start = dialog.game.name
        assert (seats.value, bots.value) == (USUAL[start], USUAL[start] - 1)
        fewer = max((g for g in USUAL if USUAL[g] < USUAL[start]), key=lambda g: USUAL[g])
        built: list[tuple[object, object, int]] = []
        build = dialog._build_levels

        async def watched() -> None:
            await build()
            built.append((seats.value, bots.value, len(dialog.levels())))

        dialog._build_levels = watched  # type: ignore[method-assign]
        dialog.query_one("#game", Select).value = fewer
        await until(pilot, lambda: dialog.game.name == fewer and len(dialog.levels()) == USUAL[fewer] - 1)
        await settled(pilot)
        assert built and all(isinstance(s, int) and isinstance(b, int) and b < s and n == b for s, b, n in built), built
        assert (seats.value, bots.value, dialog.levels()) == (USUAL[fewer], USUAL[fewer] - 1,
                                                              ["normal"] * (USUAL[fewer] - 1))


async def test_a_slow_rebuild_holds_back_neither_the_footer_nor_the_form(server: Running) -> None:
    """A game picked from the form's list builds its options and levels beside the screen: while that build is held
    (a slow host holds it seconds), the footer already stops offering the closed list's "Dismiss menu" (a key that,
    tapped then, went to the form and cancelled it), and Create waits for the new game's fields, then makes its
    table. Built in the change's handler, the footer kept the stale key for as long as the build took."""
    import asyncio

    from textual.widgets import Select

    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        first = dialog.game.name
        held = asyncio.Event()
        build = dialog._build_options_now

        async def slow() -> None:
            await held.wait()
            await build()

        dialog._build_options_now = slow  # type: ignore[method-assign]

        def keys() -> list[str]:
            return [words for _, _, words in footer_items(app.screen)]

        assert app.screen.focused is dialog.query_one("#game", Select)
        await pilot.press("enter")
        await until(pilot, lambda: "Dismiss menu" in keys(), lambda: f"the list's key, with {keys()}")
        await pilot.press("down", "enter")  # the next game, picked: its build starts and is held
        await until(pilot, lambda: dialog.game.name != first and dialog.rebuilding and "Dismiss menu" not in keys(),
                    lambda: f"{dialog.game.name}, rebuilding {dialog.rebuilding}: the footer says {keys()}")
        assert isinstance(app.screen, CreateTableScreen)
        typed(app, "ctrl+s")
        await until(pilot, lambda: not held.is_set() and dialog.rebuilding)  # Create waits, the build held
        assert isinstance(app.screen, CreateTableScreen), "nothing made from the last game's fields"
        held.set()
        # the table made and opened: the app's join done before the test leaves (a join sent after the app's
        # channel closed fails the app)
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table made and opened")
        assert app.conn is not None
        [table] = await app.conn.tables()
        assert table.game == dialog.game.name != first


async def tap_key_words(pilot: Pilot[CardApp], words: str) -> None:
    """In the help: the keys table's words ``words`` (a cell of its last column), scrolled to and clicked."""
    await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
    await settled(pilot)
    cell = next(c for c in pilot.app.screen.query("Markdown Static").results(Static) if words in str(c.content))
    cell.scroll_visible(animate=False, immediate=True)
    await settled(pilot)
    assert await pilot.click(cell, offset=(2, 0)), f"{words!r} not clicked"


async def test_the_keys_the_footer_leaves_out_are_tapped_in_the_help(server: Running) -> None:
    """A phone has no key for what the footer leaves out for room: in the help, the words of each of the
    screen's own keys run it when tapped (the lobby's invite and code, the table's players); the words of
    another screen's keys, or a game's, are plain."""
    from cardtui.client.screens.invite import CodeScreen, InviteScreen
    from cardtui.client.screens.players import SeatsScreen

    table_id = await create(server, game="cacho", seats=2, bots=1, bot_delay_ms=60_000, turn_seconds=3600)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        lobby = await in_lobby(pilot)
        for words, opens in (("open a friend's invite", CodeScreen), ("an invite: to the table", InviteScreen)):
            await pilot.press("question_mark")
            help_text = str(app.screen.query_one("Markdown").source)  # type: ignore[attr-defined]
            assert "](key:code)" in help_text and "](key:invite)" in help_text and "](key:players)" not in help_text
            await tap_key_words(pilot, words)
            await until(pilot, lambda opens=opens: isinstance(app.screen, opens), f"{opens.__name__} opened")  # type: ignore[misc]
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is lobby)
        await app.open_table(table_id)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.in_match())
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_text = str(app.screen.query_one("Markdown").source)  # type: ignore[attr-defined]
        assert "](key:players)" in help_text and "](key:code)" not in help_text and "key:game" not in help_text
        await tap_key_words(pilot, "the players at the table")
        await until(pilot, lambda: isinstance(app.screen, SeatsScreen), "the players opened by a tap")


@pytest.mark.parametrize("turns", [0, 1, 2])
async def test_the_create_form_cancelled_as_it_builds_a_new_game_closes_and_opens_again(server: Running,
                                                                                       turns: int) -> None:
    """A game picked and the form cancelled at once (a finger on Cancel as the form lays itself out again, as on a
    busy host): the levels and options still being built are not mounted into the closing form (a list mounted
    there read its own parts gone, and the app ended); the lobby is back and the form opens again."""
    from textual.widgets import Select

    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        dialog.query_one("#game", Select).value = "pifpaf"
        for _turn in range(turns):
            await pilot.pause(0)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is not dialog)
        await settled(pilot)
        again = await create_form(pilot, app)
        assert again is not dialog and again.game.name == again.query_one("#game", Select).value
        assert app.is_running
