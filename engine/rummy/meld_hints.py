"""Meld hints (every rummy game): which melds a card of one's own hand joins, or would complete.

Asked on request by a player about the card they picked, and worked out from that player's own
cards alone (nothing of the pile or of anyone else's hand goes in): the melds of three the card
makes with two other cards of the hand, then the pairs it makes with one other card and the cards
(any one of them) that would make each a meld. Cacheta's wild cards count as the rules say
(``melds.is_meld_with_wilds``); a card still to come is named whether or not a copy is left, and is a card of
the table's own pack (``Ruleset.pack``: the French one, or Chinchón's Spanish pack of 40 or 48).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from cardtui.engine.cards import Card
from cardtui.engine.rummy.melds import Ruleset, index, is_meld_with_wilds, layout

MOST = 6
"""Hints given at most, the melds already made first: a card in a long hand pairs with many."""


@dataclass(frozen=True, slots=True)
class MeldHint:
    """A meld the card is in: ``cards`` from the hand (the card among them), and ``needs``, any one
    of which completes it (empty: a meld already)."""

    cards: tuple[Card, ...]
    needs: tuple[Card, ...] = ()


def meld_hints(card: Card, hand: Sequence[Card], rules: Ruleset, wilds: Iterable[Card] = (),
               most: int = MOST) -> tuple[MeldHint, ...]:
    """The melds ``card`` (one of ``hand``) makes with the rest of ``hand``, or would with one more card."""
    rest = list(hand)
    if card not in rest:
        raise ValueError(f"{card} is not in the hand.")
    rest.remove(card)
    wild = tuple(wilds)
    others = sorted(set(rest), key=index)
    made: list[MeldHint] = []
    for pair in combinations(others, 2):
        cards = tuple(sorted((card, *pair), key=index))
        if is_meld_with_wilds(cards, rules, wild):
            made.append(MeldHint(cards))
    near: list[MeldHint] = []
    held = set(hand)
    kinds = sorted(layout(rules.pack).kinds, key=index)  # the pack's cards, a joker never named as needed
    for other in others:
        needs = tuple(x for x in kinds if x not in held and is_meld_with_wilds((card, other, x), rules, wild))
        if needs:
            near.append(MeldHint(tuple(sorted((card, other), key=index)), needs))
    near.sort(key=lambda h: len(h.needs))  # the likeliest first: fewest cards would do
    return tuple((made + near)[:most])
