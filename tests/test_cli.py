"""The cardtui command: sim, history export and verify, run as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardtui import cli
from cardtui.engine.games import get

CARDTUI = [sys.executable, "-m", "cardtui.cli"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CARDTUI, *args], capture_output=True, text=True, timeout=120)


def test_sim_writes_replayable_histories_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    done = run("sim", "--game", "cacho", "--players", "4", "--hands", "200", "--seed", "7", "--history", str(out))
    assert done.returncode == 0, done.stderr
    assert "200 hands" in done.stdout and "hands/s" in done.stdout and "seat 3:" in done.stdout
    lines = out.read_text().splitlines()
    assert len(lines) == 200
    game = get("cacho")
    totals = [0, 0, 0, 0]
    for line in lines:
        record = json.loads(line)
        assert record["format"] == "cardtui-hand/1" and record["game"] == "cacho"
        assert set(record) >= {"options", "table", "hand", "seed", "dealer", "seats", "start", "deal",
                               "actions", "result"}
        replayed = game.replay_match(record).history()
        assert replayed is not None and replayed["result"] == record["result"]
        for seat, d in record["result"]["deltas"].items():
            totals[int(seat)] += d
    assert sum(totals) == 0
    # The same seed gives the same hands.
    again = run("sim", "--game", "cacho", "--players", "4", "--hands", "200", "--seed", "7", "--history",
                str(tmp_path / "again.jsonl"))
    assert again.returncode == 0
    assert (tmp_path / "again.jsonl").read_text() == out.read_text()


def test_sim_refuses_bad_input_with_a_sentence() -> None:
    bad = run("sim", "--game", "poker")
    assert bad.returncode == 2 and "no game 'poker'" in bad.stderr
    bad = run("sim", "--game", "cacho", "--players", "9")
    assert bad.returncode == 2 and "2, 3, 4 players" in bad.stderr
    bad = run("sim", "--game", "cacho", "--level", "genius")
    assert bad.returncode == 2 and "no bot level 'genius' at Cacho; try one of: easy, normal, hard." in bad.stderr


def test_sim_plays_the_bots_at_the_level_asked(tmp_path: Path) -> None:
    """The same seed at two levels: the deals are the same, the play is the level's own."""
    plays = {}
    for level in ("easy", "hard"):
        out = tmp_path / f"{level}.jsonl"
        done = run("sim", "--game", "truco_argentino", "--players", "2", "--hands", "12", "--seed", "5",
                   "--level", level, "--history", str(out))
        assert done.returncode == 0, done.stderr
        records = [json.loads(line) for line in out.read_text().splitlines()]
        plays[level] = ([r["deal"] for r in records[:1]], [r["actions"] for r in records])
    assert plays["easy"][0] == plays["hard"][0], "the first deal is the seed's"
    assert plays["easy"][1] != plays["hard"][1], "hard does not play as easy does"


def test_serve_refuses_a_bad_number_of_bot_workers_with_a_sentence(tmp_path: Path) -> None:
    for workers in ("-1", "65"):
        bad = run("serve", "--port", "0", "--db", str(tmp_path / "s.db"), "--no-announce", "--bot-workers", workers)
        assert bad.returncode == 2 and "--bot-workers must be between 0 and 64" in bad.stderr
    assert not (tmp_path / "s.db").exists(), "a refused start leaves nothing behind"


def test_history_export_writes_the_store_as_json_lines(tmp_path: Path) -> None:
    from cardtui.server.store import Store

    db = tmp_path / "s.db"
    store = Store(db)
    store.tables.add_table("t1", "cacho", "one", {})
    for hand in (1, 2):
        store.hands.add_hand("t1", {"format": "cardtui-hand/1", "game": "cacho", "table": "t1", "hand": hand,
                              "match": hand, "result": {}})
    store.close()
    done = run("history", "export", "--db", str(db), "--table", "t1")
    assert done.returncode == 0
    assert [json.loads(line)["hand"] for line in done.stdout.splitlines()] == [1, 2]
    assert "2 hands exported" in done.stderr
    assert "table t1: table deals 1–2, matches 1–2" in done.stderr, "the deal numbers are labelled as the table's"
    missing = run("history", "export", "--db", str(tmp_path / "none.db"))
    assert missing.returncode == 1 and "no store" in missing.stderr


def test_serve_reads_a_config_file_and_flags_win(tmp_path: Path) -> None:
    config = tmp_path / "cardtui.toml"
    config.write_text('port = 0\nno-announce = true\ndb = ":memory:"\nlog-level = "warning"\n')
    proc = subprocess.Popen([*CARDTUI, "serve", "--config", str(config)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "server on 127.0.0.1:" in line and "store: :memory:" in line
    finally:
        proc.terminate()
        proc.wait(10)
    assert proc.returncode == 0, "SIGTERM: a clean exit"
    config.write_text("colour = 'blue'\n")
    bad = run("serve", "--config", str(config))
    assert bad.returncode == 2 and "unknown setting 'colour'" in bad.stderr


@pytest.mark.xdist_group("built-package")
def test_a_wheel_holds_one_package_cardtui(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Installed, the project is one import package: nothing generic lands in site-packages. The wheel is
    the one the packaging tests build (as ``pip install .`` does), made once in their test process."""
    import zipfile

    from tests.test_packaging import built_package

    wheel = built_package(tmp_path_factory).wheel
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"cardtui"}
    for part in ("engine/core.py", "server/actor/table.py", "client/app.py", "client/app.tcss", "v1/table_pb2.py",
                 "client/rules/cacho.md"):
        assert f"cardtui/{part}" in names


def test_verify_checks_fair_sims_and_names_what_was_altered(tmp_path: Path) -> None:
    fair = tmp_path / "fair.jsonl"
    done = run("sim", "--game", "truco_paulista", "--players", "4", "--hands", "30", "--seed", "3", "--fair",
               "--history", str(fair))
    assert done.returncode == 0, done.stderr
    ok = run("verify", str(fair))
    assert ok.returncode == 0, ok.stdout
    lines = ok.stdout.splitlines()
    records = [json.loads(line) for line in fair.read_text().splitlines()]
    # A simulated hand is cut by 0 to 3 of its 4 players: never by every person seated, so never ✔.
    # Each line names whose seeds went in and who was seated but not in it, seats numbered from 1.
    hands = [line for line in lines if " deal " in line]
    assert len(hands) == 30 and not any("✔" in line for line in hands)
    for record, line in zip(records, hands, strict=True):
        seeded = sorted(int(s) for s in record["fair"]["player_seeds"])
        used = ", ".join(f"seat {s + 1} {record['seats'][s]['name']}" for s in seeded) or "none"
        absent = ", ".join(f"seat {s + 1} {record['seats'][s]['name']}" for s in range(4) if s not in seeded)
        assert line.endswith(f"(seeds used: {used}; seated, not in it: {absent})"), line
        assert (": ○ commitment, deal and chain check, but no player's seed went in" in line) == (not seeded)
    assert "30 hands: 30 verified (0 ✔, every seated player's seed in), 0 failed" in lines[-1]
    # One card changed in hand 10: that hand fails, and so does the link of hand 11.
    deal = records[9]["deal"]["1"]
    deal[0] = "4C" if deal[0] != "4C" else "5C"
    altered = tmp_path / "altered.jsonl"
    altered.write_text("".join(json.dumps(r) + "\n" for r in records))
    bad = run("verify", str(altered))
    assert bad.returncode == 1
    # Each line labels the table's deal number (the history's ``hand``) and the match it was in.
    by_deal = {line.split(" deal ")[1].split(",")[0]: line for line in bad.stdout.splitlines() if " deal " in line}
    assert "(truco_paulista): ✘" in by_deal["10"] and "dealt cards differ from the deck these seeds make (seat 2)" \
        in by_deal["10"], "the history's seat 1 is the players' seat 2"
    assert f"match {records[9]['match']} " in by_deal["10"]
    assert "(truco_paulista): ✘ the chain link" in by_deal["11"]
    assert "2 failed" in bad.stdout.splitlines()[-1]


def test_verify_tells_plain_seeds_apart_and_strict_fails_them(tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    assert run("sim", "--game", "cacho", "--players", "3", "--hands", "4", "--history", str(plain)).returncode == 0
    done = run("verify", str(plain))
    assert done.returncode == 0
    assert done.stdout.count("plain seed: not a fair deal") == 4 and "4 with a plain seed" in done.stdout
    assert run("verify", "--strict", str(plain)).returncode == 1
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n")
    done = run("verify", str(junk))
    assert done.returncode == 1 and "line 1: ✘ not a hand history" in done.stdout
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    done = run("verify", str(empty))
    assert done.returncode == 1 and "no hand histories" in done.stderr
    missing = run("verify", str(tmp_path / "none.jsonl"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_every_flag_of_every_command_says_what_it_does() -> None:
    """``cardtui play --help`` (and every other command's) describes each flag and argument."""
    import argparse

    def walk(p: argparse.ArgumentParser, name: str) -> list[str]:
        missing = []
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    missing += walk(sub, f"{name} {sub_name}")
            if not action.help:
                missing.append(f"{name}: {'/'.join(action.option_strings) or action.dest}")
        return missing

    assert walk(cli.parser(), "cardtui") == []


def test_every_flag_of_every_command_is_said_in_each_language() -> None:
    """Each command's help, and each flag's, in the reader's language: none left in English."""
    import argparse

    from cardtui import i18n

    def helps(p: argparse.ArgumentParser, name: str) -> dict[str, str]:
        found = {f"{name} (description)": p.description or ""}
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    found |= helps(sub, f"{name} {sub_name}")
                for choice in action._choices_actions:
                    found[f"{name} {choice.dest} (command)"] = choice.help or ""
            elif action.help and action.help != argparse.SUPPRESS and action.dest != "help":
                found[f"{name}: {'/'.join(action.option_strings) or action.dest}"] = action.help
        return found

    before = i18n.current()
    try:
        i18n.use("en")
        english = helps(cli.parser(), "cardtui")
        for lang in ("pt_BR", "es"):
            i18n.use(lang)
            said = helps(cli.parser(), "cardtui")
            same = [k for k, text in english.items() if text and said.get(k) == text and any(c.isalpha() for c in text)
                    and len(text.split()) > 1]
            assert same == [], f"{lang}: said in English still: {same}"
    finally:
        i18n.use(before)
