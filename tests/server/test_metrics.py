"""The server's figures (``cardtui serve --metrics-port``), scraped over HTTP from a real server in its default
arrangement (table workers) while a game is played: each figure is there and moves, the workers' ones too, and a
worker killed -9 shows as a takeover."""

from __future__ import annotations

import asyncio
import os
import signal
import urllib.request
from collections import defaultdict
from pathlib import Path

import grpc
import psutil
import pytest
from prometheus_client.parser import text_string_to_metric_families

from cardtui.client.connection import Connection
from cardtui.v1 import common_pb2, lobby_pb2
from tests import forked
from tests.arrangements import SERVE, Person, listening
from tests.waiting import eventually_async

A = common_pb2.ActionType
Figures = dict[str, dict[tuple[tuple[str, str], ...], float]]


def scrape(url: str) -> Figures:
    """Every sample on the page, by name, then by its labels (the process's left out: summed over processes)."""
    with urllib.request.urlopen(url, timeout=30) as page:
        assert page.headers["Content-Type"].startswith("text/plain")
        text = page.read().decode()
    found: Figures = defaultdict(lambda: defaultdict(float))
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "process"))
            found[sample.name][labels] += sample.value
    return found


def processes(url: str) -> set[str]:
    with urllib.request.urlopen(url, timeout=30) as page:
        text = page.read().decode()
    return {s.labels["process"] for f in text_string_to_metric_families(text) for s in f.samples}


def one(figures: Figures, name: str, **labels: str) -> float:
    return figures.get(name, {}).get(tuple(sorted(labels.items())), 0.0)


async def scraped(url: str) -> Figures:
    return await asyncio.to_thread(scrape, url)


@pytest.mark.xdist_group("metrics")
async def test_the_figures_move_during_a_game_across_the_table_workers(tmp_path: Path) -> None:
    served, port = forked.serve(["--port", "0", "--db", str(tmp_path / "store.db"), *SERVE, "--workers", "2",
                                 "--metrics-port", "0"], tmp_path / "server.log")
    lobby = f"127.0.0.1:{port}"
    url = served.line.split(" · metrics: ", 1)[1].split()[0]
    maker = Connection.open(lobby)
    ana = Person(Connection.open(lobby), "ana")
    try:
        assert url.startswith("http://127.0.0.1:"), served.line
        assert await asyncio.to_thread(processes, url) == {"front", "worker-1", "worker-2"}
        before = await scraped(url)
        assert one(before, "cardtui_analysis_queue") == 0
        assert one(before, "cardtui_streams_open") == 0

        made = await maker.create(lobby_pb2.CreateTableRequest(game="truco_argentino", seats=2, bots=1,
                                                               bot_levels=["easy"]))
        await ana.sit(made.id)
        ana.follow()
        await ana.until(lambda p: p.legal(A.ACTION_TYPE_MAZO) is not None, "ana may go to the deck")
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await ana.conn.act(ana.token, common_pb2.Action(type=A.ACTION_TYPE_MAZO), seen_seq=10**9)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        await ana.act(A.ACTION_TYPE_MAZO)
        await ana.until(lambda p: p.view is not None and p.view.hand_over, "the hand's end")

        during = await scraped(url)
        assert one(during, "cardtui_tables", game="truco_argentino") == 1
        assert one(during, "cardtui_seats_taken", game="truco_argentino") == 1
        assert one(during, "cardtui_streams_open") >= 1
        assert one(during, "cardtui_acts_total", game="truco_argentino") >= 1
        assert one(during, "cardtui_refusals_total", kind="invalid_argument") == 1
        assert one(during, "cardtui_journal_write_seconds_count") > one(before, "cardtui_journal_write_seconds_count")
        assert one(during, "cardtui_journal_write_seconds_bucket", le="+Inf") == one(
            during, "cardtui_journal_write_seconds_count")

        # the worker driving the table killed -9: another takes the table over, and the page says so
        worker_port = int(ana.joined.address.rsplit(":", 1)[1]) if ana.joined and ana.joined.address else 0
        workers = psutil.Process(served.pid).children(recursive=True)
        driving = next(w.pid for w in workers if worker_port in listening(w.pid))
        os.kill(driving, signal.SIGKILL)

        async def taken_over() -> bool:
            now = await scraped(url)
            return one(now, "cardtui_takeovers_total") >= 1 and one(now, "cardtui_tables", game="truco_argentino") == 1

        await eventually_async(taken_over, "a takeover counted and the table back on the page")
    finally:
        await ana.close()
        await maker.close()
        served.terminate()
        served.wait(timeout=30)
