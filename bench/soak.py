"""A bounded soak on 127.0.0.1: tables of bots for minutes, watchers and players coming and going.

Spectators join and leave and drop and reconnect at random (resuming with ``after_seq``);
people sit at a share of the tables, play, leave (a bot plays on) and others retake their
seats; halfway through, the server is killed with -9 and started again on its store, and
everyone comes back by themselves. Each stream counts every event number it gets: a number
seen twice is a duplicate, a number seen again with other content is reused, a hole that no
resubscription filled is a loss (all three must be zero). Chat probes measure delivery
latency under the bots' load; the bare fan-out server gets the same probes under the same
action rate. Server memory is read at the start and the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import quantiles
from typing import Any

import grpc

from bench.load import rss_kb, start_process
from cardtui.engine.games import ENTRIES
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc

CHANNELS = 8
PEOPLE_EVERY = 5
"""One table in so many has two people at it, who play, leave and are replaced."""
FAST_RECONNECT = [("grpc.initial_reconnect_backoff_ms", 200), ("grpc.min_reconnect_backoff_ms", 200),
                  ("grpc.max_reconnect_backoff_ms", 1000)]


@dataclass
class Watcher:
    table: str
    token: str
    seat: int | None = None
    seen: set[int] = field(default_factory=set)
    content: dict[int, bytes] = field(default_factory=dict)
    """What each number carried (for a seat: its version), to tell a reused number."""
    legal: list[common_pb2.Action] = field(default_factory=list)
    last_message: float = 0.0
    last: int = 0
    first: int | None = None
    duplicates: int = 0
    resyncs: int = 0
    probes: dict[str, float] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


@dataclass
class Tally:
    delivered: int = 0
    duplicates: int = 0
    reused: int = 0
    lost: int = 0
    resyncs: int = 0
    drops: int = 0
    joins: int = 0
    leaves: int = 0
    seat_changes: int = 0
    acts: int = 0
    latencies: list[float] = field(default_factory=list)
    back_after: float = float("nan")
    """Seconds from the restart until every live stream had heard from the new server."""


class Soak:
    def __init__(self, port: int, bare: bool) -> None:
        self.bare = bare
        self.channels = [grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=FAST_RECONNECT)
                         for _ in range(CHANNELS)]
        self.rng = random.Random(11)
        self.watchers: list[Watcher] = []
        self.tables: list[str] = []
        self.tally = Tally()
        self.sent: dict[int, float] = {}
        self.players: list[Watcher] = []
        self.seated_tables: list[str] = []

    def table_stub(self) -> table_pb2_grpc.TableStub:
        return table_pb2_grpc.TableStub(self.rng.choice(self.channels))

    def lobby_stub(self) -> lobby_pb2_grpc.LobbyStub:
        return lobby_pb2_grpc.LobbyStub(self.rng.choice(self.channels))

    async def setup(self, tables: int, bot_delay_ms: int) -> None:
        for t in range(tables):
            if self.bare:
                self.tables.append(f"t{t}")
                continue
            people = 2 if t % PEOPLE_EVERY == 0 else 0  # people sit at some tables; bots fill the rest
            s = await self.lobby_stub().CreateTable(lobby_pb2.CreateTableRequest(
                game="cacho", seats=4, bots=4 - people, bot_delay_ms=bot_delay_ms, turn_seconds=10, away_after=100))
            self.tables.append(s.table.id)
            if people:
                self.seated_tables.append(s.table.id)
                for _ in range(people):
                    await self.sit(s.table.id)
        for table in self.tables:
            for _ in range(2):
                await self.join(table)

    async def sit(self, table: str) -> None:
        r = await self.lobby_stub().JoinTable(lobby_pb2.JoinTableRequest(table_id=table, name="p"))
        w = Watcher(table, r.token, seat=r.seat)
        self.watchers.append(w)
        self.players.append(w)
        w.task = asyncio.create_task(self.follow(w))

    async def play(self, until: float) -> None:
        """People act on what their view offers, about once a second each."""
        while time.perf_counter() < until:
            await asyncio.sleep(0.05)
            for w in list(self.players):
                if w.task is None or not w.legal or self.rng.random() > 0.05:
                    continue
                legal = [a for a in w.legal if a.type != common_pb2.ACTION_TYPE_FOLD] or w.legal
                action = common_pb2.Action()
                action.CopyFrom(self.rng.choice(legal))
                action.max_chips = 0
                w.legal = []
                with contextlib.suppress(grpc.aio.AioRpcError):  # the table moved on: refused, fine
                    await self.table_stub().Act(table_pb2.ActRequest(token=w.token, action=action, seen_seq=w.last))
                    self.tally.acts += 1

    async def change_seat(self) -> None:
        """A person leaves (a bot plays on) and a newcomer takes the seat over."""
        live = [w for w in self.players if w.task is not None]
        if not live:
            return
        w = self.rng.choice(live)
        with contextlib.suppress(grpc.aio.AioRpcError):
            await self.lobby_stub().Leave(lobby_pb2.LeaveRequest(token=w.token))
        assert w.task is not None
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(w.task), 5)  # its stream ends, told not to come back
        w.task.cancel()
        w.task = None
        self.close_watcher(w)
        self.tally.seat_changes += 1
        await self.sit(w.table)

    async def join(self, table: str) -> None:
        if self.bare:
            token = f"{table}/w{self.rng.random()}"
        else:
            token = (await self.lobby_stub().Spectate(lobby_pb2.SpectateRequest(table_id=table, name="w"))).token
        w = Watcher(table, token)
        self.watchers.append(w)
        self.tally.joins += 1
        w.task = asyncio.create_task(self.follow(w))

    async def follow(self, w: Watcher, after: int = 0) -> None:
        """A stream that breaks (the server restarting) comes back by itself from where it was."""
        while True:
            try:
                again = await self._follow(w, w.last if w.last else after)
            except grpc.aio.AioRpcError as err:
                again = err.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED,
                                       grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL)
            except asyncio.CancelledError:
                return
            if not again:
                return
            await asyncio.sleep(0.2)

    async def _follow(self, w: Watcher, after: int) -> bool:
        """Read one stream; whether to come back when it ends."""
        stream = self.table_stub().Subscribe(table_pb2.SubscribeRequest(token=w.token, after_seq=after))
        async for msg in stream:
            now = time.perf_counter()
            w.last_message = now
            if msg.HasField("closing"):
                return msg.closing.resubscribe
            view = msg.snapshot.view if msg.HasField("snapshot") else msg.update.view
            if w.seat is not None and view.ByteSize():
                w.legal = list(view.legal)
            if msg.HasField("snapshot") and after and msg.snapshot.first_seq > after + 1:
                w.resyncs += 1  # the gap was older than the buffer: a fresh snapshot instead
                w.seen.update(range(after + 1, msg.seq + 1))
            for ev in msg.update.events:
                plain = table_pb2.Event()
                plain.CopyFrom(ev)
                plain.replay = False
                body = plain.SerializeToString()  # what the number carries, replayed or not
                if ev.seq in w.seen and not ev.replay:
                    w.duplicates += 1
                if ev.seq in w.content and w.content[ev.seq] != body:
                    self.tally.reused += 1
                w.content[ev.seq] = body
                w.seen.add(ev.seq)
                if w.first is None:
                    w.first = ev.seq
                probe = self.probe_of(ev)
                if probe in self.sent:
                    self.tally.latencies.append((now - self.sent[probe]) * 1000)
            if msg.HasField("snapshot") and w.first is None and not after:
                w.first = msg.seq + 1
            w.last = max(w.last, msg.seq)
        return True

    def probe_of(self, ev: table_pb2.Event) -> int:
        """The probe an event carries: a chat line at the real server, an act's chips at the bare one."""
        if self.bare:
            return ev.acted.action.chips if ev.acted.action.type == common_pb2.ACTION_TYPE_CHECK else 0
        text = ev.chatted.text
        return int(text.split()[-1]) if text.startswith("probe ") else 0

    async def churn(self, until: float) -> None:
        """Every 100 ms somebody drops and comes back, leaves, or a newcomer joins (or a seat changes hands)."""
        while time.perf_counter() < until:
            await asyncio.sleep(0.1)
            with contextlib.suppress(grpc.aio.AioRpcError):  # the server may be restarting: try again later
                await self._churn_once()

    async def _churn_once(self) -> None:
        live = [w for w in self.watchers if w.task is not None and w.seat is None]
        pick = self.rng.random()
        w = self.rng.choice(live)
        if pick < 0.1 and not self.bare:
            await self.change_seat()
        elif pick < 0.6 and w.task is not None:  # drop, then resume from the last number seen
            w.task.cancel()
            self.tally.drops += 1
            await asyncio.sleep(self.rng.uniform(0.05, 0.5))
            w.task = asyncio.create_task(self.follow(w, after=w.last))
        elif pick < 0.8 and w.task is not None:  # leave for good
            w.task.cancel()
            w.task = None
            self.tally.leaves += 1
            self.close_watcher(w)
            if not self.bare:
                await self.lobby_stub().Leave(lobby_pb2.LeaveRequest(token=w.token))
        else:
            await self.join(self.rng.choice(self.tables))

    def close_watcher(self, w: Watcher) -> None:
        if w.first is None:
            return
        expected = set(range(w.first, w.last + 1))
        self.tally.lost += len(expected - w.seen)
        self.tally.delivered += len(w.seen & expected)
        self.tally.duplicates += w.duplicates
        w.duplicates = 0
        self.tally.resyncs += w.resyncs

    async def probe(self, until: float, acts_per_second: float) -> None:
        """Chat probes (and, at the bare server, the bots' action rate as plain acts)."""
        n = 0
        interval = 1 / 20
        act_every = max(1, int(acts_per_second * interval))
        while time.perf_counter() < until:
            await asyncio.sleep(interval)
            table = self.rng.choice(self.tables)
            n += 1
            self.sent[n] = time.perf_counter()
            if self.bare:
                for _ in range(act_every):
                    other = self.rng.choice(self.tables)
                    await self.table_stub().Act(table_pb2.ActRequest(
                        token=f"{other}/x", action=common_pb2.Action(type=common_pb2.ACTION_TYPE_PASS)))
                probe = common_pb2.Action(type=common_pb2.ACTION_TYPE_CHECK, chips=n)
                await self.table_stub().Act(table_pb2.ActRequest(token=f"{table}/p", action=probe))
            else:
                token = next(w.token for w in self.watchers if w.table == table)
                with contextlib.suppress(grpc.aio.AioRpcError):  # a watcher that just left
                    await self.table_stub().Chat(table_pb2.ChatRequest(token=token, text=f"probe {n}"))

    async def finish(self) -> Tally:
        await asyncio.sleep(1.0)
        for w in self.watchers:
            if w.task is not None:
                w.task.cancel()
                self.close_watcher(w)
        await asyncio.gather(*(w.task for w in self.watchers if w.task is not None), return_exceptions=True)
        for ch in self.channels:
            await ch.close()
        return self.tally


async def soak_one(bare: bool, tables: int, seconds: float, acts_per_second: float,
                   out: Callable[[str], Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:  # a store on disk, as a real host has
        return await _soak_one(bare, tables, seconds, acts_per_second, out, f"{tmp}/soak.db")


async def _soak_one(bare: bool, tables: int, seconds: float, acts_per_second: float,
                    out: Callable[[str], Any], db: str) -> dict[str, Any]:
    started: list[subprocess.Popen[str]] = []

    def serve(port: int = 0) -> tuple[subprocess.Popen[str], int]:
        server = start_process(["-m", "cardtui.cli", "serve", "--port", str(port), "--db", db,
                              "--next-hand-delay", "500", "--log-level", "warning", "--no-announce",
                              "--max-actions", "1e6", "--max-tables", "1e6", "--max-chat", "1e6",
                              "--max-streams", "100000", "--max-streams-per-address", "100000",
                              "--workers", "1"], "server on")  # one process, restarted on its own port
        started.append(server[0])
        return server

    if bare:
        proc, port = start_process(["-m", "bench.bare"], "port")
    else:
        proc, port = serve()
    restarts: list[float] = []

    async def kill_and_restart() -> None:
        """Halfway through: kill -9, start again on the store, and time everyone's return."""
        nonlocal proc
        await asyncio.sleep(seconds / 2)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        killed = time.perf_counter()
        proc, _ = await asyncio.to_thread(serve, port)
        restarts.append(killed)
        live = [w for w in soak.watchers if w.task is not None]
        while any(w.last_message < killed for w in live if w.task is not None) and time.perf_counter() < until:
            await asyncio.sleep(0.05)
        soak.tally.back_after = time.perf_counter() - killed

    try:
        soak = Soak(port, bare)
        await soak.setup(tables, bot_delay_ms=int(4 * tables / max(acts_per_second, 1) * 1000 / 4))
        await asyncio.sleep(2)
        rss_start = rss_kb(proc.pid)
        start = time.perf_counter()
        until = start + seconds
        mid: list[int] = []

        async def sample() -> None:
            while time.perf_counter() < until:
                await asyncio.sleep(max(5.0, seconds / 9))
                kb = rss_kb(proc.pid)
                if kb:
                    mid.append(kb)

        parts = [soak.churn(until), soak.probe(until, acts_per_second), sample()]
        if not bare:
            parts += [soak.play(until), kill_and_restart()]
        await asyncio.gather(*parts)
        rss_end = rss_kb(proc.pid)
        tally = await soak.finish()
        q = quantiles(tally.latencies, n=100) if len(tally.latencies) > 2 else [float("nan")] * 99
        if bare:  # the baseline has no resume: only its latency means anything
            out(f"  bare     {seconds:.0f} s: probe p50 {q[49]:.1f} ms p99 {q[98]:.1f} ms")
        else:
            out(f"  cardtui  {seconds:.0f} s: {tally.delivered:,} events delivered, {tally.lost} lost, "
                f"{tally.duplicates} duplicated, {tally.reused} numbers reused, {tally.resyncs} snapshot resyncs; "
                f"{tally.drops} drops and reconnects, {tally.joins} watchers joined, {tally.leaves} left; "
                f"{tally.seat_changes} seats changed hands, {tally.acts} actions by people; "
                f"kill -9 halfway: every stream back {tally.back_after:.1f} s after; "
                f"probe p50 {q[49]:.1f} ms p99 {q[98]:.1f} ms; server RSS {rss_start / 1024:.0f} MB at the start, "
                f"{[round(m / 1024) for m in mid]} along the way, {rss_end / 1024:.0f} MB at the end "
                "(the restarted process)")
        return {"tally": tally, "p99": q[98], "rss": (rss_start, rss_end)}
    finally:
        for running in {proc, *started}:
            if running.poll() is None:
                running.terminate()
                running.wait(10)


async def soak(tables: int = 200, seconds: float = 180.0, out: Callable[[str], Any] = print) -> None:
    acts = tables / 1.0  # bots at about one action per table per second
    real = await soak_one(False, tables, seconds, acts, out)
    bare = await soak_one(True, tables, min(seconds, 60.0), acts, out)
    out(f"  probe p99: cardtui {real['p99']:.1f} ms vs bare {bare['p99']:.1f} ms "
        f"(x{real['p99'] / bare['p99']:.2f})")



# -- a night on a small host ---------------------------------------------------------------------------------------
NIGHT_ROOM = 20
"""Tables a small host keeps busy through a night."""
NIGHT_BOT_DELAY_MS = 1000
"""A bot's pause before its move at a night's tables (the lobby's default is a second too): with the people's moves,
the hands' ends and the next hand's pause, a room of 20 such tables makes some 40,000 to 60,000 moves a real hour,
as busy as a night the issue's operator watched (49,533 moves in 51 minutes)."""
ACTS_PER_HOUR = 14_400
"""The least a night's real hour must hold for its memory to count against the mark: 20 tables of people, each
making 0.2 moves a second (a hand of truco or Cacho takes people a minute or two for a dozen or twenty moves, a turn
of Pif Paf or Cacheta some ten seconds). The rate is read from the server's own page and said with the result."""
FIRST_HOUR = 1.0
"""A process's first real hour, in which its caches fill (the bots' searches, the meld tables, the wire's memos):
its growth counts against the mark after it, as ``CardtuiMemoryGrowing`` in docs/operating.md counts it."""
SAMPLE_HOURS = 1 / 60
"""Each process's memory is read every real minute."""
STEP_SECONDS = 15.0
"""The longest one of the night's comings and goings may take (a call passed on to a worker just killed)."""
NIGHT_MARK_MB = 2.0
NIGHT_GAMES = tuple((name, entry.bench.night[0], list(entry.bench.night[1])) for name, entry in ENTRIES.items())
"""Every game at every level a room's bots play, hard's searches (and their caches) included: each game's table and
levels (``Entry.bench``)."""


@dataclass
class Sample:
    hours: float
    rss: dict[int, tuple[str, int]]
    """Each process's role and resident memory in KB."""


def roles(front: int) -> dict[int, str]:
    """The server's processes by what they are: the front, each table worker (by the port it serves), and under
    each of them its fork server, resource tracker and pools' processes (bots', analysis)."""
    import psutil

    def listening(pid: int) -> set[int]:
        try:
            return {c.laddr.port for c in psutil.Process(pid).net_connections("tcp") if c.status == psutil.CONN_LISTEN}
        except psutil.Error:
            return set()

    named: dict[int, str] = {front: "front"}
    try:
        everyone = psutil.Process(front).children(recursive=True)
    except psutil.Error:
        return named
    workers = {p.pid: f"worker:{min(ports)}" for p in everyone if (ports := listening(p.pid))}
    for process in everyone:
        if process.pid in workers:
            named[process.pid] = workers[process.pid]
            continue
        try:
            line = " ".join(process.cmdline())
            above = next((workers[a.pid] for a in process.parents() if a.pid in workers), "front")
            kind = ("resource-tracker" if "resource_tracker" in line else
                    "forkserver" if process.children() and "forkserver" in line else "pool")
        except psutil.Error:
            continue
        named[process.pid] = f"{above}/{kind}"
    return named


def own_rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    except (FileNotFoundError, ProcessLookupError, StopIteration):
        return 0


def acts_so_far(url: str) -> float:
    """Moves made in the room so far, from the server's own metrics page (its counters outlive a killed worker)."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(url, timeout=10) as page:
        text = page.read().decode()
    return sum(s.value for f in text_string_to_metric_families(text) for s in f.samples
               if s.name == "cardtui_acts_total")


def slope(points: list[tuple[float, float]]) -> float:
    """Least squares: the growth of the second value per unit of the first."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else 0.0


def slope_error(points: list[tuple[float, float]]) -> float:
    """The standard error of ``slope``: how far the growth read may be from the trend when the memory jitters
    around it (its pages come and go by a few hundred kilobytes between looks). It does not cover a step: a heap takes
    memory a megabyte at a time, and one such step in a quarter of an hour reads as some 5 MB an hour, with an error
    of about 1.4; over an hour the same step reads as about 1. A growth is judged over an hour, not a quarter."""
    n = len(points)
    if n < 3:
        return float("inf")
    mx = sum(x for x, _ in points) / n
    den = sum((x - mx) ** 2 for x, _ in points)
    if not den:
        return float("inf")
    b = slope(points)
    my = sum(y for _, y in points) / n
    residual = sum((y - my - b * (x - mx)) ** 2 for x, y in points)
    return float((residual / (n - 2) / den) ** 0.5)


GOING_OUT = (common_pb2.ACTION_TYPE_KNOCK, common_pb2.ACTION_TYPE_CLAIM, common_pb2.ACTION_TYPE_CUT)
"""A rummy player's ways out of a hand: whoever may take one does."""
THINK_SECONDS = (0.3, 1.5)
"""How long a person of the night looks at the table before a move."""
FACES = {"A": 1, "J": 11, "Q": 12, "K": 13}


def rank_suit(card: str) -> tuple[int, str]:
    """``10S`` → (10, "S"), ``AS`` → (1, "S"), ``12e`` → (12, "e")."""
    face, suit = card[:-1], card[-1]
    return FACES.get(face) or int(face), suit


def neighbours(card: str, others: list[str]) -> int:
    """How many of ``others`` could share a meld with ``card``: its rank, or its suit two steps away or less."""
    rank, suit = rank_suit(card)
    near = 0
    for other in others:
        r, s = rank_suit(other)
        near += (r == rank and other != card) or (s == suit and 0 < abs(r - rank) <= 2)
    return near


def person_move(view: table_pb2.View, rng: random.Random) -> common_pb2.Action | None:
    """The move a person makes from what they see, or None when nothing is theirs to do.

    At rummy a person goes out whenever the table offers it (a knock, a claim, a cut), takes the discard when it
    lets them out or joins their loose cards, and throws the loose card that joins the fewest others, so a hand
    ends as a real one does (random moves at two people's table, once the bots have folded, never go out: the
    stock is rebuilt from the pile for ever). Elsewhere, and in a bet or a window, any move but folding."""
    legal = list(view.legal)
    if not legal:
        return None
    pick: common_pb2.Action | None = None
    if view.HasField("rummy"):
        rummy = view.rummy
        out = [a for a in legal if a.type in GOING_OUT]
        draws = {a.source: a for a in legal if a.type == common_pb2.ACTION_TYPE_DRAW}
        throws = [a for a in legal if a.type == common_pb2.ACTION_TYPE_DISCARD and a.cards]
        if out:
            pick = out[0]
        elif draws:
            top = rummy.pile[-1] if rummy.pile else ""
            wanted = bool(top) and (top in rummy.outs or neighbours(top, list(rummy.loose)) >= 2)
            pick = draws.get(common_pb2.DRAW_SOURCE_PILE if wanted else common_pb2.DRAW_SOURCE_STOCK) or next(
                iter(draws.values()))
        elif throws:
            loose = list(rummy.loose)
            spare = [a for a in throws if a.cards[0] in loose and a.cards[0] not in rummy.wilds] or throws
            pick = min(spare, key=lambda a: (neighbours(a.cards[0], loose), rng.random()))
    if pick is None:
        pick = rng.choice([a for a in legal if a.type != common_pb2.ACTION_TYPE_FOLD] or legal)
    action = common_pb2.Action()
    action.CopyFrom(pick)
    return action


class Night:
    """The people of a night: players sitting, playing and leaving; watchers dropping and resuming; the lobby watched
    by its stream and asked by polling; tables closed and made; all at the pace of the room's moves."""

    def __init__(self, port: int, seed: int = 78, bot_delay_ms: int = NIGHT_BOT_DELAY_MS,
                 think: tuple[float, float] = THINK_SECONDS) -> None:
        self.port = port
        self.bot_delay_ms = bot_delay_ms
        self.think = think
        """The least and the most seconds a person looks at the table before a move."""
        self.rng = random.Random(seed)
        self.channels = [grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=FAST_RECONNECT) for _ in range(4)]
        self.lobby = lobby_pb2_grpc.LobbyStub(self.channels[0])
        self.tables: dict[str, str] = {}
        """Each open table's owner token."""
        self.seats: dict[str, tuple[str, asyncio.Task[None]]] = {}
        """Each person's token: their table and their stream's task."""
        self.watchers: dict[str, asyncio.Task[None]] = {}
        self.lobbies: list[asyncio.Task[None]] = []
        self.where: dict[str, str] = {}
        self.elsewhere: dict[str, grpc.aio.Channel] = {}
        self.counts: dict[str, int] = {k: 0 for k in (
            "tables made", "tables closed", "sat", "left", "moves by people", "watchers", "drops", "lists followed",
            "unary polls", "moves refused", "refused")}

    def watching(self) -> list[str]:
        """The watchers still watching: one whose table closed has stopped, and is forgotten here."""
        for token in [t for t, task in self.watchers.items() if task.done()]:
            del self.watchers[token]
            self.where.pop(token, None)
        return list(self.watchers)

    def stub(self, token: str) -> table_pb2_grpc.TableStub:
        """Where the table ``token`` opens is served (``JoinResponse.address``: ":PORT" on this host)."""
        address = self.where.get(token, "")
        if not address:
            return table_pb2_grpc.TableStub(self.rng.choice(self.channels))
        channel = self.elsewhere.get(address)
        if channel is None:
            channel = self.elsewhere[address] = grpc.aio.insecure_channel(f"127.0.0.1{address}",
                                                                          options=FAST_RECONNECT)
        return table_pb2_grpc.TableStub(channel)

    async def locate(self, token: str) -> None:
        """The table moved (its worker killed): where it is served now."""
        with contextlib.suppress(grpc.aio.AioRpcError):
            self.where[token] = (await self.lobby.Locate(lobby_pb2.LocateRequest(token=token))).address

    async def make_table(self) -> None:
        game, seats, levels = self.rng.choice(NIGHT_GAMES)
        people = self.rng.choice([0, 1, 1, 2])
        made = await self.lobby.CreateTable(lobby_pb2.CreateTableRequest(
            game=game, seats=seats, bots=seats - people, bot_levels=[self.rng.choice(levels)],
            bot_delay_ms=self.bot_delay_ms,
            turn_seconds=30, away_after=100, idle_minutes=60))
        self.tables[made.table.id] = made.owner_token
        self.counts["tables made"] += 1
        for _ in range(people):
            await self.sit(made.table.id)

    async def sit(self, table_id: str) -> None:
        with contextlib.suppress(grpc.aio.AioRpcError):
            joined = await self.lobby.JoinTable(lobby_pb2.JoinTableRequest(
                table_id=table_id, name=f"p{self.rng.randrange(10**6)}"))
            self.where[joined.token] = joined.address
            self.seats[joined.token] = (table_id, asyncio.create_task(self.play(joined.token)))
            self.counts["sat"] += 1

    async def play(self, token: str) -> None:
        """A person at a table: reads the stream and, after a moment's thought, makes the move a person would
        (``person_move``: out when they can), resuming after a drop and following the table where it moves."""
        last = 0
        while True:
            try:
                async for msg in self.stub(token).Subscribe(table_pb2.SubscribeRequest(token=token, after_seq=last)):
                    last = max(last, msg.seq)
                    if msg.HasField("closing"):
                        if not msg.closing.resubscribe:
                            return
                        break
                    view = msg.snapshot.view if msg.HasField("snapshot") else msg.update.view
                    action = person_move(view, self.rng)
                    if action is None:
                        continue
                    await asyncio.sleep(self.rng.uniform(*self.think))
                    await self.act(token, action, last)
            except grpc.aio.AioRpcError as err:
                if err.code() == grpc.StatusCode.PERMISSION_DENIED:
                    return
            await self.locate(token)
            await asyncio.sleep(0.2)

    async def act(self, token: str, action: common_pb2.Action, seen: int) -> None:
        """A person's move; told to slow down, they wait a moment and make it again (refused otherwise: the table
        moved on first, and the stream brings what it is now)."""
        for _ in range(3):
            try:
                await self.stub(token).Act(table_pb2.ActRequest(token=token, action=action, seen_seq=seen))
                self.counts["moves by people"] += 1
                return
            except grpc.aio.AioRpcError as err:
                self.counts["moves refused"] += 1
                if err.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                    return
            await asyncio.sleep(1.0)

    async def watch(self, table_id: str) -> None:
        with contextlib.suppress(grpc.aio.AioRpcError):
            watching = await self.lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="w"))
            token = watching.token
            self.where[token] = watching.address
            self.watchers[token] = asyncio.create_task(self.follow(token))
            self.counts["watchers"] += 1

    async def follow(self, token: str, after: int = 0) -> None:
        """A watcher: reads the stream, resuming after a drop and following the table where it moves, until the
        table closes or its token opens nothing (as a client does: it does not knock on a closed table's door)."""
        last = after
        while True:
            try:
                async for msg in self.stub(token).Subscribe(table_pb2.SubscribeRequest(token=token, after_seq=last)):
                    last = max(last, msg.seq)
                    if msg.HasField("closing") and not msg.closing.resubscribe:
                        return
            except grpc.aio.AioRpcError as err:
                if err.code() == grpc.StatusCode.PERMISSION_DENIED:
                    return
            await self.locate(token)
            await asyncio.sleep(0.2)

    async def follow_lobby(self) -> None:
        """A person idling in the lobby: its list followed by its stream, opened again now and then."""
        with contextlib.suppress(grpc.aio.AioRpcError):
            async for _update in lobby_pb2_grpc.LobbyStub(self.rng.choice(self.channels)).WatchTables(
                    lobby_pb2.WatchTablesRequest(include_finished=True)):
                pass

    async def step(self) -> None:
        """One of the night's comings and goings, chosen at random."""
        pick = self.rng.random()
        try:
            if len(self.tables) < NIGHT_ROOM:
                await self.make_table()
            elif pick < 0.25:  # a table closes, and another opens: the room stays its size
                table_id, owner = self.rng.choice(list(self.tables.items()))
                await self.lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=table_id, owner_token=owner))
                del self.tables[table_id]
                self.counts["tables closed"] += 1
                for token in [t for t, (tid, _) in self.seats.items() if tid == table_id]:
                    self.seats.pop(token)[1].cancel()
                await self.make_table()
            elif pick < 0.4 and self.seats:
                token = self.rng.choice(list(self.seats))
                table_id, task = self.seats.pop(token)
                await self.lobby.Leave(lobby_pb2.LeaveRequest(token=token))
                task.cancel()
                self.counts["left"] += 1
                if table_id in self.tables:
                    await self.sit(table_id)  # somebody takes the seat over
            elif pick < 0.55:
                await self.watch(self.rng.choice(list(self.tables)))
            elif pick < 0.7 and self.watching():
                token = self.rng.choice(self.watching())
                self.watchers[token].cancel()
                self.counts["drops"] += 1
                if self.rng.random() < 0.5:
                    del self.watchers[token]
                    await self.lobby.Leave(lobby_pb2.LeaveRequest(token=token))
                else:
                    self.watchers[token] = asyncio.create_task(self.follow(token))
            elif pick < 0.8:
                if len(self.lobbies) >= 4:
                    self.lobbies.pop(0).cancel()
                self.lobbies.append(asyncio.create_task(self.follow_lobby()))
                self.counts["lists followed"] += 1
            else:
                stub = lobby_pb2_grpc.LobbyStub(self.rng.choice(self.channels))
                await stub.GetInfo(lobby_pb2.GetInfoRequest())
                await stub.ListTables(lobby_pb2.ListTablesRequest(include_finished=True))
                with contextlib.suppress(grpc.aio.AioRpcError):
                    await stub.Locate(lobby_pb2.LocateRequest(token=self.rng.choice(list(self.seats) or ["x"])))
                self.counts["unary polls"] += 3
        except grpc.aio.AioRpcError:
            self.counts["refused"] += 1

    async def close(self) -> None:
        tasks = [t for _, t in self.seats.values()] + list(self.watchers.values()) + self.lobbies
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for channel in [*self.channels, *self.elsewhere.values()]:
            await channel.close()


def tables_by_worker(url: str) -> dict[str, int]:
    """Open tables each table worker drives now, from the server's own page (``cardtui_tables``, summed over games)."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(url, timeout=10) as page:
        text = page.read().decode()
    out: dict[str, int] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            process = s.labels.get("process", "")
            if s.name == "cardtui_tables" and process.startswith("worker-") and process.count("-") == 1:
                out[process] = out.get(process, 0) + int(s.value)
    return out


async def night(hours: float = 1.0, steps_per_hour: float = 600.0, kill_at: float = 0.5,
                bot_delay_ms: int = NIGHT_BOT_DELAY_MS, out: Callable[[str], Any] = print,
                looks: str | None = None) -> dict[str, Any]:
    """``hours`` real hours of a room at its own pace (bots at ``bot_delay_ms``): the night's comings and goings at
    ``steps_per_hour`` a real hour, table worker 1 killed -9 at ``kill_at`` hours (0: never; its replacement lives
    on). Each process's memory read every real minute; its growth a real hour after its ``FIRST_HOUR``, by least
    squares; the room's moves an hour from the server's own page; the tables each worker drives, to see them even
    out again after the kill. With ``looks``, each look (the hour, the moves so far, each process's role and memory,
    the tables by worker) is added to that file as one JSON line as it is taken, so a night cut short has its figures
    (``python -m bench.soak --growth FILE`` reads them)."""
    import json

    samples: list[Sample] = []
    spreads: list[tuple[float, dict[str, int]]] = []
    killed_at: float | None = None
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--db",
                                 f"{tmp}/night.db", "--no-announce", "--log-level", "warning", "--workers", "2",
                                 "--analysis-workers", "0", "--metrics-port", "0",
                                 "--max-actions", "1e6", "--max-tables", "1e6", "--max-chat", "1e6",
                                 "--max-streams-per-address", "100000", "--idle-minutes", "60"],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        first = proc.stdout.readline()  # "cardtui server on HOST:PORT (…) · metrics: URL"
        port = int(first.split()[3].rsplit(":", 1)[1])
        url = first.split(" · metrics: ", 1)[1].split()[0]
        try:
            room = Night(port, bot_delay_ms=bot_delay_ms)
            for _ in range(NIGHT_ROOM):
                await room.make_table()
            began = time.perf_counter()
            start_acts = acts = await asyncio.to_thread(acts_so_far, url)
            hour = 0.0
            next_step = 0.0
            kills = 0

            while hour < hours:
                await asyncio.sleep(0.5)
                hour = (time.perf_counter() - began) / 3600
                while next_step <= hour < hours:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(room.step(), STEP_SECONDS)
                    next_step += 1 / steps_per_hour
                if kill_at and not kills and hour >= kill_at:
                    named = roles(proc.pid)
                    workers = sorted((name, pid) for pid, name in named.items() if "/" not in name and
                                     name.startswith("worker"))
                    if len(workers) > 1:
                        os.kill(workers[0][1], signal.SIGKILL)
                        kills += 1
                        killed_at = hour
                if not samples or hour - samples[-1].hours >= SAMPLE_HOURS:
                    named = await asyncio.to_thread(roles, proc.pid)
                    samples.append(Sample(hour, {pid: (name, own_rss(pid)) for pid, name in named.items()}))
                    with contextlib.suppress(OSError):  # the page slow to answer: the next look
                        acts = await asyncio.to_thread(acts_so_far, url)
                        spreads.append((hour, await asyncio.to_thread(tables_by_worker, url)))
                    if looks:
                        with open(looks, "a") as f:
                            f.write(json.dumps({"hours": hour, "acts": acts - start_acts, "rss": samples[-1].rss,
                                                "by_worker": spreads[-1][1] if spreads else {}}) + "\n")
                    if int(hour * 6) > int(samples[-2].hours * 6 if len(samples) > 1 else 0):
                        out(f"    … {hour * 60:.0f} min, {acts - start_acts:,.0f} moves: "
                            + ", ".join(f"{name} {kb / 1024:.0f} MB" for name, kb in sorted(samples[-1].rss.values()))
                            + f"; tables by worker {spreads[-1][1] if spreads else '?'}")
            took = time.perf_counter() - began
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(room.close(), 30)
        finally:
            proc.terminate()
            proc.wait(60)
    rate = (acts - start_acts) / (took / 3600)
    series: dict[int, list[tuple[float, float]]] = {}
    names: dict[int, str] = {}
    for sample in samples:
        for pid, (name, kb) in sample.rss.items():
            if kb:
                series.setdefault(pid, []).append((sample.hours, kb / 1024))
                names[pid] = name
    worst = 0.0
    judged = 0
    lines = []
    for pid, points in sorted(series.items(), key=lambda kv: names[kv[0]]):
        first_seen = points[0][0]
        span = points[-1][0] - first_seen
        half = [(h, mb) for h, mb in points if h >= first_seen + FIRST_HOUR / 2]
        after = [(h, mb) for h, mb in points if h >= first_seen + FIRST_HOUR]
        said = (f"    {names[pid]:<32} pid {pid}: {points[0][1]:6.1f} MB at its start, {points[-1][1]:6.1f} at "
                f"{span * 60:.0f} min")
        if len(half) >= 5:
            said += f"; {slope(half):+.2f} MB a real hour after its first half hour"
        if len(after) >= 5 and after[-1][0] - after[0][0] >= 0.1:
            grow = slope(after)
            worst = max(worst, grow)
            judged += 1
            said += (f", {slope(after):+.2f} after its first hour ({after[0][1]:.1f} MB then, over "
                     f"{(after[-1][0] - after[0][0]) * 60:.0f} min)")
        else:
            said += ", too short after its first hour to say"
        lines.append(said)
    verdict = ("not measured: no process lived six minutes past its first hour" if not judged
               else "met" if worst <= NIGHT_MARK_MB else "NOT met")
    even = None
    if killed_at is not None:
        even = next((h for h, by in spreads if h > killed_at and len(by) > 1
                     and max(by.values()) - min(by.values()) <= 1), None)
    out(f"  {took / 3600:.2f} real hours, {acts - start_acts:,.0f} moves: {rate:,.0f} an hour (mark: ≥ "
        f"{ACTS_PER_HOUR:,}: {'met' if rate >= ACTS_PER_HOUR else 'NOT met'}); {NIGHT_ROOM} tables, bots at "
        f"{bot_delay_ms} ms; {kills} table worker killed -9"
        + (f" at {killed_at * 60:.0f} min" if killed_at is not None else "") + "; "
        + ", ".join(f"{v} {k}" for k, v in room.counts.items()))
    if killed_at is not None:
        out(f"  tables by worker at the kill's next look, then at the end: "
            f"{next((by for h, by in spreads if h > killed_at), {})} … {spreads[-1][1] if spreads else {}}; "
            + (f"even within one {(even - killed_at) * 60:.1f} min after the kill" if even is not None
               else "never even within one after the kill"))
    for line_ in lines:
        out(line_)
    out(f"  the most any process grew a real hour after its first hour: {worst:+.2f} MB (mark: ≤ "
        f"{NIGHT_MARK_MB:.0f} MB: {verdict}, over the {judged} processes that lived six minutes past their first hour)")
    return {"hours": took / 3600, "worst": worst, "rate": rate, "even": even, "killed": killed_at}


def growth(path: str, first_hour: float = FIRST_HOUR) -> list[str]:
    """Each process's MB a real hour after its first hour, by least squares over the samples ``night`` wrote to
    ``path`` so far (one JSON line a look), with its standard error (``slope_error``) and the room's moves an hour
    over the same window (the mark holds at 14,400 or more): what a night cut short has measured."""
    import json

    series: dict[int, list[tuple[float, float]]] = {}
    names: dict[int, str] = {}
    acts: list[tuple[float, float]] = []
    with open(path) as f:
        for line in f:
            look = json.loads(line)
            acts.append((look["hours"], look["acts"]))
            for pid, (name, kb) in look["rss"].items():
                if kb:
                    series.setdefault(int(pid), []).append((look["hours"], kb / 1024))
                    names[int(pid)] = name
    said = []
    if len(acts) > 1:
        span = acts[-1][0] - acts[0][0]
        said.append(f"{span:.2f} real hours, {acts[-1][1] - acts[0][1]:,.0f} moves: "
                    f"{(acts[-1][1] - acts[0][1]) / span if span else 0:,.0f} an hour")
    for pid, points in sorted(series.items(), key=lambda kv: names[kv[0]]):
        after = [(h, mb) for h, mb in points if h >= points[0][0] + first_hour]
        tail = "not yet past its first hour"
        if len(after) >= 3:
            window = [(h, a) for h, a in acts if after[0][0] <= h <= after[-1][0]]
            moves = (window[-1][1] - window[0][1]) / (window[-1][0] - window[0][0]) if len(window) > 1 else 0.0
            tail = (f"{slope(after):+.2f} ± {slope_error(after):.2f} MB a real hour after its first hour, over "
                    f"{(after[-1][0] - after[0][0]) * 60:.0f} min at {moves:,.0f} moves an hour")
        said.append(f"{names[pid]:<32} pid {pid}: {points[0][1]:6.1f} MB at {points[0][0] * 60:.0f} min, "
                    f"{points[-1][1]:6.1f} at {points[-1][0] * 60:.0f} min; {tail}")
    return said


if __name__ == "__main__":
    if sys.argv[1:2] == ["--growth"]:
        print("\n".join(growth(sys.argv[2])))
    else:
        asyncio.run(soak(tables=50, seconds=20))
