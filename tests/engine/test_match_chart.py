"""A match drawn hand by hand (``engine.match_chart``) on rigged scores: each game's chart in the quantity that
means winning its match, before the first hand and after each."""

from __future__ import annotations

from typing import Any

import pytest

from cardtui.engine import match_chart
from cardtui.engine.bots import odds
from cardtui.engine.bots.estimates import Unit


def hand(game: str, number: int, start: dict[int, int], deltas: dict[int, int],
         options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A finished hand's history as far as the chart reads it: the seats, what each began with and the change."""
    return {"game": game, "hand": number, "match": 1, "options": options or {},
            "seats": [{"seat": s, "name": f"p{s}", "team": s % 2 if game.startswith("truco") else s} for s in start],
            "start": {str(s): v for s, v in start.items()},
            "result": {"deltas": {str(s): v for s, v in deltas.items()}}}


def match(game: str, start: dict[int, int], changes: list[dict[int, int]], first: int = 1,
          options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Hands ``first``, ``first + 1``… of one match, each starting where the one before left off."""
    out, held = [], dict(start)
    for n, deltas in enumerate(changes):
        out.append(hand(game, first + n, held, deltas, options))
        held = {s: v + deltas.get(s, 0) for s, v in held.items()}
    return out


def values(chart: match_chart.Chart | None, seat: int) -> list[float]:
    assert chart is not None
    mine = chart.of(seat)
    assert mine is not None
    return [p.value for p in mine.points]


def test_truco_paulista_is_charted_in_match_odds_from_the_score_up_to_the_win() -> None:
    # Four seats, two teams: each seat's start and delta is its team's.
    records = match("truco_paulista", {0: 0, 1: 0, 2: 0, 3: 0},
                    [{0: 1, 2: 1}, {1: 3, 3: 3}, {0: 12, 2: 12}], first=16)
    chart = match_chart.chart(records)
    assert chart is not None and chart.unit is Unit.MATCH and chart.even == 0.5
    assert [p.hand for p in chart.seats[0].points] == [0, 16, 17, 18]
    assert [p.held for p in chart.seats[0].points] == [0, 1, 1, 13]
    assert values(chart, 0) == pytest.approx([0.5, odds.truco(1, 0, 12, True), odds.truco(1, 3, 12, True), 1.0])
    assert values(chart, 1) == pytest.approx([0.5, odds.truco(0, 1, 12, True), odds.truco(3, 1, 12, True), 0.0])
    assert values(chart, 2) == values(chart, 0)  # partners share their team's chance
    assert values(chart, 0)[1] > 0.5 > values(chart, 0)[2]


def test_truco_argentino_reads_the_tables_target() -> None:
    records = match("truco_argentino", {0: 0, 1: 0}, [{0: 10}, {1: 2}], options={"target": 15})
    assert values(match_chart.chart(records), 0) == pytest.approx(
        [0.5, odds.truco(10, 0, 15, False), odds.truco(10, 2, 15, False)])
    thirty = match("truco_argentino", {0: 0, 1: 0}, [{0: 10}], options={"target": 30})
    assert values(match_chart.chart(thirty), 0)[1] < values(match_chart.chart(records), 0)[1]


def test_cacheta_charts_the_chance_of_being_the_last_player_left() -> None:
    records = match("cacheta", {0: 3, 1: 3, 2: 3}, [{1: -2, 2: -1}, {1: -1, 2: -2}, {0: -1, 2: -1}])
    chart = match_chart.chart(records, seats=[0, 2])
    assert chart is not None and [c.seat for c in chart.seats] == [0, 2] and chart.even == pytest.approx(1 / 3)
    assert values(chart, 0) == pytest.approx([1 / 3, odds.cacheta([3, 1, 2], 0), odds.cacheta([3, 0, 0], 0), 1.0])
    assert values(chart, 2)[-1] == 0.0 and chart.of(1) is None
    assert [p.held for p in chart.seats[1].points] == [3, 2, 0, 0]  # never below 0


@pytest.mark.parametrize("game", ["cacho", "pifpaf"])
def test_a_freeze_out_for_chips_charts_the_share_of_the_chips_held(game: str) -> None:
    records = match(game, {0: 20, 1: 20, 2: 20}, [{0: 4, 1: -2, 2: -2}, {0: -24, 1: 6, 2: 18}, {1: -24, 2: 24}])
    chart = match_chart.chart(records)
    assert chart is not None and chart.unit is Unit.MATCH and chart.even == pytest.approx(1 / 3)
    assert values(chart, 0) == pytest.approx([20 / 60, 24 / 60, 0.0, 0.0])
    assert values(chart, 2) == pytest.approx([20 / 60, 18 / 60, 36 / 60, 1.0])
    assert [p.held for p in chart.seats[2].points] == [20, 18, 36, 60]


def test_pif_paf_with_rebuys_charts_the_chips_won_since_the_match_began() -> None:
    """A player restocked when out is never out of the match: its chart is the chips it won, rebuys not counted."""
    first = hand("pifpaf", 1, {0: 5, 1: 5}, {0: -5, 1: 5}, {"rebuy": True, "chips": 5})
    second = hand("pifpaf", 2, {0: 5, 1: 10}, {0: 3, 1: -3}, {"rebuy": True, "chips": 5})  # seat 0 restocked to 5
    chart = match_chart.chart([first, second])
    assert chart is not None and chart.unit is Unit.CHIPS and chart.even == 0.0
    assert values(chart, 0) == [0.0, -5.0, -2.0] and values(chart, 1) == [0.0, 5.0, 2.0]
    assert [p.held for p in chart.seats[0].points] == [5, 0, 8]


def test_no_hands_no_chart_and_the_json_says_each_point() -> None:
    assert match_chart.chart([]) is None
    chart = match_chart.chart(match("truco_argentino", {0: 0, 1: 0}, [{0: 3}]))
    assert chart is not None
    doc = match_chart.to_json(chart)
    assert doc["unit"] == "match" and doc["even"] == 0.5 and doc["seats"][1]["seat"] == 1
    assert [p["hand"] for p in doc["seats"][0]["points"]] == [0, 1] and doc["seats"][0]["points"][1]["held"] == 3
