"""What the terse level of the line mode says of the rummy games' own events, and keeps of them
(``client.shape.Ear``): the others' draws and discards folded into one line a round (``shape.Folded``), the pile's
top they take, and a card the player draws from the stock said with the discard's turn (``lines.narration`` says
why each)."""

from __future__ import annotations

from google.protobuf.message import Message

from cardtui.client.boards.rummy_words import closes
from cardtui.client.card_names import card_words
from cardtui.client.models import TableModel
from cardtui.client.shape import Ear, Fold
from cardtui.v1 import common_pb2, rummy_pb2, table_pb2


def discarded(ear: Ear, model: TableModel, body: Message) -> list[str]:
    """Another's draw or discard, folded into the round's line; the round so far said once a seat's turn comes
    round again without the player's."""
    out: list[str] = []
    seat = _seat(body)
    if seat is None:
        return out
    if isinstance(body, rummy_pb2.RummyDrew):
        if body.source == common_pb2.DRAW_SOURCE_PILE and body.HasField("card"):
            ear.folded.taken[seat] = body.card
        return out
    assert isinstance(body, rummy_pb2.RummyDiscarded)
    taken = ear.folded.taken.pop(seat, None)  # (taken before the round below is said, with this discard)
    if seat in ear.folded.seats:  # round again without a turn of the player's: the round is said
        out.append(ear.flush(model, turn=False))
    ear.folded.seats.add(seat)
    name = model.name(seat)
    card = card_words(body.card, short=True)
    if taken is not None and ear.top is not None and ear.top[1] == taken:
        yours = ear.top[0] == model.seat
        # at Chinchón only the next seat's draw takes a discard (no claims): the player's taken needs no name
        ear.folded.moves.append(Fold("" if yours and closes(model) else name, "yours" if yours else "it",
                                     card_words(taken, short=True), card))
    elif taken is not None:
        ear.folded.moves.append(Fold(name, "card", card_words(taken, short=True), card))
    else:
        ear.folded.moves.append(Fold(name, "", "", card))
    return ear.before([s for s in out if s])


def on_top(ear: Ear, body: Message) -> None:
    """A discard is the pile's top now; a new hand has none."""
    if isinstance(body, rummy_pb2.RummyDiscarded):
        ear.top = (body.seat, body.card)
    elif isinstance(body, (table_pb2.HandStarted, rummy_pb2.RummyKnocked)):
        ear.top = None


def terse(ear: Ear, model: TableModel, body: Message) -> str | None:
    """A card the player draws from the stock: said with the discard's turn that follows."""
    if isinstance(body, rummy_pb2.RummyDrawnCard) and body.seat == model.seat:
        card = body.card
        ear.later.append(lambda now: ear.drew(now, card))
        return ""
    return None


def _seat(body: Message) -> int | None:
    seat = getattr(body, "seat", None)
    return seat if isinstance(seat, int) else None
