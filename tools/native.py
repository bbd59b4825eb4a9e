"""``make play`` and ``make test`` run this: compile the engine's hot path with mypyc, where a C compiler is.

    .venv/bin/python -m tools.native

It compiles ``MODULES`` (see ``cardtui.native`` for why and how they are used) into
``<venv>/cardtui-native/`` with a manifest of the engine's sources as they were, and prints
one line. With no C compiler, or ``CARDTUI_PURE=1`` set, or a build that fails, it says so,
removes any older build and exits 0: the game runs as plain Python.

What is compiled is the truco engine's logic and state, Cacho's rules, the betting rounds, the meld
search and the rummy playouts, and the server's wire mapping and fan-out: not the records (events,
views, options: frozen dataclasses over ``engine.core``'s plain Python bases, which a compiled class
cannot extend).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from cardtui.native import DIR, OFF, check, digests, sources
from tools import layout

MODULES = (
    *(f"cardtui/engine/truco/{m}.py" for m in (
        "argentino/game", "argentino/checks", "argentino/envido", "argentino/flor", "argentino/state", "argentino/view",
        "base", "envido", "flor", "ladder", "tricks", "paulista/game", "paulista/state", "paulista/view",
    )),
    "cardtui/engine/history.py",
    "cardtui/engine/melds.py",
    "cardtui/engine/bots/rummy_search.py",
    "cardtui/engine/bots/cacho_search.py",
    "cardtui/engine/bots/trucosim.py",
    "cardtui/engine/bots/truco_worlds.py",
    "cardtui/engine/bots/truco_search.py",
    "cardtui/engine/betting.py",
    "cardtui/engine/cacho.py",
    "cardtui/server/wire.py",
    "cardtui/server/fanout.py",
)
"""What is compiled. ``base`` and the states go together with every game that extends them
(paulista too): a plain Python class cannot extend a compiled one. ``history`` is every game's
hand log (an entry per action) and the views' JSON (``jsonable``). On the server's path for
every act at every table: Cacho's rules and the betting rounds (Cacho, Pif Paf; Cacho's records
are ``engine.cacho_records``, plain Python), the wire mapping (each audience's view spliced
into bytes) and the fan-out (numbering, queues). Off the server's path but where the rummy games spend
their CPU: the meld search (``melds``, masks of bits: every Pif Paf and Cacheta bot, and the rules'
checks) and the rummy playouts (``bots/rummy_search``: Pif Paf's hard bets, and every Pif Paf and
Cacheta analysis), each about half the CPU compiled; and the searches of truco's and Cacho's normal and
hard bots and of their analysis (``bots/trucosim``, ``truco_worlds``, ``truco_search``, ``cacho_search``),
which every bot's turn at a truco or Cacho table runs: a hard bot's decision about 0.4 of its CPU."""
GROUP = "cardtui_native"
"""mypyc's shared library is ``cardtui_native__mypyc``, served by ``cardtui.native`` too."""


def compiler() -> str | None:
    """The C compiler Python's build would call, if it is installed."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc)


def build(out: Path = DIR) -> str:
    """Build into ``out``; the line to print."""
    if os.environ.get(OFF):
        shutil.rmtree(out, ignore_errors=True)
        return f"native: skipped ({OFF} is set): the engine runs as plain Python"
    if compiler() is None:
        shutil.rmtree(out, ignore_errors=True)
        return "native: no C compiler here: the engine runs as plain Python"
    opt = os.environ.get("MYPYC_OPT_LEVEL", "3")  # mypyc's own variable: 0 builds faster
    how = [*MODULES, f"-O{opt}", "multi_file"]  # what is compiled, and how: a build made otherwise is made again
    if check(out)[0] is not None and _manifest(out).get("compiled") == how:
        return "native: the compiled engine is up to date"
    t0 = time.monotonic()
    before = digests(sources())
    with tempfile.TemporaryDirectory(prefix="cardtui-native-") as tmp:
        lib = Path(tmp) / "lib"
        log = io.StringIO()
        try:
            tree = staged(Path(tmp) / "src")
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log), contextlib.chdir(tree):
                from mypyc.build import mypycify
                from setuptools import setup  # type: ignore[import-untyped]

                extensions = mypycify(list(MODULES), opt_level=opt, target_dir=str(Path(tmp) / "c"), group_name=GROUP,
                                      multi_file=True)
                with _every_core():
                    setup(name="cardtui-native", ext_modules=extensions, script_args=[
                        "-q", "build_ext", "--build-lib", str(lib), "--build-temp", str(Path(tmp) / "o"),
                    ])
        except (Exception, SystemExit) as err:  # a failed build leaves plain Python, and says why
            shutil.rmtree(out, ignore_errors=True)
            tail = "\n".join(log.getvalue().strip().splitlines()[-15:])
            return f"native: the build failed ({err!r}); the engine runs as plain Python\n{tail}"
        if digests(sources()) != before:
            return "native: the sources changed during the build; run make again"
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(lib, out)
    modules = {}
    for so in sorted(out.rglob("*" + sysconfig.get_config_var("EXT_SUFFIX"))):
        rel = so.relative_to(out)
        modules[".".join((*rel.parent.parts, so.name.split(".")[0]))] = rel.as_posix()
    manifest = {"python": sys.version, "sources": before, "modules": modules, "compiled": how}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
    return f"native: compiled {len(MODULES)} modules in {time.monotonic() - t0:.0f} s ({out})"


@contextlib.contextmanager
def _every_core() -> Iterator[None]:
    """The build's C files compiled side by side, one per core. mypyc writes a C file per module
    (``multi_file``); setuptools compiles an extension's files one after another, and the group's
    single file took some 45 s of one core while the others idled (``make test`` waits for it)."""
    from distutils import ccompiler

    from cardtui.server.workers import cores

    def compile_all(self: Any, sources: list[str], output_dir: str | None = None, macros: Any = None,
                    include_dirs: Any = None, debug: bool = False, extra_preargs: Any = None,
                    extra_postargs: Any = None, depends: Any = None) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            src, ext = build[obj]
            self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(cores()) as pool:
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


def main() -> None:
    print(build(), flush=True)


if __name__ == "__main__":
    main()
