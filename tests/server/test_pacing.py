"""The turn timer: set again on every change, it runs out at the last deadline set, once."""

from __future__ import annotations

import asyncio

from cardtui.server.pacing import Pacer


async def test_a_turn_timer_set_later_runs_out_at_the_new_deadline_only() -> None:
    pacer, fired = Pacer(), []
    pacer.turn(0.05, lambda: fired.append("first"))
    pacer.turn(0.4, lambda: fired.append("second"))
    assert 300 < pacer.left_ms() <= 400
    await asyncio.sleep(0.15)  # past the first deadline: nothing runs out
    assert fired == []
    await asyncio.sleep(0.6)
    assert fired == ["second"]


async def test_a_turn_timer_set_earlier_runs_out_at_the_earlier_deadline() -> None:
    pacer, fired = Pacer(), []
    pacer.turn(30, lambda: fired.append("late"))
    pacer.turn(0.05, lambda: fired.append("soon"))
    await asyncio.sleep(0.5)
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
    pacer.turn(0.02, lambda: fired.append(1))
    await asyncio.sleep(0.2)
    pacer.turn(0.02, lambda: fired.append(2))
    await asyncio.sleep(0.2)
    assert fired == [1, 2]
