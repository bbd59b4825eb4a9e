"""The confusables' prototypes (UTS #39 §4), written out as ``server/base/prototypes.py``.

    .venv/bin/python -m tools.prototypes   # write server/base/prototypes.py

``cardtui.server.base.names.derive_prototypes`` reads them from ``confusable_homoglyphs``'s table; a server
reads them from the module this writes (``names._prototypes``), which is the same pairs in a tenth of the
memory and time. ``tests/server/test_lookalikes.py`` holds the module to the package as installed: a
release of the package with a new table fails that test until this is run again.
"""

from __future__ import annotations

import argparse
import importlib.metadata
from pathlib import Path

from cardtui.server.base.names import derive_prototypes

TARGET = Path(__file__).resolve().parent.parent / "server" / "base" / "prototypes.py"


def written() -> str:
    """The module's text, every character outside ASCII escaped (the file reads the same in any editor)."""
    version = importlib.metadata.version("confusable-homoglyphs")
    pairs = sorted(derive_prototypes().items())
    lines = [
        '"""Each confusable character and the prototype it maps to (UTS #39 §4), from confusable-homoglyphs',
        f"{version}: {len(pairs)} pairs. Written by ``python -m tools.prototypes``; not to be edited by hand",
        '(``cardtui.server.base.names.derive_prototypes`` says how they are made)."""',
        "",
        "PROTOTYPES: dict[str, str] = {",
        *(f"    {char!a}: {prototype!a}," for char, prototype in pairs),
        "}",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(prog="python -m tools.prototypes", description=__doc__.splitlines()[0]).parse_args(argv)
    TARGET.write_text(written(), encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
