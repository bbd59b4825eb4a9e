"""What the terse level of the line mode says of Cacho's own events, and keeps of them (``client.shape.Ear``): each
card the player is dealt said with the turn it is for, the shows by the pot's result, and nothing of the others'
bets once the player is out of the hand (``lines.narration`` says why each)."""

from __future__ import annotations

from google.protobuf.message import Message

from cardtui.client.models import TableModel, action_name
from cardtui.client.shape import BETS, Ear
from cardtui.v1 import cacho_pb2, table_pb2


def unheeded(model: TableModel, body: Message) -> bool:
    """Another's bet or show at Cacho once the player is out of the hand (passed, or without chips): it changes
    no choice of theirs, and the pot's winner is said (``last`` has them)."""
    bet = isinstance(body, table_pb2.Acted) and action_name(body.action) in BETS
    if not (bet or isinstance(body, cacho_pb2.CachoShowed)) or _seat(body) == model.seat:
        return False
    view = model.view
    if view is None or view.WhichOneof("game") != "cacho" or model.seat is None:
        return False
    mine = next((s for s in view.cacho.seats if s.seat == model.seat), None)
    return mine is not None and mine.status != cacho_pb2.CACHO_SEAT_STATUS_IN


def terse(ear: Ear, model: TableModel, body: Message) -> str | None:
    """A round's card dealt the player, said with the turn it is for; a show, by the pot's result."""
    if isinstance(body, table_pb2.CardsDealt) and body.seat == model.seat and model.view is not None \
            and model.view.WhichOneof("game") == "cacho":
        ear.received.extend(body.cards)  # a round's card: said with the turn it is for
        return ""
    if isinstance(body, cacho_pb2.CachoShowed):
        return ""  # the pot's result names the winning hand (``last``: every hand shown)
    return None


def dealt(ear: Ear, model: TableModel, cards: list[str]) -> str | None:
    """A new Cacho hand: its first card said with the turn it is for."""
    view = model.view
    if not cards and view is not None and view.WhichOneof("game") == "cacho":
        mine = next((s for s in view.cacho.seats if s.seat == model.seat), None)
        cards = list(mine.cards) if mine is not None else []
    if view is not None and view.WhichOneof("game") == "cacho" and model.seat is not None:
        # Nor at Cacho: the last pot's winner said a new hand begins, and its first card is said with the turn
        # it is for ("With 4 spades: ..."), as each later round's is.
        ear.received = [*cards, *ear.received]
        return ""
    return None


def _seat(body: Message) -> int | None:
    seat = getattr(body, "seat", None)
    return seat if isinstance(seat, int) else None
