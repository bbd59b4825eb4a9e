"""The Cacho search's race: which candidates stay in after a look at the deals so far."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from cardtui.engine.bots.cacho_search import race


def test_a_clear_loser_leaves_and_a_close_one_stays() -> None:
    rng = random.Random(3)
    base = [rng.gauss(0, 3) for _ in range(60)]
    weights = [1.0] * 60
    lead = [x + 2.0 for x in base]  # 2 chips better on every deal
    close = [x + 2.0 + rng.gauss(0, 3) for x in base]  # as good on average, very noisy
    assert race([0, 1], [lead, base], weights) == [0]
    kept = race([0, 1, 2], [lead, base, close], weights)
    assert kept == [0, 2]


def test_the_same_choice_on_every_deal_leaves() -> None:
    values = [[1.0, -2.0, 3.0, 0.0] * 10, [1.0, -2.0, 3.0, 0.0] * 10]
    assert len(race([0, 1], values, [1.0] * 40)) == 1


def test_surely_close_candidates_end_the_race() -> None:
    rng = random.Random(5)
    base = [rng.gauss(0, 3) for _ in range(300)]
    near = [x + rng.gauss(0.0, 0.01) for x in base]  # within a hundredth of a chip on every deal
    assert len(race([0, 1], [base, near], [1.0] * 300)) == 1


@given(st.lists(st.tuples(st.floats(-20, 20), st.floats(-20, 20), st.floats(0.01, 1.0)), min_size=2, max_size=80))
def test_the_leader_always_stays(rows: list[tuple[float, float, float]]) -> None:
    a = [r[0] for r in rows]
    b = [r[1] for r in rows]
    w = [r[2] for r in rows]
    kept = race([0, 1], [a, b], w)
    lead = 0 if sum(x * y for x, y in zip(w, a, strict=True)) >= sum(x * y for x, y in zip(w, b, strict=True)) else 1
    assert lead in kept or abs(sum(x * (y - z) for x, y, z in zip(w, a, b, strict=True))) < 1e-9
