"""`make bench --only lobby`: what a person idling in the lobby costs the server, the list followed by its stream
(``WatchTables``) against the list asked for every two seconds (``ListTables``, as the lobby did before).

The server as ``cardtui serve`` starts by default (a table worker per core), ``TABLES`` tables open and waiting
for people (two seats free, bots in the rest: nothing plays), and a newcomer sitting at one table and leaving
the one they sat at before every ``CHURN_SECONDS`` (a table with one person still waits), so that the list does
change. Turns of ``SECONDS`` each, measured in alternation:
nobody in the lobby; ``PEOPLE`` people following the list by its stream; the same people asking for it every two
seconds. Each person has a connection of their own. The server's CPU (every process) in each turn, less the empty
lobby's, is what the people cost; per person and per second, it is the mark (at most 0.1 ms a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

import grpc

from bench.load import cpu_seconds, start_process
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc

TABLES = 200
PEOPLE = 20
SECONDS = 20.0
ROUNDS = 2
CHURN_SECONDS = 1.0
POLL_SECONDS = 2.0
MARK_MS = 0.1
SERVE = ("--no-announce", "--log-level", "warning", "--analysis-workers", "0", "--max-tables", "1e6",
         "--max-actions", "1e6", "--max-streams-per-address", "100000", "--idle-minutes", "-1")


async def churn(lobby: lobby_pb2_grpc.LobbyStub, tables: list[str], until: float) -> None:
    """A newcomer sits at a table and the one who sat before leaves, every ``CHURN_SECONDS``."""
    rng = random.Random(7)
    seated: list[str] = []
    while time.perf_counter() < until:
        joined = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=rng.choice(tables), name="newcomer"))
        seated.append(joined.token)
        if len(seated) > 1:
            await lobby.Leave(lobby_pb2.LeaveRequest(token=seated.pop(0)))
        await asyncio.sleep(CHURN_SECONDS)
    for token in seated:
        with contextlib.suppress(grpc.aio.AioRpcError):
            await lobby.Leave(lobby_pb2.LeaveRequest(token=token))


async def follow(stub: lobby_pb2_grpc.LobbyStub, until: float, seen: list[int]) -> None:
    stream = stub.WatchTables(lobby_pb2.WatchTablesRequest(include_finished=True))
    with contextlib.suppress(asyncio.CancelledError, grpc.aio.AioRpcError):
        async for update in stream:
            seen.append(len(update.tables) + len(update.removed))
            if time.perf_counter() >= until:
                break
    stream.cancel()


async def poll(stub: lobby_pb2_grpc.LobbyStub, until: float, seen: list[int]) -> None:
    offset = random.random() * POLL_SECONDS  # people's timers are not in step
    await asyncio.sleep(offset)
    while time.perf_counter() < until:
        seen.append(len((await stub.ListTables(lobby_pb2.ListTablesRequest(include_finished=True))).tables))
        await asyncio.sleep(POLL_SECONDS)


async def measure(tables: int = TABLES, people: int = PEOPLE, seconds: float = SECONDS, rounds: int = ROUNDS,
                  out: Callable[[str], Any] = print) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_process(["-m", "cardtui.cli", "serve", "--port", "0", "--db", f"{tmp}/lobby.db", *SERVE],
                                   "server on")
        channels = [grpc.aio.insecure_channel(f"127.0.0.1:{port}") for _ in range(people + 1)]
        try:
            lobby = lobby_pb2_grpc.LobbyStub(channels[0])
            ids = [(await lobby.CreateTable(lobby_pb2.CreateTableRequest(
                game="cacho", seats=4, bots=2, turn_seconds=3600))).table.id for _ in range(tables)]
            stubs = [lobby_pb2_grpc.LobbyStub(c) for c in channels[1:]]
            await asyncio.sleep(2.0)
            used: dict[str, list[float]] = {"nobody": [], "stream": [], "poll": []}
            seen: dict[str, list[int]] = {"stream": [], "poll": []}
            for _ in range(rounds):
                for kind in ("nobody", "stream", "poll"):
                    until = time.perf_counter() + seconds
                    each: Callable[[lobby_pb2_grpc.LobbyStub], Awaitable[None]] | None = (
                        None if kind == "nobody" else
                        (lambda s, u=until, k=kind: (follow if k == "stream" else poll)(s, u, seen[k])))
                    tasks = [asyncio.create_task(each(s)) for s in stubs] if each is not None else []
                    await asyncio.sleep(0.5)  # the streams' snapshots, the first polls, out of the count
                    before, began = cpu_seconds(proc.pid)[0], time.perf_counter()
                    await churn(lobby, ids, until)
                    used[kind].append((cpu_seconds(proc.pid)[0] - before) / (time.perf_counter() - began))
                    for task in tasks:
                        task.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)
                    await asyncio.sleep(1.0)
        finally:
            for channel in channels:
                await channel.close()
            proc.terminate()
            proc.wait(30)
    base = sum(used["nobody"]) / len(used["nobody"])
    per = {kind: (sum(v) / len(v) - base) / people * 1e3 for kind, v in used.items() if kind != "nobody"}
    verdict = "met" if per["stream"] <= MARK_MS else "NOT met"
    out(f"  the empty lobby: {base * 1e3:.2f} ms of server CPU a second (the churn: a seat taken and one left a "
        f"second); turns: {', '.join(f'{k} ' + '/'.join(f'{x * 1e3:.1f}' for x in v) for k, v in used.items())}")
    out(f"  a person idling in the lobby of {tables} tables: following its stream {per['stream']:.3f} ms of server "
        f"CPU a second, asking every {POLL_SECONDS:.0f} s {per['poll']:.3f} ms; {people} people, {rounds} turns of "
        f"{seconds:.0f} s each, updates a stream got: {len(seen['stream'])} (mark: ≤ {MARK_MS} ms a second: {verdict})")
    return per


def run(quick: bool) -> None:
    tables, seconds, rounds = (50, 8.0, 1) if quick else (TABLES, SECONDS, ROUNDS)
    print(f"== the lobby's list: {PEOPLE} people idling in a lobby of {tables} tables, by its stream against asking "
          f"every {POLL_SECONDS:.0f} s; server CPU, every process, over the empty lobby's")
    asyncio.run(measure(tables=tables, seconds=seconds, rounds=rounds))
