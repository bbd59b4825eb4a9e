"""What one seat may see of a truco argentino table.

A seat sees its own cards and only the number of everyone else's; cards come into view as
they are played, and the envido winner's cards once the round is over. A spectator sees
no hand at all. Opponents' signals appear only to those who caught them. A flor that
scored shows its three cards once the round is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardtui.engine.argentino_flor import NAMES as FLOR_NAMES
from cardtui.engine.argentino_flor import must_sing
from cardtui.engine.argentino_rules import TRUCO_NAMES, score_text
from cardtui.engine.tricks import TrickView, note, notes

if TYPE_CHECKING:
    from cardtui.engine.truco_argentino import ArgentinoState


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    team: int
    cards: tuple[str | None, ...]
    """Your own cards; None for each card another seat holds."""
    in_round: bool
    gone: bool
    """Went to the deck this round."""
    envido: int | None
    """The envido this seat announced."""


@dataclass(frozen=True, slots=True)
class ArgentinoView:
    game: str
    hand: int
    you: int | None
    to_act: tuple[int, ...]
    hand_over: bool
    match_over: bool
    result: Mapping[str, Any] | None
    seats: tuple[SeatView, ...]
    dealer: int
    mano: int
    players: tuple[int, ...]
    """The seats playing the round now, mano first (two in a pica-pica 1v1)."""
    pica_pica: bool
    scores: tuple[int, int]
    target: int
    score_text: tuple[str, str]
    tricks: tuple[TrickView, ...]
    trick: tuple[tuple[int, str], ...]
    turn: int | None
    stake: int
    truco: str | None
    raise_team: int | None
    """The team that may raise the truco next (None: either, or no raise left)."""
    pending: tuple[str, int, str] | None
    """A call awaiting its answer: (truco, envido or flor, the calling team, the call)."""
    envido_calls: tuple[str, ...]
    envido_done: bool
    may_envido: bool
    announcing: int | None
    best_envido: int | None
    your_envido: int | None
    flor_calls: tuple[str, ...]
    """What has been said in the flor this round (``flor`` once for each flor sung)."""
    flor_sung: tuple[int, ...]
    """The seats that sang a flor this round."""
    flor_done: bool
    """A flor met by a flor has been settled."""
    must_flor: bool
    """You hold a flor you have not sung: sing it before your first card."""
    your_flor: int | None
    signals: tuple[tuple[int, str], ...]
    """Signals this seat saw: (from seat, signal)."""
    shown: tuple[tuple[int, tuple[str, ...]], ...]
    points: tuple[int, int]
    """Points won this hand so far, added to the scores when it ends."""
    options: Mapping[str, Any]


def build(st: ArgentinoState, seat: int | None, to_act: tuple[int, ...], over: bool, may_envido: bool) -> ArgentinoView:
    target = st.options.target
    playing = st.result is None
    seats = []
    for s in range(st.n):
        cards: tuple[str | None, ...]
        cards = tuple(notes(st.hands[s])) if s == seat else (None,) * len(st.hands[s])
        in_round = s in st.players
        gone = playing and in_round and not st.live[s]
        seats.append(SeatView(s, st.names[s], s & 1, cards, in_round, gone, st.spoken.get(s)))
    tricks = tuple(TrickView(tuple((s, note(c)) for s, c in plays), w) for plays, w in st.trick_plays)
    pending = None
    if st.f_pending >= 0:
        pending = ("flor", st.f_pending, FLOR_NAMES[st.f_calls[-1]].lower())
    elif st.e_pending >= 0:
        pending = ("envido", st.e_pending, st.e_calls[-1].value)
    elif st.t_pending >= 0:
        pending = ("truco", st.t_pending, TRUCO_NAMES[st.t_level])
    extra = st.round_points if playing else (0, 0)
    return ArgentinoView(
        game="truco_argentino",
        hand=st.hand_no,
        you=seat,
        to_act=to_act,
        hand_over=not playing,
        match_over=over,
        result=st.result,
        seats=tuple(seats),
        dealer=st.dealer,
        mano=st.mano,
        players=st.players,
        pica_pica=st.pica,
        scores=(st.scores[0], st.scores[1]),
        target=target,
        score_text=(score_text(st.scores[0], target), score_text(st.scores[1], target)),
        tricks=tricks,
        trick=tuple((s, note(c)) for s, c in st.trick),
        turn=st.to_play[0] if playing and st.to_play else None,
        stake=st.level + 1,
        truco=TRUCO_NAMES[st.level] if st.level else None,
        raise_team=None if st.level >= 3 or st.owner < 0 else st.owner,
        pending=pending,
        envido_calls=tuple(c.value for c in st.e_calls),
        envido_done=st.e_done,
        may_envido=may_envido,
        announcing=st.ann[0] if st.ann else None,
        best_envido=st.best if st.best >= 0 else None,
        your_envido=st.env[seat] if seat is not None else None,
        flor_calls=tuple(c.value for c in st.f_calls),
        flor_sung=tuple(st.f_sung),
        flor_done=st.f_done,
        must_flor=seat is not None and playing and st.live[seat] and must_sing(st, seat),
        your_flor=st.flor[seat] if seat is not None and st.flor[seat] >= 0 else None,
        signals=tuple((f, name) for f, name, who in st.signals if seat is not None and seat in who),
        shown=tuple((s, tuple(notes(c))) for s, c in st.shown.items()),
        points=(st.points[0] + extra[0], st.points[1] + extra[1]),
        options=st.options_dict,
    )
