"""``cardtui verify`` names a dishonest seat from a sealed hand's history, and passes an honest one."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cardtui.cli import main
from cardtui.engine.truco.claims import judge_for
from tests.sealed.table import ARGENTINO, SimTable, Trick


@pytest.mark.usefixtures("few_rounds")
def test_verify_names_the_seat_that_lied_about_its_envido_and_passes_an_honest_hand(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(4)
    table = SimTable(rng, 2, ARGENTINO)
    honest = table.play()
    while True:
        cheating = table.play(1, Trick.FALSE_ENVIDO)
        if cheating.trick is not None:
            break
    lines = [{"format": "cardtui-hand/1", "game": ARGENTINO, "table": "t-sim", "hand": i + 1, "sealed": p.record,
              "options": {"envido_unsuited": "sum_two"}} for i, p in enumerate((honest, cheating))]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    code = main(["verify", str(path)])  # in this process, where the proofs' rounds are few (the command's exit and
    out = capsys.readouterr().out  # output as a user runs it: tests/test_cli.py)
    assert code == 1, out
    first, second = out.splitlines()[:2]
    assert first.startswith("table t-sim hand 1: ✔ sealed")
    assert "table t-sim hand 2: ✘ sealed" in second and "Seat 2: its claim is not what its cards show" in second


def test_a_claim_is_judged_as_the_table_counts_an_envido() -> None:
    """7 of coins and 5 of swords: 12 where two unsuited cards are summed, 7 where the best one alone counts."""
    assert judge_for({"envido_unsuited": "sum_two"})("envido", 12, ["7o", "5e"])
    assert not judge_for({"envido_unsuited": "highest"})("envido", 12, ["7o", "5e"])
    assert judge_for({"envido_unsuited": "highest"})("envido", 7, ["7o", "5e"])
    assert judge_for(None)("envido", 12, ["7o", "5e"])  # a record without options: the default count
