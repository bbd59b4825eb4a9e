"""LAN discovery: a real server announces itself over mDNS on 127.0.0.1 and a real browse finds it."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

import cardtui
from cardtui import cli
from cardtui.certs import generate
from cardtui.cli.connect import choose_server
from cardtui.client.discovery import QUESTION, SERVICE_TYPE, Found, discover
from cardtui.server.app import Running, start
from cardtui.server.ops.announce import announced_addresses, instance_name
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc

LOOPBACK = ["127.0.0.1"]
BROWSE = 2.0  # seconds: a record announced under a second ago is multicast again only after one


def multicast_on_loopback() -> str | None:
    """None if a multicast datagram sent on 127.0.0.1 comes back here; else why not."""
    group = "224.0.0.251"
    try:
        with contextlib.ExitStack() as stack:
            rx = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_DGRAM))
            rx.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            rx.bind(("", 0))
            port = rx.getsockname()[1]
            mreq = struct.pack("4s4s", socket.inet_aton(group), socket.inet_aton("127.0.0.1"))
            rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
            rx.settimeout(1.0)
            tx = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_DGRAM))
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            tx.sendto(b"cardtui", (group, port))
            data, _ = rx.recvfrom(64)
            return None if data == b"cardtui" else "a stray datagram arrived instead of ours"
    except OSError as err:
        return str(err)


@pytest.fixture(scope="module", autouse=True)
def _needs_multicast() -> None:
    reason = multicast_on_loopback()
    if reason is not None:
        pytest.skip(f"multicast on 127.0.0.1 does not work on this machine: {reason}")


@pytest_asyncio.fixture
async def announced(tmp_path: Path) -> AsyncIterator[Running]:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          announce=True, announce_interfaces=LOOPBACK)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


def mine(found: list[Found], running: Running) -> list[Found]:
    """Other cardtui servers on this machine may be announcing too: keep this test's own."""
    return [f for f in found if f.port == running.port]


async def test_a_served_table_is_found_and_gone_after_stop(announced: Running) -> None:
    assert announced.announcer is not None
    assert await announced.announcer.announced()
    found = mine(await discover(BROWSE, interfaces=LOOPBACK), announced)
    assert len(found) == 1
    server = found[0]
    assert (server.host, server.port, server.version, server.tls, server.tables) == (
        "127.0.0.1", announced.port, cardtui.__version__, False, 0
    )
    assert server.name == announced.announcer.registered_name
    assert server.target == f"127.0.0.1:{announced.port}"

    # A browser still listening hears the goodbye; a later browse finds nothing.
    seen, gone = asyncio.Event(), asyncio.Event()

    def changed(zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if name == f"{server.name}.{SERVICE_TYPE}":
            (gone if state_change is ServiceStateChange.Removed else seen).set()

    listener = AsyncZeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only)
    browser = AsyncServiceBrowser(listener.zeroconf, SERVICE_TYPE, handlers=[changed], question_type=QUESTION)
    try:
        await asyncio.wait_for(seen.wait(), 3)
        await announced.stop(grace=0.2)
        assert announced.announcer is None
        await asyncio.wait_for(gone.wait(), 3)
    finally:
        await browser.async_cancel()
        await listener.async_close()
    assert mine(await discover(1.0, interfaces=LOOPBACK), announced) == []


async def test_txt_tells_tls_and_follows_the_table_count(tmp_path: Path) -> None:
    cert, key = generate(["localhost"])
    running = await start("127.0.0.1", 0, tmp_path / "store.db", tls=(cert, key),
                          announce=True, announce_interfaces=LOOPBACK, web_url="https://127.0.0.1:8443/")
    try:
        assert running.announcer is not None
        assert await running.announcer.announced()
        before = running.announcer.info
        await running.announcer.refresh()  # nothing changed: nothing sent
        assert running.announcer.info is before
        creds = grpc.ssl_channel_credentials(root_certificates=cert)
        async with grpc.aio.secure_channel(f"127.0.0.1:{running.port}", creds) as ch:
            await lobby_pb2_grpc.LobbyStub(ch).CreateTable(lobby_pb2.CreateTableRequest(game="cacho"), timeout=5)
        await running.announcer.refresh()
        found = mine(await discover(BROWSE, interfaces=LOOPBACK), running)
        for _ in range(4):  # multicast keeps no order: the first announcement may reach a browser after the update
            if [f.tables for f in found] == [1]:
                break
            found = mine(await discover(BROWSE, interfaces=LOOPBACK), running)
        assert [(f.tls, f.tables, f.web) for f in found] == [(True, 1, "https://127.0.0.1:8443/")]
        assert "1 table" in found[0].line() and "TLS" in found[0].line()
        assert "browsers: https://127.0.0.1:8443/" in found[0].line()
    finally:
        await running.stop(grace=0.2)


def test_announced_addresses() -> None:
    assert announced_addresses("127.0.0.1", None) == ["127.0.0.1"]
    assert announced_addresses("0.0.0.0", LOOPBACK) == LOOPBACK
    assert "127.0.0.1" in announced_addresses("localhost", None)
    wildcard = announced_addresses("0.0.0.0", None)
    assert wildcard and all(a for a in wildcard)
    assert instance_name("table-host.example.org") == "table-host"
    assert len(instance_name("x" * 200).encode()) <= 63


FOUND = [Found("ana", "192.0.2.7", 50051, "0.1.0", 2, False), Found("bia", "192.0.2.8", 50052, "0.1.0", 0, True)]


def test_choosing_a_server_by_number(capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["9", "two", "2"])
    assert choose_server(FOUND, ask=lambda _prompt: next(answers)) == FOUND[1]
    out = capsys.readouterr().out
    assert "1. ana — 192.0.2.7:50051" in out and "2. bia — 192.0.2.8:50052" in out
    assert out.count("Type a number from 1 to 2.") == 2


def test_choosing_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    def eof(_prompt: str) -> str:
        raise EOFError

    assert choose_server(FOUND, ask=eof) is None
    assert choose_server(FOUND, ask=lambda _prompt: "") is None
    assert choose_server(FOUND[:1], ask=eof) == FOUND[0]  # the only one: no question asked
    assert "Found ana" in capsys.readouterr().out


def test_connect_without_target_finding_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def nothing(timeout: float = 2.0, interfaces: list[str] | None = None) -> list[Found]:
        return []

    monkeypatch.setattr("cardtui.client.discovery.discover", nothing)
    assert cli.main(["connect"]) == 1
    assert "HOST:PORT" in capsys.readouterr().err


def test_connect_to_a_found_tls_server_needs_its_certificate(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def one(timeout: float = 2.0, interfaces: list[str] | None = None) -> list[Found]:
        return [FOUND[1]]

    monkeypatch.setattr("cardtui.client.discovery.discover", one)
    assert cli.main(["connect"]) == 2
    err = capsys.readouterr().err
    assert "bia uses TLS" in err and "--tls-ca" in err


async def test_a_loopback_only_server_is_not_announced(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """127.0.0.1 means "this machine" to every machine: a server only there is not on the LAN, and says so."""
    caplog.set_level("INFO", logger="cardtui.announce")
    running = await start("127.0.0.1", 0, tmp_path / "store.db", announce=True)
    try:
        assert running.announcer is None
        assert "not announced on the LAN" in caplog.text and "--host 0.0.0.0" in caplog.text
        assert mine(await discover(1.0, interfaces=LOOPBACK), running) == []
    finally:
        await running.stop(grace=0.2)
