"""One table: the match in play, and the order in which everything at the table happens.

Only the event loop touches a table, so every change (an action, a timer, a bot move)
runs to completion before the next: the table's actor is the loop itself. The table
coordinates four parts that each do one job: ``Seating`` (who sits where), ``Pacer``
(timers), ``Fanout`` (numbering and streams) and the journal (what a restart needs). It
works on engine records; ``wire`` turns them into messages.

Order of a change: journal it, record a finished hand, restart the timers, then send — so
no client sees what a restart would not bring back, and views carry the new deadline. That
holds for what no request made as much as for what one did: a claim window's time running
out, a turn timer's default and the away mark it brings, a bot's move, a cut window closing on
its deal, a commitment published and the seeds taken for it. What one change writes to the
journal is written at once (``Journal.at_once``), so a kill -9 keeps all of it or none.

Every hand is a fair deal (``cardtui.fair``): the table draws a secret seed, publishes its
commitment (``DealCommitted``), takes the seated people's seeds for a short window (``Cut``)
and deals from all of them; the hand's end reveals them (``DealRevealed``). The journal keeps
each hand's whole deal seed, the server's included, so a restart deals the same cards.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, cast

from cardtui.engine.bots import pacing
from cardtui.engine.core import (
    DEFAULT_LEVEL,
    Action,
    Audience,
    Event,
    GameView,
    IllegalAction,
    JsonObject,
    Match,
    Rules,
)
from cardtui.engine.fairness import SCHEME, DealSeed, commitment, record_seed
from cardtui.engine.history import action_entry, action_of
from cardtui.engine.options import Raw
from cardtui.fair import before
from cardtui.i18n import N_
from cardtui.server import wire
from cardtui.server.errors import FailedPrecondition
from cardtui.server.events import Chatted, DealCommitted, DealRevealed, MatchStarted, PlayerPledge, PlayerSeed
from cardtui.server.fanout import Fanout, Numbered, Subscriber, sees
from cardtui.server.pacing import Pacer
from cardtui.server.records import Tally
from cardtui.server.rematch import Choice, RematchVoted, agreed, outcome, swapped
from cardtui.server.seating import Holder, Seating
from cardtui.server.store import StoreDown
from cardtui.server.thinking import Thinker
from cardtui.v1 import common_pb2, table_pb2

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

log = logging.getLogger("cardtui.table")

NO_TALK = "spectators-and-between-hands"
"""The ``chat`` option's value by which players talk only between hands (truco paulista)."""


class Status(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass
class TableConfig:
    game: str
    name: str
    seats: int
    bots: int
    options: dict[str, Raw]
    turn_seconds: float = 30.0
    away_after: int = 2
    bot_delay: float = 1.0
    next_hand_delay: float = 4.0
    password: str = ""
    private: bool = False
    idle_minutes: int = 10
    """With nobody seated or watching this long, the table finishes (-1: never)."""
    owner: str = ""
    """The digest of the token that may close the table."""
    cut_window: float = 1.0
    """Seconds the deal waits at most for the seated people's seeds (the room's setting)."""
    delayed_view: bool = False
    """Spectators may replay every finished hand face up while the table plays (never the hand in play)."""
    bot_levels: list[str] = field(default_factory=list)
    """Each seat's bot level ("" for a person's seat; a person away is played at the default level)."""
    tournament: dict[str, Any] = field(default_factory=dict)
    """A tournament's table: ``id``, ``round``, ``table`` (its number in the round), ``entries`` (the
    entry at each seat), the round's ``byes`` and round 1's ``draw``; each hand history carries it.
    Such a table plays one match, keeps its seats for the tournament's players and never idles out."""


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


Step = tuple[str, int | None, dict[str, Any]]
"""A journal step: ``start``/``next`` with the hand's deal seed (``fair``, as the hand history
holds it: the server's seed too), ``act`` with a seat's action, ``lapse`` (a window the rules
time ran out), ``seat`` (a seat changed hands), or a deal being cut: ``commit`` (its commitment
published: the hand, the server's seed, whose seeds it waits for), ``seed`` (a seat's seed
taken for it) and ``void`` (dealt no more: the seats emptied before a new match)."""


class Journal(Protocol):
    """Where a table writes what a restart needs; the room keeps it in the store."""

    def step(self, table: Table, step: Step, seq: int) -> None: ...

    def mark(self, table: Table, seq: int) -> None:
        """The last number handed out, for events that are not steps (chat, seats)."""

    def sent(self, table: Table, batch: Sequence[Numbered]) -> None:
        """Events just numbered, kept (the latest ``fanout.BUFFER``) for a restart to replay to a
        stream that missed them: journaled with the change that made them, before any is sent."""

    def hand(self, table: Table, record: JsonObject) -> None: ...

    def seats(self, table: Table) -> None: ...

    def at_once(self) -> AbstractContextManager[None]:
        """What is written inside is kept all together or not at all (one change's writes)."""

    def let_go(self, table: Table, seat: int) -> None:
        """The person at ``seat`` played none of the match that just ended: their token lapses and
        the seat opens as if they had left (``Table.leave``)."""

    def moved(self, table: Table, order: Sequence[int]) -> None:
        """The seats were swapped for a new match: each token now acts for the seat its holder moved
        to (seat i's holder came from ``order[i]``)."""

    def unreachable(self, table: Table, error: StoreDown) -> None:
        """The store failed under a change no request made (a timer's, a bot's): the table is let go and
        comes back from its journal once the store answers."""


class Table:
    """A table's whole life, driven by the event loop."""

    def __init__(
        self, table_id: str, rules: Rules, config: TableConfig, journal: Journal, rng: random.Random | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.id = table_id
        self.epoch = 0
        """Which of its owners' turns this process drives the table in (``Store.claim``): its writes
        are fenced by it."""
        self.rules = rules
        self.config = config
        self.options = rules.check_options(config.options)
        self.journal = journal
        self.rng = rng or random.SystemRandom()
        self.thinker = thinker
        """Where the bots' searches run (None: here, on the loop)."""
        self._thinking: object | None = None
        """The decision being made elsewhere for the moment the bots were last scheduled."""
        stand_in = next((level for level in config.bot_levels if level), DEFAULT_LEVEL)
        self.seating = Seating(config.seats, config.bots, rules.teams, stand_in)
        self.seating.keeps_left = bool(config.tournament)
        """A person away is played at the table's bot level (its first bot's), or the default."""
        for seat, level in zip(self.seating.seats, config.bot_levels, strict=False):
            seat.level = level or stand_in
        self.planned: tuple[int, Action] | None = None
        """The bot move the bot timer will make: chosen when the timer is set, so its delay fits it."""
        self.spectators: dict[str, str] = {}  # token -> name
        self.match: Match | None = None
        self.fanout = Fanout(self.view, self.view_bytes)
        self.pacer = Pacer(lambda error: self.journal.unreachable(self, error))
        self.hands_played = 0
        self.tally = Tally()
        """What the match's events say for the players' records (pots taken, truco calls won)."""
        self.matches = 0
        self.cut: Cut | None = None
        """The hand being cut, between its commitment and its deal."""
        self.starting = False
        """A new match waits, at most the cut window, for the seated people's streams to open."""
        self.deal_seed: DealSeed | None = None
        """What the hand in play was dealt from, until its end reveals it."""
        self.awaited: tuple[int, ...] = ()
        """The seats whose seeds the hand in play waited for: a seat here with no seed in the deal was dropped."""
        self.closed = False
        self.idle_since: float | None = None
        """When the last person left (the loop's clock); None while someone is here."""
        self.hand_holders: tuple[Holder, ...] = ()
        """Who played each seat when the hand in play (or the last one) was dealt: its hand, in the records."""
        self.hand_changes: list[tuple[int, int, Holder]] = []
        """Seats that changed hands during the hand in play: (the seats' entries its history held
        then, seat, who then)."""
        self.fresh: set[int] = set()
        """Seats a person sat down at while no hand was in play (between hands, or between matches):
        until the next deal, each sees the hand that ended as a spectator does, never the cards its
        earlier holder held and nobody was shown (``JoinResponse.first_seq``'s promise)."""
        self.window_ends: float | None = None
        """When the window the rules time (a claim window) closes, on the loop's clock: set as it
        opens, so that answers in it do not stretch it."""
        self.leavers: dict[int, list[str]] = {}
        """Remembered players who played a seat during the match in play, left it, and whose seat
        someone else took since: the match's result is still theirs (leaving does not dodge a loss)."""
        self.votes: dict[int, Choice] | None = None
        """At a match's end, what each person staying asked for (``server.rematch``); None otherwise."""
        self.moved: dict[int, int] = {}
        """Per seat, the number of the last event of the match that seat could see (a move, a deal, a
        window closed; after a restart, the last event before it, since what moved then is not known):
        an action chosen on a screen older than it is refused. An event hidden from the
        seat (another seat letting a claim window go, which says nothing to the others) changes nothing
        the seat can see, so it refuses nothing: two players letting a window go at once are both
        taken. A chat line, a vote, a seat's comings and goings change no one's choices, so they refuse
        nothing either: a watcher's chatter cannot stop the play."""

    @property
    def seq(self) -> int:
        return self.fanout.seq

    @property
    def status(self) -> Status:
        if self.closed:
            return Status.FINISHED
        return Status.WAITING if self.match is None else Status.PLAYING

    def summary(self) -> common_pb2.TableSummary:
        specs = {s.name: s for s in self.rules.option_specs}
        return common_pb2.TableSummary(
            id=self.id,
            game=self.rules.name,
            name=self.config.name,
            seats=self.seating.summaries(),
            spectators=self.watching,
            options={k: wire.option_value(specs[k], v) for k, v in self.options.items()},
            has_password=bool(self.config.password),
            private=self.config.private,
            status=common_pb2.TableStatus.Value(f"TABLE_STATUS_{self.status.value.upper()}"),
            turn_seconds=int(self.config.turn_seconds),
            delayed_spectator_view=self.config.delayed_view,
            tournament_id=str(self.config.tournament.get("id", "")),
            tournament_round=int(self.config.tournament.get("round", 0)),
            no_cuts=self.config.cut_window <= 0,
        )

    # -- seats ---------------------------------------------------------------------
    def sit(self, name: str, seat: int, token: str, player: str | None = None, pledge: bytes | None = None) -> int:
        left = self._leaver(self.seating.pick(seat).index)  # "any free seat" too: the seat it gives
        target, event = self.seating.sit(name, seat, token, player, pledge)
        self.journal.seats(self)
        if self.match is not None and self.match.hand_over():
            self.fresh.add(target.index)
        self._holder_changed(target.index, left)
        self._note([event])
        if self.match is not None:
            self._schedule()  # a person takes a seat back from the bot: their timer runs
        else:
            self._maybe_start()
        return target.index

    def reclaim(self, seat: int, token: str, pledge: bytes | None = None) -> None:
        """A remembered player takes their seat back under a new token (and its client's pledge); the old one's
        streams end."""
        old, event = self.seating.reclaim(seat, token, pledge)
        self.journal.seats(self)
        if old is not None:
            self.fanout.end(N_("You sat down at this seat from another client."), resubscribe=False, token=old)
        if event is not None:
            self._holder_changed(seat)
            self._note([event])
        if self.match is not None:
            self._schedule()

    def leave(self, seat: int, reason: str = N_("You left the table.")) -> None:
        """A person leaves: every stream of theirs ends (told ``reason``); during a match a bot plays on."""
        token, event = self.seating.leave(seat, playing=self.match is not None)
        self.journal.seats(self)
        if token is not None:
            self.fanout.end(reason, resubscribe=False, token=token)
        self._holder_changed(seat)
        self._note([event])
        if self.match is not None:
            self._schedule()
        if self.votes is not None:
            self.votes.pop(seat, None)
            self._maybe_rematch()  # one waited for fewer: the others may all agree now

    def stop_watching(self, token: str) -> None:
        self.spectators.pop(token, None)
        self.fanout.end(N_("You stopped watching."), resubscribe=False, token=token)

    def back(self, seat: int) -> None:
        """The person at ``seat`` is here (acted or reconnected)."""
        event = self.seating.back(seat)
        if event is not None:
            self.journal.seats(self)
            self._holder_changed(seat)
            self._note([event])
            self._schedule()

    # -- the match -------------------------------------------------------------------
    def restore(self, steps: Sequence[tuple[Step, int]], hands: int, seq: int, sent: Sequence[Numbered] = ()) -> None:
        """Replay the journal of the match in play: same cards, same turn; timers restart. A deal
        that was being cut is cut on: the commitment everyone saw, the seeds already taken. ``sent``:
        the latest events as they were kept, replayed to a stream that resumes from before them."""
        cut: Cut | None = None
        for (kind, seat, data), _ in steps:
            if kind == "seat":  # a seat changed hands: who plays it from here on is in the seats
                assert seat is not None
                self._recall_holder(seat, data)
                continue
            if kind == "played":  # the seat's person made a move of their own
                assert seat is not None
                self.seating[seat].played = True
                continue
            if kind == "commit":
                awaited = tuple(int(s) for s in data["awaited"])
                follows = {int(s): bytes.fromhex(v) for s, v in (data.get("follows") or {}).items()}
                cut = Cut(int(data["hand"]), bytes.fromhex(data["server_seed"]), bool(data["new_match"]),
                          set(follows), awaited=awaited, follows=follows)
                continue
            if kind == "seed":
                if cut is not None and seat is not None and cut.hand == data["hand"]:
                    cut.seeds[seat] = bytes.fromhex(data["seed"])
                    cut.waiting.discard(seat)
                continue
            if kind == "void":
                cut = None
                continue
            if kind in ("start", "next"):
                cut = None
                seed = record_seed(data)
                self.deal_seed = seed if isinstance(seed, DealSeed) else None
                self.awaited = tuple(int(s) for s in data.get("awaited") or ())
                self._dealt(data.get("holders"))
                if kind == "start":
                    self.leavers = {}
                    for s in self.seating.seats:
                        s.played = False
                self._present(self.awaited)
            if kind == "start":
                seats = self.rules.seat_infos(list(data["names"]))
                self.match, events = self.rules.open(self.options, seats, seed)
                self.match.keep_time()
                self.matches = int(data["match"])
                self.tally.start(self.match.scores())
            elif kind == "next":
                assert self.match is not None
                events = self.match.next_hand(seed)
            elif kind == "lapse":
                assert self.match is not None
                events = self.match.lapse()
            else:
                assert self.match is not None and seat is not None
                action = action_of(data)
                events = [*self.match.catch_up(seat, action), *self.match.apply(seat, action)]
            self.tally.observe(events, self.match.scores)
        self.fanout.restore(max([seq, *(s for _, s in steps)]), sent)
        self.moved = dict.fromkeys(range(len(self.seating)), self.fanout.seq)  # what moved before is not known
        self.hands_played = hands
        if cut is not None:  # its window runs again: a seed still coming may yet go in
            self.cut = cut
            self.pacer.cut(self.config.cut_window if cut.waiting else 0.0, self._deal)
        elif self.match is not None and self.match.hand_over():
            if self.match.match_over():
                self._open_absent()  # in case the server stopped before it could
            self.pacer.next_hand(self.config.next_hand_delay, self._next_hand)
        else:
            self._maybe_start()
            self._schedule()

    def open(self) -> None:
        """A new table: a table of bots starts at once."""
        self._maybe_start()

    def _maybe_start(self, wait: bool = True) -> None:
        if self.match is not None or self.cut is not None or self.starting or not self.seating.full or self.closed:
            return
        if wait and self.config.cut_window > 0 and self._absent():
            # Whoever filled the last seat is still opening their stream: a hand committed now
            # would be dealt before they could see its commitment, and cut it, and check it.
            self.starting = True
            self.pacer.cut(self.config.cut_window, self._start_anyway)
            return
        self._commit(new_match=True)

    def _absent(self) -> bool:
        """Someone seated here (not away) has no stream open."""
        here = {sub.token for sub in self.fanout.subscribers}
        return any(seat.token is not None and not seat.botted and seat.token not in here for seat in self.seating.seats)

    def _start_anyway(self) -> None:
        self.starting = False
        self._maybe_start(wait=False)

    def _next_hand(self) -> None:
        if self.closed or self.match is None or self.cut is not None:
            return
        if self.config.tournament and self.match.match_over():
            return  # a tournament's table plays one match; the tournament closes it
        self._commit(new_match=self.match.match_over())

    # -- fair deals: commit, cut, deal ------------------------------------------------------
    def _commit(self, new_match: bool) -> None:
        """Draw the hand's secret seed and publish its commitment, the hand's first event;
        then wait for the seated people's seeds, at most ``cut_window`` seconds."""
        server_seed = secrets.token_bytes(32)
        # Everyone seated here with a stream open, away or not: each of their clients sees this
        # commitment as it happens, cuts, and counts itself waited for (a bot standing in for a
        # person away plays their cards, but the deck is theirs to cut all the same).
        here = {
            sub.seat for sub in self.fanout.subscribers
            if sub.seat is not None and self.seating[sub.seat].token == sub.token
        }
        # Of those, each whose client pledged a chain gives this hand the link that follows what its seat's
        # pledge stands at (docs/deal.md §3a): named now, before anyone's link is sent.
        follows = {seat: pledge for seat in sorted(here) if (pledge := self.seating[seat].pledge) is not None}
        window = self.config.cut_window if follows else 0.0
        self.cut = Cut(self.hands_played + 1, server_seed, new_match, set(follows), awaited=tuple(sorted(here)),
                       follows=follows)
        pledges = tuple(PlayerPledge(seat, value) for seat, value in follows.items())
        committed = Event(DealCommitted(self.cut.hand, commitment(server_seed), int(window * 1000), SCHEME, pledges))
        if follows and window > 0:
            # Journaled with its seed, so that a restart cuts this deal on rather than commit
            # to another deck for the hand.
            self._note([committed], ("commit", None, {"hand": self.cut.hand, "server_seed": server_seed.hex(),
                                                      "new_match": new_match, "awaited": list(self.cut.awaited),
                                                      "follows": {str(s): v.hex() for s, v in follows.items()}}))
            self.pacer.cut(window, self._deal)
        else:  # nobody to wait for: the commitment goes out with the deal, one message, not two
            self._deal((committed,))

    def take_cut(self, seat: int, hand: int, seed: bytes) -> bool:
        """A seated person's link for the hand being cut; False (and unused) if it is too late, for another
        hand, a second one, or not the link that follows what the commitment named for the seat (a seed chosen
        now, after others' could be seen). The last link awaited deals at once."""
        cut = self.cut
        held = self.seating[seat]
        if held.pledge is not None and before(seed) == held.pledge and not (cut is not None and cut.hand == hand
                                                                               and seat in cut.follows):
            # Its next link, come too late for its deal: seen now, so never asked for again (a later deal's
            # link is the one after it, which nobody has seen).
            held.pledge = seed
            self.journal.seats(self)
            return False
        if cut is None or cut.hand != hand or seat in cut.seeds:
            return False
        follows = cut.follows.get(seat)
        if follows is None or before(seed) != follows:
            return False
        with self.journal.at_once():  # a seed the seat is told was taken is in the deal, restart or not
            self.journal.step(self, ("seed", seat, {"hand": hand, "seed": seed.hex()}), self.seq)
            cut.seeds[seat] = seed
            cut.waiting.discard(seat)
            held.pledge = seed  # the seat's next link follows this one (kept with the seats, for a restart)
            self.journal.seats(self)
            if not cut.waiting:
                self._deal()
        return True

    def _deal(self, committed: tuple[Event, ...] = ()) -> None:
        """Deal the hand being cut; ``committed`` is its commitment if not yet published."""
        cut, self.cut = self.cut, None
        self.pacer.stop_cut()
        if cut is None or self.closed:
            return
        moved: tuple[int, ...] = ()
        if cut.new_match:
            # seats people left mid-match are open bots' seats now (a tournament's stay its players')
            if not self.config.tournament and self.seating.forget_left():
                self.journal.seats(self)
            if not self.seating.full:  # someone left before the match began: wait for the seats to fill again
                self.match = None
                self.votes = None
                if committed:
                    self._note(list(committed))
                else:  # its commitment is out and journaled: a restart must not cut it again
                    self.journal.step(self, ("void", None, {"hand": cut.hand}), self.seq)
                return
            moved = self._swap_seats()
        seeds, awaited, follows = cut.seeds, cut.awaited, cut.follows
        if moved:  # the seats were swapped after the cut: each seed, and each seat waited for, goes with its holder
            seeds = {moved.index(s): b for s, b in seeds.items()}
            awaited = tuple(sorted(moved.index(s) for s in awaited))
            follows = {moved.index(s): b for s, b in follows.items()}
        seed = DealSeed(cut.server_seed, tuple(sorted(seeds.items())), self.id, cut.hand, SCHEME,
                        tuple(follows.items()))
        data: dict[str, Any] = {"fair": seed.as_record(), "holders": self._dealt(), "awaited": list(awaited)}
        if cut.new_match:
            self.leavers = {}
            for s in self.seating.seats:  # nobody has played the new match yet
                s.played = False
            self.matches += 1
            names = self.seating.names()
            self.match, events = self.rules.open(self.options, self.rules.seat_infos(names), seed)
            self.match.keep_time()  # a window the rules time stays open its whole time: how long says nothing
            self.tally.start(self.match.scores())
            events = [Event(MatchStarted(self.matches, moved)), *events]
            step: Step = ("start", None, {**data, "names": names, "match": self.matches})
        else:
            assert self.match is not None
            events = self.match.next_hand(seed)
            step = ("next", None, data)
        self.deal_seed, self.awaited = seed, awaited
        self._present(awaited)
        self._changed([*committed, *events], step)

    def _reveal(self) -> list[Event]:
        """At the hand's end: the seeds its deck came from, for every client to check."""
        seed, self.deal_seed = self.deal_seed, None
        if seed is None:
            return []
        seeds = tuple(PlayerSeed(seat, s) for seat, s in seed.player_seeds)
        pledges = tuple(PlayerPledge(seat, value) for seat, value in seed.pledges)
        return [Event(DealRevealed(seed.hand, seed.scheme, seed.table, seed.server_seed, seeds, self.awaited,
                                   pledges))]

    # -- acting --------------------------------------------------------------------
    def act(self, seat: int, action: Action, seen_seq: int = 0) -> int:
        """Apply a person's action; returns the last sequence number it produced."""
        if self.match is None:
            raise FailedPrecondition("The game has not started: seats are still open.")
        if seen_seq and seen_seq < self.moved.get(seat, 0):
            raise FailedPrecondition("The table has moved on since what you saw; look again and choose.")
        self._apply(seat, action)
        self.back(seat)
        self._played(seat)  # a move of their own: this match is theirs
        return self.seq

    def _apply(self, seat: int, action: Action) -> None:
        assert self.match is not None
        try:
            events = self.match.apply(seat, action)
        except IllegalAction as e:
            raise FailedPrecondition(e.template or str(e), **e.args_) from None
        self._changed(events, ("act", seat, action_entry(action)))

    def chat(self, seat: int | None, name: str, text: str, phrase: str = "") -> None:
        """Table talk (a quick ``phrase`` too). Where the game's ``chat`` option says so, players talk
        only between hands, and what spectators say during a hand reaches only spectators."""
        in_hand = self.match is not None and not self.match.hand_over()
        quiet = in_hand and self.options.get("chat") == NO_TALK
        if seat is not None and quiet:
            raise FailedPrecondition("Players may not talk during a hand here: chat between hands.")
        who = name if seat is None else self.seating[seat].name
        audience = Audience(frozenset(), spectators=True) if quiet else Audience()
        self._note([Event(Chatted(seat, who, text, phrase or None), audience)])

    # -- playing again (server.rematch) -------------------------------------------------------
    def rematch(self, seat: int, choice: Choice) -> None:
        """A person staying for the next match asks for the same seats or the seats swapped."""
        if self.votes is None:
            raise FailedPrecondition("There is no match to play again now: that is asked when a match ends.")
        self.votes[seat] = choice
        self.back(seat)
        self._note([Event(RematchVoted(seat, self.seating[seat].name, choice))])
        self._maybe_rematch()

    def _voters(self) -> list[int]:
        """Whose answer the next match waits for: people seated here with the table open, playing their
        seats themselves (not one a bot plays for them while they are away)."""
        here = {sub.token for sub in self.fanout.subscribers}
        return [s.index for s in self.seating.seats if s.token is not None and not s.bot and s.token in here]

    def _maybe_rematch(self) -> None:
        if self.votes is not None and agreed(self.votes, self._voters()) is not None:
            self.pacer.next_hand(0.0, self._next_hand)  # everyone staying agrees: now

    def _swap_seats(self) -> tuple[int, ...]:
        """A new match after a match's end: the seats swapped if that is what the people staying asked
        for (the tokens, the streams and the store follow their holders); the order, or () if none."""
        votes, self.votes = self.votes, None
        if votes is None or outcome(votes) is not Choice.SWAP:
            return ()
        order = swapped(len(self.seating), self.rules.teams)
        self.seating.permute(order)
        for sub in self.fanout.subscribers:
            if sub.seat is not None:
                sub.seat = order.index(sub.seat)
        self.journal.moved(self, order)
        self.journal.seats(self)
        return order

    # -- what follows a change -------------------------------------------------------------
    def _changed(self, events: list[Event], *steps: Step, away: Sequence[int] = ()) -> None:
        """The match moved (``steps`` say how, for the journal); ``away``: seats a bot plays for
        from now on, their people having missed their turns."""
        assert self.match is not None
        ended = self.match.hand_over() and not self.pacer.between_hands
        if ended:
            events = [*events, *self._reveal()]
        batch = self.fanout.number(events, self.seating.holders())
        for seq, mask, _, _ in batch:
            for seat in range(len(self.seating)):
                if sees(mask, seat):
                    self.moved[seat] = seq
        with self._journaling(batch), self.journal.at_once():
            self.journal.sent(self, batch)
            for step in steps:
                self.journal.step(self, step, self.seq)
            if away:
                self.journal.seats(self)
                for seat in away:
                    self._holder_changed(seat)
            self.tally.observe(events, self.match.scores)
            if ended:
                self._hand_done()
        self._schedule()
        self.fanout.send(batch)
        if ended and self.match.match_over():
            self._open_absent()

    def _note(self, events: list[Event], *steps: Step) -> None:
        """Table events (seats, chat, a commitment): numbered and marked in the journal (or
        journaled as ``steps``), so no number is reused."""
        batch = self.fanout.number(events, self.seating.holders())
        with self._journaling(batch), self.journal.at_once():
            self.journal.sent(self, batch)
            for step in steps:
                self.journal.step(self, step, self.seq)
            if not steps:
                self.journal.mark(self, self.seq)
        self.fanout.send(batch)

    @contextmanager
    def _journaling(self, batch: Sequence[Numbered]) -> Iterator[None]:
        """A change being journaled: if it cannot be (the table was let go), its numbers are taken back."""
        try:
            yield
        except BaseException:
            self.fanout.unnumber(batch)
            raise

    def _hand_done(self) -> None:
        assert self.match is not None
        record = self.match.history()
        if record is not None:
            self.hands_played += 1
            record = dict(record, table=self.id, hand=self.hands_played, match=self.matches)
            if "fair" in record:  # whose seeds the deal waited for: one of them not in fair.player_seeds was dropped
                record["awaited"] = list(self.awaited)
            if self.config.tournament:
                record["tournament"] = dict(self.config.tournament)
            self._name_holders(record)
            self.journal.hand(self, record)
        if self.match.match_over() and not self.config.tournament and self._voters():
            # Again? The next match waits for the people staying to agree, at most the turn timer.
            self.votes = {}
            self.pacer.next_hand(max(self.config.next_hand_delay, self.config.turn_seconds), self._next_hand)
            return
        self.pacer.next_hand(self.config.next_hand_delay, self._next_hand)

    # -- who played each seat, when --------------------------------------------------------
    def _dealt(self, saved: Sequence[Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
        """A hand is dealt: who plays each seat now is who played its deal (``saved``: as the
        journal kept them, on a restore). Returns them as the journal keeps them."""
        if saved is not None and len(saved) == len(self.seating):
            self.hand_holders = tuple(Holder(**dict(h)) for h in saved)
        else:
            self.hand_holders = self.seating.holders_now()
        self.hand_changes = []
        self.fresh.clear()  # whoever sits now is dealt this hand: it is theirs to see
        return [h.data() for h in self.hand_holders]

    def _leaver(self, seat: int) -> str | None:
        """The remembered player who played ``seat`` during the match and left it, if a newcomer now
        takes it over: the match is theirs still."""
        s = self.seating[seat]
        if self.match is not None and s.token is None and s.away and s.player is not None and s.played:
            return s.player
        return None

    def _present(self, seats: Sequence[int]) -> None:
        """A hand is dealt: the people seated here with the table open (``Cut.awaited``) play it."""
        for seat in seats:
            self.seating[seat].played = True

    def _played(self, seat: int) -> None:
        """The person at ``seat`` plays the match in play (a move of their own, or the table opened
        during a hand dealt to them); the journal keeps it the first time."""
        if not self.seating[seat].played:
            self.seating[seat].played = True
            self.journal.step(self, ("played", seat, {}), self.seq)

    def _dealt_in(self, seat: int) -> bool:
        """The person at ``seat`` now was dealt the hand in play: held the seat, not away, at its deal."""
        match = self.match
        if match is None or match.hand_over() or seat >= len(self.hand_holders):
            return False
        dealt, now = self.hand_holders[seat], self.seating[seat]
        return dealt.person and not dealt.away and (dealt.name, dealt.player) == (now.name, now.player)

    def _open_absent(self) -> None:
        """The match is over: a person who played none of it (away or dropped from before its first
        deal to its end) did not play it, and their seat opens as if they had left; a seat of a
        tournament's table stays its player's."""
        if self.config.tournament:
            return
        for s in self.seating.seats:
            if s.token is not None and not s.bot and not s.played:
                self.journal.let_go(self, s.index)

    def _holder_changed(self, seat: int, left: str | None = None) -> None:
        """A seat changed hands (or a bot took over for a person, or gave the seat back): during a
        match, the journal keeps who plays it from here on, and the hand in play names them."""
        if self.match is None:
            return
        holder = self.seating[seat].holder()
        data: dict[str, Any] = {**holder.data(), "played": self.seating[seat].played}
        if left is not None:
            data["left"] = left
        if seat in self.fresh:  # a restart between hands keeps the ended hand out of the newcomer's view
            data["fresh"] = True
        self.journal.step(self, ("seat", seat, data), self.seq)
        self._recall_holder(seat, data)

    def _recall_holder(self, seat: int, data: Mapping[str, Any]) -> None:
        if data.get("fresh"):
            self.fresh.add(seat)
        if left := data.get("left"):
            self.leavers.setdefault(seat, []).append(str(left))
        if "played" in data:  # a journal written before the flag was kept leaves it as it is
            self.seating[seat].played = bool(data["played"])
        if self.match is not None and not self.match.hand_over():
            fields = {k: data[k] for k in ("name", "bot", "away", "player", "level")}
            self.hand_changes.append((self.match.logged(), seat, Holder(**fields)))

    def _name_holders(self, record: dict[str, Any]) -> None:
        """A finished hand's history names each seat as it was when dealt (a bot says so), and
        every change of hands during it from the action on which it took effect (docs/history.md)."""
        if len(self.hand_holders) == len(record["seats"]):
            record["seats"] = [{**entry, **h.record()} for entry, h in zip(record["seats"], self.hand_holders,
                                                                            strict=True)]
        if self.hand_changes:
            seqs = [entry["seq"] for entry in record["actions"] if entry.get("seat") is not None]
            record["holders"] = [{"seat": seat, "from": seqs[acts], **h.record()}
                                 for acts, seat, h in self.hand_changes if acts < len(seqs)]

    # -- timers and bots -----------------------------------------------------------
    def _schedule(self) -> None:
        """After any change: restart the turn timer and let bots due to act think."""
        self.pacer.stop_turn()
        self._thinking = None  # a decision still coming is for an earlier moment
        match = self.match
        if match is None or self.closed or match.hand_over():
            self.window_ends = None
            return
        waiting = match.to_act()
        window = match.timeout_ms()
        if window is None:
            self.window_ends = None
            if not waiting:
                return
            seconds = self.config.turn_seconds
        else:  # a claim window: its whole time from its opening, whoever may claim (nobody, perhaps)
            now = asyncio.get_running_loop().time()
            if self.window_ends is None:
                self.window_ends = now + self._window_span(window)
            seconds = max(0.0, self.window_ends - now)
        people = [s for s in waiting if not self.seating[s].botted]
        if people or window is not None:
            self.pacer.turn(seconds, self._expire)
        due = self._bots_due(waiting, people)
        self.planned = None
        if window is not None:
            # A bot lets a window go by saying nothing (its time running out says it for everyone,
            # so no answer shows who could claim); it speaks only to take the card.
            for bot in due:
                action = match.bot_action(bot, self.rng, self._level(bot))
                if action != match.default_action(bot):  # not letting it go (what the window's end does)
                    self.planned = bot, action
                    self._pace(seconds / 2)
                    return
            return
        if not due:
            return
        # The bot decides first, so that its delay fits the decision: quick for a pass in a claim
        # window or a forced move, a card's time for a card, longer for a call or its answer.
        cap = seconds / 2 if window is not None else None
        seat = next((s for s in due if match.legal_actions(s)), None)
        if seat is not None:
            decision = match.decision(seat, self._level(seat))
            if isinstance(decision, Action):  # nothing to decide
                self.planned = seat, decision
            elif self.thinker is None:
                self.planned = seat, self.rules.decide(decision, self.rng)
            else:  # decided in a worker: the timer is set when the answer is back
                started = asyncio.get_running_loop().time()
                try:
                    future = self.thinker.decide(decision, self.rng.getrandbits(64))
                except Exception:  # no worker can take it: decide here, the table plays on
                    log.exception("table %s: no bot worker could decide; the bot decides on the loop", self.id)
                    self.planned = seat, self.rules.decide(decision, self.rng)
                    self._pace(cap)
                    return
                self._thinking = moment = object()
                future.add_done_callback(
                    lambda done: self.pacer.run(lambda: self._thought(moment, seat, started, cap, done)))
                return
        self._pace(cap)

    def _window_span(self, window_ms: int) -> float:
        """How long a claim window stays open, in seconds: the table's ``claim_ms`` while a person
        plays here; at a table only bots play, one bot move's time (the bots decide at once, and
        no one waits for a person who is not there). Either way it depends on who sits where,
        which everyone sees, never on who could claim."""
        if any(not seat.botted for seat in self.seating.seats):
            return window_ms / 1000
        return max(self.config.bot_delay, 0.01)

    def _thought(self, moment: object, seat: int, started: float, cap: float | None,
                 done: asyncio.Future[Action]) -> None:
        """A decision made elsewhere is back: it stands only if the table has not moved since."""
        if moment is not self._thinking or self.closed or done.cancelled():
            return
        self._thinking = None
        match = self.match
        assert match is not None
        try:
            action = done.result()
        except Exception:  # a worker that died or failed: decide here instead
            log.exception("table %s: a bot's decision failed elsewhere; it decides on the loop", self.id)
            action = match.bot_action(seat, self.rng, self._level(seat))
        self.planned = seat, action
        self._pace(cap, asyncio.get_running_loop().time() - started)

    def _pace(self, cap: float | None, spent: float = 0.0) -> None:
        """Set the bots' timer for the move planned: its thinking time, less what deciding took."""
        match = self.match
        assert match is not None
        kind = pacing.Pace.CARD if self.planned is None else pacing.pace(
            self.planned[1], match.legal_actions(self.planned[0]))
        delay = pacing.delay(kind, self.config.bot_delay, self.rng)
        if cap is not None:
            delay = min(delay, cap)
        self.pacer.bots(max(0.0, delay - spent), self._bots_move)

    def _bots_due(self, waiting: Sequence[int], people: Sequence[int]) -> list[int]:
        """The bots that may move now: a bot never answers for its team before a person on it."""
        teams = {self.seating.team(s) for s in people} if self.rules.teams else set()
        return [s for s in waiting if self.seating[s].botted and self.seating.team(s) not in teams]

    def _level(self, seat: int) -> str:
        return self.seating[seat].level or DEFAULT_LEVEL

    def _expire(self) -> None:
        """The turn timer ran out: every seat still waited on takes its default action.

        A person's partner who is a bot decides for the team instead, when it may; a lapsed
        window the rules time (a claim window) is nobody's missed turn.
        """
        match = self.match
        assert match is not None
        window = match.timeout_ms() is not None
        if window:  # the window's time is up: whoever did not answer lets it go, and it closes for all at once
            self.window_ends = None
            self._changed(match.lapse(), ("lapse", None, {}))
            return
        events: list[Event] = []
        steps: list[Step] = []
        went: list[int] = []
        for seat in match.to_act():
            if match.hand_over():
                break
            if seat not in match.to_act():
                continue
            action = match.default_action(seat)
            events += match.apply(seat, action)
            steps.append(("act", seat, action_entry(action)))
            if not window:
                away = self.seating.missed_turn(seat, self.config.away_after)
                if away is not None:
                    events.append(away)
                    went.append(seat)
        self._changed(events, *steps, away=went)

    def _bots_move(self) -> None:
        match = self.match
        if match is None or match.hand_over():
            return
        waiting = match.to_act()
        people = [s for s in waiting if not self.seating[s].botted]
        planned, self.planned = self.planned, None
        for seat in self._bots_due(waiting, people):
            legal = match.legal_actions(seat)
            if not legal:
                continue
            if planned is not None and planned[0] == seat and planned[1] in legal:
                action = planned[1]
            else:
                action = match.bot_action(seat, self.rng, self._level(seat))
            if match.timeout_ms() is not None and action == match.default_action(seat):
                continue  # in a window a bot says nothing: the window's time passes for it
            try:
                events = match.apply(seat, action)
            except IllegalAction:
                log.exception("table %s: the bot's %s was refused; it plays the default", self.id, action)
                action = match.default_action(seat)
                events = match.apply(seat, action)
            self._changed(events, ("act", seat, action_entry(action)))
            return  # one bot move at a time, so people can follow
        self._schedule()

    # -- streams -----------------------------------------------------------------------
    @property
    def in_play(self) -> int:
        """The table's number of the hand being played now (0: none): never replayed."""
        match = self.match
        return self.hands_played + 1 if match is not None and not match.hand_over() and not self.closed else 0

    def view(self, seat: int | None) -> table_pb2.View:
        match = self.match
        if match is None:
            return wire.view_message(None, seats=self.seating.summaries())
        legal = match.legal_actions(seat) if seat is not None else []
        [view] = self._views(match, [seat])
        return wire.view_message(view, legal, self.pacer.left_ms(), self.seating.summaries())

    def _views(self, match: Match, audiences: Sequence[int | None]) -> list[GameView]:
        """Each audience's view of the match; a seat taken since the last hand ended (``fresh``) sees
        that hand as a spectator does, told which seat is its own."""
        if not self.fresh or not any(seat in self.fresh for seat in audiences):
            return match.views(audiences)
        views = match.views([None if seat in self.fresh else seat for seat in audiences])
        return [cast(GameView, dataclasses.replace(cast("DataclassInstance", view), you=seat)) if seat in self.fresh
                else view for seat, view in zip(audiences, views, strict=True)]

    def view_bytes(self, audiences: Sequence[int | None]) -> list[bytes]:
        """Several audiences' views serialized for the wire, built together.

        The game shares what their views have in common, and the seats, the same for every
        audience, are serialized once.
        """
        match = self.match
        if match is None:
            return [self.view(seat).SerializeToString() for seat in audiences]
        left = self.pacer.left_ms()
        seats = self.seating.wire()
        out = []
        with wire.sharing():
            for seat, view in zip(audiences, self._views(match, audiences), strict=True):
                legal = match.legal_actions(seat) if seat is not None else []
                out.append(wire.view_bytes(view, legal, left, seats))
        return out

    def subscribe(self, token: str, seat: int | None, after_seq: int) -> tuple[Subscriber, list[bytes]]:
        opened = self.fanout.subscribe(token, seat, after_seq, self.summary())
        if seat is not None and self.seating[seat].token == token and self._dealt_in(seat):
            self._played(seat)  # here, with a hand dealt to them in play: it is theirs to play
        if self.starting and not self._absent():  # the last stream a new match waited for
            self.pacer.stop_cut()
            self._start_anyway()
        return opened

    @property
    def present(self) -> bool:
        """Someone is here now: a stream open to a seat or to the table's view.

        A token is not a person: a seat whose player closed the tab, a watcher whose client
        crashed, keep their tokens (they may come back) but are not here, so a table of bots
        that nobody follows finishes on its idle timer.
        """
        return bool(self.fanout.subscribers)

    @property
    def watching(self) -> int:
        """Watchers here now: spectator tokens with a stream open."""
        return len({sub.token for sub in self.fanout.subscribers if sub.seat is None})

    def idle_for(self, now: float) -> float:
        """Seconds the table has gone with nobody here (0 while someone is)."""
        if self.present:
            self.idle_since = None
            return 0.0
        if self.idle_since is None:
            self.idle_since = now
        return now - self.idle_since

    def finish(self, reason: str, args: Mapping[str, str] | None = None) -> None:
        """The table closes for good: play stops, every stream ends, its hands are kept."""
        self.closed = True
        self.pacer.stop()
        self.fanout.end(reason, resubscribe=False, args=args)

    def shutdown(self, reason: str) -> None:
        """The server is going away: timers stop (a bot's decision still coming is dropped),
        streams are told to come back later."""
        self.pacer.stop()
        self._thinking = None
        self.fanout.end(reason, resubscribe=True)
