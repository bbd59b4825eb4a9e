"""What the trucos put into the shape the line mode tells every hand in (``client.shape``): the two teams'
points, us first, and who takes each round and why."""

from __future__ import annotations

from collections.abc import Callable

from google.protobuf.message import Message

from cardtui.client.boards.truco_words import my_team, round_points, team_does, why
from cardtui.client.models import TableModel
from cardtui.client.shape import Family, Side, result_said
from cardtui.i18n import _
from cardtui.v1 import table_pb2, truco_pb2


def _sides(model: TableModel) -> list[Side]:
    view = model.view
    if view is None or view.WhichOneof("game") != "truco" or len(view.truco.scores) != 2:
        return []
    scores = list(view.truco.scores)
    mine = my_team(model)
    if mine is None:
        return [Side(_("team {n}").format(n=t + 1), scores[t]) for t in (0, 1)]
    return [Side(_("we"), scores[mine], mine=True, template=_("we {n}")),
            Side(_("they"), scores[1 - mine], template=_("they {n}"))]


def _won(model: TableModel, body: truco_pb2.TrucoRoundEnded, full: bool, speak: Callable[[str], str]) -> str:
    """Who takes a truco round and how much ("We take 4"); where the round's points were more than the stake
    (an envido, a flor), each side's share as well; ``full``: why (at the terse level the trick, the refusal or the
    run that won it was just said)."""
    took = team_does(model, body.team, _("We take {amount}"), _("They take {amount}"), _("{team} takes {amount}"),
                     amount=str(body.points)).plain
    if full and why(body.reason):
        took = _("{took}, {why}").format(took=took, why=why(body.reason))
    this = round_points(model, body) if full else None  # the terse level said the envido's points as they came
    return took if this is None else f"{took} ({speak(this.plain).removesuffix('.')})"


def _result(model: TableModel, body: Message, pots: list[str], full: bool, speak: Callable[[str], str],
            _heard: dict[str, int] | None) -> str:
    """Both teams' points every time, changed or not: truco's score is told as a pair ("we 5, they 3")."""
    assert isinstance(body, truco_pb2.TrucoRoundEnded)
    return result_said(_won(model, body, full, speak), model, TRUCO)


def _seat_held(model: TableModel, view: table_pb2.View, seat: int) -> list[str]:
    t = next((c for c in view.truco.seats if c.seat == seat), None)
    if t is None:
        return []
    parts = [_("team {n}").format(n=t.team + 1)]
    if t.gone:
        parts.append(_("gone to the deck"))
    return parts


TRUCO = Family(truco_pb2.TrucoView, _sides, lambda _model: _("points"),
               lambda body: isinstance(body, truco_pb2.TrucoRoundEnded) and body.HasField("team"), _result,
               seat_held=_seat_held)
