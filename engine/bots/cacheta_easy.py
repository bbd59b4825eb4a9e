"""Cacheta's easy bot: a beginner who plays what the hand looks like, not what the cards left say.

The levels above weigh each card by the copies still to come and by what the other players
collect; a beginner sees pairs and high cards:

- it takes the pile's card whenever it pairs anything in the hand (the same rank, or its suit
  within two) and leaves the hand better once a card is thrown, or is wild, not only when it
  melds; otherwise it draws from the stock;
- it throws the card that leaves the hand closest to going out as plainly counted (outs that
  may still come, then the fewest loose cards, then the most pairs), and between cards that
  leave the same, the lowest: kings and aces (an ace is high to a beginner) are held long
  after they stopped helping;
- it pays no attention to what the other players took from the pile, nor to the score, and
  knocks as soon as it can.

It is never absurd: it knocks with all ten cards melded when it can, takes a card that lets
it go out, never breaks a meld while a loose card is left, never throws a wild while it has
another card, nor the pile's card it has just taken. It sees only its seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtui.engine.bots.rummy_levels import Seen, _declare, _knock, _links, _window, draw_open
from cardtui.engine.cacheta import DECLARE
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.melds import index
from cardtui.engine.rummy_records import DISCARD, DRAW, PILE, STOCK, RummyView


def _pairs(seen: Seen, card: Card, hand: Sequence[Card]) -> bool:
    """Whether ``card`` pairs something else in ``hand``: one more card would make the two a meld."""
    rest = list(hand)
    if card in rest:
        rest.remove(card)
    return any(o in seen.m.wilds or _links(card, o, seen.m.rules) for o in rest)


def _draw(seen: Seen, legal: Sequence[Action]) -> Action | None:
    open_ = draw_open(seen, legal)
    if not isinstance(open_, tuple):
        return open_
    top, hand = open_
    if top in seen.m.wilds or seen.m.goes_out([*hand, top]):
        return Action(DRAW, value=PILE)
    if not _pairs(seen, top, hand):
        return Action(DRAW, value=STOCK)
    # Taken only when the hand is better for it once a card is thrown: a card that is only traded for
    # another as good would pass between two beginners for ever, the stock untouched.
    ten = [*hand, top]
    ten.remove(_throw(seen, ten, kept=top))
    return Action(DRAW, value=PILE if count(seen, ten) > count(seen, hand) else STOCK)


def looks(card: Card) -> int:
    """How much a beginner likes holding ``card``: its rank, an ace above the king."""
    return 14 if card.rank == 1 else card.rank


def count(seen: Seen, hand: Sequence[Card]) -> tuple[int, int, int, int]:
    """The plain count of a hand of nine: live outs (whether any, how many), fewer loose cards, more pairs."""
    m = seen.m
    _, left = m.arrange(hand)
    n = seen.live_outs(hand)[0] if len(left) <= 4 else 0
    pairs = sum(1 for i, a in enumerate(left) for b in left[i + 1 :] if _links(a, b, m.rules) or b in m.wilds)
    return (1 if n else 0, n, -len(left), pairs)


def _throw(seen: Seen, hand: Sequence[Card], kept: Card | None) -> Card:
    """The card a beginner throws from ten: the one that leaves the best plain count, the lowest of equals;
    a loose card while there is one, never a wild while there is another, never ``kept``."""
    m = seen.m
    everything = sorted(set(hand), key=index)
    loose = sorted(set(m.arrange(hand)[1]), key=index)
    pool = ([c for c in loose if c not in m.wilds and c != kept]
            or [c for c in everything if c not in m.wilds and c != kept] or everything)

    def leaves(card: Card) -> tuple[int, int, int, int, int]:
        rest = list(hand)
        rest.remove(card)
        return (*count(seen, rest), -looks(card))

    return max(pool, key=leaves)


def _discard(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """The plain discard (a card that leaves live outs, then the fewest loose cards, then the most pairs),
    with the beginner's taste between cards that leave the same: the lowest goes, high cards stay."""
    if not any(a.type == DISCARD for a in legal):
        return None
    view = seen.view
    mine = view.seats[seen.you]
    kept = view.drawn if view.drawn is not None and view.drawn in mine.taken else None  # just taken from the pile
    return Action(DISCARD, cards=(_throw(seen, list(view.cards), kept),))


def easy(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """Cacheta's easy bot (see the module)."""
    knock = _knock(legal)
    if knock is not None:
        return knock
    seen = Seen(view)
    for pick in (_window(seen, legal), _declare(seen, legal), _draw(seen, legal), _discard(seen, legal)):
        if pick is not None:
            return pick
    return next((a for a in legal if a.type != DECLARE), legal[0])
