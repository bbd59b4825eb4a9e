"""What Cacho puts into the shape the line mode tells every hand in (``client.shape``): each seat's chips,
who wins the pot and with what, a hand dealt again, and the pot for ``score``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from google.protobuf.message import Message

from cardtui.client.boards import cacho_ear
from cardtui.client.boards.cacho import worth
from cardtui.client.card_names import cards_words
from cardtui.client.models import TableModel
from cardtui.client.shape import Family, Side, pot_won, result_said, seats
from cardtui.i18n import _, ngettext
from cardtui.v1 import cacho_pb2, table_pb2


def _sides(model: TableModel) -> list[Side]:
    view = model.view
    if view is None or view.WhichOneof("game") != "cacho":
        return []
    # the chips behind each seat: once a hand is over they hold what it won (its bets stay in ``put`` to be shown)
    # (a seat with nothing left once the hand is over is out of the match; one all in is still in the hand)
    return seats(model, [(s.seat, s.chips, s.status == cacho_pb2.CACHO_SEAT_STATUS_BUST or (
        s.chips <= 0 and (view.hand_over or s.status != cacho_pb2.CACHO_SEAT_STATUS_IN))) for s in view.cacho.seats])


def _won(model: TableModel, body: cacho_pb2.CachoPotWon, full: bool, speak: Callable[[str], str]) -> str:
    """Who wins Cacho's pot, how much, and with what ("bia wins 6 with cacho (33)"): the winning hand, from the
    view's showdown; unseen when everyone else passed or folded."""
    view = model.view
    hand = None
    if view is not None and view.WhichOneof("game") == "cacho" and view.cacho.HasField("result"):
        hand = next((s.strength for s in view.cacho.result.showdown if s.seat == body.seat), None)
    if hand is None or not body.showdown:
        return pot_won(model, body.seat, body.chips, uncontested=full)
    shown = speak(worth(hand))
    if body.seat == model.seat:
        return _("You win {chips} with {hand}").format(chips=body.chips, hand=shown)
    return _("{name} wins {chips} with {hand}").format(name=model.name(body.seat), chips=body.chips, hand=shown)


def _result(model: TableModel, body: Message, pots: list[str], full: bool, speak: Callable[[str], str],
            heard: dict[str, int] | None) -> str:
    assert isinstance(body, cacho_pb2.CachoPotWon)
    return result_said(_won(model, body, full, speak), model, CACHO, heard)


def _redealt(model: TableModel, body: Message) -> str | None:
    return _("Dealt again: everyone passed.") if isinstance(body, cacho_pb2.CachoRedealt) else None


def _pot(model: TableModel) -> int:
    view = model.view
    return view.cacho.pot if view is not None and view.WhichOneof("game") == "cacho" else 0


def _seat_held(model: TableModel, view: table_pb2.View, seat: int) -> list[str]:
    s = next((c for c in view.cacho.seats if c.seat == seat), None)
    if s is None:
        return []
    parts = [ngettext("{n} chip", "{n} chips", s.chips).format(n=s.chips)]
    if s.put:
        parts.append(_("{n} in the pot").format(n=s.put))
    if s.status == cacho_pb2.CACHO_SEAT_STATUS_PASSED:
        parts.append(_("out of this hand"))
    return parts


def _hand(model: TableModel, view: table_pb2.View, slots: Sequence[str | None]) -> str:
    mine = next((s for s in view.cacho.seats if s.seat == model.seat), None)
    held = list(mine.cards) if mine is not None else []
    return _("You hold {cards}.").format(cards=cards_words(held)) if held else _("You hold no cards.")


CACHO = Family(cacho_pb2.CachoView, _sides, lambda _model: _("chips"),
               lambda body: isinstance(body, cacho_pb2.CachoPotWon), _result, _redealt, pot=_pot, seat_held=_seat_held,
               stacks=lambda view: {s.seat: s.chips for s in view.cacho.seats},
               on_table=lambda _model, view, _full: [_("Round {n}, the pot holds {pot}.").format(
                   n=view.cacho.round, pot=view.cacho.pot)],
               hand=_hand, hand_at_turn=True, unheeded=cacho_ear.unheeded, terse=cacho_ear.terse, dealt=cacho_ear.dealt)
