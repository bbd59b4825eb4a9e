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

from textual.dom import DOMNode
from textual.geometry import Region, Size
from textual.widget import Widget

from cardtui.client.textual_internals import Compositor, ReflowResult


class MapKeepingCompositor(Compositor):
    """Textual's compositor, keeping the map of every widget while it is current."""

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        """Textual's reflow, which leaves the map it has just made of every widget as it found it:
        marked out of date when a widget asked for a paint before the layout (one just shown, or
        mounted). The first widget to ask where it is after the layout (the board, to draw at its
        size) then had the whole screen arranged again, a second layout's work, on about half of the
        table's frames. The map the layout made is whole and current."""
        result = super().reflow(parent, size)
        self._full_map_invalidated = False
        return result

    def update_widgets(self, widgets: set[Widget]) -> None:
        """Textual's, except when the map of every widget goes out of date. Textual marks it so whenever
        a widget that asks for a paint is not on screen, taking it for a widget mounted since the last
        layout; at a table that is mostly a widget just hidden (a button of the bar, the summary's
        text as it closes), which has no place in any map. The map is made again only for a widget it
        lacks that can show."""
        visible = self.visible_widgets
        if not self._full_map_invalidated and not all(self._placed_or_hidden(w) for w in widgets - visible.keys()):
            self._full_map_invalidated = True
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
