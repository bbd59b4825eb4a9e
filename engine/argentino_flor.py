"""Flor, the table option ``flor`` (RULES.md §4: "flor per common rules").

A player whose three cards are all of one suit holds a flor, worth 20 + the three cards'
envido values (10, 11 and 12 count 0; the best is 7-6-5 suited, 38). Flor is not optional:
its holder sings **Flor** before playing a first card, so the engine offers no card to a
holder who has not sung. It may be sung while the holder is free to act, as the answer to
a truco or an envido call ("la flor está primero"), or instead of announcing an envido.
A round in which a flor is sung plays no envido: a pending or announced envido is dropped,
and one already settled is struck out (its points were not added yet).

What a flor pays (points go to the round's points, added when the round ends):

====================================  ==========================  =====================
calls                                 accepted                    refused
====================================  ==========================  =====================
Flor, no flor against it              3 for each flor sung        —
Flor met by a flor: *con flor me      —                           4 to the flor
achico*
Flor + Contra flor                    6 to the best flor          4 to contra flor
Flor + Contra flor al resto           the *resto*, best flor      4 to its caller
Flor + Contra flor + Contra flor al   the *resto*, best flor      6 to its caller
resto
====================================  ==========================  =====================

A refused call pays its caller what the flor stood at before it: 4 for a flor met by a
flor, 6 once a contra flor has been raised. The *resto* is what the leading team lacks to
win, as for falta envido. Only players holding a flor answer a flor call, first come.
Flores compare by value; an equal flor goes to the player nearer the mano. The best flor's
cards are shown when the round ends, and so are those of each flor that scored alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardtui.engine.argentino_envido import cancel as cancel_envido
from cardtui.engine.argentino_rules import FlorCall
from cardtui.engine.cards import Card
from cardtui.engine.core import EVERYONE, Event
from cardtui.engine.envido import card_points
from cardtui.engine.tricks import notes

if TYPE_CHECKING:
    from cardtui.engine.truco_argentino import ArgentinoState


ALONE = 3
"""Each flor sung with no flor against it."""
MET = 4
"""A flor met by a flor that folds (*con flor me achico*), or a contra flor refused."""
CONTRA = 6
"""An accepted contra flor, to the best flor; also a refused contra flor al resto after it."""

NAMES = {
    FlorCall.FLOR: "Flor",
    FlorCall.ACHICO: "Con flor me achico",
    FlorCall.CONTRA: "Contra flor",
    FlorCall.RESTO: "Contra flor al resto",
}


def flor(cards: Sequence[Card]) -> int:
    """A hand's flor: 20 + the envido values of three cards of one suit, or -1 without one."""
    if len(cards) != 3:
        return -1
    a, b, c = cards
    if a.suit != b.suit or a.suit != c.suit:
        return -1
    return 20 + card_points(a) + card_points(b) + card_points(c)


def must_sing(st: ArgentinoState, seat: int) -> bool:
    """The seat holds a flor it has not sung while the flor is still open."""
    return st.owes[seat] and not st.f_done


def holds(st: ArgentinoState, seat: int) -> bool:
    """A live seat with a flor: the seats that answer a flor call."""
    return st.flor[seat] >= 0 and st.live[seat]


def sing(st: ArgentinoState, seat: int) -> list[Event]:
    """Flor: drops the envido; scores 3 unless a flor stands against it, which must answer."""
    team = seat & 1
    st.owes[seat] = False
    st.f_sung.append(seat)
    st.f_calls.append(FlorCall.FLOR)
    cancel_envido(st)
    events = [Event("call", EVERYONE, f"{st.names[seat]}: ¡Flor!", seat, {"call": FlorCall.FLOR.value})]
    if any(holds(st, s) for s in st.players if s & 1 != team):
        st.f_pending = team
        return events
    st.round_points[team] += ALONE
    st.f_shown.append(seat)
    alone = [s for s in st.f_sung if s & 1 == team]
    st.f_record = _record(st, "alone", team, ALONE * len(alone), max(alone, key=lambda s: _key(st, s)))
    return events


def call(st: ArgentinoState, seat: int, what: FlorCall) -> list[Event]:
    """An answer to a flor call: fold (con flor me achico), or raise it."""
    team = seat & 1
    st.owes[seat] = False
    if what is FlorCall.ACHICO:
        text = f"{st.names[seat]}: con flor me achico."
        st.f_calls.append(what)
        _close(st, st.f_pending, MET, "achico")
        return [Event("answer", EVERYONE, text, seat, {"accept": False, "call": what.value})]
    st.f_calls.append(what)
    st.f_pending = team
    return [Event("call", EVERYONE, f"{st.names[seat]}: ¡{NAMES[what]}!", seat, {"call": what.value})]


def answer(st: ArgentinoState, seat: int, yes: bool) -> list[Event]:
    """Quiero compares the flores; no quiero pays the caller what the flor stood at."""
    word = "quiero" if yes else "no quiero"
    events = [Event("answer", EVERYONE, f"{st.names[seat]}: {word}.", seat, {"accept": yes})]
    calls = st.f_calls
    if not yes:
        pts = CONTRA if calls[-1] is FlorCall.RESTO and FlorCall.CONTRA in calls else MET
        _close(st, st.f_pending, pts, "refused")
        return events
    st.f_pending = -1
    st.f_done = True
    rivals = [s for s in st.players if holds(st, s)]
    winner = max(rivals, key=lambda s: _key(st, s))
    pts = st.falta if calls[-1] is FlorCall.RESTO else CONTRA
    st.round_points[winner & 1] += pts
    st.f_shown = [winner]
    st.f_record = _record(st, "accepted", winner & 1, pts, winner, rivals)
    text = f"{st.names[winner]} wins the flor with {st.flor[winner]}."
    return [*events, Event("flor", EVERYONE, text, winner, {"winner": winner, "points": pts})]


def _close(st: ArgentinoState, team: int, pts: int, outcome: str) -> None:
    """A refused flor call: its caller's team takes ``pts`` and the flor is over."""
    st.f_pending = -1
    st.f_done = True
    st.round_points[team] += pts
    st.f_record = _record(st, outcome, team, pts, None)


def _key(st: ArgentinoState, seat: int) -> tuple[int, int]:
    """Higher flor first; an equal flor goes to the seat nearer the mano."""
    return st.flor[seat], -st.players.index(seat)


def _record(
    st: ArgentinoState, outcome: str, team: int, pts: int, winner: int | None, rivals: Sequence[int] = ()
) -> dict[str, Any]:
    """The flor's entry in the hand history: calls, flores shown or compared, who scored."""
    seats = sorted({*st.f_sung, *rivals}, key=st.players.index)
    out: dict[str, Any] = {
        "calls": [c.value for c in st.f_calls],
        "outcome": outcome,
        "points": pts,
        "team": team,
        "scores": {str(s): st.flor[s] for s in seats},
        "winner": winner,
    }
    if winner is not None:
        out["cards"] = notes(st.dealt[winner])
    return out
