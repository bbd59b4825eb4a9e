"""Every part of Textual and Rich that the client uses and they do not publish, named in one place.

The client is fast at a table because it reaches into a few of Textual's private parts: its
compositor (``client.compositor``), its footer's key widgets (``client.footer``), a log's first
line and scroll bars (the table's log), a widget's repaint regions (the boards), Rich's style
metadata and a table column's cells (the boards' drawing), and, in the browser guests' forked
processes, a strip's caches (``server.web_guests``). Nothing promises these stay as they are from
one release to the next, so:

- pyproject.toml allows only the Textual releases these were tested with (``TESTED``);
- the modules above import the private classes from here, never from Textual directly;
- ``PARTS`` lists each private attribute the client reads, writes or overrides, and why, and
  ``problems()`` says in a sentence each one the installed Textual or Rich no longer has
  (``tests/client/test_textual_internals.py`` fails on any, so a new Textual breaks a test
  first, not a player's screen).
"""

from __future__ import annotations

import importlib.util
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version

import rich.table
import textual.screen
from rich.segment import Segment
from rich.style import Style
from textual._compositor import Compositor, ReflowResult
from textual.cache import FIFOCache
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer, RichLog
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup

__all__ = [
    "LOADED_LATE",
    "PARTS",
    "STRIP_CACHES",
    "TESTED",
    "Compositor",
    "FooterKey",
    "FooterLabel",
    "KeyGroup",
    "Part",
    "ReflowResult",
    "problems",
    "styled",
]

TESTED = (">=8.2", "<9")
"""The Textual releases the parts below were checked against (pyproject.toml says the same)."""

LOADED_LATE = ("rich._emoji_codes",)
"""Private modules Rich loads only when an app first draws (the emoji table): the browser guests'
parent loads them before it forks, so that every guest shares them."""

STRIP_CACHES = ("_divide_cache", "_crop_cache", "_style_cache", "_filter_cache", "_line_length_cache",
                "_crop_extend_cache", "_offsets_cache")
"""A Textual strip's caches of what was derived from it (crops, styles, divisions, ...): the
browser guests' forked processes give every strip one cache that keeps nothing instead."""


def styled(segments: list[Segment], base: Style, links: tuple[Style, ...]) -> Strip:
    """A line's segments with the widget's base style under them and the style of links over any
    clickable part, as Textual styles a widget's rendered lines (``_Styled``, then ``to_strips``).
    Reads a style's metadata through Rich's ``_meta`` first: most styles have none, and asking
    ``meta`` would unpickle nothing each time."""
    out: list[Segment] = []
    add = base.__add__
    for text, style, _control in segments:
        style = add(style)
        if style._meta is not None and "@click" in style.meta:
            for link in links:
                style = style + link
        out.append(Segment(text, style))
    return Strip(out)


@dataclass(frozen=True)
class Part:
    """One private attribute the client relies on: whose, which, how it is checked, and what for."""

    owner: str
    name: str
    found: Callable[[], bool]
    why: str


def _has(make: Callable[[], object], name: str) -> Callable[[], bool]:
    return lambda: hasattr(make(), name)


def _method(cls: type, name: str, params: tuple[str, ...]) -> Callable[[], bool]:
    def found() -> bool:
        method = getattr(cls, name, None)
        return callable(method) and tuple(inspect.signature(method).parameters)[1:] == params

    return found


def _caches() -> bool:
    strip = Strip([])
    return all(isinstance(getattr(strip, name, None), FIFOCache) for name in STRIP_CACHES)


PARTS: tuple[Part, ...] = (
    Part("Compositor", "reflow(parent, size)", _method(Compositor, "reflow", ("parent", "size")),
         "client.compositor keeps the map of every widget after a layout"),
    Part("Compositor", "update_widgets(widgets)", _method(Compositor, "update_widgets", ("widgets",)),
         "client.compositor: a paint asked by a hidden widget does not throw the map away"),
    Part("Compositor", "_full_map_invalidated", _has(Compositor, "_full_map_invalidated"),
         "client.compositor: whether the map of every widget is out of date"),
    Part("Compositor", "_full_map", _has(Compositor, "_full_map"), "client.compositor: the map of every widget"),
    Part("Compositor", "_dirty_regions", _has(Compositor, "_dirty_regions"),
         "client.compositor: the regions to paint"),
    Part("Compositor", "visible_widgets", lambda: isinstance(getattr(Compositor, "visible_widgets", None), property),
         "client.compositor: the widgets on screen and where"),
    Part("Screen", "_compositor", lambda: "_compositor" in inspect.getsource(textual.screen.Screen.__init__),
         "the table screen installs its compositor"),
    Part("Widget", "_exchange_repaint_regions()", _method(Widget, "_exchange_repaint_regions", ()),
         "the boards paint at the paint, not at each message"),
    Part("Widget", "_set_dirty(*regions)", _method(Widget, "_set_dirty", ("regions",)),
         "the boards keep what to paint until the paint"),
    Part("Footer", "_bindings_ready", _has(Footer, "_bindings_ready"),
         "client.footer keeps its keys and shows or hides them in place"),
    Part("FooterKey", "_disabled", lambda: "_disabled" in inspect.getsource(FooterKey.__init__),
         "client.footer enables a key in place"),
    Part("FooterKey", "FooterKey(key, key_display, description, action)",
         lambda: tuple(inspect.signature(FooterKey.__init__).parameters)[1:5] == (
             "key", "key_display", "description", "action"),
         "client.footer makes its keys as Textual's footer does"),
    Part("KeyGroup, FooterLabel", "widgets", lambda: issubclass(KeyGroup, Widget) and issubclass(FooterLabel, Widget),
         "client.footer groups More/less under one label"),
    Part("RichLog", "_start_line", _has(RichLog, "_start_line"),
         "the table's log keeps its first line when it drops old ones"),
    Part("RichLog", "_refresh_scrollbars()", lambda: callable(getattr(RichLog, "_refresh_scrollbars", None)),
         "the table's log sets its scroll bars when its lines change"),
    Part("Strip", "its seven caches", _caches, "browser guests' strips keep no caches"),
    Part("rich Style", "_meta", _has(Style, "_meta"), "styled() asks a style's metadata only where it has some"),
    Part("rich Style", "_link_id", _has(Style, "_link_id"), "the table's log: a hovered line that is no link"),
    Part("rich", "_emoji_codes", lambda: all(importlib.util.find_spec(m) for m in LOADED_LATE),
         "browser guests share the emoji table Rich loads late"),
    Part("rich Column", "_cells", _has(rich.table.Column, "_cells"), "the boards draw a table's cells themselves"),
)


def problems() -> list[str]:
    """A sentence for each private part the installed Textual or Rich no longer has as the client
    uses it; empty when all are there."""
    found = []
    for part in PARTS:
        try:
            ok = part.found()
        except Exception as err:  # a part that cannot even be looked at is missing
            ok = False
            part_error = f" ({err!r})"
        else:
            part_error = ""
        if not ok:
            found.append(f"Textual {version('textual')} (Rich {version('rich')}) changed {part.owner}.{part.name}"
                         f"{part_error}, which {part.why}.")
    return found
