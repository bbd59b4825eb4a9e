"""The client rides out a server restart: a banner while it is gone, then play goes on."""

from __future__ import annotations

import socket
from pathlib import Path

from textual.widgets import Static

from cardtui.client.app import CardApp
from cardtui.client.table_screen import TableScreen
from cardtui.server.app import start
from tests.conftest import create


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_reconnects_by_itself_after_a_restart_with_a_banner_meanwhile(tmp_path: Path) -> None:
    port, db = free_port(), tmp_path / "store.db"
    running = await start("127.0.0.1", port, db, bot_delay=0.05, next_hand_delay=0.1)
    table_id = await create(running, game="cacho", seats=3, bots=3)
    app = CardApp(f"127.0.0.1:{port}", "eve", spectate=table_id)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.5)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            banner = screen.query_one("#conn-banner", Static)
            assert not banner.display
            await running.stop(grace=0.1)
            for _ in range(40):
                await pilot.pause(0.1)
                if banner.display:
                    break
            assert banner.display and "reconnecting" in str(banner.render())
            running = await start("127.0.0.1", port, db, bot_delay=0.05, next_hand_delay=0.1)
            seen_before = screen.model.seq
            for _ in range(100):
                await pilot.pause(0.1)
                if not banner.display and screen.model.seq > seen_before:
                    break
            assert not banner.display, "the banner goes once the stream is back"
            assert screen.model.seq > seen_before, "the table plays on after the restart"
            lines = [line.text for line in screen.query_one("#log").lines]  # type: ignore[attr-defined]
            assert any("wins" in line or "bets" in line or "passes" in line for line in lines)
    finally:
        await running.stop(grace=0.1)


async def test_the_stream_resumes_across_a_restart_with_no_event_twice(tmp_path: Path) -> None:
    import asyncio

    from cardtui.client.connection import Connection
    from cardtui.v1 import lobby_pb2

    port, db = free_port(), tmp_path / "store.db"
    running = await start("127.0.0.1", port, db, bot_delay=0.02, next_hand_delay=0.05)
    table_id = await create(running, game="cacho", seats=4, bots=4)
    conn = Connection.open(f"127.0.0.1:{port}")
    token = (await conn.lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="w"))).token
    seqs: list[int] = []
    retries: list[float] = []

    async def read() -> None:
        async for msg in conn.follow(token, on_retry=retries.append, max_backoff=0.3):
            seqs.extend(e.seq for e in msg.update.events)

    reader = asyncio.create_task(read())
    try:
        while len(seqs) < 20:
            await asyncio.sleep(0.05)
        await running.stop(grace=0.1)
        await asyncio.sleep(0.5)
        running = await start("127.0.0.1", port, db, bot_delay=0.02, next_hand_delay=0.05)
        mark = len(seqs)
        while len(seqs) < mark + 20:
            await asyncio.sleep(0.05)
        assert retries, "the stream noticed the server was gone"
        assert len(seqs) == len(set(seqs)), "no event twice"
        assert seqs == sorted(seqs), "in order"
    finally:
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
        await conn.close()
        await running.stop(grace=0.1)
