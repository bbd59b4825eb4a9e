"""What an operator runs the server with: the ready notification systemd waits for (a real unix datagram socket),
the unit in docs/ (checked by ``systemd-analyze verify`` where it is installed), and the log file (its rotation,
its table workers' lines, repeated failures said once per kind)."""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cardtui.cli import parser
from cardtui.server import logfile
from cardtui.server.clock import ManualClock
from cardtui.server.systemd import notify
from tests import forked
from tests.arrangements import SERVE
from tests.waiting import PATIENCE, eventually_sync

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "docs" / "cardtui.service"
CARDTUI = Path(sys.executable).parent / "cardtui"


def received(sock: socket.socket) -> str:
    sock.settimeout(PATIENCE)
    return sock.recv(4096).decode()


def test_the_server_says_ready_on_the_notify_socket_once_it_listens(tmp_path: Path) -> None:
    where = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(where))
        env = {**os.environ, "NOTIFY_SOCKET": str(where)}
        server = subprocess.Popen([str(CARDTUI), "serve", "--port", "0", "--db", str(tmp_path / "store.db"), *SERVE,
                                   "--workers", "2"], env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            said = dict(line.split("=", 1) for line in received(sock).splitlines())
            assert said["READY"] == "1" and said["MAINPID"] == str(server.pid), said
            port = int(said["STATUS"].split()[3].rsplit(":", 1)[1])
            with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE):
                pass  # it listens when it says it is ready
            server.send_signal(signal.SIGTERM)
            assert received(sock) == "STOPPING=1"
            assert server.wait(timeout=PATIENCE) == 0
        finally:
            server.kill()
            server.wait()


def test_notify_sends_nothing_outside_systemd_and_reaches_an_abstract_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not notify("READY=1")
    name = f"cardtui-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify("READY=1")
        assert received(sock) == "READY=1"


def test_the_unit_file_says_what_the_server_needs() -> None:
    unit = UNIT.read_text()
    for setting in ("Type=notify", "Restart=on-failure", "KillMode=mixed", "TimeoutStartSec=", "--log-file",
                    "--metrics-port"):
        assert setting in unit, setting
    assert "docs/cardtui.service" in (ROOT / "docs" / "operating.md").read_text()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    """The unit as docs/ gives it, its ExecStart pointed at this checkout's cardtui (verify checks that it runs)."""
    unit = tmp_path / "cardtui.service"
    unit.write_text(UNIT.read_text().replace("/opt/cardtui/.venv/bin/cardtui", str(CARDTUI)))
    checked = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=120,
                             check=False)
    problems = [line for line in checked.stderr.splitlines() if "cardtui.service" in line]
    assert checked.returncode == 0 and not problems, checked.stderr


def test_the_log_file_holds_the_table_workers_lines(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "server.log"
    served, _port = forked.serve(["--port", "0", "--db", str(tmp_path / "store.db"), *SERVE, "--log-level", "info",
                                  "--workers", "2", "--log-file", str(log)], tmp_path / "stderr.log")
    try:
        eventually_sync(lambda: "a table worker serving" in (log.read_text() if log.exists() else ""),
                        "a worker's line in the front's log file")
        said = log.read_text()
        assert " INFO cardtui.workers table worker 1 serving" in said
        # A worker's line is formatted once, by the front: its level and logger are not said twice.
        assert " INFO cardtui.server a table worker serving on " in said
        assert "INFO:cardtui" not in said
    finally:
        served.terminate()
        served.wait(timeout=PATIENCE)
    assert "Traceback" not in (tmp_path / "stderr.log").read_text()


@pytest.mark.parametrize("max_mb", [1, 0.25])
def test_the_log_file_rotates(tmp_path: Path, max_mb: float) -> None:
    """At whole megabytes or a fraction of one (``--log-max-mb 0.25``)."""
    handler = logfile.rotating(str(tmp_path / "server.log"), max_mb=max_mb, backups=2)
    handler.setFormatter(logging.Formatter(logfile.FORMAT))
    try:
        line = logging.LogRecord("cardtui.test", logging.INFO, __file__, 1, "x" * 1000, (), None)
        for _ in range(int(3 * 1100 * max_mb)):  # over three files' worth: the oldest is dropped
            handler.emit(line)
    finally:
        handler.close()
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == ["server.log", "server.log.1", "server.log.2"]
    assert all(p.stat().st_size <= max_mb * 1024 * 1024 for p in tmp_path.iterdir())
    assert any(p.stat().st_size > max_mb * 1024 * 1024 * 0.9 for p in tmp_path.iterdir())


def test_log_max_mb_takes_a_fraction_within_its_bounds(tmp_path: Path) -> None:
    args = parser().parse_args(["serve", "--log-max-mb", "0.5"])
    assert args.log_max_mb == 0.5
    assert logfile.setup("info", str(tmp_path / "x.log"), 0.001, 5) == "--log-max-mb must be between 0.01 and 100000."


async def test_repeated_failures_are_said_once_per_kind_with_a_count() -> None:
    clock = ManualClock()
    repeats = logfile.Repeats(every=2.0, clock=clock)

    def record(message: str, level: int = logging.ERROR, *args: object) -> logging.LogRecord:
        return logging.LogRecord("cardtui.store", level, __file__, 1, message, args, None)

    assert repeats.filter(record("the store is out of reach: %s", logging.ERROR, "a"))
    left_out = sum(not repeats.filter(record("the store is out of reach: %s", logging.ERROR, "b"))
                   for _ in range(1000))
    assert left_out == 1000
    assert repeats.filter(record("another failure"))  # another kind is said at once
    assert all(repeats.filter(record("a warning", logging.WARNING)) for _ in range(10))  # not failures: all said
    early = record("the store is out of reach: %s", logging.ERROR, "c")
    await clock.advance(1.9)  # not yet two seconds on: still held back
    assert not repeats.filter(early)
    await clock.advance(0.2)  # the window has passed: the next line of the kind says how many were left out
    later = record("the store is out of reach: %s", logging.ERROR, "c")
    assert repeats.filter(later)
    assert "the store is out of reach: c (and" in later.getMessage() and "more like it" in later.getMessage()
