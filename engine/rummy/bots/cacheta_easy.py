"""Cacheta's easy bot: a beginner who plays what the hand looks like, not what the cards left say.

The levels above weigh each card by the copies still to come and by what the other players
collect; a beginner sees pairs and high cards:

- it takes the pile's card whenever it pairs anything in the hand (the same rank, or its suit
  within two) or is wild, not only when it melds, and then holds on to what it picked up;
  otherwise it draws from the stock;
- it throws the card that leaves the hand closest to going out as plainly counted (outs that
  may still come, then the fewest loose cards, then the most pairs), and between cards that
  leave the same, the lowest: kings and aces (an ace is high to a beginner) are held long
  after they stopped helping;
- it pays no attention to what the other players took from the pile, nor to the score, and
  knocks as soon as it can.

Half its choices (``SOUND``), it sees what the plain rules see (``rummy_levels.easy``, the easy of
before): a beginner who always played by the look won no match at all, and a level called easy
should be beaten, not be no game.

It is never absurd: it knocks with all ten cards melded when it can, takes a card that lets
it go out, never breaks a meld while a loose card is left, never throws a wild while it has
another card, nor a card it picked up from the pile while it has another that is neither wild
nor picked up (``throws_back``), whichever half chose. It sees only its seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.rummy.bots import levels as rummy_levels
from cardtui.engine.rummy.bots.levels import Seen, _links, draw_open, turn
from cardtui.engine.rummy.melds import index
from cardtui.engine.rummy.records import DISCARD, DRAW, PILE, STOCK, RummyView

SOUND = 0.5
"""How often a beginner sees what the plain rules see (``rummy_levels.easy``: take the pile's card only when
it brings the hand closer to going out than the stock is likely to, count outs only while a copy is live):
half its choices. Always the beginner's, easy won no match against normal or hard at two; half and half,
hard still wins most (measured in ``bench/marks.md``)."""


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
    # A card it picked up, a beginner keeps: taken only while a loose card it did not pick up is left to
    # throw for it (so that each take holds one more card and two beginners cannot trade the same cards
    # for ever, the stock untouched).
    free = [c for c in seen.m.arrange(hand)[1] if c not in seen.m.wilds and c not in _picked(seen)]
    return Action(DRAW, value=PILE if free and _pairs(seen, top, hand) else STOCK)


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


def _picked(seen: Seen) -> set[Card]:
    """The cards this seat took from the pile and holds."""
    return set(seen.view.seats[seen.you].taken)


def _throw(seen: Seen, hand: Sequence[Card]) -> Card:
    """The card a beginner throws from ten: the one that leaves the best plain count, the lowest of equals;
    a loose card while there is one, never a wild while there is another, never one it picked up from the
    pile while there is another."""
    m = seen.m
    everything = sorted(set(hand), key=index)
    loose = sorted(set(m.arrange(hand)[1]), key=index)
    kept = _picked(seen)
    pool = ([c for c in loose if c not in m.wilds and c not in kept]
            or [c for c in everything if c not in m.wilds and c not in kept]
            or [c for c in everything if c not in m.wilds] or everything)

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
    return Action(DISCARD, cards=(_throw(seen, list(seen.view.cards)),))


def easy(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """Cacheta's easy bot: the beginner's choice (``beginner``), or, one time in ``1 / SOUND``, the plain
    rules' (see the module), unless the plain rules would throw a card it picked up from the pile while another
    may go: what a beginner picks up, it holds (the plain rules' discard, after the beginner's draw, threw the card
    just taken back now and then: issue 87, bench/marks.md)."""
    if rng.random() < SOUND:
        action = rummy_levels.easy(view, legal, rng)
        if not throws_back(view, legal, action):
            return action
    return beginner(view, legal, rng)


def throws_back(view: RummyView, legal: Sequence[Action], action: Action) -> bool:
    """Whether ``action`` throws a card the seat picked up from the pile this hand while a card neither picked up
    nor wild may go instead (the beginner's own reckoning of what it picked up: ``_picked``)."""
    if action.type != DISCARD or not action.cards or view.you is None:
        return False
    picked = set(view.seats[view.you].taken)
    return action.cards[0] in picked and any(
        a.type == DISCARD and a.cards and a.cards[0] not in picked and a.cards[0] not in view.wilds for a in legal)


def beginner(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """The beginner's own choice: a hand played by its look (see the module)."""
    return turn(view, legal, Seen, _draw, _discard)
