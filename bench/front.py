"""`make bench --only front`: what the front (the lobby's process) keeps per unary call on a kept connection.

A client keeps one connection to the lobby and asks it small things again and again: ``GetInfo`` as it
opens, ``Locate`` whenever its table's process stops answering. Whatever the front keeps per call shows as
resident memory that grows with the calls. For each of the two (``Locate`` refused, as for a token that opens
nothing), ``WARMUP`` calls first, then ``CALLS`` calls on the same channel, the front's own RSS read before
and after (its process alone, not its table workers); the same against the bare grpc.aio server with the same
options (``bench.bare``), which keeps nothing of its own. The mark: at most 1 MB of growth over 10,000
calls after 1,000 of warm-up.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any

import grpc

from bench.load import start_process
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc

WARMUP = 1_000
CALLS = 10_000
MARK_MB = 1.0
SERVE = ("--no-announce", "--log-level", "warning", "--workers", "2", "--analysis-workers", "0",
         "--max-actions", "1e6", "--max-tables", "1e6")


def own_rss_kb(pid: int) -> int:
    """One process's resident memory (not its children's)."""
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


async def growth(port: int, pid: int, calls: int, warmup: int) -> dict[str, float]:
    """MB the process grew by over ``calls`` of each kind of call, after ``warmup`` of it, on one channel."""
    grown: dict[str, float] = {}
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)

        async def info() -> None:
            await lobby.GetInfo(lobby_pb2.GetInfoRequest())

        async def locate() -> None:
            try:
                await lobby.Locate(lobby_pb2.LocateRequest(token="no-such-token"))
            except grpc.aio.AioRpcError as err:
                assert err.code() == grpc.StatusCode.PERMISSION_DENIED, err

        kinds: dict[str, Callable[[], Awaitable[None]]] = {"GetInfo": info, "Locate": locate}
        for name, call in kinds.items():
            for _ in range(warmup):
                await call()
            await asyncio.sleep(0.5)
            before = own_rss_kb(pid)
            for _ in range(calls):
                await call()
            await asyncio.sleep(0.5)
            grown[name] = (own_rss_kb(pid) - before) / 1024
    return grown


async def measure(calls: int = CALLS, warmup: int = WARMUP, out: Callable[[str], Any] = print) -> dict[str, Any]:
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, args, marker in (
                ("front", ["-m", "cardtui.cli", "serve", "--port", "0", "--db", f"{tmp}/front.db", *SERVE],
                 "server on"),
                ("bare", ["-m", "bench.bare"], "port")):
            proc, port = start_process(args, marker)
            try:
                results[label] = await growth(port, proc.pid, calls, warmup)
            finally:
                proc.terminate()
                proc.wait(30)
    for name in results["front"]:
        front, bare = results["front"][name], results["bare"][name]
        verdict = "met" if front <= MARK_MB * calls / CALLS else "NOT met"
        out(f"  {name}: the front grew {front:+.2f} MB over {calls:,} calls after {warmup:,} of warm-up, the bare "
            f"grpc.aio server {bare:+.2f} MB (mark: ≤ {MARK_MB:.0f} MB over {CALLS:,}: {verdict})")
    return results


def run(quick: bool) -> None:
    calls = 2_000 if quick else CALLS
    print(f"== the front's memory over unary calls on one kept connection: {calls:,} GetInfo, then {calls:,} "
          "Locate, against a bare grpc.aio server with the same options")
    asyncio.run(measure(calls=calls))
