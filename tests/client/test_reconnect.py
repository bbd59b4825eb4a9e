"""The client rides out a server restart: a banner while it is gone, then play goes on."""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from textual.widgets import Static

from cardtui.client.app import CardApp
from cardtui.client.connection import Connection
from cardtui.client.screens.table import TableScreen
from cardtui.server.app import start
from cardtui.v1 import table_pb2, table_pb2_grpc
from tests.client.waiting import at_table, in_lobby, until
from tests.conftest import create
from tests.waiting import eventually


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
            screen = await at_table(pilot, lambda s: s.online, "the table's stream up")
            banner = screen.query_one("#conn-banner", Static)
            assert not banner.display
            await running.stop(grace=0.1)
            await until(pilot, lambda: banner.display, "the banner")
            assert banner.display and "trying again" in str(banner.render())
            running = await start("127.0.0.1", port, db, bot_delay=0.05, next_hand_delay=0.1)
            seen_before = screen.model.seq
            await until(pilot, lambda: not banner.display and screen.model.seq > seen_before, "the table back")
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
        await eventually(lambda: len(seqs) >= 20, "20 events")
        await running.stop(grace=0.1)
        await eventually(lambda: retries, "the stream trying again while the server is gone")
        running = await start("127.0.0.1", port, db, bot_delay=0.02, next_hand_delay=0.05)
        mark = len(seqs)
        await eventually(lambda: len(seqs) >= mark + 20, "20 events more after the restart")
        assert retries, "the stream noticed the server was gone"
        assert len(seqs) == len(set(seqs)), "no event twice"
        assert seqs == sorted(seqs), "in order"
    finally:
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
        await conn.close()
        await running.stop(grace=0.1)


async def test_back_within_seconds_of_the_server_and_no_action_meanwhile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Down for a while (grpc's own backoff would have grown to tens of seconds), keys pressed during
    the outage: the client is back within a few seconds of the server, and only then acts again.

    "Within a few seconds" as the client counts it, whatever the machine's load: it waits at most a
    second or two between tries, its channel reconnects as often, and once the server is back only
    a try or two fails (one under way, one grpc's channel fails at once while it reconnects)."""
    from cardtui.client.actionbar import ActionBar
    from cardtui.client.connection import CHANNEL_OPTIONS
    from cardtui.client.screens.table import Reconnecting

    waits: list[float] = []
    """Each wait between tries the screen heard of, in seconds."""
    heard = TableScreen.on_reconnecting

    def counted(self: TableScreen, message: Reconnecting) -> None:
        waits.append(message.delay)
        heard(self, message)

    monkeypatch.setattr(TableScreen, "on_reconnecting", counted)

    port, db = free_port(), tmp_path / "store.db"
    running = await start("127.0.0.1", port, db)
    table_id = await create(running, game="cacho", seats=2, bots=1, bot_delay_ms=60_000, turn_seconds=3600)
    app = CardApp(f"127.0.0.1:{port}", "ana")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await in_lobby(pilot)
            await app.open_table(table_id)
            screen = await at_table(pilot, lambda s: s.online, "the table's stream up")
            bar = screen.query_one(ActionBar)
            assert not bar.disabled
            banner = screen.query_one("#conn-banner", Static)
            await running.stop(grace=0.1)
            await until(pilot, lambda: banner.display, "the banner")
            assert banner.display and bar.disabled, "the action bar is off while the stream is down"
            seq = screen.model.seq
            for _ in range(6):  # keys pressed in the outage do nothing (and send nothing)
                tries = len(waits)
                await pilot.press("b", "p", "c")
                # down a while, on purpose: a try more each time, as many as grpc's own backoff would grow over
                await until(pilot, lambda tries=tries: len(waits) > tries, "the client's next try")
            assert screen.model.seq == seq
            assert waits and max(waits) <= 2.0, waits
            running = await start("127.0.0.1", port, db)
            tried = len(waits)
            await until(pilot, lambda: not banner.display and screen.online, "the table back")
            assert not banner.display and screen.online and not bar.disabled
            assert len(waits) - tried <= 3, f"{len(waits) - tried} tries failed after the server was back"
            assert max(waits) <= 2.0, waits
    finally:
        await running.stop(grace=0.1)
    # grpc's channel, under the stream, tries to reconnect as often (its own default grows to two
    # minutes): a try of the stream's after the server is back finds it connecting, not waiting.
    assert dict(CHANNEL_OPTIONS)["grpc.max_reconnect_backoff_ms"] <= 2000


async def test_the_table_screen_follows_a_table_whose_worker_was_killed(tmp_path: Path) -> None:
    """A server with table workers: the worker serving the table is killed outright; the screen says
    the server is gone, then shows the table again where another worker serves it now, with no
    key pressed."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.05, next_hand_delay=0.1, workers=2)
    table_id = await create(running, game="cacho", seats=3, bots=3)
    app = CardApp(f"127.0.0.1:{running.port}", "eve", spectate=table_id)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await at_table(pilot, lambda s: s.online and s.model.seq > 0, "the table's stream up")
            assert app.conn is not None
            where = app.conn.routes[screen.token]
            assert where.startswith(":")  # a table worker serves it
            assert running.workers is not None
            [slot] = [s for s in running.workers.slots if s.address == where]
            assert slot.process is not None and slot.process.pid is not None
            os.kill(slot.process.pid, signal.SIGKILL)
            seen_before = screen.model.seq
            banner = screen.query_one("#conn-banner", Static)
            await until(pilot, lambda: app.conn is not None and app.conn.routes.get(screen.token) != where,
                        "the client to ask where the table is served now")
            await until(pilot, lambda: not banner.display and screen.model.seq > seen_before + 2,
                        "the table playing on where it is served now")
            assert app.screen is screen, "the same screen: nobody had to open the table again"
    finally:
        await running.stop(grace=0.1)


class Breaking(table_pb2_grpc.TableServicer):
    """A table whose streams break where a network would: the first after its events 1 to 5 (the hand so
    far, replayed to a newcomer), the
    second right after its resumed snapshot (number 9), before the replay of 6 to 9 that follows it;
    the third delivers. Each request's ``after_seq`` is kept."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    async def Subscribe(self, request: table_pb2.SubscribeRequest, context: Any
                        ) -> AsyncIterator[table_pb2.TableMessage]:
        self.asked.append(request.after_seq)

        def events(first: int, last: int, replay: bool = False) -> list[table_pb2.Event]:
            return [table_pb2.Event(seq=n, replay=replay, chatted=table_pb2.Chatted(seat=0, name="bea", text=f"#{n}"))
                    for n in range(first, last + 1)]

        top = 5 if len(self.asked) == 1 else 9
        yield table_pb2.TableMessage(seq=top, snapshot=table_pb2.Snapshot(first_seq=1))
        if len(self.asked) == 1:
            yield table_pb2.TableMessage(seq=5, update=table_pb2.Update(events=events(1, 5, replay=True)))
        elif len(self.asked) == 3:
            yield table_pb2.TableMessage(seq=9, update=table_pb2.Update(
                events=events(request.after_seq + 1, 9, replay=True)))
            yield table_pb2.TableMessage(seq=9, closing=table_pb2.Closing(reason="done", resubscribe=False))
            return
        await context.abort(grpc.StatusCode.UNAVAILABLE, "the network went")


async def test_a_stream_broken_between_a_resumed_snapshot_and_its_replay_resumes_before_it() -> None:
    """A stream that breaks after a resumed snapshot but before the replay of what was missed (a
    laptop's Wi-Fi going, a killed server) resumes from the last event it had, not from the
    snapshot's number: the events between are said, none is lost."""
    table = Breaking()
    server = grpc.aio.server()
    table_pb2_grpc.add_TableServicer_to_server(table, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    conn = Connection.open(f"127.0.0.1:{port}")
    said: list[int] = []
    try:
        async for msg in conn.follow("token", max_backoff=0.05):
            said += [e.seq for e in msg.update.events]
            if msg.HasField("closing"):
                break
    finally:
        await conn.close()
        await server.stop(grace=None)
    assert table.asked == [0, 5, 5], table.asked
    assert said == list(range(1, 10)), said
