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


def imported_alone(names: list[str]) -> dict[str, str]:
    """Import each module in a process of its own in which no module of the package was imported
    before; what failed, with the last line of its error. Every module and name the package imports
    from other packages (``textual.widgets``'s ``Footer``, say, which Textual loads when first read)
    is loaded once first and the processes forked from that one, which makes the check a matter of
    seconds: a module that imports only because another was imported first (a circle)
    fails here as it does in a fresh interpreter. As many children run at once as there are cores
    (one after another, the 330 modules took 99 s on a busy machine; two at a time, 77 s).

    The package's own ``__init__`` (and what it loads: ``cardtui.native``, which checks the compiled build
    against the sources) runs whole before any module of the package does, in a fresh interpreter as
    here: so it runs once, in a child of its own that says what it loaded, and the modules of the package
    it did not load are then forked from a parent that has loaded it too (its check took a fifth of each
    child's CPU). What it loaded, and every module outside the package (the benches), are still forked
    from the parent that has loaded nothing of the package."""
    import gc
    import importlib
    import os
    import sys
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
    # what was loaded out of the collector's sight: a child's collections walk only what its import makes
    gc.freeze()
    failed: dict[str, str] = {}
    running: dict[int, tuple[str, int]] = {}
    """Each child in flight: its module, and the pipe it writes its error to (the package's: what it loaded)."""
    root: list[str] = []
    """What importing the package's ``__init__`` loaded, as its child said (empty: it failed)."""

    def reap() -> None:
        pid, status = os.wait()
        name, read = running.pop(pid)
        with os.fdopen(read, "rb") as pipe:
            said = pipe.read().decode()
        if status != 0:
            failed[name] = said or f"exit status {status}"
        elif name == PACKAGE:
            root.extend(said.split())

    def fork(name: str) -> None:
        while len(running) >= (os.cpu_count() or 1):
            reap()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            gc.disable()  # a child imports one module and ends: nothing for the collector to do
            os.close(read)
            code = 0
            try:
                importlib.import_module(name)
                if name == PACKAGE:
                    os.write(write, " ".join(sorted(ours())).encode())
            except BaseException:
                os.write(write, traceback.format_exc().strip().splitlines()[-1].encode())
                code = 1
            os._exit(code)
        os.close(write)
        running[pid] = (name, read)

    fork(PACKAGE)
    inside = [name for name in names if name.startswith(PACKAGE + ".")]
    for name in names:
        if name != PACKAGE and name not in inside:
            fork(name)
    while PACKAGE not in failed and not root:
        reap()
    first = [name for name in inside if name in root]
    for name in first:
        fork(name)
    if root:
        importlib.import_module(PACKAGE)  # as a fresh interpreter does before any module of the package
        gc.freeze()
    for name in inside:
        if name not in first:
            fork(name)
    while running:
        reap()
    return failed


if __name__ == "__main__":
    import json
    import sys

    if sys.argv[1:2] != ["imports"]:
        sys.exit("usage: python -m tools.layout imports [MODULE ...]")
    sys.exit(print(json.dumps(imported_alone(sys.argv[2:] or list(modules())), indent=1)) or 0)
