"""A password is never echoed in the line mode: not by a real terminal (its echo is off while the password is
asked), not by the browser page's terminal (its typed characters are not sent back), not in any sentence.

A real server on 127.0.0.1 (port 0); the command in a pty through pexpect, the browser guest through the real
web endpoint.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import grpc
import pexpect

from cardtui.server.app import Running
from cardtui.server.web.site import WebServer
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc
from tests.client.lines.listener import Listener, spawned
from tests.test_web import http, open_guest, web  # noqa: F401  (the fixtures)

PATIENCE = 60
SECRET = "sesamo42"


def create_with_a_password(port: int, home: Path) -> str:
    """``new``, ``change``, every question kept but the password's, typed; the transcript, to the seat."""
    child, transcript = spawned(port, home)
    try:
        child.expect("Type help for the commands")
        child.sendline("new cacho")
        child.expect("Press enter to create it")
        child.sendline("change")
        while child.expect([r"enter keeps[^\r\n]*", r"A password for the table\?[^\r\n]*"]) == 0:
            child.sendline("")
        child.sendline(SECRET)
        child.expect("You sit at")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    return transcript.getvalue()


async def test_a_terminal_does_not_echo_the_password_of_a_new_table(server: Running, tmp_path: Path) -> None:
    transcript = await asyncio.to_thread(create_with_a_password, server.port, tmp_path / "config")
    assert "You sit at" in transcript
    assert SECRET not in transcript, "the password was echoed"
    tables = await server_tables(server)
    assert [t.has_password for t in tables] == [True], "the table was made with the password"


async def server_tables(server: Running) -> list[common_pb2.TableSummary]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        listed = await lobby_pb2_grpc.LobbyStub(ch).ListTables(lobby_pb2.ListTablesRequest())
    return list(listed.tables)


async def locked_table(server: Running) -> str:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        created = await lobby_pb2_grpc.LobbyStub(ch).CreateTable(lobby_pb2.CreateTableRequest(
            game="cacho", name="Fechada", seats=2, bots=1, password=SECRET))
    return created.table.id


async def test_the_browser_page_is_not_sent_the_password_typed(
    web: WebServer, server: Running, http: aiohttp.ClientSession  # noqa: F811
) -> None:
    await locked_table(server)
    guest = await open_guest(http, f"ws://127.0.0.1:{web.port}/ws/reader")
    sent = bytearray()
    feed = guest.stream.feed

    def kept(data: bytes) -> None:
        sent.extend(data)
        feed(data)

    guest.stream.feed = kept  # type: ignore[method-assign]
    try:
        await guest.until("Your name at the tables?")
        await guest.type("bea\r")
        await guest.until("Fechada")
        await guest.type("sit 1\r")
        await guest.until("Type it, or enter to give up")  # the question itself (the list says the table asks one)
        await guest.type(SECRET[:3])
        await guest.type("x\x7f" + SECRET[3:] + "\r")  # a backspace in a password takes a letter back, unseen
        await guest.until("You sit at")
        await guest.type("help\r")
        await guest.until("these commands")
    finally:
        await guest.ws.close()
    said = sent.decode("utf-8", "replace")
    assert SECRET not in said and SECRET[:3] not in said and SECRET[3:] not in said, "the password was echoed"
    assert "help" in said, "other lines are echoed as they are typed"


async def test_the_line_mode_asks_a_password_as_a_secret_and_never_says_it(server: Running) -> None:
    table_id = await locked_table(server)
    player = Listener(f"127.0.0.1:{server.port}")
    player.start()
    heard = player.heard
    await heard.until(lambda s: "Fechada" in s, "the table listed")
    heard.type(f"sit {table_id}")
    await heard.until(lambda s: "asks for a password" in s, "the password asked")
    heard.type(SECRET)
    await heard.until(lambda s: s.startswith("You sit at"), "the seat")
    assert await player.stop() == 0
    assert heard.secrets == 1
    assert not [s for s in heard.said if SECRET in s]
