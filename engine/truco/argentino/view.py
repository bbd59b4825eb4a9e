"""What one seat may see of a truco argentino table, and the result its hand history keeps.

A seat sees its own cards and only the number of everyone else's; cards come into view as
they are played, and the envido winner's cards (or a flor that scored) once the round is
over. A spectator sees no hand at all. Opponents' signals appear only to those who caught
them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardtui.engine.cards import Card
from cardtui.engine.truco.argentino.checks import answer_raise_gate, raise_gate
from cardtui.engine.truco.argentino.rules import LADDER, told
from cardtui.engine.truco.argentino.state import ArgentinoState, EnvidoRecord, FlorRecord, RoundRecord, Trick
from cardtui.engine.truco.base import TrucoGame
from cardtui.engine.truco.ladder import Bet, Ladder
from cardtui.engine.truco.views import (
    ArgentinoPart,
    ArgentinoScore,
    TrucoCall,
    TrucoPlay,
    TrucoResult,
    TrucoRules,
    TrucoSeat,
    TrucoShown,
    TrucoStake,
    TrucoTrick,
    TrucoView,
)

STAKES = tuple(TrucoStake(r.call, r.value, r.refused) for r in LADDER.rungs)


def _call(bet: Bet, ladder: Ladder, resto: int) -> TrucoCall:
    return TrucoCall(
        bet, ladder.calls[-1], ladder.caller, ladder.pending, 1 - ladder.pending, ladder.if_accepted(resto),
        ladder.if_refused(), ladder.next_calls(),
    )


def build_view(st: ArgentinoState, seat: int | None, to_act: tuple[int, ...], over: bool, may_envido: bool,
               open: bool = False) -> TrucoView:
    """``open``: every card face up (a replay's view), and every signal."""
    playing = st.result is None
    seats = tuple(
        TrucoSeat(
            s, st.names[s], s & 1, _held(st, s, seat, open), len(st.hands[s]) + st.unseen[s],
            playing and st.live[s], playing and s in st.players and not st.live[s], st.spoken.get(s),
        )
        for s in range(st.n)
    )
    truco = st.truco
    falta = st.falta
    pending = None
    if st.flor_bet.pending >= 0:
        pending = _call(Bet.FLOR, st.flor_bet, falta)
    elif st.envido.pending >= 0:
        pending = _call(Bet.ENVIDO, st.envido, falta)
    elif truco.pending >= 0:
        pending = _call(Bet.TRUCO, truco, falta)
    if not playing:
        raisers: tuple[int, ...] = ()
    elif truco.pending >= 0:
        raisers = () if answer_raise_gate(truco) else (1 - truco.pending,)
    else:
        raisers = tuple(t for t in (0, 1) if raise_gate(truco, t) is None)
    your_raise = STAKES[len(truco.calls)] if seat is not None and seat & 1 in raisers and st.live[seat] else None
    target = st.options.target
    scores = (st.scores[0], st.scores[1])
    told_scores = tuple(ArgentinoScore(*t) for t in (told(scores[0], target), told(scores[1], target)) if t)
    waiting = [st.points[t] + st.round_points[t] - st.banked[t] for t in (0, 1)] if playing else [0, 0]
    mine = seat is not None and playing and st.live[seat]
    part = ArgentinoPart(
        mano=st.mano,
        round=st.round_no,
        players=st.players,
        pica_pica=st.pica,
        told=told_scores,
        points=(waiting[0], waiting[1]),
        falta=falta,
        envido_calls=tuple(st.envido.calls),
        envido_open=playing and st.envido_callable(),
        may_envido=may_envido,
        your_envido=st.env[seat] if seat is not None and st.known[seat] else None,
        your_envido_cards=st.env_cards[seat] if seat is not None and st.known[seat] else (),
        announcing=st.announcer if st.announcer >= 0 else None,
        best_envido=st.best if st.best >= 0 and playing else None,
        flor_calls=tuple(st.flor_bet.calls),
        flor_sung=tuple(st.f_sung),
        flor_done=st.f_done,
        must_flor=mine and st.owes[seat] and not st.f_done if seat is not None else False,
        your_flor=st.flor[seat] if seat is not None and st.flor[seat] >= 0 else None,
        shown=tuple(TrucoShown(s, cards, why) for s, (cards, why) in st.shown.items()),
        earlier=tuple(st.earlier),
        ties=st.rule,
        envido_unsuited=st.options.envido_unsuited,
    )
    return TrucoView(
        hand=st.hand_no,
        dealer=st.dealer,
        you=seat,
        to_act=to_act,
        hand_over=not playing,
        match_over=over,
        seats=seats,
        cards=tuple(st.hands[seat]) if seat is not None else (),
        turn=st.to_play[0] if playing and st.to_play and pending is None and st.announcer < 0 else None,
        tricks=tuple(_trick(t) for t in st.tricks),
        trick=tuple(TrucoPlay(s, c, c is None, playing and not st.live[s]) for s, c in st.trick),
        scores=scores,
        target=target,
        stake=LADDER.stake(truco.level),
        ladder=STAKES,
        level=truco.level,
        raisers=raisers,
        your_raise=your_raise,
        pending=pending,
        signals=TrucoGame.signals_seen(st, seat, everyone=open),
        result=st.result,
        paulista=None,
        argentino=part,
        rules=TrucoRules.ARGENTINO,
    )


def _held(st: ArgentinoState, s: int, seat: int | None, open: bool) -> tuple[Card, ...]:
    """What the viewer sees of ``s``'s hand: its own; in the open view, every hand, with the
    cards of a seat that went to the deck."""
    if open:
        return st.folded.get(s, ()) + tuple(st.hands[s])
    return tuple(st.hands[s]) if s == seat else ()


def _trick(t: Trick) -> TrucoTrick:
    return TrucoTrick(
        tuple(TrucoPlay(s, c, c is None, s in t.void) for s, c in t.plays), t.winner,
        None if t.winner is None else t.winner & 1,
    )


# -- the hand history's result ------------------------------------------------------------
def history_result(st: ArgentinoState, result: TrucoResult, rounds: Sequence[RoundRecord]
                   ) -> Callable[[], dict[str, Any]]:
    """The ``result`` of the hand history, built only when the history is read.

    Every round (the one round of a hand, or each pica-pica duel) is in ``rounds`` with its
    own tricks, envido, flor and points. The DESIGN keys keep their meaning: ``tricks`` are
    the hand's tricks — none of its own in a pica-pica deal, whose tricks belong to its
    duels, never run together — and ``envido`` (and ``flor``) when played: a pica-pica
    deal's gathers every duel's (``scores`` of every seat that announced, ``winner`` the
    best envido that won a duel, ``winners`` each duel's).
    """
    pica = st.pica

    def build() -> dict[str, Any]:
        played = [_round_json(r) for r in rounds]
        out: dict[str, Any] = {
            "deltas": {str(s): d for s, d in enumerate(result.deltas)},
            "points": {"0": result.points[0], "1": result.points[1]},
            "tricks": [] if pica else played[0]["tricks"],
            "scores": list(result.scores),
            "rounds": played,
        }
        if not pica:
            for key in ("envido", "flor"):
                if key in played[0]:
                    out[key] = played[0][key]
            return out
        envidos = [r.envido for r in rounds if r.envido is not None]
        if envidos:
            out["envido"] = _gathered(envidos, st)
        flores = [r.flor for r in rounds if r.flor is not None]
        if flores:
            out["flor"] = _gathered(flores, st)
        return out

    return build


def _gathered(records: Sequence[EnvidoRecord | FlorRecord], st: ArgentinoState) -> dict[str, Any]:
    scores = {str(s): n for r in records for s, n in r.scores.items()}
    winners = [r.winner for r in records if r.winner is not None]
    best = max(winners, key=lambda w: st.env[w] if isinstance(records[0], EnvidoRecord) else st.flor[w],
               default=None)
    return {"scores": scores, "winner": best, "winners": winners, "points": sum(r.points for r in records)}


def _round_json(r: RoundRecord) -> dict[str, Any]:
    out: dict[str, Any] = {
        "round": r.round,
        "seats": list(r.seats),
        "mano": r.mano,
        "tricks": [_trick_json(t) for t in r.tricks],
        "truco": {"team": r.team, "points": r.stake, "reason": r.reason.value},
        "points": {"0": r.points[0], "1": r.points[1]},
    }
    if r.envido is not None:
        e = r.envido
        out["envido"] = {
            "calls": [c.value for c in e.calls], "accepted": e.accepted, "cancelled": e.cancelled,
            "points": e.points, "team": e.team, "scores": {str(s): n for s, n in e.scores.items()},
            "winner": e.winner, "cards": [str(c) for c in e.cards],
        }
    if r.flor is not None:
        f = r.flor
        out["flor"] = {
            "calls": [c.value for c in f.calls], "outcome": f.outcome, "points": f.points, "team": f.team,
            "scores": {str(s): n for s, n in f.scores.items()}, "winner": f.winner,
            "cards": [str(c) for c in f.cards],
        }
    return out


def _trick_json(t: Trick) -> dict[str, Any]:
    out: dict[str, Any] = {"cards": {str(s): "down" if c is None else str(c) for s, c in t.plays}, "winner": t.winner}
    if t.void:
        out["void"] = sorted(t.void)
    return out
