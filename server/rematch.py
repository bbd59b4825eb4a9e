"""Playing again: at a match's end, each person staying asks for the same seats or the seats swapped.

The next match starts once every person seated with the table open (not away, a bot playing for
them) has asked, all for the same thing; a person who leaves meanwhile leaves their seat to a bot
(``Seating.forget_left``) and is waited for no more. When the table's time for it runs out (its
turn timer), the match starts with what most asked for, the same seats on a tie or when nobody
asked: a person who said nothing stays.

Seats swapped means a new order at the table: in a team game the partners change (the second and
third seats trade places, so each pair of partners is split; one against one, the two trade), in
the others the order goes the other way round (whoever played after you plays before you).

A table's ``Rematcher`` holds the answers (``votes``) from a match's end to the next match's commitment,
where they are settled (``settle``): a vote after it would let whoever casts it pick between two decks, so
it is refused, and the seats move when that hand is dealt (``apply``). The rules it follows are the
functions below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from cardtui.engine.core import Event, EventBody
from cardtui.server.errors import FailedPrecondition

if TYPE_CHECKING:
    from cardtui.server.table import Notes, Table


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


@dataclass(frozen=True, slots=True)
class Decided:
    """How the next match's seats were chosen, as its ``MatchStarted`` says it."""

    same: int
    swap: int
    agreed: bool
    """Everyone staying asked for the same (else the time ran out: ``outcome``)."""
    chosen_by: tuple[str, ...]
    """Who asked for the choice that won, by name."""

    def data(self) -> dict[str, Any]:
        """As the journal keeps it (with the commitment that fixed it)."""
        return {"same": self.same, "swap": self.swap, "agreed": self.agreed, "chosen_by": list(self.chosen_by)}

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Decided:
        return cls(int(data["same"]), int(data["swap"]), bool(data["agreed"]), tuple(map(str, data["chosen_by"])))


class Rematcher:
    """At a table's match's end, who stays and in which seats; the next match waits for them."""

    def __init__(self, table: Table, note: Notes, next_match: Callable[[], None]) -> None:
        self.table = table
        self.note = note
        self.next_match = next_match
        """The table deals the next match now (``Table._next_hand``)."""
        self.votes: dict[int, Choice] | None = None
        """At a match's end, what each person staying asked for; None otherwise."""

    def ask(self) -> bool:
        """A match ended: if anyone here may answer (not at a tournament's table), the next match waits for the
        people staying to agree, at most the turn timer. Whether it does."""
        table = self.table
        if table.config.tournament or not self._voters():
            return False
        self.votes = {}
        table.pacer.next_hand(max(table.config.next_hand_delay, table.config.turn_seconds), self.next_match)
        return True

    def vote(self, seat: int, choice: Choice) -> None:
        """A person staying for the next match asks for the same seats or the seats swapped."""
        cut = self.table.dealing.cut
        if self.votes is None and cut is not None and cut.new_match:
            raise FailedPrecondition("The next match's seats are settled: its deal is committed. Ask again when"
                                     " it ends.")
        if self.votes is None:
            raise FailedPrecondition("There is no match to play again now: that is asked when a match ends.")
        self.votes[seat] = choice
        self.table.back(seat)
        self.note([Event(RematchVoted(seat, self.table.seating[seat].name, choice))])
        self._maybe()

    def left(self, seat: int) -> None:
        """The person at ``seat`` left: the next match waits for one fewer, and the others may all agree now."""
        if self.votes is not None:
            self.votes.pop(seat, None)
            self._maybe()

    def settle(self) -> tuple[tuple[int, ...], Decided | None]:
        """A new match's deal is being committed: what the people staying asked for is settled now, before any
        seed of its deal is seen (docs/deal.md §1), and the vote is over. The seats' new order, or () if they
        stay, and how it was decided (None: nobody was asked). ``apply`` swaps them when the hand is dealt."""
        table = self.table
        votes, self.votes = self.votes, None
        if votes is None:
            return (), None
        won = outcome(votes)
        decided = Decided(same=sum(1 for c in votes.values() if c is Choice.SAME),
                          swap=sum(1 for c in votes.values() if c is Choice.SWAP),
                          agreed=agreed(votes, self._voters()) is not None,
                          chosen_by=tuple(table.seating[seat].name for seat, c in votes.items() if c is won))
        if won is not Choice.SWAP:
            return (), decided
        return swapped(len(table.seating), table.rules.teams), decided

    def apply(self, order: tuple[int, ...]) -> None:
        """The new match is dealt: the seats take the order its commitment fixed (the tokens, the streams and
        the store follow their holders)."""
        if not order:
            return
        table = self.table
        table.seating.permute(order)
        for sub in table.fanout.subscribers:
            if sub.seat is not None:
                sub.seat = order.index(sub.seat)
        table.journal.moved(table, order)
        table.journal.seats(table)

    def _voters(self) -> list[int]:
        """Whose answer the next match waits for: people seated here with the table open, playing their
        seats themselves (not one a bot plays for them while they are away)."""
        here = {sub.token for sub in self.table.fanout.subscribers}
        return [s.index for s in self.table.seating.seats if s.token is not None and not s.bot and s.token in here]

    def _maybe(self) -> None:
        if self.votes is not None and agreed(self.votes, self._voters()) is not None:
            self.table.pacer.next_hand(0.0, self.next_match)  # everyone staying agrees: now
