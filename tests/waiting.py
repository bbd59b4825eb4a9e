"""How every test waits: for an event, never for an amount of time.

A test that sleeps and then looks ("give the match a second to start") passes on a quiet machine
and fails on a busy one, and a test that sleeps and then asserts that nothing happened cannot fail
on a busy one: it only sees less. So a test waits for what proves the thing it checks:

- ``eventually(check, what)``: ``check()``'s first true answer, looked at every few milliseconds
  on the running loop; ``what`` says what never came if ``PATIENCE`` runs out;
- ``eventually_sync(check, what)``: the same from plain code (a thread, a process started by the
  test), looked at between short sleeps of the calling thread;
- a server's time that the test moves itself: ``cardtui.server.base.clock.ManualClock`` and its
  ``advance``, so that "after the turn timer" is a step the test takes, not a wait;
  ``timers_until(clock, check, what)`` runs a table's quick timers (its bots' moves, the next
  deal) on such a clock until ``check()`` holds;
- the client's own waits for its screens (``tests.client.waiting``).

``PATIENCE`` bounds a wait only so that a broken test ends with a sentence rather than at the
suite's timeout; it is never what a test waits for, and is long, because a machine at a load of
forty may take seconds for what takes milliseconds on a quiet one.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from cardtui.server.base.clock import ManualClock

PATIENCE = 120.0
"""Seconds any wait may take before the test is taken to be broken: with both cores busy elsewhere, a hand's
analysis (a process of the pool started, the engine imported, every decision searched) has taken over 60."""

LOOK = 0.01
"""Seconds between two looks: short enough that a test ends soon after its event."""

T = TypeVar("T")


async def eventually(check: Callable[[], T], what: str, patience: float = PATIENCE) -> T:
    """``check()``'s first true answer; fail saying ``what`` never came after ``patience`` seconds.

    The loop always takes a turn first, even when the answer is already there: a test that waits in a
    loop (``while …: await eventually(…)``) then never starves the streams that would change it."""
    deadline = time.monotonic() + patience
    await asyncio.sleep(0)
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"never came: {what}")
        await asyncio.sleep(LOOK)
    return found


async def eventually_async(check: Callable[[], Awaitable[T]], what: str, patience: float = PATIENCE) -> T:
    """As ``eventually``, for a check that has to await (a call to the server)."""
    deadline = time.monotonic() + patience
    while not (found := await check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"never came: {what}")
        await asyncio.sleep(LOOK)
    return found


def eventually_sync(check: Callable[[], T], what: str, patience: float = PATIENCE) -> T:
    """As ``eventually``, for code that runs no loop (a thread, a test of processes)."""
    deadline = time.monotonic() + patience
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"never came: {what}")
        time.sleep(LOOK)
    return found


async def timers_until(clock: ManualClock, done: Callable[[], object], what: str) -> None:
    """Run a table's timers on ``clock``, soonest first, until ``done()``: bots move, hands end and the
    next are dealt without the test waiting for any of their times. A timer further off than a bot's move
    (a turn timer, the idle sweep) is left alone: what the test waits for comes first."""
    async def step() -> bool:
        if not done() and clock.pending and clock.pending[0] - clock.now() <= 1.0:
            await clock.advance(clock.pending[0] - clock.now())
        return bool(done())

    await eventually_async(step, what)
