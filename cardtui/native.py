"""The hot path's compiled modules (mypyc), used only when built from the sources that are here now.

The engine and the server are ``mypy --strict`` Python, so mypyc (shipped with mypy) compiles
modules of theirs to C extensions (``tools.native`` lists them): a random truco action costs
about half the CPU, its match state being a C struct instead of a dict; the server's wire
mapping and fan-out run on every act at every table. ``make test`` builds them (``python -m
tools.native``) where a C compiler is present, and ``make play`` in the background, for the next
start; elsewhere, or with ``CARDTUI_PURE=1`` set, everything runs as plain Python, with the same
behaviour.

The builds go beside the interpreter, in ``<venv>/cardtui-native/``, never into the source
tree: an extension module sitting next to its ``.py`` would be imported in its place even
after the ``.py`` changed. Each build has a folder of its own under ``builds/``, and the file
``current`` names the one to use: a build is made in a folder no process reads, checked, and
only then named there, by renaming a file over ``current`` (atomic), so a process that starts
while a build is under way, or after one was killed half made, finds the last whole build or
none. A process keeps the folder it chose for its whole life, and holds a shared lock on its
``in-use`` file, so that the builder removes an older build only once no process uses it: the
compiled modules are imported lazily, and a build swapped under a running process would mix two.

A build's manifest holds a SHA-256 of every engine source at build time; ``install`` (run when
``cardtui`` is imported) serves the compiled modules only if all of them still match, and
otherwise none: compiled modules call each other directly, so a mix of old compiled code and
new Python would not be the program one reads. A stale build costs speed, never correctness;
``make`` rebuilds it.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # not POSIX (Windows): a build in use is not locked there (hold)
    fcntl = None

__all__ = ["COMPILED", "DIR", "OFF", "STATUS", "current", "digests", "hold", "install", "let_go", "part", "sources"]

OFF = "CARDTUI_PURE"
"""Set (to anything but empty) to run plain Python even where a build is present, and to skip the build."""
PLACE = "CARDTUI_NATIVE_DIR"
"""Set to keep the builds elsewhere than beside the interpreter: the tests build and switch in folders of their own."""
DIR = Path(os.environ.get(PLACE) or Path(sys.prefix) / "cardtui-native")
"""Where the builds live: beside the interpreter they were built for."""
BUILDS = "builds"
"""The folder under ``DIR`` that holds one folder per build; a half-made one's name starts with a dot."""
CURRENT = "current"
"""The file under ``DIR`` naming the build in use (a folder of ``BUILDS``), replaced whole, never edited."""
IN_USE = "in-use"
"""The file in a build's folder that each process using the build holds a shared lock on."""

STATUS = "plain Python: not imported yet"
"""What ``install`` found: ``compiled: ...`` or ``plain Python: <why>``."""


COMPILED = (
    *(f"engine/truco/{m}.py" for m in (
        "argentino/game", "argentino/checks", "argentino/envido", "argentino/flor", "argentino/state", "argentino/view",
        "base", "envido", "flor", "ladder", "tricks", "paulista/game", "paulista/state", "paulista/view",
    )),
    "engine/history.py",
    "engine/rummy/melds.py",
    "engine/rummy/bots/search.py",
    "engine/cacho/bots/search.py",
    "engine/truco/bots/sim.py",
    "engine/truco/bots/worlds.py",
    "engine/truco/bots/search.py",
    "engine/truco/bots/envido_game.py",
    "engine/betting.py",
    "engine/cacho/rules.py",
    "server/base/wire.py",
    "server/actor/fanout.py",
)
"""Every module the build compiles, by its path in the package: the one list (``tools.native`` compiles these,
``sources`` adds what they are built against). Why each is here: ``tools.native``'s ``MODULES``."""
SERVER = tuple(m.removeprefix("server/") for m in COMPILED if m.startswith("server/"))
"""The server's modules that are compiled (``tools.native``)."""
ENGINE = tuple(m.removeprefix("engine/") for m in COMPILED if m.startswith("engine/"))
"""The engine's modules that are compiled: the truco engine, the meld search, Cacho's rules and the betting rounds,
the rummy playouts (Pif Paf's and Cacheta's hard bots, and their analysis), and the searches of truco's and Cacho's
bots (every normal and hard turn at those tables, and their analysis), with the solve of the envido's own game that
hard's search makes at each new score of argentino heads-up."""


def part(name: str) -> Path:
    """Where the package's part ``name`` (``engine``, ``server``) is: its own top-level folder in a
    clone (the package maps it, see pyproject.toml), inside the package once installed from a wheel.
    Found without importing it, so that ``install`` can run before any of it is."""
    spec = importlib.util.find_spec(f"cardtui.{name}")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"cardtui.{name} is not installed")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def sources() -> dict[str, Path]:
    """The sources a build depends on, by their path in the package (``engine/truco/base.py``):
    the engine's modules, each family's folder included, but for the bots (a bot's module only where it is
    compiled), and the server's compiled ones."""
    engine, server = part("engine"), part("server")
    found = {f"engine/{p.relative_to(engine).as_posix()}": p for p in engine.rglob("*.py")
             if "bots" not in p.relative_to(engine).parts}
    found.update({f"engine/{m}": engine / m for m in ENGINE})
    found.update({f"server/{s}": server / s for s in SERVER})
    return dict(sorted(found.items()))


def digests(paths: Mapping[str, Path]) -> dict[str, str]:
    """Each source's SHA-256, by its path in the package."""
    return {name: hashlib.sha256(p.read_bytes()).hexdigest() for name, p in paths.items()}


class _Finder(importlib.abc.MetaPathFinder):
    """Serves the built extension modules (and mypyc's shared library) by module name."""

    def __init__(self, files: Mapping[str, Path]) -> None:
        self.files = dict(files)

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
                  ) -> ModuleSpec | None:
        file = self.files.get(name)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(name, str(file))
        return importlib.util.spec_from_file_location(name, file, loader=loader)


def check(directory: Path) -> tuple[dict[str, Path] | None, str]:
    """The compiled modules of the build in ``directory`` to serve (None: none) and why, without installing anything."""
    if os.environ.get(OFF):
        return None, f"plain Python: {OFF} is set"
    try:
        manifest = json.loads((directory / "manifest.json").read_text())
    except (OSError, ValueError):
        return None, "plain Python: no compiled build (make play builds one in the background where a C compiler is)"
    if manifest.get("python") != sys.version:
        return None, "plain Python: the build is for another Python"
    built: dict[str, str] = manifest.get("sources", {})
    now = digests(sources())
    changed = sorted(set(built) ^ set(now) | {k for k in built.keys() & now.keys() if built[k] != now[k]})
    if changed:
        return None, f"plain Python: {changed[0]} changed since the build (make rebuilds it)"
    files = {name: directory / rel for name, rel in manifest.get("modules", {}).items()}
    if not files or not all(f.is_file() for f in files.values()):
        return None, "plain Python: the build is incomplete"
    return files, f"compiled: {len(files) - 1} modules (mypyc)"


def current(root: Path = DIR) -> Path | None:
    """The folder of the build ``root/current`` names, or None where none is named."""
    try:
        name = (root / CURRENT).read_text().strip()
    except OSError:
        return None
    if not name or name.startswith(".") or "/" in name:
        return None
    return root / BUILDS / name


_HELD: list[int] = []
"""The descriptors of the ``in-use`` files this process holds, open until it ends."""


def hold(build: Path) -> bool:
    """Mark ``build`` used by this process for as long as it runs (a shared lock the builder's cleaning respects);
    False if the build was removed before the lock was taken, and then this process must not use it."""
    if fcntl is None:
        return (build / "manifest.json").is_file()
    try:
        fd = os.open(build / IN_USE, os.O_RDONLY)
    except OSError:
        return False
    fcntl.flock(fd, fcntl.LOCK_SH)
    if not (build / "manifest.json").is_file():  # removed (renamed away first) before the lock was ours
        os.close(fd)
        return False
    _HELD.append(fd)
    return True


def install(directory: Path | None = None) -> str:
    """Serve the compiled modules if the build (by default the one ``DIR/current`` names) matches the sources;
    returns (and keeps) what it found."""
    global STATUS
    build = directory if directory is not None else current()
    files, STATUS = check(build if build is not None else DIR / BUILDS / "none")
    if files is not None and build is not None and not hold(build):
        files, STATUS = None, "plain Python: the build was replaced while this process started"
    if files is not None and not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder(files))
    return STATUS


def let_go() -> bool:
    """Give up the build this process holds, if it imported nothing from it: the builder does, so as not to keep
    the build it replaces from being removed. True if it let go (the process then runs plain Python)."""
    global STATUS
    finders = [f for f in sys.meta_path if isinstance(f, _Finder)]
    if any(name in sys.modules for f in finders for name in f.files):
        return False
    for f in finders:
        sys.meta_path.remove(f)
    while _HELD:
        os.close(_HELD.pop())
    if finders:
        STATUS = "plain Python: let go of the build"
    return True
