"""The server's time: what its timers, rate limits and pauses read and wait on.

Every part of the server that keeps time (a table's timers, the rate limiter's buckets, the log's
throttle, the idle sweep, a tournament's start, a sign-in's nonce) takes a ``Clock``, the event
loop's by default (``LoopClock``). A test passes a ``ManualClock`` instead and says "after the turn
timer" by moving it past the timer (``advance``): nothing then depends on how fast a busy machine
runs the test, and no test waits out a deadline in real time.

Timeouts that bound a wait for another process or the network (a worker starting, a peer's call)
stay on the loop's own clock: they guard against what a test does not simulate.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    """A callback set to run at a time (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None: ...

    def cancelled(self) -> bool: ...

    def when(self) -> float: ...


class Clock(Protocol):
    """Time as the server reads it and waits on it."""

    def now(self) -> float:
        """Seconds on a monotonic scale (the event loop's): for spans and deadlines."""
        ...

    def wall(self) -> float:
        """Seconds since the epoch: for times people set (a tournament's start)."""
        ...

    def call_at(self, when: float, callback: Callable[..., object], *args: object) -> Timer:
        """Run ``callback(*args)`` on the loop once ``now()`` reaches ``when``."""
        ...

    def call_later(self, seconds: float, callback: Callable[..., object], *args: object) -> Timer:
        """Run ``callback(*args)`` on the loop ``seconds`` from now."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return ``seconds`` from now."""
        ...

    async def wait(self, event: asyncio.Event, seconds: float | None) -> bool:
        """Until ``event`` is set (True) or ``seconds`` have passed (False; None: no bound)."""
        ...


class LoopClock:
    """The real time: the running event loop's clock (``time.monotonic`` where no loop runs, as the
    default loop's clock is), and the system's for the wall."""

    def now(self) -> float:
        try:
            return asyncio.get_running_loop().time()
        except RuntimeError:
            return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[..., object], *args: object) -> Timer:
        return asyncio.get_running_loop().call_at(when, callback, *args)

    def call_later(self, seconds: float, callback: Callable[..., object], *args: object) -> Timer:
        return asyncio.get_running_loop().call_later(seconds, callback, *args)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def wait(self, event: asyncio.Event, seconds: float | None) -> bool:
        try:
            await asyncio.wait_for(event.wait(), seconds)
        except TimeoutError:
            return False
        return True


REAL: Clock = LoopClock()
"""The clock every part of the server reads unless it is handed another."""


class ManualTimer:
    """A ``ManualClock``'s timer: it runs when the clock is moved past ``when``."""

    def __init__(self, when: float, callback: Callable[..., object], args: tuple[object, ...]) -> None:
        self._when = when
        self.callback = callback
        self.args = args
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True

    def cancelled(self) -> bool:
        return self._cancelled

    def when(self) -> float:
        return self._when


class ManualClock:
    """Time that moves only when told (``advance``): for a test to say "after the deadline" without
    waiting for it, and to know that nothing a timer does happens before it says so.

    Its timers and sleepers run on the running loop, in order of their times, as ``advance`` moves
    past them; the loop takes a turn after each, so that what a timer woke (a task after its
    ``sleep``) runs, and may set the next timer, before the clock moves on."""

    def __init__(self, start: float = 1_000.0, wall: float | None = None) -> None:
        self._now = start
        self._wall = (time.time() if wall is None else wall) - start
        self._timers: list[tuple[float, int, ManualTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._wall + self._now

    def call_at(self, when: float, callback: Callable[..., object], *args: object) -> ManualTimer:
        timer = ManualTimer(when, callback, args)
        heapq.heappush(self._timers, (when, next(self._order), timer))
        return timer

    def call_later(self, seconds: float, callback: Callable[..., object], *args: object) -> ManualTimer:
        return self.call_at(self._now + seconds, callback, *args)

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken = asyncio.Event()
        timer = self.call_later(seconds, woken.set)
        try:
            await woken.wait()
        finally:
            timer.cancel()

    async def wait(self, event: asyncio.Event, seconds: float | None) -> bool:
        if event.is_set():
            return True
        if seconds is None:
            await event.wait()
            return True
        lapsed = asyncio.Event()
        timer = self.call_later(seconds, lapsed.set)
        waiters = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(lapsed.wait())]
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
            for waiter in waiters:
                waiter.cancel()
        return event.is_set()

    @property
    def pending(self) -> list[float]:
        """When each timer still set is due, soonest first."""
        return sorted(when for when, _, timer in self._timers if not timer.cancelled())

    async def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, running each timer that comes due on the way, at its time."""
        until = self._now + seconds
        await asyncio.sleep(0)  # what the test just did runs first, and sets its timers
        while self._timers and self._timers[0][0] <= until:
            when, _, timer = heapq.heappop(self._timers)
            if timer.cancelled():
                continue
            self._now = max(self._now, when)
            timer.callback(*timer.args)
            for _turn in range(3):  # what it woke runs, and sets its next timer, before the clock moves on
                await asyncio.sleep(0)
        self._now = max(self._now, until)
