"""What a seat of a Cacho table has seen of the cards (``engine.seen`` asks each family): its own cards, and every
card a showdown turned up."""

from __future__ import annotations

from collections import Counter

from cardtui.engine.cacho.records import CachoView
from cardtui.engine.cards import Card


def seen(view: CachoView) -> Counter[Card]:
    """The copies of each card whose place the seat knows; empty for a spectator."""
    out: Counter[Card] = Counter()
    if view.you is None:
        return out
    for c in view.seats:
        out.update(c.cards)  # its own, and every hand a showdown turned up
    return out
