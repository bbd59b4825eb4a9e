"""A Pif Paf bot (and the rummy play Cacheta's bot shares): it plays by distance to going out.

A nine-card hand is scored by how close it is: first whether some card would let it go out
(na boa) and by how many such cards (outs); otherwise by how few cards lie outside its best
melds, then by how many of those loose cards already pair up toward a meld. It draws the
discard when keeping it makes the hand closer than it is, discards the card whose loss
hurts least, never throws a wild card while it has another choice, claims and knocks
whenever it can, and bets by the same measure. It sees only its seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtui.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.rummy.melds import Melder, Ruleset, index, melder
from cardtui.engine.rummy.records import CLAIM, DISCARD, DRAW, KNOCK, PASS, PILE, STOCK, RummyView

Score = tuple[int, int, int, int]


def rules_of(view: RummyView) -> Ruleset:
    """What counts as a meld at ``view``'s table, and what a card outside melds counts: its meld rules, over its
    pack."""
    r = view.rules
    return Ruleset(r.group_suits, ace_high=r.ace_high, wild_acts=r.wild_acts, pack=view.table.pack,
                   points=view.table.points)


def _near(a: Card, b: Card) -> bool:
    """Two loose cards that a single card could turn into a meld."""
    if a.rank == b.rank:
        return a.suit is not b.suit
    return a.suit is b.suit and 0 < abs(a.rank - b.rank) <= 2


def score(m: Melder, hand: Sequence[Card]) -> Score:
    """Higher is closer to going out: (na boa, outs, -loose cards, loose pairs)."""
    _, loose = m.arrange(hand)
    outs = m.completing(hand) if len(loose) <= 4 else ()
    pairs = sum(1 for i, a in enumerate(loose) for b in loose[i + 1 :] if _near(a, b) or b in m.wilds)
    return (1 if outs else 0, len(outs), -len(loose), pairs)


def best_discard(m: Melder, hand: Sequence[Card]) -> tuple[Card, Score]:
    """The discard that leaves the best nine cards (a wild only when nothing else is left)."""
    choices = sorted(set(hand), key=index)
    natural = [c for c in choices if c not in m.wilds] or choices
    best: tuple[Card, Score] | None = None
    for c in natural:
        rest = list(hand)
        rest.remove(c)
        s = score(m, rest)
        if best is None or s > best[1]:
            best = (c, s)
    assert best is not None
    return best


def play(view: RummyView, legal: list[Action], rng: random.Random, claim: str = CLAIM) -> Action | None:
    """Draw, discard, knock and claim; None when the decision is not about play."""
    kinds = {a.type for a in legal}
    m = melder(rules_of(view), view.wilds)
    hand = list(view.cards)
    knocks = [a for a in legal if a.type == KNOCK]
    if knocks:
        return next((a for a in knocks if not a.cards), knocks[0])  # ten melded beats nine
    if claim in kinds and view.window is not None and view.window.card in m.completing(hand):
        return Action(claim)
    if PASS in kinds:
        return Action(PASS)
    if DRAW in kinds:
        if view.pile and Action(DRAW, value=PILE) in legal:
            top = view.pile[-1]
            _, taken = best_discard(m, [*hand, top])
            if Action(DRAW, value=STOCK) not in legal or taken > score(m, hand):
                return Action(DRAW, value=PILE)
        return Action(DRAW, value=STOCK)
    if DISCARD in kinds:
        card, _ = best_discard(m, hand)
        return Action(DISCARD, cards=(card,))
    return None


def bet(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """Bet by the hand's potential: few loose cards, bet; middling, call; poor, fold to a bet."""
    m = melder(rules_of(view))
    hand = list(view.cards)
    _, loose = m.arrange(hand)
    kinds = {a.type: a for a in legal}
    raises = [a for a in legal if a.type in (BET, RAISE)]
    strength = len(hand) - len(loose) + rng.uniform(-1, 1)
    if raises and strength >= 6:
        return raises[min(len(raises) - 1, int((strength - 6) * len(raises) / 4))]
    if CHECK in kinds:
        return kinds[CHECK]
    if CALL in kinds and (strength >= 3 or kinds[CALL].amount <= max(1, view.pot // 4)):
        return kinds[CALL]
    return kinds[FOLD]


def choose(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """The bot's action for ``view.you`` among ``legal`` (never empty)."""
    if any(a.type in (FOLD, CHECK, CALL) for a in legal):
        return bet(view, legal, rng)
    action = play(view, legal, rng)
    return action if action is not None else legal[0]
