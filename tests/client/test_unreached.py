"""What a client says when its server does not answer, worded from what happened, against real sockets on
127.0.0.1: a port nothing listens on (refused), a port that accepts connections but never answers (a server
still starting: it binds its port before it serves), a host that never answers at all (a listening socket whose
queue is full: the kernel drops every new connection's first packet, as a firewall that drops does), a real
server kept busy (its store locked by another process: its calls wait, and a deadline is a slow server, not one
out of reach), and a host with no route to it (a network namespace of the test's own, where the system has
one). Each in the line mode, and the way in and the create form of the Textual client at 80x24.
"""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import grpc
import pytest

from cardtui.client import connection
from cardtui.client.app import CardApp
from cardtui.client.connection import Connection, Trouble, diagnosed
from cardtui.client.lines import loop
from cardtui.client.lines.loop import LineRoom, Start
from cardtui.client.screens.connect import ConnectScreen
from cardtui.client.screens.lobby import CreateTableScreen
from cardtui.server.app import start
from tests import forked
from tests.client.lines.listener import Heard
from tests.client.waiting import in_lobby, until
from tests.forked import ROOT

SMALL = (80, 24)
PATIENCE = 0.3
"""The calls' deadline here: short, so that a test does not wait out a real client's five seconds."""


@pytest.fixture(autouse=True)
def impatient(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "PATIENCE", PATIENCE)
    monkeypatch.setattr(connection, "PROBE_SECONDS", PATIENCE)
    monkeypatch.setattr(loop, "CONNECT_PAUSE", 0.05)
    monkeypatch.setattr(loop, "CONNECT_TRIES", 1000)  # a server that starts in the test is waited for


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def mute() -> AsyncIterator[int]:
    """A port that accepts connections and never says a word (a server that has bound its port and not started
    serving): its port."""
    held: list[asyncio.StreamWriter] = []

    async def accepted(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(accepted, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()
        for writer in held:
            writer.close()
        await server.wait_closed()


@contextmanager
def full() -> Iterator[int]:
    """A port whose queue of connections is full: the kernel drops each new connection's first packet, and the
    connecting side hears nothing at all, as from a host that is off or behind a firewall that drops."""
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen(0)
    port = int(listening.getsockname()[1])
    filler = socket.create_connection(("127.0.0.1", port))
    try:
        yield port
    finally:
        filler.close()
        listening.close()


async def heard_at(target: str) -> tuple[int, list[str]]:
    """The line mode started at ``target``: its exit code and what it said."""
    heard = Heard()
    code = await asyncio.wait_for(LineRoom(Start(target, "ana", own_config=False), heard).run(), 30)
    return code, heard.said


async def test_a_port_nothing_listens_on_is_said_to_refuse() -> None:
    port = free_port()
    code, said = await heard_at(f"127.0.0.1:{port}")
    assert code == 1
    assert said == [f"Nothing is listening at 127.0.0.1:{port}: the connection was refused. Is the server running, "
                    "on this port?"]


async def test_a_host_that_never_answers_is_not_told_as_a_slow_or_refusing_server() -> None:
    with full() as port:
        code, said = await heard_at(f"127.0.0.1:{port}")
        conn = Connection.open(f"127.0.0.1:{port}")
        try:
            with pytest.raises(connection.grpc.aio.AioRpcError) as raised:
                await conn.info()
            trouble, _words = await diagnosed(conn, raised.value)
        finally:
            await conn.close()
    assert trouble is Trouble.SILENT
    assert code == 1
    assert said == ["127.0.0.1 does not answer at all: the machine may be off or on another network, or a firewall "
                    "drops the connection."]


async def test_a_server_still_starting_is_waited_for_in_the_line_mode(tmp_path: Path) -> None:
    """The port accepts connections but nothing answers: the line mode says so, tries again, and once the server
    serves on that port it says so and goes on into the room."""
    async with mute() as port:
        heard = Heard()
        room = LineRoom(Start(f"127.0.0.1:{port}", "ana", own_config=False), heard)
        task = asyncio.create_task(room.run())
        await heard.until(lambda s: s.startswith("Something accepts connections"), "the server said to be starting")
        assert heard.said[0] == (f"Something accepts connections at 127.0.0.1:{port} but does not answer as a card "
                                 "server yet: the server may still be starting. Trying again.")
    running = await start("127.0.0.1", port, tmp_path / "store.db")
    try:
        await heard.until(lambda s: s == "The server answers now.", "the server answering")
        await heard.until(lambda s: s.startswith("Welcome, ana."), "the room")
        heard.type("quit")
        assert await asyncio.wait_for(task, 30) == 0
    finally:
        await running.stop(grace=0.1)


async def test_a_server_still_starting_is_told_apart_on_the_textual_way_in(tmp_path: Path) -> None:
    async with mute() as port:
        app = CardApp(f"127.0.0.1:{port}", "ana")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ConnectScreen) and "accepts connections" in str(
                app.screen.query_one("#connect-reason").render()), "the way in")
            title = str(app.screen.query_one("#connect-title").render())
            assert title == "The card server has not answered yet", title
            reason = str(app.screen.query_one("#connect-reason").render())
            assert "may still be starting" in reason and "firewall" not in reason, reason
            await pilot.press("q")


@contextmanager
def locked(store: Path) -> Iterator[sqlite3.Connection]:
    """The server's store written by another process, which holds it: every write of the server waits."""
    other = sqlite3.connect(store, timeout=10, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        yield other
    finally:
        other.execute("ROLLBACK")
        other.close()


async def until_silent(conn: Connection) -> None:
    """Waits for the server to stop answering: the write it was given holds its loop on the locked store. A short
    question is asked until one meets its deadline, so the list asked next is surely asked of a busy server."""
    request = connection.lobby_pb2.GetInfoRequest()
    while True:
        try:
            await conn.lobby.GetInfo(request, timeout=PATIENCE)
        except grpc.aio.AioRpcError as err:
            if err.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                raise
            return


async def test_a_busy_server_is_said_busy_and_what_it_was_asked_may_still_be_done(tmp_path: Path) -> None:
    """While the store is held by another process, the real server's writes wait (and its event loop with them):
    creating a table meets its deadline. The line mode says the server is busy and that the table may still be
    made, not "cannot be reached" nor "no table was created"; once the store is free the table is there. A list
    asked meanwhile is asked again, more patiently, and answered."""
    store = tmp_path / "store.db"
    served, port = forked.serve(["--host", "127.0.0.1", "--port", "0", "--db", str(store), "--no-announce",
                                 "--workers", "1", "--log-level", "warning"], tmp_path / "stderr.log")
    try:
        heard = Heard()
        room = LineRoom(Start(f"127.0.0.1:{port}", "ana", own_config=False), heard)
        task = asyncio.create_task(room.run())
        await heard.until(lambda s: s.startswith("No tables yet"), "the room's empty list")
        heard.type("new cacho")
        await heard.until(lambda s: s.endswith("or cancel."), "the table described")
        with locked(store):
            heard.type("")
            n = await heard.until(lambda s: "busy" in s, "the server said busy")
        assert heard.said[n] == ("The server is busy and has not answered yet: the table may still be created. Type "
                                 "tables in a moment to see it before you create another.")
        assert not any("cannot be reached" in s or "No table was created" in s for s in heard.said)
        heard.type("tables")
        await heard.until(lambda s: s.startswith("1: "), "the table, made once the store was free")
        # A list asked while the server is busy: the first deadline passes (a pause past a deadline, which no load
        # can make shorter), the list is asked again, more patiently, and the store set free answers it.
        monkey = pytest.MonkeyPatch()
        monkey.setattr(connection, "PATIENT_AGAIN", 100.0)
        try:
            with locked(store):
                blocker = Connection.open(f"127.0.0.1:{port}")
                made = asyncio.create_task(blocker.create(connection.lobby_pb2.CreateTableRequest(
                    game="cacho", seats=2, bots=1)))  # a write: the server's loop waits on the store
                await until_silent(blocker)
                mark = len(heard.said)
                heard.type("tables")
                await asyncio.sleep(3 * PATIENCE)
            await heard.until(lambda s: s == "Tables:", "the list, asked again", mark)
            assert not any("busy" in s or "reach" in s for s in heard.said[mark:]), heard.said[mark:]
            await asyncio.gather(made, return_exceptions=True)  # its own deadline passed: it was only a weight
            await blocker.close()
        finally:
            monkey.undo()
        heard.type("quit")
        assert await asyncio.wait_for(task, 30) == 0
    finally:
        served.kill()
        served.wait()


async def test_a_guests_join_answered_too_late_is_given_the_seat_it_took_when_sent_again(tmp_path: Path) -> None:
    """A guest joins while the server is busy (its store held by another process): the server seats them, but its
    answer comes after the client's deadlines (the join is sent once more at once, as a question is). The next
    join to that table is given the seat the first took, under the token the client made for it, where a second
    seat would be refused ("no free seat"); another guest finds the table full; its stream opens."""
    store = tmp_path / "store.db"
    served, port = forked.serve(["--host", "127.0.0.1", "--port", "0", "--db", str(store), "--no-announce",
                                 "--workers", "1", "--log-level", "warning"], tmp_path / "stderr.log")
    conn = Connection.open(f"127.0.0.1:{port}")
    other = Connection.open(f"127.0.0.1:{port}")
    try:
        table = await conn.create(connection.lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=1))
        with locked(store), pytest.raises(grpc.aio.AioRpcError) as late:
            await conn.join(table.id, "ana")
        assert late.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert conn.joining, "the join that got no answer is kept to be sent again"
        joined = await conn.join(table.id, "ana")
        assert not conn.joining and joined.token in conn.chains
        listed = [t for t in await conn.tables() if t.id == table.id]
        assert [s.name for s in listed[0].seats if not s.bot] == ["ana"], listed
        with pytest.raises(grpc.aio.AioRpcError) as full:
            await other.join(table.id, "bea")
        assert full.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert not other.joining, "a refused join is not kept: the next is a new one"
        async for message in conn.follow(joined.token):
            assert message.HasField("snapshot") and message.snapshot.seat == joined.seat, message
            break
    finally:
        await conn.close()
        await other.close()
        served.kill()
        served.wait()


async def test_the_textual_create_form_says_a_busy_server_may_still_make_the_table(tmp_path: Path) -> None:
    store = tmp_path / "store.db"
    served, port = forked.serve(["--host", "127.0.0.1", "--port", "0", "--db", str(store), "--no-announce",
                                 "--workers", "1", "--log-level", "warning"], tmp_path / "stderr.log")
    try:
        app = CardApp(f"127.0.0.1:{port}", "ana", own_config=False)
        async with app.run_test(size=SMALL) as pilot:
            await in_lobby(pilot)
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the create form")
            with locked(store):
                await pilot.click("#create")
                await until(pilot, lambda: "busy" in str(app.screen.query_one("#create-error").render()),
                            "the form's error")
            said = str(app.screen.query_one("#create-error").render())
            assert "may still be created" in said and "reached" not in said, said
    finally:
        served.kill()
        served.wait()


NETNS = """
ip link set lo up && ip route add unreachable 10.9.9.9 && ip route add prohibit 10.9.9.7 || exit 77
exec "$0" -c "$1"
"""
DIAL = """
import asyncio
from cardtui.client.connection import Connection, diagnosed

async def main():
    for host in ("10.9.9.9", "10.9.9.7"):
        conn = Connection.open(host)
        try:
            await conn.info()
        except Exception as err:
            print((await diagnosed(conn, err))[1])
        await conn.close()

asyncio.run(main())
"""


def test_a_host_with_no_route_and_one_forbidden_are_said_so(tmp_path: Path) -> None:
    """In a network namespace of the test's own (no privilege needed where user namespaces are allowed): a route
    that says a host is unreachable, and one that prohibits it, as this machine's rules would."""
    try:
        ran = subprocess.run(["unshare", "-rn", "sh", "-c", NETNS, sys.executable, DIAL], cwd=ROOT,
                             capture_output=True, text=True, timeout=60,
                             env={"CARDTUI_LANG": "en", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": str(tmp_path)})
    except FileNotFoundError:
        pytest.skip("unshare is not installed")
    if ran.returncode == 77 or "unshare" in ran.stderr:
        pytest.skip(f"no network namespace of our own here: {ran.stderr.strip()[:200]}")
    said = ran.stdout.splitlines()
    assert said == ["The network cannot reach 10.9.9.9: there is no route to it from this machine. Is this machine on "
                    "the same network?",
                    "This machine's network rules refuse connections to 10.9.9.7 (a firewall or a route that forbids "
                    "it)."], ran


def test_only_a_refusal_is_said_not_allowed() -> None:
    """A call the server answered with a refusal of its own is "not allowed"; one that met no answer (a deadline,
    a server out of reach) is said as what happened to it, a deadline as a busy server whose answer may still
    come."""
    import grpc

    from cardtui.client.connection import error_text, refused

    def failed(code: grpc.StatusCode, details: str) -> grpc.aio.AioRpcError:
        return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details)

    late = failed(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded")
    gone = failed(grpc.StatusCode.UNAVAILABLE, "failed to connect to all addresses; last error: UNKNOWN: "
                                               "ipv4:127.0.0.1:1: Failed to connect to remote host: Connection refused")
    turn = failed(grpc.StatusCode.FAILED_PRECONDITION, "It is bia's turn, not yours.")
    assert not refused(late) and not refused(gone) and refused(turn)
    assert error_text(late).startswith("The server is busy") and "may still be done" in error_text(late)
    assert error_text(gone).startswith("The server refused the connection: it is not running now")
    assert error_text(turn) == "It is bia's turn, not yours."
