"""What the rummy family (Pif Paf, Cacheta, Chinchón) puts into the shape the line mode tells every hand in
(``client.shape``): each seat's chips or points, who won the hand or its pots, and the pot for ``score``."""

from __future__ import annotations

from collections.abc import Callable

from google.protobuf.message import Message

from cardtui.client.models import TableModel
from cardtui.client.shape import CHIPS, Family, Side, pot_won, result_said, seats
from cardtui.i18n import _, ngettext
from cardtui.v1 import rummy_pb2, table_pb2


def _sides(model: TableModel) -> list[Side]:
    view = model.view
    if view is None or view.WhichOneof("game") != "rummy":
        return []
    return seats(model, [(s.seat, s.score, s.score <= 0) for s in view.rummy.seats])


def _won(model: TableModel, body: table_pb2.HandEnded) -> str:
    """Who wins a hand played for points (Cacheta): the knock that won it was just said."""
    if not body.HasField("winner"):
        return _("The hand is over")
    return _("You win the hand") if body.winner == model.seat else _("{name} wins the hand").format(
        name=model.name(body.winner))


def _result(model: TableModel, body: Message, pots: list[str], full: bool, speak: Callable[[str], str]) -> str:
    assert isinstance(body, table_pb2.HandEnded)
    won = "; ".join(pots) if pots else _won(model, body)
    return result_said(won, model, RUMMY)


def _pot_won(model: TableModel, body: Message, full: bool) -> str | None:
    """Each of Pif Paf's pots as it is won, with who won it, said with the result."""
    if isinstance(body, rummy_pb2.PifPafPotWon):
        return pot_won(model, body.seat, body.chips, body.uncontested and full)
    return None


def _unit(model: TableModel) -> str:
    return _("chips") if model.game in CHIPS else _("points")


def _pot(model: TableModel) -> int:
    view = model.view
    return view.rummy.pot if view is not None and view.WhichOneof("game") == "rummy" else 0


def _seat_held(model: TableModel, view: table_pb2.View, seat: int) -> list[str]:
    r = next((c for c in view.rummy.seats if c.seat == seat), None)
    if r is None:
        return []
    if model.game in CHIPS:
        parts = [ngettext("{n} chip", "{n} chips", r.score).format(n=r.score)]
    else:
        parts = [ngettext("{n} point", "{n} points", r.score).format(n=r.score)]
    parts.append(ngettext("{n} card", "{n} cards", r.card_count).format(n=r.card_count))
    if r.status == rummy_pb2.RUMMY_SEAT_STATUS_FOLDED:
        parts.append(_("out of this hand"))
    return parts


RUMMY = Family(rummy_pb2.RummyView, _sides, _unit, lambda body: isinstance(body, table_pb2.HandEnded), _result,
               pot_won=_pot_won, pot=_pot, seat_held=_seat_held)
