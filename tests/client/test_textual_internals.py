"""The private parts of Textual and Rich the client uses are all there, and used from one place."""

from __future__ import annotations

import inspect
import re
import sys
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


def textual_private_names() -> set[str]:
    """The private names of the Textual classes the tests and benches meet (the app, its screens and
    widgets, the compositor, the log, a strip, a widget's styles cache, the notifications): their
    methods and attributes, and what their constructors set."""
    from textual._compositor import Compositor
    from textual._styles_cache import StylesCache
    from textual.app import App
    from textual.notifications import Notifications
    from textual.screen import Screen
    from textual.strip import Strip
    from textual.widget import Widget
    from textual.widgets import Button, DataTable, Footer, Input, RichLog, Static

    names: set[str] = set()
    for cls in (App, Screen, Widget, Compositor, RichLog, Static, Button, DataTable, Input, Footer, Strip,
                StylesCache, Notifications):
        names |= {n for n in dir(cls) if n.startswith("_") and not n.startswith("__")}
        for klass in cls.__mro__:
            init = klass.__dict__.get("__init__")
            if init is not None and hasattr(init, "__code__"):
                names |= set(re.findall(r"self\.(_[a-z]\w*)\s*[:=]", inspect.getsource(init)))
    return names


def test_the_tests_and_benches_read_textual_only_through_its_one_module() -> None:
    """No test or bench imports a private module of Textual or Rich, or reads a private name of
    Textual's: each goes through ``client.textual_internals``, so a Textual that changes breaks one
    function there, and ``problems()`` names it. A name is ours where code that imports nothing of
    Textual defines it (a test's own ``_task``, the server's ``_loop``); in code that does, a name
    Textual has too is Textual's (an override of ``_display`` is a private use of it)."""
    files = sorted([*ROOT.glob("tests/**/*.py"), *ROOT.glob("bench/*.py")])
    files = [f for f in files if f.name != Path(__file__).name]
    textual = re.compile(r"^\s*(from|import)\s+textual\b", re.M)
    ours: set[str] = set()
    for path in [*files, *layout.modules().values()]:
        text = path.read_text()
        if not textual.search(text):
            ours |= set(re.findall(r"def (_[a-z]\w*)", text))
            ours |= set(re.findall(r"self\.(_[a-z]\w*)\s*(?::[^=\n]*)?=", text))
    private = textual_private_names() - ours
    assert {"_compositor", "_layout_required", "_refresh_layout", "_notifications", "_display"} <= private
    module = re.compile(r"^\s*(from|import)\s+(textual|rich)(\.\w+)*\._")
    found = []
    for path in files:
        for n, text in enumerate(path.read_text().splitlines(), 1):
            used = [m.group(2) for m in re.finditer(r"(\w*)\.(_[a-z]\w*)\b", text)
                    if m.group(2) in private and m.group(1) not in sys.stdlib_module_names]  # os._exit is os's
            if used or module.match(text):
                found.append(f"{path.relative_to(ROOT)}:{n}: {', '.join(used) or text.strip()}")
    assert found == []


async def test_a_header_whose_parts_are_gone_lets_the_app_live_on() -> None:
    """Textual's header sets its title from a callback that may run after its parts are removed (a screen shown and
    replaced at once on a slow host: twice in a loaded run of the suite, the app ended by ``NoMatches``). The client's
    header drops that title and the app lives on; while its parts are there it follows the title as Textual's does."""
    from textual.app import App, ComposeResult
    from textual.widgets import Header as TextualHeader

    from cardtui.client.textual_internals import Header, HeaderTitle

    for header, fails in ((TextualHeader, True), (Header, False)):

        class Titled(App[None]):
            made: type[TextualHeader] = header

            def compose(self) -> ComposeResult:
                yield self.made()

        app = Titled()
        app.title = "mesa"
        try:
            async with app.run_test() as pilot:
                await pilot.pause()
                title = app.query_one(HeaderTitle)
                assert "mesa" in str(title.render())
                app.title = "mesa 2"
                await pilot.pause()
                assert "mesa 2" in str(title.render())
                await title.remove()  # the header's part gone, the header still there
                app.title = "mesa 3"
                await pilot.pause()
        except Exception as err:  # Textual's header: the app ends with the query's failure
            assert fails and "HeaderTitle" in str(err), err
        else:
            assert not fails, "Textual's own header no longer fails: this class may go"
