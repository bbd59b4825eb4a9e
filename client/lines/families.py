"""What each family of games puts into the one shape the line mode tells every hand in.

The shape is the narration's (``narration``): at the player's turn, what is new and the choices; a hand's result
with what won it and every side's total, the player's first; a redeal with its reason; and ``score``, the totals
in one line at any time. What differs from family to family is here, an entry a family (``FAMILIES``, by the
message of its view on the wire: rummy, truco, Cacho): who its sides are and what they hold (each seat's
chips or points, or two teams' points), what its hand's result says won it, and why a hand is dealt again. Shared
code asks a family's entry, never a game's name: a family's entry moves with it to a folder of its own.

Every total is said after a word, never after another number: a seat whose name ends in a number ("bot 2") is
said "bot 2 has 20", not "bot 2 20", which the ear hears as two numbers run together (``runs_of_numbers``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardtui.client.boards.cacho import worth
from cardtui.client.boards.truco_words import my_team, round_points, team_does, why
from cardtui.client.lines.sentences import CHIPS, spoken
from cardtui.client.models import TableModel
from cardtui.i18n import _
from cardtui.v1 import cacho_pb2, rummy_pb2, table_pb2, truco_pb2

ENDS_IN_A_NUMBER = re.compile(r"\d\W*$")


@dataclass(frozen=True)
class Side:
    """One side of a table and what it holds: a seat (its name, or the player) or a team (us, them)."""

    name: str
    total: int
    mine: bool = False
    template: str = ""
    """Its words, with ``{n}`` for its total, where they are not its name's ("you {n}", "we {n}")."""

    def said(self) -> str:
        return self.template.format(n=self.total) if self.template else said_with(self.name, self.total)


def said_with(name: str, number: int | str, template: str = "") -> str:
    """A name and a number after it, as the ear tells them apart: "bia 20", and "bot 2 has 20" where the name
    ends in a number (``template``: the words for the second, with ``{name}`` and ``{n}``)."""
    if ENDS_IN_A_NUMBER.search(name):
        return (template or _("{name} has {n}")).format(name=name, n=number)
    return _("{name} {n}").format(name=name, n=number)


def name_then(name: str, what: str, apart: str, joined: str) -> str:
    """A name and what follows it, said apart ("bia, 9 clubs") unless both sides of the gap are numbers ("bot 2"
    and "9 clubs"): then with the word that joins them ("bot 2 discards 9 clubs"). Templates with ``{name}`` and
    ``{what}``."""
    starts = what[:1].isdigit() or what[:1] in "+-"
    return (joined if starts and ENDS_IN_A_NUMBER.search(name) else apart).format(name=name, what=what)


def totals_said(sides: list[Side]) -> str:
    """Every side's total, the player's (or the player's team's) first: "you 19, bia 20, bot 3 has 22"."""
    return ", ".join(side.said() for side in sides)


def _seats(model: TableModel, held: list[tuple[int, int, bool]]) -> list[Side]:
    """Seats and their totals, the player first then the others in the order of play after them; a seat with
    nothing left and out of the match is left out (it holds nothing), the player never."""
    me = model.seat
    order = sorted(held, key=lambda h: (h[0] - (me or 0)) % max(1, len(model.summary.seats) or len(held)))
    out = []
    for seat, total, out_of_it in order:
        if seat == me:
            out.append(Side(model.name(seat), total, mine=True, template=_("you {n}")))
        elif not out_of_it:
            out.append(Side(model.name(seat), total))
    return out


def _rummy_sides(model: TableModel) -> list[Side]:
    view = model.view
    if view is None or view.WhichOneof("game") != "rummy":
        return []
    return _seats(model, [(s.seat, s.score, s.score <= 0) for s in view.rummy.seats])


def _cacho_sides(model: TableModel) -> list[Side]:
    view = model.view
    if view is None or view.WhichOneof("game") != "cacho":
        return []
    # the chips behind each seat: once a hand is over they hold what it won (its bets stay in ``put`` to be shown)
    # (a seat with nothing left once the hand is over is out of the match; one all in is still in the hand)
    return _seats(model, [(s.seat, s.chips, s.status == cacho_pb2.CACHO_SEAT_STATUS_BUST or (
        s.chips <= 0 and (view.hand_over or s.status != cacho_pb2.CACHO_SEAT_STATUS_IN))) for s in view.cacho.seats])


def _truco_sides(model: TableModel) -> list[Side]:
    view = model.view
    if view is None or view.WhichOneof("game") != "truco" or len(view.truco.scores) != 2:
        return []
    scores = list(view.truco.scores)
    mine = my_team(model)
    if mine is None:
        return [Side(_("team {n}").format(n=t + 1), scores[t]) for t in (0, 1)]
    return [Side(_("we"), scores[mine], mine=True, template=_("we {n}")),
            Side(_("they"), scores[1 - mine], template=_("they {n}"))]


@dataclass
class Pots:
    """The pots of a hand as they are won (Pif Paf's side pots too), said together with the totals once the hand
    is over."""

    won: list[str] = field(default_factory=list)


def _pot_won(model: TableModel, seat: int, chips: int, uncontested: bool) -> str:
    """Who wins a pot and how much; ``uncontested``: won because everyone else passed or folded (the verbose
    level says so; the terse level has just said each of them pass or fold)."""
    if seat == model.seat:
        return (_("You win {chips}, uncontested") if uncontested else _("You win {chips}")).format(chips=chips)
    return (_("{name} wins {chips}, uncontested") if uncontested else _("{name} wins {chips}")).format(
        name=model.name(seat), chips=chips)


def _cacho_won(model: TableModel, body: cacho_pb2.CachoPotWon, full: bool) -> str:
    """Who wins Cacho's pot, how much, and with what ("bia wins 6 with cacho (33)"): the winning hand, from the
    view's showdown; unseen when everyone else passed or folded."""
    view = model.view
    hand = None
    if view is not None and view.WhichOneof("game") == "cacho" and view.cacho.HasField("result"):
        hand = next((s.strength for s in view.cacho.result.showdown if s.seat == body.seat), None)
    if hand is None or not body.showdown:
        return _pot_won(model, body.seat, body.chips, uncontested=full)
    shown = spoken(worth(hand), stop=False)
    if body.seat == model.seat:
        return _("You win {chips} with {hand}").format(chips=body.chips, hand=shown)
    return _("{name} wins {chips} with {hand}").format(name=model.name(body.seat), chips=body.chips, hand=shown)


def _rummy_won(model: TableModel, body: table_pb2.HandEnded) -> str:
    """Who wins a hand played for points (Cacheta): the knock that won it was just said."""
    if not body.HasField("winner"):
        return _("The hand is over")
    return _("You win the hand") if body.winner == model.seat else _("{name} wins the hand").format(
        name=model.name(body.winner))


def _truco_won(model: TableModel, body: truco_pb2.TrucoRoundEnded, full: bool) -> str:
    """Who takes a truco round and how much ("We take 4"); where the round's points were more than the stake
    (an envido, a flor), each side's share as well; ``full``: why (at the terse level the trick, the refusal or the
    run that won it was just said)."""
    took = team_does(model, body.team, _("We take {amount}"), _("They take {amount}"), _("{team} takes {amount}"),
                     amount=str(body.points)).plain
    if full and why(body.reason):
        took = _("{took}, {why}").format(took=took, why=why(body.reason))
    this = round_points(model, body) if full else None  # the terse level said the envido's points as they came
    return took if this is None else f"{took} ({spoken(this.plain, stop=False).removesuffix('.')})"


@dataclass(frozen=True)
class Family:
    """What one family says in the shape every game is told in."""

    sides: Callable[[TableModel], list[Side]]
    """Every side and its total, the player's first."""
    unit: Callable[[TableModel], str]
    """What a total counts ("chips", "points"), for ``score``."""
    ends: Callable[[Message], bool]
    """Whether an event ends a hand here (its result is said once the view after it is in)."""
    result: Callable[[TableModel, Message, list[str], bool], str]
    """The sentence that ends a hand, from the event that ends it, the view after it and the pots won in it:
    what won it and every side's total (``full``: the verbose level's, with why where the family says it)."""
    redealt: Callable[[TableModel, Message], str | None] = lambda _model, _body: None
    """A hand dealt again, with why; None for an event that is not one."""


def result_said(won: str, model: TableModel, family: Family) -> str:
    """A hand's result: what won it, then every side's total, the player's first."""
    totals = totals_said(family.sides(model))
    return (_("{won}; {totals}.").format(won=won, totals=totals) if totals else f"{won}.")


def _rummy_result(model: TableModel, body: Message, pots: list[str], full: bool) -> str:
    assert isinstance(body, table_pb2.HandEnded)
    won = "; ".join(pots) if pots else _rummy_won(model, body)
    return result_said(won, model, RUMMY)


def _cacho_result(model: TableModel, body: Message, pots: list[str], full: bool) -> str:
    assert isinstance(body, cacho_pb2.CachoPotWon)
    return result_said(_cacho_won(model, body, full), model, CACHO)


def _truco_result(model: TableModel, body: Message, pots: list[str], full: bool) -> str:
    assert isinstance(body, truco_pb2.TrucoRoundEnded)
    return result_said(_truco_won(model, body, full), model, TRUCO)


def _cacho_redealt(model: TableModel, body: Message) -> str | None:
    return _("Dealt again: everyone passed.") if isinstance(body, cacho_pb2.CachoRedealt) else None


def pot_of(model: TableModel, body: Message, full: bool) -> str | None:
    """A pot won in the middle of a hand's end (Pif Paf's pots, each with who won it), said with the result."""
    if isinstance(body, rummy_pb2.PifPafPotWon):
        return _pot_won(model, body.seat, body.chips, body.uncontested and full)
    return None


def _unit(model: TableModel) -> str:
    return _("chips") if model.game in CHIPS else _("points")


RUMMY = Family(_rummy_sides, _unit, lambda body: isinstance(body, table_pb2.HandEnded), _rummy_result)
TRUCO = Family(_truco_sides, lambda _model: _("points"),
               lambda body: isinstance(body, truco_pb2.TrucoRoundEnded) and body.HasField("team"), _truco_result)
CACHO = Family(_cacho_sides, lambda _model: _("chips"), lambda body: isinstance(body, cacho_pb2.CachoPotWon),
               _cacho_result, _cacho_redealt)
FAMILIES: dict[type[Message], Family] = {rummy_pb2.RummyView: RUMMY, truco_pb2.TrucoView: TRUCO,
                                         cacho_pb2.CachoView: CACHO}
"""Each family's entry, by its view's message (the wire's family: ``View.game``)."""


def family_of(model: TableModel) -> Family | None:
    view = model.view
    kind = view.WhichOneof("game") if view is not None else None
    return FAMILIES.get(type(getattr(view, kind))) if view is not None and kind else None


def score_said(model: TableModel) -> str:
    """The ``score`` command: every side's total in one line, the player's first, and the pot where there is
    one."""
    family = family_of(model)
    sides = family.sides(model) if family is not None else []
    if not sides or family is None:
        return _("No score yet: no hand has been dealt.")
    said = _("{totals} ({unit}).").format(totals=totals_said(sides), unit=family.unit(model))
    view = model.view
    pot = 0
    if view is not None and view.WhichOneof("game") == "rummy":
        pot = view.rummy.pot
    elif view is not None and view.WhichOneof("game") == "cacho":
        pot = view.cacho.pot
    if pot:
        said += " " + _("The pot holds {pot}.").format(pot=pot)
    return said[:1].upper() + said[1:]
