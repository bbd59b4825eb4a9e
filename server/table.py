"""One table: its engine state, seats, subscribers, timers and bots.

Only the event loop touches a table, so every change (an action, a timer, a bot move)
runs to completion before the next: the table's actor is the loop itself, with one task
per table for what is timed. Each engine event gets the next sequence number; every
subscriber receives it if its audience includes them, and a content-free placeholder
with the same number otherwise, so numbering has no holes and hidden cards never leave.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardtui.engine.cards import parse_cards
from cardtui.engine.core import EVERYONE, Action, Event, IllegalAction
from cardtui.engine.games import Entry, seat_infos
from cardtui.engine.history import action_of, jsonable
from cardtui.v1 import common_pb2, table_pb2

log = logging.getLogger("cardtui.table")

BUFFER = 256
"""Recent events kept per table for reconnects (about a hand); older gaps get a snapshot."""
QUEUE = 1024
"""Messages a subscriber may fall behind before it is dropped (it resyncs on return)."""


class Refused(Exception):
    """A request the table will not do; ``code`` names the gRPC status."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Seat:
    index: int
    name: str = ""
    token: str | None = None  # a person's seat token (kept while they are away)
    bot: bool = False  # a bot's seat from the start
    away: bool = False  # the person is away or left: a bot plays for them meanwhile
    missed: int = 0  # turns in a row the timer played for the person

    @property
    def taken(self) -> bool:
        return self.bot or self.token is not None

    @property
    def botted(self) -> bool:
        """A bot plays this seat now."""
        return self.bot or self.away


@dataclass
class TableConfig:
    game: str
    name: str
    seats: int
    bots: int
    options: dict[str, Any]
    turn_seconds: float = 30.0
    away_after: int = 2
    bot_delay: float = 1.0
    next_hand_delay: float = 4.0
    password: str = ""
    private: bool = False


@dataclass(eq=False)
class Subscriber:
    seat: int | None
    queue: asyncio.Queue[table_pb2.TableMessage | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE)
    )
    dropped: bool = False


class Journal(Protocol):
    """Where a table writes what a restart needs; the room keeps it in the store."""

    def step(self, table: Table, kind: str, seat: int | None, data: dict[str, Any], seq: int) -> None: ...

    def hand(self, table: Table, record: dict[str, Any]) -> None: ...

    def seats(self, table: Table) -> None: ...


class Table:
    """A table's whole life, driven by the event loop."""

    def __init__(
        self,
        table_id: str,
        entry: Entry,
        config: TableConfig,
        journal: Journal,
        rng: random.Random | None = None,
    ) -> None:
        self.id = table_id
        self.entry = entry
        self.game = entry.game
        self.config = config
        self.options = self.game.options(config.options)
        self.journal = journal
        self.rng = rng or random.SystemRandom()
        self.seats = [Seat(i) for i in range(config.seats)]
        for i in range(config.seats - config.bots, config.seats):
            self.seats[i].bot = True
            self.seats[i].name = f"bot {i + 1}"
        self.spectators: dict[str, str] = {}  # token -> name
        self.subscribers: set[Subscriber] = set()
        self.state: Any = None
        self.seq = 0
        self.buffer: deque[tuple[int, Event]] = deque(maxlen=BUFFER)
        self.hands_played = 0
        self.matches = 0
        self.deadline: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._bot_timer: asyncio.TimerHandle | None = None
        self._next_timer: asyncio.TimerHandle | None = None
        self.closed = False

    # -- seats ---------------------------------------------------------------------
    @property
    def status(self) -> str:
        if self.state is None:
            return "waiting"
        return "playing"

    def summary(self) -> common_pb2.TableSummary:
        return common_pb2.TableSummary(
            id=self.id,
            game=self.game.name,
            name=self.config.name,
            seats=self.seat_summaries(),
            spectators=len(self.spectators),
            options_json=json.dumps(self.options.as_dict()),
            has_password=bool(self.config.password),
            private=self.config.private,
            status=self.status,
        )

    def seat_summaries(self) -> list[common_pb2.SeatSummary]:
        return [
            common_pb2.SeatSummary(
                seat=s.index, name=s.name, bot=s.botted, taken=s.taken, team=self._team(s.index), away=s.away
            )
            for s in self.seats
        ]

    def _team(self, seat: int) -> int:
        return seat % 2 if getattr(self.game, "teams", False) else seat

    def sit(self, name: str, seat: int, token: str) -> int:
        """Seat a person; a seat a person left (a bot plays it) may be taken back."""
        if seat < 0:
            free = [s for s in self.seats if not s.taken]
            if not free:
                raise Refused("RESOURCE_EXHAUSTED", "This table has no free seat.")
            target = free[0]
        else:
            if seat >= len(self.seats):
                raise Refused("INVALID_ARGUMENT", f"This table has seats 0 to {len(self.seats) - 1}.")
            target = self.seats[seat]
            if target.taken:
                raise Refused("FAILED_PRECONDITION", f"Seat {seat} is taken.")
        # A seat someone left mid-game is open: the newcomer takes over from the bot.
        target.name, target.token, target.away, target.missed = name, token, False, 0
        if self.state is not None:
            self._schedule()  # a person takes a seat back from the bot: their timer runs
        self.journal.seats(self)
        self._announce(Event("join", EVERYONE, f"{name} sits down at seat {target.index + 1}.", target.index))
        self._maybe_start()
        return target.index

    def leave(self, seat: int) -> None:
        """A person leaves: before the game the seat opens; during it, a bot plays on."""
        s = self.seats[seat]
        name = s.name
        s.token = None
        if self.state is None:
            s.name = ""
            text = f"{name} leaves the table."
        else:
            s.away = True
            text = f"{name} leaves; a bot plays the seat until someone takes it."
            self._schedule()
        self.journal.seats(self)
        self._announce(Event("leave", EVERYONE, text, seat))

    def restore(self, steps: Sequence[tuple[str, int | None, dict[str, Any], int]], hands: int) -> None:
        """Replay the journal of the match in play: same cards, same turn; timers restart."""
        for kind, seat, data, seq in steps:
            if kind == "start":
                names = list(data["names"])
                self.state, _ = self.game.start(self.options, seat_infos(self.game, names), int(data["seed"]))
                self.matches = int(data["match"])
            elif kind == "next":
                self.game.next_hand(self.state, int(data["seed"]))
            else:
                assert seat is not None
                self.game.apply(self.state, seat, action_of(data))
            self.seq = seq
        self.hands_played = hands
        if self.state is not None and self.game.hand_over(self.state):
            loop = asyncio.get_running_loop()
            self._next_timer = loop.call_later(self.config.next_hand_delay, self._next_hand)
        else:
            self._maybe_start()
            self._schedule()

    def _maybe_start(self) -> None:
        if self.state is None and all(s.taken for s in self.seats):
            self._start_match()

    def _start_match(self) -> None:
        self.matches += 1
        seed = self.rng.getrandbits(63)
        names = [s.name for s in self.seats]
        self.state, events = self.game.start(self.options, seat_infos(self.game, names), seed)
        events = [Event("match_start", EVERYONE, f"Game {self.matches} begins.", None), *events]
        self._changed(events, ("start", None, {"seed": seed, "names": names, "match": self.matches}))

    # -- acting --------------------------------------------------------------------
    def act(self, seat: int, msg: common_pb2.Action) -> int:
        """Apply a person's action; returns the last sequence number it produced."""
        if self.state is None:
            raise Refused("FAILED_PRECONDITION", "The game has not started: seats are still open.")
        try:
            action = to_action(msg)
        except ValueError as e:
            raise Refused("INVALID_ARGUMENT", str(e)) from None
        self._apply(seat, action)
        self.back(seat)
        return self.seq

    def back(self, seat: int) -> None:
        """The person at ``seat`` is here (acted or reconnected): their seat is theirs again."""
        s = self.seats[seat]
        s.missed = 0
        if s.away and s.token is not None:
            s.away = False
            self.journal.seats(self)
            self._schedule()
            self._announce(Event("back", EVERYONE, f"{s.name} is back and plays again.", seat))

    def _apply(self, seat: int, action: Action) -> None:
        try:
            events = self.game.apply(self.state, seat, action)
        except IllegalAction as e:
            raise Refused("FAILED_PRECONDITION", str(e)) from None
        self._changed(events, ("act", seat, action_data(action)))

    def _changed(self, events: list[Event], *steps: tuple[str, int | None, dict[str, Any]]) -> None:
        """The game moved: journal the steps, record a finished hand, restart timers, send.

        The journal is written before anything goes out, so no client ever sees an event a
        restart would not bring back; timers restart before the events go out, so the views
        sent with them carry the new deadline.
        """
        for kind, seat, data in steps:
            self.journal.step(self, kind, seat, data, self.seq + len(events))
        if self.game.hand_over(self.state) and self._next_timer is None:
            self._hand_done()
        self._schedule()
        self._publish(events)

    def chat(self, seat: int | None, name: str, text: str) -> None:
        """Table talk. Where the game's ``chat`` option says so, players talk only between hands."""
        in_hand = self.state is not None and not self.game.hand_over(self.state)
        if seat is not None and in_hand and self.options.as_dict().get("chat") == "spectators-and-between-hands":
            raise Refused("FAILED_PRECONDITION", "Players may not talk during a hand here: chat between hands.")
        who = name if seat is None else self.seats[seat].name
        label = f"{who} (watching)" if seat is None else who
        self._announce(Event("chat", EVERYONE, f"{label}: {text}", seat, {"name": who, "text": text}))

    def _hand_done(self) -> None:
        record = self.game.history(self.state)
        if record is not None:
            self.hands_played += 1
            record = dict(record, table=self.id, hand=self.hands_played, match=self.matches)
            self.journal.hand(self, record)
        loop = asyncio.get_running_loop()
        self._cancel(self._next_timer)
        self._next_timer = loop.call_later(self.config.next_hand_delay, self._next_hand)

    def _next_hand(self) -> None:
        self._next_timer = None
        if self.closed:
            return
        if self.game.match_over(self.state):
            self._start_match()
        else:
            seed = self.rng.getrandbits(63)
            self._changed(self.game.next_hand(self.state, seed), ("next", None, {"seed": seed}))

    # -- timers and bots -----------------------------------------------------------
    def _schedule(self) -> None:
        """After any change: restart the turn timer and let bots due to act think."""
        self._cancel(self._timer)
        self._cancel(self._bot_timer)
        self._timer = self._bot_timer = None
        self.deadline = None
        if self.state is None or self.closed or self.game.hand_over(self.state):
            return
        waiting = self.game.to_act(self.state)
        if not waiting:
            return
        loop = asyncio.get_running_loop()
        window = self.game.timeout_ms(self.state)
        seconds = window / 1000 if window is not None else self.config.turn_seconds
        if any(not self.seats[s].botted for s in waiting) or window is not None:
            self.deadline = loop.time() + seconds
            self._timer = loop.call_later(seconds, self._expire)
        if any(self.seats[s].botted for s in waiting):
            delay = self.config.bot_delay * (0.6 + 0.8 * self.rng.random())
            if window is not None:
                delay = min(delay, seconds / 2)
            self._bot_timer = loop.call_later(delay, self._bots_move)

    def _expire(self) -> None:
        """The turn timer ran out: every seat still waited on takes its default action."""
        self._timer = None
        events: list[Event] = []
        steps = []
        for seat in self.game.to_act(self.state):
            if self.game.hand_over(self.state):
                break
            if seat in self.game.to_act(self.state):
                action = self.game.default_action(self.state, seat)
                events += self.game.apply(self.state, seat, action)
                steps.append(("act", seat, action_data(action)))
                events += self._missed(seat)
        self._changed(events, *steps)

    def _missed(self, seat: int) -> list[Event]:
        """A person's timer ran out; after ``away_after`` in a row a bot plays for them."""
        s = self.seats[seat]
        if s.botted:
            return []
        s.missed += 1
        if s.missed < self.config.away_after:
            return []
        s.away = True
        self.journal.seats(self)
        return [Event("away", EVERYONE, f"{s.name} is away: a bot plays for them until they return.", seat)]

    def _bots_move(self) -> None:
        self._bot_timer = None
        for seat in self.game.to_act(self.state):
            if not self.seats[seat].botted or seat not in self.game.to_act(self.state):
                continue
            legal = self.game.legal_actions(self.state, seat)
            if not legal:
                continue
            action = self.entry.bot(self.game.view(self.state, seat), legal, self.rng)
            try:
                events = self.game.apply(self.state, seat, action)
            except IllegalAction:
                log.exception("table %s: the bot's %s was refused; it plays the default", self.id, action)
                action = self.game.default_action(self.state, seat)
                events = self.game.apply(self.state, seat, action)
            self._changed(events, ("act", seat, action_data(action)))
            return  # one bot move at a time, so people can follow
        self._schedule()

    @staticmethod
    def _cancel(handle: asyncio.TimerHandle | None) -> None:
        if handle is not None:
            handle.cancel()

    def close(self, reason: str) -> None:
        self.closed = True
        for h in (self._timer, self._bot_timer, self._next_timer):
            self._cancel(h)
        for sub in list(self.subscribers):
            closing = table_pb2.Closing(reason=reason, resubscribe=True)
            self._push(sub, table_pb2.TableMessage(seq=self.seq, closing=closing))

    # -- events out ----------------------------------------------------------------
    def _announce(self, event: Event) -> None:
        self._publish([event])

    def _publish(self, events: Sequence[Event]) -> None:
        """Number the events, buffer them, and send each subscriber its version, then its view."""
        if not events:
            return
        batch = [(self.seq + 1 + i, ev) for i, ev in enumerate(events)]
        self.seq += len(batch)
        self.buffer.extend(batch)
        if not self.subscribers:
            return
        # One message per audience: that seat's version of each event, then its view.
        messages: dict[int | None, table_pb2.TableMessage] = {}
        for sub in list(self.subscribers):
            key = sub.seat
            msg = messages.get(key)
            if msg is None:
                msg = messages[key] = table_pb2.TableMessage(
                    seq=self.seq, events=[render(seq, ev, key) for seq, ev in batch], view=self.view(key)
                )
            self._push(sub, msg)

    def _push(self, sub: Subscriber, msg: table_pb2.TableMessage) -> bool:
        if sub.dropped:
            return False
        try:
            sub.queue.put_nowait(msg)
            return True
        except asyncio.QueueFull:
            # A stuck reader cannot hold the table up: drop it; it resyncs when it returns.
            # Everything still queued goes too, so the last number it did get is where it
            # resumes: a hole in the middle of its queue would be lost for good.
            sub.dropped = True
            self.subscribers.discard(sub)
            while not sub.queue.empty():
                sub.queue.get_nowait()
            sub.queue.put_nowait(None)
            return False

    def view(self, seat: int | None) -> table_pb2.View:
        legal: list[common_pb2.Action] = []
        body: Any = {"waiting": True, "seats": len(self.seats)}
        if self.state is not None:
            body = jsonable(self.game.view(self.state, seat))
            if seat is not None:
                legal = legal_messages(self.game.legal_actions(self.state, seat))
        left = 0
        if self.deadline is not None:
            left = max(0, int((self.deadline - asyncio.get_running_loop().time()) * 1000))
        return table_pb2.View(
            json=json.dumps(body, separators=(",", ":")),
            legal=legal,
            deadline_ms=left,
            seats=self.seat_summaries(),
        )

    def subscribe(self, seat: int | None, after_seq: int) -> tuple[Subscriber, list[table_pb2.TableMessage]]:
        """A new subscriber and what it gets first: a snapshot, then any missed events."""
        sub = Subscriber(seat)
        first_seq = self.buffer[0][0] if self.buffer else self.seq + 1
        opening = [
            table_pb2.TableMessage(
                seq=self.seq,
                snapshot=table_pb2.Snapshot(
                    table=self.summary(), seat=-1 if seat is None else seat,
                    view=self.view(seat), first_seq=first_seq,
                ),
            )
        ]
        if 0 < after_seq < self.seq and after_seq + 1 >= first_seq:
            missed = [render(seq, ev, seat, replay=True) for seq, ev in self.buffer if seq > after_seq]
            opening.append(table_pb2.TableMessage(seq=self.seq, events=missed))
        self.subscribers.add(sub)
        return sub, opening


def render(seq: int, ev: Event, seat: int | None, replay: bool = False) -> table_pb2.Event:
    """The event as this audience member receives it: whole, or an empty placeholder."""
    if not ev.audience.sees(seat):
        return table_pb2.Event(seq=seq, kind="hidden", seat=-1, replay=replay)
    return table_pb2.Event(
        seq=seq,
        kind=ev.kind,
        seat=-1 if ev.seat is None else ev.seat,
        text=ev.text,
        data_json=json.dumps(jsonable(ev.data), separators=(",", ":")) if ev.data else "",
        replay=replay,
    )


def to_action(msg: common_pb2.Action) -> Action:
    """A wire action as an engine action; ``ValueError`` with a sentence if malformed."""
    if not msg.type or len(msg.type) > 32 or not msg.type.replace("_", "").isalpha():
        raise ValueError("An action needs a type made of letters, such as 'bet' or 'pass'.")
    if len(msg.cards) > 16 or len(msg.value) > 64:
        raise ValueError("That action carries more than any game needs.")
    return Action(msg.type, int(msg.amount), parse_cards(list(msg.cards)), msg.value)


def legal_messages(actions: Sequence[Action]) -> list[common_pb2.Action]:
    """Legal actions for the wire; a run of one type at consecutive amounts becomes one range."""
    out: list[common_pb2.Action] = []
    prev: Action | None = None
    for a in actions:
        if (
            prev is not None and out and not a.cards and not a.value and a.type == prev.type
            and a.amount == prev.amount + 1 and not prev.cards and not prev.value
        ):
            out[-1].max_amount = a.amount
        else:
            out.append(to_message(a))
        prev = a
    return out


def action_data(action: Action) -> dict[str, Any]:
    """An action as the journal keeps it (the hand-history entry format)."""
    data: dict[str, Any] = {"type": action.type}
    if action.amount:
        data["amount"] = action.amount
    if action.cards:
        data["cards"] = [str(c) for c in action.cards]
    if action.value:
        data["value"] = action.value
    return data


def to_message(action: Action) -> common_pb2.Action:
    return common_pb2.Action(
        type=action.type, amount=action.amount, cards=[str(c) for c in action.cards], value=action.value
    )


def new_token() -> str:
    return secrets.token_urlsafe(24)
