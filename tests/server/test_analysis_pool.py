"""The analysis pool on its own: a hand's decisions shared out among the workers that are free (each part in a
process of its own, the parts joined into one analysis, their progress summed), the workers at the lowest
priority, and a pool that is told apart as idle or not."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from cardtui.engine.analysis import dealt
from cardtui.server.processes import analysis_pool
from cardtui.server.processes.analysis_pool import AnalysisPool, Status
from tests.waiting import PATIENCE, eventually, eventually_sync


def side_by_side(record: str, seed: int, seats: tuple[int, ...], part: int, parts: int,
                 progress: Callable[[int, int], None]) -> str:
    """A fake analysis whose parts each wait until every part has started, then name their process: it judges
    one decision a seat (step ten times the seat), dealt out among the parts as the real one deals them."""
    data = json.loads(record)
    folder = Path(data["folder"])
    (folder / f"started-{os.getpid()}-{part}").write_text("")
    seats = tuple(seats[i] for i in dealt(len(seats), part, parts))
    progress(0, 2 * len(seats))
    # (a pool that ran the parts one after the other never gets past this: the first part gives up)
    eventually_sync(lambda: len(list(folder.glob("started-*"))) >= data["parts"], "every part started")
    progress(2 * len(seats), 2 * len(seats))
    eventually_sync((folder / "summed").exists, "the pool told the waiter both parts' progress, summed")
    return json.dumps({"format": "cardtui-analysis/1", "seats": list(seats), "decisions": [
        {"step": 10 * s, "seat": s, "pid": os.getpid(), "nice": os.nice(0),
         "policy": os.sched_getscheduler(0),
         "together": len(list(folder.glob("started-*"))) >= data["parts"]} for s in seats]})


@pytest.mark.skipif(analysis_pool.cores() < 2, reason="one core: one worker, nothing to share a hand among")
async def test_a_hand_asked_for_alone_is_shared_among_the_free_workers(tmp_path: Path) -> None:
    pool = AnalysisPool(2, job=side_by_side, yielding=True)  # as a server runs them (the tests' runs do not)
    try:
        assert pool.idle
        seen: list[Status] = []

        def told(status: Status) -> None:
            seen.append(status)
            if status == Status(0, 6, 6, True):  # both parts' decisions, summed
                (tmp_path / "summed").write_text("")

        record = json.dumps({"folder": str(tmp_path), "parts": 2})
        future = pool.submit(("t", 1, (0, 1, 2)), record, 7, [0, 1, 2], told)
        assert future is not None and not pool.idle
        whole = json.loads(await asyncio.wait_for(future, 2 * PATIENCE + 30))
        assert whole["seats"] == [0, 1, 2]
        assert [d["step"] for d in whole["decisions"]] == [0, 10, 20]
        assert all(d["together"] for d in whole["decisions"]), "the parts ran one after the other"
        assert len({d["pid"] for d in whole["decisions"]}) == 2
        assert {d["nice"] for d in whole["decisions"]} == {analysis_pool.NICE}
        assert {d["policy"] for d in whole["decisions"]} == {os.SCHED_IDLE}, "a table's thread would wait for them"
        assert Status(0, 6, 6, True) in seen
        await eventually(lambda: pool.idle, "each part gives its worker back once its result is in")
    finally:
        pool.close()


def test_the_parts_of_an_analysis_join_in_the_hands_order() -> None:
    one = json.dumps({"seats": [1], "decisions": [{"step": 4}], "game": "cacho"})
    two = json.dumps({"seats": [0, 2], "decisions": [{"step": 1}, {"step": 9}], "game": "cacho"})
    merged = json.loads(analysis_pool.merge([one, two]))
    assert merged["seats"] == [0, 1, 2] and [d["step"] for d in merged["decisions"]] == [1, 4, 9]


def started_then_waits(record: str, seed: int, seats: tuple[int, ...], part: int, parts: int,
                       progress: Callable[[int, int], None]) -> str:
    """A fake analysis that says it has started, then works until its process is ended."""
    progress(0, 1)
    threading.Event().wait()  # set by nobody: only the process's end ends it
    raise AssertionError("unreachable")


async def test_a_worker_ended_mid_analysis_that_nobody_waits_for_leaves_no_error_unread(
        caplog: pytest.LogCaptureFixture) -> None:
    """A server stopped while a hand is analysed (its workers ended with it, the one who asked gone): the work
    ends quietly, with no "exception was never retrieved" in the host's log."""
    import gc
    import signal

    pool = AnalysisPool(2, job=started_then_waits)
    seen: list[Status] = []
    future = pool.submit(("t", 1, (0,)), "{}", 7, [0], seen.append)
    assert future is not None
    await eventually(lambda: any(s.started and s.total for s in seen), "the analysis started")
    with caplog.at_level("ERROR", logger="asyncio"):
        del future  # the one who asked has left
        for pid in list(pool._pool._processes):  # as a Ctrl-C to the host's terminal ends them all
            os.kill(pid, signal.SIGTERM)
        # the workers' ends reach the loop from the pool's own thread
        await eventually(lambda: not pool.running, "the workers' ends heard on the loop")
        assert not pool.running
        gc.collect()  # a future whose error nobody read says so as it is collected
        await asyncio.sleep(0)  # and what that put on the loop runs
        pool.close()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]


def pid_bytes(extra: bytes) -> bytes:
    """What the builder makes here: its process's id, and what it was given."""
    return str(os.getpid()).encode() + b":" + extra


async def test_messages_are_built_in_a_process_of_their_own_started_again_if_it_dies() -> None:
    import signal

    pool = AnalysisPool(1, job=started_then_waits)
    try:
        first = await pool.build(pid_bytes, b"a")
        pid, said = first.split(b":")
        assert said == b"a" and int(pid) != os.getpid()
        os.kill(int(pid), signal.SIGKILL)
        await eventually(lambda: not (pool._builder._processes
                                      and all(p.is_alive() for p in pool._builder._processes.values())),
                         "the builder's death noticed")
        again = await pool.build(pid_bytes, b"b")
        assert again.endswith(b":b") and again.split(b":")[0] not in (pid, str(os.getpid()).encode())
    finally:
        pool.close()
