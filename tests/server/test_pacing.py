"""The turn timer: set again on every change, it runs out at the last deadline set, once.

Each test moves the pacer's clock itself (``ManualClock``): a timer runs when the clock passes its
deadline and never before, and "it did not run out" is the clock moved past the deadline with the
callback not called, not a span of wall-clock time in which it ought to have run."""

from __future__ import annotations

from collections.abc import Callable

from cardtui.server.actor.pacing import Pacer
from cardtui.server.base.clock import ManualClock


def ran_out(fired: list[object], name: object) -> Callable[[], None]:
    def run() -> None:
        fired.append(name)

    return run


async def test_a_turn_timer_set_later_runs_out_at_the_new_deadline_only() -> None:
    clock = ManualClock()
    pacer, fired = Pacer(clock=clock), []
    start = clock.now()
    pacer.turn(0.05, ran_out(fired, "first"))
    pacer.turn(0.4, ran_out(fired, "second"))
    assert 300 < pacer.left_ms() <= 400
    await clock.advance(0.39)  # past the first deadline, short of the second
    assert fired == [], "the first deadline ran out for nothing"
    await clock.advance(0.02)
    assert fired == ["second"], "the first deadline ran out for nothing"
    assert clock.now() - start >= 0.4, "not before the deadline set last"


async def test_a_timer_past_its_deadline_and_not_yet_fired_still_shows_as_running() -> None:
    """0 on the wire means no clock runs: a view read as a busy loop is late to fire a timer says 1 ms."""
    clock = ManualClock()
    pacer = Pacer(clock=clock)
    pacer.turn(0.05, lambda: None)
    clock._now += 0.2  # the time moved on, and the loop has not yet run the timer
    assert pacer.left_ms() == 1
    pacer.stop_turn()
    assert pacer.left_ms() == 0
    pacer.next_hand(0.05, lambda: None)
    clock._now += 0.2
    assert pacer.left_ms() == 1


async def test_a_turn_timer_set_earlier_runs_out_at_the_earlier_deadline() -> None:
    clock = ManualClock()
    pacer, fired = Pacer(clock=clock), []
    pacer.turn(30, ran_out(fired, "late"))
    pacer.turn(0.05, ran_out(fired, "soon"))
    await clock.advance(0.05)
    assert fired == ["soon"]
    assert pacer.left_ms() == 0 and pacer.deadline is None
    await clock.advance(30)  # the later deadline was replaced, not kept beside it
    assert fired == ["soon"]


async def test_a_stopped_turn_timer_never_runs_out_and_stop_leaves_no_timer() -> None:
    clock = ManualClock()
    pacer, fired = Pacer(clock=clock), []
    pacer.turn(0.05, lambda: fired.append("stopped"))
    pacer.stop_turn()
    assert pacer.left_ms() == 0
    await clock.advance(0.2)  # well past the deadline it had
    assert fired == []
    pacer.turn(0.05, lambda: fired.append("again"))
    pacer.stop()
    assert pacer._turn is None
    assert clock.pending == []
    await clock.advance(0.2)
    assert fired == []


async def test_a_turn_timer_set_after_it_ran_out_runs_out_again() -> None:
    clock = ManualClock()
    pacer, fired = Pacer(clock=clock), []
    pacer.turn(0.02, ran_out(fired, 1))
    await clock.advance(0.02)
    assert fired == [1]
    pacer.turn(0.02, ran_out(fired, 2))
    await clock.advance(0.02)
    assert fired == [1, 2]
