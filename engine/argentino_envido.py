"""The envido as played at a truco argentino table: calls, answers and announcements.

Who may call: a player still in the round who has not played in the first trick, while no
truco has been accepted and the envido has not been played (``may_call``). The answering
team accepts, refuses or raises (``engine.envido.NEXT``). Once accepted, players announce
counter-clockwise from the last raiser; each in turn announces a score that takes the lead
or says son buenas, and partners of the player ahead need not speak. The points wait in
the round's points until the round ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtui.engine.argentino_rules import LABELS, NO, YES
from cardtui.engine.core import EVERYONE, Event
from cardtui.engine.envido import Call, accepted_value, refused_value
from cardtui.engine.tricks import notes

if TYPE_CHECKING:
    from cardtui.engine.truco_argentino import ArgentinoState


CALLED = {c: {"call": c.value} for c in Call}


def may_call(st: ArgentinoState, seat: int) -> bool:
    """In the first trick, before this seat plays, until a truco is accepted; once a round.

    A seat holding a flor it has not sung plays no envido: it sings the flor instead.
    """
    return (
        not st.e_done
        and not st.e_calls
        and not st.results
        and not st.played0[seat]
        and st.level == 0
        and not st.owes[seat]
    )


def beats(st: ArgentinoState, seat: int) -> bool:
    """Whether ``seat``'s envido takes the lead; equal scores go to the seat nearer the mano."""
    if st.best < 0:
        return True
    mine, theirs = st.env[seat], st.env[st.best]
    if mine != theirs:
        return mine > theirs
    p = st.players
    return p.index(seat) < p.index(st.best)


def cancel(st: ArgentinoState) -> None:
    """A flor drops the round's envido, settled or not: its points had not been added yet."""
    record = st.e_record
    if record is not None and record["points"]:
        st.round_points[record["team"]] -= record["points"]
    if st.e_calls:
        st.e_record = {"calls": list(st.e_calls), "cancelled": True, "points": 0}
    st.e_done = True
    st.e_pending = -1
    st.ann = []
    st.best = -1


def call(st: ArgentinoState, seat: int, call: Call) -> list[Event]:
    st.e_calls.append(call)
    st.e_pending = seat & 1
    st.e_raiser = seat
    return [Event("call", EVERYONE, f"{st.names[seat]}: {LABELS[call.value]}!", seat, CALLED[call])]


def answer(st: ArgentinoState, seat: int, yes: bool) -> list[Event]:
    calls = st.e_calls
    caller = st.e_pending
    st.e_pending = -1
    if not yes:
        pts = refused_value(calls)
        st.round_points[caller] += pts
        st.e_done = True
        st.e_record = {"calls": list(calls), "accepted": False, "points": pts, "team": caller}
        return [Event("answer", EVERYONE, f"{st.names[seat]}: no quiero.", seat, NO)]
    p = st.players
    i = p.index(st.e_raiser)
    k = len(p)
    st.ann = [p[(i + j) % k] for j in range(k) if st.live[p[(i + j) % k]]]
    events = [Event("answer", EVERYONE, f"{st.names[seat]}: quiero.", seat, YES)]
    return events + _settle(st)


def announce(st: ArgentinoState, seat: int, says: bool) -> list[Event]:
    st.ann.pop(0)
    if says:
        st.best = seat
        st.spoken[seat] = st.env[seat]
        event = Event("announce", EVERYONE, f"{st.names[seat]}: {st.env[seat]}.", seat, {"envido": st.env[seat]})
    else:
        event = Event("announce", EVERYONE, f"{st.names[seat]}: son buenas.", seat, {"envido": None})
    return [event, *_settle(st)]


def _settle(st: ArgentinoState) -> list[Event]:
    """Partners of the current best need not speak; once all have, the envido is settled."""
    while st.ann and st.best >= 0 and (st.ann[0] & 1) == (st.best & 1):
        st.ann.pop(0)
    if st.ann:
        return []
    winner = st.best
    pts = accepted_value(st.e_calls, st.falta)
    st.round_points[winner & 1] += pts
    st.e_done = True
    st.e_record = {
        "calls": list(st.e_calls),
        "accepted": True,
        "points": pts,
        "team": winner & 1,
        "scores": {str(s): v for s, v in st.spoken.items()},
        "winner": winner,
        "cards": notes(st.env_cards[winner]),
    }
    return [
        Event(
            "envido",
            EVERYONE,
            f"{st.names[winner]} wins the envido with {st.env[winner]}.",
            winner,
            {"winner": winner, "points": pts},
        )
    ]
