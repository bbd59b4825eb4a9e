"""The arrangements a room runs in, for the matrix every table feature goes through (``tests/test_matrix.py``).

- ``one``: one process drives every table and keeps the lobby (``cardtui serve --workers 1``, as ``make play``);
- ``workers``: ``cardtui serve`` as it starts by default: the lobby in the front process, the tables driven by
  table workers (two here) on the two ports after the lobby's, so that a killed worker's replacement serves at the
  dead one's address;
- ``hosts``: two hosts sharing one PostgreSQL database: a table is made on the second and the people reach it
  through the first, whose lobby passes their calls on.

Each is real: ``cardtui serve`` processes forked by ``tests.forked`` on 127.0.0.1, their stores on disk, killed with
-9 like any. One of each is started per test process, the first time a test asks for it, and shared by the tests
that ask for it after (each makes tables of its own, so none sees another's); a test that kills a process of one
leaves it whole again (``Arrangement.kill``).

People reach the tables as the real client does: through ``cardtui.client.connection.Connection``, the one way a
client has to a table, with ``cardtui.client.fairness.FairDeals`` cutting and checking every deal (``Person``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import psutil

from cardtui.client.boards import cacho, rummy_words, truco_words  # noqa: F401  (each says its game's events)
from cardtui.client.connection import Connection
from cardtui.client.fairness import FairDeals, Verdict
from cardtui.client.models import Holders, TableModel, holders_of, names_then
from cardtui.client.rematch import seat_after
from cardtui.client.table_log import event_told
from cardtui.v1 import common_pb2, lobby_pb2, table_pb2
from tests import forked
from tests.forked import Served
from tests.games import highcard
from tests.waiting import PATIENCE, eventually, eventually_sync

ARRANGEMENTS = ("one", "workers", "hosts")
SERVE = ("--no-announce", "--log-level", "warning", "--bot-delay", "10", "--next-hand-delay", "50",
         "--idle-minutes", "1", "--cut-ms", "10000", "--max-actions", "1e6", "--max-chat", "1e6", "--max-tables", "1e6",
         "--analysis-workers", "1")
"""Quick bots and pauses; a deal waits for the seeds of the people seated with the table open (a real client sends
its own at once), and a new match for their streams, as long as any test does: a test holds a table between hands
by keeping a seed back (``Person(cuts=False)``), never by racing a clock."""
GAMES = {"CARDTUI_GAMES": highcard.MODULE}
"""Every arrangement offers the tests' game too, as a room offers a game from outside the package: named in the
environment of each ``cardtui serve``, so its table workers and bot workers register it as well."""
TIMING = {"cardtui.server.lobby.listings:PACE_SECONDS": 0.5}
"""The lobby's list paced at half a second, not four: a watcher's stream still gets what changed together, paced
from the last message, but a test that follows a table through the list (wait for it, sit, watch, leave, kill) waits
half a second for each change rather than four. No test here measures the pace itself (``make bench --only lobby``)."""


def listening(pid: int) -> set[int]:
    """The TCP ports a process listens on."""
    try:
        return {c.laddr.port for c in psutil.Process(pid).net_connections("tcp") if c.status == psutil.CONN_LISTEN}
    except psutil.NoSuchProcess:
        return set()


def free_run(count: int) -> int:
    """A port from which ``count`` ports in a row are free just now, for a server and its table workers laid out
    as ``cardtui serve`` lays them out by default (``--port`` and the ports after it); another run may take one
    before the server does: the caller tries again."""
    while True:
        with contextlib.ExitStack() as held:
            first = int(held.enter_context(socket.create_server(("127.0.0.1", 0))).getsockname()[1])
            try:
                for port in range(first + 1, first + count):
                    held.enter_context(socket.create_server(("127.0.0.1", port)))
            except OSError:
                continue
        return first


def _state(pid: int) -> str:
    """A process's state, as the system says it (``T``: stopped)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rindex(")") + 2:].split()[0]


def _writing(pid: int) -> bool:
    """Whether a process holds a write lock on a file: a SQLite write under way, which the store's others wait for."""
    for line in Path("/proc/locks").read_text().splitlines():
        kind, _, mode, holder = line.split()[1:5]
        if kind == "POSIX" and mode == "WRITE" and holder == str(pid):
            return True
    return False


async def stopped_between_writes(pid: int) -> None:
    """``pid`` stopped (SIGSTOP; SIGCONT goes on) at a moment it writes nothing to the store: a process of the room
    stalled, as a starved host stalls one. Stopped mid-write, it would hold every other process's writes too."""
    while True:
        os.kill(pid, signal.SIGSTOP)
        while _state(pid) != "T":  # the signal is sent: the process stops once it runs
            await asyncio.sleep(0.001)
        if not _writing(pid):
            return
        os.kill(pid, signal.SIGCONT)
        await asyncio.sleep(0.01)


@dataclass
class Arrangement:
    """One arrangement's processes; ``lobby`` is where people connect, ``maker`` where tables are made."""

    name: str
    folder: Path
    db: str
    extra: tuple[str, ...]
    fronts: list[Served] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    made: dict[str, str] = field(default_factory=dict)
    """The owner token of each table made here and still open (``make_table``; ``close_tables`` closes them)."""

    @property
    def lobby(self) -> str:
        return f"127.0.0.1:{self.ports[0]}"

    @property
    def maker(self) -> str:
        """Where tables are made: the second host (so a person at the first reaches it through the first's lobby);
        else the lobby (which, with workers, hands it to a worker)."""
        return f"127.0.0.1:{self.ports[-1]}"

    @property
    def log(self) -> Path:
        """Where its processes log (every one of them, appended)."""
        return self.folder / "server.log"

    def log_size(self) -> int:
        return self.log.stat().st_size if self.log.exists() else 0

    def logged(self, since: int) -> list[str]:
        """What its processes logged since ``since`` (a ``log_size``), line by line."""
        if not self.log.exists():
            return []
        with self.log.open("rb") as f:
            f.seek(since)
            return f.read().decode(errors="replace").splitlines()

    def troubles(self, since: int) -> list[str]:
        """What its processes logged as an error since ``since`` (a ``log_size``): an exception, an error."""
        return [line for line in self.logged(since) if "Traceback" in line or " ERROR " in line or "Exception" in line]

    def _serve(self, index: int, port: int = 0) -> None:
        env_db = self.db if self.name == "hosts" else str(self.folder / "store.db")
        served, got = forked.serve(["--port", str(port), "--db", env_db, *SERVE, *self.extra], self.log, GAMES,
                                   TIMING)
        if index < len(self.fronts):
            self.fronts[index], self.ports[index] = served, got
        else:
            self.fronts.append(served)
            self.ports.append(got)

    @classmethod
    def start(cls, name: str, folder: Path, pg_url: str = "") -> Arrangement:
        folder.mkdir(parents=True, exist_ok=True)
        extra = {"one": ("--workers", "1"), "workers": ("--workers", "2"), "hosts": ("--workers", "1")}[name]
        made = cls(name, folder, pg_url, extra)
        for i in range(2 if name == "hosts" else 1):
            if name != "workers":
                made._serve(i)
                continue
            for attempt in range(5):  # on the ports the default serve takes: a killed worker's replacement on its own
                try:
                    made._serve(i, free_run(3))
                    break
                except AssertionError:  # a port of the run taken meanwhile: it did not start
                    if attempt == 4:
                        raise
        return made

    def processes(self) -> Iterator[tuple[int, Served | None]]:
        """Every process that may drive a table: (pid, the front it is, or None for a table worker)."""
        for front in self.fronts:
            yield front.pid, front
            if self.name == "workers":
                for child in psutil.Process(front.pid).children(recursive=True):
                    yield child.pid, None

    def pid_at(self, address: str) -> int:
        """The process that serves ``address`` as ``JoinResponse.address`` or ``Locate`` say it ("": the lobby)."""
        port = self.ports[0] if not address else int(address.rsplit(":", 1)[1])
        for pid, _front in self.processes():
            if port in listening(pid):
                return pid
        raise AssertionError(f"no process of the {self.name} arrangement listens on {port}")

    def kill(self, pid: int) -> None:
        """kill -9 of one of its processes; a front killed is started again on its port (its tables come back
        from the store, or, for a host, on the other host first), a table worker is replaced by its front."""
        children = psutil.Process(pid).children(recursive=True)
        os.kill(pid, signal.SIGKILL)
        for i, front in enumerate(self.fronts):
            if front.pid == pid:  # (its table workers follow it out: ``server.workers.watch_parent``)
                front.wait(timeout=PATIENCE)
                eventually_sync(lambda: not any(listening(child.pid) for child in children),  # the new one's ports
                                "the killed front's table workers gone, their ports free")
                self._serve(i, self.ports[i])

    def stop(self) -> None:
        for front in self.fronts:
            front.terminate()
        for front in self.fronts:
            try:
                front.wait(timeout=20)
            except Exception:
                front.kill()


@dataclass(eq=False)
class Person:
    """A person at a table, through the client's own connection; every message their stream brings is kept, and
    their client's fair-deal check runs on it (``cuts``: they send their seed for each deal at once, as the client
    does; without, the deal waits for it until ``cut`` sends it)."""

    conn: Connection
    name: str
    cuts: bool = True
    lag: float = 0.0
    """Seconds after each message arrives that the client reads it (a busy machine): its cuts go late too."""
    token: str = ""
    seat: int | None = None
    joined: lobby_pb2.JoinResponse | None = None
    messages: list[table_pb2.TableMessage] = field(default_factory=list)
    fair: FairDeals = field(default_factory=FairDeals)
    task: asyncio.Task[None] | None = None
    lagging: asyncio.Task[None] | None = None
    ended: BaseException | None = None

    @classmethod
    def at(cls, arrangement: Arrangement, name: str, cuts: bool = True, lag: float = 0.0) -> Person:
        return cls(Connection.open(arrangement.lobby), name, cuts, lag)

    async def sit(self, table_id: str, invite: str = "") -> Person:
        self.joined = await self.conn.join(table_id, self.name, invite=invite)
        self.token, self.seat = self.joined.token, self.joined.seat
        return self

    async def watch(self, table_id: str) -> Person:
        self.joined = await self.conn.spectate(table_id, self.name)
        self.token, self.seat = self.joined.token, None
        return self

    def follow(self, after_seq: int = 0) -> None:
        """Open the table as the client does (``Connection.follow``: it resumes, and follows the table to another
        process); from ``after_seq``, as a client that had seen the table up to there."""
        self.fair.chain = self.conn.chains.get(self.token)

        came: asyncio.Queue[tuple[float, table_pb2.TableMessage]] = asyncio.Queue()

        async def read() -> None:
            try:
                fair = self.fair if self.cuts and not self.lag else None
                async for msg in self.conn.follow(self.token, fair=fair, after_seq=after_seq):
                    if self.lag:
                        came.put_nowait((asyncio.get_running_loop().time(), msg))
                        continue
                    if not self.cuts:
                        self.fair.feed(msg)  # checked all the same; its seeds are kept back
                    self.messages.append(msg)
            except BaseException as e:
                self.ended = e
                raise

        async def late() -> None:
            """Each message read ``lag`` seconds after it came (a busy machine), then checked and cut as the
            client does."""
            loop = asyncio.get_running_loop()
            while True:
                at, msg = await came.get()
                await asyncio.sleep(max(0.0, at + self.lag - loop.time()))
                for hand, seed in self.fair.feed(msg):
                    if self.cuts:
                        self.conn._cut_soon(self.token, hand, seed, self.fair)
                self.messages.append(msg)

        self.task = asyncio.create_task(read())
        if self.lag:
            self.lagging = asyncio.create_task(late())

    async def unfollow(self) -> None:
        for task in (self.task, self.lagging):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self.task = self.lagging = None

    async def cut(self) -> bool:
        """The seed kept back for the deal waiting, sent now (``cuts=False``)."""
        watch = self.fair.watch
        assert watch is not None, f"{self.name}: no deal is being cut"
        chain = self.conn.chains[self.token]
        named = watch.pledges.get(self.seat) if self.seat is not None else None
        at = chain.place(named) if named is not None else None
        assert at is not None, f"{self.name}: the commitment names no link of this seat's chain"
        # as the client's own cut would: the link after the one named, which its check looks for in the deal
        seed = watch.seed = chain.link(at + 1)
        self.fair.sent[seed] = watch.hand
        self.fair.revealed = max(self.fair.revealed, at + 1)
        taken = await self.conn.cut(self.token, watch.hand, seed)
        self.fair.taken(watch.hand, taken)
        return taken

    async def until(self, check: Callable[[Person], Any], what: str) -> Any:
        def looked() -> Any:
            if self.ended is not None and not isinstance(self.ended, asyncio.CancelledError):
                raise AssertionError(f"{self.name}'s stream ended: {self.ended!r}")
            return check(self)

        return await eventually(looked, f"{self.name}: {what}")

    async def act(self, kind: int, **fields: Any) -> int:
        return await self.conn.act(self.token, common_pb2.Action(type=kind, **fields))

    async def leave(self) -> None:
        await self.conn.leave(self.token)
        await self.unfollow()

    async def close(self) -> None:
        await self.unfollow()
        await self.conn.close()

    # -- what the stream brought ----------------------------------------------------------------
    @property
    def snapshots(self) -> list[table_pb2.Snapshot]:
        return [m.snapshot for m in self.messages if m.HasField("snapshot")]

    @property
    def events(self) -> list[table_pb2.Event]:
        return [e for m in self.messages if m.HasField("update") for e in m.update.events]

    @property
    def view(self) -> table_pb2.View | None:
        for m in reversed(self.messages):
            if m.HasField("update") and m.update.HasField("view"):
                return m.update.view
            if m.HasField("snapshot"):
                return m.snapshot.view
        return None

    @property
    def last_seq(self) -> int:
        """The last event number seen, as the client counts it (a closing word says none)."""
        return max((m.seq for m in self.messages if not m.HasField("closing")), default=0)

    def log(self) -> list[str]:
        """The table's log as this person's client writes it (``TableScreen.on_streamed``): each event told with
        each seat named as it was held then, in the reader's language now."""
        return [text for _event, text in self.told()]

    def told(self) -> list[tuple[table_pb2.Event, str]]:
        """Each event the log tells, with its line (``log``)."""
        model: TableModel | None = None
        holders: Holders = {}
        lines: list[tuple[table_pb2.Event, str]] = []
        for msg in self.messages:
            if msg.HasField("snapshot"):
                snap = msg.snapshot
                model = TableModel(snap.table, snap.seat if snap.HasField("seat") else None).with_view(snap.view,
                                                                                                      msg.seq)
                holders = holders_of(snap.view.seats)
            elif msg.HasField("update") and model is not None:
                events = list(msg.update.events)
                now = holders_of(msg.update.view.seats) if msg.update.HasField("view") else holders
                for ev, then in zip(events, names_then(events, now, seat_after(events, model.seat)), strict=True):
                    text = event_told(model.then(then), ev)()
                    if text is not None:
                        lines.append((ev, text.plain))
                if msg.update.HasField("view"):
                    model, holders = model.with_view(msg.update.view, msg.seq), now
        return lines

    def legal(self, kind: int) -> common_pb2.Action | None:
        view = self.view
        return next((a for a in view.legal if a.type == kind), None) if view is not None else None

    @property
    def verdicts(self) -> list[Verdict]:
        return self.fair.verdicts


async def make_table(arrangement: Arrangement, owner: Person | None = None, **fields: Any) -> str:
    """A table, made where the arrangement makes them (``Arrangement.maker``) with the client's own call;
    ``owner``'s client is given its owner token (it may close it, and make an invite that opens its lock)."""
    fields.setdefault("bot_levels", ["easy"])
    maker = Connection.open(arrangement.maker)
    maker.patience = PATIENCE  # a table made on a starved host is late, not refused (a person's client waits 5 s)
    try:
        # connected first: on a starved host the first connection attempt can time out, and a call made on it then
        # fails without reaching the server; a CreateTable is not asked twice (it would make two tables)
        await asyncio.wait_for(maker.channel.channel_ready(), PATIENCE)
        made = await maker.create(lobby_pb2.CreateTableRequest(**fields))
    finally:
        await maker.close()
    arrangement.made[made.id] = maker.owned[made.id]
    if owner is not None:
        owner.conn.owned[made.id] = maker.owned[made.id]
    return str(made.id)


async def close_tables(arrangement: Arrangement) -> None:
    """Every table the tests made here and left open, closed by its owner: none plays on behind the next test
    (a table whose people went quiet goes on with bots standing in, as fast as the bots move)."""
    made, arrangement.made = arrangement.made, {}
    closer = Connection.open(arrangement.lobby)
    try:
        for table_id, owner in made.items():
            closer.owned[table_id] = owner
            with contextlib.suppress(grpc.aio.AioRpcError):  # closed already (by its test)
                await closer.close_table(table_id)
    finally:
        await closer.close()


def _method(details: grpc.aio.ClientCallDetails) -> str:
    method = details.method.decode() if isinstance(details.method, bytes) else str(details.method)
    service, _, name = method.strip("/").partition("/")
    return f"{service.rpartition('.')[2]}/{name}"


class _Unary(grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    def __init__(self, called: set[str]) -> None:
        self.called = called

    async def intercept_unary_unary(self, continuation: Any, details: grpc.aio.ClientCallDetails,
                                    request: Any) -> Any:
        self.called.add(_method(details))
        return await continuation(details, request)


class _Streaming(grpc.aio.UnaryStreamClientInterceptor):  # type: ignore[misc]
    def __init__(self, called: set[str]) -> None:
        self.called = called

    async def intercept_unary_stream(self, continuation: Any, details: grpc.aio.ClientCallDetails,
                                     request: Any) -> Any:
        self.called.add(_method(details))
        return await continuation(details, request)


class Calls:
    """The methods a client's channels called (``Service/Method``), for the matrix's account of what it covers:
    ``interceptors`` go on each channel (grpc.aio takes one kind of call from each interceptor)."""

    def __init__(self) -> None:
        self.called: set[str] = set()
        self.interceptors = [_Unary(self.called), _Streaming(self.called)]
