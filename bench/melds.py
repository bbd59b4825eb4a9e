"""Meld search benchmark: the engine's search against a plain exhaustive one, same hands.

``run()`` times the go-out check (ten cards: all melded, or nine and a discard) and the
completing-cards query (nine cards: every card that lets them go out) on random hands,
for Pif Paf (no wilds) and for Cacheta with 0 to 4 wild cards in hand (chosen evenly).
Two kinds of hand are timed: uniformly random ones (most fail at once) and hands built
from melds with one or two cards changed (the hard, near-out ones). The exhaustive
search, timed on the same hands in the same run, is the baseline for the ratios.
"""

from __future__ import annotations

import builtins
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations

from engine.cards import Card, french_deck
from engine.melds import CACHETA, CARDS, PIFPAF, Ruleset, index, is_meld, melder, wild_cards

HANDS = 300
REFERENCE_HANDS = 40
DECK = tuple(french_deck(copies=2))


class Exhaustive:
    """Try every subset holding the first card (and cards that share its rank or suit, or
    wild cards) as a meld, then the rest, recursively."""

    def __init__(self, rules: Ruleset, wilds: Sequence[Card]) -> None:
        self.rules = rules
        self.wild = frozenset(wilds) if rules.wild_acts else frozenset()
        self.valid = lru_cache(maxsize=None)(self._valid)
        self.part = lru_cache(maxsize=None)(self._part)

    def _valid(self, meld: tuple[Card, ...]) -> bool:
        if is_meld(meld, self.rules):
            return True
        for i, c in enumerate(meld):
            if c in self.wild:
                rest = meld[:i] + meld[i + 1 :]
                if any(is_meld((*rest, x), self.rules) for x in CARDS):
                    return True
        return False

    def _part(self, cards: tuple[Card, ...]) -> bool:
        if not cards:
            return True
        first, rest = cards[0], cards[1:]
        # A meld's natural cards share the first card's rank or suit; wild cards go anywhere.
        if first in self.wild:
            near = list(range(len(rest)))
        else:
            near = [i for i, c in enumerate(rest) if c.rank == first.rank or c.suit is first.suit or c in self.wild]
        for size in range(2, len(near) + 1):
            for combo in combinations(near, size):
                meld = tuple(sorted((first, *(rest[i] for i in combo))))
                if self.valid(meld) and self.part(tuple(c for i, c in enumerate(rest) if i not in combo)):
                    return True
        return False

    def all_melded(self, hand: Sequence[Card]) -> bool:
        return self.part(tuple(sorted(hand, key=lambda c: (c in self.wild, index(c)))))

    def goes_out(self, hand: Sequence[Card]) -> bool:
        hand = tuple(hand)
        return self.all_melded(hand) or any(self.all_melded(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))

    def completing(self, hand: Sequence[Card]) -> tuple[Card, ...]:
        hand = tuple(hand)
        return tuple(x for x in CARDS if hand.count(x) < 2 and self.goes_out((*hand, x)))


def random_hand(rng: random.Random, rules: Ruleset, size: int, near: bool) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """(hand, wild cards): random, or built from melds with a card or two changed."""
    wilds: tuple[Card, ...] = wild_cards(rng.choice(CARDS)) if rules.wild_acts else ()
    while True:
        if near:
            from engine.melds import _natural_melds

            hand: list[Card] = []
            while len(hand) < size:
                hand += [CARDS[i] for i in rng.choice(_natural_melds(rules)) if len(hand) < size]
            for _ in range(rng.choice((1, 2))):
                hand[rng.randrange(size)] = rng.choice(DECK)
        else:
            hand = rng.sample([c for c in DECK if c not in wilds], size)
        if wilds:
            for i, w in enumerate(rng.sample([wilds[0], wilds[0], wilds[1], wilds[1]], rng.randint(0, 4))):
                hand[i] = w
        rng.shuffle(hand)
        if max(Counter(hand).values()) <= 2:
            return tuple(hand), wilds


def _median_us(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e6


def measure(rules: Ruleset, near: bool, seed: int = 7) -> dict[str, float]:
    rng = random.Random(seed)
    tens = [random_hand(rng, rules, 10, near) for _ in range(HANDS)]
    nines = [random_hand(rng, rules, 9, near) for _ in range(HANDS)]
    for _, w in tens + nines:  # build the tables outside the timing
        melder(rules, w)
    out: dict[str, float] = {}
    go = [_median_us(lambda h=h, w=w: melder(rules, w).goes_out(h)) for h, w in tens]
    comp = [_median_us(lambda h=h, w=w: melder(rules, w).completing(h)) for h, w in nines]
    ref_go = [_median_us(lambda h=h, w=w: Exhaustive(rules, w).goes_out(h), 1) for h, w in tens[:REFERENCE_HANDS]]
    ref_comp = [
        _median_us(lambda h=h, w=w: Exhaustive(rules, w).completing(h), 1) for h, w in nines[:REFERENCE_HANDS]
    ]
    out["go_out_us"] = statistics.median(go)
    out["go_out_p95_us"] = sorted(go)[int(len(go) * 0.95)]
    out["completing_us"] = statistics.median(comp)
    out["completing_p95_us"] = sorted(comp)[int(len(comp) * 0.95)]
    out["ref_go_out_us"] = statistics.median(ref_go)
    out["ref_completing_us"] = statistics.median(ref_comp)
    return out


def run(print: Callable[..., None] = builtins.print) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    for name, rules in (("pifpaf", PIFPAF), ("cacheta", CACHETA)):
        for near in (False, True):
            label = f"{name} {'near-out' if near else 'random'} hands"
            r = measure(rules, near)
            results[label] = r
            print(
                f"{label:28} go-out check {r['go_out_us']:7.1f} µs (p95 {r['go_out_p95_us']:7.1f}), "
                f"exhaustive {r['ref_go_out_us']:9.1f} µs, ×{r['ref_go_out_us'] / r['go_out_us']:.0f} faster"
            )
            ratio = r["ref_completing_us"] / r["completing_us"]
            print(
                f"{'':28} completing   {r['completing_us']:7.1f} µs (p95 {r['completing_p95_us']:7.1f}), "
                f"exhaustive {r['ref_completing_us']:9.1f} µs, ×{ratio:.0f} faster"
            )
    return results


if __name__ == "__main__":
    run()
