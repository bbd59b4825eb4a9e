"""Meld hints on request (table.proto's ``Hint``): from the asking seat's own view, nothing else.

The seat's view holds its cards, the table's meld rules and Cacheta's wild cards: the hint is
worked out from that alone (``engine.meld_hints``), so it can tell nothing the seat could not see.
"""

from __future__ import annotations

from cardtui.engine.cards import Card
from cardtui.engine.meld_hints import meld_hints
from cardtui.engine.melds import Ruleset
from cardtui.engine.rummy_records import RummyView
from cardtui.server.actor.table import Table
from cardtui.server.base import wire
from cardtui.server.base.errors import FailedPrecondition, InvalidArgument, quote
from cardtui.v1 import table_pb2


def hint(table: Table, seat: int, text: str) -> table_pb2.HintResponse:
    """The melds ``text`` (a card of the seat's hand) joins or would complete."""
    match = table.match
    view = match.view(seat) if match is not None else None
    if not isinstance(view, RummyView):
        raise FailedPrecondition("Meld hints are for Pif Paf and Cacheta, during a hand.")
    try:
        card = Card.parse(text)
    except ValueError:
        raise InvalidArgument("{card} is not a card.", card=quote(text)) from None
    if card not in view.cards:
        raise FailedPrecondition("{card} is not in your hand.", card=quote(text))
    rules = Ruleset(view.rules.group_suits, view.rules.ace_high, view.rules.wild_acts)
    found = meld_hints(card, view.cards, rules, view.wilds)
    return table_pb2.HintResponse(melds=[
        table_pb2.MeldHint(cards=[wire.note(c) for c in h.cards], needs=[wire.note(c) for c in h.needs])
        for h in found])
