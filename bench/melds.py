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
from collections.abc import Callable

from cardtui.engine.cards import Card, french_deck
from cardtui.engine.rummy.meld_reference import Exhaustive
from cardtui.engine.rummy.melds import CACHETA, CARDS, PIFPAF, Ruleset, melder, wild_cards

HANDS = 300
REFERENCE_HANDS = 40
DECK = tuple(french_deck(copies=2))


def random_hand(rng: random.Random, rules: Ruleset, size: int, near: bool) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """(hand, wild cards): random, or built from melds with a card or two changed."""
    wilds: tuple[Card, ...] = wild_cards(rng.choice(CARDS)) if rules.wild_acts else ()
    while True:
        if near:
            from cardtui.engine.rummy.melds import _natural_melds

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
