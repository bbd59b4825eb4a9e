"""A truco view at a sealed table, as its own seat's client sees it: the server's view holds none of the seat's
cards (docs/deal.md, "Sealed tables"), so the client puts in the cards it opened itself and offers a card to play,
or a set of cards to show for a claim, once for each of them. Every screen and the line mode then read the table
from this view alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardtui.v1 import common_pb2, table_pb2


def filled(view: table_pb2.View, own: Sequence[str], shows: Callable[[], list[list[str]]]) -> None:
    """``view`` with the seat's ``own`` cards (in their dealt order) and its offers made whole; ``shows`` gives the
    sets of cards a claim could be shown with (the table judges which one makes it)."""
    if not view.HasField("truco"):
        return
    if not view.truco.cards and own:
        view.truco.cards.extend(own)
    legal: list[common_pb2.Action] = []
    for action in view.legal:
        if action.type == common_pb2.ACTION_TYPE_PLAY and not action.cards:
            legal += [common_pb2.Action(type=action.type, cards=[card]) for card in own]
        elif action.type == common_pb2.ACTION_TYPE_SHOW and not action.cards:
            legal += [common_pb2.Action(type=action.type, cards=cards) for cards in shows()]
            legal.append(action)  # showing none: the claim is lost
        else:
            legal.append(action)
    del view.legal[:]
    view.legal.extend(legal)
