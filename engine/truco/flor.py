"""Flor, the table option ``flor`` of truco argentino (docs/rules.md §4: "flor per common rules").

A player whose three cards are all of one suit holds a flor, worth 20 + the three cards'
envido values (10, 11 and 12 count 0; the best is 7-6-5 suited, 38). Flor is not optional:
its holder sings **Flor** before playing a first card. A round in which a flor is sung
plays no envido. How it is played at the table is ``engine.truco.argentino.flor``; what it
pays is here:

====================================  ==========================  =====================
calls                                 accepted                    refused
====================================  ==========================  =====================
Flor, no flor against it              3 for each flor sung        —
Flor met by a flor: *con flor me      —                           4 to the flor
achico*
Flor + Contra flor                    6 to the best flor          4 to contra flor
Flor + Contra flor al resto           the *resto*, best flor      4 to its caller
Flor + Contra flor + Contra flor al   the *resto*, best flor      6 to its caller
resto
====================================  ==========================  =====================

A refused call pays its caller what the flor stood at before it: 4 for a flor met by a
flor, 6 once a contra flor has been raised. The *resto* is what the leading team lacks to
win, as for falta envido. Flores compare by value; an equal flor goes to the player
nearer the mano.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtui.engine.cards import Card
from cardtui.engine.truco.envido import card_points
from cardtui.engine.truco.ladder import Bet, Word

ALONE = 3
"""Each flor sung with no flor against it."""
MET = 4
"""A flor met by a flor that folds (*con flor me achico*), or a contra flor refused."""
CONTRA = 6
"""An accepted contra flor, to the best flor; also a refused contra flor al resto after it."""

FLOR, CONTRA_FLOR, RESTO, ACHICO = Word.FLOR, Word.CONTRA_FLOR, Word.CONTRA_FLOR_AL_RESTO, Word.CON_FLOR_ME_ACHICO


def flor_value(cards: Sequence[Card]) -> int:
    """A hand's flor: 20 + the envido values of three cards of one suit, or -1 without one."""
    if len(cards) != 3:
        return -1
    a, b, c = cards
    return of_three(card_points(a), card_points(b), card_points(c), a.suit == b.suit == c.suit)


def of_three(pa: int, pb: int, pc: int, one_suit: bool) -> int:
    """``flor_value`` of a dealt hand from its cards' envido points and whether they share a suit."""
    return 20 + pa + pb + pc if one_suit else -1


class FlorTable:
    """The flor's calls as a ladder table: a flor is met with contra flor or folded."""

    def __deepcopy__(self, memo: dict[int, object]) -> FlorTable:
        return self  # the table: immutable and shared, by copies too

    bet = Bet.FLOR

    def raises(self, calls: Sequence[Word]) -> tuple[Word, ...]:
        if not calls:
            return (FLOR,)
        if calls[-1] is FLOR:
            return (CONTRA_FLOR, RESTO)
        if calls[-1] is CONTRA_FLOR:
            return (RESTO,)
        return ()

    def acceptable(self, calls: Sequence[Word]) -> bool:
        """A flor met by a flor is raised or folded (con flor me achico), never just accepted."""
        return bool(calls) and calls[-1] is not FLOR

    def accepted(self, calls: Sequence[Word], resto: int) -> int:
        if calls and calls[-1] is RESTO:
            return resto
        return CONTRA if CONTRA_FLOR in calls else ALONE

    def refused(self, calls: Sequence[Word]) -> int:
        return CONTRA if calls and calls[-1] is RESTO and CONTRA_FLOR in calls else MET


TABLE = FlorTable()
