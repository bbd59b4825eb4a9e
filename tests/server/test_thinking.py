"""Bots think in worker processes: a decision stands only for the moment it was asked for,
and the workers end with the server, however it ends."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from cardtui.engine.core import Action, Decision
from cardtui.server.app import Running, start
from cardtui.server.base import thinking
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc
from tests.conftest import Player, create, one_person_with_bots
from tests.forked import ROOT
from tests.waiting import PATIENCE, eventually


class Held:
    """A thinker whose decisions come back when the test says."""

    def __init__(self) -> None:
        self.asked: list[tuple[Decision, asyncio.Future[Action]]] = []

    def decide(self, decision: Decision, seed: int) -> asyncio.Future[Action]:
        future: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        self.asked.append((decision, future))
        return future


async def heard(decision: asyncio.Future[Action]) -> None:
    """Until the table has heard ``decision`` come back: a future's callbacks run in the order they were
    added, so one added now runs after the table's own, added when it asked."""
    done = asyncio.Event()
    decision.add_done_callback(lambda _: done.set())
    await done.wait()


async def test_a_decision_made_elsewhere_stands_only_if_the_table_has_not_moved(server: Running) -> None:
    person, table, match = await one_person_with_bots(server, game="cacho", seats=2, bots=1, bot_delay_ms=60_000)
    bot = 1 - person.seat
    while match.to_act() != (bot,):  # the person bets until it is the bot's turn
        seat = match.to_act()[0]
        match.apply(seat, next(a for a in match.legal_actions(seat) if a.type == "bet"))
    held = Held()
    table.thinker = held  # type: ignore[assignment]
    table._schedule()
    table._schedule()  # the table moved on (as after any change): a second decision is asked for
    assert len(held.asked) == 2 and table.planned is None
    (first, early), (second, late) = held.asked
    assert first == second and first.legal == tuple(match.legal_actions(bot))
    early.set_result(first.legal[0])
    await heard(early)
    assert table.planned is None, "a decision for an earlier moment is dropped"
    late.set_result(second.legal[-1])
    await heard(late)
    assert table.planned == (bot, second.legal[-1])
    await person.close()


async def test_with_no_workers_the_bots_think_on_the_loop_and_play_a_whole_hand(tmp_path: Path) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          bot_workers=0)
    try:
        assert running.room.thinker is None
        table_id = await create(running, game="truco_paulista", seats=4, bots=4, bot_levels=["hard"] * 4)
        watcher = await Player(f"127.0.0.1:{running.port}").spectate(table_id)
        watcher.subscribe()
        await watcher.wait_for(lambda q: "hand_ended" in q.kinds(), timeout=30)
        await watcher.close()
    finally:
        await running.stop(grace=0.2)


def children(pid: int) -> set[int]:
    """Every live process descended from ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def test_the_bots_workers_end_with_a_server_killed_outright(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--db", str(tmp_path / "k.db"),
         "--log-level", "warning", "--no-announce", "--bot-delay", "5", "--bot-workers", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "server on" in line, line
        port = int(line.split()[3].rsplit(":", 1)[1])
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            lobby = lobby_pb2_grpc.LobbyStub(channel)
            made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=1,
                                                                        turn_seconds=5))
            await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=made.table.id, name="ana"))
            def started() -> set[int]:  # the fork server, its worker, and the tracker of their locks
                workers = children(proc.pid)
                return workers if len(workers) >= 3 else set()

            # the person's turns run out; the bots decide in a worker
            workers = await eventually(started, "the bots' workers started")
            assert len(workers) >= 3, workers
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        await eventually(lambda: not any(alive(p) for p in workers), "the bots' workers gone with their server")
        assert not any(alive(p) for p in workers), "a bot worker outlived its server"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_where_no_worker_can_start_the_bots_think_on_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def refused(workers: int) -> None:
        raise OSError("no semaphores here")

    monkeypatch.setattr(thinking, "Thinker", refused)
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05)
    try:
        assert running.room.thinker is None
        assert "no worker process could start (no semaphores here)" in caplog.text
        table_id = await create(running, game="cacho", seats=2, bots=2)
        table = running.room.tables[table_id]
        await eventually(lambda: table.hands_played >= 1, "a hand the bots played on the loop")
        assert table.hands_played >= 1, "the bots played on the loop"
    finally:
        await running.stop(grace=0.1)


HOSTED = """
import asyncio, sys
from cardtui.client.app import CardApp
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.server.app import start
from cardtui.v1 import lobby_pb2
from tests.client.waiting import until

async def main(db):
    hosted = []

    async def host():
        running = await start("127.0.0.1", 0, db, bot_delay=0.01, next_hand_delay=0.05)
        hosted.append(running)
        return f"127.0.0.1:{running.port}", lambda: running.stop(grace=0.1)

    app = CardApp("", "ana", host=host)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert isinstance(app.screen, LobbyScreen), app.screen
        made = await app.conn.create(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=2, turn_seconds=30))
        table = hosted[0].room.tables[made.id]
        await until(pilot, lambda: table.hands_played >= 2, "two hands the bots played")
        assert table.hands_played >= 2, table.hands_played
    print("bots played", table.hands_played, "hands")

asyncio.run(main(sys.argv[1]))
"""


def test_a_client_that_hosts_the_server_starts_its_bot_workers(tmp_path: Path) -> None:
    """``cardtui play``: the server runs inside the full-screen client, whose stderr is a capture
    with no descriptor. Its bots still get their worker, and play. (Run in a process of its own:
    multiprocessing starts its helpers once a process, and another test may have started them.)"""
    done = subprocess.run([sys.executable, "-c", HOSTED, str(tmp_path / "store.db")], capture_output=True,
                          text=True, timeout=2 * PATIENCE, cwd=ROOT)
    assert done.returncode == 0 and "bots played" in done.stdout, done.stderr[-3000:]
