"""The bots' rigged positions (test_bot_blunders.py) where the engine's compiled build is in use.

Each position is asked of every level from one copy of a state; a compiled state cannot be
copied, so the positions run in plain Python in a process of their own (the same rules byte
for byte, as tests/test_native.py holds), and this test fails if any of them does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardtui import native

POSITIONS = Path(__file__).with_name("test_bot_blunders.py")


@pytest.mark.skipif(not native.STATUS.startswith("compiled"), reason="the positions run in this process")
def test_the_positions_in_plain_python() -> None:
    env = dict(os.environ, **{native.OFF: "1"})
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", str(POSITIONS)],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout, run.stdout[-2000:]  # every position ran
