"""Tricks and team scores, shared by both trucos.

Seats are numbered counter-clockwise around the table, so the player to a seat's right —
the next to receive a card and the next to play — is ``seat + 1`` (mod the number of
seats). The dealer's right-hand neighbour, ``dealer + 1``, is the mão / mano. Teams
alternate seats: ``team = seat % 2``, so partners never sit side by side.

A trick is won by its highest card. Partners tying for the highest card win it for their
team (the earlier of the two holds it and leads next); opponents tying for it leave the
trick to no one. A card played face down cannot win, nor (truco argentino) a card of a
player who has since gone to the deck. How a hand of three tricks is decided after such a
tie is the one thing the two games rule differently, so both rulings sit here side by
side in ``hand_winner``.

Scores are team scores. Hand histories attribute them per seat: each seat's delta is what
its team gained (team points, not chips), so deltas do not sum to zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from cardtui.engine.cards import Card

DOWN = -1
"""The strength of a card that cannot win (face down, or its player went to the deck)."""


def team_of(seat: int) -> int:
    return seat & 1


def partners(seat: int, n: int) -> tuple[int, ...]:
    """The other seats of ``seat``'s team at a table of ``n``."""
    return tuple(s for s in range(seat & 1, n, 2) if s != seat)


def opponents(seat: int, n: int) -> tuple[int, ...]:
    return tuple(range(1 - (seat & 1), n, 2))


def rotation(first: int, seats: Sequence[int]) -> list[int]:
    """``seats`` (in play order) starting from ``first``, going on to the right."""
    i = seats.index(first)
    return [*seats[i:], *seats[:i]]


def strength_table(order: Iterable[Iterable[Card]]) -> dict[Card, int]:
    """Card → strength from a ranking written high to low, one group of equals per entry."""
    groups = list(order)
    return {card: len(groups) - i for i, group in enumerate(groups) for card in group}


def trick_winner(plays: Sequence[tuple[int, int]]) -> tuple[int | None, int | None]:
    """``(winner, first_best)`` of a trick given ``(seat, strength)`` in the order played.

    ``winner`` is the seat that takes the trick, or None when opponents tie for the highest
    card (or no card could win). ``first_best`` is the earliest seat holding the highest
    card, the one who leads next after a tie in truco paulista.
    """
    best = DOWN
    seat: int | None = None
    tied = False
    for s, v in plays:
        if v > best:
            best, seat, tied = v, s, False
        elif v == best and seat is not None and (s ^ seat) & 1:
            tied = True
    if seat is None or tied:
        return None, seat
    return seat, seat


class TieRule(StrEnum):
    """How a hand is decided when a trick ties.

    FIRST_DECIDED: whoever won the first decided trick wins on any tie (truco paulista,
    and argentino's first_trick ties). LAST_TAKES_ALL: after a tied first trick the next
    trick takes all; after a tied second trick the third takes all; a tied third trick
    goes to the mano's team (docs/rules.md §4).
    """

    FIRST_DECIDED = "first_decided"
    LAST_TAKES_ALL = "last_takes_all"


def hand_winner(results: Sequence[int | None], mano_team: int, rule: TieRule) -> int | None:
    """The team that has won the hand from the tricks so far (team or None per trick), or None."""
    wins = [0, 0]
    first: int | None = None
    tie = False
    for r in results:
        if r is None:
            tie = True
        else:
            wins[r] += 1
            if first is None:
                first = r
    if wins[0] >= 2:
        return 0
    if wins[1] >= 2:
        return 1
    k = len(results)
    if rule is TieRule.FIRST_DECIDED:
        if tie and first is not None:
            return first
        return mano_team if k >= 3 else None
    if k == 2 and results[0] is None and results[1] is not None:
        return results[1]
    if k >= 3:
        last = results[2]
        return mano_team if last is None else last
    return None


# -- team scores in hand histories ---------------------------------------------------
def scores_by_seat(scores: Sequence[int], n: int) -> list[int]:
    """The ``start`` of a hand history: each seat's team score."""
    return [scores[s & 1] for s in range(n)]
