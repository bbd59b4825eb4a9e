"""A bounded load run over real gRPC on 127.0.0.1: tables of acting clients and spectators.

Every subscriber notes when each event number reaches it; every Act notes when it was sent
and the last event number it produced. Latency is arrival minus send, for every subscriber.
The same run drives the real server and the bare fan-out server. The real server runs as
``cardtui serve`` starts by default (a table worker per core), and beside it with 1 worker, 2,
and so on up to the cores the machine has: what each more core buys. Clients talk to each
table where the lobby says it is served (``JoinResponse.address``), as every client does. The clients
are C++ (``bench/loadclient.cc``, ``NativeLoad``) where ``make bench`` could build them: on one machine
they share its cores with the server, and in Python they cost as much CPU per act as the server does.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import quantiles
from typing import Any

import grpc

from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc

CHANNELS = 8


@dataclass
class Seat:
    token: str
    legal: list[common_pb2.Action] = field(default_factory=list)


@dataclass
class TableLoad:
    id: str
    seats: list[Seat]
    spectators: list[str]
    arrivals: dict[int, list[float]] = field(default_factory=dict)
    acts: list[tuple[int, float]] = field(default_factory=list)


def start_process(args: list[str], marker: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if marker not in line:
        proc.kill()
        raise RuntimeError(f"server did not start: {line!r}")
    return proc, int(line.split()[-1] if marker == "port" else line.split()[3].rsplit(":", 1)[1])


def family(pid: int) -> list[int]:
    """A server's processes: the one started and every process under it (its table workers, the
    fork servers they come from, the bots' pools)."""
    try:
        import psutil

        return [pid, *(child.pid for child in psutil.Process(pid).children(recursive=True))]
    except Exception:
        return [pid]


def cpu_seconds(pid: int) -> tuple[float, float]:
    """A server's CPU time in seconds, over all its processes: all their threads, and their main
    threads (each process's event loop).

    gRPC's own threads do part of the network work; everything the server does in Python
    runs on a process's main thread, which is what saturates first.
    """
    tick = os.sysconf("SC_CLK_TCK")

    def used(path: str) -> float:
        try:
            with open(path) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            return 0.0
        return (int(fields[11]) + int(fields[12])) / tick

    pids = family(pid)
    return (sum(used(f"/proc/{p}/stat") for p in pids), sum(used(f"/proc/{p}/task/{p}/stat") for p in pids))


def machine_ticks() -> tuple[int, int]:
    """The machine's CPU time so far, in clock ticks over all its cores: (busy, all). Whatever runs
    on it counts: the server, these clients, and anything else (a shared machine's other work)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle, and waiting for the disk
    return sum(fields) - idle, sum(fields)


async def settled_rss_kb(pid: int, within_kb: int = 256, seconds: float = 10.0) -> int:
    """``rss_kb`` once the server has done starting: two readings half a second apart within ``within_kb``
    (its bots' and analyses' pools finish their imports after it says it is serving, and their growth is no
    table's), or whatever it is after ``seconds``."""
    before = rss_kb(pid)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        now = rss_kb(pid)
        if abs(now - before) <= within_kb:
            return now
        before = now
    return before


def rss_kb(pid: int) -> int:
    """A server's resident memory, over all its processes (0 once they are gone)."""
    total = 0
    for p in family(pid):
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


class Load:
    def __init__(self, port: int, bare: bool, tables: int, pid: int = 0) -> None:
        self.port = port
        self.pid = pid
        """The server's process, whose CPU time each run reports (0: not reported)."""
        self.bare = bare
        self.n = tables
        self.channels = [grpc.aio.insecure_channel(f"127.0.0.1:{port}") for _ in range(CHANNELS)]
        self.elsewhere: dict[str, list[grpc.aio.Channel]] = {}
        """Channels to where tables are served other than the lobby (table workers), by address."""
        self.where: list[str] = []
        """Where each table is served (``JoinResponse.address``; "": the lobby's server)."""
        self.tables: list[TableLoad] = []
        self.readers: list[asyncio.Task[None]] = []
        self.rng = random.Random(1)
        self.errors = 0
        self.failed: list[str] = []
        self.messages = 0
        """Messages every subscriber got, added up: what the server wrote to its streams."""

    def stub(self, i: int, k: int = 0) -> table_pb2_grpc.TableStub:
        """A stub for table ``i``'s calls, on the ``k``-th channel to where it is served."""
        where = self.where[i] if i < len(self.where) else ""
        if not where:
            return table_pb2_grpc.TableStub(self.channels[(i + k) % CHANNELS])
        channels = self.elsewhere.get(where)
        if channels is None:
            channels = self.elsewhere[where] = [grpc.aio.insecure_channel(f"127.0.0.1{where}")
                                                for _ in range(CHANNELS)]
        return table_pb2_grpc.TableStub(channels[(i + k) % CHANNELS])

    async def setup(self) -> None:
        await self._create()
        await self._subscribe()

    async def _create(self) -> None:
        """The tables, each with its seats' and watchers' tokens (through the lobby, as a client gets them)."""
        for t in range(self.n):
            if self.bare:
                tid = f"t{t}"
                seats = [Seat(f"{tid}/{s}") for s in range(4)]
                specs = [f"{tid}/w{w}" for w in range(2)]
            else:
                lobby = lobby_pb2_grpc.LobbyStub(self.channels[t % CHANNELS])
                summary = await lobby.CreateTable(lobby_pb2.CreateTableRequest(
                    game="cacho", seats=4, bots=0, turn_seconds=3600,
                    options={"chips": common_pb2.OptionValue(number=50)}))
                tid = summary.table.id
                seats = []
                for s in range(4):
                    r = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=tid, name=f"c{s}"))
                    seats.append(Seat(r.token))
                self.where.append(r.address)
                specs = [(await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=tid, name=f"w{w}"))).token
                         for w in range(2)]
            self.tables.append(TableLoad(tid, seats, specs))

    async def _subscribe(self) -> None:
        """Every seat's and watcher's stream, open and past its snapshot."""
        ready = []
        for i, table in enumerate(self.tables):
            for seat in table.seats:
                ready.append(self._reader(i, table, seat.token, seat))
            for token in table.spectators:
                ready.append(self._reader(i, table, token, None))
        events = [asyncio.Event() for _ in ready]
        self.readers = [asyncio.create_task(r(ev)) for r, ev in zip(ready, events, strict=True)]
        await asyncio.gather(*(e.wait() for e in events))

    def _reader(self, i: int, table: TableLoad, token: str, seat: Seat | None) -> Callable[
            [asyncio.Event], Awaitable[None]]:
        async def read(ready: asyncio.Event) -> None:
            stream = self.stub(i, hash(token) & 7).Subscribe(table_pb2.SubscribeRequest(token=token))
            try:
                async for msg in stream:
                    now = time.perf_counter()
                    self.messages += 1
                    for ev in msg.update.events:
                        table.arrivals.setdefault(ev.seq, []).append(now)
                    if msg.HasField("snapshot"):
                        ready.set()
                        if seat is not None:
                            seat.legal = list(msg.snapshot.view.legal)
                    elif msg.update.HasField("view") and seat is not None:
                        seat.legal = list(msg.update.view.legal)
            except grpc.aio.AioRpcError as err:
                self.failed.append(f"{err.code().name}: {err.details()}")
                ready.set()  # counted as failed; setup must not wait for it
            except asyncio.CancelledError:
                return
        return read

    async def act(self, i: int, table: TableLoad) -> None:
        if self.bare:
            seat = table.seats[len(table.acts) % 4]
            action = common_pb2.Action(type=common_pb2.ACTION_TYPE_CALL)
        else:
            seat = next((s for s in table.seats if s.legal), None)  # type: ignore[assignment]
            for _ in range(20):  # between hands, or the view after our last act is on its way
                if seat is not None:
                    break
                await asyncio.sleep(0.01)
                seat = next((s for s in table.seats if s.legal), None)  # type: ignore[assignment]
            if seat is None:
                return
            legal = [a for a in seat.legal if a.type != common_pb2.ACTION_TYPE_FOLD and (
                a.type not in (common_pb2.ACTION_TYPE_BET, common_pb2.ACTION_TYPE_RAISE) or a.chips <= 3)]
            action = common_pb2.Action()
            action.CopyFrom(self.rng.choice(legal or seat.legal))
            if action.max_chips:
                action.chips = self.rng.randint(action.chips, min(action.max_chips, max(action.chips, 3)))
                action.max_chips = 0
            seat.legal = []
        sent = time.perf_counter()
        try:
            r = await self.stub(i).Act(table_pb2.ActRequest(token=seat.token, action=action))
        except grpc.aio.AioRpcError:
            self.errors += 1
            return
        table.acts.append((r.seq, sent))

    async def run(self, per_table_rate: float, seconds: float) -> dict[str, Any]:
        """Each table acts ``per_table_rate`` times a second, staggered, for ``seconds``.

        The clients' own collector is held off while they measure: its pauses (some over
        20 ms, in this process that holds every client's streams) would land in the latency
        of whichever server happened to be measured, as if that server had paused.
        """
        for t in self.tables:
            t.acts.clear()
            t.arrivals.clear()
        gc.collect()
        gc.disable()
        try:
            return await self._run(per_table_rate, seconds)
        finally:
            gc.enable()

    async def _run(self, per_table_rate: float, seconds: float) -> dict[str, Any]:
        cpu0 = cpu_seconds(self.pid) if self.pid else (0.0, 0.0)
        clients0, machine0 = time.process_time(), machine_ticks()
        out = await self._drive(per_table_rate, seconds)
        machine1 = machine_ticks()
        out["machine_busy"] = (machine1[0] - machine0[0]) / max(1, machine1[1] - machine0[1])
        if out["acts"]:
            out.setdefault("clients_ms", 1000 * (time.process_time() - clients0) / out["acts"])
        if self.pid and out["acts"]:
            cpu1 = cpu_seconds(self.pid)
            out["cpu_ms"] = 1000 * (cpu1[0] - cpu0[0]) / out["acts"]
            out["main_ms"] = 1000 * (cpu1[1] - cpu0[1]) / out["acts"]
        return out

    async def _drive(self, per_table_rate: float, seconds: float) -> dict[str, Any]:
        """The acts of one run, and what reached the subscribers (``summary``)."""
        interval = 1.0 / per_table_rate
        messages0 = self.messages
        start = time.perf_counter()
        pending: set[asyncio.Task[None]] = set()

        async def pace(i: int, table: TableLoad) -> None:
            await asyncio.sleep(interval * i / len(self.tables))
            nxt = time.perf_counter()
            while nxt - start < seconds:
                task = asyncio.create_task(self.act(i, table))
                pending.add(task)
                task.add_done_callback(pending.discard)
                nxt += interval
                await asyncio.sleep(max(0.0, nxt - time.perf_counter()))

        await asyncio.gather(*(pace(i, t) for i, t in enumerate(self.tables)))
        await asyncio.sleep(0.5)
        out = self.summary(time.perf_counter() - start)
        out["messages"] = self.messages - messages0
        return out

    def summary(self, elapsed: float) -> dict[str, Any]:
        lat: list[float] = []
        acts = 0
        for t in self.tables:
            for seq, sent in t.acts:
                acts += 1
                lat.extend((a - sent) * 1000 for a in t.arrivals.get(seq, []))
        return quantified({"acts": acts, "rate": acts / elapsed, "delivered": len(lat), "expected": 6 * acts,
                           "lat": lat})

    async def close(self) -> None:
        for r in self.readers:
            r.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        for ch in [*self.channels, *(c for chs in self.elsewhere.values() for c in chs)]:
            await ch.close()


def quantified(run: dict[str, Any]) -> dict[str, Any]:
    """``run`` with the median and 99th percentile of its latencies (``lat``, ms) added."""
    lat = run["lat"]
    q = quantiles(lat, n=100) if len(lat) >= 2 else [float("nan")] * 99
    return {**run, "p50": q[49], "p99": q[98]}


CLIENT = Path(sys.prefix) / "loadclient" / "loadclient"
"""The clients in C++ (``bench/loadclient.cc``), where ``make bench`` could build them."""


def clients_used() -> str:
    """Which clients the load runs with, as the bench's output says it."""
    if native_clients():
        return f"clients: C++ ({CLIENT})"
    why = "asked for" if CLIENT.exists() else f"the C++ ones are not built ({CLIENT}: `make loadclient`)"
    return f"clients: Python, {why}"


def native_clients() -> bool:
    """Whether the load runs with the C++ clients: where they are built, unless
    ``CARDTUI_BENCH_CLIENTS=python`` asks for the Python ones (the rounds before them used those)."""
    return CLIENT.exists() and os.environ.get("CARDTUI_BENCH_CLIENTS", "") != "python"


class NativeLoad(Load):
    """The same clients, in C++ (``bench/loadclient.cc``): tables made through the lobby here, as
    ``Load`` makes them, then every stream and every Act in a process that costs about a third of their
    CPU per act. The Python clients cost as much as the server they measure, and on a 2-core machine
    they take much of the core a second table worker would use."""

    def __init__(self, port: int, bare: bool, tables: int, pid: int = 0) -> None:
        super().__init__(port, bare, tables, pid)
        self.client: asyncio.subprocess.Process | None = None

    async def _tell(self, line: str) -> str:
        assert self.client is not None and self.client.stdin is not None and self.client.stdout is not None
        self.client.stdin.write(line.encode() + b"\n")
        await self.client.stdin.drain()
        return (await self.client.stdout.readline()).decode()

    async def _subscribe(self) -> None:
        self.client = await asyncio.create_subprocess_exec(
            str(CLIENT), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 26)
        lines = ["bare" if self.bare else "real"]
        for i, t in enumerate(self.tables):
            where = (self.where[i] if i < len(self.where) else "") or f":{self.port}"
            lines.append(f"table {where} {len(t.seats)} {len(t.spectators)} "
                         + " ".join([*(s.token for s in t.seats), *t.spectators]))
        assert self.client.stdin is not None
        self.client.stdin.write("\n".join(lines).encode() + b"\n")
        ready = await self._tell("go")
        if not ready.startswith("ready "):
            raise RuntimeError(f"the C++ clients did not start: {ready!r}")
        self.failed = ["subscription failed (the clients' stderr says why)"] * int(ready.split()[1])

    async def _drive(self, per_table_rate: float, seconds: float) -> dict[str, Any]:
        got = json.loads(await self._tell(f"run {per_table_rate} {seconds}"))
        self.errors = got.pop("errors")
        return quantified(got)

    async def close(self) -> None:
        if self.client is not None and self.client.returncode is None:
            assert self.client.stdin is not None
            self.client.stdin.write(b"quit\n")
            await self.client.stdin.drain()
            try:
                await asyncio.wait_for(self.client.wait(), 10)
            except TimeoutError:
                self.client.kill()
        await super().close()


def pooled(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Several runs at one rate as one: acts added up, rates averaged, latencies pooled."""
    acts = sum(r["acts"] for r in runs)
    out = quantified({
        "acts": acts, "rate": sum(r["rate"] for r in runs) / len(runs), "lat": [x for r in runs for x in r["lat"]],
        "delivered": sum(r["delivered"] for r in runs), "expected": sum(r["expected"] for r in runs),
        "messages": sum(r.get("messages", 0) for r in runs),
    })
    if acts and all("cpu_ms" in r for r in runs):
        out["cpu_ms"] = sum(r["cpu_ms"] * r["acts"] for r in runs) / acts
        out["main_ms"] = sum(r["main_ms"] * r["acts"] for r in runs) / acts
    return out


class Server:
    """One server under test with its clients: the real one or the bare one."""

    def __init__(self, bare: bool, pure: bool = False, workers: int | None = None) -> None:
        self.bare = bare
        self.pure = pure
        """The real server in plain Python (``CARDTUI_PURE=1``), not the compiled build (``cardtui.native``)."""
        self.workers = workers
        """The real server's table workers (``--workers``); None: as ``cardtui serve`` starts by default."""
        self.name = ("bare" if bare else "plain" if pure else "cardtui" if workers is None
                     else f"{workers} worker" + ("s" if workers > 1 else ""))
        self.folder: tempfile.TemporaryDirectory[str] | None = None
        self.proc: subprocess.Popen[str] | None = None
        self.load: Load | None = None
        self.rss_per_table_kb = 0.0
        self.sustained = 0.0
        self.at_limit: dict[str, Any] = {}
        """The run at its sustained rate: the server's and the clients' CPU per act, how busy the machine was."""
        self.done = False
        """Past its rate: p99 went over 100 ms."""
        self.steps: dict[float, dict[str, Any]] = {}
        """Each rate it was run at (acts a table a second), and what it gave: the base rate pooled."""

    async def start(self, tables: int, out: Callable[[str], Any]) -> None:
        if self.bare:
            self.proc, port = start_process(["-m", "bench.bare"], "port")
        else:
            env = {k: v for k, v in os.environ.items() if k != "CARDTUI_PURE"}
            if self.pure:
                env["CARDTUI_PURE"] = "1"
            # These clients do not cut (fair deals): a cut window would time the wait, not the server.
            # A store on disk, as a server keeps it (table workers share it; one in memory is one process's).
            self.folder = tempfile.TemporaryDirectory(prefix="cardtui-load-")
            workers = [] if self.workers is None else ["--workers", str(self.workers)]
            self.proc, port = start_process(
                ["-m", "cardtui.cli", "serve", "--port", "0", "--db", f"{self.folder.name}/store.db",
                 "--next-hand-delay", "50", *workers,
                 "--log-level", "warning", "--no-announce", "--max-actions", "1e6", "--max-tables", "1e6",
                 "--cut-ms", "0", "--max-streams", "100000", "--max-streams-per-address", "100000"], "server on", env)
        rss0 = await settled_rss_kb(self.proc.pid)
        self.load = (NativeLoad if native_clients() else Load)(port, self.bare, tables, self.proc.pid)
        await self.load.setup()
        if self.load.failed:
            out(f"  {len(self.load.failed)} subscriptions failed to open: {sorted(set(self.load.failed))}")
        await asyncio.sleep(1.0)
        self.rss_per_table_kb = (rss_kb(self.proc.pid) - rss0) / tables

    async def stop(self) -> None:
        if self.load is not None:
            await self.load.close()
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.folder is not None:
            self.folder.cleanup()


def stepped(ramp: Sequence[float], top: float = 64.0) -> Iterator[float]:
    """The ramp's rates, then on by a quarter each step until ``top``: the run stops once both
    servers have given out, so the bare server's limit is measured too, not only bounded."""
    yield from ramp
    rate = ramp[-1] if ramp else 1.0
    while rate * 1.25 <= top:
        rate *= 1.25
        yield round(rate, 2)


PARTS = (
    # (part, a function on the stack that marks it), first match from the stack's root wins
    ("next deal (between hands)", ("Table._next_hand", "Dealing.commit", "Table._deal", "Pacer._fire_next")),
    ("views (build and serialize)", ("Table.view_bytes", "Table.view", "Fanout.subscribe")),
    ("journal (SQLite)", ("Store.", "Journal.", "Room.step", "Room.mark", "Room.sent", "Room.hand", "Room.at_once",
                          "Room.seats", "Link.", "Tables.", "Hands.")),
    ("engine (rules)", ("Bound.apply", "Match.apply", "Game.apply")),
    ("fan-out (number, queue)", ("Fanout.",)),
)


GRPC_CALLERS = ("_streaming.<locals>.handle",)
"""Our frames that call into grpc's compiled code (a stream's ``context.write``): a sample whose
innermost frame is one of them is in grpc, whose compiled frames py-spy does not see."""


OURS = ("(cardtui/", "(server/", "(engine/", "(client/")
"""How py-spy names the files of our code: by their path under the folder they were imported from
(the package's folders are ``cardtui``, ``server``, ``engine``, ``client``; see pyproject.toml)."""


def ours(frame: str) -> bool:
    """Whether a sampled frame is in our code (the command line's own frames aside)."""
    return any(root in frame for root in OURS) and "(cardtui/cli/" not in frame


LOOP_FRAMES = ("Handle._run", "BaseEventLoop._run_once")
"""The event loop's frames: what is above them (the command that started the loop, a table worker's
``worker_main``) runs every part, and what is under them is the part that ran."""


def part_of(frames: Sequence[str]) -> str:
    """Which part of the server a sampled stack of the event loop's thread was in."""
    names = [f.split(" (", 1)[0] for f in frames]
    cut = max((i for i, n in enumerate(names) if n in LOOP_FRAMES), default=-1) + 1
    if cut:
        frames, names = frames[cut:], names[cut:]
    if not names:
        return "gRPC and asyncio (C and Python)"  # in the loop's own frame: its callbacks, grpc's among them
    if names[-1] in GRPC_CALLERS:
        return "gRPC and asyncio (C and Python)"  # in grpc's compiled code, called from our frame
    for part, marks in PARTS:
        if any(n.startswith(m) for n in names for m in marks):
            return part
    if any(ours(f) or f.startswith("BareTable.") for f in frames):
        return "server, other (service, room, records)"
    if any("select" in n.lower() for n in names[-3:]):
        return "idle"
    return "gRPC and asyncio (C and Python)"


async def parts(server: Server, seconds: float, out: Callable[[str], Any]) -> dict[str, float]:
    """Each part's share of the event loop thread's busy time, by sampling the server with
    py-spy (a dev dependency) while its clients act once a second per table. Nothing is added
    to the server to measure it: the sampler reads the process from outside."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if server.proc is None or server.load is None or not Path(spy).exists():
        out("  (no per-part breakdown: py-spy is not installed)")
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "samples.txt"
        every = ["--subprocesses"] if not server.bare and server.workers != 1 else []  # the table workers too
        proc = await asyncio.create_subprocess_exec(
            spy, "record", "-p", str(server.proc.pid), *every, "-o", str(raw), "-f", "raw", "-r", "250",
            "-d", str(int(seconds) + 1), stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        await asyncio.sleep(0.5)
        await server.load.run(1.0, seconds)
        await proc.wait()
        if not raw.exists():
            out("  (no per-part breakdown: py-spy could not read the server; it needs ptrace)")
            return {}
        counts: dict[str, int] = {}
        for line in raw.read_text().splitlines():
            if not line.strip() or "Thread._bootstrap" in line:
                continue  # gRPC's own threads: not the event loop's
            stack, n = line.rsplit(" ", 1)
            part = part_of(stack.split(";"))
            counts[part] = counts.get(part, 0) + int(n)
    busy = sum(n for part, n in counts.items() if part != "idle")
    return {part: n / busy for part, n in counts.items() if part != "idle"} if busy else {}


LIST_CALLS = 100
"""Lobby lists asked for in a row to time one (``listing_cost``)."""


async def listing_cost(server: Server, calls: int = LIST_CALLS) -> float:
    """Milliseconds of the server's CPU (every process) for one lobby list of all its tables (``ListTables`` with
    the finished ones, as a person's lobby asks every two seconds), its acting clients idle meanwhile."""
    assert server.proc is not None and server.load is not None
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.load.port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        request = lobby_pb2.ListTablesRequest(include_finished=True)
        await lobby.ListTables(request)
        before = cpu_seconds(server.proc.pid)[0]
        for _ in range(calls):
            await lobby.ListTables(request)
        return (cpu_seconds(server.proc.pid)[0] - before) / calls * 1e3


async def compare(tables: int = 200, seconds: float = 10.0, ramp: list[float] | None = None,
                  out: Callable[[str], Any] = print, rounds: int = 3, components: bool = True,
                  workers: Sequence[int] | None = None) -> dict[str, Any]:
    """The servers run side by side, each with its own clients, and are measured in turn: the real
    one as ``cardtui serve`` starts by default, the bare one, and the real one with each number of
    table workers in ``workers`` (default: 1 up to the cores but the default's own number).

    A shared machine's speed drifts over minutes; measuring them in alternation (the base
    rate in ``rounds`` short turns each, pooled; each step of the ramp one turn each) puts
    the drift on both sides of every ratio instead of between them.
    """
    from cardtui.server.processes.workers import cores

    ramp = ramp or [2, 3, 3.5, 4, 4.5, 5, 6, 8]
    default = cores()
    counts = [n for n in (workers if workers is not None else range(1, default + 1)) if n != default]
    servers = [Server(False), *(Server(False, workers=n) for n in counts), Server(True)]
    costs: dict[str, dict[str, float]] = {}
    out(f"  {clients_used()}")
    try:
        for server in servers:
            await server.start(tables, out)
        base: dict[str, list[dict[str, Any]]] = {s.name: [] for s in servers}
        for _ in range(rounds):
            for server in servers:
                assert server.load is not None
                base[server.name].append(await server.load.run(1.0, seconds / rounds))
        bases = {name: pooled(runs) for name, runs in base.items()}
        for server in servers:
            b = bases[server.name]
            out(f"  {server.name:8s} 1 act/table/s: {b['rate']:7.0f} acts/s  p50 {b['p50']:6.1f} ms  "
                f"p99 {b['p99']:6.1f} ms  delivered {b['delivered']}/{b['expected']}  "
                f"server CPU {b.get('cpu_ms', 0):.2f} ms/act (event loop's thread {b.get('main_ms', 0):.2f})  "
                f"{b['messages'] / max(1, b['acts']):.1f} stream messages/act")
            server.steps[1.0] = b
            server.sustained = b["rate"] if b["p99"] <= 100 else 0.0
            server.at_limit = base[server.name][-1] if b["p99"] <= 100 else {}
            server.done = b["p99"] > 100
        for rate in stepped(ramp):
            for server in servers:
                if server.done:
                    continue
                assert server.load is not None
                r = await server.load.run(rate, max(3.0, seconds / 3))
                ok = r["p99"] <= 100
                server.steps[rate] = r
                out(f"  {server.name:8s} {rate:g} act/table/s: {r['rate']:7.0f} acts/s  p99 {r['p99']:7.1f} ms "
                    f"{'ok' if ok else 'over 100 ms'}  (server CPU {r.get('cpu_ms', 0):.2f} ms/act, clients "
                    f"{r.get('clients_ms', 0):.2f}; machine {r['machine_busy']:.0%} busy)")
                if ok:
                    server.sustained = r["rate"]
                    server.at_limit = r
                server.done = not ok
            if all(s.done for s in servers):
                break
        listed = {server.name: await listing_cost(server) for server in servers if not server.bare}
        for server in servers:
            if components and server.name in ("cardtui", "bare"):
                share = await parts(server, seconds=max(3.0, seconds / 3), out=out)
                if share:
                    costs[server.name] = share
    finally:
        for server in servers:
            await server.stop()
    got = {s.name: {"base": {k: v for k, v in bases[s.name].items() if k != "lat"}, "sustained": s.sustained,
                    "at_limit": {k: v for k, v in s.at_limit.items() if k != "lat"},
                    "rss_per_table_kb": s.rss_per_table_kb, "errors": s.load.errors if s.load else 0}
           for s in servers}
    real, bare = got["cardtui"], got["bare"]
    rb, bb = real["base"], bare["base"]
    out(f"(b/c) at 1 act/table/s: p50 {rb['p50']:.1f} vs {bb['p50']:.1f} ms ({times(rb['p50'], bb['p50'])}), "
        f"p99 {rb['p99']:.1f} vs {bb['p99']:.1f} ms ({times(rb['p99'], bb['p99'])}; mark ≤ 1.3)")
    out(f"(d) sustained with p99 ≤ 100 ms: cardtui {real['sustained']:.0f} acts/s, bare {bare['sustained']:.0f} "
        f"acts/s ({times(real['sustained'], bare['sustained'])}; mark ≥ 0.8)")
    if "main_ms" in rb and "main_ms" in bb:
        out(f"    server CPU per act at 1 act/table/s: cardtui {rb['cpu_ms']:.2f} vs {bb['cpu_ms']:.2f} ms "
            f"({times(rb['cpu_ms'], bb['cpu_ms'])}); on the event loop's thread {rb['main_ms']:.2f} vs "
            f"{bb['main_ms']:.2f} ms ({times(rb['main_ms'], bb['main_ms'])}): what a single loop can sustain")
    for name, share in costs.items():
        main = got[name]["base"].get("main_ms", 0.0)
        out(f"(c) {name}: CPU per act on the event loop's thread by part (sampled at 1 act/table/s), "
            f"of {main:.2f} ms:")
        for part, frac in sorted(share.items(), key=lambda kv: -kv[1]):
            out(f"      {part:34s} {frac * main:5.2f} ms  ({frac:5.1%})")
    out(f"(e) server memory per table (4 players + 2 spectators subscribed): cardtui "
        f"{real['rss_per_table_kb']:.0f} KB, bare {bare['rss_per_table_kb']:.0f} KB "
        f"({times(real['rss_per_table_kb'], bare['rss_per_table_kb'])}; mark ≤ 1.3)")
    out(f"(h) the lobby's list of its {tables} tables (ListTables, which each person in a lobby asks for every 2 s): "
        + ", ".join(f"{name} {ms:.2f} ms" for name, ms in listed.items()) + " of server CPU a call, every process")
    by_count = {default: real, **{n: got[f"{n} worker" + ("s" if n > 1 else "")] for n in counts}}
    workers_section(by_count, bare, default, out)
    steps = {s.name: s.steps for s in servers}
    out(cpu_line(steps["cardtui"], steps["bare"],
                 {default: steps["cardtui"], **{n: steps[f"{n} worker" + ("s" if n > 1 else "")] for n in counts}}))
    return {"real": real, "bare": bare, "workers": by_count}


def times(a: float, b: float) -> str:
    """``a`` as a multiple of ``b`` ("x1.23"), or "undecided" where either gave no figure (a server
    that gave out before the step, a step with no latencies)."""
    if not (a == a and b == b) or b <= 0 or a < 0:  # nan, or nothing to divide by
        return "undecided"
    return f"x{a / b:.2f}"


def cpu_line(real: dict[float, dict[str, Any]], bare: dict[float, dict[str, Any]],
             workers: dict[int, dict[float, dict[str, Any]]]) -> str:
    """(g): the server's CPU per act over all its processes against the bare floor's, at 1 act/table/s
    and at the highest rate both sustained (p99 ≤ 100 ms), and 2 workers against 1 at 1 act/table/s.

    ``real``, ``bare``: each rate a server ran at and what it gave; ``workers``: the same for the real
    server by its number of table workers (the default's among them)."""
    def cpu(steps: dict[float, dict[str, Any]], rate: float) -> float:
        return float(steps.get(rate, {}).get("cpu_ms", float("nan")))

    both = [rate for rate in real if rate in bare and real[rate]["p99"] <= 100 and bare[rate]["p99"] <= 100]
    top = max(both, default=float("nan"))
    two, one = cpu(workers.get(2, {}), 1.0), cpu(workers.get(1, {}), 1.0)
    at_top = (f"at {top:g} act/table/s, the highest rate both sustain: {cpu(real, top):.2f} vs {cpu(bare, top):.2f} ms "
              f"({times(cpu(real, top), cpu(bare, top))}; mark ≤ 1.2)" if both
              else "at the highest rate both sustain: undecided (no rate both sustained)")
    return (f"(g) server CPU per act, every process: at 1 act/table/s cardtui {cpu(real, 1.0):.2f} vs bare "
            f"{cpu(bare, 1.0):.2f} ms ({times(cpu(real, 1.0), cpu(bare, 1.0))}; mark ≤ 1.2); {at_top}; "
            f"2 workers vs 1 at 1 act/table/s {two:.2f} vs {one:.2f} ms ({times(two, one)}; mark ≤ 1.05)")


def cores_here() -> int:
    return os.cpu_count() or 1


def workers_section(by_count: dict[int, dict[str, Any]], bare: dict[str, Any], default: int,
                    out: Callable[[str], Any]) -> None:
    """(f): the real server by its number of table workers, against 1 worker and the bare floor
    (one process): what each more core buys, and the marks of 2 workers."""
    counts = sorted(by_count)
    line = ", ".join(f"{n} {'worker' if n == 1 else 'workers'} {by_count[n]['sustained']:.0f}" for n in counts)
    out(f"(f) table workers (cardtui serve's default here: {default}): sustained with p99 ≤ 100 ms: {line} acts/s; "
        f"bare {bare['sustained']:.0f}")
    for n, m in itertools.pairwise(counts):
        was, now = by_count[n]["sustained"], by_count[m]["sustained"]
        out(f"    {n} → {m} workers: {now - was:+.0f} acts/s ({times(now, was)})")
    if 1 in by_count and 2 in by_count:
        one, two = by_count[1], by_count[2]
        tb, bb = two["base"], bare["base"]
        out(f"    2 workers: sustained {times(two['sustained'], one['sustained'])} of 1 worker's (mark ≥ 1.6), "
            f"{times(two['sustained'], bare['sustained'])} of the bare floor's (mark ≥ 1.0); p99 at 1 act/table/s "
            f"{tb['p99']:.1f} vs {bb['p99']:.1f} ms ({times(tb['p99'], bb['p99'])}; mark ≤ 1.3)")
    for name, got in [*((f"{n} {'worker' if n == 1 else 'workers'}", by_count[n]) for n in counts), ("bare", bare)]:
        limit = got.get("at_limit") or {}
        if limit.get("acts"):
            out(f"    {name} at its sustained rate: server CPU {limit.get('cpu_ms', 0):.2f} ms/act over its processes, "
                f"the clients' {limit.get('clients_ms', 0):.2f} ms/act, the machine's {cores_here()} cores "
                f"{limit['machine_busy']:.0%} busy")
    memory = ", ".join(f"{n} {'worker' if n == 1 else 'workers'} {by_count[n]['rss_per_table_kb']:.0f} KB"
                       for n in counts)
    out(f"    server memory per table (every process of the server): {memory}; bare {bare['rss_per_table_kb']:.0f} KB")


async def builds(tables: int = 100, seconds: float = 2.0, rounds: int = 6, out: Callable[[str], Any] = print
                 ) -> dict[str, float]:
    """The real server as built (compiled, ``cardtui.native``) against itself in plain Python, side
    by side, each with its own clients, measured in alternation at 1 act/table/s (``rounds`` turns
    of ``seconds`` each, pooled): what compiling buys per act, gRPC included."""
    servers = [Server(False, workers=1), Server(False, pure=True, workers=1)]
    for server in servers:
        server.name = "plain" if server.pure else "cardtui"
    try:
        for server in servers:
            await server.start(tables, out)
        runs: dict[str, list[dict[str, Any]]] = {s.name: [] for s in servers}
        for _ in range(rounds):
            for server in servers:
                assert server.load is not None
                runs[server.name].append(await server.load.run(1.0, seconds))
    finally:
        for server in servers:
            await server.stop()
    got = {name: pooled(r) for name, r in runs.items()}
    c, p = got["cardtui"], got["plain"]
    for name, b in got.items():
        each = ", ".join(f"{r.get('main_ms', 0):.2f}" for r in runs[name])
        out(f"  {name:8s} 1 act/table/s: {b['rate']:5.0f} acts/s  p99 {b['p99']:6.1f} ms  server CPU "
            f"{b.get('cpu_ms', 0):.2f} ms/act, event loop's thread {b.get('main_ms', 0):.2f} (turns: {each})")
    if "main_ms" in c and "main_ms" in p:
        out(f"  compiled against plain Python: server CPU per act x{c['cpu_ms'] / p['cpu_ms']:.2f}, on the event "
            f"loop's thread x{c['main_ms'] / p['main_ms']:.2f} ({c['main_ms']:.2f} vs {p['main_ms']:.2f} ms)")
    return {"compiled_main_ms": c.get("main_ms", 0.0), "plain_main_ms": p.get("main_ms", 0.0)}


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    print(json.dumps(asyncio.run(compare(tables=int(sys.argv[1]) if len(sys.argv) > 1 else 200)), default=str))
