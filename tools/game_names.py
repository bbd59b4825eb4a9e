"""Where the package names a game outside the game's own modules and the registries (CONTRIBUTING, "Adding a
game"): every string that is a game's name (``"pifpaf"``), and every ``startswith`` of a prefix of one
(``game.startswith("truco")``), in the package's code. ``tests/test_layout.py`` holds the package to none.

    .venv/bin/python -m tools.game_names [ROOT]   # each place, then how many

A game's facts live where the game does (its rules, its entry in ``engine/games/``, its client facts in
``client/games/``, its board): every other part asks the registries by name. Not counted: a proto oneof's field
name (``view.HasField("cacho")``, ``view.WhichOneof("game") == "cacho"``, and a name given the oneof's value), which
names the wire's family of messages, not a game.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

GAMES = ("cacho", "pifpaf", "cacheta", "truco_paulista", "truco_argentino")
"""The games the room offers (``engine.games.ENTRIES``; a test holds this list to it)."""
PARTS = ("engine", "server", "client", "cardtui")
"""The package's folders (``tools.layout``), whose code is read."""
SKIPPED = ("cardtui/v1/*",)
"""Generated code (the protobuf stubs)."""

REGISTRIES = (
    "engine/games/__init__.py",  # the engine's registry
    "client/gamebook.py",  # the client's registry
    "cardtui/fair.py",  # each game's pack in notation, docs/deal.md §2 (shared by the engine and the client)
)
"""The registries CONTRIBUTING names: they may name every game."""
OWN: dict[str, tuple[str, ...]] = {
    "cacho": ("engine/cacho.py", "engine/cacho_records.py", "engine/bots/cacho*.py", "engine/bots/pool/cacho.py",
              "client/boards/cacho.py"),
    "pifpaf": ("engine/pifpaf.py", "engine/rummy*.py", "engine/bots/pifpaf*.py", "engine/bots/rummy*.py",
               "client/boards/rummy*.py"),
    "cacheta": ("engine/cacheta.py", "engine/rummy*.py", "engine/bots/cacheta*.py", "engine/bots/rummy*.py",
                "client/boards/rummy*.py"),
    "truco_paulista": ("engine/truco/*", "engine/bots/truco*.py", "engine/bots/pool/truco.py",
                       "client/boards/truco*.py"),
    "truco_argentino": ("engine/truco/*", "engine/bots/truco*.py", "engine/bots/pool/truco.py",
                        "client/boards/truco*.py"),
}
"""Each game's own modules, besides ``engine/games/<name>.py`` and ``client/games/<name>.py``: its rules, its
bots, its board (a family's modules are each of its games' own)."""


def owned(game: str, path: str) -> bool:
    """Whether ``path`` (relative to the repository) is one of ``game``'s own modules or a registry."""
    return path in REGISTRIES or path in (f"engine/games/{game}.py", f"client/games/{game}.py") or any(
        fnmatch(path, pattern) for pattern in OWN.get(game, ()))


def _oneof_names(tree: ast.AST) -> set[str]:
    """Names given a proto oneof's value (``kind = view.WhichOneof("game")``) anywhere in the module."""
    return {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and _is_oneof(node.value)
            for t in node.targets if isinstance(t, ast.Name)}


def _is_oneof(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "WhichOneof"


def _wire(tree: ast.AST, oneofs: set[str]) -> set[int]:
    """The ids of string constants that name a proto oneof's field, not a game."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "HasField", "WhichOneof", "ClearField"):
            out.update(id(n) for a in node.args for n in ast.walk(a))
        elif isinstance(node, ast.Compare) and (_is_oneof(node.left) or (
                isinstance(node.left, ast.Name) and node.left.id in oneofs)):
            out.update(id(n) for c in node.comparators for n in ast.walk(c))
    return out


def places(source: str, path: str) -> Iterator[tuple[int, str]]:
    """(line, the game named) for each place in one module that names a game it does not own."""
    tree = ast.parse(source, path)
    wire = _wire(tree, _oneof_names(tree))
    for node in ast.walk(tree):
        named: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in wire:
            named = [g for g in GAMES if node.value == g]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "startswith", "endswith") and node.args and isinstance(node.args[0], ast.Constant):
            prefix = node.args[0].value
            named = [g for g in GAMES if isinstance(prefix, str) and prefix and g.startswith(prefix) and g != prefix]
        for game in named:
            if not owned(game, path):
                yield node.lineno, game


def scan(root: Path) -> list[tuple[str, int, str]]:
    """(path, line, game) for every place under ``root`` (a checkout) that names a game outside its own."""
    found: list[tuple[str, int, str]] = []
    for part in PARTS:
        for file in sorted((root / part).rglob("*.py")):
            path = file.relative_to(root).as_posix()
            if any(fnmatch(path, s) for s in SKIPPED):
                continue
            found.extend((path, line, game) for line, game in places(file.read_text(), path))
    return sorted(set(found))


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent
    found = scan(root)
    for path, line, game in found:
        print(f"{path}:{line}: {game}")
    print(f"{len(found)} places in {len({p for p, _, _ in found})} modules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
