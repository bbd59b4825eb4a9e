"""One table: the match in play, and the order in which everything at the table happens.

Only the event loop touches a table, so every change (an action, a timer, a bot move)
runs to completion before the next: the table's actor is the loop itself. The table
coordinates parts that each do one job: ``Seating`` (who sits where), ``Pacer`` (timers),
``Fanout`` (numbering and streams), the journal (what a restart needs), ``Turns`` (the turn
timer and the bots' moves), ``Dealing`` (each hand's fair deal: commitment, cut, reveal) and
``Rematcher`` (who stays for the next match, and in which seats). The parts read the table and
hand their changes back to it (``_changed``, ``_note``), so the order below holds for all. It
works on engine records and its own (``summary``); ``wire`` turns them into messages.

Order of a change: journal it, record a finished hand, restart the timers, then send — so
no client sees what a restart would not bring back, and views carry the new deadline. That
holds for what no request made as much as for what one did: a claim window's time running
out, a turn timer's default and the away mark it brings, a bot's move, a cut window closing on
its deal, a commitment published and the seeds taken for it. What one change writes to the
journal is written at once (``Journal.at_once``), so a kill -9 keeps all of it or none.

Every hand is a fair deal (``server.dealing``): the table draws a secret seed, publishes its
commitment, takes the seated people's seeds for a short window and deals from all of them; the
hand's end reveals them. The journal keeps each hand's whole deal seed, the server's included,
so a restart deals the same cards.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

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
from cardtui.engine.fairness import DealSeed
from cardtui.engine.history import action_entry, action_of
from cardtui.engine.options import Raw
from cardtui.engine.sealed import Move
from cardtui.i18n import N_
from cardtui.server.actor.dealing import Cut, Dealing
from cardtui.server.actor.events import Chatted, MatchStarted
from cardtui.server.actor.fanout import Fanout, Numbered, Subscriber, sees
from cardtui.server.actor.pacing import Pacer
from cardtui.server.actor.rematch import Choice, Decided, Rematcher
from cardtui.server.actor.sealed import Sealing
from cardtui.server.actor.sealed import Step as SealStep
from cardtui.server.actor.seating import Holder, Seating
from cardtui.server.actor.turns import Turns
from cardtui.server.base import wire
from cardtui.server.base.clock import REAL, Clock
from cardtui.server.base.errors import FailedPrecondition
from cardtui.server.base.summary import Status, TableSummary
from cardtui.server.base.thinking import Thinker
from cardtui.server.people.records import Tally
from cardtui.server.store import StoreDown
from cardtui.v1 import table_pb2

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

NO_TALK = "spectators-and-between-hands"
"""The ``chat`` option's value by which players talk only between hands (truco paulista)."""
SYSTEM_RANDOM = random.SystemRandom()
"""The tables' generator where none is given (the seeds of deals, the bots' choices): the system's, which
keeps no state, so one serves every table (each made its own: 2.5 KB of a Mersenne Twister it never used)."""


def _nothing() -> None:
    pass


def _nothing_of(table: Table) -> None:
    pass


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
    cut_window: float = 3600.0
    """Seconds the deal waits at most for the seated people's seeds (the room's setting, ``room.DEFAULT_CUT`` unless
    the host set one): at most the turn clock (``Dealing.wait``); 0: no cuts."""
    delayed_view: bool = False
    """Spectators may replay every finished hand face up while the table plays (never the hand in play)."""
    bot_levels: list[str] = field(default_factory=list)
    """Each seat's bot level ("" for a person's seat; a person away is played at the default level)."""
    tournament: dict[str, Any] = field(default_factory=dict)
    """A tournament's table: ``id``, ``round``, ``table`` (its number in the round), ``entries`` (the
    entry at each seat), the round's ``byes`` and round 1's ``draw``; each hand history carries it.
    Such a table plays one match, keeps its seats for the tournament's players and never idles out."""


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

    def open(self) -> bool:
        """A write is under way and not yet kept (its transaction is open): a kill -9 now loses it."""

    def let_go(self, table: Table, seat: int) -> None:
        """The person at ``seat`` played none of the match that just ended: their token lapses and
        the seat opens as if they had left (``Table.leave``)."""

    def moved(self, table: Table, order: Sequence[int]) -> None:
        """The seats were swapped for a new match: each token now acts for the seat its holder moved
        to (seat i's holder came from ``order[i]``)."""

    def unreachable(self, table: Table, error: StoreDown) -> None:
        """The store failed under a change no request made (a timer's, a bot's): the table is let go and
        comes back from its journal once the store answers."""


class Changes(Protocol):
    """How the table's parts hand it a change of the match (``Table._changed``): the events, the journal's
    steps, and the seats a bot plays for from now on (their people having missed their turns)."""

    def __call__(self, events: list[Event], *steps: Step, away: Sequence[int] = ()) -> None: ...


class Recalls(Protocol):
    """A table part's way to take back a journal step it wrote (``Table.restore``): whether the step was its own."""

    def __call__(self, kind: str, seat: int | None, data: Mapping[str, Any]) -> bool: ...


class Notes(Protocol):
    """How the table's parts hand it table events (``Table._note``: a commitment, a vote), journaled as
    ``steps`` or marked."""

    def __call__(self, events: list[Event], *steps: Step) -> None: ...


class Table:
    """A table's whole life, driven by the event loop."""

    def __init__(
        self, table_id: str, rules: Rules, config: TableConfig, journal: Journal, rng: random.Random | None = None,
        thinker: Thinker | None = None, clock: Clock = REAL,
    ) -> None:
        self.id = table_id
        self.epoch = 0
        """Which of its owners' turns this process drives the table in (``Store.claim``): its writes
        are fenced by it."""
        self.rules = rules
        self.config = config
        self.options = rules.check_options(config.options)
        specs = {s.name: s for s in rules.option_specs}
        self._options_listed = tuple((specs[k], v) for k, v in self.options.items())
        """The options as the lobby lists them, each with its spec: a table's options do not change."""
        self._listed: tuple[TableSummary, bytes] | None = None
        """The summary last listed, and its entry of a lobby's list (``listed``)."""
        self.journal = journal
        self.rng = rng or SYSTEM_RANDOM
        self.thinker = thinker
        """Where the bots' searches run (None: here, on the loop)."""
        stand_in = next((level for level in config.bot_levels if level), DEFAULT_LEVEL)
        self.seating = Seating(config.seats, config.bots, rules.teams, stand_in)
        self.seating.keeps_left = bool(config.tournament)
        """A person away is played at the table's bot level (its first bot's), or the default."""
        for seat, level in zip(self.seating.seats, config.bot_levels, strict=False):
            seat.level = level or stand_in
        self.spectators: dict[str, str] = {}  # token -> name
        self.match: Match | None = None
        self.fanout = Fanout(self.view, self.view_bytes)
        self.on_listing: Callable[[], None] = _nothing
        """Told when something this table's entry in the lobby's list shows may have changed: a seat, a watcher,
        its status (``server.listings``)."""
        self.fanout.on_change = self.seating.on_change = self._listing
        self.on_between_hands: Callable[[Table], None] = _nothing_of
        """Told each time a hand ends and the table's pause before the next begins, after the hand's events are
        sent: the moment it may move to another process (``movable``), which a look from outside can miss, the
        pause being as short as ``next_hand_delay`` (``Room.hand_over_soon``). Told while the hand's change is
        still being made: it must not let the table go there and then."""
        self.pacer = Pacer(lambda error: self.journal.unreachable(self, error), clock)
        self.hands_played = 0
        self.tally = Tally()
        """What the match's events say for the players' records (pots taken, truco calls won)."""
        self.matches = 0
        self.turns = Turns(self, self._changed)
        """The turn timer and the bots' moves."""
        self.dealing = Dealing(self, self._note, self._deal)
        """Each hand's fair deal: its commitment, its cut, the seed it is dealt from, its reveal."""
        self.rematches = Rematcher(self, self._note, self._next_hand)
        self.sealed = Sealing(self, self._note) if self.options.get("sealed") else None
        """A sealed table's hands (``server.actor.sealed``): the deal its seats make, the cards they open."""
        """At a match's end, who stays for the next, and in which seats."""
        self._held: list[Numbered] | None = None
        """What changes made inside another change (``change``) send once the outermost is written; None: no
        change is being written."""
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
        self.leavers: dict[int, list[str]] = {}
        """Remembered players who played a seat during the match in play, left it, and whose seat
        someone else took since: the match's result is still theirs (leaving does not dodge a loss)."""
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

    def summary(self) -> TableSummary:
        """The table as the lobby lists it (``wire.table_summary`` for the wire)."""
        return TableSummary(
            id=self.id,
            game=self.rules.name,
            name=self.config.name,
            seats=self.seating.listed(),
            spectators=self.watching,
            options=self._options_listed,
            has_password=bool(self.config.password),
            private=self.config.private,
            status=self.status,
            turn_seconds=int(self.config.turn_seconds),
            delayed_spectator_view=self.config.delayed_view,
            tournament_id=str(self.config.tournament.get("id", "")),
            tournament_round=int(self.config.tournament.get("round", 0)),
            no_cuts=self.config.cut_window <= 0,
        )

    def _listing(self) -> None:
        self.on_listing()

    def listing_key(self) -> tuple[int, int, Status]:
        """What, of this table's entry in the lobby's list, may change, in a value that costs next to nothing to
        make and compare: the seats' version, the watchers, the status (the rest of an entry never changes)."""
        return self.seating.version, self.watching, self.status

    def listed(self) -> bytes:
        """The table's entry of a lobby's list (a ``ListTablesResponse``'s ``tables`` field), serialized.

        A lobby's list is asked for every two seconds by each person in a lobby, and most tables'
        summaries have not changed since the last time: the entry is made again only when the summary
        differs from the one it was made from.
        """
        summary = self.summary()
        kept = self._listed
        if kept is None or kept[0] != summary:
            kept = self._listed = (summary, wire.field_bytes(1, wire.table_summary(summary).SerializeToString()))
        return kept[1]

    # -- what the parts hold, as the table's -------------------------------------------
    @property
    def cut(self) -> Cut | None:
        """The hand being cut (``Dealing.cut``)."""
        return self.dealing.cut

    @property
    def starting(self) -> bool:
        """A new match waits for the seated people's streams to open (``Dealing.starting``)."""
        return self.dealing.starting

    @property
    def deal_seed(self) -> DealSeed | None:
        """What the hand in play was dealt from (``Dealing.deal_seed``)."""
        return self.dealing.deal_seed

    @property
    def planned(self) -> tuple[int, Action] | None:
        """The bot move the bots' timer will make (``Turns.planned``)."""
        return self.turns.planned

    @property
    def window_ends(self) -> float | None:
        """When the claim window open now closes (``Turns.window_ends``)."""
        return self.turns.window_ends

    @property
    def votes(self) -> Mapping[int, Choice] | None:
        """At a match's end, what each person staying asked for (``Rematcher.votes``)."""
        return self.rematches.votes

    # -- seats ---------------------------------------------------------------------
    def sit(self, name: str, seat: int, token: str, player: str | None = None, pledge: bytes | None = None) -> int:
        left = self._leaver(self.seating.pick(seat).index)  # "any free seat" too: the seat it gives
        target, event = self.seating.sit(name, seat, token, player, pledge)
        self.journal.seats(self)
        if self.sealed is not None:
            self.sealed.seated(target.index)
        if self.match is not None and self.match.hand_over():
            self.fresh.add(target.index)
        self._holder_changed(target.index, left)
        self._note([event])
        self.dealing.sat(token)
        if self.match is not None:
            self._schedule()  # a person takes a seat back from the bot: their timer runs
        else:
            self.dealing.start()
        return target.index

    def reclaim(self, seat: int, token: str, pledge: bytes | None = None) -> None:
        """A remembered player takes their seat back under a new token (and its client's pledge); the old one's
        streams end."""
        old, event = self.seating.reclaim(seat, token, pledge)
        self.journal.seats(self)
        self.dealing.sat(token)
        if old is not None and old != token:  # (the same token: the same client's join, sent again)
            self.fanout.end(N_("You sat down at this seat from another client."), resubscribe=False, token=old)
        if event is not None:
            self._holder_changed(seat)
            self._note([event])
        if self.match is not None:
            self._schedule()

    def leave(self, seat: int, reason: str = N_("You left the table.")) -> None:
        """A person leaves: every stream of theirs ends (told ``reason``); during a match, or once the match's
        first hand is committed (its seats are fixed then), a bot plays on."""
        token, event = self.seating.leave(seat, playing=self.match is not None or self.dealing.cut is not None)
        self.journal.seats(self)
        if token is not None:
            self.fanout.end(reason, resubscribe=False, token=token)
        self._holder_changed(seat)
        self._note([event])
        self.dealing.away(seat)
        if self.match is not None:
            self._schedule()
        self.rematches.left(seat)

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
        """Replay the journal of the match in play: same cards, same turn; timers restart. Each part of the table
        takes back the steps it journaled (``recall``): who holds each seat, a deal being cut (the commitment
        everyone saw, the seeds already taken), the votes to play again, the match's own. ``sent``: the latest
        events as they were kept, replayed to a stream that resumes from before them."""
        parts: tuple[Recalls, ...] = (self._recall_seat, self.rematches.recall, self.dealing.recall,
                                      *((self.sealed.recall,) if self.sealed is not None else ()), self._recall_match)
        for (kind, seat, data), _ in steps:
            next(part for part in parts if part(kind, seat, data))
        self.fanout.restore(max([seq, *(s for _, s in steps)]), sent)
        self.moved = dict.fromkeys(range(len(self.seating)), self.fanout.seq)  # what moved before is not known
        self.hands_played = hands
        if self.dealing.resume():  # a deal was being cut: its window runs again (a seed still coming may yet go in)
            return
        if self.match is not None and self.match.hand_over():
            if self.match.match_over():
                self._open_absent()  # in case the server stopped before it could
            if self.rematches.votes is not None:
                self.rematches.wait()  # the people staying are asked again, their answers so far kept
            else:
                self.pacer.next_hand(self.config.next_hand_delay, self._next_hand)
        else:
            self.dealing.start()
            if self.sealed is not None:
                self.sealed.hosts_act()  # a step of the host's seats not made before the stop
            self._schedule()

    def _recall_seat(self, kind: str, seat: int | None, data: Mapping[str, Any]) -> bool:
        """A seat's steps: it changed hands (who plays it from here on is in the seats), or its person made a move
        of their own."""
        if kind == "seat":
            assert seat is not None
            self._recall_holder(seat, data)
            return True
        if kind == "played":
            assert seat is not None
            self.seating[seat].played = True
            return True
        return False

    def _recall_match(self, kind: str, seat: int | None, data: Mapping[str, Any]) -> bool:
        """The match's steps: its start and each next deal (with the seed it was dealt from), a window the rules
        time that ran out, a seat's action."""
        if kind in ("start", "next"):
            seed = self.dealing.recall_deal(data)
            self._dealt(data.get("holders"))
            if kind == "start":
                self.leavers = {}
                for s in self.seating.seats:
                    s.played = False
            self._present(self.dealing.awaited)
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
        return True

    def open(self) -> None:
        """A new table: a table of bots starts at once."""
        self.dealing.start()

    def _next_hand(self) -> None:
        """The pause between hands (or a match's end) is over: the next hand is cut."""
        if self.closed or self.match is None or self.dealing.cut is not None:
            return
        if self.config.tournament and self.match.match_over():
            return  # a tournament's table plays one match; the tournament closes it
        self.dealing.next_hand()

    # -- fair deals (server.dealing) ------------------------------------------------------
    def take_cut(self, seat: int, hand: int, seed: bytes) -> bool:
        """A seated person's link for the hand being cut (``Dealing.take_cut``): whether it was taken."""
        return self.dealing.take_cut(seat, hand, seed)

    def _deal(self, committed: tuple[Event, ...] = ()) -> None:
        """Deal the hand being cut (its window closed, or the last link awaited came in); ``committed`` is
        its commitment if not yet published."""
        cut = self.dealing.close()
        if cut is None or self.closed:
            return
        moved: tuple[int, ...] = ()
        decided: Decided | None = None
        if cut.new_match:
            # seats people left mid-match (or once this deal was committed) are open bots' seats now (a
            # tournament's stay its players'): the seats were fixed at the commitment, so it is dealt as it said
            if not self.config.tournament and self.seating.forget_left():
                self.journal.seats(self)
            moved, decided = cut.moved, cut.decided
            self.rematches.apply(moved)
        seed = self.dealing.seed(cut, moved)
        awaited = self.dealing.awaited
        data: dict[str, Any] = {"fair": seed.as_record(), "holders": self._dealt(), "awaited": list(awaited)}
        if cut.new_match:
            self.leavers = {}
            for s in self.seating.seats:  # nobody has played the new match yet
                s.played = False
            self.matches += 1
            names = self.seating.names()
            self.match, events = self.rules.open(self.options, self.rules.seat_infos(names), seed)
            self._listing()
            self.match.keep_time()  # a window the rules time stays open its whole time: how long says nothing
            self.tally.start(self.match.scores())
            started = MatchStarted(self.matches, moved) if decided is None else MatchStarted(
                self.matches, moved, asked=True, same_votes=decided.same, swap_votes=decided.swap,
                agreed=decided.agreed, chosen_by=decided.chosen_by)
            events = [Event(started), *events]
            step: Step = ("start", None, {**data, "names": names, "match": self.matches})
        else:
            assert self.match is not None
            events = self.match.next_hand(seed)
            step = ("next", None, data)
        self._present(awaited)
        if self.sealed is not None:
            events = [*events, *self.sealed.begin(cut.hand)]
            self._changed([*committed, *events], step, ("sealed", None, self.sealed.named_step()))
            self.sealed.hosts_act()  # the host's seats (a bot's) make their steps at once
            return
        self._changed([*committed, *events], step)

    # -- acting --------------------------------------------------------------------
    def act(self, seat: int, action: Action, seen_seq: int = 0) -> int:
        """Apply a person's action; returns the last sequence number it produced."""
        if self.match is None:
            raise FailedPrecondition("The game has not started: seats are still open.")
        if seen_seq and seen_seq < self.moved.get(seat, 0):
            raise FailedPrecondition("The table has moved on since what you saw; look again and choose.")
        if self.sealed is not None:
            action = self._sealed_act(seat, action)
        if self.sealed is None or not self.sealed.host_move(seat, action):  # (a host's seat: a card with its keys)
            self._apply(seat, action)
        self.back(seat)
        self._played(seat)  # a move of their own: this match is theirs
        return self.seq

    def _sealed_act(self, seat: int, action: Action) -> Action:
        """At a sealed table a card moves only with its keys (``Seal``), and nothing moves while the deal is made. A
        person who sat down during a hand at a seat of the host's plays its cards by name: they are the host's until
        the next hand, and go out with the host's keys (``Sealing.host_move``)."""
        assert self.match is not None and self.sealed is not None
        if self.sealed.waits:
            raise FailedPrecondition("The sealed deal is still being made: play begins once every seat's step is in.")
        sealed = self.match.sealed()
        if self.sealed.hosting(seat):
            if sealed is not None and sealed.move(action) is Move.SHOW and not action.cards:
                shown = self.match.bot_action(seat, self.rng)  # the claim's cards are the host's: it shows them
                if sealed.move(shown) is Move.SHOW and shown.cards:
                    return shown
            return action
        if sealed is not None and sealed.move(action) not in (None, Move.KEEP):  # (a keep moves no card: ``followed``)
            raise FailedPrecondition("At a sealed table a card is played or shown with its keys (Table.Seal), not "
                                     "named alone.")
        return action

    def seal(self, seat: int, hand: int, step: SealStep, said: bytes = b"") -> int:
        """A seat's step of the sealed hand ``hand`` (``Sealing.take``); returns the last sequence number. ``said``:
        the step's digest (``sealed_wire.said``): the same step sent again by its seat, its answer having been lost
        on the way, is answered as taken and changes nothing."""
        if self.sealed is None or self.match is None:
            raise FailedPrecondition("This table is not sealed: its cards are dealt by the server.")
        if self.sealed.hosting(seat):  # (sat down at during the hand: the host makes the seat's steps)
            raise FailedPrecondition("This seat's cards are the host's until the next hand: play them by name; your "
                                     "own client deals in from the next hand.")
        if said and self.sealed.repeated(seat, hand, said):
            return self.seq
        with self.change():  # the step and its digest are kept together: a repeat after a restart is known too
            self.sealed.take(seat, hand, step)
            if said:
                self.sealed.took(seat, hand, said)
        self.sealed.hosts_act()  # what the step made due of the host's seats
        self.back(seat)
        return self.seq

    def sealed_apply(self, seat: int, action: Action) -> list[Event]:
        """A card a seat opened (or played face down), as the game's action: the engine's events for it."""
        assert self.match is not None
        try:
            events = self.match.apply(seat, action)
        except IllegalAction as e:
            raise FailedPrecondition(e.template or str(e), **e.args_) from None
        if not self.seating[seat].bot:  # (a bot's seat is the host's: nobody's match to claim)
            self._played(seat)
        return events

    def sealed_changed(self, events: list[Event], steps: Sequence[Step]) -> None:
        """A sealed step's events and journal steps (``server.actor.sealed``)."""
        self._changed(events, *steps)

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
        """A person staying for the next match asks for the same seats or the seats swapped (``Rematcher.vote``)."""
        self.rematches.vote(seat, choice)

    # -- what follows a change -------------------------------------------------------------
    def _changed(self, events: list[Event], *steps: Step, away: Sequence[int] = ()) -> None:
        """The match moved (``steps`` say how, for the journal); ``away``: seats a bot plays for
        from now on, their people having missed their turns."""
        assert self.match is not None
        if self.sealed is not None:
            events = [*events, *self.sealed.followed(steps)]
        ended = self.match.hand_over() and not self.pacer.between_hands
        if ended:
            events = [*events, *self.dealing.reveal()]
        batch = self.fanout.number(events, self.seating.holders())
        for seq, mask, _, _ in batch:
            for seat in range(len(self.seating)):
                if sees(mask, seat):
                    self.moved[seat] = seq
        with self._journaling(batch), self.change():
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
        self._send(batch)
        if ended and self.match.match_over():
            self._open_absent()
        if ended:
            self.on_between_hands(self)

    def _note(self, events: list[Event], *steps: Step) -> None:
        """Table events (seats, chat, a commitment): numbered and marked in the journal (or
        journaled as ``steps``), so no number is reused."""
        batch = self.fanout.number(events, self.seating.holders())
        with self._journaling(batch), self.change():
            self.journal.sent(self, batch)
            for step in steps:
                self.journal.step(self, step, self.seq)
            if not steps:
                self.journal.mark(self, self.seq)
        self._send(batch)

    @contextmanager
    def change(self) -> Iterator[None]:
        """One change's journal writes, kept all together (``Journal.at_once``). A change made inside it (a seat's
        seed that deals the hand, the host's seats' steps that follow the deal) is part of it, and what that inner
        change sends waits until the whole is written, then goes out as one message: a client never sees what a
        kill -9 before the commit would take back."""
        outer = self._held is None
        if outer:
            self._held = []
        try:
            with self.journal.at_once():
                yield
        except BaseException:
            if outer:
                self._held = None  # nothing of it was kept: none of it is sent
            raise
        if outer:
            held, self._held = self._held, None
            self._send(held or [])

    def _send(self, batch: Sequence[Numbered]) -> None:
        """A change's events to the streams once it is written; inside another change, once that one is. Sent
        from inside a store write not yet kept (one the table did not open), they would be a promise a kill -9
        breaks: refused loudly, whatever the event."""
        if self._held is not None:
            self._held.extend(batch)
            return
        if batch and self.journal.open():
            raise AssertionError(f"table {self.id}: events {batch[0][0]}-{batch[-1][0]} would be sent from inside "
                                 "a store write not yet kept")
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
        sealed = self.sealed.ended() if self.sealed is not None else None
        if record is not None and sealed is not None:
            record = dict(record, sealed=sealed)
        if record is not None:
            self.hands_played += 1
            record = dict(record, table=self.id, hand=self.hands_played, match=self.matches)
            if "fair" in record:  # whose seeds the deal waited for: one of them not in fair.player_seeds was dropped
                record["awaited"] = list(self.dealing.awaited)
                if self.dealing.gone:  # (unless it went away before its link came: said, not flagged)
                    record["gone"] = list(self.dealing.gone)
            if self.config.tournament:
                record["tournament"] = dict(self.config.tournament)
            self._name_holders(record)
            self.journal.hand(self, record)
        if self.match.match_over() and self.rematches.ask():
            return  # again? the next match waits for the people staying to agree
        self.pacer.next_hand(self.config.next_hand_delay, self._next_hand)

    def _schedule(self) -> None:
        """After any change: restart the turn timer and let bots due to act think (``Turns.schedule``)."""
        self.turns.schedule()

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
        legal = self._offered(match, seat)
        [view] = self._views(match, [seat])
        return wire.view_message(view, legal, self.pacer.left_ms(), self.seating.summaries())

    def _offered(self, match: Match, seat: int | None) -> Sequence[Action]:
        """What ``seat`` may do now, as its view offers it: nothing while a sealed deal is still being made (a move
        then is refused), so a client says the turn when play begins (``ready``), not a turn it cannot take."""
        if seat is None or (self.sealed is not None and self.sealed.waits):
            return []
        return match.legal_actions(seat)

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
                out.append(wire.view_bytes(view, self._offered(match, seat), left, seats))
        return out

    def subscribe(self, token: str, seat: int | None, after_seq: int) -> tuple[Subscriber, list[bytes]]:
        opened = self.fanout.subscribe(token, seat, after_seq, wire.table_summary(self.summary()))
        if seat is not None and self.seating[seat].token == token and self._dealt_in(seat):
            self._played(seat)  # here, with a hand dealt to them in play: it is theirs to play
        self.dealing.opened(token)  # perhaps the last stream a commitment waited for
        return opened

    def unsubscribe(self, sub: Subscriber) -> None:
        """A stream ended: a seat whose deal is being cut and whose last stream this was is waited for no more."""
        self.fanout.unsubscribe(sub)
        self.dealing.closed(sub.token, sub.seat)

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
        """The table closes for good: play stops, every stream ends, its hands are kept. A deal still being cut
        is revealed first, undealt, with the reason: a link a client gave it is never spent unseen."""
        void = self.dealing.void(N_("the table closed before this deal was dealt")) if not self.closed else []
        self.closed = True
        self.pacer.stop()
        if void:
            with suppress(StoreDown):  # the store is what is gone: the streams end all the same
                self._note(void)
                if self.dealing.voided is not None:  # its line in the history, chained like a hand's
                    self.journal.hand(self, self.dealing.voided)
        self.fanout.end(reason, resubscribe=False, args=args)

    @property
    def movable(self) -> bool:
        """Whether the table may move to another process now: open, between hands (no hand in play, no cut
        waiting for seeds, no match waiting for its people), so that it comes back from its journal where the
        next hand starts."""
        match = self.match
        return (not self.closed and (match is None or match.hand_over()) and self.dealing.cut is None
                and not self.dealing.starting)

    def shutdown(self, reason: str) -> None:
        """The server is going away: timers stop (a bot's decision still coming is dropped),
        streams are told to come back later."""
        self.pacer.stop()
        self.turns.forget()
        self.fanout.end(reason, resubscribe=True)
