"""Playing again: at a match's end, each person staying asks for the same seats or the seats swapped.

The next match starts once every person seated with the table open (not away, a bot playing for
them) has asked, all for the same thing; a person who leaves meanwhile leaves their seat to a bot
(``Seating.forget_left``) and is waited for no more. When the table's time for it runs out (its
turn timer), the match starts with what most asked for, the same seats on a tie or when nobody
asked: a person who said nothing stays.

Seats swapped means a new order at the table: in a team game the partners change (the second and
third seats trade places, so each pair of partners is split; one against one, the two trade), in
the others the order goes the other way round (whoever played after you plays before you).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from cardtui.engine.core import EventBody


class Choice(StrEnum):
    """What a person staying asks for (table.proto's ``RematchChoice``)."""

    SAME = "same"
    SWAP = "swap"


@dataclass(frozen=True, slots=True)
class RematchVoted(EventBody):
    """A person's answer, which everyone at the table sees (the summary says who stays)."""

    seat: int
    name: str
    choice: Choice


def swapped(seats: int, teams: bool) -> tuple[int, ...]:
    """The seats' new order: the seat each new seat's holder comes from (``MatchStarted.seats_from``)."""
    if seats == 2:
        return (1, 0)
    if teams:  # the second and third trade: every pair of partners is split
        order = list(range(seats))
        order[1], order[2] = order[2], order[1]
        return tuple(order)
    return tuple(reversed(range(seats)))


def agreed(votes: Mapping[int, Choice], voters: Iterable[int]) -> Choice | None:
    """What everyone staying asked for, once each of ``voters`` has and all the same; else None."""
    asked = [votes.get(seat) for seat in voters]
    if not asked or any(choice is None for choice in asked):
        return None
    first = asked[0]
    return first if all(choice == first for choice in asked) else None


def outcome(votes: Mapping[int, Choice]) -> Choice:
    """What most asked for when the time ran out: the same seats on a tie, or when nobody asked."""
    swaps = sum(1 for choice in votes.values() if choice is Choice.SWAP)
    return Choice.SWAP if swaps > len(votes) - swaps else Choice.SAME
