"""Tricks and team scores, shared by both trucos.

Seats are numbered counter-clockwise around the table, so the player to a seat's right —
the next to receive a card and the next to play — is ``seat + 1`` (mod the number of
seats). The dealer's right-hand neighbour, ``dealer + 1``, is the mão / mano. Teams
alternate seats: ``team = seat % 2``, so partners never sit side by side.

A trick is won by its highest card. Partners tying for the highest card win it for their
team (the earlier of the two holds it and leads next); opponents tying for it leave the
trick to no one. A card played face down cannot win. How a hand of three tricks is
decided after such a tie is the one thing the two games rule differently, so both rulings
sit here side by side in ``hand_winner``.

Scores are team scores. Hand histories attribute them per seat: each seat's delta is what
its team gained (team points, not chips), so deltas do not sum to zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from cardtui.engine.cards import Card, french_deck, spanish_deck
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.history import HandLog

DOWN = -1
"""The strength of a card played face down: below every real card, so it never wins."""

NO_ONE = None


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
    card (or every card went face down). ``first_best`` is the earliest seat holding the
    highest card, the one who leads next after a tie in truco paulista.
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
    and argentino's traditional ruling). LAST_TAKES_ALL: after a tied first trick the next
    trick takes all; after a tied second trick the third takes all; a tied third trick
    goes to the mano's team (seed 003).
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


def trick_record(plays: Sequence[tuple[int, Card | None]], winner: int | None) -> dict[str, Any]:
    """A trick for the hand history: ``{"cards": {seat: card or "down"}, "winner": seat or null}``."""
    return {
        "cards": {str(s): ("down" if c is None else _NOTES[c]) for s, c in plays},
        "winner": winner,
    }


def seat_deltas(points: Sequence[int], n: int) -> dict[str, int]:
    """Each seat's delta is the points its team gained this hand."""
    return {str(s): points[s & 1] for s in range(n)}


def team_points(points: Sequence[int]) -> dict[str, int]:
    return {"0": points[0], "1": points[1]}


def scores_by_seat(scores: Sequence[int], n: int) -> list[int]:
    """The ``start`` of a hand history: each seat's team score."""
    return [scores[s & 1] for s in range(n)]


def team_scores(start: Mapping[str, Any]) -> list[int]:
    """Team scores back from a history's ``start`` (seat 0 holds team 0's, seat 1 team 1's)."""
    return [int(start["0"]), int(start["1"])]


_NOTES = {c: str(c) for c in (*spanish_deck(), *french_deck())}


def note(card: Card) -> str:
    """A card's notation from a table (``str(card)`` is slower, and this runs on every play)."""
    return _NOTES[card]


def notes(cards: Iterable[Card]) -> list[str]:
    return [_NOTES[c] for c in cards]


class HandRecord:
    """A hand's deal and actions, kept as they come and written out only when asked for.

    Writing a history costs more than playing the hand, and most hands' histories are read
    once, at the end; so the hand keeps plain tuples and builds the ``HandLog`` on demand.
    """

    def __init__(
        self,
        game: str,
        options: Mapping[str, Any],
        hand: int,
        seed: int,
        dealer: int,
        seats: Sequence[SeatInfo],
        start: Sequence[int],
    ) -> None:
        self.head = (game, options, hand, seed, dealer, tuple(seats), tuple(start))
        self.deal: list[tuple[int, tuple[Card, ...]]] = []
        self.actions: list[tuple[int, Action, dict[str, Any] | None]] = []

    def dealt(self, seat: int, *cards: Card) -> None:
        self.deal.append((seat, cards))

    def act(self, seat: int, action: Action, extra: dict[str, Any] | None = None) -> None:
        self.actions.append((seat, action, extra))

    def record(self, result: Mapping[str, Any], **more: Any) -> dict[str, Any]:
        game, options, hand, seed, dealer, seats, start = self.head
        log = HandLog(game, options, hand, seed, dealer, seats, start)
        for seat, cards in self.deal:
            log.dealt(seat, *cards)
        for seat, action, extra in self.actions:
            log.act(seat, action, **(extra or {}))
        return log.record(result, **more)


@dataclass(frozen=True, slots=True)
class TrickView:
    """One trick as a view shows it: (seat, card or "down") in the order played, and who won."""

    cards: tuple[tuple[int, str], ...]
    winner: int | None
