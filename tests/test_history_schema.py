"""Every hand history cardtui writes validates against docs/hand-history.schema.json.

``cardtui sim`` is run for every game, every player count and every option that changes the
record (plain seeds and fair deals); the records it seldom writes (a Cacho redeal, a rebuilt
stock, a burned cut, rebuys, standings, a mão de onze or de ferro, cards played face down or
blind, going to the deck, pica-pica, flor) are played on purpose, through the same engine, by
scripts that prefer those actions. The schema itself is checked to refuse what the document
rules out, and to let keys it does not know through.
"""

from __future__ import annotations

import copy
import io
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cardtui.cli import main as cardtui
from cardtui.engine.core import Action
from cardtui.engine.fairness import linked, verify
from cardtui.engine.games import GAMES
from cardtui.sim import sim_deal_seed, simulate
from tests.per_game import Sim, declared

DOCS = Path(__file__).resolve().parent.parent / "docs"
SCHEMA = json.loads((DOCS / "hand-history.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def problems(record: dict[str, Any]) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in VALIDATOR.iter_errors(record)]


def test_the_schema_is_a_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


# -- what cardtui sim writes --------------------------------------------------------------------
SIMS = [(game, sim) for game, tests in declared().items() for sim in tests.sims]
"""Each game's runs (``GameTests.sims``, in its own test module): players, options, hands, bot level, and the keys
some record of the run must hold."""


def sim_lines(game: str, players: int, options: dict[str, Any], hands: int, level: str, fair: bool) -> list[str]:
    out = io.StringIO()
    simulate(game, players, hands, 11, options, out, fair=fair, level=level)
    return out.getvalue().splitlines()


@pytest.mark.parametrize("fair", [False, True], ids=["plain", "fair"])
@pytest.mark.parametrize(("game", "sim"), SIMS,
                         ids=[f"{g}-{s.players}-{'-'.join(s.options) or 'defaults'}" for g, s in SIMS])
def test_every_history_sim_writes_validates(game: str, sim: Sim, fair: bool) -> None:
    lines = sim_lines(game, sim.players, dict(sim.options), sim.hands, sim.level, fair)
    assert len(lines) == sim.hands
    keys: set[str] = set()
    for line in lines:
        record = json.loads(line)
        assert problems(record) == [], (game, record["hand"])
        assert ("fair" in record) == fair and ("prev" in record) == fair and ("awaited" in record) == fair
        keys |= set(record)
    assert sim.keys <= keys


@pytest.mark.parametrize(("game", "players", "kind"), [(game, players, kind) for game, tests in declared().items()
                                                       for players, kind in tests.seldom])
def test_sim_writes_what_bots_seldom_do_and_awaited(game: str, players: int, kind: str) -> None:
    """One hand in eight from the second is played off the bots' path, so the histories sim writes
    (and every test that reads them: the schema, verify, replays) hold a Cacho redeal and a rummy
    stock rebuilt, not only the vectors; a fair one holds ``awaited`` as a server writes it."""
    records = [json.loads(line) for line in sim_lines(game, players, {}, 10, "easy", True)]
    with_it = [r["hand"] for r in records if any(a["type"] == kind for a in r["actions"])]
    assert 2 in with_it and 10 in with_it, with_it
    assert all(r["awaited"] == sorted(int(s) for s in r["fair"]["player_seeds"]) for r in records)
    assert any(r["awaited"] for r in records)
    assert [problems(r) for r in records if problems(r)] == []
    checks = verify(records, GAMES)
    assert [c.line() for c in checks if not c.ok or c.dropped] == []


def test_the_command_line_s_file_validates(tmp_path: Path) -> None:
    out = tmp_path / "hands.jsonl"
    assert cardtui(["sim", "--game", "cacho", "--players", "3", "--hands", "20", "--fair", "--history", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 20
    for line in lines:
        assert problems(json.loads(line)) == []


# -- the records sim seldom writes, played on purpose -------------------------------------------
Prefer = Callable[[Any, int, list[Action]], Action | None]


def scripted(game_name: str, players: int, options: dict[str, Any], hands: int, prefer: Prefer,
             level: str = "easy", seed: int = 5) -> Iterator[dict[str, Any]]:
    """Hands as ``sim --fair`` deals and stores them, with ``prefer`` choosing where it wants to."""
    rules = GAMES[game_name]
    rng = random.Random(seed)
    seats = rules.seat_infos([f"p{i}" for i in range(players)])
    match, _ = rules.open(options, seats, sim_deal_seed(rng, "scripted", 1, players))
    previous = None
    for n in range(1, hands + 1):
        while not match.hand_over():
            state = getattr(match, "state", None)
            for seat in range(players):  # the script first, out of turn too where the game allows it
                legal = match.legal_actions(seat)
                choice = prefer(state, seat, legal) if legal else None
                if choice is not None:
                    match.apply(seat, choice)
                    break
            else:
                seat = next(s for s in match.to_act() if match.legal_actions(s))
                match.apply(seat, match.bot_action(seat, rng, level))
        record = match.history()
        assert record is not None
        record = previous = linked(json.loads(json.dumps(dict(record, table="scripted", hand=n, match=1))), previous)
        yield record
        if match.match_over():
            match, _ = rules.open(options, seats, sim_deal_seed(rng, "scripted", n + 1, players))
        else:
            match.next_hand(sim_deal_seed(rng, "scripted", n + 1, players))


def first(legal: list[Action], *kinds: str) -> Action | None:
    return next((a for a in legal for k in kinds if a.type == k), None)


def everyone_passes_first(state: Any, seat: int, legal: list[Action]) -> Action | None:
    """Cacho: nobody bets the first card, so every hand is redealt at least once."""
    redealt = any(entry[1] is None for entry in state.log.actions)
    return first(legal, "pass") if not redealt else None


def stock_runs_out(state: Any, seat: int, legal: list[Action]) -> Action | None:
    """Rummy: draw from the stock and throw the card drawn until the stock has been rebuilt."""
    if any(entry[1] is not None and entry[1].type == "rebuild" for entry in state.log.actions):
        return None
    if state.phase.value == "discard":
        return Action("discard", cards=(state.drawn,))
    draw = next((a for a in legal if a.type == "draw" and a.value == "stock"), None)
    return draw or first(legal, "pass", "check")


def cut_whenever_allowed(state: Any, seat: int, legal: list[Action]) -> Action | None:
    """Cacheta: declare na boa and cut the line at every chance (some cuts burn)."""
    return first(legal, "cut", "declare")


def play_face_down(state: Any, seat: int, legal: list[Action]) -> Action | None:
    return first(legal, "play_down")


def go_to_the_deck_after_playing(state: Any, seat: int, legal: list[Action]) -> Action | None:
    """Truco argentino: seat 0 plays its first card, then goes to the deck before the trick ends
    (its card is then void)."""
    if seat == 0 and state.played0[0]:
        return first(legal, "mazo")
    return None


SCRIPTS: list[tuple[str, str, int, dict[str, Any], int, Prefer, set[str]]] = [
    ("redeal", "cacho", 3, {}, 3, everyone_passes_first, {"redeal"}),
    ("rebuilt stock", "pifpaf", 3, {}, 1, stock_runs_out, {"rebuild"}),
    ("rebuilt stock", "cacheta", 2, {}, 1, stock_runs_out, {"rebuild"}),
    ("cuts", "cacheta", 3, {}, 4, cut_whenever_allowed, {"declare", "cut", "took", "burned"}),
    ("face down", "truco_paulista", 4, {}, 20, play_face_down, {"play_down"}),
    ("to the deck", "truco_argentino", 4, {}, 6, go_to_the_deck_after_playing, {"mazo", "void"}),
    ("to the deck", "truco_argentino", 6, {"flor": True}, 6, go_to_the_deck_after_playing, {"mazo"}),
]


@pytest.mark.parametrize(("what", "game", "players", "options", "hands", "prefer", "kinds"), SCRIPTS,
                         ids=[f"{s[1]}-{s[0]}" for s in SCRIPTS])
def test_the_records_sim_seldom_writes_validate(
    what: str, game: str, players: int, options: dict[str, Any], hands: int, prefer: Prefer, kinds: set[str]
) -> None:
    seen: set[str] = set()
    seed = 1 if what == "cuts" else 5  # deals on which the script meets every kind it is after
    for record in scripted(game, players, options, hands, prefer, level="normal" if game == "cacheta" else "easy",
                           seed=seed):
        assert problems(record) == [], record["hand"]
        seen |= {a["type"] for a in record["actions"]} | {a.get("outcome", "") for a in record["actions"]}
        for trick in [t for r in record["result"].get("rounds", []) for t in r["tricks"]]:
            seen |= {"void"} if "void" in trick else set()
    assert kinds <= seen, f"the script never made a {kinds - seen} record"


def test_the_vectors_histories_validate() -> None:
    """The deal vectors hold a mão de onze and de ferro, blind plays, pica-pica, flor and claims."""
    vectors = json.loads((DOCS / "deal-vectors.json").read_text(encoding="utf-8"))
    records = [d["history"] for d in vectors["deals"]] + [c["history"] for c in vectors["chain"]]
    for record in records:
        assert problems(record) == [], record["table"]
    kinds = {a["type"] for r in records for a in r["actions"]}
    assert {"redeal", "rebuild", "claim", "play_blind", "reject", "pass_cards", "flor"} <= kinds
    assert any(r.get("pica_pica") for r in records)
    assert any(r["result"].get("onze") is not None for r in records)


# -- the schema refuses what the document rules out, and lets new keys through -------------------
@pytest.fixture(scope="module")
def samples() -> dict[str, dict[str, Any]]:
    out = {}
    for game, players in (("cacho", 3), ("pifpaf", 3), ("cacheta", 3), ("truco_paulista", 4),
                          ("truco_argentino", 2)):
        out[game] = json.loads(sim_lines(game, players, {}, 1, "easy", True)[0])
    return out


def broken(record: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    out = copy.deepcopy(record)
    change(out)
    return out


REFUSED: list[tuple[str, str, Callable[[dict[str, Any]], None]]] = [
    ("cacho", "no deal", lambda r: r.pop("deal")),
    ("cacho", "another format", lambda r: r.update(format="cardtui-hand/2")),
    ("cacho", "a card that is not one", lambda r: r["deal"]["0"].append("1S")),
    ("cacho", "a seat key that is not a seat", lambda r: r["start"].update(x=3)),
    ("cacho", "an action of another game", lambda r: r["actions"].append({"seq": 99, "seat": 0, "type": "knock"})),
    ("cacho", "a redeal by a seat", lambda r: r["actions"].append({"seq": 99, "seat": 1, "type": "redeal",
                                                                    "cards": [], "voided": {}})),
    ("cacho", "a fair deal with a plain seed", lambda r: r.update(seed=5)),
    ("cacho", "a commitment in upper case", lambda r: r["fair"].update(commitment=r["fair"]["commitment"].upper())),
    ("pifpaf", "no antes", lambda r: r.pop("antes")),
    ("pifpaf", "a draw without its card", lambda r: r["actions"].append({"seq": 99, "seat": 0, "type": "draw",
                                                                          "value": "stock"})),
    ("cacheta", "no flip", lambda r: r.pop("flip")),
    ("cacheta", "a claim outcome not in the list", lambda r: r["actions"].append(
        {"seq": 99, "seat": 0, "type": "cut", "card": "AS", "outcome": "maybe"})),
    ("truco_paulista", "three players", lambda r: r["seats"].pop()),
    ("truco_paulista", "a reason not in the list", lambda r: r["result"].update(reason="luck")),
    ("truco_argentino", "no pica_pica", lambda r: r.pop("pica_pica")),
    ("truco_argentino", "no rounds", lambda r: r["result"].pop("rounds")),
]


@pytest.mark.parametrize(("game", "what", "change"), REFUSED, ids=[f"{g}: {w}" for g, w, _ in REFUSED])
def test_the_schema_refuses_what_the_document_rules_out(
    samples: dict[str, dict[str, Any]], game: str, what: str, change: Callable[[dict[str, Any]], None]
) -> None:
    assert problems(samples[game]) == []
    assert problems(broken(samples[game], change)) != [], what


def test_keys_the_schema_does_not_know_are_allowed(samples: dict[str, dict[str, Any]]) -> None:
    """Keys are added without a new format (docs/history.md §1): who held a seat when it changed
    hands, which seeds a deal used, anything a later version writes."""
    for record in samples.values():
        grown = broken(record, lambda r: (
            r.update(holders=[{"seat": 0, "from": 3, "name": "ana"}], later={"x": [1, None]}),
            r["fair"].update(used={"0": True}),
            r["seats"][0].update(player="key:ab12"),
            r["actions"][0].update(at_ms=1200),
            r["result"].update(notes=["anything"]),
        ))
        assert problems(grown) == []


# -- keys a later version adds, at every level: the schema and cardtui verify let them through ----
LATER = {"added": [1, None, 0.5], "by": "a later version"}
"""What a later version might write under a key this one does not know."""


def with_later_keys(value: Any) -> Any:
    """A copy with a key no version writes in every object at every level: the hand, its options,
    each seat, the fair record, each action, the result and everything inside it. An object whose
    keys are all seat (or team) numbers is data by seat, not an object of keys: left as it is."""
    if isinstance(value, list):
        return [with_later_keys(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: with_later_keys(v) for k, v in value.items()}
    if value and not all(k.isdigit() for k in value):
        out["later_key"] = copy.deepcopy(LATER)
    return out


def chained(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each table's hands linked again in order, as a server that wrote the new keys would have."""
    last: dict[str, dict[str, Any]] = {}
    out = []
    for record in records:
        record = linked({k: v for k, v in record.items() if k != "prev"}, last.get(record["table"]))
        last[record["table"]] = record
        out.append(record)
    return out


def fair_histories() -> list[dict[str, Any]]:
    """Fair hands of every game (``sim --fair``), and the vectors' rare records (a redeal, a rebuilt
    stock, claims, flor, pica-pica, a mão de onze and de ferro, a dropped seat's ``awaited``)."""
    vectors = json.loads((DOCS / "deal-vectors.json").read_text(encoding="utf-8"))
    records = [d["history"] for d in vectors["deals"]] + [c["history"] for c in vectors["chain"]]
    for game, players, options in (("cacho", 3, {}), ("pifpaf", 3, {"rebuy": True, "chips": 2}), ("cacheta", 3, {}),
                                   ("truco_paulista", 4, {}), ("truco_argentino", 6, {"flor": True})):
        out = io.StringIO()  # (each its own table: one file holds one table's deal 1 once)
        simulate(game, players, 3, 11, options, out, fair=True, level="easy", table=f"sim-{game}")
        records += [json.loads(line) for line in out.getvalue().splitlines()]
    return records


def test_keys_a_later_version_adds_at_every_level_validate_and_replay() -> None:
    for record in fair_histories():
        grown = with_later_keys(record)
        assert "later_key" in grown["options"] and "later_key" in grown["result"]
        assert problems(grown) == [], (record["game"], record["table"], record["hand"])
        game = GAMES[record["game"]]
        assert game.replay_steps(grown) == game.replay_steps(record), "cardtui replay reads it as today's"


def test_cardtui_verify_checks_out_hands_with_keys_a_later_version_adds(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """docs/history.md §1: a reader ignores keys it does not know, at every level, so a history a
    later version writes verifies as today's does, and a tamper still shows among the new keys."""
    records = fair_histories()
    grown = chained([with_later_keys(r) for r in records])
    plain = tmp_path / "today.jsonl"
    plain.write_text("".join(json.dumps(r) + "\n" for r in chained(records)), encoding="utf-8")
    later = tmp_path / "later.jsonl"
    later.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in grown), encoding="utf-8")
    def verdicts(path: Path) -> list[str]:
        """Each hand's line (each table's last hash differs, the new keys being in the hands)."""
        assert cardtui(["verify", str(path)]) == 0, capsys.readouterr().out
        return [line for line in capsys.readouterr().out.splitlines() if " deal " in line]

    lines = verdicts(later)
    assert lines == verdicts(plain)
    assert len(lines) == len(records) and not any("✘" in line or "not a fair deal" in line for line in lines), lines
    tampered = copy.deepcopy(grown)
    first_delta = next(iter(tampered[0]["result"]["deltas"]))
    tampered[0]["result"]["deltas"][first_delta] += 1
    later.write_text("".join(json.dumps(r) + "\n" for r in chained(tampered)), encoding="utf-8")
    assert cardtui(["verify", str(later)]) == 1
    assert "the result differs from the replay" in capsys.readouterr().out
