"""The load bench's summary (``bench.load``): ratios it cannot give say so, and samples are put
in the part of the server they were taken in."""

from __future__ import annotations

from bench.load import cpu_line, part_of, times


def test_a_ratio_without_a_figure_is_undecided_not_nan() -> None:
    assert times(3.0, 2.0) == "x1.50"
    assert times(0.0, 2.0) == "x0.00"
    assert times(3.0, 0.0) == "undecided"  # both gave out at once: the floor's sustained rate is 0
    assert times(float("nan"), 2.0) == "undecided"
    assert times(2.0, float("nan")) == "undecided"


def test_the_cpu_line_compares_at_one_act_and_at_the_highest_rate_both_sustain() -> None:
    def step(cpu: float, p99: float) -> dict[str, float]:
        return {"cpu_ms": cpu, "p99": p99}

    real = {1.0: step(2.0, 5), 4.0: step(1.5, 50), 5.0: step(1.4, 150)}
    bare = {1.0: step(1.0, 2), 4.0: step(1.0, 10), 5.0: step(0.9, 20), 6.0: step(0.9, 300)}
    one = {1.0: step(1.9, 4)}
    line = cpu_line(real, bare, {2: real, 1: one})
    assert "at 1 act/table/s cardtui 2.00 vs bare 1.00 ms (x2.00; mark ≤ 1.2)" in line
    assert "at 4 act/table/s, the highest rate both sustain: 1.50 vs 1.00 ms (x1.50" in line
    assert "2 workers vs 1 at 1 act/table/s 2.00 vs 1.90 ms (x1.05" in line
    gone = cpu_line({1.0: step(2.0, 500)}, {1.0: step(1.0, 500)}, {2: {}, 1: {}})
    assert "highest rate both sustain: undecided" in gone
    assert "2 workers vs 1 at 1 act/table/s nan vs nan ms (undecided" in gone
    assert "xnan" not in line + gone


def test_samples_in_our_code_are_ours_whatever_folder_it_is_imported_from() -> None:
    loop = ["<module> (cardtui/cli/__main__.py:3)", "BaseEventLoop._run_once (asyncio/base_events.py:1922)"]
    assert part_of([*loop, "TableService.Act (server/service.py:352)", "Room.seat_grant (server/lobby/room.py:300)"]
                   ) == "server, other (service, room, records)"
    assert part_of([*loop, "Table._changed (server/actor/table.py:505)", "Room.sent (server/lobby/room.py:441)"]
                   ) == "journal (SQLite)"
    assert part_of([*loop, "Table._changed (server/actor/table.py:505)", "Table.view_bytes (server/actor/table.py:660)"]
                   ) == "views (build and serialize)"
    assert part_of([*loop, "Handle._run (asyncio/events.py:80)"]) == "gRPC and asyncio (C and Python)"
    worker = ["worker_main (server/processes/workers.py:120)", "BaseEventLoop.run_forever (asyncio/base_events.py:607)",
              "BaseEventLoop._run_once (asyncio/base_events.py:1922)"]  # a table worker's loop, under our frame
    assert part_of([*worker, "EpollSelector.select (selectors.py:468)"]) == "idle"
    assert part_of([*worker, "Handle._run (asyncio/events.py:80)"]) == "gRPC and asyncio (C and Python)"
    assert part_of([*worker, "Handle._run (asyncio/events.py:80)", "TableService.Act (server/service.py:352)"]
                   ) == "server, other (service, room, records)"
