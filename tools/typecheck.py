"""``make lint``'s type check: mypy (``strict``, as pyproject.toml configures it) over every module of
the package, each named as it is installed.

    .venv/bin/python -m tools.typecheck

mypy names a file's module by the folders above it, so ``engine/cards.py`` alone would be
``engine.cards``; the package maps that folder to ``cardtui.engine`` (``tools.layout``). So the
modules are handed to mypy's build by name, with their files, and every import between them
resolves to the module the interpreter would load. Arguments are passed to mypy as flags.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mypy import build
from mypy.errors import CompileError
from mypy.main import process_options
from mypy.modulefinder import BuildSource

from tools import layout


def _stub_or(path: Path) -> Path:
    stub = path.with_suffix(".pyi")
    return stub if stub.exists() else path


def main(argv: list[str]) -> int:
    # The options as pyproject.toml sets them (and any flags given); the file named is a placeholder
    # (mypy's options come with sources), the sources are ours.
    _, options = process_options(["--config-file", str(layout.ROOT / "pyproject.toml"), *argv, __file__])
    # A module with a stub beside it (the generated protobuf modules) is checked by its stub, as mypy
    # does when it finds both.
    sources = [BuildSource(str(_stub_or(path).relative_to(layout.ROOT)), name, None, base_dir=str(layout.ROOT))
               for name, path in layout.modules().items()]
    try:
        result = build.build(sources, options)
    except CompileError as err:
        print("\n".join(err.messages))
        return 2
    for line in result.errors:
        print(line)
    files = len(sources)
    if result.errors:
        count = sum(1 for line in result.errors if ": error:" in line)
        where = len({line.split(":")[0] for line in result.errors})
        print(f"Found {count} errors in {where} files (checked {files} source files)")
        return 1
    print(f"Success: no issues found in {files} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
