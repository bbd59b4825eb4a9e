"""Chinchón in the room: its bots, and a hand analysed in match odds."""

from __future__ import annotations

from cardtui.engine.bots.estimates import Unit
from cardtui.engine.games.entry import Entry
from cardtui.engine.rummy.bots import chinchon as bots
from cardtui.engine.rummy.chinchon import GAME

ENTRY = Entry(
    rules=GAME,
    place=60,
    unit=Unit.MATCH,
    today=bots.normal,
    levels={"easy": bots.easy, "normal": bots.normal, "hard": bots.hard},
    baselines={"chinchon-least": bots.least},
    judged=bots.hard,
)
