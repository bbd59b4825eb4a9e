"""The match drawn at the top of a match's analysis (``client.match_chart``): a real finished table's match from a
real server, at 80x24 and 120x40: the chart shows, its cursor moves with the arrows and a click, and ``enter`` opens
the hand under it; the drawing's arithmetic on its own, and its words in every language."""

from __future__ import annotations

import json
from typing import Any

import pytest
from textual.widgets import Static

from cardtui.client.app import CardApp
from cardtui.client.match_chart import ChartPlot, MatchChart, cell, columns, point_text, scale
from cardtui.client.models import TableModel
from cardtui.client.screens.analysis import AnalysisScreen
from cardtui.client.screens.replay import HandsScreen, ReplayScreen, TablesScreen
from cardtui.client.textual_internals import drawn_lines
from cardtui.engine import analysis
from cardtui.engine.bots import estimates
from cardtui.i18n import speaking
from cardtui.server.app import Running
from cardtui.server.hands.analysis import by_seat, seed_of
from cardtui.v1 import analysis_pb2, common_pb2
from tests.client.footer_check import cut_off
from tests.client.test_replay import on
from tests.client.waiting import in_lobby, settled, until
from tests.server.test_analysis import played

SIZES = [(80, 24), (120, 40)]


HANDS = 3
"""The finished match's hands."""


@pytest.fixture(scope="module")
def analysed_match() -> list[tuple[dict[str, Any], list[str]]]:
    """The finished match's hands, each with its seats' analyses as the store keeps them: made once for the module,
    as the server's pool makes each (its seed, every seat), so each screen size only draws it. At the hard bot's own
    budget, not the pool's eight times as many deals (``estimates.ANALYSIS``): the chart draws the analysis it is
    given (blunders, a mistake, good and best choices here too), and it is a ninth of the work (0.6 s of CPU, not
    5.9 s)."""
    out = []
    for hand in range(1, HANDS + 1):
        record = dict(played("truco_argentino", ["ana", "bia"], seed=5 + hand), table="done", hand=hand, match=1)
        done = analysis.analyse(record, seed=seed_of("done", hand), budget=estimates.Budget(1.0))
        out.append((record, by_seat(json.dumps(analysis.to_json(done)), [0, 1])))
    return out


def finished_match(server: Running, hands: list[tuple[dict[str, Any], list[str]]]) -> None:
    """A finished truco argentino table whose first match is the real hands of ana against bia in ``hands``, each
    with its seats' analyses kept."""
    server.store.tables.add_table("done", "truco_argentino", "done", {"game": "truco_argentino", "name": "done"})
    for record, texts in hands:
        server.store.hands.add_hand("done", record)
        for seat, text in enumerate(texts):
            server.store.hands.add_analysis("done", int(record["hand"]), seat, text)
    server.store.tables.finish("done")
    server.room.finished["done"] = common_pb2.TableSummary(
        id="done", game="truco_argentino", name="done", status=common_pb2.TABLE_STATUS_FINISHED)


def screen_text(app: CardApp) -> str:
    return "\n".join(strip.text for strip in drawn_lines(app.screen))


def words(app: CardApp) -> str:
    return str(app.screen.query_one("#chart-words", Static).render())


@pytest.mark.xdist_group("match-chart")  # one test process makes ``analysed_match`` once for both sizes
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
async def test_a_matchs_analysis_draws_the_match_and_enter_opens_the_hand_under_the_cursor(
        server: Running, analysed_match: list[tuple[dict[str, Any], list[str]]], size: tuple[int, int]) -> None:
    finished_match(server, analysed_match)
    client = CardApp(f"127.0.0.1:{server.port}", "eve")
    async with client.run_test(size=size) as pilot:
        await in_lobby(pilot)
        for key, screen in (("h", TablesScreen), ("enter", HandsScreen), ("enter", ReplayScreen)):
            await pilot.press(key)
            await on(pilot, screen)
        await pilot.press("m")
        await until(pilot, lambda: isinstance(client.screen, AnalysisScreen) and client.screen.result is not None
                    and bool(client.screen.query(MatchChart)), "the match's analysis, drawn")
        await settled(pilot)
        summed = client.screen
        result = summed.result
        assert isinstance(result, analysis_pb2.MatchAnalysis) and [c.seat for c in result.charts] == [0, 1]
        chart = summed.query_one(MatchChart)
        assert chart.has_focus and chart.cursor == 3  # the match's end: before the first hand, then three
        text = screen_text(client)
        assert "The match drawn · ana: chance of winning the match, hand by hand" in text, text
        assert "50%" in text and "100%" in text and "0%" in text, text
        plot = chart.query_one(ChartPlot)
        axis = "".join(s.text for s in plot.render_lines(plot.region.reset_offset)[-1:])
        assert axis.split() == ["1", "2", "3"], axis  # the start has no number at a finished table's count
        assert any(ch in text for ch in "▁▂▃▄▅▆▇█"), text
        assert words(client).startswith("After hand 3: ana, ") and "chance of winning the match" in words(client)
        assert "enter: its analysis" in words(client)
        assert cut_off(summed, size[0]) == []
        # Up and down still scroll the summary under the chart, where it runs past the screen.
        scroll = summed.query_one("#analysis")
        if size == (80, 24):
            assert scroll.max_scroll_y > 0
            await pilot.press("down")
            await until(pilot, lambda: scroll.scroll_y > 0, "the summary scrolled")
            await pilot.press("up")
            await until(pilot, lambda: scroll.scroll_y == 0, "the summary scrolled back")
        # The arrows move the cursor, the words follow; before the first hand there is nothing to open.
        await pilot.press("left")
        await until(pilot, lambda: words(client).startswith("After hand 2: "), lambda: words(client))
        await pilot.press("home")
        await until(pilot, lambda: words(client).startswith("Before the first hand: ana, 50% chance"),
                    lambda: words(client))
        await pilot.press("enter")
        await settled(pilot)
        assert client.screen is summed
        # A click on a point moves the cursor there.
        columns_at = chart.query_one(ChartPlot).layout_now()
        assert columns_at is not None
        _scale, left, cols = columns_at
        await pilot.click(ChartPlot, offset=(left + 1 * cols.slot, 3))
        await until(pilot, lambda: chart.cursor == 1 and words(client).startswith("After hand 1: "),
                    lambda: words(client))
        # Another player's chart: bia's.
        await pilot.press("p")
        await until(pilot, lambda: "After hand 1: bia, " in words(client), lambda: words(client))
        await pilot.press("right")
        await until(pilot, lambda: words(client).startswith("After hand 2: "), lambda: words(client))
        await pilot.press("enter")
        await until(pilot, lambda: client.screen is not summed and isinstance(client.screen, AnalysisScreen)
                    and isinstance(client.screen.result, analysis_pb2.HandAnalysis), "hand 2's analysis")
        opened = client.screen.result
        assert isinstance(opened, analysis_pb2.HandAnalysis) and opened.hand == 2
        assert "Hand 2: the decisions judged" in str(client.screen.query_one("#analysis-body", Static).content)
        await pilot.press("escape")
        await until(pilot, lambda: client.screen is summed, "back to the match")


def test_points_fit_the_width_and_a_long_match_scrolls_to_keep_the_cursor() -> None:
    assert columns(4, 70, 3) == columns(4, 70, 0)  # a short match: no scrolling
    short = columns(4, 70, 0)
    assert short.slot == 4 and short.bar == 3 and short.count == 4 and short.first == 0
    long = columns(200, 70, 150)
    assert long.slot == 1 and long.count == 70 and long.first <= 150 < long.first + long.count
    assert columns(200, 70, 199).first == 130 and columns(200, 70, 0).first == 0
    assert long.at(0) == long.first and long.at(70) is None


def test_bars_stand_on_the_line_of_even_chances() -> None:
    even = analysis_pb2.MatchChart(unit=analysis_pb2.ANALYSIS_UNIT_MATCH, even=0.5, points=[
        analysis_pb2.MatchPoint(value=v) for v in (0.5, 1.0, 0.0, 0.75)])
    s = scale(even, 8)
    assert s.edge == 32 and [s.eighths(p.value) for p in even.points] == [32, 64, 0, 48]
    assert cell(32, 48, 32) == ("█", False) and cell(40, 44, 32) == ("▄", False) and cell(24, 48, 32) == (" ", False)
    assert cell(24, 29, 32) == ("▅", True)  # three eighths hang from the top of the cell under the line
    assert cell(16, 0, 32) == ("█", False) and cell(32, 0, 32) == (" ", False)
    three = analysis_pb2.MatchChart(unit=analysis_pb2.ANALYSIS_UNIT_MATCH, even=1 / 3, points=[
        analysis_pb2.MatchPoint(value=v) for v in (1 / 3, 1.0)])
    assert scale(three, 8).edge == 24 and scale(three, 8).eighths(1 / 3) == 24  # even chances draw no bar
    eight = analysis_pb2.MatchChart(unit=analysis_pb2.ANALYSIS_UNIT_MATCH, even=1 / 8, points=[
        analysis_pb2.MatchPoint(value=v) for v in (1 / 8, 0.15)])
    assert scale(eight, 8).high == 0.25 and scale(eight, 8).edge == 32  # many players: up to twice the even chance
    chips = analysis_pb2.MatchChart(unit=analysis_pb2.ANALYSIS_UNIT_CHIPS, points=[
        analysis_pb2.MatchPoint(value=v) for v in (0.0, 30.0, -10.0)])
    s = scale(chips, 8)
    assert (s.low, s.base, s.high) == (-10.0, 0.0, 30.0) and s.edge == 16 and s.eighths(30.0) == 64


SAID = {"en": ("After hand 2: ana, 62% chance of winning the match (8 points)", "one of the worst moments"),
        "pt_BR": ("Depois da mão 2: ana, 62% de chance de ganhar a partida (8 pontos)", "um dos piores momentos"),
        "es": ("Tras la mano 2: ana, 62% de probabilidad de ganar la partida (8 puntos)", "uno de los peores momentos")}


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_the_point_under_the_cursor_is_said_in_words_in_every_language(lang: str) -> None:
    model = TableModel(common_pb2.TableSummary(game="truco_argentino"), 0, names={0: "ana", 1: "bia"})
    chart = analysis_pb2.MatchChart(seat=0, unit=analysis_pb2.ANALYSIS_UNIT_MATCH, even=0.5, points=[
        analysis_pb2.MatchPoint(hand=0, value=0.5), analysis_pb2.MatchPoint(hand=7, value=0.55, held=3),
        analysis_pb2.MatchPoint(hand=8, value=0.62, held=8)])
    match = analysis_pb2.MatchAnalysis(game="truco_argentino", hands=[7, 8], charts=[chart], worst=[
        analysis_pb2.WorstMoment(hand=8, moment=analysis_pb2.AnalysisMoment(seat=0))])
    with speaking(lang):
        said = point_text(model, match, chart, 2, places=True, opens=True).plain
    at, worst = SAID[lang]
    assert said.startswith(at) and worst in said, said
