"""The host's log says what happened in full, numbering seats as every screen does (from 1)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from cardtui.server.app import Running
from cardtui.v1 import lobby_pb2
from tests.conftest import Player, create
from tests.server.test_trust import address


async def test_the_host_log_fills_in_its_reasons_and_numbers_seats_from_1(
    server: Running, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="cardtui.room")
    table = await create(server, game="cacho", seats=2, bots=1, idle_minutes=1, short_turns=0.2)
    ana = await Player(address(server)).join(table, "ana")
    assert ana.seat == 0
    ana.subscribe()
    await ana.wait_for(lambda p: any(m.HasField("update") and any(e.HasField("hand_ended") for e in m.update.events)
                                     for m in p.messages))
    await ana.lobby.Leave(lobby_pb2.LeaveRequest(token=ana.token))
    await ana.close()
    loop = asyncio.get_running_loop()
    server.room.sweep(loop.time())
    server.room.sweep(loop.time() + 61)
    said = "\n".join(r.getMessage() for r in caplog.records if r.name == "cardtui.room")
    assert f"table {table}: ana joined at seat 1" in said and f"table {table}: ana left seat 1" in said, said
    assert "seat 0" not in said, said
    assert f"table {table} finished: Nobody was at the table for 1 minutes." in said, said
    assert "{minutes}" not in said
    hand = next(line for line in said.splitlines() if f"table {table} hand 1:" in line)
    assert "seat 1 " in hand and "seat 2 " in hand, hand
