"""The rummy games' simple fixed policies, the yardsticks their levels are measured against (``engine.bots.baselines``
says what each game's are): ``pifpaf-isolated`` and ``cacheta-isolated``, ``cacheta-pairs``, ``cacheta-guarded``."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from cardtui.engine.betting import CALL, CHECK, FOLD
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, GameView
from cardtui.engine.rummy.bots.pifpaf import rules_of
from cardtui.engine.rummy.cacheta import CUT, DECLARE
from cardtui.engine.rummy.melds import melder
from cardtui.engine.rummy.records import CLAIM, DISCARD, DRAW, KNOCK, PASS, PILE, STOCK, RummyView


def _isolation(card: Card, others: Sequence[Card]) -> int:
    """How many other cards could meld with ``card``: same rank in another suit, or a near neighbour in suit."""
    return sum(
        1 for o in others
        if (o.rank == card.rank and o.suit is not card.suit)
        or (o.suit is card.suit and 0 < abs(o.rank - card.rank) <= 2)
    )


Discard = Callable[[RummyView, Sequence[Card], Sequence[Card]], Card]
"""Which card a rummy baseline throws: from its view, the natural loose cards (or its hand) and its hand."""


def _most_isolated(view: RummyView, pool: Sequence[Card], hand: Sequence[Card]) -> Card:
    return min(pool, key=lambda c: (_isolation(c, [o for o in hand if o != c]), -c.rank))


def rummy_isolated(view: GameView, legal: list[Action], rng: random.Random, discard: Discard = _most_isolated
                   ) -> Action:
    """Take a discard only when it joins a meld; discard the most isolated loose card; knock, declare,
    claim or cut whenever the rules let it go out; Pif Paf: check, or call."""
    assert isinstance(view, RummyView)
    kinds = {a.type: a for a in legal}
    m = melder(rules_of(view), view.wilds)
    hand = list(view.cards)
    if CHECK in kinds or CALL in kinds or FOLD in kinds:
        return kinds.get(CHECK) or kinds.get(CALL) or kinds[FOLD]
    knocks = [a for a in legal if a.type == KNOCK]
    if knocks:
        return next((a for a in knocks if not a.cards), knocks[0])
    if DECLARE in kinds:
        return kinds[DECLARE]
    for claim in (CLAIM, CUT):
        if claim in kinds and view.window is not None and view.window.card in m.completing(hand):
            return kinds[claim]
    if PASS in kinds:
        return kinds[PASS]
    if DRAW in kinds:
        pile = Action(DRAW, value=PILE)
        if view.pile and pile in legal:
            melded = len(hand) - len(m.arrange(hand)[1])
            with_top = [*hand, view.pile[-1]]
            if len(with_top) - len(m.arrange(with_top)[1]) > melded or Action(DRAW, value=STOCK) not in legal:
                return pile
        return Action(DRAW, value=STOCK)
    if DISCARD in kinds:
        _, loose = m.arrange(hand)
        pool = [c for c in (loose or hand) if c not in m.wilds] or list(loose or hand)
        return Action(DISCARD, cards=(discard(view, pool, hand),))
    return legal[0]


def _highest_unpaired(view: RummyView, pool: Sequence[Card], hand: Sequence[Card]) -> Card:
    unpaired = [c for c in pool if not any(_isolation(c, [o]) for o in pool if o is not c)]
    return max(unpaired or pool, key=lambda c: (c.rank, c.suit.value))


def cacheta_pairs(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """``rummy_isolated``, but it keeps its loose pairs and throws the highest loose card outside them."""
    return rummy_isolated(view, legal, rng, _highest_unpaired)


def _unlinked(view: RummyView, pool: Sequence[Card], hand: Sequence[Card]) -> Card:
    taken = [c for s in view.seats if s.seat != view.you for c in s.taken]
    safe = [c for c in pool if not any(_isolation(c, [t]) or c == t for t in taken)]
    return _highest_unpaired(view, safe or pool, hand)


def cacheta_guarded(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """``cacheta_pairs``, but it never throws a card linked to one another player took from the pile
    (the same card, its rank in another suit, or its suit within two) while it has another loose card."""
    return rummy_isolated(view, legal, rng, _unlinked)
