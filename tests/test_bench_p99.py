"""The interval the load bench puts on the tables' p99 with analyses running (``bench.analysis.p99_ratio``):
it must say "slower" when the turns are, and hold 1 when they are the same machine's noise."""

from __future__ import annotations

import random

from bench.analysis import MARK_P99, p99_ratio


def turns(scale: float, count: int, rng: random.Random, noise: float = 0.0) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for _ in range(count):
        hiccup = 1.0 + rng.uniform(0.0, noise)  # the machine's moment, shared by a turn's acts
        lat = [scale * hiccup * rng.lognormvariate(0.5, 0.4) for _ in range(400)]
        out.append({"acts": len(lat), "rate": 1.0, "lat": lat, "delivered": 0, "expected": 0})
    return out


def test_turns_twice_as_slow_are_told_apart_from_the_mark() -> None:
    rng = random.Random(3)
    ratio, lo, hi = p99_ratio(turns(1.0, 8, rng), turns(2.0, 8, rng), draws=300, rng=random.Random(1))
    assert 1.8 < ratio < 2.2
    assert MARK_P99 < lo <= ratio <= hi


def test_the_same_turns_hold_one_and_noise_widens_the_interval() -> None:
    rng = random.Random(4)
    ratio, lo, hi = p99_ratio(turns(1.0, 8, rng), turns(1.0, 8, rng), draws=300, rng=random.Random(1))
    assert lo <= 1.0 <= hi and abs(ratio - 1.0) < 0.15
    _, nlo, nhi = p99_ratio(turns(1.0, 8, rng, noise=0.6), turns(1.0, 8, rng, noise=0.6), draws=300,
                            rng=random.Random(1))
    assert nhi - nlo > hi - lo, "a machine whose turns differ by more must give a wider interval"
