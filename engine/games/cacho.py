"""Cacho in the room: its bots, and a hand analysed for chips."""

from __future__ import annotations

from cardtui.engine.bots import pool
from cardtui.engine.bots.estimates import Unit
from cardtui.engine.cacho.bots import baselines, today
from cardtui.engine.cacho.bots import easy as cacho_easy
from cardtui.engine.cacho.bots import pool as styles
from cardtui.engine.cacho.bots import search as cacho_search
from cardtui.engine.cacho.rules import GAME
from cardtui.engine.games.entry import Bench, Entry, Record


def stake(record: Record) -> float:
    """Cacho's first two bets: what a player in for the third round has put in."""
    return 3.0


ENTRY = Entry(
    rules=GAME,
    place=10,
    unit=Unit.CHIPS,
    today=today.choose,
    levels={"easy": cacho_easy.easy, "normal": cacho_search.normal, "hard": cacho_search.hard},
    baselines={"cacho-value": baselines.cacho_value, "always-call": baselines.cacho_always_call,
               "nuts-call": baselines.cacho_nuts_call},
    pool=pool.named(styles.player),
    analysed_unasked=True,
    stake=stake,
    bench=Bench(night=(4, ("easy", "normal", "hard")), facts=(({}, 2), ({"chips": 6}, 4))),
)
