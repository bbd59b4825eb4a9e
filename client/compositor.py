"""Textual's compositor, with the map of where widgets are made once per layout, not again after it.

Textual keeps two maps of where widgets are: one of those on screen, one of every widget. Two
things marked the second out of date when it was not, and the next widget to ask where it is
(the board asks its size as it draws) had the whole screen arranged again, a layout's work, on
about half of a table's frames at full speed: a layout, which makes the map whole, left it
marked out of date if a widget had asked for a paint just before; and a paint asked by a widget
just hidden (a button of the bar, the summary as it closes) was taken for a widget new since the
last layout.
"""

from __future__ import annotations

from textual._compositor import Compositor, ReflowResult
from textual.dom import DOMNode
from textual.geometry import Region, Size
from textual.map_geometry import MapGeometry
from textual.screen import Screen
from textual.widget import Widget


class MapKeepingCompositor(Compositor):
    """Textual's compositor, keeping the map of every widget while it is current."""

    def __init__(self) -> None:
        super().__init__()
        self.unplaced: set[Widget] = set()
        """Widgets that asked for a paint with no place in the map yet (just shown or mounted): the
        map is out of date for them until the next layout."""

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        """Textual's reflow, which leaves the map it has just made of every widget as it found it:
        marked out of date when a widget asked for a paint before the layout (one just shown, or
        mounted). The first widget to ask where it is after the layout (the board, to draw at its
        size) then had the whole screen arranged again, a second layout's work, on about half of the
        table's frames. The map the layout made is whole and current.

        Where every widget that asked for the layout lies within one container of fixed size (the
        action bar's buttons shown, hidden or relabelled lie within the table's left column), only
        that container is arranged again (``_reflow_within``): nothing outside it can move."""
        result = None
        scopes = self._scopes(parent, size)
        arranged = [self._arranged_within(scope) for scope in scopes]
        if scopes and all(entries is not None for entries in arranged):
            result = ReflowResult(hidden=set(), shown=set(), resized=set())
            for scope, entries in zip(scopes, arranged, strict=True):
                assert entries is not None
                within = self._place_within(scope, *entries)
                result.hidden.update(within.hidden)
                result.shown.update(within.shown)
                result.resized.update(within.resized)
        if result is None:
            result = super().reflow(parent, size)
        self._full_map_invalidated = False
        self.unplaced.clear()
        return result

    def _scopes(self, parent: Widget, size: Size) -> list[Widget]:
        """The containers of fixed size that hold every widget asking for this layout, if none of them
        is the screen and the map is current but for widgets they hold; empty: the whole screen is
        arranged.

        Textual itself notes, for each widget that asks, its ancestors up to the first whose size
        does not depend on what it holds (no ``auto`` width or height): that one bounds what the
        change can move (``Screen._on_layout``)."""
        if not isinstance(parent, Screen) or parent is not self.root or size != self.size or not self._full_map:
            return []
        asking = [w for w in parent._layout_widgets if isinstance(w, Widget)]
        bounds = {w for w in asking if not w.styles.auto_dimensions}
        if not asking or len(asking) != len(parent._layout_widgets):
            return []
        scopes = [w for w in bounds if not any(a in bounds for a in w.ancestors)]
        if any(isinstance(w, Screen) or w not in self._full_map for w in scopes):
            return []
        if not all(self._within_any(w, scopes) for w in asking):
            return []
        if self._full_map_invalidated and not all(self._within_any(w, scopes) for w in self.unplaced):
            return []  # a widget new to the map elsewhere: the whole screen arranged
        return scopes

    @staticmethod
    def _within_any(widget: DOMNode, scopes: list[Widget]) -> bool:
        node: DOMNode | None = widget
        while node is not None:
            if node in scopes:
                return True
            node = node.parent
        return False

    def _arranged_within(self, scope: Widget) -> tuple[dict[Widget, MapGeometry], set[Widget]] | None:
        """``scope`` and what it holds arranged again, as Textual arranges the screen
        (``_arrange_root`` with ``scope`` as the root), placed where ``scope`` is: their places in
        the map and the widgets that show. None where ``scope`` holds what could reach outside it
        (an overlay, a widget covered by another): the whole screen is arranged instead."""
        placed = self._full_map[scope]
        sub_map, sub_widgets = self._arrange_root(scope, placed.region.size, visible_only=False)
        offset = placed.region.offset
        root_order = ((0, 0, 0),)
        entries: dict[Widget, MapGeometry] = {}
        for widget, geometry in sub_map.items():
            if widget is scope:
                entries[widget] = placed._replace(virtual_size=geometry.virtual_size,
                                                  container_size=geometry.container_size)
                continue
            if geometry.order[:1] != root_order or widget._cover_widget is not None:
                return None  # an overlay or a cover: placed against the screen, not the scope
            entries[widget] = geometry._replace(
                region=geometry.region.translate(offset),
                clip=placed.clip.intersection(geometry.clip.translate(offset)),
                order=placed.order + geometry.order[1:],
            )
        return entries, sub_widgets

    def _place_within(self, scope: Widget, entries: dict[Widget, MapGeometry],
                      showing: set[Widget]) -> ReflowResult:
        """The map with what ``scope`` holds put where it was just arranged (``_arranged_within``),
        the rest kept; what moved is marked for repaint, as Textual's reflow marks it."""
        old_map = self._full_map
        old_entries = {w: g for w, g in old_map.items() if self._within_any(w, [scope])}
        old_widgets = {w for w in self.widgets if self._within_any(w, [scope])}
        new_map = {w: g for w, g in old_map.items() if w not in old_entries}
        new_map.update(entries)

        self._cuts = None
        self._layers = None
        self._layers_visible = None
        self._visible_widgets = None
        self._visible_map = None
        self._full_map = new_map
        self.widgets = (self.widgets - old_widgets) | showing

        # a widget only numbered anew in the order of painting (the scope numbers its own) is where it was
        changes = [(w, g) for w, g in entries.items() ^ old_entries.items()
                   if w not in old_entries or w not in entries or old_entries[w] != entries[w]._replace(
                       order=old_entries[w].order)]
        if self.size.region not in self._dirty_regions:
            self._dirty_regions.update(
                region for region in (geometry.clip.intersection(geometry.region) for _, geometry in changes)
                if region)
        common = old_entries.keys() & entries.keys()
        return ReflowResult(
            hidden=old_widgets - showing,
            shown=entries.keys() - old_entries.keys(),
            resized={w for w, (region, *_rest) in changes
                     if w in common and old_entries[w].region.size != region.size},
        )

    def update_widgets(self, widgets: set[Widget]) -> None:
        """Textual's, except when the map of every widget goes out of date. Textual marks it so whenever
        a widget that asks for a paint is not on screen, taking it for a widget mounted since the last
        layout; at a table that is mostly a widget just hidden (a button of the bar, the summary's
        text as it closes), which has no place in any map. The map is made again only for a widget it
        lacks that can show."""
        visible = self.visible_widgets
        unplaced = [w for w in widgets - visible.keys() if not self._placed_or_hidden(w)]
        if unplaced:
            self._full_map_invalidated = True
            self.unplaced.update(unplaced)
        regions: list[Region] = []
        for widget in visible.keys() & widgets:
            region, clip = visible[widget]
            offset = region.offset
            for dirty_region in widget._exchange_repaint_regions():
                if update_region := clip.intersection(dirty_region.translate(offset)):
                    regions.append(update_region)
        self._dirty_regions.update(regions)

    def _placed_or_hidden(self, widget: Widget) -> bool:
        """The widget has its place in the map of every widget, or it is hidden (it or a parent), so
        it has none to find."""
        if widget in self._full_map:
            return True
        node: DOMNode | None = widget
        while node is not None and node is not self.root:
            if not node.display:
                return True
            node = node.parent
        return False
