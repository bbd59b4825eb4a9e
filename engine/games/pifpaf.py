"""Pif Paf in the room: its bots, a hand analysed for chips, a match with rebuys charted in chips won."""

from __future__ import annotations

from cardtui.engine.bots.estimates import Unit
from cardtui.engine.games.entry import Bench, Chart, Entry, Record
from cardtui.engine.rummy.bots import baselines, pifpaf_hard
from cardtui.engine.rummy.bots import levels as rummy_levels
from cardtui.engine.rummy.bots import pifpaf as today
from cardtui.engine.rummy.pifpaf import GAME


def stake(record: Record) -> float:
    """The antes: the pot every hand starts from (a decision after the betting round is played for the pot,
    ``engine.analysis.at_stake``)."""
    return float(int((record.get("options") or {}).get("ante", 1)) * len(record["seats"]))


def rebuys(record: Record) -> bool:
    """A player who runs out is restocked (the ``rebuy`` option)."""
    return bool((record.get("options") or {}).get("rebuy", False))


ENTRY = Entry(
    rules=GAME,
    place=40,
    unit=Unit.CHIPS,
    today=today.choose,
    levels={"easy": rummy_levels.easy, "normal": rummy_levels.normal, "hard": pifpaf_hard.hard},
    baselines={"pifpaf-isolated": baselines.rummy_isolated},
    judged=pifpaf_hard.hard,
    stake=stake,
    chart=Chart(rebuys=rebuys),
    bench=Bench(night=(4, ("easy", "normal", "hard")), facts_most=12, spoken=0.8, facts=(
        ({}, 3), ({"group_suits": "atleast3", "ace_high": True, "dealer": "rotate"}, 4),
        ({"claim_ms": 0, "ante": 2, "max_bet": 4}, 5))),
)
