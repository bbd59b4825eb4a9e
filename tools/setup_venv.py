"""``make``'s first step: the virtual environment, with what the target needs, and a line for each step that
takes time, so that a first start never sits silent for a minute.

    python3 -m tools.setup_venv play   # make play: cardtui and what it needs to run, nothing else
    python3 -m tools.setup_venv dev    # make test, check, lint, bench...: and the tools (pyproject's dev extra)

Run by the Python that makes the venv, before the venv exists, so it uses the standard library alone.
``play`` installs the packages playing needs (``pip install -e .``): the tools (mypy, ruff, pytest, the
type stubs, the benchmarks' peers) are several times their size, and ``make play`` starts the room before
any compiled build (``tools.native --background`` installs mypy for that one, later). ``dev`` does what
the Makefile did before, in the same order (a fresh pip, then ``.[dev]``). Each leaves its stamp in the
venv (``.installed-play``, ``.installed``); a venv made for ``dev`` serves ``play`` too.

Two ``make`` at once share the venv: each takes ``.venv/.setup.lock`` (``flock``) before it looks at the
stamps, and the second, having waited, finds the first one's work done.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STAMPS = {"play": (".installed-play", ".installed"), "dev": (".installed",)}
"""The stamps each kind writes (the first) and accepts (any), as the Makefile's ``$(STAMP)`` names the dev one."""

PLAY_ESTIMATE = "about 20 s, some 21 MB to download where pip's cache lacks them"
"""How long ``pip install -e .`` took in a fresh venv on a 2-core machine, with pip's cache and without
(bench/marks.md, "The first start"); a slow line adds the download's time."""
DEV_ESTIMATE = "about half a minute, more where pip's cache lacks them"
"""The same for ``.[dev]``: some 50 packages more, mypy, ruff and psycopg's binary among the largest."""


def say(line: str) -> None:
    print(f"make: {line}", flush=True)


@contextmanager
def locked(venv: Path) -> Iterator[None]:
    """The venv to this ``make`` alone while it is set up; says so when it has to wait for another."""
    venv.mkdir(parents=True, exist_ok=True)
    with (venv / ".setup.lock").open("a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            say(f"another make is setting up {venv}: waiting for it")
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def ready(venv: Path, kind: str, project: Path) -> bool:
    """Whether a stamp ``kind`` accepts is there, newer than pyproject.toml (as make would judge it)."""
    since = (project / "pyproject.toml").stat().st_mtime
    return (venv / "bin" / "python").exists() and any(
        (venv / stamp).exists() and (venv / stamp).stat().st_mtime >= since for stamp in STAMPS[kind])


def requirements(kind: str, project: Path) -> list[str]:
    """The names of the packages pyproject.toml asks for, for ``kind``."""
    with (project / "pyproject.toml").open("rb") as f:
        table = tomllib.load(f)["project"]
    wanted = list(table["dependencies"])
    if kind == "dev":
        wanted += table["optional-dependencies"]["dev"]
    names = dict.fromkeys(str(re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0]) for r in wanted)
    return list(names)


def pip(python: Path, *args: str) -> None:
    """``pip`` with its output kept; on a terminal its latest line shown in place, so the wait visibly moves;
    all of it printed if pip fails."""
    shown = sys.stdout.isatty()
    width = shutil.get_terminal_size().columns - 6
    kept: list[str] = []
    env = os.environ | {"PYTHONWARNINGS": "ignore:Editable installation", "PIP_PROGRESS_BAR": "off"}
    with subprocess.Popen([str(python), "-m", "pip", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env) as run:
        assert run.stdout is not None
        for line in run.stdout:
            kept.append(line)
            if shown and line.strip() and not line.startswith("WARNING"):
                print(f"\r\033[K      {line.strip()[:width]}", end="", flush=True)
    if shown:
        print("\r\033[K", end="", flush=True)
    if run.returncode:
        sys.stdout.writelines(kept)
        say(f"pip failed (exit {run.returncode}): its output is above")
        raise SystemExit(run.returncode)


def setup(kind: str, venv: Path, project: Path) -> None:
    with locked(venv):
        if ready(venv, kind, project):
            return
        t0 = time.monotonic()
        python = venv / "bin" / "python"
        if not python.exists() or not (venv / "bin" / "pip").exists():  # none, or one whose making was cut short
            say(f"making the virtual environment in {venv} (a few seconds)")
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        if kind == "dev":
            say("bringing pip up to date")
            pip(python, "install", "--quiet", "--upgrade", "pip")
        names = requirements(kind, project)
        shown = ", ".join(names[:6])
        what = "cardtui's" if kind == "play" else "cardtui's and its tools'"
        say(f"installing {what} {len(names)} packages and theirs from PyPI ({shown}...): "
            f"{PLAY_ESTIMATE if kind == 'play' else DEV_ESTIMATE}")
        pip(python, "install", "-e", "." if kind == "play" else ".[dev]")
        (venv / STAMPS[kind][0]).touch()
        say(f"{venv} is ready, in {time.monotonic() - t0:.0f} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python3 -m tools.setup_venv", description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(STAMPS))
    parser.add_argument("--venv", default=".venv", type=Path)
    args = parser.parse_args(argv)
    setup(args.kind, args.venv, Path.cwd())


if __name__ == "__main__":
    main()
