"""The room: every table on this server, the tokens that reach them, and the store."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import logging
import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Protocol

from cardtui.engine.core import DEFAULT_LEVEL, InvalidOptions, JsonObject, Rules
from cardtui.engine.fairness import linked
from cardtui.engine.games import GAMES
from cardtui.engine.history import dumps
from cardtui.engine.options import Raw
from cardtui.i18n import N_
from cardtui.server.actor.fanout import BUFFER, Numbered
from cardtui.server.actor.table import Step, Table, TableConfig
from cardtui.server.base import passwords, wire
from cardtui.server.base.clock import REAL, Clock, Timer
from cardtui.server.base.errors import (
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    Unavailable,
    quote,
)
from cardtui.server.base.metrics import Figures
from cardtui.server.base.names import read_name
from cardtui.server.base.text import BadText
from cardtui.server.base.thinking import Thinker
from cardtui.server.lobby.invites import Invites
from cardtui.server.lobby.listings import Listings
from cardtui.server.lobby.outage import Outage
from cardtui.server.people.players import NAMES_PER_KEY, Players
from cardtui.server.people.records import Records
from cardtui.server.store import Fenced, Place, SavedTable, Store, StoreDown, token_digest
from cardtui.v1 import common_pb2, lobby_pb2

log = logging.getLogger("cardtui.room")

_UNFENCED: AbstractContextManager[None] = nullcontext()
"""A write where no other process can take the table (one host): nothing to fence it with."""
MAX_TABLES = 2000
"""Open tables; finished ones do not count."""
FINISHED_KEPT = 500
"""Finished tables the lobby lists (their hands stay in the store whatever the number)."""
DEFAULT_TURN = 30.0
MIN_TURN, MAX_TURN = 5, 3600
"""A table's turn timer, in seconds (CreateTableRequest.turn_seconds)."""
MAX_AWAY_AFTER = 100
DEFAULT_BOT_DELAY = 1.0
MAX_BOT_DELAY_MS = 60_000
DEFAULT_IDLE = 10
MAX_IDLE = 24 * 60
NEVER = -1
"""Idle minutes of a table that never finishes: the server's setting (``serve --idle-minutes``), no table's."""
MAX_PASSWORD = 128
DEFAULT_CUT = float(MAX_TURN)
"""Seconds a deal waits at most for the seated people's seeds: by default, as long as a table's turn clock
(``Dealing.wait``: the least of the two, and no turn is longer); 0, none (no cuts). A number a store's JSON holds,
as infinity is not."""
SWEEP_SECONDS = 15.0
COLLECT_SECONDS = 60.0
"""The longest a server process leaves the collector's oldest generation unwalked (``Room.collect``).

A table is a web of references to itself (its seats, fanout, timers and listing callbacks point back at it), so
when it closes or moves away only the collector frees it, with its replay buffer, match and logs: some 80 KB.
Tables live long enough to reach the oldest generation, which the server's thresholds (``server.app``'s
``GC_THRESHOLDS``) walk after some two million calls, many hours at a busy room: a worker closing 75 tables an
hour grew 3-4 MB a real hour with them (bench/marks.md, "A closed table's memory"). So the room's sweep runs a
full collection after a table goes, and at least this often otherwise (a stream that lived long leaves grpc's
own cycles there too); each walks only what the server made since it started (the rest is frozen): 15-25 ms of CPU
with 24 tables open, at most four times a minute where tables keep closing."""
MOVED = N_("This table is served by another process now; your client follows it there.")
"""Why a table's streams end where it was, once another process has taken it over."""
STORE_AWAY = N_("The server cannot reach its store just now; the table comes back in a moment.")
RETAKE_SECONDS = 1.0
"""How soon a table let go while the store was away is brought back from its journal (and again)."""
HAND_OVER_WAIT_SECONDS = 1.0
"""How long a process asked to let tables go to even its host's workers out waits for their hands to end
(``Room.hand_over_soon``): short, since the workers' keeper sweeps for dead processes only between asks."""


TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{32}")
"""A token as ``new_token`` makes one: a client that makes its own (``join``'s ``chosen``) makes it so."""


def new_token() -> str:
    """A seat, spectator or owner token: given to its client once, kept here only as its digest."""
    return secrets.token_urlsafe(24)


def seat_levels(rules: Rules, seats: int, bots: int, asked: Sequence[str]) -> list[str]:
    """Each seat's bot level ("" for a person's seat): the bots fill the last seats, in order.

    One level asked: every bot; none (or an empty string): the default; else one per bot seat.
    """
    offered = rules.bot_levels
    if len(asked) > 1 and len(asked) != bots:
        raise InvalidArgument("Give one bot level for every bot ({bots}), or one for all of them.", bots=bots)
    for level in asked:
        if level and level not in offered:
            raise InvalidArgument("There is no bot level {level} at {game}; try one of: {choices}.",
                                  level=quote(level), game=rules.title, choices=", ".join(offered) or "none")
    chosen = list(asked) * bots if len(asked) == 1 else list(asked) or [""] * bots
    default = DEFAULT_LEVEL if DEFAULT_LEVEL in offered else (offered[0] if offered else "")
    return [""] * (seats - bots) + [level or default for level in chosen]


def said(template: str, args: Mapping[str, str] | None = None) -> str:
    """A reason sent as a message id, filled in for the host's log (in English, as the log is)."""
    try:
        return template.format(**(args or {}))
    except (KeyError, IndexError, ValueError):
        return template


def seats_said(deltas: Mapping[str, object]) -> str:
    """A hand's chips or points by seat, numbered from 1 as every screen numbers them: "seat 1 -3, seat 2 +3"."""
    def number(seat: str) -> int:
        return int(seat) + 1 if seat.isdigit() else 0

    return ", ".join(f"seat {number(seat)} {delta:+d}" if isinstance(delta, int) else f"seat {number(seat)} {delta}"
                     for seat, delta in sorted(deltas.items(), key=lambda kv: number(kv[0])))


class TableWatcher(Protocol):
    def hand_done(self, table: Table) -> None:
        """A hand ended at a tournament's table; called inside the hand's store transaction."""

    def arrived(self, table: Table) -> None:
        """A player took their seat at a tournament's table."""


@dataclass(frozen=True, slots=True)
class Pass:
    """What a token grants: a seat at a table, or a view of it (``seat is None``)."""

    table: Table
    seat: int | None
    name: str
    key: str
    """The token's digest (``token_digest``): what the room, the table's seats and streams and
    the store know it by. The token itself is its client's alone."""


@dataclass(frozen=True)
class TableRequest:
    """What a new table is asked to be, as ``CreateTableRequest`` (lobby.proto) says it, before any
    check: ``Room.config`` checks each field and makes the table's settings of it. One record for the
    lobby's tables and a tournament's, so that both are checked by the same lines."""

    game: str
    name: str = ""
    seats: int = 0
    """0: the game's fewest players."""
    bots: int = 0
    options: Mapping[str, Raw] = dataclasses.field(default_factory=dict)
    turn_seconds: float = 0
    """0: the default."""
    bot_delay_ms: int | None = None
    """None: the server's."""
    password: str = ""
    private: bool = False
    away_after: int = 0
    """0: the default (2 missed turns)."""
    idle_minutes: int = 0
    """0: the server's."""
    delayed_view: bool = False
    bot_levels: Sequence[str] = ()

    @classmethod
    def of(cls, request: lobby_pb2.CreateTableRequest, options: Mapping[str, Raw]) -> TableRequest:
        """The record of a lobby's request (its options already read from the wire)."""
        return cls(
            game=request.game, name=request.name, seats=request.seats, bots=request.bots, options=options,
            turn_seconds=request.turn_seconds,
            bot_delay_ms=request.bot_delay_ms if request.HasField("bot_delay_ms") else None,
            password=request.password, private=request.private, away_after=request.away_after,
            idle_minutes=request.idle_minutes, delayed_view=request.delayed_spectator_view,
            bot_levels=tuple(request.bot_levels),
        )


class Room:
    def __init__(
        self,
        store: Store,
        bot_delay: float = DEFAULT_BOT_DELAY,
        next_hand_delay: float = 4.0,
        idle_minutes: int = DEFAULT_IDLE,
        cut_window: float = DEFAULT_CUT,
        thinker: Thinker | None = None,
        names_per_key: int = NAMES_PER_KEY,
        clock: Clock = REAL,
    ) -> None:
        self.store = store
        self.clock = clock
        """What the room's timers and its tables' read (``server.clock``)."""
        self.outage = Outage(store, clock=clock)
        self.figures = Figures()
        """This process's figures (``server.metrics``): its moves, takeovers and journal writes counted here."""
        """Whether the store answers (``server.outage``): a failure is said once and the process not serving."""
        self.thinker = thinker
        """Where the tables' bots think (None: on the event loop)."""
        self.cut_window = cut_window
        self.players = Players(store, names_per_key, clock)
        self.records = Records(store)
        self.tables: dict[str, Table] = {}
        """Open tables."""
        self.finished: dict[str, common_pb2.TableSummary] = {}
        """Tables that have closed for good, newest last."""
        self._finished_listed: dict[str, tuple[common_pb2.TableSummary, bytes]] = {}
        """Each finished table's entry of the lobby's list, with the summary it was made from (``listing``)."""
        self.tokens: dict[str, Pass] = {}
        """What each token grants, by the token's digest: the room never keeps a token itself."""
        self.bot_delay = bot_delay
        self.next_hand_delay = next_hand_delay
        self.idle_minutes = idle_minutes
        self._log_n: dict[str, int] = {}
        self._last_hand: dict[str, JsonObject] = {}
        """Each table's last stored hand history, which the next one links to (``prev``)."""
        self._sweeper: Timer | None = None
        self.gone = 0
        """Tables closed or let go here since the last full collection (``collect``)."""
        self.collected_at = clock.now()
        self.tournaments: TableWatcher | None = None
        """The tournaments, told of each hand at their tables (``server.tournaments``)."""
        self.invites = Invites(self, store.meta.secret("invites"), self.players.server_id)
        self.listings = Listings(self)
        """This process's tables as the lobby lists them, for whoever watches them change (``server.listings``)."""
        """The tables' invite codes, and where friends reach this server (``server.invites``)."""

    def create(self, request: TableRequest) -> tuple[Table, str]:
        """A new table, and the owner token that may close it.

        Every field is checked against the bounds ``CreateTableRequest`` states (lobby.proto),
        each refusal saying them; 0 (``bot_delay_ms``: None) takes the default.
        """
        if len(self.tables) >= MAX_TABLES:
            raise ResourceExhausted("This server holds as many tables as it can.")
        config = self.config(request)
        owner = new_token()
        config.owner = token_digest(owner)  # kept, and compared, only as its digest
        table = self.open_table(config)
        log.info("table %s opened: %s, %d seats, %d bots (%s)", table.id, config.game, config.seats, config.bots,
                 ", ".join(level for level in config.bot_levels if level) or "no bots")
        table.open()
        return table, owner

    def open_table(self, config: TableConfig, prepare: Callable[[Table], None] | None = None) -> Table:
        """A table of ``config``, registered and stored; ``prepare`` seats it before it is stored."""
        rules = GAMES[config.game]
        table_id = secrets.token_hex(4)
        table = Table(table_id, rules, config, self, thinker=self.thinker, clock=self.clock)
        table.on_listing = self.listings.touching(table_id)
        table.epoch = 1
        if prepare is not None:
            prepare(table)
        self.tables[table_id] = table
        self.listings.touch(table_id)
        self.store.tables.add_table(table_id, config.game, config.name, dataclasses.asdict(config), epoch=table.epoch)
        self.seats(table)
        return table

    def _sealed_ok(self, game: str) -> None:
        """A sealed table of a game whose hands are not relayed sealed yet: refused, naming the games that are
        (docs/fairness.md, "Sealed tables"). Every arrangement relays one, and a bot's part is the server's."""
        if not GAMES[game].sealed_dealt:
            raise InvalidArgument("A sealed table of {game} is not dealt yet: the steps of its hand that move "
                                  "hidden cards are not relayed sealed. Sealed tables are dealt at: {games}.",
                                  game=GAMES[game].title,
                                  games=", ".join(rules.title for rules in GAMES.values() if rules.sealed_dealt))

    def config(self, request: TableRequest) -> TableConfig:
        """A table's settings, each field checked against ``CreateTableRequest``'s bounds (lobby.proto)."""
        game, seats, bots, turn_seconds = request.game, request.seats, request.bots, request.turn_seconds
        away_after, bot_delay_ms, idle_minutes = request.away_after, request.bot_delay_ms, request.idle_minutes
        rules = GAMES.get(game)
        if rules is None:
            raise InvalidArgument("There is no game called {game}; try one of: {games}.", game=quote(game),
                                  games=", ".join(GAMES))
        seats = seats or rules.min_players
        counts = rules.player_counts
        if seats not in counts:
            allowed = ", ".join(map(str, counts))
            raise InvalidArgument("{game} is played by {allowed} players, not {seats}.", game=rules.title,
                                  allowed=allowed, seats=seats)
        if not 0 <= bots <= seats:
            raise InvalidArgument("Bots may fill 0 to {seats} of the {seats} seats.", seats=seats)
        if turn_seconds and not MIN_TURN <= turn_seconds <= MAX_TURN:
            raise InvalidArgument("The turn timer must be between {low} and {high} seconds (0 for the default, "
                                  "{default}).", low=MIN_TURN, high=MAX_TURN, default=int(DEFAULT_TURN))
        if not 0 <= away_after <= MAX_AWAY_AFTER:
            raise InvalidArgument("Missed turns before a bot steps in must be between 1 and {high} (0 for the "
                                  "default, 2).", high=MAX_AWAY_AFTER)
        if bot_delay_ms is not None and not 0 <= bot_delay_ms <= MAX_BOT_DELAY_MS:
            raise InvalidArgument("The bot delay must be between 0 and {high} ms (unset for the server's "
                                  "default).", high=MAX_BOT_DELAY_MS)
        if idle_minutes == NEVER:
            raise InvalidArgument("A table that never finishes is the server's choice (cardtui serve "
                                  "--idle-minutes -1), not a table's; ask for 1 to {high} minutes, or 0 for the "
                                  "server's default.", high=MAX_IDLE)
        if not 0 <= idle_minutes <= MAX_IDLE:
            raise InvalidArgument("Idle minutes before a table finishes must be between 1 and {high} (0 for the "
                                  "server's default).", high=MAX_IDLE)
        if len(request.password) > MAX_PASSWORD:
            raise InvalidArgument("A table's password may be at most {most} characters long.", most=MAX_PASSWORD)
        try:
            checked = rules.check_options(request.options)
            name = read_name(request.name or f"{rules.title} table").shown
        except BadText as e:
            raise InvalidArgument(e.template, **e.args_) from None
        except InvalidOptions as e:
            raise InvalidArgument(e.template, **e.args_) from None
        except ValueError as e:
            raise InvalidArgument(str(e)) from None
        if checked.get("sealed"):
            self._sealed_ok(game)
        levels = seat_levels(rules, seats, bots, request.bot_levels)
        return TableConfig(
            game=game,
            name=name,
            seats=seats,
            bots=bots,
            options=checked,
            turn_seconds=turn_seconds or DEFAULT_TURN,
            bot_delay=self.bot_delay if bot_delay_ms is None else bot_delay_ms / 1000,
            next_hand_delay=self.next_hand_delay,
            password=passwords.kept(request.password) if request.password else "",
            private=request.private,
            away_after=away_after or 2,
            idle_minutes=idle_minutes or self.idle_minutes,
            cut_window=self.cut_window,
            delayed_view=request.delayed_view,
            bot_levels=levels,
        )

    # -- a table's end ---------------------------------------------------------------------
    def owns(self, table: Table, owner_token: str) -> bool:
        """Whether ``owner_token`` is the one CreateTable gave for this table."""
        return bool(table.config.owner) and secrets.compare_digest(table.config.owner, token_digest(owner_token))

    def close_table(self, table_id: str, owner_token: str) -> None:
        table = self.table(table_id)
        if not self.owns(table, owner_token):
            raise PermissionDenied("Only the table's owner (who created it) may close it.")
        self.finish(table, N_("The table's owner closed it."))

    def finish(self, table: Table, reason: str, args: Mapping[str, str] | None = None) -> None:
        """A table closes for good: its tokens lapse, its hands stay, the lobby lists it as finished.
        ``reason``: an English template (a message id), ``args`` its fields."""
        with self.writing(table):
            self.store.tables.finish(table.id)  # kept before the streams hear of it
        table.finish(reason, args)
        for token in [t for t, g in self.tokens.items() if g.table is table]:
            del self.tokens[token]
        del self.tables[table.id]
        self.gone += 1
        self._log_n.pop(table.id, None)
        self._last_hand.pop(table.id, None)
        self._remember(table)
        log.info("table %s finished: %s", table.id, said(reason, args))

    def listing(self, include_finished: bool) -> bytes:
        """This process's own tables as the lobby lists them: a ``ListTablesResponse``, serialized, the open
        tables first, then the finished ones, newest first.

        Each entry is kept serialized and made again only when its table's summary changes
        (``Table.listed``). Serialized messages of one type laid end to end parse as one whose
        repeated fields are joined: a lobby adds other processes' lists to its own as they come.
        """
        entries = [table.listed() for table in self.tables.values()]
        if include_finished:
            entries += self.finished_entries().values()
        return b"".join(entries)

    def finished_entries(self) -> dict[str, bytes]:
        """Each finished table's entry of the lobby's list, newest first, each made once."""
        kept, self._finished_listed = self._finished_listed, {}
        for table_id, summary in reversed(self.finished.items()):
            entry = kept.get(table_id)
            if entry is None or entry[0] is not summary:
                entry = (summary, wire.field_bytes(1, summary.SerializeToString()))
            self._finished_listed[table_id] = entry
        return {table_id: entry[1] for table_id, entry in self._finished_listed.items()}

    def _remember(self, table: Table) -> None:
        summary = table.summary()
        played = self.store.hands.played(table.id)
        self.finished[table.id] = wire.table_summary(
            dataclasses.replace(summary, played_people=played.people, played_bots=played.bots))
        while len(self.finished) > FINISHED_KEPT:
            del self.finished[next(iter(self.finished))]

    def sweep(self, now: float) -> None:
        """Finish every table that has gone its idle minutes with nobody seated or watching; first, the memory of
        the tables gone since the last sweep given back (``collect``)."""
        self.collect(now)
        for table in list(self.tables.values()):
            minutes = table.config.idle_minutes
            if minutes >= 0 and not table.config.tournament and table.idle_for(now) >= minutes * 60:
                self.finish(table, N_("Nobody was at the table for {minutes} minutes."), {"minutes": str(minutes)})

    def collect(self, now: float) -> int | None:
        """A full collection, where a table closed or was let go since the last or ``COLLECT_SECONDS`` have passed:
        the objects it freed (None: not yet due). A table that went is its own cycle of references, and what has
        lived long is walked by the collector only now and then, so without this the tables that went stayed, a
        few a minute at a busy room (``COLLECT_SECONDS``)."""
        if not self.gone and now - self.collected_at < COLLECT_SECONDS:
            return None
        self.gone = 0
        self.collected_at = now
        return gc.collect()

    def start_sweeping(self, every: float = SWEEP_SECONDS) -> None:
        def tick() -> None:
            try:
                self.sweep(self.clock.now())
            except StoreDown as e:  # (a table it finished is let go: ``writing``)
                self.outage.down("the idle sweep", e)
            except Unavailable:
                pass
            self._sweeper = self.clock.call_later(every, tick)

        self._sweeper = self.clock.call_later(every, tick)

    # -- the journal: what a restart needs ---------------------------------------------
    def writing(self, table: Table) -> AbstractContextManager[None]:
        """What is written inside is the table's, written only while this process still drives it.

        Where a process can lose its table and live on (hosts sharing a PostgreSQL store:
        ``Owners.FENCES``), each write is fenced by the table's epoch (``Owners.fence``), in one
        transaction with it: if another process has taken the table over, nothing is written, the
        table is let go here (its streams told to follow it), and the request that wrote is
        refused as ``Unavailable``.
        """
        return self._fenced(table) if self.store.owners.FENCES else _UNFENCED

    @contextmanager
    def _fenced(self, table: Table) -> Iterator[None]:
        try:
            with self.store.transaction():
                self.store.owners.fence(table.id, table.epoch)
                yield
        except Fenced:
            self.lost(table)
            raise Unavailable(MOVED) from None
        except StoreDown as e:
            self.unreachable(table, e)
            raise Unavailable(STORE_AWAY) from None

    def unreachable(self, table: Table, error: StoreDown) -> None:
        """The store failed in the middle of a change of ``table``'s: what the table did in memory was not
        written, so it is let go and comes back from its journal once the store answers."""
        self.outage.down("a table's change", error)
        self.outage.said("let go", "table %s is let go until the store answers; it comes back from its journal",
                         table.id)
        self.lost(table, STORE_AWAY)
        self._retake_soon(table.id)

    def lost(self, table: Table, reason: str = MOVED, quiet: bool = False) -> None:
        """``table`` is driven no more here (another process drives it now, or its journal must bring
        it back): it is let go, and whoever follows it is told to find it again (``Locate``)."""
        if self.tables.get(table.id) is not table:
            return
        if reason == MOVED and not quiet:
            log.warning("table %s is driven by another process now; it is let go here", table.id)
        del self.tables[table.id]
        self.gone += 1
        for token in [t for t, g in self.tokens.items() if g.table is table]:
            del self.tokens[token]
        self._log_n.pop(table.id, None)
        self._last_hand.pop(table.id, None)
        table.shutdown(reason)

    def hand_over(self, table_ids: Iterable[str], most: int, to: str = "") -> list[str]:
        """At most ``most`` of these tables let go, each between hands (``Table.movable``), handed to the owner
        ``to`` to take over from its journal (the worker with less work: ``server.processes.placement``); its
        streams are told to find it again, as after a takeover. The ids let go."""
        released: list[str] = []
        for table_id in table_ids:
            if len(released) >= most:
                break
            table = self.tables.get(table_id)
            if table is None or not table.movable or not self.store.owners.release(table_id, table.epoch, to):
                continue
            log.info("table %s moves to another process between hands", table_id)
            self.lost(table, MOVED, quiet=True)
            released.append(table_id)
        return released

    async def hand_over_soon(self, table_ids: Sequence[str], most: int, to: str = "",
                             wait: float = HAND_OVER_WAIT_SECONDS) -> list[str]:
        """``hand_over``; and while fewer than ``most`` are let go, each other of these tables let go at the moment
        its hand ends, for ``wait`` seconds at most. A table is between hands only for the pause before its next
        deal (as short as ``next_hand_delay``), while a hand lasts as long as its players take: on a busy host, a
        look from outside now and then found every table in a hand, look after look, and the workers stayed
        uneven. The ids let go."""
        released = self.hand_over(table_ids, most, to)
        waiting = [table for table_id in table_ids if table_id not in released
                   and (table := self.tables.get(table_id)) is not None]
        if len(released) >= most or not waiting or wait <= 0:
            return released
        done = asyncio.Event()
        loop = asyncio.get_running_loop()

        def ended(table: Table) -> None:  # told while the hand's change is still being made: let go just after it
            loop.call_soon(let_go, table)

        def let_go(table: Table) -> None:
            if done.is_set():  # enough let go, or the wait is over: what is not returned must stay here
                return
            try:
                released.extend(self.hand_over([table.id], most - len(released), to))
            except StoreDown:  # said by the store's outage; the next ask tries again
                done.set()
            if len(released) >= most:
                done.set()

        told = {table.id: table.on_between_hands for table in waiting}
        for table in waiting:
            table.on_between_hands = ended
        try:
            await self.clock.wait(done, wait)
        finally:
            done.set()
            for table in waiting:
                table.on_between_hands = told[table.id]
        return released

    def _retake_soon(self, table_id: str) -> None:
        """Bring a table this process let go (its store away) back from its journal, once the store
        answers: taken with a new epoch, unless another process has taken it meanwhile."""

        def retake() -> None:
            try:
                place = self.store.owners.place(table_id)
                if place is not None and place.owner == self.store.owners.me and table_id not in self.tables:
                    self.take_over([place])
            except StoreDown:
                self._retake_soon(table_id)

        self.clock.call_later(RETAKE_SECONDS, retake)

    def step(self, table: Table, step: Step, seq: int) -> None:
        kind, seat, data = step
        if kind == "act":
            self.figures.acted(table.rules.name)
        n = self._log_n.get(table.id, 0)
        with self.writing(table):
            self.store.tables.log(table.id, n, kind, seat, data, seq)
            if kind == "start" and n:
                self.store.tables.trim_log(table.id, n)
        self._log_n[table.id] = n + 1

    def mark(self, table: Table, seq: int) -> None:
        with self.writing(table):
            self.store.tables.mark(table.id, seq)

    def sent(self, table: Table, batch: Sequence[Numbered]) -> None:
        with self.writing(table):
            self.store.tables.keep_sent(table.id, batch, BUFFER)

    def hand(self, table: Table, record: JsonObject) -> None:
        """Store a finished hand, linked to the table's previous one (its hash in ``prev``), so
        that a stored history cannot be rewritten without breaking the chain; and what it adds
        to the players' records, in the same transaction."""
        previous = self._last_hand.get(table.id)
        if previous is None:
            previous = self.store.hands.last_hand(table.id)
        record = json.loads(dumps(linked(record, previous)))  # hashed later exactly as stored
        with self.store.transaction(), self.writing(table):
            self.store.hands.add_hand(table.id, record)
            if "void" in record:  # a commitment that dealt no hand: nobody played it
                self._last_hand[table.id] = record
                return
            self.records.hand_done(table)
            if table.config.tournament and self.tournaments is not None:
                self.tournaments.hand_done(table)  # a match's result is scored with its last hand, once
        self._last_hand[table.id] = record
        deltas = record.get("result", {}).get("deltas", {})
        log.info("table %s hand %s: %s", table.id, record["hand"], seats_said(deltas))

    def seats(self, table: Table) -> None:
        with self.writing(table):
            self.store.tables.save_seats(table.id, table.seating.saved())
            self.store.tables.save_seat_players(table.id, [(s.index, s.player) for s in table.seating.seats])

    @contextmanager
    def at_once(self) -> Iterator[None]:
        """One journal write of a table's change, timed for the figures (the outermost only)."""
        if self.store.db.in_transaction:
            with self.store.transaction():
                yield
            return
        with self.figures.journaling(), self.store.transaction():
            yield

    def open(self) -> bool:
        """A write is under way and not yet kept: its transaction is open."""
        return bool(self.store.db.in_transaction)

    def let_go(self, table: Table, seat: int) -> None:
        """A person who played none of the match that just ended (away or dropped all of it): their
        token lapses, here and in the store, and their seat opens as if they had left."""
        s = table.seating[seat]
        name, key = s.name, s.token
        if key is not None:
            with self.writing(table):
                self.store.tables.drop_token(key)
            self.tokens.pop(key, None)
        table.leave(seat, N_("You played no hand of the match that ended: your seat is open to others now."))
        log.info("table %s: %s played no hand of the match; seat %d is open", table.id, name, seat + 1)

    def moved(self, table: Table, order: Sequence[int]) -> None:
        """The seats were swapped for a new match (seat i's holder came from ``order[i]``): each token
        acts for its holder's new seat, here and in the store."""
        for key, grant in list(self.tokens.items()):
            if grant.table is table and grant.seat is not None:
                seat = order.index(grant.seat)
                self.tokens[key] = Pass(table, seat, grant.name, key)
                self.store.tables.add_token(key, table.id, seat, grant.name)
        log.info("table %s: the seats are swapped for the next match", table.id)

    def restore(self, may: Callable[[Place], bool] | None = None) -> int:
        """Bring back every stored table whose process is gone (after a restart, every table) where
        it was: seats, tokens, the match in play (``may``: only the tables it accepts). Returns how
        many tables this room drives now."""
        try:
            self.take_over(place for place in self.store.owners.orphans() if may is None or may(place))
        finally:
            self.store.owners.let_go_dead()
        return len(self.tables)

    def take_over(self, places: Iterable[Place]) -> list[str]:
        """Drive these tables from now on, taken from their owners that are gone, from the journal
        as a restart brings them back; the ids of those taken (another process may have been first).

        A table that cannot be brought back is set aside as damaged (logged, kept in the store)
        and the rest come back.
        """
        claimed: dict[str, int] = {}
        with self.store.transaction():  # one write for them all: a restart claims every table of the room
            for place in places:
                epoch = self.store.owners.claim(place)
                if epoch is not None:
                    claimed[place.table_id] = epoch
        for saved in self.store.tables.saved_tables(only=claimed):
            rules = GAMES.get(saved.game)
            if rules is None:
                log.warning("table %s: game %r is no longer offered; not restored", saved.id, saved.game)
                continue
            try:
                self._restore_one(saved, rules, claimed[saved.id])
            except Exception as e:  # a store written by a broken or older server: keep it aside
                self.tables.pop(saved.id, None)
                for token in [t for t, g in self.tokens.items() if g.table.id == saved.id]:
                    del self.tokens[token]
                reason = f"{type(e).__name__}: {e}"
                self.store.tables.set_aside(saved.id, reason)
                log.error("table %s could not be restored and is set aside as damaged (%s)", saved.id, reason)
        taken = [table_id for table_id in claimed if table_id in self.tables or table_id in self.finished]
        self.figures.took_over(len(taken))
        return taken

    def _restore_one(self, saved: SavedTable, rules: Rules, epoch: int) -> None:
        known = {f.name for f in dataclasses.fields(TableConfig)}
        config = TableConfig(**{k: v for k, v in saved.config.items() if k in known})
        config.next_hand_delay = self.next_hand_delay
        config.cut_window = self.cut_window
        table = Table(saved.id, rules, config, self, thinker=self.thinker, clock=self.clock)
        table.on_listing = self.listings.touching(saved.id)
        table.epoch = epoch
        for saved_seat in saved.seats:
            seat = table.seating[saved_seat.seat]
            seat.name, seat.bot, seat.away = saved_seat.name, saved_seat.bot, saved_seat.away
            seat.open, seat.pledge = saved_seat.open, saved_seat.pledge
            seat.player = saved.players.get(saved_seat.seat)
        table.seating.changed()
        if saved.finished:
            table.closed = True
            self._remember(table)
            return
        for token, seat_no, name in saved.tokens:
            if seat_no is None:
                table.spectators[token] = name
            else:
                table.seating[seat_no].token = token
            self.tokens[token] = Pass(table, seat_no, name, token)  # the store keeps digests only
        self._log_n[saved.id] = saved.log[-1][0] + 1 if saved.log else 0
        self.tables[saved.id] = table
        self.listings.touch(saved.id)
        steps = [((kind, seat_no, data), seq) for _, kind, seat_no, data, seq in saved.log]
        table.restore(steps, saved.hands, saved.seq, saved.sent)
        log.info("table %s restored at event %d", saved.id, table.seq)

    def table(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            raise NotFound("There is no table {table}.", table=quote(table_id)) from None

    def locked(self, table_id: str) -> bool:
        """Whether opening the table may take a password: it has one, or it is not open here (a
        finished table's replays are checked against its stored config)."""
        table = self.tables.get(table_id)
        return table is None or bool(table.config.password)

    async def unlocked(self, table_id: str, password: str, invite: str = "") -> Table:
        """The table, once ``password`` is found to open it (checked off the loop: it is slow on
        purpose), or ``invite`` is the code its owner gave to open it; refused if it is wrong."""
        table = self.table(table_id)
        if table.config.password and self.invites.opens(table.id, invite):
            return table
        if table.config.password and not await passwords.check(table.config.password, password):
            raise PermissionDenied("That table's password is wrong.")
        return self.table(table_id)  # still open after the wait

    async def join(self, table_id: str, name: str, seat: int, password: str, session: str = "",
                   invite: str = "", pledge: bytes | None = None, on_host: bool = False,
                   chosen: str = "") -> tuple[str, Pass]:
        """A seat for a guest (no ``session``: a name nobody owns) or for the player a session proved; none at a
        sealed table for a client that runs on the host (a browser guest's).

        ``chosen``: the token the client made for this join. The same join sent again (its answer was lost to a
        deadline on a busy server) finds the seat the first one took and is given it again: a guest, whom no
        session names, would otherwise find the seat taken by the join it never heard back from."""
        table = await self.unlocked(table_id, password, invite)
        if chosen:
            again = self._joined_before(table, chosen, seat, pledge)
            if again is not None:
                return chosen, again
        if on_host and table.sealed is not None:
            raise FailedPrecondition("A browser guest cannot sit at a sealed table: its client runs on the host's "
                                     "machine, which could read its cards. Sit from your own terminal (cardtui "
                                     "connect), or watch.")
        if seat < -1:
            raise InvalidArgument("A seat number is 0 or more (leave it out for any free seat).")
        name, player = self.players.who(session, name)
        token = chosen or new_token()
        key = token_digest(token)
        held = next((s for s in table.seating.seats if player is not None and s.player == player), None)
        if held is not None:  # the same person from another client, or back after leaving: their seat
            if seat >= 0 and seat != held.index:
                raise FailedPrecondition("You already sit at this table, at seat {seat}.", seat=held.index)
            if held.token is not None and held.token != key:
                with self.writing(table):
                    self.store.tables.drop_token(held.token)
                self.tokens.pop(held.token, None)
            table.reclaim(held.index, key, pledge)
            index = held.index
            if table.config.tournament and self.tournaments is not None:
                self.tournaments.arrived(table)
        elif table.config.tournament:
            raise PermissionDenied("This is a tournament's table: only its players sit here (anyone may watch).")
        else:
            index = table.sit(name, seat, key, player, pledge)
        with self.writing(table):
            self.store.tables.add_token(key, table.id, index, name)
        grant = Pass(table, index, name, key)
        self.tokens[key] = grant
        log.info("table %s: %s joined at seat %d", table.id, name, index + 1)  # seats from 1, as every screen
        return token, grant

    def _joined_before(self, table: Table, chosen: str, seat: int, pledge: bytes | None) -> Pass | None:
        """The seat an earlier join with this client-made token took at ``table`` (None: there was none); the
        refusal if the token is anything else's."""
        if not TOKEN_SHAPE.fullmatch(chosen):
            raise InvalidArgument("A seat token a client makes is 32 characters of letters, digits, '-' and '_' "
                                  "(24 random bytes).")
        key = token_digest(chosen)
        grant = self.tokens.get(key)
        if grant is None and self.store.tables.token_table(key) is None:
            return None  # a first join
        if grant is None or grant.table is not table or grant.seat is None:
            raise InvalidArgument("That token is already in use: make a new one for a new join.")
        if seat >= 0 and seat != grant.seat:
            raise FailedPrecondition("You already sit at this table, at seat {seat}.", seat=grant.seat)
        if pledge != table.seating[grant.seat].pledge:
            table.reclaim(grant.seat, key, pledge)  # the same seat, with the pledge this client sends now
        return grant

    async def spectate(self, table_id: str, name: str, password: str, session: str = "",
                       invite: str = "") -> tuple[str, Pass]:
        table = await self.unlocked(table_id, password, invite)
        if table.config.private:
            raise PermissionDenied("This table is private: it takes no spectators.")
        name, _ = self.players.who(session, name or ("" if session else "guest"))
        token = new_token()
        key = token_digest(token)
        with self.writing(table):
            self.store.tables.add_token(key, table.id, None, name)
        table.spectators[key] = name
        grant = Pass(table, None, name, key)
        self.tokens[key] = grant
        return token, grant

    def find(self, token: str) -> Pass | None:
        """What a token grants, if anything."""
        return self.tokens.get(token_digest(token))

    def grant(self, token: str) -> Pass:
        found = self.find(token)
        if found is None:
            if self.store.owners.shared and self.store.tables.token_table(token_digest(token)) is not None:
                raise Unavailable(MOVED)  # another process drives its table: the lobby says where (Locate)
            raise PermissionDenied("That token does not open any seat or table here.")
        return found

    def seat_grant(self, token: str) -> tuple[Table, int]:
        grant = self.grant(token)
        if grant.seat is None:
            raise PermissionDenied("Spectators watch; they cannot act at the table.")
        return grant.table, grant.seat

    def leave(self, token: str) -> None:
        grant = self.grant(token)
        with self.writing(grant.table):
            self.store.tables.drop_token(grant.key)
        del self.tokens[grant.key]
        if grant.seat is None:
            grant.table.stop_watching(grant.key)
        else:
            grant.table.leave(grant.seat)
            log.info("table %s: %s left seat %d", grant.table.id, grant.name, grant.seat + 1)

    def shutdown(self, reason: str) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            table.shutdown(reason)
