"""What a seat may do now at a truco argentino table, and why not: one check per kind of action.

Each kind of action (playing a card, the truco, the envido, answering, announcing, the
flor, going to the deck, signals) has one gate — why the seat may not do anything of that
kind now, or None — and an offer: the actions of that kind open to it once the gate is
passed. The legal list is the offers of the open gates; a refused action gets its gate's
sentence, or the reason it is not among the offer. No list of refusals mirrors the legal
list. The usual case, nothing awaiting an answer, is served from ready-made tuples under
the same gates (the engine's hot path).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from cardtui.engine.core import N_, Action, IllegalAction, NotYourTurn
from cardtui.engine.truco.argentino.envido import beats, beats_value
from cardtui.engine.truco.argentino.rules import (
    ACHICO,
    ANNOUNCE,
    CONTRA,
    ENVIDO_CALLS,
    ENVIDO_WORDS,
    FLOR,
    FLOR_WORDS,
    LADDER,
    MAZO,
    NO_QUIERO,
    QUIERO,
    RESTO,
    SON_BUENAS,
    TRUCO_CALLS,
    TRUCO_LEVEL,
)
from cardtui.engine.truco.argentino.state import ArgentinoState
from cardtui.engine.truco.envido import Unsuited
from cardtui.engine.truco.ladder import Ladder, Word
from cardtui.engine.truco.sealed import SHOW_ANY, may_hold
from cardtui.engine.truco.signals import MADE, SIGNAL, SIGNAL_ACTIONS, SIGNALS, unmade

Why = tuple[type[IllegalAction], str]
"""Why an action is refused: the refusal's class and its sentence (``{turn}``, ``{announcer}``,
``{asked}`` stand for names, filled in only when the refusal is raised)."""

NOT_PLAYING: Why = (NotYourTurn, N_("You are not playing this round."))
WAITING: Why = (NotYourTurn, N_("Your team's call is waiting for an answer."))
ANSWER: Why = (IllegalAction, N_("Answer the call first: quiero, no quiero, or raise it."))
WAITING_FLOR: Why = (NotYourTurn, N_("Your team's flor is waiting for an answer."))
ANSWER_FLOR: Why = (IllegalAction, N_("Answer the flor first."))
FLOR_ANSWERS: Why = (IllegalAction, N_("Answer the flor: con flor me achico, contra flor or contra flor al resto."))
ANNOUNCING: Why = (NotYourTurn, N_("{announcer} is announcing the envido now."))
SING_FIRST: Why = (IllegalAction,
                   N_("Sing your flor first: it comes before your first card, and instead of the envido."))
TURN: Why = (NotYourTurn, N_("It is {turn}'s turn to play."))
ASKED: Why = (NotYourTurn, N_("{asked} answers the flor now."))
NOT_HELD: Why = (IllegalAction, N_("You do not hold that card."))
TOP: Why = (IllegalAction, N_("Vale cuatro is the highest bet; there is nothing above it."))
NOT_OWNER: Why = (IllegalAction, N_("Only the team that accepted the last bet may raise it."))
NO_CALL: Why = (IllegalAction, N_("There is no call to answer."))
SIN_FLOR: Why = (IllegalAction, N_("This table plays sin flor."))
ONLY_HOLDERS: Why = (IllegalAction, N_("Only a player holding a flor answers a flor."))
NO_PARTNER: Why = (IllegalAction, N_("No partner of yours plays this round: there is nobody to signal to."))
NO_CARDS: Why = (IllegalAction, N_("You hold no cards to signal about."))
ENVIDOS = {Unsuited.SUM_TWO: (*range(15), *range(20, 34)), Unsuited.HIGHEST: (*range(8), *range(20, 34))}
"""Every envido a hand can make: with no two of a suit 0 to 14 (two cards summed) or 0 to 7 (the best alone), two of
a suit 20 to 33."""
SHOWING: Why = (NotYourTurn, N_("The hand is over: its claims' cards are being shown."))
NAMED = frozenset({ANNOUNCING, TURN, ASKED})
"""The reasons that name someone: their names are filled in when the refusal is raised."""
NEXT_BET = {i: (IllegalAction, f"The next bet is {r.call.value.replace('_', ' ')}.") for i, r in
            enumerate(LADDER.rungs, 1)}
_FLOR, _CONTRA_FLOR = Word.FLOR, Word.CONTRA_FLOR
_NONE: tuple[Action, ...] = ()


def busy(st: ArgentinoState, seat: int) -> Why | None:
    """A call awaiting its answer, or an envido being announced, holds up everything else."""
    f = st.flor_bet.pending
    if f >= 0:
        return WAITING_FLOR if seat & 1 == f else ANSWER_FLOR
    if st.announcer >= 0:
        return ANNOUNCING
    p = st.envido.pending
    if p < 0:
        p = st.truco.pending
    if p >= 0:
        return WAITING if seat & 1 == p else ANSWER
    return None


# -- playing a card -------------------------------------------------------------------
def gate_play(st: ArgentinoState, seat: int) -> Why | None:
    if not st.live[seat]:
        return NOT_PLAYING
    why = busy(st, seat)
    if why is not None:
        return why
    if st.owes[seat] and not st.f_done:
        return SING_FIRST
    return None if seat == st.to_play[0] else TURN


def offer_play(st: ArgentinoState, seat: int) -> Sequence[Action]:
    return st.plays[seat]


def wrong_play(st: ArgentinoState, seat: int, action: Action) -> Why | None:
    """Sealed: a card the engine could not see, that the seat's client opened, is played as named."""
    if len(action.cards) == 1 and may_hold(st, seat, action.cards[0]):
        return None
    return NOT_HELD


def offer_unopened(st: ArgentinoState, seat: int) -> Sequence[Action]:
    return _NONE


def wrong_unopened(st: ArgentinoState, seat: int, action: Action) -> Why | None:
    """Sealed, the turn clock's move: a card nobody could open, face down (it cannot win)."""
    return None if st.unseen[seat] and not action.cards else NOT_HELD


# -- showing a claim's cards (sealed) --------------------------------------------------------
def gate_show(st: ArgentinoState, seat: int) -> Why | None:
    if not st.showing:
        return (IllegalAction, N_("Cards are shown for a claim when the hand is over."))
    return None if st.claims[0].seat == seat else (NotYourTurn, N_("Another seat shows its claim's cards now."))


def offer_show(st: ArgentinoState, seat: int) -> Sequence[Action]:
    """A seat the engine knows shows exactly its claim's cards; another, the cards its client names."""
    if st.claimed(seat):
        return (SHOW_ANY,)
    claim = st.claims[0]
    return (Action("show", cards=st.dealt[seat] if claim.kind == "flor" else st.env_cards[seat]),)


def wrong_show(st: ArgentinoState, seat: int, action: Action) -> Why | None:
    """Shown by its client: cards of its own, each one it played face up or one nobody has seen."""
    cards = action.cards
    hidden = st.unseen[seat] + st.folded_unseen[seat]  # (cards taken to the deck are shown all the same)
    if st.claimed(seat) and len(set(cards)) == len(cards) <= 3 and all(
            c in st.opened[seat] or (hidden and c not in st.seen_cards) for c in cards) and sum(
            c not in st.opened[seat] for c in cards) <= hidden:
        return None
    return (IllegalAction, N_("Show the cards of your claim, from your own hand."))


# -- the truco ---------------------------------------------------------------------------
def gate_truco(st: ArgentinoState, seat: int) -> Why | None:
    """A raise by the team that may make it: answering a truco, or (free) the team that accepted last."""
    if st.showing:
        return SHOWING
    if not st.live[seat]:
        return NOT_PLAYING
    if st.flor_bet.pending >= 0 or st.announcer >= 0 or st.envido.pending >= 0:
        return busy(st, seat)
    truco = st.truco
    if truco.pending >= 0:
        if seat & 1 == truco.pending:
            return WAITING
        return answer_raise_gate(truco)
    return raise_gate(truco, seat & 1)


def answer_raise_gate(truco: Ladder) -> Why | None:
    """Answering a truco call with the next raise: up to vale cuatro."""
    return TOP if len(truco.calls) >= 3 else None


def raise_gate(truco: Ladder, team: int) -> Why | None:
    """With nothing awaiting an answer: the team that accepted last raises, up to vale cuatro."""
    if truco.level >= 3:
        return TOP
    if truco.owner >= 0 and truco.owner != team:
        return NOT_OWNER
    return None


def offer_truco(st: ArgentinoState, seat: int) -> Sequence[Action]:
    return (TRUCO_CALLS[len(st.truco.calls) + 1],)


def wrong_truco(st: ArgentinoState, seat: int, action: Action) -> Why:
    return NEXT_BET[len(st.truco.calls) + 1]


# -- the envido ---------------------------------------------------------------------------
def gate_envido(st: ArgentinoState, seat: int) -> Why | None:
    """Opened in the first trick before one plays; raised by the team answering it; or answering a truco."""
    if st.showing:
        return SHOWING
    if not st.live[seat]:
        return NOT_PLAYING
    if st.flor_bet.pending >= 0 or st.announcer >= 0:
        return busy(st, seat)
    team = seat & 1
    bet = st.envido
    if bet.pending >= 0:
        if team == bet.pending:
            return WAITING
        if st.owes[seat] and not st.f_done:
            return SING_FIRST
        return None if bet.next_calls() else (IllegalAction, "Falta envido cannot be raised: answer it.")
    truco = st.truco
    if truco.pending >= 0:
        if team == truco.pending:
            return WAITING
        if not envido_answers_truco(truco):
            return (IllegalAction, "Envido answers a truco, not a raise of it: answer the call first.")
    if st.may_envido(seat):
        return None
    if bet.calls:
        return (IllegalAction, "The envido has already been played this round.")
    if st.f_sung:
        return (IllegalAction, "A flor was sung: there is no envido this round.")
    if st.owes[seat] and not st.f_done:
        return SING_FIRST
    if st.truco.level:
        return (IllegalAction, "Envido cannot be called once a truco has been accepted.")
    return (IllegalAction, "Envido is called in the first trick, before you play your card.")


def envido_answers_truco(truco: Ladder) -> bool:
    """"El envido está primero": a first truco may be answered with envido, not a retruco."""
    return len(truco.calls) == 1


def offer_envido(st: ArgentinoState, seat: int) -> Sequence[Action]:
    return ENVIDO_CALLS.get(tuple(st.envido.calls), _NONE)


def wrong_envido(st: ArgentinoState, seat: int, action: Action) -> Why:
    return (IllegalAction, "The envido cannot be raised that way now.")


# -- quiero and no quiero ---------------------------------------------------------------
def gate_answer(st: ArgentinoState, seat: int) -> Why | None:
    if not st.live[seat]:
        return NOT_PLAYING
    team = seat & 1
    flor = st.flor_bet
    if flor.pending >= 0:
        if team == flor.pending:
            return WAITING_FLOR
        if st.flor[seat] < 0:
            return ONLY_HOLDERS
        return None if flor.calls[-1] is not _FLOR else FLOR_ANSWERS
    if st.announcer >= 0:
        return ANNOUNCING
    if st.envido.pending >= 0:
        if team == st.envido.pending:
            return WAITING
        return SING_FIRST if st.owes[seat] and not st.f_done else None
    if st.truco.pending >= 0:
        return WAITING if team == st.truco.pending else None
    return NO_CALL


_ANSWERS = (QUIERO, NO_QUIERO)


def offer_answer(st: ArgentinoState, seat: int) -> Sequence[Action]:
    return _ANSWERS


# -- announcing the envido, and son buenas ---------------------------------------------
def gate_announce(st: ArgentinoState, seat: int) -> Why | None:
    if not st.live[seat]:
        return NOT_PLAYING
    if st.announcer < 0:
        return busy(st, seat) or (IllegalAction, "No envido is being announced.")
    if seat != st.announcer:
        return ANNOUNCING
    return SING_FIRST if st.owes[seat] and not st.f_done else None


def offer_announce(st: ArgentinoState, seat: int) -> Sequence[Action]:
    """The table knows every score: one announces the true one when it wins, else son buenas. At a sealed table a
    seat whose cards the engine cannot see says the number its client counts (any that takes the lead), or son
    buenas: its cards are shown at the hand's end if it wins."""
    if st.claimed(seat):  # (the first to speak has nothing to concede to: it says a number)
        said = tuple(ANNOUNCE[k] for k in ENVIDOS[st.options.envido_unsuited] if beats_value(st, seat, k))
        return (*said, SON_BUENAS) if st.best >= 0 else said
    return (ANNOUNCE[st.env[seat]],) if beats(st, seat) else (SON_BUENAS,)


def wrong_announce(st: ArgentinoState, seat: int, action: Action) -> Why:
    if action.type == "son_buenas":
        return (IllegalAction, "Your envido wins: announce it.")
    if not beats(st, seat):
        return (IllegalAction, "Your envido cannot win: say son buenas.")
    return (IllegalAction, "Announce your true envido: the table knows every score.")


# -- the flor ------------------------------------------------------------------------------
def gate_flor(st: ArgentinoState, seat: int) -> Why | None:
    """Singing one's flor: before one's first card, while free to act or answering a call."""
    if not st.options.flor:
        return SIN_FLOR
    if not st.live[seat]:
        return NOT_PLAYING
    if st.flor[seat] < 0 and not st.claimed(seat):
        return (IllegalAction, "You have no flor: a flor is three cards of one suit.")
    if seat in st.f_sung:
        return (IllegalAction, "You have already sung your flor.")
    if st.f_done:
        return (IllegalAction, "The flor has already been played this round.")
    if st.played0[seat]:
        return (IllegalAction, "A flor is sung before your first card.")
    team = seat & 1
    if st.flor_bet.pending >= 0:
        return WAITING_FLOR if team == st.flor_bet.pending else FLOR_ANSWERS
    if st.announcer >= 0:
        return None if seat == st.announcer else ANNOUNCING
    for pending in (st.envido.pending, st.truco.pending):
        if pending >= 0:
            return WAITING if team == pending else None
    return None


_SING = (FLOR,)


def offer_flor(st: ArgentinoState, seat: int) -> Sequence[Action]:
    return _SING


def wrong_flor(st: ArgentinoState, seat: int, action: Action) -> Why | None:
    """Sealed: a seat whose cards the engine cannot see sings the flor its client counts (shown at the hand's end)."""
    return None if st.claimed(seat) and is_flor(action.amount) else _not_offered(st, seat, action)


def is_flor(value: int) -> bool:
    """A flor's count: 20 and the envido points of three cards of one suit (at most 7 + 6 + 5)."""
    return 20 <= value <= 38


def gate_flor_answer(st: ArgentinoState, seat: int) -> Why | None:
    """A holder of the other team answers a flor call (any of them, at any time: first come)."""
    if not st.options.flor:
        return SIN_FLOR
    if not st.live[seat]:
        return NOT_PLAYING
    flor = st.flor_bet
    if flor.pending < 0:
        return (IllegalAction, "That answers a flor, and no flor awaits an answer.")
    if seat & 1 == flor.pending:
        return WAITING_FLOR
    return None if st.flor[seat] >= 0 or st.claimed(seat) else ONLY_HOLDERS


_FIRST_ANSWERS = (ACHICO, CONTRA, RESTO)
_RAISE_RESTO = (RESTO,)


def offer_flor_answer(st: ArgentinoState, seat: int) -> Sequence[Action]:
    last = st.flor_bet.calls[-1]
    if last is _FLOR:
        return _FIRST_ANSWERS
    return _RAISE_RESTO if last is _CONTRA_FLOR else _NONE


def wrong_flor_answer(st: ArgentinoState, seat: int, action: Action) -> Why | None:
    if st.claimed(seat) and is_flor(action.amount) and any(a.type == action.type for a in offer_flor_answer(st, seat)):
        return None  # sealed: answered with the flor its client counts
    return (IllegalAction, "That is not an answer to this flor.")


def gate_flor_pass(st: ArgentinoState, seat: int) -> Why | None:
    """Asked in turn to answer a flor, a player holding none says son buenas."""
    flor = st.flor_bet
    if flor.pending < 0 or not st.live[seat]:
        return (IllegalAction, "No flor awaits an answer.")
    if seat & 1 == flor.pending:
        return WAITING_FLOR
    if flor.calls[-1] is not _FLOR or not st.f_asked:
        return ANSWER_FLOR
    if st.f_asked[0] != seat:
        return ASKED
    return (IllegalAction, "You hold a flor: answer with it.") if st.flor[seat] >= 0 and not st.claimed(seat) else None


_PASS = (SON_BUENAS,)


def offer_flor_pass(st: ArgentinoState, seat: int) -> Sequence[Action]:
    return _PASS


# -- going to the deck, and signals ----------------------------------------------------
def gate_mazo(st: ArgentinoState, seat: int) -> Why | None:
    """Any time one is free to act; answering a truco or an envido, it is a no quiero."""
    if st.showing:
        return SHOWING
    if not st.live[seat]:
        return NOT_PLAYING
    if st.flor_bet.pending >= 0 or st.announcer >= 0:
        return busy(st, seat)
    for pending in (st.envido.pending, st.truco.pending):
        if pending >= 0:
            return WAITING if seat & 1 == pending else None
    return None


_MAZO = (MAZO,)


def offer_mazo(st: ArgentinoState, seat: int) -> Sequence[Action]:
    return _MAZO


def gate_signal(st: ArgentinoState, seat: int) -> Why | None:
    """Signals go to partners playing the round: none in a 1v1 or a pica-pica duel."""
    if not st.live[seat] or (not st.hands[seat] and not st.unseen[seat]):
        return NO_CARDS
    return None if st.in_team[seat & 1] > 1 else NO_PARTNER


def offer_signal(st: ArgentinoState, seat: int) -> Sequence[Action]:
    return unmade(list(SIGNAL_ACTIONS), st.signals, seat) if st.signals else SIGNAL_ACTIONS


def wrong_signal(st: ArgentinoState, seat: int, action: Action) -> Why:
    if action.value in SIGNALS:
        return (IllegalAction, MADE)
    return (IllegalAction, f"{action.value[:40]!r} is not a signal; the signals are: {', '.join(SIGNALS)}.")


def _not_offered(st: ArgentinoState, seat: int, action: Action) -> Why:
    return (IllegalAction, "That is not something you can do now.")


class Kind(NamedTuple):
    gate: Callable[[ArgentinoState, int], Why | None]
    offer: Callable[[ArgentinoState, int], Sequence[Action]]
    wrong: Callable[[ArgentinoState, int, Action], Why | None] = _not_offered
    """Why an action of this kind the offer does not hold is refused (None: allowed after all, as a sealed table's
    claim or a card its client opened)."""


PLAY = Kind(gate_play, offer_play, wrong_play)
UNOPENED_KIND = Kind(gate_play, offer_unopened, wrong_unopened)
SHOW = Kind(gate_show, offer_show, wrong_show)
TRUCO = Kind(gate_truco, offer_truco, wrong_truco)
ENVIDO = Kind(gate_envido, offer_envido, wrong_envido)
ANSWERING = Kind(gate_answer, offer_answer)
ANNOUNCING_KIND = Kind(gate_announce, offer_announce, wrong_announce)
SING = Kind(gate_flor, offer_flor, wrong_flor)
FLOR_ANSWER = Kind(gate_flor_answer, offer_flor_answer, wrong_flor_answer)
FLOR_PASS = Kind(gate_flor_pass, offer_flor_pass)
DECK = Kind(gate_mazo, offer_mazo)
SIGNALLING = Kind(gate_signal, offer_signal, wrong_signal)

KINDS: dict[str, Kind] = {
    "play": PLAY,
    "play_unopened": UNOPENED_KIND,
    "show": SHOW,
    **dict.fromkeys(TRUCO_LEVEL, TRUCO),
    **dict.fromkeys(ENVIDO_WORDS, ENVIDO),
    "quiero": ANSWERING,
    "no_quiero": ANSWERING,
    "announce": ANNOUNCING_KIND,
    "son_buenas": ANNOUNCING_KIND,
    "flor": SING,
    **dict.fromkeys(FLOR_WORDS, FLOR_ANSWER),
    "mazo": DECK,
    SIGNAL: SIGNALLING,
}

FREE_ORDER: tuple[Kind, ...] = (SING, PLAY, ENVIDO, TRUCO, DECK, SIGNALLING)
"""The legal list's order when nothing awaits an answer (the ready-made tuples keep it too)."""
ANSWERING_ORDER: tuple[Kind, ...] = (ANSWERING, TRUCO, ENVIDO, SING, DECK, SIGNALLING)
"""Its order while a truco or an envido awaits its answer (the other kinds' gates are shut then)."""
FLOR_ORDER: tuple[Kind, ...] = (ANSWERING, FLOR_ANSWER, FLOR_PASS, SIGNALLING)
"""While a flor awaits its answer."""
ANNOUNCING_ORDER: tuple[Kind, ...] = (ANNOUNCING_KIND, SING, SIGNALLING)
"""While the envido is announced."""
SHOWING_ORDER: tuple[Kind, ...] = (SHOW,)
"""Sealed: while the hand's claims are shown."""


def kind_of(st: ArgentinoState, action: Action) -> Kind | None:
    """The kind an action belongs to (son buenas: to a flor when one awaits its answer)."""
    if action.type == "son_buenas" and st.flor_bet.pending >= 0:
        return FLOR_PASS
    return KINDS.get(action.type)


def why(st: ArgentinoState, seat: int, action: Action) -> Why | None:
    """Why ``seat`` may not do ``action`` now, or None if it may."""
    kind = kind_of(st, action)
    if kind is None:
        return (IllegalAction, f"{action.type[:40]!r} is not an action in truco argentino.")
    if st.showing and kind is not SHOW:
        return SHOWING
    reason = kind.gate(st, seat)
    if reason is not None:
        return reason
    offered = kind.offer(st, seat)
    for a in offered:  # the usual case: a caller hands back an action it was offered
        if a is action:
            return None
    return None if action in offered else kind.wrong(st, seat, action)


def legal(st: ArgentinoState, seat: int, order: Sequence[Kind]) -> list[Action]:
    out: list[Action] = []
    for kind in order:
        if kind.gate(st, seat) is None:
            out.extend(kind.offer(st, seat))
    return out
