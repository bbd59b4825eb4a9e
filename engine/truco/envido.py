"""Envido (docs/rules.md §4): what a hand is worth, and what a bet pays.

A card counts its number, except 10, 11 and 12, which count 0. Two cards of one suit
score their sum + 20. A hand with no two of a suit scores, by the option
``envido_unsuited``, the sum of its two best cards (``sum_two``, the seed) or its single
best card (``highest``, the traditional count).

Bets, per the seed's table: Envido pays 2, Real Envido 3, and re-raised bets add up;
a refused bet pays what was bet before the last call plus what the last call alone pays
when refused (Envido 1, Real Envido 2). Falta Envido pays what the leading team lacks to
win, whatever was bet before it; refused, it pays what was bet before it (1 if nothing).
The table of calls is ``TABLE``, a ladder table (``engine.truco.ladder``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from cardtui.engine.cards import Card
from cardtui.engine.truco.ladder import Bet, Word


class Unsuited(StrEnum):
    SUM_TWO = "sum_two"
    HIGHEST = "highest"


ENVIDO: Final[Word] = Word.ENVIDO
REAL: Final[Word] = Word.REAL_ENVIDO
FALTA: Final[Word] = Word.FALTA_ENVIDO
"""The three calls, each typed on its own: a module compiled beside this one (``tools.native``) reads them."""

VALUE = {ENVIDO: 2, REAL: 3}
"""What each call adds to an accepted bet (Falta Envido replaces the sum)."""

ALONE_FOLD = {ENVIDO: 1, REAL: 2, FALTA: 1}
"""What the last call pays when refused, on top of what was bet before it."""

NEXT: dict[tuple[Word, ...], tuple[Word, ...]] = {
    (): (ENVIDO, REAL, FALTA),
    (ENVIDO,): (ENVIDO, REAL, FALTA),
    (REAL,): (REAL, FALTA),
    (ENVIDO, ENVIDO): (REAL, FALTA),
    (ENVIDO, REAL): (FALTA,),
    (REAL, REAL): (FALTA,),
    (ENVIDO, ENVIDO, REAL): (FALTA,),
}
"""The calls that may follow a sequence: exactly the sequences of the seed's table,
a raise never smaller than the bet before it, and Falta Envido after any of them."""


def accepted_value(calls: Sequence[Word], falta_points: int) -> int:
    if calls and calls[-1] is FALTA:
        return falta_points
    return sum(VALUE[c] for c in calls)


def refused_value(calls: Sequence[Word]) -> int:
    before = sum(VALUE[c] for c in calls[:-1] if c is not FALTA)
    last = calls[-1]
    if last is FALTA:
        return before or 1
    return before + ALONE_FOLD[last]


class EnvidoTable:
    """The envido's calls as a ladder table."""

    def __deepcopy__(self, memo: dict[int, object]) -> EnvidoTable:
        return self  # the table: immutable and shared, by copies too

    bet = Bet.ENVIDO

    def raises(self, calls: Sequence[Word]) -> tuple[Word, ...]:
        return NEXT.get(tuple(calls), ())

    def acceptable(self, calls: Sequence[Word]) -> bool:
        return True

    def accepted(self, calls: Sequence[Word], resto: int) -> int:
        return accepted_value(calls, resto)

    def refused(self, calls: Sequence[Word]) -> int:
        return refused_value(calls)


TABLE = EnvidoTable()


def falta(scores: Sequence[int], target: int) -> int:
    """What the leading team lacks to win (at least 1)."""
    return max(1, target - max(scores))


def card_points(card: Card) -> int:
    return _POINTS[card.rank]


_POINTS = (0, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0)
"""Envido points by rank: the number, except 10, 11 and 12 (and 8, 9, 13, absent here), 0."""


def envido(cards: Sequence[Card], unsuited: Unsuited = Unsuited.SUM_TWO) -> tuple[int, tuple[Card, ...]]:
    """A hand's envido score and the cards that make it (what the winner shows)."""
    if len(cards) != 3:
        return _envido(cards, unsuited)
    a, b, c = cards
    sa, sb, sc = a.suit, b.suit, c.suit
    return of_three(a, b, c, _POINTS[a.rank], _POINTS[b.rank], _POINTS[c.rank], sa is sb, sa is sc, sb is sc,
                    unsuited is Unsuited.HIGHEST)


def of_three(a: Card, b: Card, c: Card, pa: int, pb: int, pc: int, ab: bool, ac: bool, bc: bool, highest: bool
             ) -> tuple[int, tuple[Card, ...]]:
    """``envido`` of a dealt hand from its cards' points and which pairs share a suit: the deal
    reads these from tables by the cards' places in the deck, without touching the cards."""
    best = -1
    used: tuple[Card, ...] = ()
    if ab:
        best, used = pa + pb + 20, (a, b)
    if ac and pa + pc + 20 > best:
        best, used = pa + pc + 20, (a, c)
    if bc and pb + pc + 20 > best:
        best, used = pb + pc + 20, (b, c)
    if best >= 0:
        return best, used
    # No two of a suit: the best cards, the earlier one first on equal points.
    if highest:
        if pa >= pb and pa >= pc:
            return pa, (a,)
        return (pb, (b,)) if pb >= pc else (pc, (c,))
    low = min(pa, pb, pc)
    if pc == low:
        x, y, px, py = a, b, pa, pb
    elif pb == low:
        x, y, px, py = a, c, pa, pc
    else:
        x, y, px, py = b, c, pb, pc
    if py > px:
        x, y = y, x
    return px + py, (x, y)


def _envido(cards: Sequence[Card], unsuited: Unsuited) -> tuple[int, tuple[Card, ...]]:
    """The general count, for hands of any size."""
    best, used = _best_suited(cards)
    if best >= 0:
        return best, used
    ranked = sorted(cards, key=card_points, reverse=True)
    if unsuited is Unsuited.HIGHEST or len(ranked) < 2:
        top = ranked[:1]
        return sum(card_points(c) for c in top), tuple(top)
    top = ranked[:2]
    return card_points(top[0]) + card_points(top[1]), tuple(top)


def _best_suited(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best two cards of one suit, the first such pair on equal scores (-1: none)."""
    best = -1
    used: tuple[Card, ...] = ()
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            if a.suit == b.suit:
                score = card_points(a) + card_points(b) + 20
                if score > best:
                    best, used = score, (a, b)
    return best, used
