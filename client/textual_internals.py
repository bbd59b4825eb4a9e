"""Every part of Textual and Rich that the client uses and they do not publish, named in one place.

The client is fast at a table because it reaches into a few of Textual's private parts: its
compositor (``client.compositor``), its footer's key widgets (``client.footer``), a log's first
line and scroll bars (the table's log), a widget's repaint regions (the boards), Rich's style
metadata and a table column's cells (the boards' drawing), and, in the browser guests' forked
processes, a strip's caches (``lighter_strips``, which their warm parent calls). The tests and the
benches read the screen as Textual draws it (its lines, its layouts, its frames, its notifications):
through the functions at the end of this module, never by Textual's private names. Nothing promises these stay as they
are from one release to the next, so:

- pyproject.toml allows only the Textual releases these were tested with (``TESTED``);
- the modules above import the private classes from here, never from Textual directly, and the
  tests and benches read the screen through the functions here (a test reads every test's and
  bench's source for any private name of Textual's used anywhere else);
- ``PARTS`` lists each private attribute the client reads, writes or overrides, and why, and
  ``problems()`` says in a sentence each one the installed Textual or Rich no longer has
  (``tests/client/test_textual_internals.py`` fails on any, so a new Textual breaks a test
  first, not a player's screen).
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

import rich.table
import textual.screen
from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual._compositor import ChopsUpdate, Compositor, CompositorUpdate, LayoutUpdate, ReflowResult
from textual._styles_cache import StylesCache
from textual.app import App
from textual.cache import FIFOCache
from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.drivers.web_driver import WebDriver
from textual.geometry import Size
from textual.notifications import Notification
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Footer, RichLog
from textual.widgets import Header as TextualHeader
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup
from textual.widgets._header import HeaderTitle

__all__ = [
    "LOADED_LATE",
    "PARTS",
    "STRIP_CACHES",
    "TESTED",
    "ChopsUpdate",
    "Compositor",
    "CompositorUpdate",
    "FooterKey",
    "FooterLabel",
    "Header",
    "HeaderTitle",
    "KeyGroup",
    "LayoutUpdate",
    "NoCache",
    "Part",
    "ReflowResult",
    "after_each_frame",
    "compositor_of",
    "drawn_afresh",
    "drawn_lines",
    "layout_pending",
    "lighter_strips",
    "map_out_of_date",
    "misplaced",
    "notices",
    "on_arrange",
    "on_display",
    "on_layout",
    "problems",
    "restyle",
    "screen_work",
    "styled",
    "use_compositor",
    "write_to_terminal",
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


def _set_in(init: Callable[..., object], *names: str) -> Callable[[], bool]:
    """Each of ``names`` is an attribute the constructor sets (an instance's, not its class's)."""
    return lambda: all(f"self.{name}" in inspect.getsource(init) for name in names)


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
         "the table screen installs its compositor (use_compositor), and the tests read the screen through it"),
    Part("Compositor", "render_strips(size)", _method(Compositor, "render_strips", ("size",)),
         "the tests read the screen's lines as drawn (drawn_lines, drawn_afresh)"),
    Part("Compositor", "_arrange_root(root, size, visible_only)",
         _method(Compositor, "_arrange_root", ("root", "size", "visible_only")),
         "the tests compare the map kept with the screen arranged whole (misplaced) and count arrangements"),
    Part("Widget", "_layout_required", _set_in(Widget.__init__, "_layout_required"),
         "the tests wait for a layout asked for to be done (layout_pending)"),
    Part("Widget, Screen", "_repaint_required, _recompose_required, _dirty_widgets, _callbacks",
         lambda: _set_in(Widget.__init__, "_repaint_required", "_recompose_required")()
         and _set_in(Screen.__init__, "_dirty_widgets", "_callbacks")(),
         "the tests wait until the screen has nothing left to lay out, paint or call back (screen_work)"),
    Part("Screen", "_refresh_layout(size, scroll)", _method(Screen, "_refresh_layout", ("size", "scroll")),
         "the tests count the screen's layouts (on_layout)"),
    Part("Screen", "_compositor_refresh()", _method(Screen, "_compositor_refresh", ()),
         "the screen bench stamps each frame composed (after_each_frame)"),
    Part("Widget", "_styles_cache, _render_cache, _dirty_regions, scroll bars",
         _set_in(Widget.__init__, "_styles_cache", "_render_cache", "_dirty_regions", "_vertical_scrollbar",
                 "_horizontal_scrollbar"),
         "the tests draw the screen anew, no line from a cache (drawn_afresh, restyle)"),
    Part("StylesCache", "_cache, _dirty_lines, clear()",
         lambda: _set_in(StylesCache.__init__, "_cache", "_dirty_lines")() and callable(StylesCache.clear),
         "the tests draw the screen anew and put the caches back (drawn_afresh)"),
    Part("App", "_notifications", _set_in(App.__init__, "_notifications"),
         "the tests read the notifications on screen (notices)"),
    Part("App", "_display(screen, renderable)", _method(App, "_display", ("screen", "renderable")),
         "the tests see each update the app sends the terminal (on_display)"),
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
    Part("RichLog", "_size_known", _has(RichLog, "_size_known"),
         "the table's log writes its lines once its width is known"),
    Part("RichLog", "_widest_line_width", _has(RichLog, "_widest_line_width"),
         "the table's log keeps its virtual width as Textual's log does"),
    Part("Widget", "_scroll_update(virtual_size)", _method(Widget, "_scroll_update", ("virtual_size",)),
         "the table's log updates its scroll bars only when its size changed"),
    Part("Strip", "its seven caches", _caches, "browser guests' strips keep no caches"),
    Part("rich Style", "_meta", _has(Style, "_meta"), "styled() asks a style's metadata only where it has some"),
    Part("rich Style", "_link_id", _has(Style, "_link_id"), "the table's log: a hovered line that is no link"),
    Part("rich", "_emoji_codes", lambda: all(importlib.util.find_spec(m) for m in LOADED_LATE),
         "browser guests share the emoji table Rich loads late"),
    Part("rich Column", "_cells", _has(rich.table.Column, "_cells"), "the boards draw a table's cells themselves"),
    Part("WebDriver", "_size, on_meta(packet_type, payload)",
         lambda: _set_in(WebDriver.on_meta, "_size")() and tuple(inspect.signature(WebDriver.on_meta).parameters)[1:]
         == ("packet_type", "payload"),
         "browser guests' sizes reach the app in the order the browser sent them (GuestDriver)"),
    Part("Header", "_on_mount(event), HeaderTitle, format_title()",
         lambda: "set_title" in inspect.getsource(TextualHeader._on_mount)
         and callable(getattr(TextualHeader, "format_title", None)) and issubclass(HeaderTitle, Widget),
         "Header keeps the title in step as Textual's does, without its failure on a header whose parts are gone"),
    Part("App", "_driver", _set_in(App.__init__, "_driver"),
         "client.turn_bell: the window title with the turn's countdown, written as App.bell writes the bell"),
)


class Header(TextualHeader):
    """Textual's header, its title kept in step with the app's and the screen's as Textual's own does, but without
    its one failure: Textual's header sets its title from a callback that may run after the header's parts are gone
    (a screen shown and replaced at once, as on a slow host the name screen gives way to the lobby), and its
    ``NoMatches`` then ends the whole app. A title with nowhere to go is dropped: the header is on its way out."""

    def _on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # Textual's own handler (the one that fails) not run after this one

        async def set_title() -> None:
            with contextlib.suppress(NoScreen, NoMatches):
                self.query_one(HeaderTitle).update(self.format_title())

        for owner in (self.app, self.screen):
            self.watch(owner, "title", set_title)
            self.watch(owner, "sub_title", set_title)


class GuestDriver(WebDriver):
    """A browser guest's driver (``server.web_guests`` names it to textual-serve): Textual's web
    driver, each size the browser sends reaching the app in the order it was sent.

    Textual's web driver posts the terminal's first size from the event loop, in a task it schedules
    as the app starts, and each size the browser sends straight from its input thread. A size the
    browser sends while the app starts (a phone turned, its keyboard coming up as the page loads)
    can then reach the app before the first one, which undoes it: the app stays at the size the page
    opened at, its last rows never drawn or cut off. Here every size takes the first one's way
    (``Driver.send_message``), so the last size sent is the one the app ends at."""

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type != "resize":
            super().on_meta(packet_type, payload)
            return
        width, height = payload.get("width"), payload.get("height")
        if not isinstance(width, int) or not isinstance(height, int):
            return
        self._size = (width, height)
        self.send_message(events.Resize(Size(width, height), Size(width, height)))


class NoCache:
    """A cache that keeps nothing: what is asked of it is worked out again."""

    __slots__ = ()

    def get(self, key: object, default: object = None) -> object:
        return default

    def __setitem__(self, key: object, value: object) -> None:
        pass

    def clear(self) -> None:
        pass


def lighter_strips() -> bool:
    """Textual's strips (a rendered line each) keep no caches of their own; whether it was done.

    Every ``Strip`` makes seven small caches when it is created, and keeps what it derives in
    them (up to 16 crops, each a strip with seven caches of its own); a guest at a table holds
    some 1,350 strips, most never cropped or styled twice. With one shared ``NoCache`` in their
    place a guest holds less at a table for no measurable CPU (bench/marks.md; the compositor keeps
    its own caches of whole lines). Done in the browser guests' warm parent
    (``cardtui.guest_parent``), so only forked guests have it; if this Textual's strips are not
    made as expected, they are left alone."""
    if getattr(Strip.__init__, "lighter", False):
        return True
    probe = Strip([])
    if not all(isinstance(getattr(probe, name, None), FIFOCache) for name in STRIP_CACHES):
        return False
    made = Strip.__init__
    none = NoCache()

    def __init__(self: Strip, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        for name in STRIP_CACHES:
            setattr(self, name, none)

    __init__.lighter = True  # type: ignore[attr-defined]
    Strip.__init__ = __init__  # type: ignore[method-assign]
    return True


def write_to_terminal(app: App[Any], data: str) -> None:
    """Write an escape sequence to the terminal (the window title), as ``App.bell`` writes the bell:
    through the app's driver, and not at all when headless."""
    driver = getattr(app, "_driver", None)
    if not app.is_headless and driver is not None:
        driver.write(data)


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


# -- the screen as drawn: for the tests and the benches ----------------------------------------------
def use_compositor(screen: Screen[Any], compositor: Compositor) -> None:
    """The screen composes its frames with ``compositor`` (set before it is mounted)."""
    screen._compositor = compositor


def compositor_of(screen: Screen[Any]) -> Compositor:
    """The compositor the screen composes its frames with."""
    return screen._compositor


def drawn_lines(screen: Screen[Any]) -> list[Strip]:
    """The screen's lines as its compositor draws them now (what the terminal shows once the frame
    on its way is painted): a strip a row, its characters in ``strip.text``."""
    return screen._compositor.render_strips()


def drawn_afresh(screen: Screen[Any]) -> list[Strip]:
    """The screen's lines drawn anew from every widget, none taken from a widget's cache of styled
    lines or of its content drawn (a line a widget failed to mark for repaint comes out right here,
    and stale on the terminal); the caches are put back as they were after."""
    widgets: list[Widget] = [screen, *screen.walk_children(Widget, with_self=False)]
    widgets += [bar for w in list(widgets) for bar in (w._vertical_scrollbar, w._horizontal_scrollbar)
                if bar is not None]
    kept = [(w._styles_cache._cache.copy(), w._styles_cache._dirty_lines.copy(), w._render_cache,
             w._dirty_regions.copy()) for w in widgets]
    for w in widgets:
        w._styles_cache.clear()
        w._dirty_regions.add(w.size.region)  # its content drawn again, as it is now
    try:
        return screen._compositor.render_strips()
    finally:
        for w, (cache, dirty, content, regions) in zip(widgets, kept, strict=True):
            w._styles_cache._cache, w._styles_cache._dirty_lines = cache, dirty
            w._render_cache, w._dirty_regions = content, regions


def restyle(widget: Widget) -> None:
    """The widget's styled lines forgotten: Textual styles each again when it is next drawn."""
    widget._styles_cache.clear()


def layout_pending(screen: Screen[Any]) -> bool:
    """A layout of the screen was asked for and is not done yet."""
    return screen._layout_required


def screen_work(screen: Screen[Any]) -> dict[str, bool]:
    """What the screen still has to do after its messages, each named: a layout, a repaint, widgets
    to refresh, callbacks waiting for the refresh, a recompose."""
    return {"layout": screen._layout_required, "repaint": screen._repaint_required,
            "widgets to refresh": bool(screen._dirty_widgets), "callbacks": bool(screen._callbacks),
            "recompose": screen._recompose_required}


def map_out_of_date(screen: Screen[Any]) -> bool:
    """The compositor's map of every widget is marked out of date: the next widget to ask where it
    is has the whole screen arranged again."""
    return screen._compositor._full_map_invalidated


def misplaced(screen: Screen[Any]) -> list[str]:
    """Where the compositor's map of every widget differs from the screen arranged whole now, a line
    each (none while the map is current)."""
    compositor = screen._compositor
    fresh, _widgets = compositor._arrange_root(screen, compositor.size, visible_only=False)
    kept = compositor._full_map
    wrong = [f"{w!r}: {kept.get(w)} kept, {g} arranged" for w, g in fresh.items() if kept.get(w) != g]
    return wrong + [f"{w!r} kept, not arranged" for w in kept.keys() - fresh.keys()]


def on_layout(screen: Screen[Any], seen: Callable[[bool], None]) -> None:
    """From now on, ``seen`` at each of the screen's layout passes (before it), told whether its
    widgets are arranged again (True: a layout was asked for) or only scrolled into place."""
    refresh = screen._refresh_layout

    def counted(size: Size | None = None, scroll: bool = False) -> None:
        seen(screen._layout_required)
        refresh(size, scroll)

    screen._refresh_layout = counted  # type: ignore[method-assign]


def on_arrange(screen: Screen[Any], seen: Callable[[], None]) -> None:
    """From now on, ``seen`` each time the screen's compositor arranges the whole screen."""
    compositor = screen._compositor
    arrange = compositor._arrange_root

    def counted(root: Widget, size: Size, visible_only: bool = True) -> Any:
        seen()
        return arrange(root, size, visible_only)

    compositor._arrange_root = counted  # type: ignore[method-assign]


def after_each_frame(screen: Screen[Any], then: Callable[[], None]) -> None:
    """From now on, ``then`` at the end of each frame the screen's compositor composes."""
    refresh = screen._compositor_refresh

    def stamped() -> None:
        refresh()
        then()

    screen._compositor_refresh = stamped  # type: ignore[method-assign]


def on_display(app: App[Any], seen: Callable[[Screen[Any], RenderableType | None], None]) -> None:
    """From now on, ``seen`` with each update the app sends the terminal, before it is sent."""
    display = app._display

    def shown(screen: Screen[Any], renderable: RenderableType | None) -> None:
        seen(screen, renderable)
        display(screen, renderable)

    app._display = shown  # type: ignore[method-assign]


def notices(app: App[Any]) -> list[Notification]:
    """The notifications the app shows now (or is about to), oldest first."""
    return list(app._notifications)
