"""The replay screen: a finished hand stepped through both ways at 80x24, from the lobby's history,
from ``cardtui replay FILE``, and from a spectator's table screen (the delayed full view)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, RichLog, Static

from cardtui import i18n
from cardtui.cli import main, parser
from cardtui.client.app import CardApp
from cardtui.client.screens.replay import HandsScreen, ReplayApp, ReplayScreen, TablesScreen
from cardtui.client.screens.table import TableScreen
from cardtui.i18n import speaking
from cardtui.replay import RecordHands, app
from cardtui.server.app import Running
from cardtui.v1 import common_pb2
from tests.client.footer_check import cut_off, footer_items
from tests.client.waiting import at_table, exited, in_lobby, loaded, settled, until
from tests.conftest import create
from tests.engine.test_replays import RIGGED
from tests.server.test_replays import store_finished

SMALL = (80, 24)
LARGE = (120, 40)


def log_text(screen: ReplayScreen) -> str:
    return "\n".join(line.text for line in screen.query_one("#replay-log", RichLog).lines)


def status(screen: ReplayScreen) -> str:
    return str(screen.query_one("#replay-line", Static).render())


async def on(pilot: Pilot[None], kind: type[object]) -> None:
    """Until the screen on top is a ``kind`` and has what it asked for, drawn."""
    await until(pilot, lambda: isinstance(pilot.app.screen, kind), f"the {kind.__name__}")
    await loaded(pilot)


async def step_both_ways(pilot: Pilot[None], screen: ReplayScreen) -> None:
    """→ to the result, ← back to the deal, End and Home: the board and the log follow every step."""
    n = len(screen.steps)
    assert screen.at == 0 and "the deal" in status(screen)
    dealt = log_text(screen)
    assert dealt and "is dealt" in dealt
    lines = [screen.logged]
    for k in range(1, n):
        await pilot.press("right")
        assert screen.at == k and f"step {k + 1} of {n}" in status(screen)
        assert screen.board.model is not None and screen.board.model.view == screen.steps[k].view
        lines.append(screen.logged)
    assert screen.board.model is not None and screen.board.model.view is not None
    assert screen.board.model.view.hand_over, "forwards to the result"
    await pilot.press("right")  # past the end: stays
    assert screen.at == n - 1
    assert lines == sorted(lines) and lines[-1] > lines[0]
    for k in reversed(range(n - 1)):
        await pilot.press("left")
        assert screen.at == k
        assert screen.logged == lines[k], "stepping back takes lines away"
    assert log_text(screen) == dealt and not screen.board.model.view.hand_over, "back to the deal"
    await pilot.press("end")
    assert screen.at == n - 1
    await pilot.press("home")
    assert screen.at == 0


@pytest.mark.parametrize("game", list(RIGGED))
async def test_the_lobby_history_opens_a_rigged_hand_and_steps_both_ways(server: Running, game: str) -> None:
    record, _, actors = RIGGED[game]()
    store_finished(server, f"rig-{game}", record)
    server.room.finished[f"rig-{game}"] = common_pb2.TableSummary(  # as the lobby lists a finished table
        id=f"rig-{game}", game=game, name="rigged", status=common_pb2.TABLE_STATUS_FINISHED)
    client = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with client.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await pilot.press("h")
        await on(pilot, TablesScreen)
        assert isinstance(client.screen, TablesScreen)
        assert [t.id for t in client.screen.tables] == [f"rig-{game}"]
        await pilot.press("enter")
        await on(pilot, HandsScreen)
        assert client.screen.query_one("#hands", DataTable).row_count == 1
        await pilot.press("enter")
        await on(pilot, ReplayScreen)
        screen = client.screen
        assert isinstance(screen, ReplayScreen)
        assert len(screen.steps) == len(actors)
        await step_both_ways(pilot, screen)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(client.screen, HandsScreen), "back to the hands")


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_a_replays_keys_fit_at_80_columns_in_every_language(server: Running, lang: str) -> None:
    """Stepping, the deal and the end, and the other hands: each pair is one footer item."""
    record = RIGGED["cacho"]()[0]
    store_finished(server, "rig-two", record)
    server.store.hands.add_hand("rig-two", dict(record, table="rig-two", hand=2, match=1))
    server.room.finished["rig-two"] = common_pb2.TableSummary(
        id="rig-two", game="cacho", name="rigged", status=common_pb2.TABLE_STATUS_FINISHED)
    with speaking(lang):
        client = CardApp(f"127.0.0.1:{server.port}", "ana")
        async with client.run_test(size=SMALL) as pilot:
            await in_lobby(pilot)
            for key, screen in (("h", TablesScreen), ("enter", HandsScreen), ("enter", ReplayScreen)):
                await pilot.press(key)
                await on(pilot, screen)
            shown = {words for _, _, words in footer_items(client.screen)}
            # Quit gives way to the hand's analysis at 80 columns (ctrl+q still quits), and the analysis's
            # key to the rest in longer languages (a still opens it).
            assert {i18n._(w) for w in ("Close", "Step", "Deal/end", "Hand", "Language")} <= shown, shown
            assert lang != "en" or i18n._("Analysis") in shown
            assert cut_off(client.screen, SMALL[0]) == []


async def test_cardtui_replay_opens_a_sim_history_file(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    assert main(["sim", "--game", "truco_argentino", "--players", "2", "--hands", "3", "--seed", "4",
                 "--history", str(path)]) == 0
    replay = app(parser().parse_args(["replay", str(path)]))
    async with replay.run_test(size=SMALL) as pilot:
        await on(pilot, HandsScreen)
        assert replay.screen.query_one("#hands", DataTable).row_count == 3
        await pilot.press("up", "enter")
        await on(pilot, ReplayScreen)
        screen = replay.screen
        assert isinstance(screen, ReplayScreen) and screen.hand.hand == 2
        await step_both_ways(pilot, screen)
        await pilot.press("pagedown")
        await until(pilot, lambda: screen.hand.hand == 3, "the next hand")
        await loaded(pilot)
        assert screen.hand.hand == 3 and screen.at == 0
        await pilot.press("pagedown")  # there is none after it: a notice, nothing changes
        await settled(pilot)
        assert screen.hand.hand == 3
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(replay.screen, HandsScreen), "back to the hands")


def test_cardtui_replay_says_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay"]) == 2
    assert "Give a file of hand histories" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "none.jsonl")]) == 2
    assert "There is no file" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "cardtui-hand/1"}\n')
    assert main(["replay", str(bad)]) == 2
    assert "line 1, is not a hand history" in capsys.readouterr().err
    assert main(["replay", "--table", "x", "--db", str(tmp_path / "none.db")]) == 2
    assert "There is no store" in capsys.readouterr().err


async def test_one_hand_opens_at_once_and_escape_quits(tmp_path: Path) -> None:
    record, _, _ = RIGGED["cacho"]()
    replay = ReplayApp(lambda: RecordHands([record], "rigged"))
    async with replay.run_test(size=SMALL) as pilot:
        await on(pilot, ReplayScreen)
        assert not replay.screen.check_action("hand", (1,)), "no other hand to go to"
        await pilot.press("escape")
        await exited(replay)
    assert replay.return_code == 0


async def test_a_spectator_opens_the_last_finished_hand_never_the_one_in_play(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=3, bots=3, bot_delay_ms=20, delayed_spectator_view=True)
    plain = await create(server, game="cacho", seats=3, bots=3, bot_delay_ms=60_000)
    client = CardApp(f"127.0.0.1:{server.port}", "eve", spectate=plain)
    async with client.run_test(size=SMALL) as pilot:
        await at_table(pilot)
        assert isinstance(client.screen, TableScreen)
        assert not client.screen.check_action("last_hand", ()), "this table keeps its hands while it plays"
        await pilot.press("escape")
        await in_lobby(pilot)
        await client.open_table(table_id, spectate=True)
        table = await at_table(pilot)
        assert table.check_action("last_hand", ())
        await until(pilot, lambda: server.store.hands.count_hands(table_id) >= 1, "a hand finished")
        await pilot.press("v")
        await on(pilot, ReplayScreen)
        screen = client.screen
        assert isinstance(screen, ReplayScreen)
        in_play = server.room.tables[table_id].in_play
        assert screen.hand.hand != in_play and server.store.hands.hand(table_id, screen.hand.hand) is not None
        assert screen.hand.hand == max(h.hand for h in screen.hand_list)
        await pilot.press("end")
        assert screen.board.model is not None and screen.board.model.view is not None
        assert screen.board.model.view.hand_over
        await pilot.press("escape")
        await until(pilot, lambda: client.screen is table, "back at the table")


class RiggedReplay(ReplayApp):
    def __init__(self, game: str, at: str) -> None:
        record, _, _ = RIGGED[game]()
        super().__init__(lambda: RecordHands([record], "rigged"))
        self.at = at


async def _to(pilot: Pilot[None]) -> None:
    await on(pilot, ReplayScreen)
    assert isinstance(pilot.app, RiggedReplay)
    await pilot.press(pilot.app.at)
    await settled(pilot)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
@pytest.mark.parametrize("game", ["cacho", "truco_paulista", "cacheta"])
def test_replay_snapshot(snap_compare, game: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(RiggedReplay(game, "end"), terminal_size=size, run_before=_to)


async def test_cardtui_replay_from_a_server_opens_a_hand_or_says_why_not(server: Running) -> None:
    record, _, actors = RIGGED["truco_paulista"]()
    store_finished(server, "rig", record)
    playing = await create(server, game="cacho", seats=2, bots=2, bot_delay_ms=60_000)
    address = f"127.0.0.1:{server.port}"
    replay = app(parser().parse_args(["replay", "--table", "rig", "--hand", "1", "--server", address]))
    async with replay.run_test(size=SMALL) as pilot:
        await on(pilot, ReplayScreen)
        assert isinstance(replay.screen, ReplayScreen) and len(replay.screen.steps) == len(actors)
        await pilot.press("end")
        assert "step" in status(replay.screen)
    refused = app(parser().parse_args(["replay", "--table", playing, "--server", address]))
    async with refused.run_test(size=SMALL):
        await exited(refused)
    assert refused.return_code == 1
