"""The footer, its key descriptions in the reader's language.

Bindings are declared once, at import, with English descriptions (marked ``N_`` where they are
declared); this footer looks each up when it is drawn, so a language switched at run time shows
in the footer at its next refresh (``refresh_bindings``).

The command palette's hint is left out: at 80 columns its room goes to the screen's own keys
(``ctrl+p`` still opens it, and the help says so).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from textual.widget import Widget
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey, FooterLabel

from cardtui.i18n import _


class Footer(TextualFooter):
    def __init__(self, *, show_command_palette: bool = False, compact: bool = False) -> None:
        super().__init__(show_command_palette=show_command_palette, compact=compact)

    def compose(self) -> Iterator[Widget]:
        self._forget_removed_keys()
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.description = _(widget.description)
                if isinstance(widget.tooltip, str):
                    widget.tooltip = _(widget.tooltip)
            elif isinstance(widget, FooterLabel):
                widget.update(_(str(widget.content)))
            yield widget

    def _forget_removed_keys(self) -> None:
        """Drop the keys a recompose removed from the footer's watchers.

        Each key is bound to the footer's ``compact`` (``data_bind``), and Textual keeps every
        bound key in the footer's watchers until ``compact`` next changes, which it never does:
        every ``refresh_bindings`` (several a table message) left six removed keys alive with
        their styles and caches, the most of what a browser guest grew by at a table, and more
        for as long as it played. Called as the footer composes again, after the old keys went.
        """
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(self, "__watchers", {})
        for bound in watchers.values():
            bound[:] = [(node, callback) for node, callback in bound if node is self or node.is_attached]
