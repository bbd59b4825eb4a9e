"""A hand's analysis on screen at 80x24 in every language: from the replay viewer (`a`), each step's
verdict on the replay's line after it; and the line a hand's summary says of a player's play, there at
once where the server analyses the hand without being asked, or once the player presses `a`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from cardtui import i18n
from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.boards.base import Board
from cardtui.client.boards.truco import TrucoBoard
from cardtui.client.cards import card_text
from cardtui.client.match_chart import MatchChart
from cardtui.client.models import TableModel, action_name
from cardtui.client.screens.analysis import (
    AnalysisScreen,
    DrillScreen,
    analysis_text,
    drill_text,
    match_text,
    moment_text,
    play_line,
)
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.client.screens.replay import HandsScreen, ReplayScreen, TablesScreen
from cardtui.client.screens.table import TableScreen
from cardtui.client.textual_internals import drawn_lines
from cardtui.client.turn_bell import my_turn
from cardtui.engine import analysis
from cardtui.i18n import speaking
from cardtui.server.app import Running, start
from cardtui.server.base import wire
from cardtui.server.hands.analysis import views_at
from cardtui.v1 import analysis_pb2, common_pb2, table_pb2
from tests.client.footer_check import cut_off, footer_items
from tests.client.test_replay import on, status
from tests.client.test_table_flow import log_text, summary_of, summary_shown, text_of
from tests.client.test_truco import drawn
from tests.client.waiting import PATIENCE, in_lobby, settled, until
from tests.conftest import create, next_hand_now
from tests.server.test_analysis import played
from tests.server.test_replays import store_finished

SMALL = (80, 24)
WORDS = {"en": ("accuracy", "chosen"), "pt_BR": ("precisão", "escolhida"), "es": ("precisión", "elegida")}


async def a_hand_to_its_summary(pilot: Pilot[Any], app: CardApp, table_id: str) -> TableScreen:
    """ana at ``table_id``, calling or checking each turn until the hand's summary shows: her table's screen."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
    await app.open_table(table_id)
    await until(pilot, lambda: isinstance(app.screen, TableScreen))
    screen = app.screen
    assert isinstance(screen, TableScreen)
    bar = screen.query_one(ActionBar)
    while not (summary_shown(screen) and screen.model.view is not None and screen.model.view.hand_over):
        await until(pilot, lambda: summary_shown(screen) or (bool(bar.choices) and not bar.disabled),
                    "a summary, or ana's turn")
        if bar.choices and not bar.disabled and not summary_shown(screen):
            kinds = [action_name(g[0]) for g in bar.choices]
            key = next((bar.keys[i] for i, k in enumerate(kinds) if k in ("call", "check")), bar.keys[0])
            seq = screen.model.seq
            await pilot.press(key)
            await until(pilot, lambda seq=seq: screen.model.seq != seq, "the table to take ana's move")
    return screen


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_the_replay_viewer_shows_a_finished_hands_analysis_step_by_step(server: Running, lang: str) -> None:
    record = played("truco_argentino", ["ana", "bia"], seed=6)
    store_finished(server, "done", record)
    server.room.finished["done"] = common_pb2.TableSummary(
        id="done", game="truco_argentino", name="done", status=common_pb2.TABLE_STATUS_FINISHED)
    with speaking(lang):
        client = CardApp(f"127.0.0.1:{server.port}", "eve")
        async with client.run_test(size=SMALL) as pilot:
            await in_lobby(pilot)
            for key, screen in (("h", TablesScreen), ("enter", HandsScreen), ("enter", ReplayScreen)):
                await pilot.press(key)
                await on(pilot, screen)
            replay = client.screen
            assert isinstance(replay, ReplayScreen)
            assert cut_off(replay, SMALL[0]) == []
            await pilot.press("a")
            await until(pilot, lambda: isinstance(client.screen, AnalysisScreen)
                        and client.screen.result is not None, "the analysis")
            shown = str(client.screen.query_one("#analysis-body", Static).content)
            accuracy, chosen = WORDS[lang]
            assert accuracy in shown and chosen in shown and "ana" in shown and "bia" in shown
            result = client.screen.result
            assert result is not None and set(result.seats) == {0, 1} and result.moments
            await pilot.press("escape")
            await until(pilot, lambda: client.screen is replay and replay.analysis is not None, "back to the replay")
            step = result.moments[0].step
            replay.go(step)
            await pilot.pause()
            label = {analysis_pb2.ANALYSIS_LABEL_BEST: "best", analysis_pb2.ANALYSIS_LABEL_GOOD: "as good",
                     analysis_pb2.ANALYSIS_LABEL_INACCURACY: "inaccuracy", analysis_pb2.ANALYSIS_LABEL_MISTAKE:
                     "mistake", analysis_pb2.ANALYSIS_LABEL_BLUNDER: "blunder",
                     analysis_pb2.ANALYSIS_LABEL_MISSED_WIN: "missed win"}[result.moments[0].label]
            assert i18n._(label) in status(replay)


def test_a_summary_says_how_many_mistakes_in_every_language() -> None:
    hand = analysis_pb2.HandAnalysis(moments=[
        analysis_pb2.AnalysisMoment(seat=0, label=analysis_pb2.ANALYSIS_LABEL_BLUNDER),
        analysis_pb2.AnalysisMoment(seat=0, label=analysis_pb2.ANALYSIS_LABEL_INACCURACY),
        analysis_pb2.AnalysisMoment(seat=1, label=analysis_pb2.ANALYSIS_LABEL_MISTAKE)])
    with speaking("en"):
        assert play_line(hand, 0).plain.startswith("Your play: 1 mistake")
        assert play_line(hand, 2).plain.startswith("Your play: no mistakes")
    with speaking("pt_BR"):
        assert play_line(hand, 0).plain.startswith("Sua jogada: 1 erro")
    with speaking("es"):
        assert play_line(hand, 0).plain.startswith("Tu juego: 1 error")


@pytest.mark.parametrize("cheap", [True, False], ids=["analysed-at-once", "on-asking"])
async def test_a_hands_summary_says_how_the_player_played_and_a_opens_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cheap: bool) -> None:
    """Cacho is analysed without anyone asking; played as a game that is not (``analysis.cheap`` saying no), the
    summary offers `a`, which asks for it, and the summary then says how the hand was played."""
    if not cheap:
        monkeypatch.setattr(analysis, "cheap", lambda game: False)
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=PATIENCE)
    try:
        table_id = await create(running, game="cacho", seats=2, bots=1, turn_seconds=3600,
                                options={"chips": common_pb2.OptionValue(number=3)})
        app = CardApp(f"127.0.0.1:{running.port}", "ana")
        async with app.run_test(size=SMALL) as pilot:
            screen = await a_hand_to_its_summary(pilot, app, table_id)
            said = ("Your play: no mistakes", "Your play: 1 mistake", "Your play: 2 mistakes")
            if cheap:
                await until(pilot, lambda: any(s in summary_of(screen) for s in said), lambda: summary_of(screen))
                assert screen.kept is not None and screen.play_state == "done"
            else:
                await until(pilot, lambda: "Your play: a to analyse it" in summary_of(screen),
                            lambda: summary_of(screen))
                assert running.store.hands.analyses(table_id, 1) == {}, "nothing analysed before ana asks"
            await settled(pilot)
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, AnalysisScreen) and app.screen.result is not None,
                        "the analysis")
            shown = str(app.screen.query_one("#analysis-body", Static).content)
            assert "accuracy" in shown and "ana" in shown
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is screen, "back at the table")
            await until(pilot, lambda: any(s in summary_of(screen) for s in said), lambda: summary_of(screen))
            assert set(running.store.hands.analyses(table_id, 1)) == {screen.seat}
            # The log keeps it once the next hand is dealt, and a still opens it.
            assert any(f"Hand 1 · {s}" in log_text(screen) for s in said), log_text(screen)
            # A hand in which ana decides nothing (out of chips, say) says nothing and keeps hers for a.
            kept, lines = screen.kept, log_text(screen)
            screen._played(analysis_pb2.HandAnalysis(hand=99, seats=[screen.seat or 0]))
            assert screen.kept == kept and screen.play_said is None and log_text(screen) == lines
            if not (screen.model.view is not None and screen.model.view.match_over):
                await pilot.press("enter")
                next_hand_now(running.room.tables[table_id])
                await until(pilot, lambda: screen.model.view is not None and not screen.model.view.hand_over,
                            "the next hand dealt")
                await settled(pilot)
                await pilot.press("a")
                await until(pilot, lambda: isinstance(app.screen, AnalysisScreen) and app.screen.result is not None,
                            "the last hand's analysis, during the next")
    finally:
        await running.stop(grace=0.1)


MATCH_WORDS = {"en": ("Your match: accuracy", "worst moments"), "pt_BR": ("Sua partida: precisão", "piores momentos"),
               "es": ("Tu partida: precisión", "peores momentos")}
NOTHING = {"en": "No mistake worth naming", "pt_BR": "Nenhum erro a apontar", "es": "Ningún error que señalar"}


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_a_matchs_summary_gives_the_players_accuracy_and_m_its_worst_moments(tmp_path: Path, lang: str) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=PATIENCE)
    try:
        table_id = await create(running, game="cacho", seats=2, bots=1, turn_seconds=3600,
                                options={"chips": common_pb2.OptionValue(number=3)})
        table = running.room.tables[table_id]
        with speaking(lang):
            app = CardApp(f"127.0.0.1:{running.port}", "ana")
            async with app.run_test(size=SMALL) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await app.open_table(table_id)
                await until(pilot, lambda: isinstance(app.screen, TableScreen))
                screen = app.screen
                assert isinstance(screen, TableScreen)
                bar = screen.query_one(ActionBar)
                while True:
                    await until(pilot, lambda: summary_shown(screen) or (bool(bar.choices) and not bar.disabled),
                                "a summary, or ana's turn")
                    view = screen.model.view
                    if summary_shown(screen) and view is not None and view.match_over:
                        break
                    if summary_shown(screen) and view is not None and view.hand_over:
                        # Each hand's own analysis done before the next: a worker is free at the match's end.
                        await until(pilot, lambda: screen.play_state == "done", "the hand's analysis")
                        await pilot.press("enter")
                        await settled(pilot)
                        next_hand_now(table)
                        await until(pilot, lambda: screen.model.view is not None
                                    and not screen.model.view.hand_over, "the next hand dealt")
                        continue
                    kinds = [action_name(g[0]) for g in bar.choices]
                    if "bet" in kinds or "raise" in kinds:
                        bar.adjust(1000)  # all in: the match ends sooner
                    key = next((bar.keys[i] for i, k in enumerate(kinds) if k in ("raise", "bet", "call", "check")),
                               bar.keys[0])
                    seq = screen.model.seq
                    await pilot.press(key)
                    await until(pilot, lambda seq=seq: screen.model.seq != seq, "the table to take ana's move")
                said, worst = MATCH_WORDS[lang]
                await until(pilot, lambda: said in text_of(screen, "#summary-body"),
                            lambda: text_of(screen, "#summary-body"))
                await settled(pilot)
                assert cut_off(screen, SMALL[0]) == []
                hands = screen.model.view.hand if screen.model.view is not None else 0
                await pilot.press("m")
                await until(pilot, lambda: isinstance(app.screen, AnalysisScreen) and app.screen.result is not None,
                            "the match's analysis")
                result = app.screen.result
                assert isinstance(result, analysis_pb2.MatchAnalysis) and len(result.hands) == hands
                assert [a.seat for a in result.accuracy] == [screen.seat]
                shown = str(app.screen.query_one("#analysis-body", Static).content)
                assert "ana" in shown and (worst in shown if result.worst else NOTHING[lang] in shown)
                assert cut_off(app.screen, SMALL[0]) == []
                # The match drawn for ana, its last hand under the cursor: enter opens that hand's analysis.
                summed = app.screen
                assert [c.seat for c in result.charts] == [screen.seat] and summed.query_one(MatchChart).has_focus
                await pilot.press("enter")
                await until(pilot, lambda: app.screen is not summed and isinstance(app.screen, AnalysisScreen)
                            and isinstance(app.screen.result, analysis_pb2.HandAnalysis), "the last hand's analysis")
                opened = app.screen.result
                assert isinstance(opened, analysis_pb2.HandAnalysis) and opened.hand == result.hands[-1]
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is summed, "back to the match")
                await pilot.press("escape")
                await until(pilot, lambda: app.screen is screen, "back at the table")
    finally:
        await running.stop(grace=0.1)


async def test_the_replay_viewer_sums_up_a_finished_tables_match(server: Running) -> None:
    server.store.tables.add_table("done", "truco_argentino", "done", {"game": "truco_argentino", "name": "done"})
    for hand, seed in ((1, 6), (2, 7)):
        server.store.hands.add_hand("done", dict(played("truco_argentino", ["ana", "bia"], seed=seed), table="done",
                                           hand=hand, match=1))
    server.store.tables.finish("done")
    server.room.finished["done"] = common_pb2.TableSummary(
        id="done", game="truco_argentino", name="done", status=common_pb2.TABLE_STATUS_FINISHED)
    client = CardApp(f"127.0.0.1:{server.port}", "eve")
    async with client.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        for key, screen in (("h", TablesScreen), ("enter", HandsScreen), ("enter", ReplayScreen)):
            await pilot.press(key)
            await on(pilot, screen)
        assert cut_off(client.screen, SMALL[0]) == []
        await pilot.press("m")
        await until(pilot, lambda: isinstance(client.screen, AnalysisScreen) and client.screen.result is not None,
                    "the match's analysis")
        result = client.screen.result
        assert isinstance(result, analysis_pb2.MatchAnalysis) and list(result.hands) == [1, 2]
        assert [a.seat for a in result.accuracy] == [0, 1]
        shown = str(client.screen.query_one("#analysis-body", Static).content)
        assert "Match 1: 2 hands judged" in shown and "ana" in shown and "bia" in shown


DRILL = {"en": ("Try again", "That is the best choice.", "42 points below the best", "You chose: ",
               "Your best card beats 100% of the cards you had not seen"),
         "pt_BR": ("Tentar de novo", "Essa é a melhor escolha.", "42 pontos abaixo da melhor", "Você escolheu: ",
                   "Sua melhor carta ganha de 100% das cartas"),
         "es": ("Intentar de nuevo", "Esa es la mejor elección.", "42 puntos por debajo de la mejor", "Elegiste: ",
                "Tu mejor carta le gana al 100% de las cartas")}
"""The drill's words: its key, the best tried again, the blunder tried again (how far, in points),
the choice repeated, and the decision's reason."""


def flagged_hand(view: table_pb2.View | None = None) -> analysis_pb2.HandAnalysis:
    """A hand of one decision, a blunder: going to the deck, where playing the 1e was best; with the seat's ``view``
    then (a server that sends it), or without (one that does not)."""
    mazo = common_pb2.Action(type=common_pb2.ACTION_TYPE_MAZO)
    play = common_pb2.Action(type=common_pb2.ACTION_TYPE_PLAY, cards=["1e"])
    return analysis_pb2.HandAnalysis(
        table_id="done", hand=1, game="truco_argentino", unit=analysis_pb2.ANALYSIS_UNIT_MATCH, stake=1.0, seats=[0],
        moments=[analysis_pb2.AnalysisMoment(
            step=3, seat=0, chosen=mazo, best=play, points=42.0, loss=0.42,
            label=analysis_pb2.ANALYSIS_LABEL_BLUNDER, accuracy=20.0, deals=480, cards=["1e", "7o"], view=view,
            reason=analysis_pb2.AnalysisReason(truco=analysis_pb2.TrucoAdvice(first=1.0, second=0.25, won=1)),
            choices=[analysis_pb2.AnalysisChoice(action=mazo, value=0.5, gap=0.42, points=42.0,
                                                 label=analysis_pb2.ANALYSIS_LABEL_BLUNDER),
                     analysis_pb2.AnalysisChoice(action=play, value=0.92, label=analysis_pb2.ANALYSIS_LABEL_BEST)])],
        accuracy=[analysis_pb2.SeatAccuracy(seat=0, decisions=1, accuracy=20.0, flagged=1)])


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_the_drill_puts_a_flagged_decision_back_and_says_how_the_new_choice_does(
        server: Running, lang: str) -> None:
    """On the board as the seat saw it then (the moment's view, here ana's at her first decision: her cards, bia's
    face down), where the server sends it; the choices alone where it does not (the English run)."""
    record = played("truco_argentino", ["ana", "bia"], seed=6)
    first = next(p for p in analysis.positions(record) if p.seat == 0)
    view = None if lang == "en" else wire.view_message(first.view)
    store_finished(server, "done", record)
    server.room.finished["done"] = common_pb2.TableSummary(
        id="done", game="truco_argentino", name="done", status=common_pb2.TABLE_STATUS_FINISHED)
    with speaking(lang):
        client = CardApp(f"127.0.0.1:{server.port}", "eve")
        async with client.run_test(size=SMALL) as pilot:
            await in_lobby(pilot)
            for key, screen in (("h", TablesScreen), ("enter", HandsScreen), ("enter", ReplayScreen)):
                await pilot.press(key)
                await on(pilot, screen)
            replay = client.screen
            assert isinstance(replay, ReplayScreen)
            client.push_screen(AnalysisScreen(replay.model, hand=flagged_hand(view)))
            await until(pilot, lambda: isinstance(client.screen, AnalysisScreen), "the analysis")
            await settled(pilot)
            assert cut_off(client.screen, SMALL[0]) == []
            assert DRILL[lang][0] in [words for _, _, words in footer_items(client.screen)]
            await pilot.press("t")
            await until(pilot, lambda: isinstance(client.screen, DrillScreen), "the drill")
            await settled(pilot)
            drill = client.screen
            assert isinstance(drill, DrillScreen) and cut_off(drill, SMALL[0]) == []
            said = lambda: str(drill.query_one("#drill-said", Static).content)  # noqa: E731
            head = str(drill.query_one("#drill-head", Static).render())
            assert said() == "" and "0.5" not in head and "1⚔ 7●" in head and " 42 " in head
            boards = list(drill.query(TrucoBoard))
            if view is None:
                assert not boards
            else:
                assert len(boards) == 1 and boards[0].model is not None and boards[0].model.view == view
                assert boards[0].model.seat == 0 and not boards[0].model.legal
                shown = drawn(boards[0])
                assert all(card_text(c).plain in shown for c in view.truco.cards), shown  # her cards, as she saw them
                assert "ana" in shown and "bia" in shown
            _, well, below, chose, why = DRILL[lang]
            await pilot.press("enter")  # the first choice: going to the deck again
            await until(pilot, lambda: below in said(), said)
            assert chose in said() and why in said(), said()
            await pilot.press("down", "enter")  # then playing the 1e
            await until(pilot, lambda: well in said(), said)
            assert chose in said() and below not in said() and "few points" not in said(), said()
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(client.screen, AnalysisScreen), "back to the analysis")


def test_a_decision_lists_the_best_and_the_chosen_first_and_a_few_others() -> None:
    """A Cacho bet of every size is a choice: the list keeps to the best, the chosen one and the four best
    valued others, and says how many are left out."""
    model = TableModel(common_pb2.TableSummary(game="cacho"), 0, names={0: "ana"})
    fold = common_pb2.Action(type=common_pb2.ACTION_TYPE_FOLD)
    check = common_pb2.Action(type=common_pb2.ACTION_TYPE_CHECK)
    bets = [common_pb2.Action(type=common_pb2.ACTION_TYPE_BET, chips=n) for n in range(1, 11)]
    choices = [analysis_pb2.AnalysisChoice(action=fold, value=0.0),
               analysis_pb2.AnalysisChoice(action=check, value=6.0),
               *(analysis_pb2.AnalysisChoice(action=b, value=5.0 - 0.1 * n) for n, b in enumerate(bets))]
    moment = analysis_pb2.AnalysisMoment(step=10, seat=0, chosen=fold, best=check, choices=choices, points=250.0,
                                         loss=6.0, label=analysis_pb2.ANALYSIS_LABEL_BLUNDER)
    with speaking("en"):
        rows = moment_text(model, moment, analysis_pb2.ANALYSIS_UNIT_CHIPS).plain.splitlines()
    # The loss in points, the one scale of a loss; every value in chips, never called points.
    assert "Fold" in rows[0] and "blunder" in rows[0] and "(250 points lost)" in rows[0]
    assert "Check" in rows[1] and "best" in rows[1] and "+6.00 chips" in rows[1]
    assert "Fold" in rows[2] and "chosen" in rows[2] and "+0.00 chips" in rows[2]
    assert len(rows) == 1 + 2 + 4 + 1 and "and 6 more choices" in rows[-1]
    assert not any("point" in r for r in rows[1:])


@pytest.mark.parametrize(("lang", "as_good", "close"), [("en", "as good", "close: 3.0 points below the best"),
                                                        ("es", "igual de buena", "cerca: 3.0 puntos por debajo"),
                                                        ("pt_BR", "tão boa", "perto: 3.0 pontos abaixo")])
def test_a_choice_below_the_best_by_what_the_screen_shows_is_never_said_as_good(lang: str, as_good: str,
                                                                              close: str) -> None:
    """A choice labelled as good (within what the estimate tells apart, or under the inaccuracy line) whose value,
    as the screen shows it beside the best's, is lower is said as how close it is, on the screen, by the line mode
    (which reads the same text) and in the drill; one that shows the same value is "as good"."""
    model = TableModel(common_pb2.TableSummary(game="truco_paulista"), 0, names={0: "ana"})
    low, high = (common_pb2.Action(type=common_pb2.ACTION_TYPE_PLAY, cards=[c]) for c in ("7C", "3H"))
    good = analysis_pb2.ANALYSIS_LABEL_GOOD

    def moment(gap: float) -> analysis_pb2.AnalysisMoment:
        choices = [analysis_pb2.AnalysisChoice(action=high, value=0.50),
                   analysis_pb2.AnalysisChoice(action=low, value=0.50 - gap, gap=gap, label=good, lost=100.0 * gap)]
        return analysis_pb2.AnalysisMoment(step=3, seat=0, chosen=low, best=high, choices=choices, loss=gap,
                                           label=good)

    with speaking(lang):
        apart, alike = moment(0.03), moment(0.0004)
        head = moment_text(model, apart, analysis_pb2.ANALYSIS_UNIT_MATCH).plain.splitlines()[0]
        assert close in head and as_good not in head.lower(), head
        assert as_good in moment_text(model, alike, analysis_pb2.ANALYSIS_UNIT_MATCH).plain.splitlines()[0].lower()
        drilled = drill_text(model, apart, apart.choices[1], analysis_pb2.ANALYSIS_UNIT_MATCH).plain
        assert as_good not in drilled.splitlines()[1].lower(), drilled


@pytest.mark.parametrize("width", [40, 60, 80])
def test_a_reason_and_the_choices_wrap_under_their_own_indent(width: int) -> None:
    """A flagged decision's reason is indented under the decision: on a narrow screen its wrapped lines
    stay in that column, never back at the margin (nor do a choice's)."""
    from rich.console import Console

    from cardtui.client.words import Hanging

    model = TableModel(common_pb2.TableSummary(game="cacho"), 0, names={0: "ana"})
    fold = common_pb2.Action(type=common_pb2.ACTION_TYPE_FOLD)
    call = common_pb2.Action(type=common_pb2.ACTION_TYPE_CALL, chips=17)
    reason = analysis_pb2.AnalysisReason(bet=analysis_pb2.BetAdvice(pot=23, call=17, needed=0.425, chance=0.07,
                                                                    opponents=1))
    moment = analysis_pb2.AnalysisMoment(
        step=10, seat=0, chosen=call, best=fold, points=250.0, loss=6.0, label=analysis_pb2.ANALYSIS_LABEL_BLUNDER,
        reason=reason, choices=[analysis_pb2.AnalysisChoice(action=fold, value=0.0),
                                analysis_pb2.AnalysisChoice(action=call, value=-6.0)])
    console = Console(width=width, record=True, color_system=None)
    with speaking("en"):
        text = moment_text(model, moment, analysis_pb2.ANALYSIS_UNIT_CHIPS)
        console.print(Hanging(text))
    rows = console.export_text().splitlines()
    assert str(Hanging(text)) == text.plain
    assert rows[0].startswith("step 10") and all(len(r) <= width for r in rows), rows
    reason_rows = [r for r in rows[1:] if not r.lstrip().startswith("▸")]
    assert len(reason_rows) >= (2 if width < 80 else 1), rows  # the reason is long: it wraps
    first = next(i for i, r in enumerate(rows) if r.startswith("   "))  # the decision's own line may wrap first
    assert all(r.startswith("   ") for r in rows[first:]), rows
    assert rows[first].startswith("   The pot held 23 chips"), rows


def test_a_matchs_worst_moments_name_each_hand_as_the_place_it_is_read_from() -> None:
    """At the table a hand goes by its place in the match (the log's numbers); in a replay, by the table's."""
    model = TableModel(common_pb2.TableSummary(game="cacho"), 0, names={0: "ana"})
    fold = common_pb2.Action(type=common_pb2.ACTION_TYPE_FOLD)
    check = common_pb2.Action(type=common_pb2.ACTION_TYPE_CHECK)
    moment = analysis_pb2.AnalysisMoment(step=4, seat=0, chosen=fold, best=check, points=40.0,
                                         label=analysis_pb2.ANALYSIS_LABEL_BLUNDER)
    match = analysis_pb2.MatchAnalysis(
        match=2, hands=[7, 8, 9], worst=[analysis_pb2.WorstMoment(hand=8, moment=moment)],
        accuracy=[analysis_pb2.SeatAccuracy(seat=0, decisions=5, accuracy=61, flagged=1)])
    with speaking("en"):
        assert "1. hand 2, step 4 · ana: Fold" in match_text(model, match, places=True).plain
        shown = match_text(model, match).plain
    assert "1. hand 8, step 4" in shown and "Match 2: 3 hands judged" in shown and "accuracy 61 of 100" in shown


class DrillApp(App[None]):
    """The drill alone, on a decision of a real hand."""

    CSS_PATH = "../../client/app.tcss"

    def __init__(self, model: TableModel, moment: analysis_pb2.AnalysisMoment) -> None:
        super().__init__()
        self.model, self.moment = model, moment

    def on_mount(self) -> None:
        self.push_screen(DrillScreen(self.model, self.moment, analysis_pb2.ANALYSIS_UNIT_MATCH))


@pytest.mark.parametrize(("game", "players"), [("cacho", 3), ("pifpaf", 3), ("cacheta", 2), ("truco_paulista", 4),
                                               ("truco_argentino", 2)])
@pytest.mark.parametrize("size", [SMALL, (120, 40)], ids=["80x24", "120x40"])
async def test_the_drill_draws_every_games_board_as_the_seat_saw_it(game: str, players: int,
                                                                     size: tuple[int, int]) -> None:
    """Each game's board, from the seat's view at its first real choice of a real hand: the seat's own cards on the
    terminal beside the choices, nothing cut off."""
    names = ["ana", "bia", "cy", "di"][:players]
    record = played(game, names)
    first = next(p for p in analysis.positions(record) if p.seat == 0 and analysis.choices(p) > 1)
    view = views_at(record, [first.step])[first.step]  # as the server sends it
    legal = [wire.action_message(a) for a in first.legal if a.type != "signal"][:3]
    moment = analysis_pb2.AnalysisMoment(
        step=first.step, seat=0, chosen=legal[0], best=legal[-1], points=30.0,
        label=analysis_pb2.ANALYSIS_LABEL_BLUNDER, view=view,
        choices=[analysis_pb2.AnalysisChoice(action=a, label=analysis_pb2.ANALYSIS_LABEL_BEST) for a in legal])
    model = TableModel(common_pb2.TableSummary(id="t", game=game), None)  # names: the view's, as they sat then
    app = DrillApp(model, moment)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DrillScreen), "the drill")
        await settled(pilot)
        drill = app.screen
        assert cut_off(drill, size[0]) == []
        board = drill.query_one(Board)
        assert board.model is not None and board.model.seat == 0 and board.model.view == view
        family = getattr(view, view.WhichOneof("game"))
        own = list(getattr(family, "cards", ())) or [c for s in family.seats if s.seat == 0 for c in s.cards]
        text = "\n".join(strip.text for strip in drawn_lines(drill))
        assert own and all(card_text(c).plain in text for c in own), text
        assert "ana" in text and "bia" in text, text
        assert drill.query_one("#drill-choices").region.right <= size[0]
        if view.WhichOneof("game") == "rummy":  # whose turn it was, and no keys for a board not played on
            keys = ("from the stock", "discards", "sets the amount")
            assert "ana to " in text and not any(k in text for k in keys), text


async def test_the_drill_draws_what_a_dishonest_server_sends_without_falling_over() -> None:
    """A moment's view is the server's word: another game's view, an empty one, a seat that is not at the table. The
    drill still opens on each, its choices there to pick (the board draws what it can)."""
    games = [("cacho", 3), ("pifpaf", 3), ("cacheta", 2), ("truco_paulista", 4), ("truco_argentino", 2)]
    views = []
    for game, players in games:
        record = played(game, ["ana", "bia", "cy", "di"][:players])
        first = next(p for p in analysis.positions(record) if p.seat == 0 and analysis.choices(p) > 1)
        views.append(views_at(record, [first.step])[first.step])
    mazo = common_pb2.Action(type=common_pb2.ACTION_TYPE_MAZO)
    for n, (game, _) in enumerate(games):
        stranger = table_pb2.View()
        stranger.CopyFrom(views[n])
        stranger.you = 42
        for view in (views[(n + 1) % len(views)], table_pb2.View(), stranger):
            moment = analysis_pb2.AnalysisMoment(step=3, seat=7, chosen=mazo, points=30.0, view=view,
                                                 choices=[analysis_pb2.AnalysisChoice(action=mazo)])
            app = DrillApp(TableModel(common_pb2.TableSummary(id="t", game=game), None), moment)
            async with app.run_test(size=SMALL) as pilot:
                await until(pilot, lambda: isinstance(app.screen, DrillScreen), "the drill")  # noqa: B023
                await settled(pilot)
                await pilot.press("enter")
                await until(pilot, lambda: str(app.screen.query_one("#drill-said", Static).content) != "",  # noqa: B023
                            "the answer")


async def test_at_a_table_the_analysis_shows_the_turn_timer_and_a_turn_brings_the_board_back(tmp_path: Path) -> None:
    """ana reads her last hand's analysis, and drills a decision, between hands: the table's turn line shows over
    both (the seconds counting down); the next hand deals and her turn comes: the drill and the analysis step
    aside, the board is back for her move, and `a` opens the analysis again at once (nothing was lost)."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=PATIENCE)
    try:
        table_id = await create(running, game="cacho", seats=2, bots=1, turn_seconds=3600,
                                options={"chips": common_pb2.OptionValue(number=50)})
        app = CardApp(f"127.0.0.1:{running.port}", "ana")
        async with app.run_test(size=SMALL) as pilot:
            screen = await a_hand_to_its_summary(pilot, app, table_id)
            assert screen.model.view is not None and not screen.model.view.match_over
            await until(pilot, lambda: screen.kept is not None, "the hand analysed")
            await settled(pilot)
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, AnalysisScreen) and app.screen.result is not None,
                        "the analysis")
            analysis_screen = app.screen
            over = analysis_screen.query_one(".turn-over", Static)
            shown = lambda: str(over.render())  # noqa: E731
            await until(pilot, lambda: over.display and "Hand over · next hand in" in shown(), shown)
            first = shown()
            await until(pilot, lambda: shown() != first, "the seconds counting down")
            app.push_screen(DrillScreen(screen.model, flagged_hand().moments[0], analysis_pb2.ANALYSIS_UNIT_MATCH))
            await until(pilot, lambda: isinstance(app.screen, DrillScreen), "the drill")
            await settled(pilot)
            drill_over = app.screen.query_one(".turn-over", Static)
            await until(pilot, lambda: drill_over.display and "next hand in" in str(drill_over.render()),
                        "the timer over the drill")
            next_hand_now(running.room.tables[table_id])
            await until(pilot, lambda: app.screen is screen and my_turn(screen.model), "the board back at ana's turn")
            assert not any(isinstance(s, AnalysisScreen | DrillScreen) for s in app.screen_stack)
            await settled(pilot)
            assert "Your turn" in str(screen.query_one("#turn-line", Static).render())
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, AnalysisScreen) and app.screen.result is not None,
                        "the analysis again")
            reopened = app.screen
            assert isinstance(reopened, AnalysisScreen) and isinstance(analysis_screen, AnalysisScreen)
            assert reopened.result == analysis_screen.result
    finally:
        await running.stop(grace=0.1)


def test_a_hand_whose_seat_had_nothing_judged_shows_no_accuracy() -> None:
    """A hand the bot played in the seat's place (or with no real choice) is no 100 of 100: the screen says that no
    decision was judged, and names no accuracy."""
    model = TableModel(common_pb2.TableSummary(game="truco_argentino"), 0, names={0: "ana"})
    empty = analysis_pb2.HandAnalysis(table_id="t", hand=1, game="truco_argentino",
                                      unit=analysis_pb2.ANALYSIS_UNIT_MATCH,
                                      accuracy=[analysis_pb2.SeatAccuracy(seat=0, decisions=0, accuracy=100.0)])
    said = analysis_text(model, empty).plain
    assert "No decision with a real choice to judge." in said and "accuracy" not in said.lower()
    said = analysis_text(model, flagged_hand()).plain
    assert "accuracy 20 of 100" in said
