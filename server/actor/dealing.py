"""A table's fair deals (``cardtui.fair``, docs/deal.md): commitment, cut, seeds and pledges, reveal.

Every hand is cut before it is dealt: the table draws a secret seed and publishes its commitment
(``DealCommitted``), naming the link each pledged seat's next seed must follow, and who is dealt what: the
hand's dealer and, for a match after a match's end, the seats' new order. It then waits for those links
(``take_cut``) and deals from all of them; the hand's end reveals them (``DealRevealed``).

A commitment is final (docs/deal.md §1). Once it is out, its hand is dealt exactly as it named: a vote or a
seat change after it applies to the next hand, a person who leaves meanwhile leaves their seat to a bot,
and nothing drops it for another. Only a table that closes with a deal still being cut leaves it undealt,
and then its seeds are revealed in full with the reason (``void``), never replaced.

The wait is for people, not for a clock: every pledged seat whose stream is open is waited for, as long as
the table's turn clock (or the host's shorter ``--cut-ms``); a seat whose stream closes meanwhile is waited
for no more and is dealt without, its reveal saying it was away (``gone``), not that it held its link back.
Before a hand is committed, a person who sat down and has not opened the table yet is waited for as long
too, so that whoever fills a table, a browser guest included, sees the commitment of the hand they will play.

``Dealing`` holds the hand being cut (``Cut``) and the seed the hand in play was dealt from; the
table's actor deals the hand (``Table._deal``: the seats, the match, the journal) with the seed
the cut gives (``seed``). What a restart needs of a cut is journaled as steps: ``commit`` (the
commitment published, with the server's seed, its dealer and seats), ``seed`` (a seat's link taken),
``gone`` (a seat waited for went away) and ``void`` (the commitment revealed undealt: the table closed).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from cardtui.engine.core import Event
from cardtui.engine.fairness import SCHEME, DealSeed, Seed, commitment, record_seed
from cardtui.fair import before
from cardtui.server.actor.events import DealCommitted, DealRevealed, PlayerPledge, PlayerSeed
from cardtui.server.actor.rematch import Decided

if TYPE_CHECKING:
    from cardtui.server.actor.table import Notes, Table


LAPSED = 3.0
"""The longest a deal waits for the link of a person who has let a cut lapse at this table before (docs/fairness.md,
"One seat cannot stall a table"): their client cuts within milliseconds when it cuts at all, so one who lets the
whole window pass once is not given a whole turn clock again, hand after hand, to hold the table up."""
OPENING = 10.0
"""The longest a hand waits, before it is committed, for someone who just sat down to open the table: a
browser guest's page or a terminal on a busy host takes seconds, a table's turn clock may be an hour."""


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
    dealer: int | None = None
    """Who deals the hand, named with the commitment (None: a cut journaled before it was named)."""
    moved: tuple[int, ...] = ()
    """A new match's seats, swapped as the people staying asked (``MatchStarted.seats_from``), fixed at the
    commitment; () the seats as they are."""
    decided: Decided | None = None
    """How the people staying chose them (None: nobody was asked)."""
    gone: set[int] = field(default_factory=set)
    """Seats waited for whose stream closed before their link came: dealt without them, said as away."""


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
        self.gone: tuple[int, ...] = ()
        """Of the hand in play's pledged seats, those whose stream had closed before their link came."""
        self.voided: dict[str, Any] | None = None
        """The history's line for a commitment revealed undealt (``void``), to be stored with the hands."""
        self.unopened: set[str] = set()
        """Tokens of people who sat down and have not opened the table since: the next commitment waits for them."""
        self.lapsed: set[str] = set()
        """Tokens of people who let a cut's whole window pass with their stream open: waited for ``LAPSED`` seconds
        at most from then on, for as long as they sit here."""

    @property
    def wait(self) -> float:
        """The longest a deal waits for the people it waits for, in seconds: the table's turn clock (a person
        is given as long to cut as to play), or the host's shorter ``--cut-ms``; 0: no cuts at this table."""
        config = self.table.config
        return 0.0 if config.cut_window <= 0 else min(config.cut_window, config.turn_seconds)

    # -- before a commitment: waiting for the people just seated ----------------------------------
    def start(self, wait: bool = True) -> None:
        """Cut a new match's first hand once every seat is filled (nothing if a match or a cut is on)."""
        table = self.table
        if table.match is not None or self.cut is not None or self.starting or not table.seating.full or table.closed:
            return
        self._commit_when_here(True, wait)

    def next_hand(self) -> None:
        """Cut the next hand of the match in play, or a new match after a match's end."""
        match = self.table.match
        if self.cut is not None or self.starting or match is None:
            return
        self._commit_when_here(match.match_over(), True)

    def _commit_when_here(self, new_match: bool, wait: bool) -> None:
        if wait and self.wait > 0 and self._absent():
            # Someone who just sat down is still opening the table: a hand committed now would be dealt before
            # they could see its commitment, and cut it, and check it.
            self.starting = True
            self.table.pacer.cut(min(self.wait, OPENING), lambda: self._commit_anyway(new_match))
            return
        self.commit(new_match)

    def sat(self, token: str) -> None:
        """A person sat down (or took their seat back) under ``token``: until they open the table, the next
        commitment waits for them."""
        self.unopened.add(token)

    def opened(self, token: str) -> None:
        """A stream was opened: the last one a commitment waited for lets it go now."""
        self.unopened.discard(token)
        if self.starting and not self._absent():
            self.table.pacer.stop_cut()
            self._commit_anyway(self.table.match is None or self.table.match.match_over())

    def closed(self, token: str, seat: int | None) -> None:
        """A stream closed: if it was the last of a seat the deal being cut waits for, it waits no more, and
        deals without that seat's link (said in the reveal as away, not as held back)."""
        cut = self.cut
        if cut is None or seat is None or seat not in cut.waiting or self.table.seating[seat].token != token:
            return
        if any(sub.token == token for sub in self.table.fanout.subscribers):
            return  # another stream of theirs is still open
        self.away(seat)

    def away(self, seat: int) -> None:
        """The person at ``seat`` is gone (their last stream closed, or they left): the deal being cut waits for
        their link no more; the last one waited for deals it now."""
        cut = self.cut
        if cut is None or seat not in cut.waiting:
            return
        with self.table.change():
            self.table.journal.step(self.table, ("gone", seat, {"hand": cut.hand}), self.table.seq)
            cut.waiting.discard(seat)
            cut.gone.add(seat)
        if not cut.waiting:
            self.table.pacer.run(self.deal)  # (as its timer would: a stream's end is nobody's request)

    def _absent(self) -> bool:
        """Someone seated here (not away) who sat down since and has not opened the table yet."""
        table = self.table
        here = {sub.token for sub in table.fanout.subscribers}
        return any(seat.token is not None and not seat.botted and seat.token not in here
                   and seat.token in self.unopened for seat in table.seating.seats)

    def _commit_anyway(self, new_match: bool) -> None:
        self.starting = False
        table = self.table
        if self.cut is not None or table.closed:
            return
        if table.match is None:
            self.start(wait=False)
        else:
            self.commit(new_match)

    # -- commit, cut, deal ------------------------------------------------------------------------
    def commit(self, new_match: bool) -> None:
        """Draw the hand's secret seed and publish its commitment, the hand's first event, with who deals it
        (and a new match's seats, as the people staying asked: their vote ends here); then wait for the seated
        people's links, at most ``wait`` seconds."""
        table = self.table
        moved: tuple[int, ...] = ()
        decided: Decided | None = None
        if new_match:
            moved, decided = table.rematches.settle()
            names = table.seating.names()
            dealer = table.rules.opening_dealer(table.options, table.rules.seat_infos(
                [names[old] for old in moved] if moved else names))
        else:
            assert table.match is not None
            dealer = table.match.next_dealer()
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
        window = self.wait if follows else 0.0
        self.cut = Cut(table.hands_played + 1, server_seed, new_match, set(follows), awaited=tuple(sorted(here)),
                       follows=follows, dealer=dealer, moved=moved, decided=decided)
        pledges = tuple(PlayerPledge(seat, value) for seat, value in follows.items())
        committed = Event(DealCommitted(self.cut.hand, commitment(server_seed), _ms(window), SCHEME, pledges, dealer,
                                        moved, new_match))
        if follows and window > 0:
            # Journaled with its seed, its dealer and its seats, so that a restart cuts this deal on rather than
            # commit to another deck for the hand.
            data: dict[str, Any] = {
                "hand": self.cut.hand, "server_seed": server_seed.hex(), "new_match": new_match,
                "awaited": list(self.cut.awaited), "follows": {str(s): v.hex() for s, v in follows.items()},
                "dealer": dealer, "moved": list(moved)}
            if decided is not None:
                data["decided"] = decided.data()
            self.note([committed], ("commit", None, data))
            self._arm(window)
        else:  # nobody to wait for: the commitment goes out with the deal, one message, not two
            self.deal((committed,))

    def _lapsing(self, cut: Cut) -> set[int]:
        """The seats the cut waits for whose person let a cut lapse before."""
        seating = self.table.seating
        return {s for s in cut.waiting if seating[s].token is not None and seating[s].token in self.lapsed}

    def _arm(self, window: float, since: float = 0.0) -> None:
        """The cut's timer: at ``LAPSED`` seconds if a seat that lapsed before is waited for, else at the window's
        end (``since``: seconds of the window gone already)."""
        cut = self.cut
        short = cut is not None and self._lapsing(cut) and since < LAPSED < window
        at = LAPSED if short else window
        self.table.pacer.cut(max(0.0, at - since), lambda: self._window_over(window, at))

    def _window_over(self, window: float, at: float) -> None:
        """The cut's timer fired, ``at`` seconds into its ``window``: a seat that lapsed before and has not cut yet
        is dealt without now; at the window's end, every seat still waited for has let its cut lapse (and is
        waited for briefly from then on). The deal goes on once nobody is waited for."""
        cut = self.cut
        if cut is None:
            return
        late = self._lapsing(cut) if at < window else set(cut.waiting)
        seating = self.table.seating
        for seat in late:
            token = seating[seat].token
            if token is not None:
                self.lapsed.add(token)
        if at < window and cut.waiting - late:
            cut.waiting -= late  # (their links, if they come, are too late: ``take_cut`` refuses them)
            self._arm(window, at)
            return
        self.deal()

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
        with table.change():  # a seed the seat is told was taken is in the deal, restart or not
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

    def void(self, reason: str) -> list[Event]:
        """The deal being cut will never be dealt (the table closes): its window stops, and its seeds are
        revealed in full with ``reason`` (an English sentence), so that no client's link is spent unseen.
        Returns the reveal to send ([] if no deal was being cut, or its commitment never went out)."""
        cut = self.close()
        if cut is None:
            return []
        self.table.journal.step(self.table, ("void", None, {"hand": cut.hand}), self.table.seq)
        if not cut.follows:  # committed and dealt at once, or never published: no link was asked for
            return []
        seeds = tuple(PlayerSeed(seat, s) for seat, s in sorted(cut.seeds.items()))
        pledges = tuple(PlayerPledge(seat, value) for seat, value in cut.follows.items())
        deal = DealSeed(cut.server_seed, tuple(sorted(cut.seeds.items())), self.table.id, cut.hand, SCHEME,
                        tuple(cut.follows.items()))
        seating = self.table.seating
        # The history's line for it (docs/history.md §2a), so that a file accounts for every link a person gave.
        self.voided = {"table": self.table.id, "hand": cut.hand, "game": self.table.rules.name, "void": reason,
                       "fair": deal.as_record(), "awaited": list(cut.awaited), "gone": sorted(cut.gone),
                       "seats": [{"seat": s.index, "name": s.name, **({"bot": s.level or "bot"} if s.botted else {})}
                                 for s in seating.seats]}
        return [Event(DealRevealed(cut.hand, SCHEME, self.table.id, cut.server_seed, seeds, cut.awaited, pledges,
                                   tuple(sorted(cut.gone)), reason))]

    def seed(self, cut: Cut, moved: tuple[int, ...] = ()) -> DealSeed:
        """The seed the hand is dealt from, and so the hand in play's (``deal_seed``); ``moved``: the seats'
        new order if they were swapped after the cut, each seed and each seat waited for going with its
        holder."""
        seeds, awaited, follows, gone = cut.seeds, cut.awaited, cut.follows, tuple(sorted(cut.gone))
        if moved:
            seeds = {moved.index(s): b for s, b in seeds.items()}
            awaited = tuple(sorted(moved.index(s) for s in awaited))
            follows = {moved.index(s): b for s, b in follows.items()}
            gone = tuple(sorted(moved.index(s) for s in gone))
        seed = DealSeed(cut.server_seed, tuple(sorted(seeds.items())), self.table.id, cut.hand, SCHEME,
                        tuple(follows.items()))
        self.deal_seed, self.awaited, self.gone = seed, awaited, gone
        return seed

    def reveal(self) -> list[Event]:
        """At the hand's end: the seeds its deck came from, for every client to check."""
        seed, self.deal_seed = self.deal_seed, None
        if seed is None:
            return []
        seeds = tuple(PlayerSeed(seat, s) for seat, s in seed.player_seeds)
        pledges = tuple(PlayerPledge(seat, value) for seat, value in seed.pledges)
        return [Event(DealRevealed(seed.hand, seed.scheme, seed.table, seed.server_seed, seeds, self.awaited,
                                   pledges, self.gone))]

    # -- a restart ---------------------------------------------------------------------------------
    def recall(self, kind: str, seat: int | None, data: Mapping[str, Any]) -> bool:
        """A journal step of a cut (``commit``, ``seed``, ``gone``, ``void``) replayed; whether it was one."""
        if kind == "commit":
            awaited = tuple(int(s) for s in data["awaited"])
            follows = {int(s): bytes.fromhex(v) for s, v in (data.get("follows") or {}).items()}
            dealer = data.get("dealer")
            decided = data.get("decided")
            self.cut = Cut(int(data["hand"]), bytes.fromhex(data["server_seed"]), bool(data["new_match"]),
                           set(follows), awaited=awaited, follows=follows,
                           dealer=None if dealer is None else int(dealer),
                           moved=tuple(int(s) for s in data.get("moved") or ()),
                           decided=None if decided is None else Decided.of(decided))
            return True
        if kind == "gone":
            cut = self.cut
            if cut is not None and seat is not None and cut.hand == data["hand"]:
                cut.waiting.discard(seat)
                cut.gone.add(seat)
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
        self.gone = tuple(int(s) for s in data.get("gone") or ())
        return seed

    def resume(self) -> bool:
        """After a restart: a deal that was being cut is cut on, its window running again (a seed still coming
        may yet go in); whether one was."""
        cut = self.cut
        if cut is None:
            return False
        if cut.waiting:
            self._arm(self.wait)
        else:
            self.table.pacer.cut(0.0, self.deal)
        return True


def _ms(seconds: float) -> int:
    """A wait in whole milliseconds, as the wire carries it (``DealCommitted.cut_ms``)."""
    return 0 if seconds <= 0 else int(min(seconds, 86_400.0) * 1000) if math.isfinite(seconds) else 86_400_000
