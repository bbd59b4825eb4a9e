"""The package's layout, as pyproject.toml maps it: which folder holds each part of ``cardtui``.

The repository keeps the parts the project is known by in top-level folders (``engine/``,
``server/``, ``client/``) and the package root in ``cardtui/``; setuptools maps each folder to its
place in the one package (``[tool.setuptools.package-dir]``), for a wheel and for an editable
install alike. Tools that read files rather than import them (mypy, the import contracts, the
compiled build) are told the same mapping from here, so there is one table and no links.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "cardtui"


@cache
def _setuptools() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        found: dict[str, object] = tomllib.load(f)["tool"]["setuptools"]
    return found


def folders() -> dict[str, Path]:
    """Each mapped package and its folder: ``{"cardtui": ROOT/"cardtui", "cardtui.engine": ROOT/"engine", ...}``."""
    mapping = _setuptools()["package-dir"]
    assert isinstance(mapping, dict)
    return {str(name): ROOT / str(folder) for name, folder in mapping.items()}


def listed_packages() -> list[str]:
    """The packages a wheel carries, as pyproject.toml lists them."""
    listed = _setuptools()["packages"]
    assert isinstance(listed, list)
    return [str(p) for p in listed]


def folder_of(package: str) -> Path:
    """Where ``package`` (a package of cardtui, mapped or nested in a mapped one) lives."""
    mapped = folders()
    best = max((name for name in mapped if package == name or package.startswith(name + ".")), key=len)
    return mapped[best].joinpath(*package[len(best):].split(".")[1:])


def packages() -> list[str]:
    """Every package found on disk: each mapped folder and its folders that hold an ``__init__.py``."""
    found: set[str] = set()
    for name, path in folders().items():
        found.add(name)
        found.update(".".join([name, *init.parent.relative_to(path).parts])
                     for init in path.rglob("*/__init__.py"))
    return sorted(found)


def modules() -> dict[str, Path]:
    """Every module of the package by name, with its file (a package by its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for package in packages():
        folder = folder_of(package)
        for file in sorted(folder.glob("*.py")):
            found[package if file.name == "__init__.py" else f"{package}.{file.stem}"] = file
    return dict(sorted(found.items()))


def _enclosing(name: str) -> list[str]:
    """The packages a fresh interpreter imports, in order, before ``name`` itself: ``a``, ``a.b`` for ``a.b.c``."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def imported_alone(names: list[str]) -> dict[str, str]:
    """Import each module as a fresh interpreter would, in a process in which no module of the package was
    imported before but the packages that enclose it; what failed, with the last line of its error.

    A fresh interpreter asked for ``cardtui.engine.truco.game`` imports ``cardtui``, then ``cardtui.engine``, then
    ``cardtui.engine.truco``, each whole and each before the next starts, and only then the module itself: the
    state in which a module's own import starts is the one its enclosing package's import left. So the check is a
    tree of processes, each forked from the one that imported the package above it: a process imports one package,
    then forks a child for each module asked for in it (the child imports that module and ends) and a process of
    the same kind for each package in it. A package whose import fails fails every module in it, as it does in a
    fresh interpreter; a module the package's own import loaded imports there because the package did, as it does
    in a fresh interpreter too. A module that imports only because another module of the package happened to be
    imported first (a circle, or a name another module brought) fails here as it does in a fresh interpreter: before
    the module it checks, a process has imported nothing of the package but the packages that enclose it (and what
    their own imports loaded). Each package's import (``cardtui``'s with its check of the compiled build,
    ``cardtui.engine.games`` with every game) then runs once, not once for each module in it: the children's CPU
    went from 16.7 to 10.5 s (bench/marks.md, "make test's nineteenth round").

    Every module and name the package imports from other packages (``textual.widgets``'s ``Footer``, say, which
    Textual loads when first read) is loaded once first, in the process all others are forked from: that makes
    the check a matter of seconds. As many imports run at once as there are cores (one after another, the 330
    modules took 99 s on a busy machine; two at a time, 77 s): a process holds one of that many tokens while it
    imports (``tokens``) and gives it back before it ends or forks anything."""
    import gc
    import importlib
    import os
    import select
    import sys
    import tempfile
    import traceback

    from tools.imports import external

    def ours() -> set[str]:
        return {m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")}

    known = modules()
    assert not ours(), "the package is loaded already"
    for other, name in sorted(external(known), key=lambda imported: (imported[0], imported[1] or "")):
        try:
            loaded = importlib.import_module(other)
            if name is not None and name != "*" and not hasattr(loaded, name):
                importlib.import_module(f"{other}.{name}")  # a submodule, or a name loaded when first read
        except Exception:
            continue
    assert not ours(), "another package loaded this one"

    asked = list(dict.fromkeys(names))
    enclosing = {package for name in asked for package in _enclosing(name)}
    within: dict[str, list[str]] = {}
    """Each package (``""``: the top) and what is checked directly in it: its modules and its packages."""
    for name in sorted({*asked, *enclosing}):
        within.setdefault(name.rpartition(".")[0], []).append(name)
    tokens, give = os.pipe()
    os.write(give, b"." * (os.cpu_count() or 1))
    os.set_blocking(tokens, False)
    said_fd, said_path = tempfile.mkstemp(prefix="imported-alone-")
    os.close(said_fd)
    said = os.open(said_path, os.O_WRONLY | os.O_APPEND)
    """What failed, a line each (``name``, a tab, why), appended by the process that forked the one that failed."""
    returned = b"+"
    """A child's first word on its pipe: it gave its token back (else its parent does, when it reaps it)."""

    def serve(package: str) -> None:
        """Check what is asked for in ``package``, which this process has imported (``""``: none)."""
        running: dict[int, tuple[str, int]] = {}
        """Each child in flight: what it imports, and the pipe it writes to its parent."""

        def reap(block: bool) -> bool:
            pid, status = os.waitpid(-1, 0 if block else os.WNOHANG)
            if pid == 0:
                return False
            name, read = running.pop(pid)
            with os.fdopen(read, "rb") as pipe:
                word = pipe.read()
            if not word.startswith(returned):
                os.write(give, b".")
            if status != 0:
                why = word.removeprefix(returned).decode(errors="replace") or f"exit status {status}"
                why = " ".join(why.split())[:1000]
                failed = [each for each in asked if each == name or each.startswith(name + ".")]
                os.write(said, "".join(f"{each}\t{why}\n" for each in failed).encode())
            return True

        def token() -> None:
            """Wait for a token; reap meanwhile (a child that died outright never gave its own back)."""
            while True:
                if select.select([tokens], [], [], 0.1)[0]:
                    try:
                        os.read(tokens, 1)
                        return
                    except BlockingIOError:  # another process took it
                        pass
                while running and reap(block=False):
                    pass

        for name in within.get(package, []):
            token()
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                code = 0
                try:
                    os.close(read)
                    try:
                        importlib.import_module(name)
                    except BaseException:
                        why = traceback.format_exc().strip().splitlines()[-1]
                        code = 1
                    else:
                        why = ""
                    os.write(give, b".")
                    os.write(write, returned + why.encode())
                    if code == 0 and name in within:
                        os.close(write)
                        gc.freeze()  # what was loaded out of the collector's sight: the children do not walk it
                        serve(name)
                except BaseException:
                    code = 2
                finally:
                    os._exit(code)
            os.close(write)
            running[pid] = (name, read)
        while running:
            reap(block=True)

    gc.freeze()  # what was loaded out of the collector's sight: a child's collections walk only what its import makes
    gc.disable()  # every process here imports and ends: nothing for the collector to do
    try:
        serve("")
        with open(said_path) as lines:
            return dict(line.rstrip("\n").split("\t", 1) for line in lines)
    finally:
        os.close(said)
        os.unlink(said_path)
        os.close(tokens)
        os.close(give)


if __name__ == "__main__":
    import json
    import sys

    if sys.argv[1:2] != ["imports"]:
        sys.exit("usage: python -m tools.layout imports [MODULE ...]")
    sys.exit(print(json.dumps(imported_alone(sys.argv[2:] or list(modules())), indent=1)) or 0)
