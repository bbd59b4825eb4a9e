"""``cardtui analyze``: exported hand histories judged offline, as text, as JSON, with a progress bar."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardtui import analyze, i18n
from cardtui.engine import analysis
from cardtui.engine.advice import DrawReason
from cardtui.engine.analysis import Label
from cardtui.engine.bots.estimates import Unit
from cardtui.engine.cards import parse_cards
from cardtui.engine.core import Action
from cardtui.server.store import Store
from cardtui.sim import simulate

CARDTUI = [sys.executable, "-m", "cardtui.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CARDTUI, *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hands played by bots, kept in a store and exported as a host would (``cardtui history export``): made once
    for the tests that read it (two processes of the command line, seconds each on a busy machine)."""
    tmp_path = tmp_path_factory.mktemp("exported")
    sim = tmp_path / "sim.jsonl"
    done = run("sim", "--game", "truco_argentino", "--players", "2", "--hands", "3", "--seed", "3", "--history",
               str(sim))
    assert done.returncode == 0, done.stderr
    store = Store(tmp_path / "s.db")
    store.tables.add_table("t1", "truco_argentino", "one", {})
    for line in sim.read_text().splitlines():
        store.hands.add_hand("t1", dict(json.loads(line), table="t1"))
    store.close()
    out = tmp_path / "t1.jsonl"
    done = run("history", "export", "--db", str(tmp_path / "s.db"), "--table", "t1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


EXPORTED = pytest.mark.xdist_group("analyze-exported")
"""The tests that read ``exported`` run in one test process, which makes it once."""


@EXPORTED
def test_analyze_reads_an_exported_history_as_text_and_as_json(exported: Path) -> None:
    path = exported
    text = run("analyze", str(path))
    assert text.returncode == 0, text.stderr
    assert "table t1, hand 1:" in text.stdout and "chosen" in text.stdout and "best" in text.stdout
    assert "Accuracy (0 to 100) measures" in text.stdout  # said once, what it measures
    assert "A choice's value is your chance to win the match." in text.stdout
    assert "What a choice lost is in points: 125 are a whole stake of the hand" in text.stdout  # the one scale
    rows = [line for line in text.stdout.splitlines() if "▸" in line]
    assert rows and all("%" in r and "points" not in r for r in rows), rows  # values in the unit, never points
    # Then the match drawn: each player's chance of winning it before the first hand and after each.
    drawn = text.stdout.split("Match 1 of table t1 drawn: ", 1)[1].splitlines()
    assert drawn[0].startswith("each one's chance of winning it (%)")
    assert drawn[3].split() == ["hand", "0", "1", "2", "3"] and drawn[4].split()[-4] == "50"  # two players
    as_json = run("analyze", str(path), "--json", "--hand", "2", "--seat", "1")
    assert as_json.returncode == 0, as_json.stderr
    lines = [json.loads(line) for line in as_json.stdout.splitlines()]
    hand = analysis.from_json(lines[0])
    assert hand.hand == 2 and hand.seats == (1,) and all(m.seat == 1 for m in hand.moments)
    assert lines[-1]["format"] == "cardtui-analysis-summary/1" and [s["seat"] for s in lines[-1]["seats"]] == [1]
    charts = lines[-1]["charts"]
    assert [(c["table"], c["match"], c["unit"], c["even"]) for c in charts] == [("t1", 1, "match", 0.5)]
    assert [s["seat"] for s in charts[0]["seats"]] == [1]
    assert [p["hand"] for p in charts[0]["seats"][0]["points"]] == [0, 2]
    # The same seed gives the same analysis; Portuguese for people.
    again = run("analyze", str(path), "--json", "--hand", "2", "--seat", "1")
    assert again.stdout == as_json.stdout
    pt = run("--lang", "pt_BR", "analyze", str(path), "--hand", "1")
    assert pt.returncode == 0 and "Precisão" in pt.stdout


@EXPORTED
def test_analyze_refuses_what_is_not_a_finished_hand_with_a_sentence(tmp_path: Path, exported: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    done = run("analyze", str(bad))
    assert done.returncode == 2 and "line 1" in done.stderr and "Traceback" not in done.stderr
    path = exported
    record = json.loads(path.read_text().splitlines()[0])
    record["actions"][0] = dict(record["actions"][0], type="retruco")
    forged = tmp_path / "forged.jsonl"
    forged.write_text(json.dumps(record) + "\n")
    done = run("analyze", str(forged))
    assert done.returncode == 2 and "does not replay" in done.stderr and "Traceback" not in done.stderr
    missing = run("analyze", str(path), "--hand", "99")
    assert missing.returncode == 1 and "no hand 99" in missing.stderr


def test_a_long_file_shows_a_progress_bar(tmp_path: Path) -> None:
    """Cacho's hands: the bar counts decisions whatever the game, and a Cacho decision is judged in a third of a
    truco one's time (eight hands of two, 22 decisions: 3.4 s of CPU, where six hands of truco paulista at four,
    27 decisions, took 10.6 s)."""

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    path = tmp_path / "long.jsonl"
    with path.open("w", encoding="utf-8") as f:
        simulate("cacho", 2, 8, 11, {}, f)
    out, err = io.StringIO(), Tty()
    assert analyze.run(str(path), None, None, True, 0, out, err) == 0
    total = sum(analysis.decisions(json.loads(line)) for line in path.read_text().splitlines())
    assert total >= analyze.LONG
    assert f"{total}/{total}" in err.getvalue() and "[" + "#" * 30 + "]" in err.getvalue()
    assert len(out.getvalue().splitlines()) == len(path.read_text().splitlines()) + 1


def test_each_decision_is_named_for_whoever_held_its_seat_then_and_said_in_words(tmp_path: Path) -> None:
    """A seat that changed hands mid-hand (its history's ``holders``): each decision names the seat's holder at
    that step, not its first; a bot playing for a person away is said as the table's log says it; every action
    and choice is in words in the reader's language, never the history's codes."""
    path = tmp_path / "hands.jsonl"
    with path.open("w", encoding="utf-8") as f:
        simulate("truco_argentino", 2, 1, 5, {}, f)
    record = json.loads(path.read_text().splitlines()[0])
    mine = [e for e in record["actions"] if e.get("seat") == 1]
    assert len(mine) >= 2, "seat 2 moves twice in the hand simulated"
    record["seats"][1] = dict(record["seats"][1], name="dan")
    record["holders"] = [{"seat": 1, "from": mine[1]["seq"], "name": "bia", "bot": "hard", "away": True},
                         {"seat": 1, "from": mine[-1]["seq"] + 1, "name": "fay"}]
    path.write_text(json.dumps(record) + "\n")
    steps = {e["seq"]: n for n, e in enumerate((e for e in record["actions"] if e.get("seat") is not None), 1)}
    first, second = steps[mine[0]["seq"]], steps[mine[1]["seq"]]
    codes = {e["type"] for e in record["actions"] if "_" in e["type"] or e["type"] in ("play", "quiero")}
    for lang, bot in (("en", "bia (bot)"), ("pt_BR", "bia (bot)"), ("es", "bia (bot)")):
        i18n.use(lang)
        out, err = io.StringIO(), io.StringIO()
        assert analyze.run(str(path), None, 1, False, 0, out, err) == 0, err.getvalue()
        lines = out.getvalue().splitlines()
        head = {int(line.split()[1].rstrip(",")): line for line in lines if line.lstrip().split(" ")[0] in (
            "step", "passo", "paso")}
        assert "dan" in head[first] and bot.split()[0] in head[second] and "dan" not in head[second], lines
        for line in lines:
            for code in codes:  # a code as a word of its own ("play"), not inside one ("playing to 30")
                assert not re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", line), (lang, code, line)


def test_a_flagged_decision_says_its_loss_in_chips_and_why() -> None:
    """Pif Paf's values are chips, and its loss is in points, the one scale of a loss in every game; and the
    reason."""
    draw = Action("draw", value="stock")
    pile = Action("draw", value="pile")
    why = DrawReason(parse_cards("KH")[0], 3, 0, True, False, 10, 93)
    moment = analysis.Moment(4, 0, draw, pile, (analysis.Choice(pile, 1.5, 0.1, 0.0, 0.0),
                                                analysis.Choice(draw, -0.75, 0.1, 2.25, 0.1)),
                             2.25, 0.1, 280.9, Label.BLUNDER, 0.0, 64, (), 1.0, why)
    hand = analysis.HandAnalysis("pifpaf", "t", 1, 1, Unit.CHIPS, 1.0, 0, 1.0, (0,), (moment,))
    named = analyze.Named(hand, {0: "ana"})
    i18n.use("en")
    lines = analyze.moment_lines(moment, Unit.CHIPS, named)
    assert "(281 points lost)" in lines[0] and "chips lost" not in "\n".join(lines)
    assert "Taking the K♥ let you go out now." in lines[1]
    assert any("+1.50 chips" in line for line in lines) and any("-0.75 chips" in line for line in lines)
    assert "A choice's value is the chips it ends the hand with." in "\n".join(analyze.hand_lines(named))
    summary = "\n".join(analyze.summary_lines([named]))
    assert "(281 points lost)" in summary and "chips lost" not in summary
