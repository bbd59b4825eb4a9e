"""The plain exhaustive meld search: the yardstick the fast search is tested and timed against.

Slow on purpose and obviously correct; nothing in play uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from cardtui.engine.cards import Card
from cardtui.engine.rummy.melds import Ruleset, index, is_meld, layout


class Exhaustive:
    """Every subset holding the first card is tried as a meld, then the rest, recursively.

    Only cards sharing the first card's rank or suit (or wild cards) can join its meld, so
    only those are combined; wild cards sort last so the first card is natural when it can be.
    """

    def __init__(self, rules: Ruleset, wilds: Sequence[Card]) -> None:
        self.rules = rules
        self.kinds = layout(rules.pack).kinds
        self.wild = frozenset(wilds) if rules.wild_acts else frozenset()
        self.valid = lru_cache(maxsize=None)(self._valid)
        self.part = lru_cache(maxsize=None)(self._part)
        self.fits = lru_cache(maxsize=None)(self._fits)

    def _fits(self, card: Card) -> tuple[Card, ...]:
        """The cards a wild card may stand for in a meld with ``card``: those of its rank or of its suit."""
        return tuple(x for x in self.kinds if x.rank == card.rank or x.suit is card.suit)

    def _valid(self, meld: tuple[Card, ...]) -> bool:
        if is_meld(meld, self.rules):
            return True
        for i, c in enumerate(meld):  # one wild card acting as any card that fits
            if c in self.wild:
                rest = meld[:i] + meld[i + 1 :]
                if any(is_meld((*rest, x), self.rules) for x in self.fits(rest[0])):
                    return True
        return False

    def _part(self, cards: tuple[Card, ...]) -> bool:
        if not cards:
            return True
        first, rest = cards[0], cards[1:]
        if first in self.wild:
            near = list(range(len(rest)))
        else:
            near = [i for i, c in enumerate(rest) if c.rank == first.rank or c.suit is first.suit or c in self.wild]
        for size in range(2, len(near) + 1):
            for combo in combinations(near, size):
                meld = (first, *(rest[i] for i in combo))  # in hand order: a canonical key
                if self.valid(meld) and self.part(tuple(c for i, c in enumerate(rest) if i not in combo)):
                    return True
        return False

    def all_melded(self, hand: Sequence[Card]) -> bool:
        return self.part(tuple(sorted(hand, key=lambda c: (c in self.wild, index(c)))))

    def discards(self, hand: Sequence[Card]) -> tuple[Card, ...]:
        out = set()
        for i, c in enumerate(hand):
            if self.all_melded(tuple(hand[:i]) + tuple(hand[i + 1 :])):
                out.add(c)
        return tuple(sorted(out, key=index))

    def goes_out(self, hand: Sequence[Card]) -> bool:
        return self.all_melded(hand) or bool(self.discards(hand))

    def completing(self, hand: Sequence[Card]) -> tuple[Card, ...]:
        return tuple(x for x in self.kinds if hand.count(x) < 2 and self.goes_out((*hand, x)))

    def least_points(self, hand: Sequence[Card]) -> int:
        """The fewest points (``Ruleset.points``; with none, cards) a hand can leave outside melds: its part that
        melds whole and leaves the least out, tried every way."""
        points = self.rules.points

        def worth(cards: Sequence[Card]) -> int:
            return sum(points[c.rank] for c in cards) if points else len(cards)

        best = worth(hand)
        for k in range(len(hand), 2, -1):
            for part in combinations(range(len(hand)), k):
                if self.all_melded([hand[i] for i in part]):
                    best = min(best, worth([c for i, c in enumerate(hand) if i not in part]))
        return best
