"""``make lint``'s import contracts: import-linter (the contracts in pyproject.toml) over the package's
import graph, with each module named as it is installed.

    .venv/bin/python -m tools.imports

import-linter reads a package's modules from the folder its top package is in; the package maps
its parts from folders of their own (``tools.layout``), so import-linter is handed the graph
through its own seam for that, a graph builder: every module of the package by its installed
name, every import in it (at any depth, as import-linter counts them) resolved to the module the
interpreter would load, and other packages squashed to their top-level name.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import grimp
from importlinter import cli
from importlinter.application.app_config import settings
from importlinter.application.ports.building import GraphBuilder

from tools import layout


def _guarded(tree: ast.Module) -> set[int]:
    """The ids of import nodes under ``if TYPE_CHECKING:`` (read by the type checker only)."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            guarded.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return guarded


def _named(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> Iterator[tuple[str, str | None]]:
    """(the module named, the name imported from it) for each name an import statement binds."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, None
        return
    base = node.module or ""
    if node.level:
        parts = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
        base = ".".join([*parts, *([node.module] if node.module else [])])
    for alias in node.names:
        yield base, alias.name


def imports(known: dict[str, Path], exclude_type_checking: bool) -> Iterator[tuple[str, str, int, str]]:
    """(importer, imported, line, its text) for every import in the package; ``imported`` is a module
    of the package, or another package's top-level name."""
    for module, path in known.items():
        text = path.read_text()
        lines = text.splitlines()
        tree = ast.parse(text, str(path))
        skip = _guarded(tree) if exclude_type_checking else set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom) or id(node) in skip:
                continue
            for target, name in _named(module, path.name == "__init__.py", node):
                if name is not None and f"{target}.{name}" in known:
                    target = f"{target}.{name}"
                while target not in known and "." in target and target.split(".")[0] == layout.PACKAGE:
                    target = target.rpartition(".")[0]
                if target.split(".")[0] != layout.PACKAGE:
                    target = target.split(".")[0]
                yield module, target, node.lineno, lines[node.lineno - 1].strip()


def external(known: dict[str, Path]) -> set[tuple[str, str | None]]:
    """(module, name imported from it) for every import of another package in the package, by its full
    dotted name (``("textual.widgets", "Footer")``; ``("grpc", None)`` for ``import grpc``)."""
    found: set[tuple[str, str | None]] = set()
    for module, path in known.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                found.update((target, name) for target, name in _named(module, path.name == "__init__.py", node)
                             if target.split(".")[0] != layout.PACKAGE)
    return found


class PackageGraphBuilder(GraphBuilder):
    """The graph of the package as ``tools.layout`` maps it (the only root package is ``cardtui``)."""

    def build(self, root_package_names: list[str], cache_dir: str | None, include_external_packages: bool = False,
              exclude_type_checking_imports: bool = False) -> grimp.ImportGraph:
        if root_package_names != [layout.PACKAGE]:
            raise ValueError(f"the import contracts cover {layout.PACKAGE!r} only, not {root_package_names}")
        known = layout.modules()
        graph = grimp.ImportGraph()
        for module in known:
            graph.add_module(module)
        for importer, imported, line, text in imports(known, exclude_type_checking_imports):
            if imported not in known:
                if not include_external_packages:
                    continue
                graph.add_module(imported, is_squashed=True)
            if importer != imported:
                graph.add_import(importer=importer, imported=imported, line_number=line, line_contents=text)
        return graph


def main(argv: list[str]) -> int:
    settings.configure(GRAPH_BUILDER=PackageGraphBuilder())
    return cli.lint_imports(config_filename=str(layout.ROOT / "pyproject.toml"), no_cache=True,
                            verbose="--verbose" in argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
