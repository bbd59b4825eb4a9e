"""The screen keeps up: how soon a table message is on screen, against a trivial Textual app.

A real server (its own process, so the CPU time measured here is the client's) runs a table of
one game with bots at full speed (no pause before they act); the client sits in the last free
seat and acts at once, on a random legal action, whenever it may (as a player pressing a key
would: through the screen's own ``act``). Headless, under ``App.run_test``, at a given size.

For every ``TableMessage``: from the moment it leaves the stream (the connection yields it) to
the end of the first compositor refresh after the screen handled it (its widgets show it: the
table screen shows messages that come together at once, after the last of them): the moment it
is painted.
CPU is this process's (all its threads) over the measured messages, per message.

A rummy table opens a claim window after every discard, which stays open its whole time
whoever may claim (its length must say nothing about who could): at the default 2.5 s, 500
messages of Pif Paf took most of an hour. The bench's rummy tables set the window (``claim_ms``)
to the shortest the rules allow (``SHORTEST_WINDOW``, 0.5 s): the bots still claim and the board
still counts the window down, at a pace near the others'.

Each case's table is closed when its case ends: left to its bots, it played on at full speed in
the server beside every later case, on the same two cores, so that each case ran slower than the
one before it (the second of two runs by about a fifth, the trivial app's too).

The baseline, measured in the same run on a table of the same game: a Textual app with one
``Static`` updated per message, fed by the same stream and acting the same way. That is the
floor Textual's paint timer (60 Hz) and the wire leave.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import quantiles
from typing import Any

import grpc
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

import cardtui.client
from bench.load import start_process
from cardtui.client.connection import Connection
from cardtui.client.screens.table import Streamed, TableScreen
from cardtui.client.textual_internals import after_each_frame
from cardtui.engine.rummy.base import SHORTEST_WINDOW
from cardtui.v1 import common_pb2, lobby_pb2, table_pb2

MESSAGES = 500
"""Messages measured per case (after the warm-up)."""
WARM = 30
"""Messages handled before measuring: the first layout, CSS and imports are not the steady state."""
OPTIONS: dict[str, dict[str, int]] = {"pifpaf": {"claim_ms": SHORTEST_WINDOW}}
"""Table options by game: a rummy table's claim windows as short as the rules allow."""
CASES: list[tuple[str, str, int]] = [
    ("truco", "truco_paulista", 4),
    ("Cacho", "cacho", 4),
    ("rummy", "pifpaf", 3),
]
"""(family, game, seats): one game of each family."""
SIZES = [(80, 24), (120, 40)]
TIMEOUT = 150.0
"""Seconds a case may take; past it, the messages painted so far stand (if at least half)."""
MARK_RATIO = 1.5
MARK_CPU_MS = 5.0


class Clock:
    """Stamps each message as it leaves the stream, as it is handled, and as it is painted."""

    def __init__(self, wanted: int) -> None:
        self.wanted = wanted
        self.left: list[float] = []
        """When each message not yet handled left the stream, in order."""
        self.waiting: list[float] = []
        """Received, not yet shown: when each left the stream."""
        self.handled: list[float] = []
        """Handled (shown), not yet painted: when each left the stream."""
        self.seen = 0
        self.samples: list[float] = []
        self.cpu = 0.0
        self.wall = 0.0
        self.done = asyncio.Event()
        self._t0 = 0.0
        self._c0 = 0.0

    def leaving(self) -> None:
        self.left.append(time.perf_counter())

    def received(self) -> None:
        """The screen took the message in (its widgets may catch up later, with the next ones)."""
        if self.left:
            self.waiting.append(self.left.pop(0))

    def shown(self) -> None:
        """The widgets caught up with every message received so far: each counts as handled now."""
        for _ in self.waiting:
            self.seen += 1
            if self.seen == WARM:
                self._t0, self._c0 = time.perf_counter(), time.process_time()
                self.handled.clear()
        self.handled += self.waiting
        self.waiting.clear()

    def stop(self) -> None:
        """The run ends short: the figures stand for the messages painted so far."""
        self.cpu = time.process_time() - self._c0
        self.wall = time.perf_counter() - self._t0
        self.done.set()

    def painted(self) -> None:
        if self.seen < WARM or self.done.is_set():
            self.handled.clear()
            return
        now = time.perf_counter()
        self.samples += [now - t for t in self.handled]
        self.handled.clear()
        if len(self.samples) >= self.wanted:
            self.cpu = time.process_time() - self._c0
            self.wall = now - self._t0
            self.done.set()


def timed_refresh(screen: Screen[Any], clock: Clock) -> None:
    """The screen's compositor refresh, stamped at its end (the frame is composed)."""
    after_each_frame(screen, clock.painted)


class TimedConnection(Connection):
    """The client's own connection; each message stamped as the stream yields it."""

    clock: Clock

    async def follow(self, token: str, *args: Any, **kwargs: Any) -> AsyncIterator[table_pb2.TableMessage]:
        async for msg in super().follow(token, *args, **kwargs):
            self.clock.leaving()
            yield msg


class Actor:
    """Our seat, played at once on a random legal action whenever the seat is to act (signals left
    out, folds only when nothing else is on offer, so a match runs on); refused (the table moved
    on), it tries again on what it has seen since."""

    def __init__(self, conn: Connection, token: str, seat: int) -> None:
        self.conn = conn
        self.token = token
        self.seat = seat
        self.rng = random.Random(7)
        self.view = table_pb2.View()
        self.seq = 0
        self.busy = False
        self.task: asyncio.Task[None] | None = None

    def saw(self, seq: int, view: table_pb2.View | None) -> None:
        self.seq = max(self.seq, seq)
        if view is not None:
            self.view = view
        if not self.busy and self.seat in self.view.to_act:
            self.busy = True
            self.task = asyncio.get_running_loop().create_task(self._act())

    def _pick(self) -> common_pb2.Action | None:
        legal = list(self.view.legal)
        acts = [a for a in legal if a.type != common_pb2.ACTION_TYPE_SIGNAL]
        calm = [a for a in acts if a.type != common_pb2.ACTION_TYPE_FOLD] or acts  # a fold if nothing else
        if not calm:
            return None
        action = common_pb2.Action()
        action.CopyFrom(self.rng.choice(calm))
        action.max_chips = 0
        return action

    async def _act(self) -> None:
        """Acts on the latest view until the seat is no longer to act or nothing new came since our
        last try (a message that came meanwhile is acted on here: ``saw`` left it to us)."""
        tried = -1
        refused = 0
        try:
            while self.seat in self.view.to_act and self.seq != tried and refused < 100:
                tried = self.seq
                action = self._pick()
                if action is None:
                    return
                try:  # without seen_seq: events hidden from this seat move the table's number on too
                    await self.conn.act(self.token, action)
                except grpc.aio.AioRpcError:
                    await asyncio.sleep(0.01)
                    tried = -1  # refused: try again on what has come since (the next message retries too)
                    refused += 1
        finally:
            self.busy = False


class TimedTable(TableScreen):
    """The real table screen; after each message is handled, our seat acts if it is to."""

    def __init__(self, clock: Clock, actor: Actor, *args: Any) -> None:
        super().__init__(*args)
        self.clock = clock
        self.actor = actor

    def on_mount(self) -> None:
        """Textual calls each class's own handler along the MRO: the screen's ``on_mount`` runs
        after this one by itself (calling it here too would mount it twice: two streams, two timers)."""
        timed_refresh(self, self.clock)

    def on_streamed(self, message: Streamed) -> None:
        self.clock.received()
        super().on_streamed(message)
        self.actor.saw(message.msg.seq, self.model.view)
        message.prevent_default()  # handled: the screen's own handler, next along the MRO, is not called again

    def _show(self) -> None:
        super()._show()
        self.clock.shown()


class TrivialScreen(Screen[None]):
    """The floor: one Static updated per message, and the same seat acting the same way."""

    def __init__(self, clock: Clock, actor: Actor) -> None:
        super().__init__()
        self.clock = clock
        self.actor = actor

    def compose(self) -> ComposeResult:
        yield Static("", id="line")

    def on_mount(self) -> None:
        timed_refresh(self, self.clock)
        self.run_worker(self._follow(), exclusive=True)

    async def _follow(self) -> None:
        async for msg in self.actor.conn.follow(self.actor.token):
            self.post_message(Streamed(msg))

    def on_streamed(self, message: Streamed) -> None:
        msg = message.msg
        view = msg.snapshot.view if msg.HasField("snapshot") else msg.update.view if msg.update.HasField(
            "view") else None
        self.query_one("#line", Static).update(f"seq {msg.seq} · {len(msg.update.events)} events")
        self.clock.received()
        self.clock.shown()
        self.actor.saw(msg.seq, view)


class Holder(App[None]):
    """The app a case runs in, with the player's app's stylesheet: the screen as players see it
    (without it the board is as tall as its lines and the action bar falls off the screen)."""

    CSS_PATH = str(Path(cardtui.client.__file__).parent / "app.tcss")

    def __init__(self, screen: Callable[[], Screen[Any]]) -> None:
        super().__init__()
        self.make = screen

    def on_mount(self) -> None:
        self.push_screen(self.make())


@dataclass(frozen=True)
class Figures:
    p50: float
    p99: float
    cpu_ms: float
    rate: float
    """Messages a second."""
    count: int
    """Messages measured (fewer than asked when the time ran out)."""


async def measure(target: str, game: str, seats: int, size: tuple[int, int], trivial: bool,
                  messages: int) -> Figures:
    conn = TimedConnection.open(target)
    assert isinstance(conn, TimedConnection)
    clock = Clock(messages)
    conn.clock = clock
    created = await conn.create(lobby_pb2.CreateTableRequest(
        game=game, seats=seats, bots=seats - 1, bot_delay_ms=0, turn_seconds=3600, bot_levels=["easy"],
        options={k: common_pb2.OptionValue(number=v) for k, v in OPTIONS.get(game, {}).items()}))
    joined = await conn.join(created.id, "bench")

    actor = Actor(conn, joined.token, joined.seat)

    def screen() -> Screen[Any]:
        if trivial:
            return TrivialScreen(clock, actor)
        return TimedTable(clock, actor, conn, joined.token, joined.seat, created)

    app = Holder(screen)
    try:
        async with app.run_test(size=size):
            try:
                await asyncio.wait_for(clock.done.wait(), timeout=TIMEOUT)
            except TimeoutError:
                if len(clock.samples) < messages // 2:
                    raise RuntimeError(f"{game}: {clock.seen} messages, {len(clock.samples)} painted in "
                                       f"{TIMEOUT:.0f} s (to act: {list(actor.view.to_act)})") from None
                clock.stop()  # a slow machine: the figures of the messages painted so far

    finally:
        if actor.task is not None:  # an action on its way when the run ended: not sent on a closed channel
            actor.task.cancel()
            await asyncio.gather(actor.task, return_exceptions=True)
        try:
            await conn.leave(joined.token)
            await conn.close_table(created.id)  # not left to its bots, playing on beside the next cases
        finally:
            await conn.close()
    ms = [s * 1000 for s in clock.samples]
    q = quantiles(ms, n=100)
    return Figures(p50=q[49], p99=q[98], cpu_ms=clock.cpu * 1000 / len(ms), rate=len(ms) / clock.wall,
                   count=len(ms))


def run(print: Callable[[str], None], messages: int = MESSAGES, runs: int = 1) -> None:
    asyncio.run(compare(print, messages, runs))


async def compare(print: Callable[[str], None], messages: int, runs: int) -> None:
    proc, port = start_process(
        ["-m", "cardtui.cli", "serve", "--port", "0", "--db", ":memory:", "--next-hand-delay", "50",
         "--cut-ms", "0", "--no-announce", "--log-level", "warning", "--max-tables", "1000"], "server on")
    target = f"127.0.0.1:{port}"
    met = True
    try:
        for run_ in range(runs):
            if runs > 1:
                print(f"  run {run_ + 1} of {runs}")
            for family, game, seats in CASES:
                for size in SIZES:
                    base = await measure(target, game, seats, size, True, messages)
                    real = await measure(target, game, seats, size, False, messages)
                    ratio = real.p99 / base.p99
                    ok = ratio <= MARK_RATIO and real.cpu_ms <= MARK_CPU_MS
                    met = met and ok
                    print(f"  {family:6s} {game:15s} {size[0]}x{size[1]}: first paint p50 {real.p50:6.1f} "
                          f"p99 {real.p99:6.1f} ms vs trivial {base.p50:5.1f} / {base.p99:5.1f} ms (×{ratio:.2f}, "
                          f"mark ≤ ×{MARK_RATIO}); CPU {real.cpu_ms:5.2f} ms/msg vs {base.cpu_ms:4.2f} "
                          f"(mark ≤ {MARK_CPU_MS:g}); {real.rate:5.0f} msg/s vs {base.rate:5.0f} "
                          f"{'met' if ok else 'NOT met'}"
                          + (f" (only {real.count} messages)" if real.count < messages else ""))
    finally:
        proc.kill()
        proc.wait()
    print(f"  every mark {'met' if met else 'NOT met'} ({messages} messages a case)")
