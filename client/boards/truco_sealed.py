"""A truco view at a sealed table, as its own seat's client sees it: the server's view holds none of the seat's
cards (docs/deal.md, "Sealed tables"), so the client puts in the cards it opened itself and offers a card to play,
or a set of cards to show for a claim, once for each of them. Every screen and the line mode then read the table
from this view alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from cardtui.v1 import common_pb2, table_pb2

BLOCK = (common_pb2.ACTION_TYPE_REJECT, common_pb2.ACTION_TYPE_PASS_CARDS)
"""Truco paulista's mão's choices that move its block (offered without cards: its client names them)."""


def filled(view: table_pb2.View, own: Sequence[str], shows: Callable[[], list[list[str]]],
           seen: Mapping[int, Sequence[str]] | None = None) -> None:
    """``view`` with the seat's ``own`` cards (in their dealt order) and its offers made whole; ``shows`` gives the
    sets of cards a claim could be shown with (the table judges which one makes it); ``seen``: the other seats'
    cards the rules showed this one (truco paulista: a mão de onze's partner's hand, the block the mão passed)."""
    if not view.HasField("truco"):
        return
    truco = view.truco
    if not truco.cards and own:
        truco.cards.extend(own)
    for seat, cards in (seen or {}).items():
        if truco.paulista.passed and seat == (truco.paulista.mao + 2) % 4 and view.you == truco.paulista.mao:
            if not truco.paulista.passed_cards:
                truco.paulista.passed_cards.extend(cards)
        elif seat < len(truco.seats) and not truco.seats[seat].cards:
            truco.seats[seat].cards.extend(cards)
    legal: list[common_pb2.Action] = []
    for action in view.legal:
        if action.type in BLOCK and not action.cards:
            legal.append(common_pb2.Action(type=action.type, cards=own))
        elif action.type == common_pb2.ACTION_TYPE_PLAY and not action.cards:
            legal += [common_pb2.Action(type=action.type, cards=[card]) for card in own]
        elif action.type == common_pb2.ACTION_TYPE_SHOW and not action.cards:
            legal += [common_pb2.Action(type=action.type, cards=cards) for cards in shows()]
            legal.append(action)  # showing none: the claim is lost
        else:
            legal.append(action)
    del view.legal[:]
    view.legal.extend(legal)
