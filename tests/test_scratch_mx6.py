"""Scratch: the race of issue 92's failure, forced (not committed)."""
from __future__ import annotations

import os
import signal

import pytest

from cardtui.v1 import lobby_pb2
from tests.arrangements import Arrangement, Person, listening, make_table
from tests.test_matrix import CLOSING, closing, even, tables_by_worker
from tests.waiting import eventually


@pytest.mark.timeout(200)
@pytest.mark.parametrize("arrangement", [pytest.param("workers", marks=pytest.mark.rpcs("Lobby/Spectate"))],
                         indirect=True)
async def test_scratch(arrangement: Arrangement) -> None:
    games = ("cacho", *CLOSING[:1])
    ids = [await make_table(arrangement, game=games[n % len(games)], seats=2, bots=2) for n in range(4)]
    await eventually(lambda: even(tables_by_worker(arrangement)), "the four tables shared out evenly")
    watchers = [await Person.at(arrangement, f"w{n}").watch(table_id) for n, table_id in enumerate(ids)]
    try:
        for w in watchers:
            w.follow()
        before = tables_by_worker(arrangement)
        victim = max(before, key=lambda port: len(before[port] & set(ids)))
        survivor = next(port for port in before if port != victim)
        spid = arrangement.pid_at(f":{survivor}")
        vpid = arrangement.pid_at(f":{victim}")
        os.kill(spid, signal.SIGSTOP)
        try:
            arrangement.kill(vpid)
            await eventually(lambda: any(victim in listening(pid) for pid, f in arrangement.processes()
                                         if f is None and pid not in (spid, vpid)), "the replacement listening",
                             patience=60)
            window = tables_by_worker(arrangement)
            located = {w.name: (await w.conn.lobby.Locate(lobby_pb2.LocateRequest(token=w.token))).address
                       for w in watchers}
            print("BEFORE", before, "WINDOW", window, "LOCATED", located)
        finally:
            os.kill(spid, signal.SIGCONT)
        await eventually(lambda: all(t in by.get(survivor, set()) for t in before[victim])
                         if (by := tables_by_worker(arrangement)) else False, "claimed", patience=60)
        located = {w.name: (await w.conn.lobby.Locate(lobby_pb2.LocateRequest(token=w.token))).address
                   for w in watchers}
        print("CLAIMED", tables_by_worker(arrangement), "LOCATED", located)
        assert not even(window), ("the workers read even while the dead one's tables were nobody's", window)
    finally:
        await closing(watchers)
