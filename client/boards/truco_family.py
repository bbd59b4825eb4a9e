"""The trucos' family as the client registers it (``client.shape.Family``, declared by each truco game's
``lines``): the shape's words (``truco_lines.TRUCO``), with what the table and the hand hold said in words, the
hand numbered by the places its cards were dealt in, and which of its events play a card and start a trick's names
over."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from google.protobuf.message import Message

from cardtui.client.boards import truco_ear
from cardtui.client.boards.truco_lines import TRUCO, gave_points, runs_to_me
from cardtui.client.boards.truco_words import my_team
from cardtui.client.card_names import card_words, placed
from cardtui.client.models import TableModel
from cardtui.i18n import _
from cardtui.v1 import table_pb2, truco_pb2


def _on_table(model: TableModel, view: table_pb2.View, full: bool) -> list[str]:
    """The target and the round's stake (``full``), and the trick's cards with who played each."""
    out: list[str] = []
    t = view.truco
    if full:
        out.append(_("The game is to {target}; this round is worth {stake}.").format(target=t.target, stake=t.stake))
    if t.trick:
        plays = ", ".join(_("{name} played {card}").format(
            name=model.name(p.seat),
            card=card_words(p.card) if p.HasField("card") and not p.face_down else _("a face-down card"))
            for p in t.trick)
        out.append(_("On the table: {plays}.").format(plays=plays))
    elif not full:
        out.append(_("Nothing on the table yet."))
    return out


def _hand(model: TableModel, view: table_pb2.View, slots: Sequence[str | None]) -> str:
    """The hand by the places its cards were dealt in, a played card's place skipped."""
    cards = list(view.truco.cards)
    if not cards:
        return _("You hold no cards.")
    places = list(slots) if slots and set(cards) <= {c for c in slots if c is not None} else cards
    return _("You hold {cards}.").format(cards=placed(places))


def _played(body: Message) -> int | None:
    return body.seat if isinstance(body, truco_pb2.TrucoPlayed) else None


ANSWERS = frozenset({"quiero", "no_quiero", "accept", "run"})
"""The answers to a call, at either truco (Quiero and No quiero; Aceito and Corro)."""


def _known_turn(model: TableModel, kinds: frozenset[str], first: bool) -> bool:
    """A later turn of the hand the player knows from what was just said: the answers to the call their team must
    answer (a raise of it among them, none else: an envido offered with a truco's answers is news), or a card to
    play alone. A hand's first turn is said as one (``first``), with its cards; the choices after them are left to the
    bell where this holds for them."""
    view = model.view
    if first or view is None or view.WhichOneof("game") != "truco" or not kinds:
        return False
    if kinds == {"play"}:
        return True
    pending = view.truco.pending
    if not pending.call or pending.answering_team != my_team(model):
        return False
    raises = {truco_pb2.TrucoWord.Name(w).removeprefix("TRUCO_WORD_").lower() for w in pending.raises}
    return bool(kinds & ANSWERS) and kinds <= ANSWERS | raises


TRUCO_FAMILY = replace(TRUCO, on_table=_on_table, hand=_hand, cards=lambda view: list(view.truco.cards), by_place=True,
                       hand_at_turn=True, events=truco_pb2.TrucoEvent, played=_played,
                       starts_over=lambda body: isinstance(body, truco_pb2.ArgentinoRoundStarted),
                       known_turn=_known_turn, heard=truco_ear.heard, move=truco_ear.move, runs_to=runs_to_me,
                       gathered=truco_ear.gathered, terse=truco_ear.terse, log_said=truco_ear.log_said,
                       gives=gave_points, team=my_team, dealt=truco_ear.dealt)
