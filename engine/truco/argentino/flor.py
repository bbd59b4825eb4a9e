"""Flor as played at a truco argentino table (what it pays: ``engine.truco.flor``).

Its holder sings **Flor** before playing a first card, so the engine offers no card to a
holder who has not sung. It may be sung while the holder is free to act, as the answer to
a truco or an envido call ("la flor está primero"), or instead of announcing an envido. A
flor drops the round's envido, settled or not.

A flor with no live flor against it scores at once (3). Otherwise the other team answers
it: its players are asked in turn from the singer, counter-clockwise, so that the table
learns nothing of who holds a flor before they show it — a player with no flor says son
buenas, and the first who holds one answers *con flor me achico*, *contra flor* or *contra
flor al resto* (any holder of that team may answer at any time). A contra flor is answered
by the other side's holders, first come. The best flor's cards are shown when the round
ends, and so are those of each flor that scored alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtui.engine.core import Event
from cardtui.engine.truco.argentino.envido import cancel as cancel_envido
from cardtui.engine.truco.argentino.state import ArgentinoState, FlorRecord
from cardtui.engine.truco.base import public
from cardtui.engine.truco.events import ArgentinoFlorWon, ArgentinoSonBuenas, TrucoAnswered, TrucoCalled
from cardtui.engine.truco.flor import ACHICO, ALONE, FLOR, MET
from cardtui.engine.truco.ladder import Bet, Word


def holds(st: ArgentinoState, seat: int) -> bool:
    """A live seat with a flor: the seats that may answer a flor call."""
    return st.flor[seat] >= 0 and st.live[seat]


def sing(st: ArgentinoState, seat: int, value: int = 0) -> list[Event]:
    """Flor: drops the envido; scores 3 unless a flor stands against it, which must answer. At a sealed table
    (``value``: the flor a seat whose cards the engine cannot see says it holds) the other team is always asked in
    turn: nobody there knows who holds one."""
    team = seat & 1
    bet = st.flor_bet
    st.owes[seat] = False
    st.f_sung.append(seat)
    if st.claimed(seat):
        st.flor[seat] = value
    events = [public(TrucoCalled, seat, team, Bet.FLOR, FLOR, ALONE, MET), *cancel_envido(st, seat)]
    rivals = [s for s in st.players if s & 1 != team and (holds(st, s) or (st.sealed and st.live[s]))]
    if rivals:
        bet.call(seat, FLOR)
        p = st.players
        i = p.index(seat)
        st.f_asked = [p[(i + j) % len(p)] for j in range(1, len(p)) if p[(i + j) % len(p)] & 1 != team]
        st.f_asked = [s for s in st.f_asked if st.live[s]]
        return events
    return events + _alone(st, seat)


def _alone(st: ArgentinoState, seat: int) -> list[Event]:
    """``seat``'s flor meets no flor: it scores alone."""
    team = seat & 1
    bet = st.flor_bet
    if not bet.calls:
        bet.calls.append(FLOR)
    st.award(team, ALONE)
    st.f_shown.append(seat)
    alone = [s for s in st.f_sung if s & 1 == team]
    st.f_record = _record(st, "alone", team, ALONE * len(alone), max(alone, key=lambda s: _key(st, s)))
    return [public(ArgentinoFlorWon, seat, team, ALONE, st.flor[seat], True)]


def pass_flor(st: ArgentinoState, seat: int) -> list[Event]:
    """A player asked to answer a flor who holds none: son buenas; the next is asked. At a sealed table the last of
    them may say it too: the flor then scores alone."""
    st.f_asked.pop(0)
    events = [public(ArgentinoSonBuenas, seat, Bet.FLOR)]
    if st.f_asked:
        return events
    bet = st.flor_bet
    singer = bet.caller
    bet.pending = -1
    return events + _alone(st, singer)


def respond(st: ArgentinoState, seat: int, word: Word, value: int = 0) -> list[Event]:
    """A holder answers the flor: folds (con flor me achico), or raises it (``value``: at a sealed table, the flor a
    seat whose cards the engine cannot see says it holds)."""
    team = seat & 1
    bet = st.flor_bet
    st.owes[seat] = False
    if st.claimed(seat) and value:
        st.flor[seat] = value
    st.f_asked = []
    if seat not in st.f_sung:
        st.f_sung.append(seat)
    if word is ACHICO:
        caller, points = bet.refuse()
        events = [public(TrucoAnswered, seat, team, Bet.FLOR, False, points, ACHICO)]
        return events + _close(st, caller, points, "achico")
    bet.call(seat, word)
    return [public(TrucoCalled, seat, team, Bet.FLOR, word, bet.if_accepted(st.falta), bet.if_refused())]


def answer(st: ArgentinoState, seat: int, yes: bool) -> list[Event]:
    """Quiero compares the flores; no quiero pays the caller what the flor stood at."""
    bet = st.flor_bet
    team = seat & 1
    if not yes:
        caller, points = bet.refuse()
        events = [public(TrucoAnswered, seat, team, Bet.FLOR, False, points)]
        return events + _close(st, caller, points, "refused")
    points = bet.if_accepted(st.falta)
    bet.accept(seat)
    bet.closed = True
    st.f_done = True
    rivals = [s for s in st.players if holds(st, s) and (not st.sealed or s in st.f_sung)]
    winner = max(rivals, key=lambda s: _key(st, s))
    st.award(winner & 1, points)
    st.f_shown = [winner]
    st.f_record = _record(st, "accepted", winner & 1, points, winner, rivals)
    return [
        public(TrucoAnswered, seat, team, Bet.FLOR, True, points),
        public(ArgentinoFlorWon, winner, winner & 1, points, st.flor[winner], False),
    ]


def answerers(st: ArgentinoState) -> tuple[int, ...]:
    """Whom a pending flor call waits on, as the table may know it.

    The first answer is asked of the other team in turn (``f_asked``); a contra flor waits on
    the players of the other side who have sung, whose flores everyone knows of.
    """
    if st.flor_bet.calls[-1] is FLOR:
        return (st.f_asked[0],) if st.f_asked else ()
    team = 1 - st.flor_bet.pending
    return tuple(s for s in st.f_sung if s & 1 == team and st.live[s])


def _close(st: ArgentinoState, team: int, points: int, outcome: str) -> list[Event]:
    """A refused flor call: its caller's team takes ``points`` and the flor is over."""
    st.f_done = True
    st.award(team, points)
    st.f_record = _record(st, outcome, team, points, None)
    return [public(ArgentinoFlorWon, None, team, points, None, False)]


def _key(st: ArgentinoState, seat: int) -> tuple[int, int]:
    """Higher flor first; an equal flor goes to the seat nearer the mano."""
    return st.flor[seat], -st.players.index(seat)


def _record(
    st: ArgentinoState, outcome: str, team: int, points: int, winner: int | None, rivals: Sequence[int] = ()
) -> FlorRecord:
    """The flor's entry in the hand history: calls, flores shown or compared, who scored."""
    seats = sorted({*st.f_sung, *rivals}, key=st.players.index)
    cards = st.dealt[winner] if winner is not None and not st.sealed else ()  # (sealed: shown at the hand's end)
    return FlorRecord(
        tuple(st.flor_bet.calls), outcome, points, team, {s: st.flor[s] for s in seats}, winner, cards
    )
