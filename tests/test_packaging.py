"""Installing the project says nothing alarming (``make play`` on a fresh clone prints no setuptools
warning block), and a wheel holds one package, ``cardtui``, with every module in its place."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = """
import sys
from setuptools import build_meta
print(getattr(build_meta, sys.argv[2])(sys.argv[1]))
"""


def test_an_editable_install_builds_without_a_warning_block(tmp_path: Path) -> None:
    # As the Makefile installs it: setuptools' one notice for a package whose parts live in folders
    # of their own (an editable install maps them with a finder) asks nothing of anyone.
    env = {**os.environ, "PYTHONWARNINGS": "ignore:Editable installation"}
    done = subprocess.run([sys.executable, "-c", BUILD, str(tmp_path), "build_editable"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True, env=env)
    said = done.stdout + done.stderr
    assert list(tmp_path.glob("cardtui-*.whl")), said
    assert "!!" not in said and "Warning" not in said, said


def test_a_wheel_holds_the_one_package_with_every_module_in_its_place(tmp_path: Path) -> None:
    from tools import layout

    subprocess.run([sys.executable, "-c", BUILD, str(tmp_path), "build_wheel"], cwd=ROOT, capture_output=True,
                   text=True, timeout=180, check=True)
    (wheel,) = tmp_path.glob("cardtui-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {n.split("/")[0] for n in names} == {"cardtui", "cardtui-0.1.0.dist-info"}
    for module, path in layout.modules().items():
        inside = "/".join(module.split(".")) + ("/__init__.py" if path.name == "__init__.py" else ".py")
        assert inside in names, f"{module} ({path}) is not in the wheel"
    assert "cardtui/client/app.tcss" in names and "cardtui/server/web_page/index.html" in names
    assert "cardtui/locale/pt_BR/LC_MESSAGES/cardtui.mo" in names
