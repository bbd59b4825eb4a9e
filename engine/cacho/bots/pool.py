"""Cacho players of five styles, written from the player types of poker's literature.

Each style knows where its hand stands among every hand of three cards (``percentile``: the share of
the 2,024 hands of the pack it beats, one opponent's; against several, that share to the power of their
number) and what a call costs against the pot; they differ in what they do with it, as their namesakes
at a poker table do:

- ``tight``: goes on in rounds 1 and 2 only with a card above a three or two of a suit, bets only the
  best hands and calls only good ones (the "rock");
- ``loose``: stays in every hand and calls with most hands, bets seldom (the "calling station");
- ``caller``: bets its good hands big and raises the best (tight-aggressive);
- ``bluffer``: bets a weak hand at a fixed rate as often as a strong one, and raises as a bluff now and
  then (the "maniac");
- ``score``: plays by its stack: pushes its chips in with any hand above the middle when short, presses
  a short stack with its good hands when deep, and is tight otherwise.

None reads what the others did beyond the price of the call.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from cardtui.engine.betting import BET as OPEN
from cardtui.engine.betting import CALL, CHECK, FOLD, RAISE
from cardtui.engine.bots.baselines import Policy
from cardtui.engine.cacho.rules import BET, DECK, PASS, CachoView, SeatStatus, strength
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, GameView


@cache
def _every_hand() -> list[tuple[int, int]]:
    """The strength of each of the pack's 2,024 three-card hands, weakest first: counted at the first decision of a
    pool player, not when the games are imported (every process of the room does that, and most never ask)."""
    return sorted(strength(h) for h in combinations(DECK, 3))


def percentile(cards: tuple[Card, ...]) -> float:
    """The share of the pack's three-card hands this hand beats (ties counted half)."""
    every, s = _every_hand(), strength(cards)
    below, upto = bisect_left(every, s), bisect_right(every, s)
    return (below + 0.5 * (upto - below)) / len(every)


@dataclass(frozen=True, slots=True)
class Style:
    stay: int
    """Rounds 1 and 2: goes on with a card of at least this rank (two of a suit always); 0: always."""
    bet: float
    """Round 3: bets (or raises) a hand at or above this equity."""
    size: float
    """What it bets, as a share of the pot."""
    call: float
    """Calls at or above this equity, less what the pot's odds allow."""
    raise_: float
    """Raises a bet at or above this equity."""
    bluff: float = 0.0
    """How often it bets (or raises) a hand below a third of the way up."""
    by_stack: bool = False


STYLES: dict[str, Style] = {
    "tight": Style(stay=4, bet=0.80, size=0.5, call=0.70, raise_=0.92),
    "loose": Style(stay=0, bet=0.85, size=0.3, call=0.30, raise_=0.97),
    "caller": Style(stay=3, bet=0.60, size=1.0, call=0.55, raise_=0.80),
    "bluffer": Style(stay=0, bet=0.70, size=0.8, call=0.50, raise_=0.90, bluff=0.40),
    "score": Style(stay=4, bet=0.75, size=0.6, call=0.62, raise_=0.90, by_stack=True),
}


def _bet(legal: list[Action], level: int, pot: int, share: float) -> Action | None:
    raises = [a for a in legal if a.type in (OPEN, RAISE)]
    if not raises:
        return None
    want = level + max(1, round(share * pot))
    return min(raises, key=lambda a: abs(a.amount - want))


def play(style: Style, view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """One decision of ``style`` (see the module)."""
    assert isinstance(view, CachoView)
    me = view.seats[view.you or 0]
    kinds = {a.type: a for a in legal}
    others = [s for s in view.seats if s.status is SeatStatus.IN and s.seat != me.seat]
    if view.round < 3:
        cards = me.cards
        suited = len(cards) == 2 and cards[0].suit is cards[1].suit
        go = not others or not style.stay or suited or max(c.rank for c in cards) >= style.stay
        return kinds[BET] if go and BET in kinds else kinds.get(PASS, legal[0])
    equity = percentile(me.cards) ** max(1, len(others))
    bet, size, call, raise_, bluff = style.bet, style.size, style.call, style.raise_, style.bluff
    if style.by_stack:
        start = sum(s.chips + s.put for s in view.seats) / max(1, len(view.seats))
        short = me.chips + me.put < 0.5 * start
        deep = me.chips + me.put > 1.5 * start and any(s.chips < 0.5 * start for s in others)
        if short:
            bet, size, call = 0.5, 10.0, 0.5  # all in, or as near it as the resto allows
        elif deep:
            bet, size, bluff = 0.6, 1.0, 0.2
    weak = equity < 0.33
    if CHECK in kinds:
        if equity >= bet or (weak and bluff and rng.random() < bluff):
            return _bet(legal, view.level, view.pot, size) or kinds[CHECK]
        return kinds[CHECK]
    to_call = kinds.get(CALL)
    if to_call is None:
        return legal[0]
    price = to_call.amount / max(1, view.pot + to_call.amount)
    if equity >= raise_ or (weak and bluff and rng.random() < bluff / 4):
        up = _bet(legal, view.level, view.pot, size)
        if up is not None:
            return up
    if equity >= call - price:
        return to_call
    return kinds.get(FOLD, to_call)


def player(name: str) -> Policy:
    style = STYLES[name]

    def policy(view: GameView, legal: list[Action], rng: random.Random) -> Action:
        return play(style, view, legal, rng)

    policy.__name__ = f"cacho_{name}"
    policy.__doc__ = f"The pool's ``{name}`` Cacho player (``engine.cacho.bots.pool``)."
    return policy
