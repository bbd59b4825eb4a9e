"""Whether a footer's keys all show whole at a width: none covered by the next, none past the edge."""

from __future__ import annotations

from textual.screen import Screen

from cardtui.client.footer import Footer
from cardtui.client.textual_internals import FooterLabel


def footer_items(screen: Screen[object]) -> list[tuple[int, int, str]]:
    """Each key and group label in the footer, left to right: (start column, end column, words).
    A group's keys have no words of their own; its label carries them."""
    keys = [(k.region.x, k.region.right, k.description) for k in screen.query_one(Footer).keys_shown()]
    labels = [(w.region.x, w.region.right, str(w.content)) for w in screen.query(FooterLabel).results(FooterLabel)
              if w.display]
    return sorted(keys + labels)


def cut_off(screen: Screen[object], width: int, may_go: tuple[str, ...] = ()) -> list[str]:
    """The footer's items (other than ``may_go``) that are covered by the next one or run past ``width``."""
    items = [item for item in footer_items(screen) if item[2] not in may_go]
    edges = [start for start, _, _ in items[1:]] + [width]  # where the next one starts
    return [f"{words!r} ends at {end}, the next starts at {edge}"
            for (_, end, words), edge in zip(items, edges, strict=True) if end > edge]
