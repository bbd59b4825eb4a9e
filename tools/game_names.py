"""Where the package names a game, or branches on a family of games, outside what is its own (CONTRIBUTING, "Adding a
game"). ``tests/test_layout.py`` holds the package to none.

    .venv/bin/python -m tools.game_names [ROOT]   # each place, then how many

- **A game named**: every string that is a game's name (``"pifpaf"``), and every ``startswith`` of a prefix of one
  (``game.startswith("truco")``), outside the game's own modules and the registries. A proto oneof's field name
  (``view.HasField("cacho")``, ``view.WhichOneof("game") == "cacho"``, a name given the oneof's value) names the
  wire's family of messages, not a game: it is a family branch, below.
- **A family branch**: code that tells the families apart outside a family's own modules: an import of a family's
  modules (``cardtui.engine.rummy...``, its wire messages ``cardtui.v1.rummy_pb2``), a test of the wire's oneof
  for a family (``view.HasField("rummy")``, ``view.WhichOneof("game") == "truco"``), or a read of a family's part of
  a message (``view.rummy``). Shared code asks the family (``engine.family``) instead.

Every list comes from the registries: the games from ``engine.games`` (each game's rules name its family,
``Rules.family_name``) and ``client.gamebook`` (each game's board), the families from ``engine.family`` (each
family's folder is the package of its ``Family``). A game's own modules: its entry and its client facts
(``engine/games/<name>.py``, ``client/games/<name>.py``), its rules' module, its family's. A family's own modules: its
engine folder (``engine/rummy/``), its games' entries and client facts, and its games' boards with their parts
(``client/boards/rummy*.py``). A bench module named for a game (``bench/recount_<name>.py``, ``bench/<name>_*.py``)
is the game's own, as are a tool module named so (``tools/vectors_<name>.py``) and its tests
(``tests/**/test_<name>.py``, ``tests/**/test_<name>_*.py``).

The benches and the tools are read too (``OUTSIDE``): they are not the package, and they still name the games in
many places (a bench of one game, a list of tables); ``tests/test_layout.py`` holds their count, which may only go
down. Besides strings, an identifier may name a game (``rummy_pb2.ChinchonUp``, ``self.chinchon = ...``,
``CACHETA_TEN``): ``identified`` finds those, and ``branches`` counts every use of a name an import binds to a
family's modules (``rummy_pb2.RummyDealt``), not only the import: a module that tells a family's events apart a
dozen times is a dozen branches.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

PARTS = ("engine", "server", "client", "cardtui")
"""The package's folders (``tools.layout``), whose code is read."""
OUTSIDE = ("bench", "tools")
"""The benches and the tools: not the package, but kept to it (``tests/test_layout.py`` holds their count, which may
only go down); a game's own bench data is in its entry (``Entry.bench``)."""
SKIPPED = ("cardtui/v1/*",)
"""Generated code (the protobuf stubs)."""

REGISTRIES = (
    "engine/games/__init__.py",  # the engine's registry of games
    "engine/family.py",  # the engine's registry of families
    "client/gamebook.py",  # the client's registry
)
"""The registries CONTRIBUTING names: they may name every game and every family."""
SHARED_FOLDERS = ("engine/games/*",)
"""Folders whose modules belong to no family as a whole but to one game each (an entry imports its game's family)."""


@dataclass(frozen=True)
class Registries:
    """What the registries say: each game's own modules, each family's."""

    games: dict[str, tuple[str, ...]]
    """Each game's own modules, as patterns of paths."""
    families: dict[str, tuple[str, ...]]
    """Each family's own modules, as patterns of paths."""

    @property
    def family_names(self) -> tuple[str, ...]:
        return tuple(self.families)


def _path(module: str) -> str:
    """A module's path in the repository (``cardtui.engine.rummy.base`` -> ``engine/rummy/base.py``)."""
    parts = module.split(".")
    if parts[0] == "cardtui" and len(parts) > 1 and parts[1] in ("engine", "server", "client"):
        parts = parts[1:]
    return "/".join(parts) + ".py"


@cache
def registries() -> Registries:
    """Each game's and each family's own modules, from the registries (see the module)."""
    from cardtui.client import gamebook
    from cardtui.engine import family, games

    folders: dict[str, str] = {}
    for fam in family.FAMILIES.values():
        module = type(fam).__module__
        folders[fam.name] = _path(module).rsplit("/", 1)[0]
    boards: dict[str, str] = {}
    for name, game in gamebook.known().items():
        boards[name] = _path(game.board().__module__).removesuffix(".py") + "*.py"
    family_of = {name: games.entry(name).rules.family_name for name in games.ENTRIES}
    game_own: dict[str, tuple[str, ...]] = {}
    for name, entry in games.ENTRIES.items():
        own = [f"engine/games/{name}.py", f"client/games/{name}.py", _path(type(entry.rules).__module__),
               f"bench/{name}.py", f"bench/{name}_*.py", f"bench/*_{name}.py", f"tools/*_{name}.py",
               f"tests/*test_{name}.py", f"tests/*test_{name}_*.py"]
        fam_name = family_of[name]
        if fam_name in folders:
            own.append(folders[fam_name] + "/*")
        if name in boards:
            own.append(boards[name])
        game_own[name] = tuple(own)
    family_own: dict[str, tuple[str, ...]] = {}
    for fam_name, folder in folders.items():
        members = [g for g, f in family_of.items() if f == fam_name]
        family_own[fam_name] = (folder + "/*", *(f"engine/games/{g}.py" for g in members),
                                *(f"client/games/{g}.py" for g in members),
                                *sorted({boards[g] for g in members if g in boards}))
    return Registries(game_own, family_own)


def owned(patterns: tuple[str, ...], path: str) -> bool:
    """Whether ``path`` (relative to the repository) matches one of ``patterns`` or is a registry."""
    return path in REGISTRIES or any(fnmatch(path, p) for p in patterns)


def nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree``, in ``ast.walk``'s order: walked once for all a scan asks of a module (walking each
    module several times took most of the scan's seconds)."""
    every = [tree]
    add, node_type = every.append, ast.AST
    for node in every:  # (grows as it goes: each node's children after the nodes before them)
        # ``ast.iter_child_nodes`` inlined: its generators took a third of the walk's time.
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, node_type):
                add(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, node_type):
                        add(item)
    return every


def _oneof_names(every: list[ast.AST]) -> set[str]:
    """Names given a proto oneof's value (``kind = view.WhichOneof("game")``) anywhere in the module (``nodes``)."""
    return {t.id for node in every if isinstance(node, ast.Assign) and _is_oneof(node.value)
            for t in node.targets if isinstance(t, ast.Name)}


def _is_oneof(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "WhichOneof"


def _wire(every: list[ast.AST], oneofs: set[str]) -> set[int]:
    """The ids of string constants that name a proto oneof's field: a family of messages, not a game."""
    out: set[int] = set()
    for node in every:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "HasField", "WhichOneof", "ClearField"):
            out.update(id(n) for a in node.args for n in ast.walk(a))
        elif isinstance(node, ast.Compare) and (_is_oneof(node.left) or (
                isinstance(node.left, ast.Name) and node.left.id in oneofs)):
            out.update(id(n) for c in node.comparators for n in ast.walk(c))
    return out


def places(source: str, path: str, reg: Registries | None = None) -> Iterator[tuple[int, str]]:
    """(line, the game named) for each place in one module that names a game it does not own."""
    return _places(nodes(ast.parse(source, path)), path, reg or registries())


def _places(every: list[ast.AST], path: str, reg: Registries) -> Iterator[tuple[int, str]]:
    """``places`` in a module already read (``nodes``)."""
    wire = _wire(every, _oneof_names(every))
    for node in every:
        named: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in wire:
            named = [g for g in reg.games if node.value == g]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "startswith", "endswith") and node.args and isinstance(node.args[0], ast.Constant):
            prefix = node.args[0].value
            named = [g for g in reg.games if isinstance(prefix, str) and prefix and g.startswith(prefix)
                     and g != prefix]
        for game in named:
            if not owned(reg.games[game], path):
                yield node.lineno, game


@cache
def titles() -> dict[str, str]:
    """Each game's title as the client says it (``client.gamebook``: "Pif Paf", "Chinchón"), by its name."""
    from cardtui.client import gamebook

    return {name: game.title for name, game in gamebook.known().items()}


def titled(source: str, path: str, reg: Registries | None = None) -> Iterator[tuple[int, str]]:
    """(line, the game named) for each string in one module, not a docstring, that holds a game's title and is not
    the game's own: a sentence or a label that lists games by hand ("Meld hints are for Pif Paf and Cacheta."),
    which falls behind the day a game is added or taken away, as a name does (``places`` reads names alone)."""
    return _titled(nodes(ast.parse(source, path)), path, reg or registries())


def _titled(every: list[ast.AST], path: str, reg: Registries) -> Iterator[tuple[int, str]]:
    """``titled`` in a module already read (``nodes``)."""
    docs = {id(n.value) for n in every if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    found: set[tuple[int, str]] = set()
    for node in every:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            for game, title in titles().items():
                if title in node.value and not owned(reg.games[game], path):
                    found.add((node.lineno, game))
    yield from sorted(found)


def unknown_in_place(where: str, known: Iterable[str]) -> list[str]:
    """The parts of a help row's place ("Pif Paf, Cacheta"; "Cacheta; Pif Paf") that read as a game's title but
    name no game the client knows: a game taken away and still listed by hand, which ``titled`` cannot see (it
    looks for the titles of the games there are). A place the help names otherwise ("lobby", "no server") is
    lower case; a title is capitalised."""
    titles_known = set(known)
    return [part for part in re.split(r"[,;] ", where) if part[:1].isupper() and part not in titles_known]


def scan_titles(root: Path) -> list[tuple[str, int, str]]:
    """(path, line, game) for every string under ``root``'s package that holds a game's title outside its own."""
    return scan_each(root, ("titles",))[0]


def _words(identifier: str) -> list[str]:
    """An identifier's words, lower-cased (``ChinchonUp``: chinchon, up; ``CACHETA_TEN``: cacheta, ten)."""
    out: list[str] = []
    for part in identifier.split("_"):
        out += [w.lower() for w in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", part)]
    return out


def _identifiers(every: list[ast.AST]) -> Iterator[tuple[int, str]]:
    """(line, identifier) for every name the code gives or reads: a variable, an attribute, a function, a class."""
    for node in every:
        if isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg


def identified(source: str, path: str, reg: Registries | None = None) -> Iterator[tuple[int, str]]:
    """(line, the game named) for each identifier in one module that names a game it does not own: a wire message
    (``rummy_pb2.ChinchonUp``), a flag (``self.chinchon = ...``), a constant (``CACHETA_TEN``). A game whose name is
    its family's (Cacho's) is left to ``branches``: its name in an identifier is the family's wire (``cacho_pb2``)."""
    return _identified(nodes(ast.parse(source, path)), path, reg or registries())


def _identified(every: list[ast.AST], path: str, reg: Registries) -> Iterator[tuple[int, str]]:
    """``identified`` in a module already read (``nodes``)."""
    games = tuple(g for g in reg.games if g not in reg.families)
    found: set[tuple[int, str]] = set()
    for line, name in _identifiers(every):
        for game in _games_in(name, games):
            if not owned(reg.games[game], path):
                found.add((line, game))
    yield from sorted(found)


@cache
def _games_in(identifier: str, games: tuple[str, ...]) -> tuple[str, ...]:
    """The games of ``games`` whose name's words run in a row among the identifier's words (``_words``); each
    identifier is split once however often the code uses it (most are ``self``, ``node``, ``name``: the scan's
    time was theirs)."""
    lowered = identifier.lower()
    if not any(game.split("_")[0] in lowered for game in games):
        return ()  # (each word is a piece of the identifier, lower-cased: a game's first word is in it or none is)
    words = _words(identifier)
    return tuple(game for game in games if (named := game.split("_")) and any(
        words[i:i + len(named)] == named for i in range(len(words) - len(named) + 1)))


def _imported(every: list[ast.AST]) -> Iterator[tuple[int, str]]:
    """(line, module) for every module an import statement names (``from a import b``: ``a`` and ``a.b``)."""
    for node in every:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def _family_of_module(module: str, families: tuple[str, ...]) -> str | None:
    """The family whose modules ``module`` is (its engine folder, or its wire messages), if any."""
    for fam in families:
        if module == f"cardtui.engine.{fam}" or module.startswith(f"cardtui.engine.{fam}.") or \
                module == f"cardtui.v1.{fam}_pb2":
            return fam
    return None


def _bound(every: list[ast.AST], families: tuple[str, ...]) -> dict[str, str]:
    """The names an import binds to a family's modules or what they hold (``rummy_pb2``, ``RummyView``), each to
    its family: every use of one is a branch on the family, not only the import."""
    out: dict[str, str] = {}
    for node in every:
        if isinstance(node, ast.Import):
            for alias in node.names:
                fam = _family_of_module(alias.name, families)
                if fam is not None and alias.asname:
                    out[alias.asname] = fam
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                fam = _family_of_module(node.module, families) or _family_of_module(
                    f"{node.module}.{alias.name}", families)
                if fam is not None:
                    out[alias.asname or alias.name] = fam
    return out


def branches(source: str, path: str, reg: Registries | None = None) -> Iterator[tuple[int, str]]:
    """(line, the family) for each place in one module that branches on a family it does not belong to."""
    if _unbranched(path):
        return
    yield from _branches(nodes(ast.parse(source, path)), path, reg or registries())


def _unbranched(path: str) -> bool:
    """A registry, or an entry: an entry is one game's, it imports that game's family and its own module says which."""
    return path in REGISTRIES or any(fnmatch(path, s) for s in SHARED_FOLDERS)


def _branches(every: list[ast.AST], path: str, reg: Registries) -> Iterator[tuple[int, str]]:
    """``branches`` in a module already read (``nodes``)."""
    if _unbranched(path):
        return
    mine = {f for f in reg.family_names if owned(reg.families[f], path)}
    families = reg.family_names
    seen: set[tuple[int, str]] = set()
    for line, module in _imported(every):
        fam = _family_of_module(module, families)
        if fam is not None and fam not in mine:
            seen.add((line, fam))
    bound = _bound(every, families)
    oneofs = _oneof_names(every)
    for node in every:
        named: list[str] = []
        if isinstance(node, ast.Name) and node.id in bound and isinstance(node.ctx, ast.Load):
            named = [bound[node.id]]  # each use of a family's module or record: ``rummy_pb2.RummyDealt``
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                "HasField", "WhichOneof", "ClearField"):
            named = [c.value for a in node.args for c in ast.walk(a)
                     if isinstance(c, ast.Constant) and c.value in families]
        elif isinstance(node, ast.Compare) and (_is_oneof(node.left) or (
                isinstance(node.left, ast.Name) and node.left.id in oneofs)):
            named = [c.value for comp in node.comparators for c in ast.walk(comp)
                     if isinstance(c, ast.Constant) and c.value in families]
        elif isinstance(node, ast.Attribute) and node.attr in families and isinstance(node.ctx, ast.Load):
            named = [node.attr]
        seen.update((node.lineno, f) for f in named if f not in mine)
    yield from sorted(seen)


def beyond(found: list[tuple[str, int, str]], allowed: dict[str, int]) -> list[tuple[str, int, str]]:
    """The places (path, line, what) of every module with more of them than ``allowed`` gives it (none where it
    does not name the module): a module's count left to go down, and every other module held to none."""
    counts = Counter(path for path, _line, _what in found)
    return [f for f in found if counts[f[0]] > allowed.get(f[0], 0)]


def modules(root: Path, parts: tuple[str, ...] = PARTS) -> Iterator[tuple[str, str]]:
    """(path, source) of every module under ``root``'s ``parts``, the generated ones left out."""
    for part in parts:
        for file in sorted((root / part).rglob("*.py")):
            path = file.relative_to(root).as_posix()
            if not any(fnmatch(path, s) for s in SKIPPED):
                yield path, file.read_text()


Finder = Callable[[list[ast.AST], str, Registries], Iterator[tuple[int, str]]]

FINDERS: dict[str, Finder] = {"places": _places, "identifiers": _identified, "titles": _titled,
                              "branches": _branches}
"""What a scan can look for in each module (``scan_each``): ``places``, ``identified``, ``titled``, ``branches``."""


def scan_each(root: Path, kinds: tuple[str, ...], parts: tuple[str, ...] = PARTS) -> list[list[tuple[str, int, str]]]:
    """For each kind of ``FINDERS``: (path, line, what it names) for every module under ``root``'s ``parts``, sorted,
    each once. Each module is read and walked once for all the kinds (parsing took half the scans' seconds)."""
    reg = registries()
    finders = [FINDERS[kind] for kind in kinds]
    found: list[set[tuple[str, int, str]]] = [set() for _ in kinds]
    for path, source in modules(root, parts):
        every = nodes(ast.parse(source, path))
        for into, find in zip(found, finders, strict=True):
            into.update((path, line, name) for line, name in find(every, path, reg))
    return [sorted(one) for one in found]


def scan(root: Path, parts: tuple[str, ...] = PARTS) -> list[tuple[str, int, str]]:
    """(path, line, game) for every place under ``root`` (a checkout) that names a game outside its own."""
    return scan_each(root, ("places",), parts)[0]


def scan_identifiers(root: Path, parts: tuple[str, ...] = PARTS) -> list[tuple[str, int, str]]:
    """(path, line, game) for every identifier under ``root`` that names a game outside its own (``identified``)."""
    return scan_each(root, ("identifiers",), parts)[0]


def scan_branches(root: Path) -> list[tuple[str, int, str]]:
    """(path, line, family) for every place under ``root`` that branches on a family outside its own modules."""
    return scan_each(root, ("branches",))[0]


SHARED = ("tests", "tools", "bench")
"""Where a game's own test, tool and bench modules sit beside shared ones: a shared one that names a game changes
when that game is taken away (``shared``)."""


def shared(root: Path) -> dict[str, list[str]]:
    """Each game: the modules under ``root``'s tests, tools and benches, not its own, that name it (a string that is
    its name, an identifier with its name in it). Each of them is a file that taking the game away changes; a game
    declares its rows for the shared tests in its own tests (``tests/per_game.py``)."""
    reg = registries()
    out: dict[str, set[str]] = {game: set() for game in reg.games}
    for path, source in modules(root, SHARED):
        every = nodes(ast.parse(source, path))  # (read once for both)
        for _line, game in [*_places(every, path, reg), *_identified(every, path, reg)]:
            out[game].add(path)
    return {game: sorted(paths) for game, paths in out.items()}


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent
    named, branched = scan(root), scan_branches(root)
    ids = scan_identifiers(root)
    outside = scan(root, OUTSIDE) + scan_identifiers(root, OUTSIDE)
    for path, line, game in named:
        print(f"{path}:{line}: the game {game}")
    for path, line, game in ids:
        print(f"{path}:{line}: the game {game}, in a name")
    for path, line, fam in branched:
        print(f"{path}:{line}: the {fam} family")
    print(f"{len(named)} places name a game and {len(ids)} identifiers do, in "
          f"{len({p for p, _, _ in named + ids})} modules; "
          f"{len(branched)} uses branch on a family, in {len({p for p, _, _ in branched})} modules")
    for part in OUTSIDE:
        mine = [f for f in outside if f[0].startswith(part + "/")]
        print(f"{part}/: {len(mine)} places name a game (strings and identifiers), in "
              f"{len({p for p, _, _ in mine})} modules")
    for path, line, game in scan_titles(root):
        print(f"{path}:{line}: the game {game}, by its title")
    for game, paths in shared(root).items():
        print(f"{game}: named by {len(paths)} shared modules of tests/, tools/, bench/: {' '.join(paths)}")
    return 1 if named or ids or branched else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
