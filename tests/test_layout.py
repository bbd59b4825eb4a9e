"""The package's layout: one package, ``cardtui``, made of folders that pyproject.toml maps (no links),
every module of it importable on its own, and the tools that read files told the same mapping."""

from __future__ import annotations

import copy
import functools
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tools import layout

if TYPE_CHECKING:  # loaded by the tests that read the graph (their own test process): not by every one that collects
    import grimp

ROOT = Path(__file__).resolve().parent.parent

GRAPH = pytest.mark.xdist_group("import-graph")
"""The tests that read the package's import graph run in one test process, which builds it once (``package_graph``)."""


@functools.cache
def _built_graph() -> grimp.ImportGraph:
    from tools.imports import PackageGraphBuilder

    return PackageGraphBuilder().build(["cardtui"], None, include_external_packages=True,
                                       exclude_type_checking_imports=True)


SCANS = pytest.mark.xdist_group("game-scans")
"""The tests that read what ``tools.game_names`` finds in the package run in one test process, which reads and walks
each module once for all of them (``package_scan``)."""


@functools.cache
def package_scan() -> dict[str, list[tuple[str, int, str]]]:
    """Every kind of ``tools.game_names`` finding over the package's modules (``scan_each`` with all its finders):
    parsing the package takes some 2 s of CPU, and three tests here read it, one kind or two each."""
    from tools import game_names

    kinds = tuple(game_names.FINDERS)
    return dict(zip(kinds, game_names.scan_each(ROOT, kinds), strict=True))


def package_graph() -> grimp.ImportGraph:
    """The import graph the contracts read (``tools.imports``), a copy of this process's own, so a test may add an
    import to it: reading every module's imports takes seconds of CPU, and three tests here read it."""
    return copy.deepcopy(_built_graph())


def test_the_repository_holds_no_links() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git clone")
    listed = subprocess.run(["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    links = [line.split("\t")[1] for line in listed.splitlines() if line.startswith("120000")]
    assert links == [], f"links in the repository: {links}"


def test_every_package_on_disk_is_one_the_wheel_carries() -> None:
    assert sorted(layout.listed_packages()) == layout.packages()


def test_the_parts_keep_their_top_level_folders() -> None:
    assert {name: path.relative_to(ROOT).as_posix() for name, path in layout.folders().items()} == {
        "cardtui": "cardtui", "cardtui.engine": "engine", "cardtui.server": "server", "cardtui.client": "client",
    }
    assert layout.modules()["cardtui.engine.truco.argentino.game"] == ROOT / "engine/truco/argentino/game.py"


def test_the_interpreter_loads_each_module_from_the_file_the_tools_read() -> None:
    import cardtui.client.actionbar
    import cardtui.engine.cards
    import cardtui.server.base.names

    for module in (cardtui.client.actionbar, cardtui.engine.cards, cardtui.server.base.names):
        assert Path(module.__file__ or "").resolve() == layout.modules()[module.__name__].resolve()


def alone(test: Callable[[], None]) -> Callable[[], None]:
    """The two tests that import modules each in a process of its own share one run of ``tools.layout imports``
    (``imported_alone``): its parent loads every other package the package imports once (seconds of CPU), for
    both. The first to run waits for all of it: some 380 processes, minutes on a machine whose cores are busy."""
    return pytest.mark.xdist_group("imported-alone")(pytest.mark.timeout(600)(test))


def bench_modules() -> list[str]:
    return sorted(f"bench.{p.stem}" for p in (ROOT / "bench").glob("*.py") if p.stem != "__main__")


PLANTED = {
    "__init__.py": "",
    "sub/__init__.py": "",
    "sub/used.py": "VALUE = 1\n",
    "sub/leans.py": "import layout_planted.sub\n\nVALUE = layout_planted.sub.used.VALUE\n",
    "brings/__init__.py": "import layout_planted.sub.used\n",
    "brings/inside.py": "import layout_planted.sub\n\nVALUE = layout_planted.sub.used.VALUE\n",
    "circle_early.py": "from layout_planted import circle_late\n\nDOUBLE = circle_late.VALUE * 2\n",
    "circle_late.py": "import layout_planted.circle_early\n\nVALUE = 1\n",
    "broken/__init__.py": "raise RuntimeError('planted')\n",
    "broken/inside.py": "VALUE = 1\n",
}
"""A package of its own (``layout_planted``, in a temporary folder) asked about in the same run: what fails in a
fresh interpreter and what does not, where importing the modules one after another in one process would find only
``broken``. ``sub.leans`` reads ``sub.used``, which it never imports (``brings`` loads it: ``brings.inside``
reads it too, and imports, because its own package brought it); ``circle_late`` imports ``circle_early``, which
reads ``circle_late`` half made (imported first, ``circle_early`` imports); ``broken``'s ``__init__`` raises, which
fails it and the module in it."""

PLANTED_FAILURES = {
    "layout_planted.sub.leans": "AttributeError: module 'layout_planted.sub' has no attribute 'used'",
    "layout_planted.circle_late": "AttributeError: partially initialized module 'layout_planted.circle_late' has no",
    "layout_planted.broken": "RuntimeError: planted",
    "layout_planted.broken.inside": "RuntimeError: planted",
}


def planted_modules() -> list[str]:
    return sorted("layout_planted" + "".join(f".{part}" for part in Path(file).with_suffix("").parts
                                             if part != "__init__") for file in PLANTED)


@functools.cache
def _imported_alone() -> tuple[list[str], dict[str, str]]:
    """``python -m tools.layout imports`` over every module of the package, every bench module and the planted
    package: the modules it was asked about, and what failed (each still in a process of its own that loaded no
    module of the package but the packages that enclose it, as a fresh interpreter has)."""
    names = [*layout.modules(), *bench_modules(), *planted_modules()]
    with tempfile.TemporaryDirectory() as planted:
        for file, text in PLANTED.items():
            (Path(planted) / "layout_planted" / file).parent.mkdir(parents=True, exist_ok=True)
            (Path(planted) / "layout_planted" / file).write_text(text)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [planted, os.environ.get("PYTHONPATH")]))}
        done = subprocess.run([sys.executable, "-m", "tools.layout", "imports", *names], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=480)
    assert done.returncode == 0, done.stderr
    failed: dict[str, str] = json.loads(done.stdout)
    return names, failed


@alone
def test_every_module_imports_on_its_own() -> None:
    """Each in a process of its own that has loaded no module of the package before but the packages that enclose
    it (its ``__init__`` first), which any import of one of its modules runs whole first (a circle of imports works
    only when another module happens to be imported first: this finds it, as it finds every fault planted)."""
    names, failed = _imported_alone()
    assert set(layout.modules()) <= set(names)
    assert {name: why for name, why in failed.items() if not name.startswith(("bench.", "layout_planted"))} == {}
    planted = {name: why for name, why in failed.items() if name.startswith("layout_planted")}
    assert set(planted) == set(PLANTED_FAILURES) and len(planted_modules()) == len(PLANTED)
    for name, why in PLANTED_FAILURES.items():
        assert planted[name].startswith(why), (name, planted[name])


@GRAPH
def test_the_import_contracts_read_every_module_by_its_installed_name() -> None:
    graph = package_graph()
    assert set(layout.modules()) <= graph.modules
    assert "cardtui.client.actionbar" in graph.find_modules_directly_imported_by("cardtui.client.screens.table")
    assert "textual" in graph.find_modules_directly_imported_by("cardtui.client.actionbar")
    assert "grpc" not in {m for m in graph.find_upstream_modules("cardtui.engine.games")}


def test_a_circle_is_a_broken_contract() -> None:
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    circles = [c for c in contracts if c["type"] == "acyclic_siblings"]
    assert circles and set(circles[0]["ancestors"]) >= {"cardtui", "cardtui.engine", "cardtui.server", "cardtui.client"}


@GRAPH
def test_a_circle_between_the_packages_parts_breaks_the_contract() -> None:
    """The acyclic contract as pyproject.toml writes it holds over the package as it is, and breaks
    when the server's browser guests import the command line again (which imports the server), as
    they did before their parent moved to the package's root; a contract over the engine, the
    server and the client alone let that circle through."""
    import tomllib

    from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    ancestors = next(c for c in contracts if c["type"] == "acyclic_siblings")["ancestors"]
    graph = package_graph()

    def kept(over: list[str]) -> bool:
        contract = AcyclicSiblingsContract(name="circles", session_options={}, contract_options={"ancestors": over})
        return bool(contract.check(graph, verbose=False).kept)

    assert kept(ancestors)
    assert "cardtui.cli" not in graph.find_upstream_modules("cardtui.server")
    graph.add_import(importer="cardtui.server.web.guests", imported="cardtui.cli", line_number=1,
                     line_contents="from cardtui.cli import main")
    assert not kept(ancestors), "a circle between the command line and the server"
    assert kept(["cardtui.engine", "cardtui.server", "cardtui.client"]), "unseen within the parts alone"


@alone
def test_every_bench_module_imports_on_its_own() -> None:
    """``make bench --only X`` starts from one section's module: each must import first."""
    names, failed = _imported_alone()
    assert set(bench_modules()) <= set(names) and len(bench_modules()) > 10
    assert {name: why for name, why in failed.items() if name.startswith("bench.")} == {}


@GRAPH
def test_the_server_importing_the_client_breaks_its_contract() -> None:
    """The server's contract holds over the package as it is, and breaks when the browser guests'
    machinery imports the client's Textual parts again, as it did to make a guest's strips lighter
    before the warm parent (the package root's) took that over."""
    import tomllib

    from importlinter.contracts.forbidden import ForbiddenContract

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (options,) = [c for c in contracts if c["type"] == "forbidden" and c["source_modules"] == ["cardtui.server"]]
    assert "cardtui.client" in options["forbidden_modules"] and options["allow_indirect_imports"] is False
    graph = package_graph()

    def kept() -> bool:
        session = {"root_packages": ["cardtui"], "include_external_packages": "true"}
        chosen = {"source_modules": options["source_modules"], "forbidden_modules": options["forbidden_modules"],
                  "allow_indirect_imports": "false"}
        contract = ForbiddenContract(name="server", session_options=session, contract_options=chosen)
        return bool(contract.check(graph, verbose=False).kept)

    assert kept()
    graph.add_import(importer="cardtui.server.web.guests", imported="cardtui.client.textual_internals",
                     line_number=1, line_contents="from cardtui.client.textual_internals import STRIP_CACHES")
    assert not kept(), "the server importing the client"


@SCANS
def test_a_game_is_named_only_in_its_own_modules_and_the_registries() -> None:
    """A game's facts live where the game does: its rules, its entry (``engine/games/``), its client facts
    (``client/games/``), its board. Anywhere else it is asked for by name from the registries CONTRIBUTING names,
    never named: a table of games kept elsewhere falls behind the day a game is added."""
    from cardtui.client import gamebook
    from cardtui.engine.games import GAMES
    from tools import game_names

    assert set(game_names.registries().games) == set(GAMES) == set(gamebook.known())
    found = package_scan()["places"]
    assert not found, "a game named outside its own modules and the registries (ask engine.games or " \
        "client.gamebook instead):\n" + "\n".join(f"{p}:{line}: {g}" for p, line, g in found)


CLIENT_BRANCHES: dict[str, int] = {}
"""The client's family branches left outside the families' own modules (``python -m tools.game_names``), by module,
each use of a family's messages counted: none (82 in seven modules before the deal check, the table, the hand, the
trick's names and the line mode's narration asked the registered family, ``client.shape.Family``), so a branch
added outside a family's folder is caught where it is written."""
NAMED_IN_IDENTIFIERS = 8
"""Identifiers in the package that name a game outside its own modules: the bots' estimates of Cacheta's and Pif
Paf's matches kept in ``engine/bots/odds.py`` and ``hand_odds.py``; the number may only go down."""
OUTSIDE = {"bench": 208, "tools": 14}
"""Places in the benches and the tools that name a game outside its own modules (strings and identifiers): a list of
tables, a bench of one game; each game's bench data is in its entry (``Entry.bench``), its deal vectors in
``tools/vectors_<game>.py``. The numbers may only go down."""
TITLED = 9
"""Strings in the package, not docstrings, that hold a game's title outside its own modules
(``tools.game_names.titled``): the help's keys table (its rummy rows "Pif Paf, Cacheta" and "Cacheta; Pif Paf"),
held to docs/players.md's by tests/client/test_words.py, and an event's kind in ``sim`` (``CachoRedealt``). Each lists
games by hand and falls behind the day one is added or taken away (the help's card room line listed five games of
six, the line mode's meld-hint refusal "Pif Paf and Cacheta", the hint row "Pif Paf, Cacheta, Chinchón": now from
the registry, or none named; a title of a game gone is seen in the keys table by
``test_the_help_s_keys_table_names_only_games_the_client_knows``); the number may only go down."""
SHARED_NAMING = {"cacho": 93, "truco_paulista": 67, "truco_argentino": 66, "pifpaf": 59, "cacheta": 50}
"""Each game: the shared modules of tests/, tools/ and bench/ (not its own: ``tests/**/test_<game>*.py``,
``tools/*_<game>.py``, ``bench/*_<game>.py``) that name it, each one a file taking the game away would change
(``tools.game_names.shared``). A game not listed is held to none, as Chinchón, the sixth, is (its rows for the
shared tests are in its own tests, ``tests/per_game.py``), and so is a game added later; the others' numbers may
only go down."""


@SCANS
def test_shared_code_asks_the_family_never_tells_families_apart() -> None:
    """The engine, the server and the command line branch on no family outside its own modules (engine.family
    answers); the client's branches only ever get fewer."""
    from tools import game_names

    found = package_scan()["branches"]
    outside = [f for f in found if not f[0].startswith("client/")]
    assert not outside, "a family told apart outside its own modules (ask engine.family instead):\n" + "\n".join(
        f"{p}:{line}: {fam}" for p, line, fam in outside)
    over = game_names.beyond(found, CLIENT_BRANCHES)
    assert not over, "a family told apart in the client outside its own modules (ask client.shape's family " \
        "instead):\n" + "\n".join(f"{p}:{line}: {fam}" for p, line, fam in over)


@SCANS
def test_a_game_named_in_an_identifier_or_outside_the_package_is_counted_and_only_goes_down() -> None:
    """A wire message or a flag named for a game (``rummy_pb2.CachetaFlipped``, ``self.cacheta``) names it as surely as
    its name in a string; the benches and the tools name the games too, and a game's bench data lives in its entry."""
    from tools import game_names

    found, titled = package_scan()["identifiers"], package_scan()["titles"]
    assert len(found) <= NAMED_IN_IDENTIFIERS, "\n".join(f"{p}:{line}: {g}" for p, line, g in found)
    for part, most in OUTSIDE.items():
        named, identifiers = game_names.scan_each(ROOT, ("places", "identifiers"), (part,))
        there = named + identifiers
        assert len(there) <= most, "\n".join(f"{p}:{line}: {g}" for p, line, g in there)
    over = {game: paths for game, paths in game_names.shared(ROOT).items() if len(paths) > SHARED_NAMING.get(game, 0)}
    assert len(titled) <= TITLED, "\n".join(f"{p}:{line}: {g}" for p, line, g in titled)
    assert not over, "shared tests, tools or benches that name a game (declare its rows in its own tests, " \
        f"tests/per_game.py): {over}"


def test_the_help_s_keys_table_names_only_games_the_client_knows() -> None:
    """A row of the keys table that lists games by hand outlives a game taken away (``titled`` sees the titles of
    the games there are, not of one gone); the hint row names its games from their boards (``games_binding``)."""
    from cardtui.client.screens.help import KEY_ROWS, place
    from tools import game_names

    known = game_names.titles().values()
    assert [(place(r), s) for r in KEY_ROWS if (s := game_names.unknown_in_place(place(r), known))] == []
    assert game_names.unknown_in_place("Pif Paf, Cacheta, Chinchón", ("Pif Paf", "Cacheta")) == ["Chinchón"]
    assert game_names.unknown_in_place("Cacheta; Pif Paf", ("Cacheta",)) == ["Pif Paf"]
    assert game_names.unknown_in_place("no server", ()) == []


def test_the_count_of_shared_modules_naming_a_game_sees_one_and_leaves_the_game_s_own(tmp_path: Path) -> None:
    from tools import game_names

    said = {"tests/client/test_x.py": 'GAMES = ["pifpaf"]\n', "tools/x.py": "def pifpaf_up() -> None: ...\n",
            "tests/engine/test_pifpaf_x.py": 'G = "pifpaf"\n', "tools/vectors_pifpaf.py": 'G = "pifpaf"\n',
            "bench/recount_pifpaf.py": 'G = "pifpaf"\n', "tests/y.py": 'G = "cacho" if cacheta else "x"\n'}
    for path, source in said.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(source)
    found = {game: paths for game, paths in game_names.shared(tmp_path).items() if paths}
    said_by_title = '"""Pif Paf, as a docstring says it."""\nWHERE = "Pif Paf, Cacheta"\n'
    assert list(game_names.titled(said_by_title, "client/screens/help.py")) == [(2, "cacheta"), (2, "pifpaf")]
    assert list(game_names.titled(said_by_title, "client/games/pifpaf.py")) == [(2, "cacheta")]
    assert found == {"pifpaf": ["tests/client/test_x.py", "tools/x.py"], "cacho": ["tests/y.py"],
                     "cacheta": ["tests/y.py"]}


def test_the_scan_sees_a_game_named_in_an_identifier_and_each_use_of_a_family_s_messages() -> None:
    from tools import game_names

    said = ("from cardtui.v1 import rummy_pb2\n"
            "if isinstance(body, rummy_pb2.CachetaFlipped) or isinstance(body, rummy_pb2.RummyDealt):\n"
            "    self.cacheta = PIFPAF_FIELD\n"
            "def pifpaf_bets(truco_paulista: int) -> None: ...\n")
    assert sorted(game_names.identified(said, "client/fairness.py")) == [
        (2, "cacheta"), (3, "cacheta"), (3, "pifpaf"), (4, "pifpaf"), (4, "truco_paulista")]
    assert sorted(game_names.branches(said, "client/fairness.py")) == [(1, "rummy"), (2, "rummy")]
    # The family's client part may use its messages and name its games; a game's bench module is its own.
    assert not list(game_names.branches(said, "client/boards/rummy_deal.py"))
    assert sorted(game_names.identified(said, "client/boards/rummy_deal.py")) == [(4, "truco_paulista")]
    assert sorted(game_names.identified(said, "bench/recount_cacheta.py")) == [
        (3, "pifpaf"), (4, "pifpaf"), (4, "truco_paulista")]


def test_the_scan_sees_a_family_told_apart_outside_its_own_modules() -> None:
    from tools import game_names

    said = 'from cardtui.engine.rummy.records import RummyView\nfrom cardtui.v1 import truco_pb2\n' \
           'if view.HasField("cacho") or view.WhichOneof("game") == "truco":\n    cards = view.rummy.cards\n'
    assert sorted(game_names.branches(said, "engine/analysis.py")) == [
        (1, "rummy"), (2, "truco"), (3, "cacho"), (3, "truco"), (4, "rummy")]
    # A family's own folder may read its own, not another family's.
    assert sorted(game_names.branches(said, "engine/rummy/search.py")) == [(2, "truco"), (3, "cacho"), (3, "truco")]
    assert sorted(game_names.branches(said, "client/boards/rummy_table.py")) == [
        (2, "truco"), (3, "cacho"), (3, "truco")]
    # A family's client modules are its boards' (``client/boards/truco*.py``), its registered family among them; a
    # branch anywhere else in the client is over its module's allowance, which is none.
    truco = 'from cardtui.v1 import truco_pb2\nif isinstance(body, truco_pb2.TrucoPlayed):\n    pass\n'
    assert not list(game_names.branches(truco, "client/boards/truco_family.py"))
    found = [("client/lines/loop.py", line, fam) for line, fam in game_names.branches(truco, "client/lines/loop.py")]
    assert found == [("client/lines/loop.py", 1, "truco"), ("client/lines/loop.py", 2, "truco")]
    assert game_names.beyond(found, CLIENT_BRANCHES) == found
    assert game_names.beyond(found, {"client/lines/loop.py": 2}) == []


def test_the_scan_sees_a_game_named_elsewhere_and_not_the_wires_families() -> None:
    from tools import game_names

    said = 'if game == "pifpaf" or game.startswith("truco"):\n    kind = view.WhichOneof("game")\n' \
           'if kind == "cacho" or view.HasField("cacho"):\n    pass\n'
    assert sorted(game_names.places(said, "client/screens/table.py")) == [
        (1, "pifpaf"), (1, "truco_argentino"), (1, "truco_paulista")]
    # A rummy board may name its own games, not the trucos.
    assert sorted(game_names.places(said, "client/boards/rummy.py")) == [(1, "truco_argentino"), (1, "truco_paulista")]


def test_no_game_is_told_apart_by_the_shape_of_its_view() -> None:
    """A family's games are told apart by what each declares (a rummy view's ``table``), never by which of the
    fields only some games fill in happens to be there: a third game would be taken for another, silently."""
    from tools import game_shapes

    found = game_shapes.scan(ROOT)
    assert not found, "a game told apart by its view's shape (ask the game's declared data instead):\n" + "\n".join(
        f"{p}:{line}: {field}" for p, line, field in found)


def test_the_scan_sees_a_game_told_apart_by_a_field_only_some_fill_in() -> None:
    from tools import game_shapes

    said = ("cacheta = view.flip is not None\n"  # a flag of which game it is, kept
            "if self.flip is not None:  # Cacheta\n    tens = 2\n"  # a branch that reads nothing of it
            "rank = A if v.paulista is not None else B\n"
            "tentos = ' tentos' if t.HasField('paulista') else ''\n"
            "live = [s for s in seats if s.playing or not v.argentino]\n"
            "return Player(view.paulista is not None, rng)\n")
    assert sorted(game_shapes.places(said, "engine/rummy/advice.py")) == [
        (1, "flip"), (2, "flip"), (4, "paulista"), (5, "paulista"), (6, "argentino"), (7, "paulista")]
    # A field read where it is there is the field's own data, not a question of which game it is.
    read = ("if view.flip is not None:\n    seen[view.flip] += 1\n"
            "won = v.argentino.points if v.argentino is not None else (0, 0)\n"
            "onze = v.paulista is not None and v.paulista.phase is ONZE\n"
            "if r.HasField('betting'):\n    out.append(r.betting.level)\n"
            "assert view.paulista is not None\n"
            "cards = [c for c in v.paulista.rejected] if v.paulista else []\n")
    assert not list(game_shapes.places(read, "engine/truco/bots/worlds.py"))
    # A game's own modules may look at their own fields.
    assert not list(game_shapes.places(said, "engine/rummy/cacheta.py"))
    assert not list(game_shapes.places(said, "engine/rummy/bots/cacheta_hard.py"))
    assert not list(game_shapes.places(said, "engine/truco/paulista/view.py"))
    assert list(game_shapes.places(said, "bench/recount.py"))


def test_an_unknown_game_is_an_error_that_says_so_not_another_games_facts() -> None:
    from cardtui.client import gamebook
    from cardtui.engine import games

    with pytest.raises(games.UnknownGame, match="no game called 'nova'"):
        games.entry("nova")
    with pytest.raises(gamebook.UnknownGame):
        gamebook.get("nova")
    assert gamebook.find("nova") is None and "nova" not in gamebook.Which(lambda g: True)
