"""How long a bot takes over each kind of decision, so that it plays at a person's pace.

A table asks ``pace`` what kind of decision a bot's action is and ``delay`` how long to
wait before it, scaled by the table's ``bot_delay`` (1 at a real table; tests run tiny):

- ``QUICK``: a pass in a claim window, a claim or cut, a move the rules force or leave no
  choice in (a knock, an announcement, a flor), a signal — at most 150 ms, so that a signal
  and the card after it cost one delay, not two;
- ``CARD``: playing, drawing or discarding a card, checking, calling or folding a bet — 0.6 to 1.2 s;
- ``CALL``: a truco or envido call, its answer or raise, a bet or raise of chips — 1.2 to 2.5 s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from cardtui.engine.core import Action


class Pace(StrEnum):
    QUICK = "quick"
    CARD = "card"
    CALL = "call"


QUICK_TYPES = frozenset({"claim", "cut", "knock", "announce", "son_buenas", "flor", "signal", "play_blind"})
WINDOW_TYPES = frozenset({"pass", "claim", "cut", "declare", "signal"})
"""All a claim window offers: its pass is quick."""
CALL_TYPES = frozenset({
    "truco", "retruco", "vale_cuatro", "seis", "nove", "doze", "envido", "real_envido", "falta_envido",
    "quiero", "no_quiero", "accept", "run", "contra_flor", "contra_flor_al_resto", "con_flor_me_achico",
    "bet", "raise", "mazo", "reject", "pass_cards",
})
RANGES = {Pace.QUICK: (0.05, 0.15), Pace.CARD: (0.6, 1.2), Pace.CALL: (1.2, 2.5)}
"""Seconds at a ``bot_delay`` of 1."""
QUICK_MAX = 0.15


def pace(action: Action, legal: Sequence[Action]) -> Pace:
    """The kind of decision ``action`` is, among ``legal``."""
    choices = [a for a in legal if a.type != "signal"]
    types = {a.type for a in legal}
    if action.type in QUICK_TYPES or len(choices) <= 1 or (action.type == "pass" and types <= WINDOW_TYPES):
        return Pace.QUICK
    if action.type in CALL_TYPES:
        return Pace.CALL
    return Pace.CARD


def delay(kind: Pace, scale: float, rng: random.Random) -> float:
    """Seconds to wait before a decision of this kind at a table whose ``bot_delay`` is ``scale``."""
    lo, hi = RANGES[kind]
    seconds = scale * (lo + (hi - lo) * rng.random())
    return min(seconds, QUICK_MAX) if kind is Pace.QUICK else seconds
