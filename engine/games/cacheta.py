"""Cacheta in the room: its bots, a hand analysed in match odds, a match charted by the last with points."""

from __future__ import annotations

from collections.abc import Mapping

from cardtui.engine.bots import odds
from cardtui.engine.bots.estimates import Unit
from cardtui.engine.games.entry import Bench, Chart, Entry, Record
from cardtui.engine.rummy.bots import baselines, cacheta_easy, cacheta_hard, cacheta_normal
from cardtui.engine.rummy.bots import cacheta as today
from cardtui.engine.rummy.cacheta import GAME


def standing(record: Record, held: Mapping[int, int], seat: int) -> float:
    """The chance that the seat is the last left with points (``odds.cacheta``)."""
    points = [max(0, held.get(s, 0)) for s in range(max(held, default=-1) + 1)]
    return odds.cacheta(points, seat) if seat < len(points) else 0.0


ENTRY = Entry(
    rules=GAME,
    place=50,
    unit=Unit.MATCH,
    today=today.choose,
    levels={"easy": cacheta_easy.easy, "normal": cacheta_normal.normal, "hard": cacheta_hard.hard},
    baselines={"cacheta-isolated": baselines.rummy_isolated, "cacheta-pairs": baselines.cacheta_pairs,
               "cacheta-guarded": baselines.cacheta_guarded},
    judged=cacheta_hard.hard,
    chart=Chart(standing=standing, floor=True),
    bench=Bench(night=(3, ("easy", "normal", "hard")), facts_most=12, spoken=0.8,
                facts=(({}, 2), ({"claim_ms": 0}, 4))),
)
