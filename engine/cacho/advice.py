"""Why a Cacho decision was flagged, in facts the seat knew (``engine.advice`` has the records): every decision is a
bet, told by the pot against the call and the hand's chance against one hand dealt from the cards unseen."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from cardtui.engine.advice import BetReason, pot_reason
from cardtui.engine.betting import CALL, CHECK, FOLD
from cardtui.engine.cacho.records import CachoView
from cardtui.engine.cacho.records import SeatStatus as CachoStatus
from cardtui.engine.cacho.rules import BET as CACHO_BET
from cardtui.engine.cacho.rules import DECK as CACHO_DECK
from cardtui.engine.cacho.rules import PASS as CACHO_PASS
from cardtui.engine.cacho.rules import strength
from cardtui.engine.cards import Card
from cardtui.engine.core import Action

STAY = frozenset({CACHO_BET})
"""In rounds 1 and 2 there is no call: to stay in is to bet."""


def reason(view: CachoView, legal: Sequence[Action]) -> BetReason | None:
    """A Cacho bet's reason (``engine.advice``): the pot against the call, and how often the hand beats one hand
    dealt from the cards unseen."""
    if view.you is None or not any(a.type in (CACHO_BET, CACHO_PASS, FOLD, CALL, CHECK) for a in legal):
        return None
    me = view.seats[view.you]
    opponents = sum(1 for s in view.seats if s.status is CachoStatus.IN and s.seat != me.seat)
    chance = heads_up(tuple(sorted(me.cards, key=str))) if me.cards else -1.0
    return pot_reason(view.pot, legal, chance, opponents, STAY)


@cache
def _every_three() -> tuple[tuple[int, tuple[int, int]], ...]:
    """Each hand of three of the deck, as the set of its cards' places in it (bits of an int), with its strength:
    worked out once, for every hand ``_against`` is asked about (a hand of one card looks at 253 completions, each
    against the 1,330 hands of three left)."""
    return tuple((sum(1 << i for i in three), strength([CACHO_DECK[i] for i in three]))
                 for three in combinations(range(len(CACHO_DECK)), 3))


@cache
def _against(cards: tuple[Card, ...]) -> float:
    """Three cards against every hand of three dealt from the rest of the deck: how often they win, a tie half."""
    mine = strength(cards)
    held = sum(1 << i for i, c in enumerate(CACHO_DECK) if c in cards)
    hands = [theirs for three, theirs in _every_three() if not three & held]
    return sum(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0 for theirs in hands) / len(hands)


@cache
def heads_up(cards: tuple[Card, ...]) -> float:
    """How often these Cacho cards, completed to three from the rest of the deck, beat a hand of three dealt from
    what is left, a tie counted half: worked out over every completion and every hand, not sampled."""
    if len(cards) >= 3:
        return _against(tuple(sorted(cards, key=str)))
    rest = [c for c in CACHO_DECK if c not in cards]
    completions = list(combinations(rest, 3 - len(cards)))
    return sum(_against(tuple(sorted((*cards, *more), key=str))) for more in completions) / len(completions)
