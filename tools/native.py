"""Compile the engine's hot path with mypyc, where a C compiler is: in the foreground for ``make test``, in the
background for ``make play``.

    .venv/bin/python -m tools.native               # build now (make test, make native), and say so
    .venv/bin/python -m tools.native --background  # make play: say what this start runs, and start a build
                                                   # at low priority if one is needed; returns at once

It compiles ``MODULES`` (see ``cardtui.native`` for why and how they are used) into a folder of its
own under ``<venv>/cardtui-native/builds/`` with a manifest of the engine's sources as they were,
checks that every module loads, and only then names it in ``<venv>/cardtui-native/current``, by an
atomic rename: a build killed half way, or one under way, is never used. One build at a time: each
holds ``build.lock``; a second one waits (the foreground) or leaves it to the first (the
background). Older builds are removed once no process holds them (``cardtui.native.hold``).

A whole build is also kept in the user's cache (``SHARED``: ``~/.cache/cardtui/native/``, at most ``KEPT`` of
them), named by everything that makes it what it is (``shared_key``: this Python, the sources' digests, how it is
compiled, mypy's version, the C compiler): a fresh clone of the same sources, or a new venv, takes it from there
instead of compiling again (about 90 s of CPU), and still checks that every module loads before naming it.

With no C compiler, or ``CARDTUI_PURE=1`` set, or a build that fails, it says so and exits 0: the
game runs as plain Python. A background build writes to ``build.log`` beside the builds; one that
failed is recorded in ``failed.json``, which the next start reports with the log's path, and is not
tried again in the background until the sources change (``make native`` tries it at once).

What is compiled is the truco engine's logic and state, Cacho's rules, the betting rounds, the meld
search and the rummy playouts, and the server's wire mapping and fan-out: not the records (events,
views, options: frozen dataclasses over ``engine.core``'s plain Python bases, which a compiled class
cannot extend).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import importlib.metadata
import io
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

from cardtui.native import BUILDS, COMPILED, CURRENT, DIR, IN_USE, OFF, PLACE, check, current, digests, let_go, sources
from tools import layout

MODULES = tuple(f"cardtui/{m}" for m in COMPILED)
"""What is compiled (``cardtui.native.COMPILED``, the one list). ``base`` and the states go together with
every game that extends them (paulista too): a plain Python class cannot extend a compiled one.
``history`` is every game's hand log (an entry per action) and the views' JSON (``jsonable``). On the server's path for
every act at every table: Cacho's rules and the betting rounds (Cacho, Pif Paf; Cacho's records
are ``engine.cacho.records``, plain Python), the wire mapping (each audience's view spliced
into bytes) and the fan-out (numbering, queues). Off the server's path but where the rummy games spend
their CPU: the meld search (``melds``, masks of bits: every Pif Paf and Cacheta bot, and the rules'
checks) and the rummy playouts (``bots/rummy_search``: Pif Paf's hard bets, and every Pif Paf and
Cacheta analysis), each about half the CPU compiled; and the searches of truco's and Cacho's normal and
hard bots and of their analysis (``bots/trucosim``, ``truco_worlds``, ``truco_search``, ``cacho_search``),
which every bot's turn at a truco or Cacho table runs: a hard bot's decision about 0.4 of its CPU; and the solve of
the envido's own game (``envido_game``), which hard's first decision at each new score of argentino heads-up makes
(about a sixth of its plain Python time compiled, with ``Flat``)."""
GROUP = "cardtui_native"
"""mypyc's shared library is ``cardtui_native__mypyc``, served by ``cardtui.native`` too."""


LOCK = "build.lock"
"""Held (``flock``, exclusive) by the one build under way, with its process id written in it."""
LOG = "build.log"
"""What the last background build printed, mypyc's and the C compiler's output included."""
FAILED = "failed.json"
"""The last build that failed: for which sources, why, and its log; removed when a build succeeds."""
KEEP = {BUILDS, CURRENT, LOCK, LOG, FAILED}
"""What belongs under ``DIR``; anything else there (a build of the days before ``builds/``) is removed."""
CACHE = "CARDTUI_NATIVE_CACHE"
"""Set to keep the shared builds elsewhere than the user's cache (the tests keep theirs in a folder of their own)."""
SHARED = Path(os.environ.get(CACHE) or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
              / "cardtui" / "native")
"""Whole builds kept across venvs and clones, each in a folder named by its ``shared_key``."""
KEPT = 3
"""How many builds ``SHARED`` keeps, the latest used (some 7 MB each)."""

VERIFY = """
import sys
from pathlib import Path
from cardtui import native
build = Path(sys.argv[1])
status = native.install(build)
assert status.startswith("compiled"), status
for name in native.check(build)[0] or {}:
    module = __import__(name, fromlist=["_"])
    assert Path(module.__file__).resolve().is_relative_to(build.resolve()), (name, module.__file__)
"""
"""Run in a process of its own on a build not yet named: every module it compiled loads from it, nothing else."""


def compiler() -> str | None:
    """The C compiler Python's build would call, if it is installed."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc)


def how() -> list[str]:
    """What is compiled, and how: a build made otherwise is made again."""
    return [*MODULES, f"-O{os.environ.get('MYPYC_OPT_LEVEL', '3')}", "multi_file"]


def key() -> str:
    """What a build is of: this Python, these sources, compiled this way (a failed build is not tried again for it)."""
    made_of = {"python": sys.version, "sources": digests(sources()), "compiled": how()}
    return hashlib.sha256(json.dumps(made_of, sort_keys=True).encode()).hexdigest()


def shared_key() -> str:
    """What a build in ``SHARED`` is of: ``key`` and what else makes its files (mypy's version, which writes the C,
    and the C compiler with its flags): a build taken from there is the one this venv would make."""
    made_with = {"key": key(), "mypy": importlib.metadata.version("mypy"), "cc": sysconfig.get_config_var("CC"),
                 "cflags": sysconfig.get_config_var("CFLAGS"), "env": [os.environ.get(v, "") for v in ("CC", "CFLAGS")]}
    return hashlib.sha256(json.dumps(made_with, sort_keys=True).encode()).hexdigest()[:32]


def take_shared(partial: Path, before: dict[str, str]) -> bool:
    """Copy the build ``SHARED`` keeps for these sources, made this way, into ``partial``; False if it keeps none."""
    kept = SHARED / shared_key()
    if _manifest(kept).get("sources") != before or _manifest(kept).get("compiled") != how():
        return False
    try:
        shutil.copytree(kept, partial, dirs_exist_ok=True)
        os.utime(kept)  # the latest used is the last removed (keep_shared)
    except OSError:
        return False
    return True


def keep_shared(build: Path) -> None:
    """Copy a build that loads into ``SHARED`` (copied aside, then renamed: a reader finds it whole or not at all),
    and remove all but the ``KEPT`` latest there. A cache that cannot be written costs the next clone a compile."""
    kept = SHARED / shared_key()
    aside = SHARED / f".{kept.name}-{os.getpid()}-{time.time_ns()}"
    try:
        if not kept.is_dir():
            shutil.copytree(build, aside, ignore=shutil.ignore_patterns(IN_USE))
            with contextlib.suppress(OSError):  # another build put it there first
                aside.rename(kept)
        os.utime(kept)  # (a copy has its source's times)
        entries = sorted((e for e in SHARED.iterdir() if not e.name.startswith(".")), key=lambda e: e.stat().st_mtime)
        for old in entries[:-KEPT]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass
    finally:
        shutil.rmtree(aside, ignore_errors=True)


def up_to_date(root: Path = DIR) -> bool:
    """Whether the build ``root`` names matches the sources and is compiled as ``how()`` says."""
    build = current(root)
    return build is not None and check(build)[0] is not None and _manifest(build).get("compiled") == how()


def build(root: Path = DIR) -> str:
    """Build under ``root`` and name the build there once it is whole and loads; the line to print."""
    return attempt(root)[0]


def attempt(root: Path = DIR) -> tuple[str, bool]:
    """As ``build``, and whether the build failed (and is recorded as failed)."""
    if os.environ.get(OFF):
        retire(root)
        return f"native: skipped ({OFF} is set): the engine runs as plain Python", False
    if compiler() is None:
        retire(root)
        return "native: no C compiler here: the engine runs as plain Python", False
    if up_to_date(root):
        return "native: the compiled engine is up to date", False
    t0 = time.monotonic()
    before = digests(sources())
    opt = os.environ.get("MYPYC_OPT_LEVEL", "3")  # mypyc's own variable: 0 builds faster
    (root / BUILDS).mkdir(parents=True, exist_ok=True)
    partial = root / BUILDS / f".partial-{os.getpid()}-{time.time_ns()}"
    work = partial / ".work"
    work.mkdir(parents=True)
    (partial / IN_USE).touch()
    reused = take_shared(partial, before)
    if reused:
        print(f"native: taking the build of these sources from {SHARED}", flush=True)
    else:
        print(f"native: compiling {len(MODULES)} modules into {partial}", flush=True)
        failure = compile_into(partial, work, opt)
        if failure:
            shutil.rmtree(partial, ignore_errors=True)
            unpublish(root)
            return failure, True
    shutil.rmtree(work)
    if digests(sources()) != before:
        shutil.rmtree(partial, ignore_errors=True)
        return "native: the sources changed during the build; run make again", False
    modules = {}
    for so in sorted(partial.rglob("*" + sysconfig.get_config_var("EXT_SUFFIX"))):
        rel = so.relative_to(partial)
        modules[".".join((*rel.parent.parts, so.name.split(".")[0]))] = rel.as_posix()
    manifest = {"python": sys.version, "sources": before, "modules": modules, "compiled": how()}
    (partial / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
    loads = subprocess.run([sys.executable, "-c", VERIFY, str(partial)], capture_output=True, text=True,
                           env=os.environ | {PLACE: str(partial / "none")})  # nothing but this build
    if loads.returncode:
        shutil.rmtree(partial, ignore_errors=True)
        if reused:  # not this venv's to use after all: forgotten, and compiled here
            shutil.rmtree(SHARED / shared_key(), ignore_errors=True)
            return attempt(root)
        unpublish(root)
        return f"native: the build does not load; the engine runs as plain Python\n{loads.stderr.strip()}", True
    if not reused:
        keep_shared(partial)
    name = time.strftime("%Y%m%d-%H%M%S-") + str(os.getpid())
    partial.rename(root / BUILDS / name)
    publish(root, name)
    prune(root)
    done = "took the build made before" if reused else f"compiled {len(MODULES)} modules"
    return f"native: {done} in {time.monotonic() - t0:.0f} s ({root / BUILDS / name})", False


def compile_into(partial: Path, work: Path, opt: str) -> str:
    """Compile ``MODULES`` into ``partial`` (mypyc, then the C compiler), with ``work`` for what is made on the way;
    "" once done, or the line saying why it failed, with the end of what mypyc and the compiler printed."""
    log = io.StringIO()
    try:
        tree = staged(work / "src")
        with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log), contextlib.chdir(tree):
            from mypyc.build import mypycify
            from setuptools import setup  # type: ignore[import-untyped]

            extensions = mypycify(list(MODULES), opt_level=opt, target_dir=str(work / "c"), group_name=GROUP,
                                  multi_file=True)
            with _every_core():
                setup(name="cardtui-native", ext_modules=extensions, script_args=[
                    "-q", "build_ext", "--build-lib", str(partial), "--build-temp", str(work / "o"),
                ])
    except (Exception, SystemExit) as err:  # a failed build leaves plain Python, and says why
        tail = "\n".join(log.getvalue().strip().splitlines()[-15:])
        return f"native: the build failed ({err!r}); the engine runs as plain Python\n{tail}"
    return ""


def publish(root: Path, name: str) -> None:
    """Name the whole build ``name`` as the one to use: a file written aside and renamed over ``current``, so a
    process reading it sees the old name or the new one, never a part of either."""
    aside = root / f".{CURRENT}-{os.getpid()}"
    aside.write_text(name + "\n")
    os.replace(aside, root / CURRENT)


def unpublish(root: Path) -> None:
    """Name no build: processes started from now on run plain Python (those running keep theirs)."""
    with contextlib.suppress(FileNotFoundError):
        (root / CURRENT).unlink()


def prune(root: Path) -> None:
    """Remove every build but the current one that no process holds, the half-made ones of killed builds, and
    anything else that does not belong under ``root``. Run by the one build that holds ``build.lock``."""
    keep = current(root)
    builds = root / BUILDS
    for entry in sorted(builds.iterdir()) if builds.is_dir() else []:
        if entry == keep:
            continue
        if entry.name.startswith("."):  # half made, by a build that no longer holds the lock
            shutil.rmtree(entry, ignore_errors=True)
            continue
        try:
            fd = os.open(entry / IN_USE, os.O_RDONLY)
        except OSError:
            shutil.rmtree(entry, ignore_errors=True)
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # a process uses it
            os.close(fd)
            continue
        gone = builds / f".gone-{entry.name}"
        entry.rename(gone)  # before the lock is let go: a process that takes it next finds no manifest there
        os.close(fd)
        shutil.rmtree(gone, ignore_errors=True)
    for entry in root.iterdir() if root.is_dir() else []:
        if entry.name not in KEEP and not entry.name.startswith(f".{CURRENT}-"):
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


def retire(root: Path) -> None:
    """No build is to be used here (no compiler, or ``CARDTUI_PURE``): name none, remove what no process holds,
    and ``root`` itself once empty."""
    unpublish(root)
    prune(root)
    for entry in (root / BUILDS, root):
        with contextlib.suppress(OSError):
            entry.rmdir()


@contextlib.contextmanager
def locked(root: Path, wait: bool) -> Iterator[IO[str] | None]:
    """``build.lock``, held (its file, with this process's id in it) or None where another build holds it and
    ``wait`` is false."""
    root.mkdir(parents=True, exist_ok=True)
    with (root / LOCK).open("a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            if not wait:
                yield None
                return
            print(f"native: waiting for the build under way (process {holder(root)}, log: {root / LOG})", flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        lock.truncate(0)
        lock.write(f"{os.getpid()}\n")
        lock.flush()
        yield lock


def holder(root: Path) -> str:
    """The process id the build under way wrote in ``build.lock``."""
    try:
        return (root / LOCK).read_text().strip() or "?"
    except OSError:
        return "?"


def under_way(root: Path) -> bool:
    """Whether a build holds ``build.lock`` now."""
    with locked(root, wait=False) as lock:
        return lock is None


def failed(root: Path) -> dict[str, str] | None:
    """The record of the last failed build, if it was of these sources, this Python and this way of compiling."""
    try:
        record: dict[str, str] = json.loads((root / FAILED).read_text())
    except (OSError, ValueError):
        return None
    return record if record.get("key") == key() else None


def record(root: Path, line: str, log: Path | None) -> None:
    """Keep what failed (the next start says so, with the log's path), or forget the last failure."""
    if log is None and not line:
        (root / FAILED).unlink(missing_ok=True)
        return
    aside = root / f".{FAILED}-{os.getpid()}"
    aside.write_text(json.dumps({"key": key(), "why": line.splitlines()[0], "log": str(log or "")}))
    os.replace(aside, root / FAILED)


def foreground(root: Path = DIR) -> str:
    """``make test``'s build: now, after any build under way, and said on the terminal."""
    with locked(root, wait=True):
        line, broke = attempt(root)
        record(root, line if broke else "", None)
    return line


def background(root: Path = DIR) -> str:
    """``make play``'s: what this start runs, in one line, and a build started at low priority if it needs one."""
    log = root / LOG
    if os.environ.get(OFF):
        return f"native: plain Python ({OFF} is set)"
    if compiler() is None:
        return "native: plain Python: no C compiler here"
    if up_to_date(root):
        return "native: this start runs the compiled engine (mypyc)"
    if under_way(root):
        return (f"native: plain Python this time: the compiled engine is being built in the background "
                f"(log: {log}); a later start uses it")
    if (failure := failed(root)) is not None:
        where = f"its log: {failure['log']}" if failure["log"] else "make native shows why"
        return f"native: plain Python: the compiled build failed ({failure['why']}); {where} (make native tries again)"
    command = [sys.executable, "-m", "tools.native", "--build-in-background"]
    if nice := shutil.which("nice"):
        command = [nice, "-n", "19", *command]
    subprocess.Popen(command, cwd=layout.ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)
    return (f"native: plain Python this time: the compiled engine is being built in the background at low priority, "
            f"some minutes (log: {log}); the next start uses it")


def background_build(root: Path = DIR) -> None:
    """The build ``background`` starts: alone (it leaves if another holds the lock), its output in the log, the
    compiler's too, and whatever the build needs from PyPI installed first (a venv ``make play`` made has only
    what playing needs)."""
    with locked(root, wait=False) as lock:
        if lock is None:
            return
        log = root / LOG
        with log.open("w") as out:
            os.dup2(out.fileno(), 1)
            os.dup2(out.fileno(), 2)
        print(f"native: {time.strftime('%Y-%m-%d %H:%M:%S')}: building in the background (process {os.getpid()})",
              flush=True)
        try:
            needs()
        except subprocess.CalledProcessError as err:
            record(root, f"native: what the build needs could not be installed ({err})", log)
            print("native: what the build needs could not be installed: the engine runs as plain Python", flush=True)
            return
        line, broke = attempt(root)
        print(line, flush=True)
        record(root, line if broke else "", log if broke else None)


def needs() -> None:
    """Install what the build needs and this venv lacks: mypy (mypyc) and the type stubs it checks the compiled
    modules' imports against, as pyproject.toml's dev tools pin them, and setuptools where this Python's venv has
    none. Only what is missing: pip upgrades nothing a running room was started on (its default strategy). Under
    the venv's setup lock (``tools.setup_venv``), so that no two pips write in it at once."""
    with (layout.ROOT / "pyproject.toml").open("rb") as f:
        project = tomllib.load(f)
    dev = project["project"]["optional-dependencies"]["dev"]
    wanted = [r for r in dev if re.match(r"(mypy|types-[\w.-]+)\s*([<>=!~;]|$)", r)] + ["setuptools"]
    missing = [r for r in wanted if not installed(re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0])]
    if not missing:
        return
    print(f"native: installing {', '.join(missing)} from PyPI", flush=True)
    with (Path(sys.prefix) / ".setup.lock").open("a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *missing], check=True)


def installed(distribution: str) -> bool:
    """Whether a distribution of that name is installed, in any version."""
    try:
        importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@contextlib.contextmanager
def _every_core() -> Iterator[None]:
    """The build's C files compiled side by side, one per core. mypyc writes a C file per module
    (``multi_file``); setuptools compiles an extension's files one after another, and the group's
    single file took some 45 s of one core while the others idled (``make test`` waits for it)."""
    from distutils import ccompiler

    def compile_all(self: Any, sources: list[str], output_dir: str | None = None, macros: Any = None,
                    include_dirs: Any = None, debug: bool = False, extra_preargs: Any = None,
                    extra_postargs: Any = None, depends: Any = None) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            src, ext = build[obj]
            self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(len(os.sched_getaffinity(0))) as pool:
            list(pool.map(one, objects))
        return list(objects)

    serial = ccompiler.CCompiler.compile
    ccompiler.CCompiler.compile = compile_all
    try:
        yield
    finally:
        ccompiler.CCompiler.compile = serial


def staged(tree: Path) -> Path:
    """A copy of the package's sources laid out as it is installed (``cardtui/engine/...``), with the
    project's mypy settings: mypyc names a module by the folders it sits in, and the repository keeps
    the package's parts in folders of their own (``tools.layout``)."""
    for package, folder in layout.folders().items():
        shutil.copytree(folder, tree.joinpath(*package.split(".")), dirs_exist_ok=True,
                        ignore=lambda _dir, names: [n for n in names if n == "__pycache__" or n.endswith(".so")])
    shutil.copy(layout.ROOT / "pyproject.toml", tree)
    return tree


def _manifest(out: Path) -> dict[str, object]:
    try:
        found: dict[str, object] = json.loads((out / "manifest.json").read_text())
    except (OSError, ValueError):
        return {}
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.native", description=__doc__.splitlines()[0])
    way = parser.add_mutually_exclusive_group()
    way.add_argument("--background", action="store_true",
                     help="say what this start runs, and start a build at low priority if one is needed")
    way.add_argument("--build-in-background", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    let_go()  # this process runs no game: the build it would hold may be replaced and removed
    if args.build_in_background:
        background_build()
    else:
        print(background() if args.background else foreground(), flush=True)


if __name__ == "__main__":
    main()
