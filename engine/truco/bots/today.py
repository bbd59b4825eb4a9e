"""Truco bots for both games, and a random policy to measure them against.

The bots see only their seat's view. They judge a hand by the strength of the cards left
(the games' own rank tables), raised by what a partner has signalled; they call, answer
and bet envido by thresholds on that strength with a little noise, play the lowest card
that takes the trick (or the lowest card when the trick is lost or a partner holds it),
and never call a truco that cannot change the outcome (their team already wins the match
at the current stake). A flor is always sung (the rules require it); a flor met by a flor is
raised or folded by its value.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.truco.argentino.rules import RANK as ARG_RANK
from cardtui.engine.truco.ladder import Bet
from cardtui.engine.truco.paulista.rules import RANK as PAU_RANK
from cardtui.engine.truco.paulista.rules import TARGET as PAU_TARGET
from cardtui.engine.truco.signals import SIGNAL, Signal
from cardtui.engine.truco.views import PaulistaPhase, TrucoPlay, TrucoSignalSeen, TrucoView

_TOP = {Signal.EYEBROW: 1.0, Signal.WINK: 0.95, Signal.LIPS_ASIDE: 0.85, Signal.BITE_LIP: 0.7, Signal.KISS: 0.6}
"""How strong a card each gesture promises (on a 0–1 scale)."""


def random_policy(view: object, legal: list[Action], rng: random.Random) -> Action:
    """Uniform among the legal actions, leaving signals out unless nothing else is legal."""
    moves = [a for a in legal if a.type != SIGNAL] or legal
    return moves[int(rng.random() * len(moves))]


def _strength(cards: Sequence[Card], rank: dict[Card, int]) -> float:
    """0 (worst) to 1 (best): the mean of the two best cards' normalised ranks."""
    if not cards:
        return 0.0
    top = max(rank.values())
    values = sorted((rank[c] / top for c in cards), reverse=True)[:2]
    return sum(values) / len(values)


def _partner_hint(signals: Sequence[TrucoSignalSeen], you: int) -> float:
    """What partners promised by gesture: the best card they signalled, or 0."""
    best = 0.0
    for seen in signals:
        if seen.seat != you and seen.seat & 1 == you & 1 and seen.signal in _TOP:
            best = max(best, _TOP[seen.signal])
    return best


def _pick_card(hand: Sequence[Card], trick: Sequence[TrucoPlay], you: int, rank: dict[Card, int]) -> Card:
    """The lowest card that takes the trick; the lowest card if none does or a partner holds it."""
    lowest = min(hand, key=lambda c: rank[c])
    best_seat, best = -1, -1
    for play in trick:
        if play.card is None or play.void or play.face_down:
            continue
        v = rank[play.card]
        if v > best:
            best_seat, best = play.seat, v
    if best_seat >= 0 and best_seat & 1 == you & 1:
        return lowest
    winners = [c for c in hand if rank[c] > best]
    return min(winners, key=lambda c: rank[c]) if winners else lowest


def _find(legal: Sequence[Action], *types: str) -> Action | None:
    for t in types:
        for a in legal:
            if a.type == t:
                return a
    return None


def _maybe_signal(
    hand: Sequence[Card],
    rank: dict[Card, int],
    view_signals: Sequence[TrucoSignalSeen],
    you: int,
    legal: Sequence[Action],
    order: Sequence[str],
) -> Action | None:
    """Tell partners about the best card once a hand (only where signals are offered)."""
    if any(seen.seat == you for seen in view_signals) or not hand:
        return None
    best = str(max(hand, key=lambda c: rank[c]))
    for text, signal in zip(order, (Signal.EYEBROW, Signal.WINK, Signal.LIPS_ASIDE), strict=True):
        if best in text.split():
            return next((a for a in legal if a.type == SIGNAL and a.value == signal.value), None)
    return None


def _tricks(view: TrucoView, team: int) -> float:
    won = sum(1 for t in view.tricks if t.team == team)
    lost = sum(1 for t in view.tricks if t.team is not None and t.team != team)
    return 0.15 * (won - lost)


def choose_argentino(view: TrucoView, legal: list[Action], rng: random.Random) -> Action:
    """The bot's action for ``view.you`` in truco argentino."""
    part = view.argentino
    assert part is not None
    you = view.you if view.you is not None else 0
    team = you & 1
    hand = view.cards
    noise = rng.uniform(-0.06, 0.06)
    power = max(_strength(hand, ARG_RANK), 0.8 * _partner_hint(view.signals, you)) + noise + _tricks(view, team)
    env = part.your_envido or 0
    wins_anyway = view.scores[team] + part.points[team] + view.stake >= view.target
    types = {a.type for a in legal}
    pending = view.pending
    if "flor" in types:
        return _find(legal, "flor") or legal[0]
    if pending is not None and pending.bet is Bet.FLOR:
        return _answer_flor(view, legal)
    if "announce" in types or "son_buenas" in types:
        return _find(legal, "announce", "son_buenas") or legal[0]
    if pending is not None and "quiero" in types:
        if pending.bet is Bet.ENVIDO:
            if env >= 31 and "real_envido" in types and rng.random() < 0.5:
                return _find(legal, "real_envido") or legal[0]
            return _find(legal, "quiero" if env >= 27 + 2 * len(part.envido_calls) else "no_quiero") or legal[0]
        if part.may_envido and env >= 29 and "envido" in types:
            return _find(legal, "envido") or legal[0]
        if power > 0.9 and not wins_anyway:
            raise_ = _find(legal, "retruco", "vale_cuatro")
            if raise_ is not None:
                return raise_
        return _find(legal, "quiero" if power > 0.62 else "no_quiero") or legal[0]
    if part.may_envido and env >= 28 + rng.randint(0, 3):
        return _find(legal, "real_envido" if env >= 31 else "envido") or legal[0]
    call = _find(legal, "truco", "retruco", "vale_cuatro")
    if call is not None and not wins_anyway and power > 0.8 and rng.random() < 0.6:
        return call
    sig = _maybe_signal(hand, ARG_RANK, view.signals, you, legal, ("1e", "1b", "7e 7o"))
    if sig is not None:
        return sig
    if any(a.type == "play" for a in legal):
        card = _pick_card(hand, view.trick, you, ARG_RANK)
        return next(a for a in legal if a.type == "play" and a.cards[0] == card)
    return _find(legal, "quiero", "son_buenas") or random_policy(view, legal, rng)


def _answer_flor(view: TrucoView, legal: list[Action]) -> Action:
    """Raise with a high flor, fold or refuse with a low one (38 is the best there is)."""
    part = view.argentino
    assert part is not None
    mine = part.your_flor or 0
    if mine >= 37:
        pick = _find(legal, "contra_flor_al_resto", "quiero")
    elif mine >= 34:
        pick = _find(legal, "contra_flor", "quiero")
    elif mine >= 31 and len(part.flor_calls) > 1 and part.flor_calls[-1] == "contra_flor":
        pick = _find(legal, "quiero")
    else:
        pick = None
    return pick or _find(legal, "con_flor_me_achico", "no_quiero", "son_buenas") or legal[0]


def choose_paulista(view: TrucoView, legal: list[Action], rng: random.Random) -> Action:
    """The bot's action for ``view.you`` in truco paulista."""
    part = view.paulista
    assert part is not None
    you = view.you if view.you is not None else 0
    team = you & 1
    hand = view.cards
    noise = rng.uniform(-0.06, 0.06)
    power = max(_strength(hand, PAU_RANK), 0.8 * _partner_hint(view.signals, you)) + noise + _tricks(view, team)
    types = {a.type for a in legal}
    if "keep" in types:
        if power >= 0.62 or "reject" not in types:
            return _find(legal, "keep") or legal[0]
        return _find(legal, "pass_cards" if power >= 0.5 else "reject") or legal[0]
    if part.phase is PaulistaPhase.ONZE and "accept" in types:
        both = [*hand, *view.seats[(you + 2) % 4].cards]
        return _find(legal, "accept" if _strength(both, PAU_RANK) + noise > 0.7 else "run") or legal[0]
    if view.pending is not None and "accept" in types:
        if power > 0.92:
            raise_ = _find(legal, "seis", "nove", "doze")
            if raise_ is not None:
                return raise_
        return _find(legal, "accept" if power > 0.66 else "run") or legal[0]
    if "play_blind" in types:
        return _find(legal, "play_blind") or legal[0]
    call = _find(legal, "truco", "seis", "nove", "doze")
    if call is not None and view.scores[team] + view.stake < PAU_TARGET and power > 0.8 and rng.random() < 0.6:
        return call
    sig = _maybe_signal(hand, PAU_RANK, view.signals, you, legal, ("4C", "7H", "AS 7D"))
    if sig is not None:
        return sig
    if any(a.type == "play" for a in legal):
        card = _pick_card(hand, view.trick, you, PAU_RANK)
        return next(a for a in legal if a.type == "play" and a.cards[0] == card)
    return random_policy(view, legal, rng)
