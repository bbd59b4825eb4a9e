"""The server's figures (``cardtui serve --metrics-port``), scraped over HTTP from a real server in its default
arrangement (table workers) while a game is played: each figure is there and moves, the workers' ones too, every
process has its memory and CPU, and a worker killed -9 shows as a restart and a takeover while what it counted
stays (no counter of the room goes back, none vanishes)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
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
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "operating.md"


def alert_rules() -> str:
    """The alert rules docs/operating.md gives, as an operator would save them."""
    return next(block for block in re.findall(r"```yaml\n(.*?)```", GUIDE.read_text(), re.S)
                if block.startswith("groups:"))


def named_in_rules() -> set[str]:
    """The server's figures the rules' expressions name (``up`` is Prometheus's own)."""
    return set(re.findall(r"\b((?:cardtui|process)_\w+)", " ".join(re.findall(r"expr: (.*)", alert_rules()))))
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


def processes(url: str, name: str = "") -> set[str]:
    """The processes the page has samples of (of the family ``name``, if given)."""
    with urllib.request.urlopen(url, timeout=30) as page:
        text = page.read().decode()
    return {s.labels["process"] for f in text_string_to_metric_families(text) for s in f.samples
            if not name or f.name == name}


def per_process(url: str, name: str) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    """The samples of ``name`` on the page, by process, then by their other labels."""
    with urllib.request.urlopen(url, timeout=30) as page:
        text = page.read().decode()
    found: dict[str, dict[tuple[tuple[str, str], ...], float]] = defaultdict(dict)
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "process"))
                found[sample.labels["process"]][labels] = sample.value
    return found


def tree(pid: int) -> list[tuple[int, float]]:
    """A process and all its descendants, each with its start (seconds since the epoch), as the system says."""
    top = psutil.Process(pid)
    return sorted((p.pid, round(p.create_time(), 1)) for p in [top, *top.children(recursive=True)])


async def the_page_matches_the_process_tree(url: str, pid: int) -> None:
    """Every process of the host is on the page, once, and nothing else: the page's processes, told by their start
    (``process_start_time_seconds``), are the real tree's (looked at before and after the page, and again if a
    process started or ended meanwhile)."""
    seen: list[object] = []

    async def matching() -> bool:
        before = await asyncio.to_thread(tree, pid)
        started = await asyncio.to_thread(per_process, url, "process_start_time_seconds")
        if before != await asyncio.to_thread(tree, pid):
            return False  # a pool's process came or went meanwhile: look again
        on_page = sorted(round(v, 1) for labels in started.values() for v in labels.values())
        seen[:] = [sorted(started), before]
        # (a worker too busy to answer within the page's time is left out of that page: the next is looked at)
        return len(started) == len(before) and on_page == sorted(t for _, t in before)

    try:
        await eventually_async(matching, "the page and the process tree alike")
    except AssertionError as e:
        raise AssertionError(f"{e}: the page's processes and the tree's, last seen: {seen}") from None


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
        servers = {"front", "worker-1", "worker-2"}
        assert servers <= await asyncio.to_thread(processes, url)
        assert servers <= await asyncio.to_thread(processes, url, "process_resident_memory_bytes")
        assert await asyncio.to_thread(processes, url, "cardtui_store_up") == servers
        before = await scraped(url)
        assert one(before, "cardtui_analysis_queue") == 0
        assert one(before, "cardtui_streams_open") == 0
        assert one(before, "cardtui_store_up") == 3
        assert one(before, "cardtui_worker_restarts_total") == 0
        assert one(before, "process_open_fds") > 0

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
        await the_page_matches_the_process_tree(url, served.pid)
        shown = await asyncio.to_thread(processes, url, "process_resident_memory_bytes")
        assert {"front-forkserver", "front-resource-tracker", "worker-1-forkserver", "worker-2-forkserver"} <= shown
        assert named_in_rules() and named_in_rules() <= set(during), named_in_rules() - set(during)
        memory = await asyncio.to_thread(processes, url, "process_resident_memory_bytes")
        assert {"worker-1-bots-1", "worker-2-bots-1"} & memory, memory  # the bots' process that played, too
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
        counted = await scraped(url)
        drove = {process for process, samples in (await asyncio.to_thread(per_process, url, "cardtui_tables")).items()
                 if samples.get((("game", "truco_argentino"),)) == 1}
        assert len(drove) == 1 and next(iter(drove)).startswith("worker-"), drove
        place = drove.pop()
        os.kill(driving, signal.SIGKILL)

        async def restarted() -> Figures | None:
            now = await scraped(url)
            # the dead worker's place: its table reads 0 on every page from the kill on (dead, then its replacement
            # driving none), never a gap
            tables = (await asyncio.to_thread(per_process, url, "cardtui_tables")).get(place, {})
            assert tables.get((("game", "truco_argentino"),)) == 0, tables
            return now if one(now, "cardtui_worker_restarts_total") == 1 else None

        dead = await eventually_async(restarted, "the worker's death counted")
        for name, labels in (("cardtui_acts_total", {"game": "truco_argentino"}),
                             ("cardtui_refusals_total", {"kind": "invalid_argument"}),
                             ("cardtui_journal_write_seconds_count", {})):
            assert one(dead, name, **labels) >= one(counted, name, **labels) > 0, name  # kept where it outlives it

        async def taken_over() -> bool:
            now = await scraped(url)
            return one(now, "cardtui_takeovers_total") >= 1 and one(now, "cardtui_tables", game="truco_argentino") == 1

        await eventually_async(taken_over, "a takeover counted and the table back on the page")

        async def replaced_holds_none() -> bool:
            seats = (await asyncio.to_thread(per_process, url, "cardtui_seats_taken")).get(place, {})
            if not seats:  # its replacement lives and said nothing within the scrape's wait (a busy host): left out
                return False
            assert seats.get((("game", "truco_argentino"),)) == 0, seats
            return True

        await eventually_async(replaced_holds_none, "the dead worker's place holding no seat")
        await the_page_matches_the_process_tree(url, served.pid)  # the replacement and its helpers too
    finally:
        await ana.close()
        await maker.close()
        served.terminate()
        served.wait(timeout=30)


def test_the_guide_s_alert_rules_load_in_promtool(tmp_path: Path) -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool (Prometheus's checker: Debian's prometheus package) is not installed here; the figures "
                    "the rules name are checked against a real server's page all the same")
    rules = tmp_path / "cardtui-rules.yml"
    rules.write_text(alert_rules())
    checked = subprocess.run([promtool, "check", "rules", str(rules)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"SUCCESS: {alert_rules().count('- alert:')} rules found" in checked.stdout


def test_a_counters_file_a_starting_worker_has_just_made_is_read_as_nothing_yet(tmp_path: Path) -> None:
    """A worker's place keeps its counters in files the front reads at each scrape; a replacement worker makes its
    file as it starts, empty for a moment. A scrape then reads the counters the place kept (the dead worker's), not
    an error: it failed the whole page (HTTP 500) before."""
    from cardtui.server.base.metrics import counted

    kept = subprocess.run([sys.executable, "-c", (
        "import os, sys; os.environ['PROMETHEUS_MULTIPROC_DIR'] = sys.argv[1]\n"
        "from prometheus_client import Counter\n"
        "Counter('cardtui_acts', 'acts', ['game']).labels('truco_argentino').inc(3)\n"), str(tmp_path)],
        capture_output=True, text=True, timeout=60)
    assert kept.returncode == 0, kept.stderr
    (tmp_path / "counter_999999.db").touch()  # the replacement's file, made a moment ago
    samples = [s for family in counted(str(tmp_path)) for s in family.samples if s.name == "cardtui_acts_total"]
    assert [(s.labels, s.value) for s in samples] == [({"game": "truco_argentino"}, 3.0)], samples
