"""What one seat may see of a truco paulista table, and the result its hand history keeps.

Own cards only; the partner's too in a mão de onze (a team on 11 sees both its hands);
none at all in a mão de ferro, where cards are turned up as they are played blind. A
spectator sees no hand. Signals appear only to those who caught them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardtui.engine.cards import Card
from cardtui.engine.truco.base import TrucoGame
from cardtui.engine.truco.ladder import Bet
from cardtui.engine.truco.paulista.rules import LADDER, TARGET, TrucoDecides
from cardtui.engine.truco.paulista.state import PaulistaState, raise_gate
from cardtui.engine.truco.views import (
    PaulistaPart,
    PaulistaPhase,
    TrucoCall,
    TrucoPlay,
    TrucoResult,
    TrucoRules,
    TrucoSeat,
    TrucoStake,
    TrucoTrick,
    TrucoView,
)

STAKES = tuple(TrucoStake(r.call, r.value, r.refused) for r in LADDER.rungs)


def build_view(st: PaulistaState, seat: int | None, to_act: tuple[int, ...], over: bool, open: bool = False
               ) -> TrucoView:
    """``open``: every card face up (a replay's view), face-down plays and every signal included."""
    seats = []
    for s in range(4):
        hand = st.hands[s]
        seen = open or (
            seat is not None
            and not st.ferro
            and (s == seat or (st.onze >= 0 and s & 1 == st.onze == seat & 1))
        )
        seats.append(TrucoSeat(s, st.names[s], s & 1, tuple(hand) if seen else (), len(hand) + st.unseen[s], True,
                               False, None))
    playing = st.result is None
    truco = st.truco
    raisers = tuple(t for t in (0, 1) if playing and raise_gate(st, t) is None)
    pending = None
    if truco.pending >= 0:
        answering = 1 - truco.pending
        pending = TrucoCall(
            Bet.TRUCO, truco.calls[-1], truco.caller, truco.pending, answering, truco.if_accepted(0),
            truco.if_refused(), truco.next_calls() if answering in raisers else (),
        )
    part = PaulistaPart(
        phase=st.phase,
        mao=st.mao,
        passed=st.passed,
        may_pass=st.phase is PaulistaPhase.DEAL and not st.passed,
        rejects_left=3 - st.rejects if st.phase is PaulistaPhase.DEAL else 0,
        rejected=tuple(st.rejected),
        onze_team=st.onze if st.onze >= 0 else None,
        ferro=st.ferro,
        trick_decides=playing and st.decides_from >= 0,
        call_decides=st.options.truco_decides is TrucoDecides.TRICK and st.decides_from < 0 and playing,
        passed_cards=tuple(st.passed_cards) if open or (seat is not None and seat == st.mao) else (),
    )
    return TrucoView(
        hand=st.hand_no,
        dealer=st.dealer,
        you=seat,
        to_act=to_act,
        hand_over=not playing,
        match_over=over,
        seats=tuple(seats),
        cards=seats[seat].cards if seat is not None else (),
        turn=st.to_play[0] if playing and st.phase is PaulistaPhase.PLAY and truco.pending < 0 else None,
        tricks=tuple(TrucoTrick(_plays(plays, open, seat), w, None if w is None else w & 1)
                     for plays, w in st.trick_plays),
        trick=_plays(st.trick, open, seat),
        scores=(st.scores[0], st.scores[1]),
        target=TARGET,
        stake=st.stake,
        ladder=STAKES,
        level=truco.level,
        raisers=raisers,
        your_raise=STAKES[len(truco.calls)] if seat is not None and seat & 1 in raisers else None,
        pending=pending,
        signals=TrucoGame.signals_seen(st, seat, everyone=open),
        result=st.result,
        paulista=part,
        argentino=None,
        rules=TrucoRules.PAULISTA,
    )


def _plays(plays: Sequence[tuple[int, Card | None, bool]], open: bool = False, seat: int | None = None
           ) -> tuple[TrucoPlay, ...]:
    """A face-down card's face is shown only to its player, and in the open view."""
    return tuple(TrucoPlay(s, None if d and not open and s != seat else c, d, False) for s, c, d in plays)


def history_result(st: PaulistaState, result: TrucoResult, tricks: Sequence[Any]) -> Callable[[], dict[str, Any]]:
    """The ``result`` of the hand history, built only when the history is read."""
    onze = st.onze if st.onze >= 0 else None
    ferro = st.ferro
    stake = result.rounds[0].stake
    reason = result.rounds[0].reason

    def build() -> dict[str, Any]:
        return {
            "deltas": {str(s): d for s, d in enumerate(result.deltas)},
            "points": {"0": result.points[0], "1": result.points[1]},
            "tricks": [
                {"cards": {str(s): "down" if d else str(c) for s, c, d in plays}, "winner": w} for plays, w in tricks
            ],
            "stake": stake,
            "winner_team": result.team,
            "reason": reason.value,
            "onze": onze,
            "ferro": ferro,
            "scores": list(result.scores),
        }

    return build
