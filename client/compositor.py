"""A compositor that draws, of each widget, only the rows a frame changes.

Textual's compositor paints a frame's changes by rendering every widget that overlaps the
bounding box of everything changed, each of them whole: a countdown ticking in the board and a
key lit in the footer draw every line of every widget on the screen between them (the log, its
scrollbar, the board, the bar, the containers and the screen's own background), through each
widget's styles cache and line filters, to keep a few cells of it. At a table, where a message
changes the board, a log line and the bar, that was most of a frame's cost.

This one renders a widget only where it meets a changed region, and only those of its rows
(their span, top to bottom): what reaches the terminal is the same, cell for cell, since the
changed cells are all drawn by the front-most widget there, as before; a cell outside every
changed region is not sent, as before. The full paint (a resize, a new screen) is Textual's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import cast

from textual._compositor import ChopsUpdate, Compositor, ReflowResult
from textual.dom import DOMNode
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget


class RowCompositor(Compositor):
    """Textual's compositor, with a partial update that renders only changed rows of changed widgets,
    and a map of every widget's place made once per layout, not again after it."""

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        """Textual's reflow, which leaves the map it has just made of every widget as it found it:
        marked out of date when a widget asked for a paint before the layout (one just shown, or
        mounted). The first widget to ask where it is after the layout (the board, to draw at its
        size) then had the whole screen arranged again, a second layout's work, on a third of the
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

    def render_partial_update(self) -> ChopsUpdate | None:
        update_regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not update_regions:
            return None
        screen = self.size.region
        changed = [region for region in (r.intersection(screen) for r in update_regions) if region]
        if not changed:
            return None
        spans = list(self._regions_to_spans(changed))
        chops = self._changed_chops(changed, {y for y, _, _ in spans}.__contains__)
        return ChopsUpdate(chops, spans, [cut_set[1:] for cut_set in self.cuts])

    def _changed_renders(self, changed: list[Region]) -> Iterable[tuple[Region, list[Strip]]]:
        """Each widget that meets a changed region, rendered over the rows where it does (the
        band from the first such row to the last), with the part of the screen it covers."""
        crop = Region.from_union(changed)
        for widget, (region, clip) in self.visible_widgets.items():
            visible = region.intersection(clip)
            if not visible or not crop.overlaps(visible):
                continue
            top = bottom = -1
            for part in changed:
                met = visible.intersection(part)
                if met:
                    if top < 0 or met.y < top:
                        top = met.y
                    if met.bottom > bottom:
                        bottom = met.bottom
            if top < 0:
                continue
            band = Region(visible.x, top, visible.width, bottom - top)
            yield band, widget.render_lines(Region(band.x - region.x, band.y - region.y, band.width, band.height))

    def _changed_chops(self, changed: list[Region],
                       is_rendered_line: Callable[[int], bool]) -> Sequence[Mapping[int, Strip]]:
        """As Textual's ``_render_chops``, from the changed rows' renders only. Widgets come front
        to back and the first strip for a cut wins; a cut left to a widget behind (its front
        widget not rendered on that row) lies outside every changed span, and is not sent."""
        cuts = self.cuts
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        for band, strips in self._changed_renders(changed):
            x = band.x
            first_cut, last_cut = band.column_span
            for y, strip in zip(band.line_range, strips, strict=False):
                if not is_rendered_line(y):
                    continue
                line = chops[y]
                final_cuts = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
                for cut, piece in zip(final_cuts, strip.divide([cut - x for cut in final_cuts[1:]]), strict=False):
                    if line.get(cut) is None:
                        line[cut] = piece
        return cast("Sequence[Mapping[int, Strip]]", chops)
