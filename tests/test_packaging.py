"""Installing the project says nothing alarming: ``make play`` on a fresh clone prints no
setuptools warning block (an editable install of this layout is a plain .pth line)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = """
import sys
from setuptools import build_meta
print(build_meta.build_editable(sys.argv[1]))
"""


def test_an_editable_install_builds_without_a_warning_block(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", BUILD, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True)
    said = done.stdout + done.stderr
    assert list(tmp_path.glob("cardtui-*.whl")), said
    assert "!!" not in said and "Warning" not in said, said
