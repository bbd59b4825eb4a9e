"""Truco argentino in the room: its bots, a hand analysed in match odds, a match to its target charted by them."""

from __future__ import annotations

from collections.abc import Mapping

from cardtui.engine.bots import odds, pool
from cardtui.engine.bots.estimates import Unit
from cardtui.engine.games.entry import Bench, Chart, Entry, Record
from cardtui.engine.truco.argentino.game import GAME
from cardtui.engine.truco.bots import baselines, today
from cardtui.engine.truco.bots import easy as truco_easy
from cardtui.engine.truco.bots import pool as styles
from cardtui.engine.truco.bots import search as truco_search


def standing(record: Record, held: Mapping[int, int], seat: int) -> float:
    """The chance that the seat's team reaches the table's ``target`` ahead, between equal players
    (``odds.truco``)."""
    theirs = max((v for s, v in held.items() if s % 2 != seat % 2), default=0)
    target = int((record.get("options") or {}).get("target", 30))
    return odds.truco(held.get(seat, 0), theirs, target, False)


ENTRY = Entry(
    rules=GAME,
    place=30,
    unit=Unit.MATCH,
    today=today.choose_argentino,
    levels={"easy": truco_easy.choose, "normal": truco_search.normal, "hard": truco_search.hard},
    baselines={"argentino-simple": baselines.argentino_simple, "argentino-caller": baselines.argentino_caller,
               "always-accept": baselines.answering(baselines.argentino_simple, True),
               "never-accept": baselines.answering(baselines.argentino_simple, False)},
    pool=pool.named(styles.player),
    analysed_unasked=True,
    chart=Chart(standing=standing, even=0.5),
    calls_won=True,
    bench=Bench(night=(2, ("normal", "hard")), sealed=((4, 150.0), (6, 300.0)), facts=(
        ({}, 2),
        ({"ties": "first_trick", "envido_unsuited": "highest", "target": 15}, 2),
        ({"flor": True, "envido_scored": "at_once", "mazo_first": 2}, 4),
        ({"envido_unsuited": "highest", "ties": "first_trick", "flor": True}, 6),
        ({"pica_pica": False, "envido_scored": "at_once", "target": 15}, 6))),
)
