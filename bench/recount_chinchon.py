"""Chinchón's rules as the recount restates them (docs/rules.md §6), from the hand's history alone: its pack, its
melds, the card turned up that starts the pile, a close's points within the table's limit (``bench.recount``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bench.recount import RUMMY, Rummy, cards, least_points, without
from cardtui.engine.cards import Card
from cardtui.engine.rummy.melds import GroupRule, Ruleset


def spanish_deck(count: int, jokers: int) -> tuple[Card, ...]:
    """docs/rules.md §6: the Spanish pack of 40 (1 to 7, 10, 11, 12 in espadas, bastos, oros and copas) or 48 (8 and 9
    too), and ``jokers`` jokers."""
    ranks = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12) if count == 48 else (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
    return (*(Card.parse(f"{r}{s}") for s in "eboc" for r in ranks), *(Card.parse("JK") for _ in range(jokers)))


class Chinchon(Rummy):
    """A Chinchón hand: a seat closes with the cards left outside melds within the table's limit of points."""

    closes = True

    def rules_of(self, options: Mapping[str, Any]) -> None:
        """Three or more of a rank (each of its own suit) or of a run of one suit, the ace low only, on the pack the
        options choose; a joker acts for any card of a meld."""
        jokers = int(options.get("jokers", 0))
        self.deck = spanish_deck(int(options.get("cards", 40)), jokers)
        self.rules = Ruleset(GroupRule.DISTINCT, ace_high=False, wild_acts=bool(jokers),
                             pack=f"spanish{int(options.get('cards', 40)) + jokers}")
        self.wilds = (Card.parse("JK"),) if jokers else ()
        self.limit = int(options.get("limit", 5))
        self.figures = 10 if options.get("figures", "ten") == "ten" else 0
        self.joker_points = int(options.get("joker_points", 25))

    def started(self, record: Mapping[str, Any]) -> None:
        """The card turned up after the deal starts the pile."""
        self.pile = cards([record["up"]])
        self.stock -= 1

    def points(self, hand: Sequence[Card]) -> int:
        """The fewest points ``hand`` leaves outside melds, each card its number, the figures 10 (or their number,
        10 to 12), a joker ``joker_points``."""
        def worth(c: Card) -> int:
            if c.rank == 0 or str(c) == "JK":
                return self.joker_points
            return self.figures if self.figures and c.rank >= 10 else c.rank

        ordered = tuple(sorted(hand, key=str))
        return least_points(self.ref, ordered, tuple(worth(c) for c in ordered))

    def melded(self, hand: Sequence[Card]) -> int:
        """The seven a close keeps, where their points are within the limit: the most melded."""
        return max(len(hand) - 1 - self.loose(without(hand, c)) for c in set(hand)
                   if self.points(without(hand, c)) <= self.limit)


RUMMY["chinchon"] = Chinchon
