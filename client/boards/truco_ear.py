"""What the terse level of the line mode says of the trucos' own events, and keeps of them (``client.shape.Ear``):
the others' cards played said together, their "Tengo"s held for the player's turn to answer, a mão's rejected hands
gathered, a trick said as ours or theirs with its cards, an envido won, a partner's signal held for the player's
turn, the cards of a hand said with the player's first turn of it (``lines.narration`` says why each)."""

from __future__ import annotations

from dataclasses import dataclass, field

from google.protobuf.message import Message

from cardtui.client.boards.truco_lines import caller
from cardtui.client.boards.truco_words import (
    call_word,
    counted,
    meaning,
    my_team,
    seat_team,
    team_does,
    team_object,
)
from cardtui.client.card_names import card_words, cards_words
from cardtui.client.models import TableModel
from cardtui.client.shape import Ear, Part, Played, Tengo
from cardtui.i18n import _
from cardtui.v1 import table_pb2, truco_pb2

TO_THE_END = frozenset({truco_pb2.TRUCO_WORD_FALTA_ENVIDO, truco_pb2.TRUCO_WORD_CONTRA_FLOR_AL_RESTO})
"""Calls whose stake the score sets (what the leaders lack to win): said with it, the first call too."""


@dataclass
class Rejected:
    """The hands a truco paulista mão rejects before the deal goes on, said together once something else is said:
    how many, and the cards among them whose whereabouts a player counts (a manilha, a 3); the rest are low cards
    out of play (``last`` and the verbose level name every one)."""

    name: str
    hands: int = 0
    top: list[str] = field(default_factory=list)

    def said(self) -> str:
        rejects = (_("{name} rejects a hand") if self.hands == 1 else _("{name} rejects {n} hands")).format(
            name=self.name, n=self.hands)
        if not self.top:
            return rejects
        return _("{rejects}, {cards} among them").format(rejects=rejects, cards=cards_words(self.top, short=True))


def heard(ear: Ear, model: TableModel, body: Message) -> None:
    """The player's own envido points, and whose card was played last in the trick."""
    if isinstance(body, truco_pb2.ArgentinoEnvidoAnnounced) and body.seat == model.seat:
        ear.tengos.add(body.points)
    if isinstance(body, truco_pb2.TrucoPlayed):
        ear.played = body.seat
    elif isinstance(body, (truco_pb2.TrucoTrickEnded, table_pb2.HandStarted)):
        ear.played = None


def move(ear: Ear, model: TableModel, body: Message, seat: int) -> Part | None:
    """Another's card played face up, or "Tengo", as a part of the line that says them together."""
    if isinstance(body, truco_pb2.TrucoPlayed) and body.HasField("card") and not body.face_down \
            and not body.blind:
        seats = len(model.view.seats) if model.view is not None else 0
        after_mine = model.seat is not None and ear.played == model.seat and seats \
            and seat == (model.seat + 1) % seats
        alone = model.seat is not None and seats == 2  # one opponent: every card not the player's is theirs
        return Played("" if after_mine or alone else model.name(seat), [card_words(body.card, short=True)])
    if isinstance(body, truco_pb2.ArgentinoEnvidoAnnounced):
        return Tengo(ear.speak(f"{caller(model, seat)}Tengo {body.points}", stop=False), body.points)
    return None


def gathered(ear: Ear, model: TableModel, body: Message) -> bool:
    """Another's rejected hand at truco paulista, folded with the same mão's others (up to three a deal)."""
    if not isinstance(body, truco_pb2.PaulistaDealChoice) or body.choice != truco_pb2.PAULISTA_CHOICE_REJECT \
            or body.seat == model.seat:
        return False
    name = model.name(body.seat)
    last = ear.moves[-1] if ear.moves else None
    if not (isinstance(last, Rejected) and last.name == name):
        last = Rejected(name)
        ear.moves.append(last)
    last.hands += 1
    last.top.extend(c for c in body.cards if counted(model.game, c))
    return True


def terse(ear: Ear, model: TableModel, body: Message) -> str | None:
    """The terse words of a truco event that depend on what was heard before it; "" to say nothing now; None: the
    log's own words."""
    if isinstance(body, table_pb2.CardsDealt) and body.seat == model.seat and _truco(model):
        ear.unheard = True  # the cards a truco hand's mão passed on: said with the player's turn
        return ""
    if isinstance(body, truco_pb2.TrucoCalled) and (body.bet == truco_pb2.TRUCO_BET_TRUCO or (
            body.bet not in ear.called and body.call not in TO_THE_END)):
        # the truco's rungs: the word says the stake ("Seis!" is for 6); an envido's first call too (a real
        # envido alone is for 3): only a call raised on another says its sum, and a falta, which the score sets
        ear.called.add(body.bet)
        return ear.speak(f"{caller(model, body.seat)}{call_word(model, body.call)}")
    if isinstance(body, truco_pb2.TrucoTrickEnded):
        mine = my_team(model)
        if not body.HasField("winner"):
            said, after = _("Trick tied."), _("{cards}: tied.")
        elif mine is None:
            said = _("Trick {n}: {team}.").format(n=body.trick, team=team_object(model, body.team).plain)
            after = ""
        elif body.team == mine:
            said, after = _("Our trick."), _("{cards}: ours.")
        else:
            said, after = _("Their trick."), _("{cards}: theirs.")
        # said once the view is in, unless the round ended on it: its result says who took it; the trick's
        # cards before it, and before whatever the message says next; where the line before it ends in the
        # trick's cards, with them ("King clubs, 4 cups: ours."), and not at all where the round ended on it: the
        # cards played after the player's change no choice now, and the result says who took it (``last`` has them)
        joined = bool(after) and bool(ear.moves) and isinstance(ear.moves[-1], Played)
        cards = ear.before(["-"])[:-1]
        line = cards[0] if cards else ""
        ear.later.extend([lambda _now: "" if joined else line,
                          lambda _now: "" if ear.ended else (after.format(cards=line.removesuffix("."))
                                                             if joined else said)])
        return ""
    if isinstance(body, truco_pb2.ArgentinoEnvidoWon):
        # which side won, what it gives, and with what: the others' "Tengo"s not said yet go unsaid (``last``
        # has them); those said before the player's turn to answer were heard
        ear.moves = [m for m in ear.moves if not isinstance(m, Tengo)]
        heard, ear.tengos = body.envido in ear.tengos, set()
        if heard:  # the winning points were just heard in a "Tengo" (the player's own, or said before theirs)
            return team_does(model, body.team, _("Our envido: +{n}."), _("Their envido: +{n}."),
                             _("Envido to {team}: +{n}."), n=str(body.points)).plain
        return team_does(model, body.team, _("Our envido: +{n}, with {envido}."),
                         _("Their envido: +{n}, with {envido}."), _("Envido to {team}: +{n}, with {envido}."),
                         n=str(body.points), envido=str(body.envido)).plain
    if isinstance(body, truco_pb2.TrucoSignalled) and body.seat != model.seat:
        mine = my_team(model)
        if mine is not None and seat_team(model, body.seat) != mine:
            return ""  # an opponent's, caught: ``last`` and the verbose level say it; a partner's is for you
        promise = ear.speak(meaning(model.game, body.signal).plain, stop=False, short=True)
        seats = model.view.seats if model.view is not None else []
        partners = [s.seat for s in seats if s.seat != model.seat and seat_team(model, s.seat) == mine]
        # one partner: the signal can be no one else's, and its name goes unsaid
        template = _("Signal: {promise}.") if len(partners) == 1 else _("{name} signals {promise}.")
        ear.signals.append(template.format(name=model.name(body.seat), promise=promise))
        return ""
    return None


def log_said(model: TableModel, body: Message, said: str) -> str:
    """The other team's calls and answers by their words alone."""
    if isinstance(body, (truco_pb2.TrucoCalled, truco_pb2.TrucoAnswered)) and not caller(model, body.seat):
        said = said.removeprefix(f"{model.name(body.seat)}: ")  # the other team's: the words alone
    return said


def dealt(ear: Ear, model: TableModel, cards: list[str]) -> str | None:
    """A new truco hand: nothing said now."""
    if _truco(model):
        # Not even the number: the last hand's end, with the score, said a new one begins. The cards are said
        # with the player's first turn (a hand may end before it); cards the mão passes on, once dealt.
        # At a sealed table the cards open by the player's own keys after the deal, none held yet: said with the
        # first turn all the same (the view offers no move before they are open).
        ear.unheard = ear.unheard or bool(cards) or _sealed(model)
        return ""
    return None


def _sealed(model: TableModel) -> bool:
    options = model.summary.options
    return "sealed" in options and options["sealed"].flag


def _truco(model: TableModel) -> bool:
    view = model.view
    return view is not None and view.WhichOneof("game") == "truco" and model.seat is not None
