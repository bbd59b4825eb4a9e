"""A client and a server one version apart: the client plays, and what either lacks is said with the line
that installs the server's own client from its page (client.versions), never a traceback.

Each side is the real one on 127.0.0.1, made another version the one way a version shows: the server's
answer says a newer version (``ServerInfo.version``), a call this client makes is one the server does not
have (a newer client's new method: the real server answers ``UNIMPLEMENTED``), and a table's game is one
this client does not draw (an older client, a newer server's game)."""

from __future__ import annotations

import logging

import grpc
import pytest

from cardtui import __version__
from cardtui.client import gamebook
from cardtui.client.app import CardApp
from cardtui.client.connection import Connection, error_text
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.client.screens.table import TableScreen
from cardtui.installing import wheel_name
from cardtui.server import service
from cardtui.server.app import Running, start
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc
from tests.client.test_table_flow import SMALL, log_text, text_of
from tests.client.waiting import until

PAGE = "http://127.0.0.1:8080/"
"""The page the server says it has (``start(web_pages=...)``): its client's URL is the one the client gives."""


async def test_a_server_one_version_newer_is_played_on_and_its_client_offered(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(service, "__version__", "0.2.0")
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, web_pages=[PAGE])  # type: ignore[operator]
    try:
        caplog.set_level(logging.INFO, "cardtui.service")
        app = CardApp(f"127.0.0.1:{running.port}", "bia")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.info is not None)
            lobby = app.screen
            await until(pilot, lambda: lobby.query_one("#versions-line").display, "the line on the two versions")
            said = " ".join(text_of(lobby, "#versions-line").split())
            assert "This server runs cardtui 0.2.0, this client " + __version__ in said
            assert f"pipx install --force http://127.0.0.1:8080/{wheel_name('0.2.0')}" in said
            assert lobby.query_one("#tables").display, "the lobby is there to play in"
        assert any(f"a client of cardtui '{__version__}' connected" in r.getMessage() for r in caplog.records), \
            "the client said its version, and the host's log has it"
    finally:
        await running.stop(grace=0.2)


async def test_a_call_the_server_does_not_have_is_said_with_the_line_that_mends_it(tmp_path: object) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", web_pages=[PAGE])  # type: ignore[operator]
    try:
        conn = Connection.open(f"127.0.0.1:{running.port}")
        try:
            info = await conn.info()
            assert list(info.client_wheels) == [PAGE + wheel_name(__version__)]
            # A newer client's new method, as the real server answers it: it has no such method.
            call = conn.channel.unary_unary("/cardtui.v1.Lobby/GetSomethingNewer",
                                            request_serializer=lobby_pb2.GetInfoRequest.SerializeToString,
                                            response_deserializer=lobby_pb2.ServerInfo.FromString)
            with pytest.raises(grpc.aio.AioRpcError) as raised:
                await call(lobby_pb2.GetInfoRequest(), timeout=5)
            assert raised.value.code() == grpc.StatusCode.UNIMPLEMENTED
            said = error_text(raised.value)
            assert f"This server (cardtui {__version__}) does not have what this client" in said
            assert f"pipx install --force {PAGE}{wheel_name(__version__)}" in said
            assert "Method not found" not in said
            assert (await conn.info()).version == __version__, "the connection goes on"
        finally:
            await conn.close()
    finally:
        await running.stop(grace=0.2)


async def test_a_server_without_a_page_says_to_ask_its_host(server: Running) -> None:
    conn = Connection.open(f"127.0.0.1:{server.port}")
    try:
        assert not (await conn.info()).client_wheels
        call = conn.channel.unary_unary("/cardtui.v1.Lobby/GetSomethingNewer",
                                        request_serializer=lobby_pb2.GetInfoRequest.SerializeToString,
                                        response_deserializer=lobby_pb2.ServerInfo.FromString)
        with pytest.raises(grpc.aio.AioRpcError) as raised:
            await call(lobby_pb2.GetInfoRequest(), timeout=5)
        assert "Ask the host for the server's own client" in error_text(raised.value)
    finally:
        await conn.close()


async def test_a_game_this_client_does_not_know_is_said_not_a_traceback(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    # This client as one from before Cacho: no board draws it.
    monkeypatch.delitem(gamebook.known(), "cacho")
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, web_pages=[PAGE])  # type: ignore[operator]
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            await lobby_pb2_grpc.LobbyStub(ch).CreateTable(lobby_pb2.CreateTableRequest(
                game="cacho", seats=2, bots=1, bot_levels=["easy"], name="nova"))
        app = CardApp(f"127.0.0.1:{running.port}", "bia")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.rows))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and "does not know" in log_text(app.screen),
                        "the sentence on the unknown game")
            said = " ".join(log_text(app.screen).split())  # type: ignore[arg-type]
            assert f"This table plays cacho, which this client (cardtui {__version__}) does not know" in said
            assert f"pipx install --force {PAGE}{wheel_name(__version__)}" in said
            await until(pilot, lambda: "Hand 1" in log_text(app.screen), "the table's stream, still followed")  # type: ignore[arg-type]
            await pilot.press("escape")
        assert app.return_code in (None, 0), "no traceback ended the app"
    finally:
        await running.stop(grace=0.2)
