"""Chinchón's match chart (its entry's ``Chart.standing``): the chance of being the last player in, points counting
against (``tests/engine/test_match_chart.py`` charts the others)."""

from __future__ import annotations

import pytest

from cardtui.engine import match_chart
from cardtui.engine.bots.estimates import Unit
from tests.engine.test_match_chart import match, values


def test_chinchon_charts_the_chance_of_being_the_last_player_in_points_counting_against() -> None:
    from cardtui.engine.rummy.bots import chinchon_odds

    records = match("chinchon", {0: 0, 1: 0, 2: 0}, [{0: 3, 1: 40, 2: 20}, {0: -10, 1: 65, 2: 12}],
                    options={"target": 100})
    chart = match_chart.chart(records)
    assert chart is not None and chart.unit is Unit.MATCH and chart.even == pytest.approx(1 / 3)
    assert values(chart, 0) == pytest.approx([1 / 3, chinchon_odds.chinchon([3, 40, 20], 0, 100),
                                              chinchon_odds.chinchon([-7, 105, 32], 0, 100)])
    assert values(chart, 0)[1] > 1 / 3 > values(chart, 1)[1], "fewer points, better odds"
    assert values(chart, 1)[-1] == 0.0, "past the target: out"
    won = match("chinchon", {0: 50, 1: 10}, [{0: -10, 1: 30}])
    won[0]["result"]["chinchon"], won[0]["result"]["winner"] = True, 0
    assert values(match_chart.chart(won), 0)[-1] == 1.0 and values(match_chart.chart(won), 1)[-1] == 0.0, (
        "a chinchón wins the match")
