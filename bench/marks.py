"""The bots' marks (issues 12, 28, 39 and 75), measured with the arena: ``make bench ARGS="--only arena"``.

Each mark is a duplicate-deal arena run of one player against another with the 95% lower bound
it must clear. A run plays at least ``MIN_MATCHES`` matches and stops once the interval decides
(its lower bound above the mark, or its upper bound at or below it), after ``matches`` matches
(1,000 by default), or after ``seconds`` of wall time; each line says how many matches it rests
on. Two-sided games (truco, Cacho and Cacheta heads-up) count A's matches won, Wilson intervals;
multi-way games (Cacho at four, Pif Paf at three: A in one seat, B in every other) count A's
share of the matches won against the even share, and A's chips per hand, which must be above 0.

- issue 39: hard well above normal in every game (``HARD_VS_NORMAL``), normal above every
  baseline the arena has, the ten-line Cacheta players included (``NORMAL_VS_BASELINES``), easy
  still beatable (``HARD_VS_EASY``);
- issue 75: hard against every bot of the opponent pool (``POOL_MARKS``) and against MiniTruco's bots where
  the bench can run them (``OUTSIDE_MARKS``, ``bench.outside_truco``);
- issues 12 and 28: hard against today's bots and the strongest baselines (``MARKS``), the
  exploiters beside hard's rate against normal (``EXPLOITS``: hard must beat each by at least as
  much), hard's decision time (p99 ≤ 200 ms) and easy's (p99 ≤ 5 ms).

The dominated-move suite (``bench.dominated``) runs last: every level at every score band that
ends a match, ten seeds a position, the dominated choice never made.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bench import outside_truco
from cardtui.arena import ArenaResult, arena, rotations
from cardtui.engine.bots.pool import STYLES
from cardtui.engine.games import entry, get

MATCHES = 1000
"""Duplicate matches a mark asks for, unless its interval decides sooner."""
MIN_MATCHES = 100
"""Matches a mark plays before its interval may decide."""
PIFPAF_HANDS = 20
"""Hands per Pif Paf match where a mark says no other: a session played to the last chip lasts hundreds of hands
(a minute or two of the bots' play), so most Pif Paf marks play 20 hands a match and chips per hand is the figure;
hard against normal is also measured over whole sessions, the match the rules play (``Mark.hands``)."""
HARD_P99 = 0.200
EASY_P99 = 0.005


@dataclass(frozen=True)
class Mark:
    game: str
    players: int
    a: str
    b: str
    need: float
    """Two-sided: the 95% lower bound of A's win rate must be above this; multi-way: that of A's share
    of the matches, and A's chips per hand must be above 0 (Pif Paf: by at least ``need`` when it is
    given as chips, see ``chips``)."""
    chips_need: float | None = None
    """Old Pif Paf marks: A's chips per hand must reach this, with an interval that excludes 0."""
    options: tuple[tuple[str, str], ...] = ()
    """Table options other than the defaults (truco paulista's ``truco_decides = hand``, MiniTruco's game)."""
    hands: int | None = None
    """Hands a match lasts at most: None, the game's usual (Pif Paf ``PIFPAF_HANDS``, the rest to the match's end);
    0, to the match's end (a Pif Paf session: until one player holds every chip)."""

    @property
    def match_hands(self) -> int:
        """Hands a match lasts at most, as the arena takes it (0: to the match's end)."""
        if self.hands is not None:
            return self.hands
        return PIFPAF_HANDS if self.game == "pifpaf" else 0

    @property
    def multiway(self) -> bool:
        return self.players > 2 and not get(self.game).teams

    @property
    def even(self) -> float:
        return 1 / self.players if self.multiway else 0.5

    def label(self) -> str:
        if self.chips_need is not None:
            goal = f"≥ {self.chips_need:+.2f} chips/hand"
        elif self.multiway:
            goal = f"share ≥ {self.need:.1%}, chips/hand > 0"
        else:
            goal = f"≥ {self.need:.0%}"
        table = "".join(f", {k} = {v}" for k, v in self.options)
        length = ""
        if self.game == "pifpaf":
            length = f", {self.match_hands} hands a match" if self.match_hands else ", whole sessions"
        return f"{self.game} {self.players}p{table} {self.a} vs {self.b}{length} ({goal})"

    def verdict(self, r: ArenaResult) -> bool | None:
        """Met, not met, or None while the interval does not decide."""
        lo, hi = r.rate.interval
        clo, chi = r.chips.interval
        if self.chips_need is not None:
            if clo > 0 and r.chips.mean >= self.chips_need and clo > self.chips_need - (r.chips.mean - clo):
                return True
            return False if chi < self.chips_need else None
        if lo > self.need and (not self.multiway or clo > 0):
            return True
        if hi <= self.need or (self.multiway and chi <= 0):
            return False
        return None


def _even_plus(game: str, players: int, points: float) -> float:
    return (0.5 if players == 2 or get(game).teams else 1 / players) + points


HARD_VS_NORMAL = (
    Mark("truco_paulista", 4, "hard", "normal", 0.60),
    Mark("truco_argentino", 2, "hard", "normal", 0.60),
    Mark("truco_argentino", 4, "hard", "normal", 0.60),
    Mark("cacho", 2, "hard", "normal", 0.60),
    Mark("cacheta", 2, "hard", "normal", 0.60),
    Mark("cacho", 4, "hard", "normal", _even_plus("cacho", 4, 0.10)),
    Mark("pifpaf", 3, "hard", "normal", _even_plus("pifpaf", 3, 0.10)),
    Mark("pifpaf", 3, "hard", "normal", _even_plus("pifpaf", 3, 0.10), hands=0),
)
"""Issue 39: hard's lower bound at 60% in every two-sided game; ten points above an even share, and chips
per hand above 0, in every multi-way one. Pif Paf's is measured twice: over 20-hand matches (quick; chips a hand
the figure) and over whole sessions, the match as the rules play it, where an edge of a few tenths of a chip a
hand adds up over the hundreds of hands a session lasts."""
TABLES = (("truco_paulista", 4), ("truco_argentino", 2), ("truco_argentino", 4), ("cacho", 2), ("cacho", 4),
          ("cacheta", 2), ("pifpaf", 3))
"""The games and table sizes the marks are measured at."""
NORMAL_VS_BASELINES = tuple(
    Mark(game, players, "normal", b, _even_plus(game, players, 0.05))
    for game, players in TABLES
    for b in ("random", *entry(game).baselines, "today")
)
"""Issue 39: normal above every baseline the arena has (two-sided: lower bound above 55%; multi-way: five
points above an even share, chips per hand above 0)."""
HARD_VS_EASY = tuple(Mark(game, players, "hard", "easy", 0.75) for game, players in TABLES
                     if players == 2 or get(game).teams)
"""Issue 39: easy stays beatable (two-sided games: hard's lower bound at 75%)."""
MARKS = (
    Mark("cacheta", 2, "hard", "today", 0.60),
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
    Mark("pifpaf", 3, "hard", "today", 0.0, chips_need=0.10),
    Mark("pifpaf", 3, "hard", "pifpaf-isolated", 0.0, chips_need=0.10),
)
"""Issues 12 and 28: hard against today's bots and the strongest simple baselines."""
POOL_TABLES = (("truco_paulista", 4), ("truco_argentino", 2), ("truco_argentino", 4), ("cacho", 2), ("cacho", 4))
"""The games and table sizes the opponent pool plays at (``engine.bots.pool``)."""
POOL_MARKS = tuple(
    Mark(game, players, "hard", f"pool-{style}", _even_plus(game, players, 0.10))
    for game, players in POOL_TABLES
    for style in STYLES
)
"""Issue 75: hard at 60% against every bot of the pool in every two-sided game it plays (ten points above an
even share, and chips per hand above 0, at Cacho with four)."""
OUTSIDE_MARKS = tuple(
    Mark("truco_paulista", 4, "hard", name, 0.60, options=options)
    for name in outside_truco.PLAYERS
    for options in ((), (("truco_decides", "hand"),))
)
"""Issue 75: hard at 60% against MiniTruco's strategies, at our default rules and at the game MiniTruco knows
(``truco_decides = hand``); measured only where ``bench.outside_truco`` can run them."""
EXPLOITS = (
    ("truco_argentino", 2, ("always-accept", "never-accept")),
    ("truco_paulista", 4, ("always-accept", "never-accept")),
    ("cacho", 2, ("always-call", "nuts-call")),
)
"""Issue 28's exploiters: hard must beat each by at least as much as it beats normal (the exploiter
run's 95% lower bound at or above the win rate against normal); normal's rate against each is printed beside."""
EASY = (("cacheta", 2), ("cacho", 2), ("truco_argentino", 2), ("truco_paulista", 4), ("pifpaf", 3))


def measure(mark: Mark, seconds: float, matches: int = MATCHES, seed: int = 12) -> ArenaResult:
    per_deal = len(rotations(mark.game, mark.players))
    pairs = -(-matches // per_deal)

    def decided(r: ArenaResult) -> bool:
        return r.matches >= MIN_MATCHES and mark.verdict(r) is not None

    b = outside_truco.PLAYERS.get(mark.b, mark.b)
    return arena(mark.game, mark.players, mark.a, b, pairs, seed, dict(mark.options), hands=mark.match_hands,
                 seconds=seconds, stop=decided, watch=outside_truco.watch_for(b))


def figure(mark: Mark, r: ArenaResult) -> str:
    lo, hi = r.rate.interval
    clo, chi = r.chips.interval
    chips = f"{r.chips.mean:+.3f} chips/hand ({clo:+.3f} to {chi:+.3f})"
    if mark.chips_need is not None:
        return f"{chips}; matches won {r.rate.rate:.1%} ({lo:.1%}–{hi:.1%})"
    if mark.multiway:
        return f"share {r.rate.rate:.1%} ({lo:.1%}–{hi:.1%}; even {mark.even:.1%}), {chips}"
    return f"{r.rate.rate:.1%} ({lo:.1%}–{hi:.1%})"


def line(mark: Mark, r: ArenaResult) -> str:
    verdict = mark.verdict(r)
    ok = "met" if verdict else "NOT met" if verdict is False else "undecided"
    few = "" if verdict is not None or r.matches >= MATCHES else f" (fewer than {MATCHES})"
    out = f"  {mark.label()}: {figure(mark, r)}, {r.matches} matches{few}: {ok}"
    if mark.a == "hard":
        t = r.times["hard"]
        out += f"; hard p50 {t.p50 * 1000:.1f} ms, p99 {t.p99 * 1000:.1f} ms" + (
            "" if t.p99 <= HARD_P99 else " (p99 over 200 ms: NOT met)")
    return out


def run(print: Callable[[str], None], seconds: float, only: str = "", matches: int = MATCHES, seed: int = 12) -> None:
    print(f"== arena marks: at least {MIN_MATCHES} duplicate matches each, until the 95% interval decides or "
          f"{matches} matches, at most {seconds:.0f} s a mark, deals from seed {seed}")
    done: dict[str, ArenaResult] = {}

    def result(mark: Mark) -> ArenaResult:
        key = f"{mark.game} {mark.players} {mark.a} {mark.b} {mark.options} {mark.hands}"
        if key not in done:
            done[key] = measure(mark, seconds, matches, seed)
        return done[key]

    outside = outside_truco.missing()
    for title, group in (("hard vs normal (issue 39)", HARD_VS_NORMAL),
                         ("normal vs every baseline (issue 39)", NORMAL_VS_BASELINES),
                         ("hard vs easy (issue 39)", HARD_VS_EASY),
                         ("hard vs today's bots and the baselines (issues 12 and 28)", MARKS),
                         ("hard vs the opponent pool (issue 75)", POOL_MARKS),
                         ("hard vs bots written elsewhere: MiniTruco (issue 75)", OUTSIDE_MARKS)):
        chosen = [m for m in group if not only or only in m.label()]
        if chosen:
            print(f"-- {title}")
        if chosen and group is OUTSIDE_MARKS and outside is not None:
            print(f"  skipped: {outside}")
            continue
        for mark in chosen:
            print(line(mark, result(mark)))
    for game, players, exploiters in EXPLOITS:
        versus = Mark(game, players, "hard", "normal", 0.5)
        if only and only not in versus.label() and not any(only in x for x in exploiters):
            continue
        base = result(versus).rate
        print(f"-- exploiters, {game} {players}p: hard vs normal {base.rate:.1%} (95% CI {base.interval[0]:.1%}–"
              f"{base.interval[1]:.1%}), {base.matches} matches")
        for name in exploiters:
            r = result(Mark(game, players, "hard", name, base.rate))
            lo, hi = r.rate.interval
            ok = "met" if lo >= base.rate else "NOT met"
            beside = result(Mark(game, players, "normal", name, 0.55)).rate
            print(f"  hard vs {name} (lower bound ≥ {base.rate:.1%}, as against normal): {r.rate.rate:.1%} "
                  f"(95% CI {lo:.1%}–{hi:.1%}), {r.matches} matches: {ok}; normal vs {name} beside it: "
                  f"{beside.rate:.1%} ({beside.interval[0]:.1%}–{beside.interval[1]:.1%}), {beside.matches} matches")
    for game, players in EASY:
        if only and only not in game:
            continue
        r = arena(game, players, "easy", "today", 20, 3, hands=PIFPAF_HANDS if game == "pifpaf" else 0,
                  seconds=min(seconds, 60))
        t = r.times["easy"]
        ok = "met" if t.p99 <= EASY_P99 else "NOT met"
        print(f"  {game} {players}p easy decision time: p50 {t.p50 * 1000:.2f} ms, p99 {t.p99 * 1000:.2f} ms "
              f"over {len(t.samples)} decisions (≤ 5 ms): {ok}")
    if not only or only in "dominated":
        from bench import dominated

        dominated.run(print)
