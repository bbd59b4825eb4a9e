"""A sealed deal at the real table server (issue 90's latency mark): from the last person's cut to each person's own
cards in their client, over 127.0.0.1, against an open deal of the same game and seats in the same run.

Each deal is a table's first hand: people sit down at a new table (``cardtui.server.app.start``, one process), each
through the real client (``Connection`` following the table with its ``FairDeals`` and, at a sealed table, its
``SealedSeat``: its keys in a folder of its own). The clock starts when the last person's client sends its cut (the
deal is made once that link is in) and stops, for each person, when their client holds their three cards: opened by
their own keys at a sealed table, read from the view at an open one. A table's first hand is the slowest a sealed
table deals: its people pledge and show their box points first (two more steps each, once a stay).

Every person comes from 127.0.0.1 here, so the server's allowances of actions and of new tables an address are lifted
(at a real table each person has an address of their own, and a deal costs each client seven steps; every deal here is
a new table, twenty a minute at most from one address). Each person's client runs in a
process of its own, as on a machine of its own at a real table, all of them on this machine's cores beside the
server's process; with ``one`` (``python -m bench.sealed_live 20 one``) the server and every client share one
process, and the wait includes each client's work on the others' turns, queued on one core. The open deal of the
same run is the machine's part (the server's and the clients' own work, the round trips, the journal): the sealed
deal's figure less the open one is what sealing costs. CPU per deal: each client's from its cut to its cards; every
process's from the last cut until every person's client has checked the whole deal (every proof, ``ready``).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from pathlib import Path

import grpc

from cardtui.client.connection import Connection
from cardtui.client.fairness import FairDeals
from cardtui.client.sealed_keys import SealedKeys
from cardtui.client.sealed_seat import SealedSeat
from cardtui.engine.games import ENTRIES
from cardtui.server.app import start
from cardtui.server.base.limits import Limits
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc

SEALED = {"sealed": common_pb2.OptionValue(flag=True)}
SIZES = tuple((name, seats, mark) for name, entry in ENTRIES.items() for seats, mark in entry.bench.sealed)
"""Each game and seat count measured, with its mark (ms, p95), as each game's entry says (``Bench.sealed``): a game
whose seats' cards are all dealt at once (in truco paulista the others' wait for the mão's choice, a person's
decision, at an open table as at a sealed one)."""
WITH_BOTS = SIZES
"""The same, one person and bots (``python -m bench.sealed_live 20 bots``): the host makes the bots' part of the deal
(their keys, then their proofs), and the person's cards wait for the bots' keys alone."""


@dataclass
class Deal:
    """One table's first deal: when each person's cut went, when each held their cards, when each had checked it all;
    the CPU it cost each process, from the last cut (the server's; each client's from its own cut)."""

    seats: int
    cut: dict[int, float] = field(default_factory=dict)
    shown: dict[int, float] = field(default_factory=dict)
    checked: dict[int, float] = field(default_factory=dict)
    cpu_way: dict[int, float] = field(default_factory=dict)
    """Each client's CPU from its cut to its cards."""
    cpu_all: dict[int, float] = field(default_factory=dict)
    """Each client's CPU from its cut to the deal checked."""
    server_cpu: float = 0.0
    """The server's process (with every client, when they share it), from the last cut to every client done."""


async def _create(port: int, game: str, seats: int, sealed: bool, bots: int = 0) -> str:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
        created = await lobby_pb2_grpc.LobbyStub(ch).CreateTable(lobby_pb2.CreateTableRequest(
            game=game, seats=seats, bots=bots, turn_seconds=600, options=SEALED if sealed else {}))
    return created.table.id


async def _person(port: int, table_id: str, name: str, root: Path, sealed: bool,
                  ) -> tuple[int, float, float, float, float, float]:
    """One person at the table, until their client has their cards and (sealed) has checked the whole deal: their
    seat, when they cut, held their cards and had checked it all, and their client's CPU to each."""
    conn = Connection.open(f"127.0.0.1:{port}")
    cut_at = cpu0 = shown = cpu_way = 0.0
    try:
        joined = await conn.join(table_id, name)
        seat = joined.seat
        plain = conn.cut

        async def cut(token: str, hand: int, seed: bytes) -> bool:
            nonlocal cut_at, cpu0
            cut_at, cpu0 = time.monotonic(), time.process_time()
            return await plain(token, hand, seed)

        conn.cut = cut  # type: ignore[method-assign]
        keys = SealedSeat(conn.target, SealedKeys(root / name)) if sealed else None
        async for msg in conn.follow(joined.token, fair=FairDeals(), sealed=keys):
            view = msg.snapshot.view if msg.HasField("snapshot") else msg.update.view
            if not shown and len(keys.own_cards() if keys is not None else view.truco.cards) == 3:
                shown, cpu_way = time.monotonic(), time.process_time() - cpu0
            if shown and (keys is None or (keys.mine is not None and keys.ready and all(
                    s in keys.mine.ledger.proofs for s in keys.mine.ledger.hand.order))):
                return seat, cut_at, shown, time.monotonic(), cpu_way, time.process_time() - cpu0
    finally:
        await conn.close()
    raise AssertionError("the stream ended before the deal")


def _apart(port: int, root: Path, sealed: bool, inbox: Queue[str | None], outbox: Queue[object]) -> None:
    """A person's client in a process of its own (as at a real table, a machine of its own): one deal a table sent."""
    while (table_id := inbox.get()) is not None:
        outbox.put(asyncio.run(_person(port, table_id, f"p-{os.getpid()}-{table_id}", root, sealed)))


async def _deals(game: str, seats: int, sealed: bool, deals: int, root: Path, apart: bool, people: int = 0,
                 ) -> list[Deal]:
    """``people``: that many people, the other seats bots (0: every seat a person)."""
    people = people or seats
    running = await start("127.0.0.1", 0, root / f"store-{game}-{seats}-{sealed}-{apart}.db", bot_delay=0.01,
                          next_hand_delay=60.0, cut_window=30.0,
                          limits=Limits(acts_per_second=1e6, tables_per_minute=1e6))
    loop = asyncio.get_running_loop()
    context = multiprocessing.get_context("spawn")  # (a fork would copy the server's gRPC threads)
    outbox: Queue[object] = context.Queue()
    inboxes: list[Queue[str | None]] = [context.Queue() for _ in range(people)] if apart else []
    workers = [context.Process(target=_apart, args=(running.port, root / f"{sealed}", sealed, inbox, outbox))
               for inbox in inboxes]
    for worker in workers:
        worker.start()
    out = []
    try:
        for n in range(deals):
            table_id = await _create(running.port, game, seats, sealed, seats - people)
            deal = Deal(seats)
            cpu0 = time.process_time()
            if apart:
                for inbox in inboxes:
                    inbox.put(table_id)
                got = [await loop.run_in_executor(None, outbox.get, True, 120) for _ in range(people)]
            else:
                got = await asyncio.wait_for(asyncio.gather(*(
                    _person(running.port, table_id, f"p{n}-{i}", root / f"{sealed}", sealed) for i in range(people))),
                    timeout=120)
            deal.server_cpu = time.process_time() - cpu0
            for seat, cut_at, shown, checked, cpu_way, cpu_all in got:  # type: ignore[misc]
                deal.cut[seat], deal.shown[seat], deal.checked[seat] = cut_at, shown, checked
                deal.cpu_way[seat], deal.cpu_all[seat] = cpu_way, cpu_all
            out.append(deal)
    finally:
        for inbox in inboxes:
            inbox.put(None)
        for worker in workers:
            await loop.run_in_executor(None, worker.join)
        await running.stop(grace=0.1)
    return out


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 20 else max(values)


def waits(deals: list[Deal]) -> list[float]:
    """Each person's wait, in ms: from the last cut of their deal to their cards."""
    return [(shown - max(d.cut.values())) * 1000 for d in deals for shown in d.shown.values()]


def _cpu(deals: list[Deal], apart: bool) -> float:
    """The median CPU of a deal, in ms, every process added up (the clients' own, when each has its own)."""
    return 1000 * statistics.median([d.server_cpu + (sum(d.cpu_all.values()) if apart else 0.0) for d in deals])


def run(print: Callable[[str], None], deals: int = 20, modes: tuple[bool, ...] = (True,), bots: bool = False) -> None:
    """``modes``: each person's client in a process of its own (True), or everything in this one (False: slower,
    and on a loaded machine the server can starve long enough for a client's call to time out). ``bots``: one
    person and bots at each table (``WITH_BOTS``)."""
    print(f"== sealed deals at the real server over 127.0.0.1, load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        for apart in modes:
            where = "each person's client a process of its own" if apart else "the server and every client in one"
            for game, seats, mark in WITH_BOTS if bots else SIZES:
                figures = {}
                for sealed in (False, True):  # the open deal first: the same machine, the same minute
                    figures[sealed] = asyncio.run(_deals(game, seats, sealed, deals, Path(folder), apart,
                                                         1 if bots else 0))
                shut, opened = waits(figures[True]), waits(figures[False])
                met = "met" if _p95(shut) <= mark else "NOT met"
                who = f"1 person and {seats - 1} bots" if bots else f"{seats} people"
                print(f"== {game}, {who} ({where}), {deals} first deals: last cut to own cards p50 / p95 — "
                      f"sealed {statistics.median(shut):6.1f} / {_p95(shut):6.1f} ms (mark ≤ {mark:.0f}: {met}), open "
                      f"{statistics.median(opened):6.1f} / {_p95(opened):6.1f} ms; load {os.getloadavg()[0]:.1f}")
                way = [statistics.mean(d.cpu_way.values()) for d in figures[True]]
                shared = "" if apart else " (the clients' counted in the server's: one process)"
                print(f"   CPU per sealed deal: a client's, its cut to its cards {1000 * statistics.median(way):6.1f} "
                      f"ms; every process, the deal checked by all {_cpu(figures[True], apart):6.1f} ms{shared}; an "
                      f"open deal's, every process {_cpu(figures[False], apart):5.1f} ms")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        run(print, int(sys.argv[1]) if len(sys.argv) > 1 else 20, (False,) if "one" in sys.argv[2:] else (True,),
            "bots" in sys.argv[2:])
