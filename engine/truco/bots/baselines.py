"""Truco's simple fixed policies, the yardsticks its levels are measured against (``engine.bots.baselines`` says
what each game's are): ``paulista-manilha``, ``paulista-trick-aware``, ``argentino-simple``, ``argentino-caller``,
and the exploiters ``always-accept`` and ``never-accept`` (``answering``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtui.engine.bots.baselines import Policy, first, random_policy
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, GameView
from cardtui.engine.truco.argentino.rules import RANK as ARG_RANK
from cardtui.engine.truco.paulista.rules import RANK as PAU_RANK
from cardtui.engine.truco.views import PaulistaPhase, TrucoPlay, TrucoView

PAU_MANILHAS = frozenset(Card.parse(c) for c in ("4C", "7H", "AS", "7D"))
ARG_TOP = frozenset(Card.parse(c) for c in ("1e", "1b", "7e", "7o"))


def table_best(trick: Sequence[TrucoPlay], rank: dict[Card, int]) -> tuple[int, int]:
    """(strength, seat) of the best card on the trick in play; (-1, -1) when none can win."""
    best = (-1, -1)
    for p in trick:
        if p.card is not None and not p.void and not p.face_down and rank[p.card] > best[0]:
            best = (rank[p.card], p.seat)
    return best


def play_low(view: TrucoView, legal: Sequence[Action], rank: dict[Card, int], high: bool = False) -> Action:
    """The lowest card that takes the trick, or the lowest card when a partner holds it or none takes it;
    with ``high``, the best card (a trick that decides the hand)."""
    plays = [a for a in legal if a.type == "play"]
    if not plays:
        return first(legal, "play_blind", "quiero", "accept", "son_buenas") or random_policy(view, list(legal), _RNG)
    you = view.you or 0
    best, seat = table_best(view.trick, rank)
    ours = seat >= 0 and seat & 1 == you & 1
    by_rank = sorted(plays, key=lambda a: rank[a.cards[0]])
    if ours and len(view.trick) >= 2:
        return by_rank[0]
    if high:
        return by_rank[-1]
    winners = [a for a in by_rank if rank[a.cards[0]] > best]
    return winners[0] if winners and not ours else by_rank[0]


_RNG = random.Random(0)


# -- truco paulista ------------------------------------------------------------------------
def paulista_manilha(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Truco with 4C or 7H; accept with a manilha or a 3; keep every deal; lowest winning card."""
    assert isinstance(view, TrucoView) and view.paulista is not None
    hand = set(view.cards)
    if view.paulista.phase is PaulistaPhase.ONZE:
        hand |= set(view.seats[((view.you or 0) + 2) % 4].cards)
    good = any(c in PAU_MANILHAS or c.rank == 3 for c in hand)
    if first(legal, "keep"):
        return first(legal, "keep") or legal[0]
    if first(legal, "accept"):
        return first(legal, "accept" if good else "run") or legal[0]
    call = first(legal, "truco")
    if call is not None and hand & {Card.parse("4C"), Card.parse("7H")}:
        return call
    return play_low(view, legal, PAU_RANK)


def paulista_trick_aware(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Knows ``truco_decides = trick``: truco when the trick in play is certainly won, accept when
    its best card beats the table's, its best card into a trick that decides the hand."""
    assert isinstance(view, TrucoView) and view.paulista is not None
    part = view.paulista
    you = view.you or 0
    hand = view.cards
    mine = max((PAU_RANK[c] for c in hand), default=-1)
    best, seat = table_best(view.trick, PAU_RANK)
    last = len(view.trick) == 3
    if first(legal, "keep"):
        return first(legal, "keep") or legal[0]
    if part.phase is PaulistaPhase.ONZE:
        both = [*hand, *view.seats[(you + 2) % 4].cards]
        return first(legal, "accept" if sum(c in PAU_MANILHAS or c.rank == 3 for c in both) >= 2 else "run") or legal[0]
    if first(legal, "accept"):
        if part.call_decides:
            ok = mine > best and mine >= PAU_RANK[Card.parse("3S")]
        else:
            ok = mine >= PAU_RANK[Card.parse("7D")]
        return first(legal, "accept" if ok or (seat >= 0 and seat & 1 == you & 1 and last) else "run") or legal[0]
    call = first(legal, "truco")
    certain = mine == PAU_RANK[Card.parse("4C")] or (last and (mine > best or (seat >= 0 and seat & 1 == you & 1)))
    if call is not None and certain:
        return call
    return play_low(view, legal, PAU_RANK, high=part.trick_decides)


# -- truco argentino ------------------------------------------------------------------------
def argentino_simple(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Truco with 1e or 1b, accept with a top-four card or a 3, envido at 27+; sings a flor, lowest winning card."""
    assert isinstance(view, TrucoView) and view.argentino is not None
    part = view.argentino
    hand = set(view.cards)
    env = part.your_envido or 0
    forced = first(legal, "flor", "announce", "son_buenas")
    if forced is not None:
        return forced
    pending = view.pending
    if pending is not None and pending.bet.value == "flor":
        return first(legal, "quiero" if (part.your_flor or 0) >= 33 else "con_flor_me_achico", "no_quiero") or legal[0]
    if pending is not None and pending.bet.value == "envido":
        return first(legal, "quiero" if env >= 27 else "no_quiero") or legal[0]
    if pending is not None:
        good = any(c in ARG_TOP or c.rank == 3 for c in hand) or any(
            t.team == (view.you or 0) & 1 for t in view.tricks)
        return first(legal, "quiero" if good else "no_quiero") or legal[0]
    if part.may_envido and env >= 27 and first(legal, "envido"):
        return first(legal, "envido") or legal[0]
    call = first(legal, "truco")
    if call is not None and hand & {Card.parse("1e"), Card.parse("1b")}:
        return call
    return play_low(view, legal, ARG_RANK)


def argentino_caller(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """``argentino_simple``, but every envido (and its raises) is accepted from 24 points."""
    assert isinstance(view, TrucoView) and view.argentino is not None
    pending = view.pending
    if pending is not None and pending.bet.value == "envido":
        return first(legal, "quiero" if (view.argentino.your_envido or 0) >= 24 else "no_quiero") or legal[0]
    return argentino_simple(view, legal, rng)


def answering(base: Policy, accept: bool) -> Policy:
    """``base``, but every pending truco or envido answered ``accept`` (or refused), never raised."""
    words = ("quiero", "accept") if accept else ("no_quiero", "run")

    def policy(view: GameView, legal: list[Action], rng: random.Random) -> Action:
        assert isinstance(view, TrucoView)
        onze = view.paulista is not None and view.paulista.phase is PaulistaPhase.ONZE
        if view.pending is not None and not onze and view.pending.bet.value in ("truco", "envido"):
            pick = first(legal, *words)
            if pick is not None:
                return pick
        return base(view, legal, rng)

    policy.__doc__ = f"{base.__name__}, answering every truco and envido {'yes' if accept else 'no'}."
    return policy
