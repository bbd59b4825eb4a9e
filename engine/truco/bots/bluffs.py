"""How often truco's bots bluff an envido: the frequency of ``engine.bots.bluffs`` for the envido's own stakes,
from how often a dealt hand of truco argentino holds a value envido and a weak one."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from cardtui.engine.bots.bluffs import bluff_rate
from cardtui.engine.truco.argentino.rules import DECK as ARG_DECK
from cardtui.engine.truco.envido import envido

ENVIDO_VALUE = 27
"""An envido that bets for value (the search bets these as it likes)."""
ENVIDO_WEAK = 24
"""Below this an envido is weak: it bets only as a bluff, and only plain envido (never real or
falta: refused they pay 2 or 1, accepted they lose 3 or the match)."""



@cache
def envido_odds() -> tuple[float, float]:
    """How often a dealt hand of truco argentino has a value envido (``ENVIDO_VALUE`` or more) and a
    weak one (below ``ENVIDO_WEAK``), over every three cards of the deck (by the two best cards)."""
    value = weak = total = 0
    for hand in combinations(ARG_DECK, 3):
        points = envido(hand)[0]
        total += 1
        value += points >= ENVIDO_VALUE
        weak += points < ENVIDO_WEAK
    return value / total, weak / total


def envido_bluff_rate() -> float:
    """The chance to open an envido (2, or 1 refused) on a weak hand."""
    value, weak = envido_odds()
    return bluff_rate(1, 2, value, weak)
