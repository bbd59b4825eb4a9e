"""A Cacho bot that bets by hand strength.

It estimates the chance its hand beats one opponent's (exactly at three cards, by a fixed
sample before that), raises that to the number of opponents still in, and then bets when
the hand is worth it, calls when the pot pays for the risk, and passes weak hands.
It sees only its seat's view.
"""

from __future__ import annotations

import random
import zlib
from functools import lru_cache
from itertools import combinations

from cardtui.engine.betting import BET as RAISE_FIRST
from cardtui.engine.betting import CALL, CHECK, FOLD, RAISE
from cardtui.engine.cacho.rules import BET, DECK, PASS, CachoView, SeatStatus, strength
from cardtui.engine.cards import Card
from cardtui.engine.core import Action

_SAMPLES = 400


def _beats(mine: tuple[int, int], theirs: tuple[int, int]) -> float:
    if mine > theirs:
        return 1.0
    return 0.5 if mine == theirs else 0.0


@lru_cache(maxsize=4096)
def heads_up(cards: tuple[Card, ...]) -> float:
    """Chance that these cards, completed to three, beat one random opponent's three."""
    rest = [c for c in DECK if c not in cards]
    if len(cards) == 3:
        mine = strength(cards)
        hands = list(combinations(rest, 3))
        return sum(_beats(mine, strength(h)) for h in hands) / len(hands)
    rng = random.Random(zlib.crc32(" ".join(map(str, cards)).encode()))  # same sample each time
    total = 0.0
    need = 3 - len(cards)
    for _ in range(_SAMPLES):
        drawn = rng.sample(rest, need + 3)
        total += _beats(strength(cards + tuple(drawn[:need])), strength(drawn[need:]))
    return total / _SAMPLES


def choose(view: CachoView, legal: list[Action], rng: random.Random) -> Action:
    """The bot's action for ``view.you`` among ``legal`` (never empty)."""
    me = view.seats[view.you or 0]
    cards = me.cards
    opponents = sum(1 for s in view.seats if s.status is SeatStatus.IN and s.seat != me.seat)
    kinds = {a.type: a for a in legal}
    if opponents == 0 and BET in kinds and view.round < 3:
        return kinds[BET]  # everyone else passed: a lone bettor takes the pot back unseen
    p = heads_up(tuple(sorted(cards))) ** max(1, opponents)
    fair = 1.0 / (opponents + 1)
    noise = rng.uniform(-0.05, 0.05)
    if view.round == 1:
        return kinds[BET] if p + noise >= 0.8 * fair else kinds[PASS]
    if view.round == 2:
        return kinds[BET] if p + noise >= fair else kinds[PASS]
    # Round 3: poker-style.
    raises = [a for a in legal if a.type in (RAISE, RAISE_FIRST)]
    if raises and p + noise > max(0.55, fair * 1.3):
        # Bet more with a stronger hand, within the resto.
        span = len(raises)
        pick = min(span - 1, int(span * min(1.0, (p - fair) * 2)))
        if view.level == 0 or rng.random() < 0.7:
            return raises[pick]
    if CHECK in kinds:
        return kinds[CHECK]
    call = kinds.get(CALL)
    if call is not None:
        odds = call.amount / (view.pot + call.amount)
        if p + noise >= odds:
            return call
    return kinds[FOLD]
