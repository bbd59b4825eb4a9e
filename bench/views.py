"""What one change costs the server in Python, without gRPC: real tables, no network.

200 Cacho tables with four seated people and two spectators each (subscribed, their queues
drained) play ``ACTS`` actions through ``Table.act``, as the server does. Every change's
five views are captured and then serialized again both ways in the same run, in the order
they were played: spliced from their parts' bytes (``wire.view_bytes``, what the server
sends; what it remembers is dropped first, so only earlier changes' records are reused) and
as whole messages (``view_message(...).SerializeToString()``, the baseline).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from cardtui.engine.core import Action, GameView
from cardtui.server.actor.fanout import Subscriber
from cardtui.server.actor.table import Table
from cardtui.server.base import wire
from cardtui.server.lobby.room import Room, TableRequest
from cardtui.server.store import Store

ACTS = 4000
TABLES = 200

Change = list[tuple[GameView, list[Action]]]


async def seated(tables: int) -> list[tuple[Table, list[Subscriber]]]:
    """``tables`` Cacho tables in a fresh in-memory room, four people seated and two watching each,
    every one of them subscribed: the tables and each one's subscribers."""
    room = Room(Store(":memory:"), next_hand_delay=0.0, cut_window=0.0)
    playing = []
    for _ in range(tables):
        table, _ = room.create(TableRequest("cacho", "", 4, 0, {"chips": 50}, turn_seconds=3600))
        tokens = [(await room.join(table.id, f"p{s}", -1, ""))[0] for s in range(4)]
        tokens += [(await room.spectate(table.id, f"w{w}", ""))[0] for w in range(2)]
        playing.append((table, [table.subscribe(t, room.grant(t).seat, 0)[0] for t in tokens]))
    return playing


async def play(acts: int, tables: int) -> tuple[float, list[Change]]:
    """Seconds of ``Table.act`` per act, and the views (with legal lists) of the changes played."""
    playing = await seated(tables)
    rng = random.Random(5)
    await asyncio.sleep(0.01)
    changes: list[Change] = []
    spent = 0.0
    done = 0
    while done < acts:
        for table, subs in playing:
            match = table.match
            if match is None or match.hand_over():
                continue
            seat = next((s for s in match.to_act() if match.legal_actions(s)), None)
            if seat is None:
                continue
            legal = match.legal_actions(seat)
            action = rng.choice([a for a in legal if a.type != "fold"] or legal)
            start = time.perf_counter()
            table.act(seat, action)
            spent += time.perf_counter() - start
            done += 1
            if len(changes) < 2000 and not match.hand_over():
                audiences: Sequence[int | None] = [0, 1, 2, 3, None]
                changes.append([(v, match.legal_actions(s) if s is not None else [])
                                for s, v in zip(audiences, match.views(audiences), strict=True)])
            for sub in subs:
                while not sub.queue.empty():
                    sub.queue.get_nowait()
        await asyncio.sleep(0)  # the next hands are dealt by their timers
    return spent / done, changes


def best(fn: Callable[[], Any], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def run(print: Callable[[str], Any] = print, acts: int = ACTS) -> None:
    per_act, changes = asyncio.run(play(acts, TABLES))
    print(f"  Table.act, in process: {per_act * 1e6:6.0f} µs per act ({acts:,} acts at {TABLES} tables)")

    def spliced() -> None:
        wire.forget()  # from cold, as in play: a record is remembered only once some change made it
        for change in changes:
            with wire.sharing():
                for view, legal in change:
                    wire.view_bytes(view, legal, 1000, b"")

    def whole() -> None:
        for change in changes:
            for view, legal in change:
                wire.view_message(view, legal, 1000).SerializeToString()

    a, b = best(spliced) / len(changes), best(whole) / len(changes)
    print(f"  one change's five views: spliced {a * 1e6:5.0f} µs, whole messages {b * 1e6:5.0f} µs "
          f"(x{a / b:.2f}; {len(changes):,} changes, the same views both ways)")
