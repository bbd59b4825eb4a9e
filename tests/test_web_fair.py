"""A browser guest's first deal is checked like anyone's: the guest who makes a table and sits first sees its
first hand's commitment, cuts it and gets a ✔ (a real server with the default wait for seeds, the real page)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest_asyncio

from cardtui.server.app import Running, start
from cardtui.server.web import WebLimits, WebServer, local_target, open_socket
from tests.test_web import Guest


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[Running]:
    """A server as ``cardtui serve`` starts by default for seeds: a deal waits for present people as long as a turn,
    and a new hand for someone just seated to open the table."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


async def test_a_guest_who_makes_a_table_and_sits_first_gets_a_tick_on_hand_one(room: Running) -> None:
    web = WebServer(local_target("127.0.0.1", room.port), limits=WebLimits(per_address=2, total=2))
    await web.start(open_socket("127.0.0.1", 0))
    try:
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"ws://127.0.0.1:{web.port}/ws?width=120&height=40")
            await ws.send_json(["resize", {"width": 120, "height": 40}])
            guest = Guest(ws, 120, 40)
            try:
                await guest.until("Your name at the tables")
                await guest.type("ana\r")
                await guest.until("Watching")
                await guest.type("n")  # a table of its own: the create form's defaults (Cacho, bots)
                await guest.until("Turn timer")
                await guest.type("\x13")  # ctrl+s: she sits, and the bots fill the rest: the match starts
                await guest.until("Your turn")
                await guest.type("p")  # out of the hand: the bots play it out, and it is revealed
                await guest.until("Hand 1 (table deal 1): fair deal")
                assert "joined mid-deal" not in guest.text
            finally:
                await ws.close()
    finally:
        await web.stop()
