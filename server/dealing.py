"""A table's fair deals (``cardtui.fair``, docs/deal.md): commitment, cut window, seeds and pledges, reveal.

Every hand is cut before it is dealt: the table draws a secret seed and publishes its commitment
(``DealCommitted``), naming the link each pledged seat's next seed must follow; it waits at most
the cut window for those links (``take_cut``), then deals from all of them; the hand's end
reveals them (``DealRevealed``). A new match first waits, at most the cut window too, for the
streams of the people just seated to open, so that each sees the commitment it may cut.

``Dealing`` holds the hand being cut (``Cut``) and the seed the hand in play was dealt from; the
table's actor deals the hand (``Table._deal``: the seats, the match, the journal) with the seed
the cut gives (``seed``). What a restart needs of a cut is journaled as steps: ``commit`` (the
commitment published, with the server's seed), ``seed`` (a seat's link taken) and ``void`` (the
deal dropped: the seats emptied before a new match).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from cardtui.engine.core import Event
from cardtui.engine.fairness import SCHEME, DealSeed, Seed, commitment, record_seed
from cardtui.fair import before
from cardtui.server.events import DealCommitted, DealRevealed, PlayerPledge, PlayerSeed

if TYPE_CHECKING:
    from cardtui.server.table import Notes, Table


@dataclass
class Cut:
    """A hand being cut: the server's seed is committed, the players' seeds are coming in."""

    hand: int
    """The table's hand number (the hand history's), counted across matches."""
    server_seed: bytes
    new_match: bool
    waiting: set[int]
    """Seats whose link the deal still waits for: the pledged people seated here with a stream open."""
    seeds: dict[int, bytes] = field(default_factory=dict)
    awaited: tuple[int, ...] = ()
    """Every person seated with a stream open when it was committed (what the reveal and the history say)."""
    follows: dict[int, bytes] = field(default_factory=dict)
    """Each pledged seat among them and what its link must follow (``cardtui-deal/2``): the commitment names
    them, and the deal waits for their links (``waiting``)."""


class Deals(Protocol):
    """The table's way to deal the hand being cut (``Table._deal``), given its commitment if not yet published."""

    def __call__(self, committed: tuple[Event, ...] = ()) -> None: ...


class Dealing:
    """A table's cuts and the seed of the hand in play, from commitment to reveal."""

    def __init__(self, table: Table, note: Notes, deal: Deals) -> None:
        self.table = table
        self.note = note
        self.deal = deal
        self.cut: Cut | None = None
        """The hand being cut, between its commitment and its deal."""
        self.starting = False
        """A new match waits, at most the cut window, for the seated people's streams to open."""
        self.deal_seed: DealSeed | None = None
        """What the hand in play was dealt from, until its end reveals it."""
        self.awaited: tuple[int, ...] = ()
        """The seats whose seeds the hand in play waited for: a seat here with no seed in the deal was dropped."""

    # -- a new match: waiting for the people seated ---------------------------------------------
    def start(self, wait: bool = True) -> None:
        """Cut a new match's first hand once every seat is filled (nothing if a match or a cut is on)."""
        table = self.table
        if table.match is not None or self.cut is not None or self.starting or not table.seating.full or table.closed:
            return
        if wait and table.config.cut_window > 0 and self._absent():
            # Whoever filled the last seat is still opening their stream: a hand committed now
            # would be dealt before they could see its commitment, and cut it, and check it.
            self.starting = True
            table.pacer.cut(table.config.cut_window, self._start_anyway)
            return
        self.commit(new_match=True)

    def opened(self) -> None:
        """A stream was opened: the last one a new match waited for starts it now."""
        if self.starting and not self._absent():
            self.table.pacer.stop_cut()
            self._start_anyway()

    def _absent(self) -> bool:
        """Someone seated here (not away) has no stream open."""
        table = self.table
        here = {sub.token for sub in table.fanout.subscribers}
        return any(seat.token is not None and not seat.botted and seat.token not in here
                   for seat in table.seating.seats)

    def _start_anyway(self) -> None:
        self.starting = False
        self.start(wait=False)

    # -- commit, cut, deal ------------------------------------------------------------------------
    def commit(self, new_match: bool) -> None:
        """Draw the hand's secret seed and publish its commitment, the hand's first event;
        then wait for the seated people's seeds, at most ``cut_window`` seconds."""
        table = self.table
        server_seed = secrets.token_bytes(32)
        # Everyone seated here with a stream open, away or not: each of their clients sees this
        # commitment as it happens, cuts, and counts itself waited for (a bot standing in for a
        # person away plays their cards, but the deck is theirs to cut all the same).
        here = {
            sub.seat for sub in table.fanout.subscribers
            if sub.seat is not None and table.seating[sub.seat].token == sub.token
        }
        # Of those, each whose client pledged a chain gives this hand the link that follows what its seat's
        # pledge stands at (docs/deal.md §3a): named now, before anyone's link is sent.
        follows = {seat: pledge for seat in sorted(here) if (pledge := table.seating[seat].pledge) is not None}
        window = table.config.cut_window if follows else 0.0
        self.cut = Cut(table.hands_played + 1, server_seed, new_match, set(follows), awaited=tuple(sorted(here)),
                       follows=follows)
        pledges = tuple(PlayerPledge(seat, value) for seat, value in follows.items())
        committed = Event(DealCommitted(self.cut.hand, commitment(server_seed), int(window * 1000), SCHEME, pledges))
        if follows and window > 0:
            # Journaled with its seed, so that a restart cuts this deal on rather than commit
            # to another deck for the hand.
            self.note([committed], ("commit", None, {"hand": self.cut.hand, "server_seed": server_seed.hex(),
                                                     "new_match": new_match, "awaited": list(self.cut.awaited),
                                                     "follows": {str(s): v.hex() for s, v in follows.items()}}))
            table.pacer.cut(window, self.deal)
        else:  # nobody to wait for: the commitment goes out with the deal, one message, not two
            self.deal((committed,))

    def take_cut(self, seat: int, hand: int, seed: bytes) -> bool:
        """A seated person's link for the hand being cut; False (and unused) if it is too late, for another
        hand, a second one, or not the link that follows what the commitment named for the seat (a seed chosen
        now, after others' could be seen). The last link awaited deals at once."""
        table = self.table
        cut = self.cut
        held = table.seating[seat]
        if held.pledge is not None and before(seed) == held.pledge and not (cut is not None and cut.hand == hand
                                                                               and seat in cut.follows):
            # Its next link, come too late for its deal: seen now, so never asked for again (a later deal's
            # link is the one after it, which nobody has seen).
            held.pledge = seed
            table.journal.seats(table)
            return False
        if cut is None or cut.hand != hand or seat in cut.seeds:
            return False
        follows = cut.follows.get(seat)
        if follows is None or before(seed) != follows:
            return False
        with table.journal.at_once():  # a seed the seat is told was taken is in the deal, restart or not
            table.journal.step(table, ("seed", seat, {"hand": hand, "seed": seed.hex()}), table.seq)
            cut.seeds[seat] = seed
            cut.waiting.discard(seat)
            held.pledge = seed  # the seat's next link follows this one (kept with the seats, for a restart)
            table.journal.seats(table)
            if not cut.waiting:
                self.deal()
        return True

    def close(self) -> Cut | None:
        """The hand being cut is dealt now (or dropped): its window stops. Returns it (None: none was)."""
        cut, self.cut = self.cut, None
        self.table.pacer.stop_cut()
        return cut

    def void(self, cut: Cut, committed: tuple[Event, ...]) -> None:
        """A new match's deal is dropped (its seats emptied before it began): its commitment, if not yet
        published, goes out alone; if it is out and journaled, the journal says it will not be dealt, so
        that a restart does not cut it again."""
        if committed:
            self.note(list(committed))
        else:
            self.table.journal.step(self.table, ("void", None, {"hand": cut.hand}), self.table.seq)

    def seed(self, cut: Cut, moved: tuple[int, ...] = ()) -> DealSeed:
        """The seed the hand is dealt from, and so the hand in play's (``deal_seed``); ``moved``: the seats'
        new order if they were swapped after the cut, each seed and each seat waited for going with its
        holder."""
        seeds, awaited, follows = cut.seeds, cut.awaited, cut.follows
        if moved:
            seeds = {moved.index(s): b for s, b in seeds.items()}
            awaited = tuple(sorted(moved.index(s) for s in awaited))
            follows = {moved.index(s): b for s, b in follows.items()}
        seed = DealSeed(cut.server_seed, tuple(sorted(seeds.items())), self.table.id, cut.hand, SCHEME,
                        tuple(follows.items()))
        self.deal_seed, self.awaited = seed, awaited
        return seed

    def reveal(self) -> list[Event]:
        """At the hand's end: the seeds its deck came from, for every client to check."""
        seed, self.deal_seed = self.deal_seed, None
        if seed is None:
            return []
        seeds = tuple(PlayerSeed(seat, s) for seat, s in seed.player_seeds)
        pledges = tuple(PlayerPledge(seat, value) for seat, value in seed.pledges)
        return [Event(DealRevealed(seed.hand, seed.scheme, seed.table, seed.server_seed, seeds, self.awaited,
                                   pledges))]

    # -- a restart ---------------------------------------------------------------------------------
    def recall(self, kind: str, seat: int | None, data: Mapping[str, Any]) -> bool:
        """A journal step of a cut (``commit``, ``seed``, ``void``) replayed; whether it was one."""
        if kind == "commit":
            awaited = tuple(int(s) for s in data["awaited"])
            follows = {int(s): bytes.fromhex(v) for s, v in (data.get("follows") or {}).items()}
            self.cut = Cut(int(data["hand"]), bytes.fromhex(data["server_seed"]), bool(data["new_match"]),
                           set(follows), awaited=awaited, follows=follows)
            return True
        if kind == "seed":
            cut = self.cut
            if cut is not None and seat is not None and cut.hand == data["hand"]:
                cut.seeds[seat] = bytes.fromhex(data["seed"])
                cut.waiting.discard(seat)
            return True
        if kind == "void":
            self.cut = None
            return True
        return False

    def recall_deal(self, data: Mapping[str, Any]) -> Seed:
        """A hand's deal replayed (a ``start`` or ``next`` step): its cut is over; returns the seed it was dealt
        from, the hand in play's until its end reveals it."""
        self.cut = None
        seed = record_seed(data)
        self.deal_seed = seed if isinstance(seed, DealSeed) else None
        self.awaited = tuple(int(s) for s in data.get("awaited") or ())
        return seed

    def resume(self) -> bool:
        """After a restart: a deal that was being cut is cut on, its window running again (a seed still coming
        may yet go in); whether one was."""
        cut = self.cut
        if cut is None:
            return False
        self.table.pacer.cut(self.table.config.cut_window if cut.waiting else 0.0, self.deal)
        return True
