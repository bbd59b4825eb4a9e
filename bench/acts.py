"""The server's own Python per act, in one process without gRPC: compiled against plain Python.

20 Cacho tables, four seated people and two spectators each (subscribed: every change's views
are serialized and queued for six streams, the queues drained as a stream would), play random
acts through ``Table.act`` as the service does; the next hands are dealt by their timers, as
in the server. The figure is this process's CPU time over the whole loop (acts, fan-out,
journal, next deals) per act: what the event loop spends in our code for an act, gRPC aside.

``run`` measures the build in use (``cardtui.native``) and plain Python (``CARDTUI_PURE=1``) in
turn, each in a fresh process, alternating, and prints both and their ratio; then the build in use with the loop
asleep after each act, as a server's loop is between acts that come one at a time, beside what such a sleep costs
by itself: what the same act costs when its code and data are found cold.
"""

from __future__ import annotations

import asyncio
import builtins
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable

ACTS = 8000
TABLES = 20


async def play(acts: int = ACTS, tables: int = TABLES, seed: int = 5, pause: float = 0.0) -> float:
    """Seconds of this process's CPU per act over ``acts`` random acts; ``pause``: seconds the loop sleeps after
    each act, as a server's does between acts that come one at a time."""
    from bench.views import seated

    playing = await seated(tables)
    rng = random.Random(seed)
    await asyncio.sleep(0.01)
    done = 0
    start = time.process_time()
    while done < acts:
        for table, subs in playing:
            match = table.match
            if match is not None and not match.hand_over():
                seat = next((s for s in match.to_act() if match.legal_actions(s)), None)
                if seat is not None:
                    legal = match.legal_actions(seat)
                    table.act(seat, rng.choice([a for a in legal if a.type != "fold"] or legal))
                    done += 1
                    if pause:
                        await asyncio.sleep(pause)
            for sub in subs:
                while not sub.queue.empty():
                    sub.queue.get_nowait()
        await asyncio.sleep(0)  # the next hands are dealt by their timers
    return (time.process_time() - start) / done


PAUSE = 0.005
"""The loop's sleep after each act for the cold measure: about what a server at one act a table a second sleeps
between two acts (200 tables, two workers)."""
PAUSED_ACTS = 1000


async def asleep(times: int, pause: float) -> float:
    """Seconds of this process's CPU per sleep of the loop that nothing else happens around: what waking costs by
    itself, to tell it from what the acts after it cost more."""
    start = time.process_time()
    for _ in range(times):
        await asyncio.sleep(pause)
    return (time.process_time() - start) / times


def measure(pure: bool, acts: int, pause: float = 0.0) -> tuple[float, str]:
    """µs per act in a fresh process, and what it ran (compiled or plain Python)."""
    env = {k: v for k, v in os.environ.items() if k != "CARDTUI_PURE"} | ({"CARDTUI_PURE": "1"} if pure else {})
    code = (
        "import asyncio, json; from bench.acts import play; from cardtui.native import STATUS; "
        f"print(json.dumps([asyncio.run(play({acts}, pause={pause})) * 1e6, STATUS]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    us, status = json.loads(out.stdout)
    return float(us), str(status)


def run(print: Callable[..., None] = builtins.print, acts: int = ACTS, rounds: int = 3) -> None:
    compiled, pure, paused = [], [], []
    status = ""
    for _ in range(rounds):
        us, status = measure(False, acts)
        compiled.append(us)
        pure.append(measure(True, acts)[0])
        paused.append(measure(False, min(acts, PAUSED_ACTS), PAUSE)[0])
    woken = asyncio.run(asleep(PAUSED_ACTS, PAUSE)) * 1e6
    c, p = min(compiled), min(pure)
    print(f"  our Python per act ({acts:,} acts, {TABLES} tables × 6 streams, no gRPC; best of {rounds}): "
          f"{c:.0f} µs as built ({status}) vs {p:.0f} µs plain Python: ×{c / p:.2f}")
    print(f"    runs: as built {', '.join(f'{x:.0f}' for x in compiled)}; plain {', '.join(f'{x:.0f}' for x in pure)}")
    cold = min(paused)
    runs = ", ".join(f"{x:.0f}" for x in paused)
    print(f"  the same as built, the loop asleep {PAUSE * 1e3:g} ms after each act (as a server's between acts "
          f"that come one at a time): {cold:.0f} µs, ×{cold / c:.2f} of back to back (runs: {runs}); of it, "
          f"waking alone (a sleep with no act) {woken:.0f} µs, the rest the act's own on cold caches")


if __name__ == "__main__":
    run()
