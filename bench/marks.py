"""The bots' marks (issues 12 and 28), measured with the arena: ``make bench ARGS="--only arena"``.

Each mark is a duplicate-deal arena run of a level against today's bot or the strongest
simple baseline, with the 95% lower bound it must clear; the decision-time marks are read
off the same runs (hard's p99 ≤ 200 ms) and off short runs of easy (p99 ≤ 5 ms). A run
stops after ``seconds`` of wall time, so each line says how many matches it rests on.
Issue 28 adds Cacheta hard against normal, and the exploiters (``EXPLOITS``): fixed answers
that farm bluffs made too often or too rarely, which hard must beat by at least as much as it
beats normal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardtui.arena import ArenaResult, arena, rotations

MATCHES = 2000
"""Duplicate matches a mark asks for."""
PIFPAF_HANDS = 20
"""Hands per Pif Paf match: a session played to the last chip takes too long; chips per hand is the figure."""
HARD_P99 = 0.200
EASY_P99 = 0.005


@dataclass(frozen=True)
class Mark:
    game: str
    players: int
    a: str
    b: str
    need: float
    """The 95% lower bound of A's win rate must be above this (Pif Paf: A's chips per hand must reach it,
    with an interval that excludes 0)."""

    @property
    def chips(self) -> bool:
        return self.game == "pifpaf"

    def label(self) -> str:
        goal = f"≥ {self.need:+.2f} chips/hand" if self.chips else f"≥ {self.need:.0%}"
        return f"{self.game} {self.players}p {self.a} vs {self.b} ({goal})"


MARKS = (
    Mark("cacheta", 2, "hard", "today", 0.60),
    Mark("cacheta", 2, "hard", "normal", 0.60),
    Mark("cacheta", 2, "hard", "cacheta-isolated", 0.60),
    Mark("cacho", 2, "hard", "today", 0.60),
    Mark("cacho", 2, "hard", "cacho-value", 0.60),
    Mark("cacho", 4, "hard", "today", 0.30),
    Mark("cacho", 4, "hard", "cacho-value", 0.30),
    Mark("truco_argentino", 2, "hard", "today", 0.60),
    Mark("truco_argentino", 2, "hard", "argentino-caller", 0.60),
    Mark("truco_argentino", 4, "hard", "today", 0.60),
    Mark("truco_argentino", 4, "hard", "argentino-caller", 0.60),
    Mark("truco_paulista", 4, "hard", "today", 0.75),
    Mark("truco_paulista", 4, "hard", "paulista-trick-aware", 0.60),
    Mark("pifpaf", 3, "hard", "today", 0.10),
    Mark("pifpaf", 3, "hard", "pifpaf-isolated", 0.10),
)
EXPLOITS = (
    ("truco_argentino", 2, ("always-accept", "never-accept")),
    ("truco_paulista", 4, ("always-accept", "never-accept")),
    ("cacho", 2, ("always-call", "nuts-call")),
)
"""Issue 28's exploiters: hard must beat each by at least as much as it beats normal (the exploiter
run's 95% lower bound at or above the win rate against normal)."""
EASY = (("cacheta", 2), ("cacho", 2), ("truco_argentino", 2), ("truco_paulista", 4), ("pifpaf", 3))


def measure(mark: Mark, seconds: float, matches: int = MATCHES, seed: int = 12) -> ArenaResult:
    pairs = -(-matches // len(rotations(mark.game, mark.players)))
    hands = PIFPAF_HANDS if mark.chips else 0
    return arena(mark.game, mark.players, mark.a, mark.b, pairs, seed, hands=hands, seconds=seconds)


def line(mark: Mark, r: ArenaResult) -> str:
    t = r.times[mark.a]
    if mark.chips:
        lo, hi = r.chips.interval
        got = f"{r.chips.mean:+.3f} chips/hand (95% CI {lo:+.3f} to {hi:+.3f})"
        met = r.chips.mean >= mark.need and lo > 0
    else:
        lo, hi = r.rate.interval
        got, met = f"{r.rate.rate:.1%} (95% CI {lo:.1%}–{hi:.1%})", lo > mark.need
    ok = "met" if met else "NOT met"
    few = "" if r.matches >= MATCHES else f", fewer than {MATCHES}"
    return (f"  {mark.label()}: {got}, {r.matches} matches{few}; {mark.a} p50 {t.p50 * 1000:.1f} ms, "
            f"p99 {t.p99 * 1000:.1f} ms: {ok}" + ("" if t.p99 <= HARD_P99 else " (p99 over 200 ms)"))


def run(print: Callable[[str], None], seconds: float, only: str = "", matches: int = MATCHES) -> None:
    print(f"== arena marks: {matches} duplicate matches each, at most {seconds:.0f} s a mark")
    for mark in MARKS:
        if only and only not in mark.label():
            continue
        print(line(mark, measure(mark, seconds, matches)))
    for game, players, exploiters in EXPLOITS:
        versus = Mark(game, players, "hard", "normal", 0.5)
        if only and only not in versus.label() and not any(only in x for x in exploiters):
            continue
        base = measure(versus, seconds, matches).rate
        print(f"  {game} {players}p hard vs normal: {base.rate:.1%} (95% CI {base.interval[0]:.1%}–"
              f"{base.interval[1]:.1%}), {base.matches} matches")
        for name in exploiters:
            mark = Mark(game, players, "hard", name, base.rate)
            r = measure(mark, seconds, matches)
            lo, hi = r.rate.interval
            ok = "met" if lo >= base.rate else "NOT met"
            print(f"  {game} {players}p hard vs {name} (lower bound ≥ {base.rate:.1%}, as against normal): "
                  f"{r.rate.rate:.1%} (95% CI {lo:.1%}–{hi:.1%}), {r.matches} matches: {ok}")
    for game, players in EASY:
        if only and only not in game:
            continue
        r = arena(game, players, "easy", "today", 20, 3, hands=PIFPAF_HANDS if game == "pifpaf" else 0,
                  seconds=min(seconds, 60))
        t = r.times["easy"]
        ok = "met" if t.p99 <= EASY_P99 else "NOT met"
        print(f"  {game} {players}p easy decision time: p50 {t.p50 * 1000:.2f} ms, p99 {t.p99 * 1000:.2f} ms "
              f"over {len(t.samples)} decisions (≤ 5 ms): {ok}")
