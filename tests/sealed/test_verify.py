"""``cardtui verify`` names a dishonest seat from a sealed hand's history, and passes an honest one."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from tests.sealed.table import ARGENTINO, SimTable, Trick


def test_verify_names_the_seat_that_lied_about_its_envido_and_passes_an_honest_hand(tmp_path: Path) -> None:
    rng = random.Random(4)
    table = SimTable(rng, 2, ARGENTINO)
    honest = table.play()
    while True:
        cheating = table.play(1, Trick.FALSE_ENVIDO)
        if cheating.trick is not None:
            break
    lines = [{"format": "cardtui-hand/1", "game": ARGENTINO, "table": "t-sim", "hand": i + 1, "sealed": p.record}
             for i, p in enumerate((honest, cheating))]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "cardtui.cli", "verify", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    first, second = done.stdout.splitlines()[:2]
    assert first.startswith("table t-sim hand 1: ✔ sealed")
    assert "table t-sim hand 2: ✘ sealed" in second and "Seat 2: its claim is not what its cards show" in second
