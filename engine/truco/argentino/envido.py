"""The envido as played at a truco argentino table: calls, answers and announcements.

Who may call: a player still in the round who has not played in the first trick, while no
truco has been accepted and the envido has not been called this round
(``ArgentinoState.may_envido``). The answering team accepts, refuses or raises
(``engine.truco.envido.NEXT``). Once accepted, players announce counter-clockwise from the
last raiser. The table knows every score, so an announced number is the true one, and a
player says son buenas exactly when their envido cannot win. A player is passed over only
while their own team holds the best score announced so far; whenever the other team takes
the lead, each player of the trailing team who has not spoken is asked, going on round
the table. So the best envido at the table always wins (equal scores: nearer the mano).
"""

from __future__ import annotations

from cardtui.engine.core import Event
from cardtui.engine.truco.argentino.state import ArgentinoState, EnvidoRecord
from cardtui.engine.truco.base import public
from cardtui.engine.truco.events import (
    ArgentinoEnvidoAnnounced,
    ArgentinoEnvidoCancelled,
    ArgentinoEnvidoWon,
    ArgentinoSonBuenas,
    TrucoAnswered,
    TrucoCalled,
)
from cardtui.engine.truco.ladder import Bet, Word

ENVIDO = Bet.ENVIDO


def call(st: ArgentinoState, seat: int, word: Word) -> list[Event]:
    bet = st.envido
    bet.call(seat, word)
    st.e_open = False
    return [public(TrucoCalled, seat, seat & 1, ENVIDO, word, bet.if_accepted(st.falta), bet.if_refused())]


def answer(st: ArgentinoState, seat: int, yes: bool) -> list[Event]:
    bet = st.envido
    if not yes:
        team, points = bet.refuse()
        st.award(team, points)
        st.e_record = EnvidoRecord(tuple(bet.calls), False, False, points, team, {}, None, ())
        return [public(TrucoAnswered, seat, seat & 1, ENVIDO, False, points)]
    value = bet.if_accepted(st.falta)
    bet.accept(seat)
    p = st.players
    i = p.index(bet.caller)  # the last raiser announces first
    st.ann_order = tuple(p[(i + j) % len(p)] for j in range(len(p)) if st.live[p[(i + j) % len(p)]])
    st.best = -1
    return [public(TrucoAnswered, seat, seat & 1, ENVIDO, True, value), *_next(st, 0)]


def beats(st: ArgentinoState, seat: int) -> bool:
    """Whether ``seat``'s envido takes the lead; equal scores go to the seat nearer the mano."""
    return beats_value(st, seat, st.env[seat])


def beats_value(st: ArgentinoState, seat: int, mine: int) -> bool:
    """Whether an envido of ``mine`` said by ``seat`` takes the lead."""
    if st.best < 0:
        return True
    theirs = st.env[st.best]
    if mine != theirs:
        return mine > theirs
    p = st.players
    return p.index(seat) < p.index(st.best)


def announce(st: ArgentinoState, seat: int, says: bool, value: int = 0) -> list[Event]:
    """``seat`` says its envido (``value``: what a seat whose cards the engine cannot see says it is), or son buenas."""
    st.spoke.add(seat)
    if says and st.claimed(seat):
        st.env[seat] = value
    if says:
        st.best = seat
        st.spoken[seat] = st.env[seat]
        event = public(ArgentinoEnvidoAnnounced, seat, st.env[seat])
    else:
        event = public(ArgentinoSonBuenas, seat, ENVIDO)
    return [event, *_next(st, st.ann_order.index(seat))]


def _next(st: ArgentinoState, start: int) -> list[Event]:
    """The next to speak, going on round the table from ``start``: someone who has not spoken,
    of the team that does not hold the best score; when there is nobody, the envido is settled."""
    order = st.ann_order
    k = len(order)
    leading = st.best & 1 if st.best >= 0 else -1
    for i in range(k):
        s = order[(start + i) % k]
        if s not in st.spoke and s & 1 != leading:
            st.announcer = s
            return []
    st.announcer = -1
    return _settle(st)


def _settle(st: ArgentinoState) -> list[Event]:
    winner = st.best
    bet = st.envido
    points = bet.if_accepted(st.falta)
    bet.closed = True
    st.award(winner & 1, points)
    st.e_record = EnvidoRecord(  # (sealed: the cards shown at the hand's end, when they are)
        tuple(bet.calls), True, False, points, winner & 1, dict(st.spoken), winner,
        () if st.sealed else st.env_cards[winner]
    )
    return [public(ArgentinoEnvidoWon, winner, winner & 1, st.env[winner], points)]


def cancel(st: ArgentinoState, seat: int) -> list[Event]:
    """A flor drops the round's envido, settled or not (its points are struck out)."""
    bet = st.envido
    st.e_open = False
    if not bet.calls:
        return []
    record = st.e_record
    struck = 0
    if record is not None and record.team is not None and record.points:
        struck = record.points
        st.round_points[record.team] -= struck
        if st.at_once:
            st.scores[record.team] -= struck
            st.banked[record.team] -= struck
    st.e_record = EnvidoRecord(tuple(bet.calls), False, True, 0, None, {}, None, ())
    bet.closed = True
    bet.pending = -1
    st.announcer = -1
    st.best = -1
    return [public(ArgentinoEnvidoCancelled, seat, struck)]
