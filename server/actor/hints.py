"""Meld hints on request (table.proto's ``Hint``): from the asking seat's own view, nothing else.

The seat's view holds its cards, the table's meld rules and its wild cards: the hint is worked out from that
alone, by the view's family (``engine.family``: the rummy games', ``engine.rummy.meld_hints``), so it can tell
nothing the seat could not see.
"""

from __future__ import annotations

from cardtui.engine import family
from cardtui.engine.cards import Card
from cardtui.server.actor.table import Table
from cardtui.server.base import wire
from cardtui.server.base.errors import FailedPrecondition, InvalidArgument, quote
from cardtui.v1 import table_pb2


def hint(table: Table, seat: int, text: str) -> table_pb2.HintResponse:
    """The melds ``text`` (a card of the seat's hand) joins or would complete."""
    match = table.match
    view = match.view(seat) if match is not None else None
    fam = family.of(view) if view is not None else None
    if view is None or fam is None or not fam.melds:
        raise FailedPrecondition("Meld hints are for the rummy games, during a hand.")
    try:
        card = Card.parse(text)
    except ValueError:
        raise InvalidArgument("{card} is not a card.", card=quote(text)) from None
    if card not in fam.held(view):
        raise FailedPrecondition("{card} is not in your hand.", card=quote(text))
    found = fam.hints(view, card)
    return table_pb2.HintResponse(melds=[
        table_pb2.MeldHint(cards=[wire.note(c) for c in cards], needs=[wire.note(c) for c in needs])
        for cards, needs in found])
