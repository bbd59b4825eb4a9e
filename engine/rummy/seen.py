"""What a seat of a rummy table has seen of the cards (``engine.seen`` asks each family): its own cards, the whole
discard pile, a card turned out of play (Cacheta's flip), and in each other seat's hand the copies it is known to
hold, taken from the pile and not thrown since (``RummySeat.known``). A card taken and thrown back is on the pile
and counted there once. The cards of a stock made again from the pile are back where a draw may bring them: not
counted (the view no longer shows them, and a draw may)."""

from __future__ import annotations

from collections import Counter

from cardtui.engine.cards import Card, pack
from cardtui.engine.rummy.records import RummyView


def seen(view: RummyView) -> Counter[Card]:
    """The copies of each card whose place the seat knows (see the module); empty for a spectator."""
    out: Counter[Card] = Counter()
    if view.you is None:
        return out
    out.update(view.cards)
    out.update(view.pile)
    if view.flip is not None:
        out[view.flip] += 1
    for s in view.seats:
        if s.seat != view.you:
            out.update(s.known)
    return out


def deck(view: RummyView) -> tuple[Card, ...]:
    """Every copy of every card of the table's pack (``RummyTable.pack``)."""
    return pack(view.table.pack)
