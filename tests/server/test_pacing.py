"""The turn timer: set again on every change, it runs out at the last deadline set, once.

Each test waits for the timer's own callback (an event), never for a span of wall-clock time in
which it ought to have run: a busy machine makes a timer late, never early."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from cardtui.server.pacing import Pacer


def ran_out(fired: list[object], name: object, done: asyncio.Event) -> Callable[[], None]:
    def run() -> None:
        fired.append(name)
        done.set()

    return run


async def test_a_turn_timer_set_later_runs_out_at_the_new_deadline_only() -> None:
    pacer, fired, done = Pacer(), [], asyncio.Event()
    loop = asyncio.get_running_loop()
    start = loop.time()
    pacer.turn(0.05, ran_out(fired, "first", done))
    pacer.turn(0.4, ran_out(fired, "second", done))
    assert 300 < pacer.left_ms() <= 400
    await asyncio.wait_for(done.wait(), timeout=30)
    assert fired == ["second"], "the first deadline ran out for nothing"
    assert loop.time() - start >= 0.4, "not before the deadline set last"


async def test_a_turn_timer_set_earlier_runs_out_at_the_earlier_deadline() -> None:
    pacer, fired, done = Pacer(), [], asyncio.Event()
    pacer.turn(30, ran_out(fired, "late", done))
    pacer.turn(0.05, ran_out(fired, "soon", done))
    await asyncio.wait_for(done.wait(), timeout=30)
    assert fired == ["soon"]
    assert pacer.left_ms() == 0 and pacer.deadline is None


async def test_a_stopped_turn_timer_never_runs_out_and_stop_leaves_no_timer() -> None:
    pacer, fired = Pacer(), []
    pacer.turn(0.05, lambda: fired.append("stopped"))
    pacer.stop_turn()
    assert pacer.left_ms() == 0
    await asyncio.sleep(0.2)
    assert fired == []
    pacer.turn(0.05, lambda: fired.append("again"))
    pacer.stop()
    assert pacer._turn is None
    await asyncio.sleep(0.2)
    assert fired == []


async def test_a_turn_timer_set_after_it_ran_out_runs_out_again() -> None:
    pacer, fired = Pacer(), []
    first, second = asyncio.Event(), asyncio.Event()
    pacer.turn(0.02, ran_out(fired, 1, first))
    await asyncio.wait_for(first.wait(), timeout=30)
    pacer.turn(0.02, ran_out(fired, 2, second))
    await asyncio.wait_for(second.wait(), timeout=30)
    assert fired == [1, 2]
