"""Chinchón in the room: its bots, a hand analysed in match odds, a match charted by the last player in."""

from __future__ import annotations

from collections.abc import Mapping

from cardtui.engine.bots.estimates import Unit
from cardtui.engine.games.entry import Bench, Chart, Entry, Record
from cardtui.engine.rummy.bots import chinchon as bots
from cardtui.engine.rummy.bots import chinchon_odds
from cardtui.engine.rummy.chinchon import GAME, ChinchonPays


def standing(record: Record, held: Mapping[int, int], seat: int) -> float:
    """The match's chart (``engine.match_chart``): the last player in wins, a player out once its points pass the
    target (or the match is won by a chinchón). The chance that the seat is that player with every seat on the points
    ``held`` (``chinchon_odds.chinchon``, the table the analysis values its decisions in): one in as many as play at
    the start, 0 once out; after a chinchón that won the match, 1 for its player and 0 for the others."""
    options = GAME.options(record.get("options") or {})
    result = record.get("result") or {}
    start = {int(s): int(v) for s, v in (record.get("start") or {}).items()}
    if result.get("chinchon") and options.chinchon is ChinchonPays.MATCH and dict(held) != start:
        return 1.0 if seat == result.get("winner") else 0.0
    points = [held.get(s, 0) for s in range(max(held, default=-1) + 1)]
    return chinchon_odds.chinchon(points, seat, options.target) if seat < len(points) else 0.0

ENTRY = Entry(
    rules=GAME,
    place=60,
    unit=Unit.MATCH,
    today=bots.normal,
    levels={"easy": bots.easy, "normal": bots.normal, "hard": bots.hard},
    baselines={"chinchon-least": bots.least},
    judged=bots.hard,
    chart=Chart(standing=standing),
    bench=Bench(seats=2, night=(2, ("easy", "normal", "hard")), facts_most=12, spoken=0.8, facts=(
        ({}, 2), ({"cards": 48, "jokers": 2, "figures": "number", "limit": 3, "first_round": False}, 3),
        ({"jokers": 1, "target": 30, "reentries": 1, "lay_off": False}, 4))),
)
