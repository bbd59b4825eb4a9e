"""Truco paulista in the room: its bots, a hand analysed in match odds, a match to 12 charted by them."""

from __future__ import annotations

from collections.abc import Mapping

from cardtui.engine.bots import odds, pool
from cardtui.engine.bots.estimates import Unit
from cardtui.engine.games.entry import Bench, Chart, Entry, Record
from cardtui.engine.truco.bots import baselines, today
from cardtui.engine.truco.bots import easy as truco_easy
from cardtui.engine.truco.bots import pool as styles
from cardtui.engine.truco.bots import search as truco_search
from cardtui.engine.truco.paulista.game import GAME
from cardtui.engine.truco.paulista.rules import TARGET


def standing(record: Record, held: Mapping[int, int], seat: int) -> float:
    """The chance that the seat's team reaches 12 ahead, between equal players (``odds.truco``)."""
    theirs = max((v for s, v in held.items() if s % 2 != seat % 2), default=0)
    return odds.truco(held.get(seat, 0), theirs, TARGET, True)


ENTRY = Entry(
    rules=GAME,
    place=20,
    unit=Unit.MATCH,
    today=today.choose_paulista,
    levels={"easy": truco_easy.choose, "normal": truco_search.normal, "hard": truco_search.hard},
    memory=truco_search.TrucoMemory,
    remembering=frozenset({"hard"}),
    baselines={"paulista-manilha": baselines.paulista_manilha,
               "paulista-trick-aware": baselines.paulista_trick_aware,
               "always-accept": baselines.answering(baselines.paulista_trick_aware, True),
               "never-accept": baselines.answering(baselines.paulista_trick_aware, False)},
    pool=pool.named(styles.player),
    analysed_unasked=True,
    chart=Chart(standing=standing, even=0.5),
    calls_won=True,
    bench=Bench(night=(4, ("easy", "normal", "hard")), facts=(({}, 4), ({"truco_decides": "hand"}, 4))),
)
