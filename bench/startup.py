"""`make bench --only startup`: how long `cardtui serve` takes to be ready, first and after a restart.

Ready is what a service manager is told (``READY=1`` on ``$NOTIFY_SOCKET``, ``server.systemd``): the server
listens and its tables are back. A first start is on an empty store; a restart is on the same store with
``tables`` tables open mid-hand (a person seated at each, three bots), after a SIGTERM and after a kill -9 of
the whole process group. Each is timed from the process's start, table workers as ``cardtui serve`` runs them
by default (two here), and given as a ratio to the first start of the same round, for 50 tables and for 200: a
restart with 200 tables mid-hand is to be ready within 1.5 times a first start.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc

from cardtui.v1 import lobby_pb2, lobby_pb2_grpc

SERVE = ("--no-announce", "--log-level", "info", "--workers", "2", "--bot-delay", "10",
         "--analysis-workers", "0", "--max-tables", "1e6", "--max-actions", "1e6")
PATIENCE = 120.0
"""Seconds a start may take before the run is taken to be broken."""
SETTLE = 1.0
"""Seconds every start waits first, the first start as a restart: straight after a stop (and the tables' burst of
play before it), a restart began on a machine still busy with it, and timed that too."""


STARTS: list[tuple[float, str]] = []
"""Each start's seconds to READY=1 and what the server said its start waited for (its "started in" line)."""


def said_start(log: Path) -> str:
    """What the front said its start waited for (``server.app.start``'s "started in" line), less its prefix."""
    with contextlib.suppress(OSError):
        for line in log.read_text(errors="replace").splitlines():
            if "started in" in line:
                return line[line.index("started in"):]
    return ""


def start(db: Path, notify: socket.socket, path: str) -> tuple[subprocess.Popen[bytes], float, int]:
    """``cardtui serve`` on ``db``; the process, the seconds until it said READY=1, and its port."""
    env = dict(os.environ, NOTIFY_SOCKET=path)
    time.sleep(SETTLE)
    log = db.with_suffix(f".{len(STARTS)}.log")
    began = time.perf_counter()
    with log.open("wb") as err:
        served = subprocess.Popen([sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--db", str(db),
                                   *SERVE], env=env, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    notify.settimeout(PATIENCE)
    while True:
        said = notify.recv(65536).decode()
        if "READY=1" in said:
            took = time.perf_counter() - began
            STARTS.append((took, said_start(log)))
            status = next(line for line in said.splitlines() if line.startswith("STATUS="))
            port = int(status.split(" on ", 1)[1].split(" ", 1)[0].rsplit(":", 1)[1])
            return served, took, port


async def open_tables(port: int, tables: int) -> None:
    """``tables`` Cacho tables, each with a person seated and three bots: the bots play until the person's turn."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        for t in range(tables):
            summary = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=4, bots=3,
                                                                           turn_seconds=3600))
            await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=summary.table.id, name=f"p{t}"))


def stop(served: subprocess.Popen[bytes], how: signal.Signals) -> None:
    """The server stopped by ``how``: its front alone for SIGTERM (it stops its workers), its whole group for a kill;
    back once every process of it has ended."""
    if how == signal.SIGKILL:
        os.killpg(served.pid, signal.SIGKILL)
    else:
        served.send_signal(how)
    served.wait(timeout=PATIENCE)
    # Gone is every process of its group (workers, the fork server, the pools), as a service manager
    # waits for before it starts the service again: a start among processes still ending timed their
    # ending too.
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            os.killpg(served.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)
    raise RuntimeError("the stopped server's processes did not end")


MARK = 1.5
"""A restart with ``TABLES[-1]`` tables mid-hand is ready within this many times a first start of the same round."""
TABLES = (50, 200)


def run(quick: bool) -> None:
    counts = (20,) if quick else TABLES
    rounds = 1 if quick else 3
    for tables in counts:
        rounds_of(tables, rounds)


def rounds_of(tables: int, rounds: int) -> None:
    print(f"== startup: seconds to READY=1, two table workers; a restart with {tables} tables open mid-hand")
    firsts: list[float] = []
    ratios: dict[str, list[float]] = {"SIGTERM": [], "kill -9": []}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "notify")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
            notify.bind(path)
            for r in range(rounds):
                db = Path(folder) / f"store{r}.db"
                served, first, port = start(db, notify, path)
                asyncio.run(open_tables(port, tables))
                line = [f"first {first:5.2f} s"]
                for name, how in (("SIGTERM", signal.SIGTERM), ("kill -9", signal.SIGKILL)):
                    stop(served, how)
                    served, again, _port = start(db, notify, path)
                    ratios[name].append(again / first)
                    line.append(f"after {name} {again:5.2f} s (x{again / first:.2f})")
                stop(served, signal.SIGTERM)
                firsts.append(first)
                print(f"  round {r + 1}: " + ", ".join(line))
                for took, waited in STARTS[-3:]:  # the first start, then each restart: what each waited for
                    print(f"    {took:5.2f} s to READY=1; in the front from its start: {waited or '?'}")
    worst = max(statistics.median(ratios["SIGTERM"]), statistics.median(ratios["kill -9"]))
    verdict = f"mark for {TABLES[-1]} tables: x{MARK} or less: {'met' if worst <= MARK else 'NOT met'}"
    print(f"  median: first {statistics.median(firsts):.2f} s; restart after SIGTERM "
          f"x{statistics.median(ratios['SIGTERM']):.2f}, after kill -9 x{statistics.median(ratios['kill -9']):.2f} "
          f"of the same round's first start" + (f" ({verdict})" if tables == TABLES[-1] else ""))
