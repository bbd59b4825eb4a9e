"""The footer, its key descriptions in the reader's language.

Bindings are declared once, at import, with English descriptions (marked ``N_`` where they are
declared); this footer looks each up when it is drawn, so a language switched at run time shows
in the footer at its next refresh (``refresh_bindings``).

It is composed again only when what it shows changes (the keys on offer, whether each is
enabled, the language): Textual asks a footer to recompose whenever the focus moves or a screen
refreshes its bindings, and a footer composed anew mounts every key's widget again.

The command palette's hint is left out: at 80 columns its room goes to the screen's own keys
(``ctrl+p`` still opens it, and the help says so).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey, FooterLabel

from cardtui.i18n import _, current


class Footer(TextualFooter):
    def __init__(self, *, show_command_palette: bool = False, compact: bool = False) -> None:
        super().__init__(show_command_palette=show_command_palette, compact=compact)
        self.shown: Hashable = None
        """What the footer shows now (see ``showing``): the same again is not composed again."""

    @staticmethod
    def showing(screen: Screen[object]) -> Hashable:
        """Everything the footer's keys are made of: each shown key's binding and state, the language."""
        keys = tuple((key, b.binding, b.enabled, b.tooltip) for key, b in screen.active_bindings.items()
                     if b.binding.show)
        return keys, current(), leaves_out(screen)

    def bindings_changed(self, screen: Screen[object]) -> None:
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            super().bindings_changed(screen)  # not composed now: nothing to remember
            return
        shown = self.showing(screen)
        if shown == self.shown and self._bindings_ready:
            return
        self.shown = shown
        super().bindings_changed(screen)

    def compose(self) -> Iterator[Widget]:
        self._forget_removed_keys()
        left_out = leaves_out(self.screen)
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.action in left_out:
                continue
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


def leaves_out(screen: Screen[object]) -> frozenset[str]:
    """The actions a screen keeps out of its footer for now (``footer_leaves_out``; none if it says none):
    their keys still work, the room goes to a key that matters more there."""
    left: object = getattr(screen, "footer_leaves_out", frozenset())
    return left if isinstance(left, frozenset) else frozenset()
