"""`make bench --only analysis`: the marks of the analysis of a hand (``engine.analysis``).

- the blunder suite (``bench.analysis_rigs``), ten seeds each: the wrong move flagged at least a
  mistake in at least 90% of seeds, the right move never flagged;
- hands of hard against hard: at most 5% of hard's own decisions flagged a mistake or worse;
- the same hands analysed again with another seed: the two agree on every mistake and blunder
  (a decision flagged a mistake or worse by one is by the other) at least 95% of the time;
- the wall time of one hand's analysis in one process (the pool idle), its 95th percentile:
  at most 3 s.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from bench.analysis_rigs import RIGS, SEEDS
from cardtui.engine import analysis
from cardtui.engine.analysis import FLAGGED, SERIOUS
from cardtui.engine.games import get

TABLES = (("truco_argentino", 2), ("truco_paulista", 4), ("cacho", 3), ("cacheta", 2), ("pifpaf", 3))


def hard_hands(game: str, players: int, count: int, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` hands of ``game`` with every seat played by the hard bot."""
    rules = get(game)
    rng = random.Random(seed)
    names = [f"hard{i}" for i in range(players)]
    match, _ = rules.open({}, rules.seat_infos(names), seed)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        if match.hand_over():
            record = match.history()
            assert record is not None
            out.append(record)
            if match.match_over():
                match, _ = rules.open({}, rules.seat_infos(names), rng.getrandbits(32))
            else:
                match.next_hand(rng.getrandbits(63))
            continue
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        match.apply(seat, match.bot_action(seat, rng, "hard"))
    return out


def blunder_suite(print: Callable[[str], None]) -> bool:
    print(f"-- the blunder suite: {len(RIGS)} rigged positions, {len(SEEDS)} seeds each")
    met = True
    for rig in RIGS:
        stake = 3.0 if rig.game in ("cacho", "pifpaf") else 1.0
        named = sum(analysis.analyse_position(rig.position(rig.wrong), s, stake).label in SERIOUS for s in SEEDS)
        flagged = sum(analysis.analyse_position(rig.position(rig.right), s, stake).label in FLAGGED for s in SEEDS)
        ok = named >= 0.9 * len(SEEDS) and flagged == 0
        met &= ok
        print(f"  {rig.name}: wrong flagged ≥ mistake {named}/{len(SEEDS)}, right flagged {flagged}/{len(SEEDS)}"
              + ("" if ok else ": NOT met"))
    return met


def self_play(print: Callable[[str], None], hands: int, games: tuple[tuple[str, int], ...] = TABLES) -> bool:
    print("-- hard against hard, analysed twice (seeds 1 and 2); wall time of one hand's analysis, one process")
    met = True
    for game, players in games:
        count = hands if game.startswith("truco") or game == "cacho" else max(2, hands // 25)
        records = hard_hands(game, players, count)
        times, decisions, serious, agree, either = [], 0, 0, 0, 0
        for record in records:
            t = time.perf_counter()
            first = analysis.analyse(record, seed=1)
            times.append(time.perf_counter() - t)
            second = analysis.analyse(record, seed=2)
            decisions += len(first.moments)
            serious += sum(m.label in SERIOUS for m in first.moments)
            for a, b in zip(first.moments, second.moments, strict=True):
                if a.label in SERIOUS or b.label in SERIOUS:
                    either += 1
                    agree += (a.label in SERIOUS) == (b.label in SERIOUS)
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        share = serious / max(1, decisions)
        agreement = agree / either if either else 1.0
        ok = share <= 0.05 and agreement >= 0.95 and p95 <= 3.0
        met &= ok
        print(f"  {game} {players}p: {len(records)} hands, {decisions} decisions, flagged ≥ mistake "
              f"{100 * share:.1f}% (mark ≤ 5%), two seeds agree on {agree}/{either} flagged "
              f"({100 * agreement:.0f}%, mark ≥ 95%), one hand p50 {times[len(times) // 2]:.2f} s p95 {p95:.2f} s "
              f"(mark ≤ 3 s)" + ("" if ok else ": NOT met"))
    return met


def run(print: Callable[[str], None], quick: bool = False, hands: int = 500) -> bool:
    suite = blunder_suite(print)
    games = TABLES[:3] if quick else TABLES
    played = self_play(print, 20 if quick else hands, games)
    print(f"  analysis marks: {'met' if suite and played else 'NOT all met'}")
    return suite and played
