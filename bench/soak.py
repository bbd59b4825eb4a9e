"""A bounded soak on 127.0.0.1: tables of bots for minutes, watchers coming and going.

Spectators join and leave and drop and reconnect at random (resuming with ``after_seq``);
each counts every event number it gets: a number seen twice is a duplicate, a hole that
no resubscription filled is a loss (both must be zero). Chat probes measure delivery
latency under the bots' load; the bare fan-out server gets the same probes under the
same action rate. Server memory is read at the start and the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import quantiles
from typing import Any

import grpc

from bench.load import rss_kb, start_process
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc

CHANNELS = 8


@dataclass
class Watcher:
    table: str
    token: str
    seen: set[int] = field(default_factory=set)
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
    lost: int = 0
    resyncs: int = 0
    drops: int = 0
    joins: int = 0
    leaves: int = 0
    latencies: list[float] = field(default_factory=list)


class Soak:
    def __init__(self, port: int, bare: bool) -> None:
        self.bare = bare
        self.channels = [grpc.aio.insecure_channel(f"127.0.0.1:{port}") for _ in range(CHANNELS)]
        self.rng = random.Random(11)
        self.watchers: list[Watcher] = []
        self.tables: list[str] = []
        self.tally = Tally()
        self.sent: dict[int, float] = {}

    def table_stub(self) -> table_pb2_grpc.TableStub:
        return table_pb2_grpc.TableStub(self.rng.choice(self.channels))

    def lobby_stub(self) -> lobby_pb2_grpc.LobbyStub:
        return lobby_pb2_grpc.LobbyStub(self.rng.choice(self.channels))

    async def setup(self, tables: int, bot_delay_ms: int) -> None:
        for t in range(tables):
            if self.bare:
                self.tables.append(f"t{t}")
            else:
                s = await self.lobby_stub().CreateTable(lobby_pb2.CreateTableRequest(
                    game="cacho", seats=4, bots=4, bot_delay_ms=bot_delay_ms))
                self.tables.append(s.table.id)
        for table in self.tables:
            for _ in range(2):
                await self.join(table)

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
        stream = self.table_stub().Subscribe(table_pb2.SubscribeRequest(token=w.token, after_seq=after))
        try:
            async for msg in stream:
                now = time.perf_counter()
                if msg.HasField("snapshot") and after and msg.snapshot.first_seq > after + 1:
                    w.resyncs += 1  # the gap was older than the buffer: a fresh snapshot instead
                    w.seen.update(range(after + 1, msg.seq + 1))
                for ev in msg.update.events:
                    if ev.seq in w.seen:
                        w.duplicates += 1
                    w.seen.add(ev.seq)
                    if w.first is None:
                        w.first = ev.seq
                    probe = self.probe_of(ev)
                    if probe in self.sent:
                        self.tally.latencies.append((now - self.sent[probe]) * 1000)
                if msg.HasField("snapshot") and w.first is None and not after:
                    w.first = msg.seq + 1
                w.last = max(w.last, msg.seq)
        except (grpc.aio.AioRpcError, asyncio.CancelledError):
            return

    def probe_of(self, ev: table_pb2.Event) -> int:
        """The probe an event carries: a chat line at the real server, an act's chips at the bare one."""
        if self.bare:
            return ev.acted.action.chips if ev.acted.action.type == common_pb2.ACTION_TYPE_CHECK else 0
        text = ev.chatted.text
        return int(text.split()[-1]) if text.startswith("probe ") else 0

    async def churn(self, until: float) -> None:
        """Every 100 ms somebody drops and comes back, leaves, or a newcomer joins."""
        while time.perf_counter() < until:
            await asyncio.sleep(0.1)
            live = [w for w in self.watchers if w.task is not None]
            pick = self.rng.random()
            w = self.rng.choice(live)
            if pick < 0.6 and w.task is not None:  # drop, then resume from the last number seen
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
    if bare:
        proc, port = start_process(["-m", "bench.bare"], "port")
    else:
        proc, port = start_process(["-m", "cardtui.cli", "serve", "--port", "0", "--db", db,
                                    "--next-hand-delay", "500", "--log-level", "warning", "--no-announce",
                                    "--max-actions", "1e6", "--max-tables", "1e6", "--max-chat", "1e6"],
                                   "server on")
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
                mid.append(rss_kb(proc.pid))

        await asyncio.gather(soak.churn(until), soak.probe(until, acts_per_second), sample())
        rss_end = rss_kb(proc.pid)
        tally = await soak.finish()
        q = quantiles(tally.latencies, n=100) if len(tally.latencies) > 2 else [float("nan")] * 99
        if bare:  # the baseline has no resume: only its latency means anything
            out(f"  bare     {seconds:.0f} s: probe p50 {q[49]:.1f} ms p99 {q[98]:.1f} ms")
        else:
            out(f"  cardtui  {seconds:.0f} s: {tally.delivered:,} events delivered, {tally.lost} lost, "
                f"{tally.duplicates} duplicated, {tally.resyncs} snapshot resyncs; {tally.drops} drops and "
                f"reconnects, {tally.joins} joins, {tally.leaves} leaves; probe p50 {q[49]:.1f} ms "
                f"p99 {q[98]:.1f} ms; server RSS {rss_start / 1024:.0f} MB at the start, "
                f"{[round(m / 1024) for m in mid]} along the way, {rss_end / 1024:.0f} MB at the end")
        return {"tally": tally, "p99": q[98], "rss": (rss_start, rss_end)}
    finally:
        proc.terminate()
        proc.wait(10)


async def soak(tables: int = 200, seconds: float = 180.0, out: Callable[[str], Any] = print) -> None:
    acts = tables / 1.0  # bots at about one action per table per second
    real = await soak_one(False, tables, seconds, acts, out)
    bare = await soak_one(True, tables, min(seconds, 60.0), acts, out)
    out(f"  probe p99: cardtui {real['p99']:.1f} ms vs bare {bare['p99']:.1f} ms "
        f"(x{real['p99'] / bare['p99']:.2f})")


if __name__ == "__main__":
    asyncio.run(soak(tables=50, seconds=20))
