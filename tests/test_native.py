"""The compiled engine (cardtui.native, tools.native): used only when it matches the sources,
plain Python otherwise, and the same game either way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from cardtui import native
from tools import native as build_tool

# A seeded truco argentino match with random play, printed as its hand histories: what the
# compiled engine and plain Python must agree on, byte for byte.
MATCH = """
import json, random, sys
import cardtui.engine.truco.argentino.game as argentino
from cardtui.engine.core import SeatInfo
from cardtui.native import STATUS
game, rng = argentino.GAME, random.Random(5)
state, _ = game.start(game.options({"flor": True}), [SeatInfo(i, f"p{i}", i % 2) for i in range(4)], 11)
histories = []
while True:
    while not game.hand_over(state):
        moves = [(s, a) for s in range(4) for a in game.legal_actions(state, s) if a.type != "signal"]
        game.apply(state, *moves[int(rng.random() * len(moves))])
    histories.append(game.history(state))
    if game.match_over(state):
        break
    game.next_hand(state, rng.randrange(1 << 30))
print(json.dumps({"file": argentino.__file__, "status": STATUS, "histories": histories}, sort_keys=True))
"""


# A seeded Cacho match with random play, as the server sends it: every event's and every
# audience's view's bytes (the wire and Cacho's rules, compiled or not), and the record read back.
WIRE = """
import hashlib, json, random
import cardtui.engine.cacho.rules as cacho
import cardtui.server.base.wire as wire
from cardtui.native import STATUS
from cardtui.v1 import table_pb2
game, rng, digest = cacho.GAME, random.Random(3), hashlib.sha256()
match, events = game.open({"chips": 12}, game.seat_infos(["a", "b", "c", "d"]), 9)
views = 0
for step in range(400):
    for event in events:
        digest.update(wire.event_body(event.body))
    with wire.sharing():
        for seat in (0, 1, 2, 3, None):
            legal = match.legal_actions(seat) if seat is not None else []
            data = wire.view_bytes(match.view(seat), legal, 1000, b"")
            digest.update(data)
            back = wire.view_record(table_pb2.View.FromString(data), cacho.CachoView)
            assert back == match.view(seat), (back, match.view(seat))
            views += 1
    if match.match_over():
        break
    if match.hand_over():
        events = match.next_hand(rng.randrange(1 << 30))
        continue
    seat = next(s for s in match.to_act() if match.legal_actions(s))
    events = match.apply(seat, rng.choice(match.legal_actions(seat)))
print(json.dumps({"file": wire.__file__, "status": STATUS, "digest": digest.hexdigest(), "views": views}))
"""


# A hand of Pif Paf and one of Cacheta, every seat the hard bot (the meld search, and Pif Paf's bets
# played out by the rummy search), and the analysis of each hand's first seat: compiled or not, the
# same choices and the same odds.
RUMMY = """
import json, random
from cardtui.engine import analysis
from cardtui.engine.games import get
import cardtui.engine.rummy.bots.search as rummy_search
from cardtui.native import STATUS
def hand(game, players):
    rules, rng = get(game), random.Random(6)
    match, _ = rules.open({}, rules.seat_infos([f"hard{i}" for i in range(players)]), 6)
    while not match.hand_over():
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        match.apply(seat, match.bot_action(seat, rng, "hard"))
    return match.history()
pifpaf, cacheta = hand("pifpaf", 3), hand("cacheta", 2)
judged = [analysis.to_json(analysis.analyse(h, seed=2, seats=[0])) for h in (pifpaf, cacheta)]
print(json.dumps({"file": rummy_search.__file__, "status": STATUS, "hands": [pifpaf, cacheta], "analysis": judged},
                 sort_keys=True))
"""


# A hand each of truco paulista, truco argentino and Cacho, every seat the hard bot (the searches behind the truco
# and Cacho bots: the worlds dealt, read and played out; argentino's envido drawn from its equilibrium, solved), and
# the analysis of every seat: compiled or not, the same choices and the same odds.
SEARCHES = """
import json, random
from cardtui.engine import analysis
from cardtui.engine.games import get
import cardtui.engine.cacho.bots.search as cacho_search
import cardtui.engine.truco.bots.search as truco_search
import cardtui.engine.truco.bots.envido_game as envido_game
from cardtui.native import STATUS
def hand(game, players, seed):
    rules, rng = get(game), random.Random(seed)
    match, _ = rules.open({}, rules.seat_infos([f"hard{i}" for i in range(players)]), seed)
    while not match.hand_over():
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        match.apply(seat, match.bot_action(seat, rng, "hard"))
    return match.history()
hands = [hand("truco_paulista", 4, 3), hand("truco_argentino", 2, 4), hand("cacho", 3, 5), hand("cacho", 4, 8)]
judged = [analysis.to_json(analysis.analyse(h, seed=2)) for h in hands]
files = [truco_search.__file__, cacho_search.__file__, envido_game.__file__]
print(json.dumps({"file": truco_search.__file__, "files": files,
                  "status": STATUS, "hands": hands, "analysis": judged}, sort_keys=True))
"""


# A hand each of Pif Paf and Cacheta played by the hard bots, the match copied (``copy.deepcopy``) before every action
# and once the hand is over, a knock in it: the copy's view is the match's, and the copy plays on alike.
COPIES = """
import copy, json, random
from cardtui.engine.games import get
import cardtui.engine.rummy.melds as melds
from cardtui.native import STATUS
out = []
for game, players in (("pifpaf", 3), ("cacheta", 2)):
    rules, rng = get(game), random.Random(4)
    match, _ = rules.open({}, rules.seat_infos([f"p{i}" for i in range(players)]), 4)
    copies = 0
    while True:
        twin = copy.deepcopy(match)
        assert twin.view(0) == match.view(0)
        copies += 1
        if match.hand_over():
            break
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        action = match.bot_action(seat, rng, "normal")
        twin.apply(seat, action)
        match.apply(seat, action)
        assert twin.view(seat) == match.view(seat)
    out.append({"copies": copies, "knock": match.history()["result"]["knock"]})
print(json.dumps({"file": melds.__file__, "status": STATUS, "hands": out}, sort_keys=True))
"""


def play(code: str = MATCH, **env: str) -> dict[str, object]:
    environment = {k: v for k, v in os.environ.items() if k != native.OFF} | env
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment,
                         check=True, timeout=120)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_plain_python_plays_the_same_match_as_the_build_in_use() -> None:
    pure = play(**{native.OFF: "1"})
    assert str(pure["file"]).endswith(".py")
    assert pure["status"] == f"plain Python: {native.OFF} is set"
    used = play()
    if str(used["status"]).startswith("compiled"):
        assert str(used["file"]).endswith(sysconfig.get_config_var("EXT_SUFFIX"))
        assert str(used["file"]).startswith(str(native.DIR))
    assert used["histories"] == pure["histories"]
    assert len(pure["histories"]) > 1  # type: ignore[arg-type]


def both(code: str) -> tuple[dict[str, object], dict[str, object]]:
    """``code`` run in plain Python and on the build in use, each checked to have run what it says."""
    pure = play(code, **{native.OFF: "1"})
    assert str(pure["file"]).endswith(".py")
    used = play(code)
    if str(used["status"]).startswith("compiled"):
        assert str(used["file"]).endswith(sysconfig.get_config_var("EXT_SUFFIX"))
    return pure, used


def test_plain_python_sends_the_same_cacho_bytes_as_the_build_in_use() -> None:
    pure, used = both(WIRE)
    assert used["digest"] == pure["digest"]
    assert int(pure["views"]) > 500  # type: ignore[call-overload]


def test_plain_python_plays_and_judges_the_same_rummy_hands_as_the_build_in_use() -> None:
    pure, used = both(RUMMY)
    assert used["hands"] == pure["hands"]
    assert used["analysis"] == pure["analysis"]
    assert all(judged["decisions"] for judged in pure["analysis"])  # type: ignore[attr-defined]


def test_plain_python_plays_and_judges_the_same_truco_and_cacho_hands_as_the_build_in_use() -> None:
    pure, used = both(SEARCHES)
    if str(used["status"]).startswith("compiled"):
        assert all(str(f).endswith(sysconfig.get_config_var("EXT_SUFFIX")) for f in used["files"])  # type: ignore[attr-defined]
    assert used["hands"] == pure["hands"]
    assert used["analysis"] == pure["analysis"]
    assert all(judged["decisions"] for judged in pure["analysis"])  # type: ignore[attr-defined]


def test_a_rummy_state_with_a_knock_in_it_copies_alike_compiled_or_not() -> None:
    """Compiled, a frozen dataclass of the meld search (``melds.Knock``) could not be deep-copied: a Pif Paf or
    Cacheta state with a knock in it raised ``FrozenInstanceError`` where plain Python copied it."""
    pure, used = both(COPIES)
    assert used["hands"] == pure["hands"]
    assert all(h["knock"] is not None and h["copies"] > 10 for h in pure["hands"])  # type: ignore[attr-defined]


def test_this_process_runs_what_the_status_says() -> None:
    import cardtui.engine.betting as betting
    import cardtui.engine.cacho.bots.search as cacho_search
    import cardtui.engine.rummy.bots.search as rummy_search
    import cardtui.engine.rummy.melds as melds
    import cardtui.engine.truco.argentino.state as state_module
    import cardtui.engine.truco.bots.search as truco_search
    import cardtui.engine.truco.bots.sim as trucosim
    import cardtui.engine.truco.bots.worlds as truco_worlds
    import cardtui.server.actor.fanout as fanout
    import cardtui.server.base.wire as wire

    compiled = native.STATUS.startswith("compiled")
    for module in (state_module, betting, wire, fanout, melds, rummy_search, cacho_search, truco_search, truco_worlds,
                   trucosim):
        assert module.__file__ is not None
        assert module.__file__.endswith(sysconfig.get_config_var("EXT_SUFFIX") if compiled else ".py")


def test_a_build_depends_on_the_server_modules_it_compiles() -> None:
    compiled = {m.removeprefix("cardtui/") for m in build_tool.MODULES}
    assert compiled <= set(native.digests(native.sources()))
    assert {"server/base/wire.py", "server/actor/fanout.py", "engine/betting.py"} <= compiled


def test_what_is_compiled_is_listed_once() -> None:
    """``cardtui.native.COMPILED`` is the one list: the build compiles it, the check of a build's freshness covers
    it (a change to any of them is a stale build, never used), and the Makefile names none of the sources (it asks
    the build, which compares digests), so no list there can fall behind."""
    assert tuple(m.removeprefix("cardtui/") for m in build_tool.MODULES) == native.COMPILED
    assert set(native.COMPILED) <= set(native.sources())
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text()
    assert not [m for m in native.COMPILED if m in makefile or Path(m).name in makefile]


def manifest(directory: Path, sources: dict[str, str], python: str = sys.version) -> None:
    directory.mkdir(exist_ok=True)
    so = directory / f"cardtui_native__mypyc{sysconfig.get_config_var('EXT_SUFFIX')}"
    so.write_bytes(b"")
    (directory / "manifest.json").write_text(json.dumps({
        "python": python, "sources": sources, "modules": {"cardtui_native__mypyc": so.name},
    }))


def test_a_build_is_used_only_while_every_source_matches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.OFF, raising=False)
    now = native.digests(native.sources())
    manifest(tmp_path, now)
    files, status = native.check(tmp_path)
    assert files is not None and status.startswith("compiled")

    changed = dict(now, **{"engine/truco/envido.py": "0" * 64})
    manifest(tmp_path, changed)
    assert native.check(tmp_path) == (
        None, "plain Python: engine/truco/envido.py changed since the build (make rebuilds it)")

    fewer = {k: v for k, v in now.items() if k != "engine/truco/flor.py"}
    manifest(tmp_path, fewer)
    assert native.check(tmp_path)[1] == "plain Python: engine/truco/flor.py changed since the build (make rebuilds it)"

    manifest(tmp_path, now, python="2.7.18")
    assert native.check(tmp_path) == (None, "plain Python: the build is for another Python")

    manifest(tmp_path, now)
    monkeypatch.setenv(native.OFF, "1")
    assert native.check(tmp_path) == (None, f"plain Python: {native.OFF} is set")


def test_no_build_means_plain_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.OFF, raising=False)
    files, status = native.check(tmp_path / "nothing")
    assert files is None and status.startswith("plain Python: no compiled build")


def test_without_a_compiler_the_build_steps_aside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.OFF, raising=False)
    old = tmp_path / "old"
    manifest(old, native.digests(native.sources()))
    monkeypatch.setattr(build_tool, "compiler", lambda: None)
    assert build_tool.build(old) == "native: no C compiler here: the engine runs as plain Python"
    assert not old.exists()  # an older build is not left to be used


def test_the_switch_skips_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = tmp_path / "old"
    manifest(old, native.digests(native.sources()))
    monkeypatch.setenv(native.OFF, "1")
    assert build_tool.build(old) == f"native: skipped ({native.OFF} is set): the engine runs as plain Python"
    assert not old.exists()


def test_a_build_kept_in_the_cache_serves_the_next_venv_and_the_cache_keeps_the_latest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh clone of the same sources takes the build made before (it still has to load) instead of compiling
    again; a cache entry of other sources is not taken; the cache keeps the ``KEPT`` latest builds."""
    monkeypatch.delenv(native.OFF, raising=False)
    build = native.current()
    if build is None or native.check(build)[0] is None or build_tool.compiler() is None:
        pytest.skip(f"no compiled build to keep here ({native.STATUS})")
    monkeypatch.setattr(build_tool, "SHARED", tmp_path / "cache")
    build_tool.keep_shared(build)
    assert (tmp_path / "cache" / build_tool.shared_key() / "manifest.json").is_file()

    def compiles(*_: object) -> str:
        raise AssertionError("compiled though the cache holds the build of these sources")

    monkeypatch.setattr(build_tool, "compile_into", compiles)
    line = build_tool.build(tmp_path / "venv")
    assert line.startswith("native: took the build made before in "), line
    taken = native.current(tmp_path / "venv")
    assert taken is not None and native.check(taken)[0] is not None

    other = tmp_path / "other"
    monkeypatch.setattr(build_tool, "digests", lambda _: {"engine/core.py": "0" * 64})
    assert not build_tool.take_shared(other, {"engine/core.py": "0" * 64})

    for n in range(build_tool.KEPT + 1):
        monkeypatch.setattr(build_tool, "shared_key", lambda n=n: f"key{n}")
        build_tool.keep_shared(build)
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [f"key{n + 1}" for n in range(build_tool.KEPT)]


def test_the_last_build_of_these_sources_did_not_fail() -> None:
    """A build that fails leaves the room on plain Python and says so in one line above the tests, which then pass
    slower: a change that breaks the compile (a name mypyc cannot type) would go unseen. ``make test`` builds first,
    so a failure recorded for these very sources fails here, with the line that says why."""
    if os.environ.get(native.OFF):
        pytest.skip(f"{native.OFF} is set: no build is tried")
    failure = build_tool.failed(native.DIR)
    assert failure is None, f"the compiled build of these sources failed: {failure['why']} (make native shows why)"
