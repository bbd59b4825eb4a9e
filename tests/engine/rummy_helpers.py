"""Helpers the rummy tests share: which cards sit near which for their quick players, and a hand history read by
the rules alone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from cardtui.engine.cards import Card, french_deck, parse_cards

PACK = 104
NO_CARDS = frozenset({"pass", "declare", "bet", "raise", "call", "check", "fold"})
"""Actions that move no card (a pass in a claim window names the window's card, but leaves it)."""


def near_sets(together: Callable[[Card, Card], bool]) -> dict[Card, frozenset[Card]]:
    """For each card of the French deck, the cards ``together`` pairs it with: looked up in a set (a card is one
    object) where the quick players called the predicate millions of times a run."""
    return {a: frozenset(b for b in french_deck() if together(a, b)) for a in french_deck()}


def account(record: Mapping[str, Any]) -> None:
    """Follow every card of a rummy hand history from ``deal`` and ``actions`` alone, as a reader who knows
    the rules but not the engine would; an ``AssertionError`` says where a card goes astray.

    Cards leave the shuffled pack only by the deal, the flip (Cacheta) and draws from the stock
    before it is first rebuilt; after that the stock is the pile turned over, which the rebuild's
    entry names. At the end every card that left the pack is in exactly one place: a hand, the
    pile, the rebuilt stock or the flip.
    """
    hands = {int(s): Counter(parse_cards(cards)) for s, cards in record["deal"].items()}
    dealt = [s for s, h in hands.items() if h]
    assert dealt and all(sum(hands[s].values()) == 9 for s in dealt), "nine cards each"
    pack = Counter[Card]()
    for h in hands.values():
        pack.update(h)
    flip = [Card.parse(record["flip"])] if record.get("flip") else []
    pack.update(flip)
    pack_left = PACK - sum(pack.values())
    rebuilt: list[Card] = []  # the stock turned over from the pile; its top is the last
    pile: list[Card] = []
    knock: dict[str, Any] | None = None
    taker: int | None = None
    for a in record["actions"]:
        kind, seat = a["type"], a["seat"]
        cards = list(parse_cards(a.get("cards", [])))
        where = f"action {a['seq']} ({kind})"
        assert taker is None or kind in ("claim", "cut", "pass", "knock"), f"{where}: the taken card is not shown"
        if kind == "rebuild":
            assert seat is None and pack_left == 0 and not rebuilt, f"{where}: the stock was not empty"
            assert pile and a["top"] == str(pile[-1]) and cards == pile[:-1], f"{where}: not the pile less its top"
            rebuilt = cards[::-1]
            pile = pile[-1:]
        elif kind == "draw":
            card = Card.parse(a["card"])
            if a["value"] == "pile":
                assert pile and pile[-1] == card, f"{where}: {card} is not the pile's top"
                pile.pop()
            elif rebuilt:
                assert rebuilt.pop() == card, f"{where}: {card} is not the rebuilt stock's top"
            else:
                assert pack_left > 0, f"{where}: the stock is empty"
                pack_left -= 1
                pack[card] += 1
            hands[seat][card] += 1
        elif kind == "discard":
            assert len(cards) == 1 and hands[seat][cards[0]] > 0, f"{where}: {cards} not in hand"
            hands[seat][cards[0]] -= 1
            pile.append(cards[0])
        elif kind in ("claim", "cut"):
            # Every answer names the window's card; the claimant who took it has it once the
            # window closes, which is before their knock (the answers may come in any order).
            assert pile and a["card"] == str(pile[-1]), f"{where}: {a['card']} is not the discard in the window"
            if a.get("outcome") == "took":
                taker = seat
        elif kind == "knock":
            if taker is not None:
                assert taker == seat, f"{where}: {taker} took the discard but {seat} knocks"
                hands[seat][pile.pop()] += 1
                taker = None
            held = +hands[seat]
            assert sum(held.values()) == 10, f"{where}: a knock holds ten cards"
            shown = Counter(c for meld in a["melds"] for c in parse_cards(meld))
            shown.update(cards)
            assert shown == held, f"{where}: the melds and the discard are not the hand"
            for c in cards:
                hands[seat][c] -= 1
                pile.append(c)
            knock = {"seat": seat, "melds": a["melds"], "discard": a["cards"][0] if cards else None}
        else:
            assert kind in NO_CARDS and not cards, f"{where}: unknown action or cards moved without a rule"
    result_knock = record["result"].get("knock")
    if result_knock is not None:
        assert knock is not None and {k: result_knock[k] for k in knock} == knock
    everywhere = Counter(pile) + Counter(rebuilt) + Counter(flip)
    for h in hands.values():
        everywhere.update(+h)
    assert everywhere == pack, "a card is in two places, or lost"
    assert max(pack.values()) <= 2 and sum(pack.values()) + pack_left == PACK
