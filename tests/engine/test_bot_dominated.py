"""No level makes a dominated move at any score band that ends a match (issue 39): ``bench.dominated``.

Each position is rigged with the engines' own rules; every level is asked over ten seeds and must
never pick a choice that can only lose there (the suite's module says why each one does).
"""

from __future__ import annotations

import pytest

from bench import dominated


@pytest.mark.parametrize("position", dominated.POSITIONS, ids=lambda p: p.name)
def test_no_level_makes_the_dominated_choice(position: dominated.Position) -> None:
    for level in dominated.LEVEL_NAMES:
        assert dominated.dominated_picks(position, level) == [], level
