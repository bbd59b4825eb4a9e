"""The private parts of Textual and Rich the client uses are all there, and used from one place."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from cardtui.client import textual_internals
from tools import layout

ROOT = Path(__file__).resolve().parents[2]


def test_every_private_part_the_client_uses_is_there() -> None:
    assert textual_internals.problems() == []


def test_a_missing_part_is_said_in_a_sentence(monkeypatch: object) -> None:
    part = textual_internals.Part("Compositor", "_gone", lambda: False, "nothing")
    import pytest

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(textual_internals, "PARTS", (part,))
        said = textual_internals.problems()
    finally:
        mp.undo()
    assert len(said) == 1 and "changed Compositor._gone, which nothing." in said[0]
    assert said[0].startswith(f"Textual {version('textual')}")


def test_textual_is_pinned_to_the_releases_tested() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pin = next(d for d in deps if re.match(r"textual[><=]", d))
    assert pin.replace(" ", "") == "textual" + ",".join(textual_internals.TESTED)
    major, minor = (int(x) for x in version("textual").split(".")[:2])
    assert (8, 2) <= (major, minor) < (9, 0)


def test_only_one_module_imports_textuals_private_modules() -> None:
    private = re.compile(r"^\s*(from|import)\s+(textual|rich)(\.\w+)*\._", re.M)
    found = [name for name, path in layout.modules().items() if private.search(path.read_text())]
    assert found == ["cardtui.client.textual_internals"]
