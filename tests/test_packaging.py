"""Installing the project says nothing alarming (``make play`` on a fresh clone prints no setuptools
warning block), a wheel holds one package, ``cardtui``, with every module in its place, and the package
could be published as it is: ``python -m build`` makes an sdist and a wheel whose metadata is complete
(the readme, the licence, classifiers, the extras) and which ``twine check`` passes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from email.parser import Parser
from pathlib import Path

import pytest

from cardtui import __version__
from cardtui.installing import wheel_name
from cardtui.server.web.wheels import _copy_checkout

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


@pytest.mark.xdist_group("built-package")
def test_a_wheel_holds_the_one_package_with_every_module_in_its_place(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    from tools import layout

    wheel = built_package(tmp_path_factory).wheel
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {n.split("/")[0] for n in names} == {"cardtui", f"cardtui-{__version__}.dist-info"}
    for module, path in layout.modules().items():
        inside = "/".join(module.split(".")) + ("/__init__.py" if path.name == "__init__.py" else ".py")
        assert inside in names, f"{module} ({path}) is not in the wheel"
    assert "cardtui/client/app.tcss" in names and "cardtui/server/web/page/index.html" in names
    assert "cardtui/locale/pt_BR/LC_MESSAGES/cardtui.mo" in names


@dataclass(frozen=True)
class Built:
    sdist: Path
    wheel: Path


_BUILT: list[Built] = []


def built_package(factory: pytest.TempPathFactory) -> Built:
    """``python -m build``'s sdist and wheel, made once per test process (each test that needs them is in
    the ``built-package`` group, so one worker makes them), from a copy of the checkout as the page's own
    build does (``server.wheels``): a build in the checkout writes there, beside any other running at once.
    Both from the checkout (``--sdist --wheel``), the wheel as ``pip install .`` and the page make it: the sdist
    builds the same one (``test_the_package_could_be_published_as_it_is`` builds it from the sdist alone).
    ``--no-isolation``: with this venv's setuptools, which is what pyproject.toml asks for, without an index."""
    if not _BUILT:
        source = factory.mktemp("checkout")
        _copy_checkout(ROOT, source)
        out = factory.mktemp("dist")
        subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", str(out),
                        str(source)], capture_output=True, text=True, timeout=300, check=True)
        (sdist,) = out.glob("*.tar.gz")
        (wheel,) = out.glob("*.whl")
        _BUILT.append(Built(sdist, wheel))
    return _BUILT[0]


@pytest.mark.xdist_group("built-package")
def test_the_package_could_be_published_as_it_is(tmp_path_factory: pytest.TempPathFactory) -> None:
    built = built_package(tmp_path_factory)
    assert built.wheel.name == wheel_name(__version__), "the name the page serves it under (cardtui.installing)"
    assert built.sdist.name == f"cardtui-{__version__}.tar.gz"
    twine = [sys.executable, "-m", "twine", "check", "--strict", str(built.sdist), str(built.wheel)]
    checked = subprocess.run(twine, capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr
    meta = Parser().parsestr(zipfile.ZipFile(built.wheel).read(f"cardtui-{__version__}.dist-info/METADATA").decode())
    assert meta["Name"] == "cardtui" and meta["Version"] == __version__
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert meta["Description-Content-Type"] == "text/markdown" and "# cardtui" in meta.get_payload()
    assert meta["Requires-Python"] == ">=3.11"
    classifiers = meta.get_all("Classifier") or []
    for said in ("Environment :: Console", "Topic :: Games/Entertainment :: Board Games",
                 "Operating System :: Microsoft :: Windows", "Programming Language :: Python :: 3.11"):
        assert said in classifiers, said
    assert "postgresql" in (meta.get_all("Provides-Extra") or [])
    assert any(r.startswith("psycopg[binary]") and 'extra == "postgresql"' in r for r in meta.get_all("Requires-Dist"))
    assert f"cardtui-{__version__}.dist-info/licenses/LICENSE" in zipfile.ZipFile(built.wheel).namelist()
    with tarfile.open(built.sdist) as sdist:
        inside = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert {"LICENSE", "README.md", "pyproject.toml", "PKG-INFO"} <= inside
    # The sdist builds the same wheel: what a user of the sdist alone installs.
    unpacked = tmp_path_factory.mktemp("sdist")
    shutil.unpack_archive(built.sdist, unpacked)
    again = tmp_path_factory.mktemp("again")
    subprocess.run([sys.executable, "-c", BUILD, str(again), "build_wheel"], cwd=unpacked / f"cardtui-{__version__}",
                   capture_output=True, text=True, timeout=180, check=True)
    assert set(zipfile.ZipFile(next(again.glob("*.whl"))).namelist()) == set(zipfile.ZipFile(built.wheel).namelist())
