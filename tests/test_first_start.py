"""The first ``make play``: it sets up only what playing needs and says so, starts on plain Python, and makes the
compiled build in the background, where no half-made, killed or replaced build is ever used (tools.native,
tools.setup_venv, cardtui.native)."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from cardtui import native
from tests.waiting import eventually_sync
from tools import layout
from tools import native as build_tool

ROOT = layout.ROOT


def environment(root: Path, **more: str) -> dict[str, str]:
    """This suite's environment, the builds kept under ``root``, and never ``CARDTUI_PURE`` unless asked."""
    env = {k: v for k, v in os.environ.items() if k != native.OFF}
    return env | {native.PLACE: str(root), "PYTHONPATH": str(ROOT)} | more


def fake_build(root: Path, name: str) -> Path:
    """A build folder as a build leaves it, its manifest matching today's sources, with an empty file for mypyc's
    shared library: a process uses it without importing any compiled module, so nothing is ever loaded from it."""
    build = root / native.BUILDS / name
    build.mkdir(parents=True)
    (build / native.IN_USE).touch()
    so = build / f"cardtui_native__mypyc{sysconfig.get_config_var('EXT_SUFFIX')}"
    so.write_bytes(b"")
    (build / "manifest.json").write_text(json.dumps({
        "python": sys.version, "sources": native.digests(native.sources()),
        "modules": {"cardtui_native__mypyc": so.name}, "compiled": build_tool.how(),
    }))
    return build


SAYS = "import cardtui.native as n; print(n.STATUS, n.current(), sep='|', flush=True)"


def what_a_start_runs(root: Path) -> tuple[str, str]:
    """What a process that starts now runs: its status, and the build ``current`` names."""
    out = subprocess.run([sys.executable, "-c", SAYS], capture_output=True, text=True, check=True,
                         env=environment(root), timeout=60).stdout.strip()
    status, build = out.split("|")
    return status, build


@contextmanager
def holding(path: Path) -> Iterator[IO[str]]:
    """The lock file at ``path`` held by this test, as another make or build would hold it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield lock


NO_MAKE = pytest.mark.skipif(shutil.which("make") is None, reason="no make here")


@NO_MAKE
def test_make_play_runs_neither_the_tools_nor_the_build_nor_debian() -> None:
    planned = subprocess.run(["make", "-n", "play"], cwd=ROOT, capture_output=True, text=True, check=True,
                             timeout=60).stdout
    assert "tools.setup_venv play" in planned and "tools.native --background" in planned
    assert "cardtui play" in planned
    for never in ("apt-get", "g++", "loadclient", ".[dev]", "setup_venv dev", "pytest"):
        assert never not in planned, (never, planned)
    assert [line for line in planned.splitlines() if "tools.native" in line] == [
        ".venv/bin/python -m tools.native --background"]


def test_a_build_is_used_only_once_named_whole_and_is_removed_only_once_no_process_holds_it(tmp_path: Path) -> None:
    fake_build(tmp_path, ".partial-1-1")  # whole, but never named: a build killed before it was checked
    assert what_a_start_runs(tmp_path)[0].startswith("plain Python: no compiled build")

    first = fake_build(tmp_path, "first")
    build_tool.publish(tmp_path, "first")
    assert sorted(p.name for p in tmp_path.iterdir()) == [native.BUILDS, native.CURRENT]  # nothing left aside
    holder = subprocess.Popen([sys.executable, "-c", SAYS + "; input()"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=environment(tmp_path))
    assert holder.stdout is not None
    try:
        status, used = holder.stdout.readline().strip().split("|")
        assert status == "compiled: 0 modules (mypyc)" and used == str(first)

        second = fake_build(tmp_path, "second")
        build_tool.publish(tmp_path, "second")
        assert what_a_start_runs(tmp_path) == ("compiled: 0 modules (mypyc)", str(second))
        build_tool.prune(tmp_path)
        assert first.is_dir()  # still used by the process that started on it
        assert not (tmp_path / native.BUILDS / ".partial-1-1").exists()
    finally:
        holder.communicate("\n", timeout=60)
    build_tool.prune(tmp_path)
    assert sorted(p.name for p in (tmp_path / native.BUILDS).iterdir()) == ["second"]


@pytest.mark.skipif(build_tool.compiler() is None, reason="no C compiler: make play builds nothing")
def test_a_background_build_killed_half_way_leaves_plain_python_and_the_lock_free(tmp_path: Path) -> None:
    dev = json.loads(subprocess.run([sys.executable, "-c", "import tomllib, json; print(json.dumps(tomllib.load("
                                     "open('pyproject.toml', 'rb'))['project']['optional-dependencies']['dev']))"],
                                    cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    if not all(build_tool.installed(r.split(">")[0]) for r in dev if r.startswith(("mypy>", "types-"))):
        pytest.skip("this venv lacks mypy or its stubs: the build would install them first")
    said = subprocess.run([sys.executable, "-m", "tools.native", "--background"], cwd=ROOT, capture_output=True,
                          text=True, check=True, env=environment(tmp_path), timeout=60).stdout
    assert said.startswith("native: plain Python this time") and str(tmp_path / build_tool.LOG) in said
    log = tmp_path / build_tool.LOG
    try:
        eventually_sync(lambda: log.is_file() and "native: compiling" in log.read_text(), "the build compiling")
        assert build_tool.under_way(tmp_path)
        again = subprocess.run([sys.executable, "-m", "tools.native", "--background"], cwd=ROOT, capture_output=True,
                               text=True, check=True, env=environment(tmp_path), timeout=60).stdout
        assert "is being built in the background" in again  # one build at a time: the second start starts none
    finally:  # the build this test started, killed half way (or left by a failed assertion)
        if build_tool.under_way(tmp_path):
            os.killpg(int(build_tool.holder(tmp_path)), signal.SIGKILL)
    eventually_sync(lambda: not build_tool.under_way(tmp_path), "the lock let go by the killed build")
    assert [p.name.startswith(".partial-") for p in (tmp_path / native.BUILDS).iterdir()] == [True]
    assert what_a_start_runs(tmp_path) == (
        "plain Python: no compiled build (make play builds one in the background where a C compiler is)", "None")
    build_tool.prune(tmp_path)  # what the next build does first
    assert list((tmp_path / native.BUILDS).iterdir()) == []


@pytest.mark.skipif(build_tool.compiler() is None, reason="no C compiler: make play builds nothing")
def test_a_failed_build_is_said_with_its_log_and_not_tried_again_for_the_same_sources(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.OFF, raising=False)
    log = tmp_path / build_tool.LOG
    tmp_path.mkdir(exist_ok=True)
    build_tool.record(tmp_path, "native: the build failed (SystemExit(1)); the engine runs as plain Python", log)
    said = build_tool.background(tmp_path)
    assert said == ("native: plain Python: the compiled build failed (native: the build failed (SystemExit(1)); the "
                    f"engine runs as plain Python); its log: {log} (make native tries again)")
    assert not build_tool.under_way(tmp_path)  # and no build was started
    build_tool.record(tmp_path, "", None)  # a build that succeeds forgets the failure
    assert build_tool.failed(tmp_path) is None


@NO_MAKE
def test_the_play_setup_says_what_it_does_and_waits_for_another_make(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    (venv / ".installed-play").touch()  # set up already: this make has nothing to install
    native_root = tmp_path / "native"
    with holding(native_root / build_tool.LOCK):  # a build under way: this start must say so and start none
        with holding(venv / ".setup.lock"):  # another make setting the venv up
            make = subprocess.Popen(["make", "--no-print-directory", "play-setup", f"VENV={venv}",
                                     f"BIN={Path(sys.executable).parent}"], cwd=ROOT, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, env=environment(native_root))
            assert make.stdout is not None
            assert make.stdout.readline() == f"make: another make is setting up {venv}: waiting for it\n"
        rest, _ = make.communicate(timeout=120)
    assert make.returncode == 0, rest
    lines = rest.splitlines()
    assert not any("making the virtual environment" in line or "installing" in line for line in lines), lines
    expected = ("native: plain Python: no C compiler here" if build_tool.compiler() is None else
                "native: plain Python this time: the compiled engine is being built in the background "
                f"(log: {native_root / build_tool.LOG}); a later start uses it")
    assert lines == [expected]


def test_a_foreground_build_waits_for_the_one_under_way_and_says_so(tmp_path: Path) -> None:
    with holding(tmp_path / build_tool.LOCK) as lock:
        lock.write("4242\n")
        lock.flush()
        pure = environment(tmp_path, **{native.OFF: "1"})  # so that, once let in, it builds nothing
        build = subprocess.Popen([sys.executable, "-m", "tools.native"], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                                 env=pure)
        assert build.stdout is not None
        assert build.stdout.readline() == (
            f"native: waiting for the build under way (process 4242, log: {tmp_path / build_tool.LOG})\n")
        assert build.poll() is None
    rest, _ = build.communicate(timeout=60)
    assert rest == f"native: skipped ({native.OFF} is set): the engine runs as plain Python\n"
    assert build.returncode == 0
