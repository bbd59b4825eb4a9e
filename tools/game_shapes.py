"""Where code tells a family's games apart by the shape of a view: by whether a field only some games fill in is
there (``view.flip is not None``, ``view.HasField("betting")``, ``if view.argentino``), not by what the game says
it is. ``tests/test_layout.py`` holds the package, the benches and the tools to none.

    .venv/bin/python -m tools.game_shapes [ROOT]   # each place, then how many

The fields are each family's ``parts`` (``engine.family.Family``): a view's fields that only some of its games fill
in. Such a field may be read where it is there: a test of it that guards a read of the same field (``if v.flip is
not None: seen[v.flip] += 1``, ``v.argentino.points if v.argentino else (0, 0)``) is the field's own data. A test
of it that guards no read of it asks which game the view is, silently: a flag kept (``cacheta = view.flip is not
None``), a branch on it (``if self.flip is not None:  # Cacheta``), a value returned. A third game that fills the
field in, or leaves it out, is then taken for another. Ask the game's declared data instead (a rummy view's
``table``: its pack, hand size, scoring).

A game's own modules may look at its own fields: its entry and client facts (``engine/games/<name>.py``,
``client/games/<name>.py``), its rules' module, a folder of its own (``engine/truco/paulista/``), and in its
family's folder the modules named for its rules' module (``engine/rummy/bots/cacheta_hard.py``). Asserts are not
branches: one narrows a field for the reads after it.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

from tools.game_names import _path, modules

PARTS = ("engine", "server", "client", "cardtui", "bench", "tools")
"""The folders whose code is read: the package's, the benches' and the tools'."""


@dataclass(frozen=True)
class Shapes:
    """What the registries say: the fields only some games fill in, and every game's own modules."""

    fields: frozenset[str]
    """Every family's ``parts``."""
    own: tuple[str, ...]
    """Patterns of the paths of modules that are one game's own."""
    stems: tuple[tuple[str, str], ...]
    """(family folder, a rules module's name) for the games whose rules live in their family's folder: a module of
    that folder named for them is theirs (``engine/rummy/bots/chinchon_search.py``)."""


@cache
def shapes() -> Shapes:
    """Each family's parts and each game's own modules, from the registries (see the module)."""
    from cardtui.engine import family, games

    fields = frozenset(f for fam in family.FAMILIES.values() for f in fam.parts)
    folders = {fam.name: _path(type(fam).__module__).rsplit("/", 1)[0] for fam in family.FAMILIES.values()}
    own: list[str] = []
    stems: list[tuple[str, str]] = []
    for name, entry in games.ENTRIES.items():
        own += [f"engine/games/{name}.py", f"client/games/{name}.py"]
        rules = _path(type(entry.rules).__module__)
        folder, module = rules.rsplit("/", 1)
        own.append(rules)
        home = folders.get(entry.rules.family_name)
        if home is not None and folder == home:
            stems.append((home, module.removesuffix(".py")))
        elif home is not None and folder.startswith(home + "/"):
            own.append(folder + "/*")
    return Shapes(fields, tuple(own), tuple(stems))


def owned(shape: Shapes, path: str) -> bool:
    """Whether ``path`` is one game's own module (see the module)."""
    if any(fnmatch(path, p) for p in shape.own):
        return True
    name = path.rsplit("/", 1)[-1]
    return any(path.startswith(home + "/") and name.startswith(stem) for home, stem in shape.stems)


def _tested(node: ast.expr, fields: frozenset[str], truth: bool = True) -> Iterator[tuple[str, str, ast.AST]]:
    """(the field, the expression it is read from, dumped, and the test's own read of it) for each presence test of
    a game's field in a test ``node``: ``x.f is None``, ``x.f is not None``, ``x.HasField("f")``, ``x.f`` or ``not
    x.f`` as a truth, in ``and``, ``or`` and ``not`` alike."""
    if isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _tested(value, fields, truth)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield from _tested(node.operand, fields, truth)
    elif _is_presence(node):
        assert isinstance(node, ast.Compare)
        for side in (node.left, *node.comparators):
            if not (isinstance(side, ast.Constant) and side.value is None):
                yield from _tested(side, fields, truth=False)
    elif isinstance(node, ast.Attribute) and node.attr in fields and not (
            truth and isinstance(node.value, ast.Name) and node.value.id == "self"):
        # As a truth, ``self.f`` is a flag of the code's own (a bool it named so), where it was set is the place.
        yield node.attr, ast.dump(node.value), node
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "HasField" and \
            len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value in fields:
        yield str(node.args[0].value), ast.dump(node.func.value), node


def _reads(nodes: list[ast.AST], field: str, base: str, own: ast.AST) -> bool:
    """Whether ``nodes`` read ``base``'s ``field`` other than by the test's own read ``own`` (a read inside the
    same test's ``and``, as ``v.part is not None and v.part.phase``, counts)."""
    return any(isinstance(node, ast.Attribute) and node.attr == field and ast.dump(node.value) == base and
               node is not own for top in nodes for node in ast.walk(top))


def _is_presence(node: ast.AST) -> bool:
    return (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot))
            and any(isinstance(c, ast.Constant) and c.value is None for c in (node.left, *node.comparators)))


def _tests(tree: ast.AST) -> Iterator[tuple[ast.expr, list[ast.AST]]]:
    """(a test, what it guards) for every branch of a module; a presence test kept, returned or passed on (not a
    branch's test, nor an assert's) guards nothing."""
    # One walk of the tree for every node and its parent (``ast.walk``'s order): a module's tree walked three times
    # took most of the scan's seconds.
    every: list[ast.AST] = [tree]
    parents: dict[int, ast.AST] = {}
    for node in every:  # (grows as it goes: each node's children after the nodes before them)
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
            every.append(child)
    within: set[int] = set()
    for node in every:
        if isinstance(node, (ast.If, ast.While)):
            yield node.test, [node.test, *node.body, *node.orelse]
        elif isinstance(node, ast.IfExp):
            yield node.test, [node.test, node.body, node.orelse]
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            guarded: list[ast.AST] = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for gen in node.generators:
                for cond in gen.ifs:
                    yield cond, [*gen.ifs, *guarded]
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            within.update(id(n) for n in ast.walk(node.test))
        elif isinstance(node, ast.comprehension):
            within.update(id(n) for cond in node.ifs for n in ast.walk(cond))
    for node in every:
        if id(node) not in within and isinstance(node, ast.expr) and (_is_presence(node) or (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "HasField")):
            # Within an ``and`` or ``or``, the test guards the rest of it (``p is not None and p.phase``).
            top: ast.expr = node
            while isinstance(up := parents.get(id(top)), (ast.BoolOp, ast.UnaryOp)):
                top = up
            yield node, [top] if top is not node else []


def places(source: str, path: str, shape: Shapes | None = None) -> Iterator[tuple[int, str]]:
    """(line, the field) for each place in one module that tells games apart by a field only some fill in."""
    shape = shape or shapes()
    if owned(shape, path):
        return
    tree = ast.parse(source, path)
    seen: set[tuple[int, str]] = set()
    for test, guarded in _tests(tree):
        for field, base, own in _tested(test, shape.fields):
            if not _reads(guarded, field, base, own):
                seen.add((test.lineno, field))
    yield from sorted(seen)


def scan(root: Path) -> list[tuple[str, int, str]]:
    """(path, line, field) for every place under ``root`` (a checkout) that tells games apart by a view's shape."""
    shape = shapes()
    found: list[tuple[str, int, str]] = []
    for path, source in modules(root, PARTS):
        found.extend((path, line, field) for line, field in places(source, path, shape))
    return sorted(set(found))


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent
    found = scan(root)
    for path, line, field in found:
        print(f"{path}:{line}: a game told apart by its {field}")
    print(f"{len(found)} places tell games apart by a view's shape, in {len({p for p, _, _ in found})} modules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
