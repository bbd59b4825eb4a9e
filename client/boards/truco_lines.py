"""What the trucos put into the shape the line mode tells every hand in (``client.shape``): the two teams'
points, us first, and who takes each round and why; and the terse level's words for the trucos' own events that
need nothing heard before them (``Family.said``): what goes unsaid, a refusal by what it gives."""

from __future__ import annotations

from collections.abc import Callable

from google.protobuf.message import Message

from cardtui.client.boards.truco_words import (
    ARGENTINO,
    NO,
    my_team,
    round_points,
    seat_team,
    team_does,
    team_object,
    why,
)
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
            heard: dict[str, int] | None) -> str:
    """Who takes the round, and our points; the other team's where they changed since the last result heard
    (``heard``, the terse level: "We take 4; we 34." where theirs still stand at the 8 just heard; the verbose
    level and the first result at a table say both)."""
    assert isinstance(body, truco_pb2.TrucoRoundEnded)
    return result_said(_won(model, body, full, speak), model, TRUCO, heard)


def caller(model: TableModel, seat: int) -> str:
    """Who calls at truco, as said before the call at the terse level ("bia: "), or "" for a seat of the other
    team: the player answers the team, not the seat (at a table of two, the only opponent); a partner's call, and
    any to a spectator, keep the name."""
    mine = my_team(model)
    if mine is None or seat == model.seat or seat_team(model, seat) == mine:
        return f"{model.name(seat)}: "
    return ""


def gave_points(body: Message) -> bool:
    """A refusal of an envido or a flor: it says what the others take for it, a result, not an echo (the player's
    own too)."""
    return (isinstance(body, truco_pb2.TrucoAnswered) and not body.accepted and body.points > 0
            and body.bet != truco_pb2.TRUCO_BET_TRUCO)  # the truco's: the round's end says what they take


def runs_to_me(model: TableModel, seat: int | None) -> bool:
    """Whether ``seat`` plays right before the player (every seat in the round: they play in the table's order): a
    line of cards that ends with its card runs up to the player, who plays next in the trick, and counting back from
    them says whose each card is ("7 clubs, 6 coins": the partner's, then the seat before the player's)."""
    view = model.view
    if seat is None or model.seat is None or view is None or not view.seats:
        return False
    if view.WhichOneof("game") != "truco" or any(not s.playing for s in view.truco.seats):
        return False  # a seat out of the round (gone to the deck, or beside a pica-pica duel): a gap in the order
    return seat == (model.seat - 1) % len(view.seats)


def _said(model: TableModel, body: Message) -> str | None:
    """The terse level's words for a truco event that need nothing heard before it ("" to say nothing; None: the
    line mode decides, or the log's words)."""
    if isinstance(body, truco_pb2.TrucoAnswered) and not body.HasField("call"):
        if gave_points(body):  # a refused envido or flor, just called: what it gives, without the bet's name again
            gives = f"{team_object(model, 1 - body.team).plain} +{body.points}"
            return f"{caller(model, body.seat)}{NO.get(model.game, NO[ARGENTINO])}, {gives}."
        if body.accepted:
            return ""  # what follows says it: the play goes on, the envido's points are said (a refusal ends it)
        return None
    if isinstance(body, truco_pb2.ArgentinoSonBuenas):
        # another's envido let go: the envido's winner, said next, says whose points stood
        return "" if body.seat != model.seat and body.bet != truco_pb2.TRUCO_BET_FLOR else None
    if isinstance(body, truco_pb2.PaulistaHandDealt):
        return "" if not body.ferro and not body.HasField("onze_team") else None
    if isinstance(body, truco_pb2.ArgentinoRoundStarted):
        return "" if not body.duel else None
    if isinstance(body, truco_pb2.PaulistaDealChoice):
        # the mão keeps the cards or passes them on: the rejected ones alone are news
        return "" if body.choice != truco_pb2.PAULISTA_CHOICE_REJECT else None
    return None


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
               seat_held=_seat_held, said=_said)
