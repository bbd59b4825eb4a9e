"""Two players face each other on duplicate deals: win rates with Wilson intervals, decision times.

``arena(game, players, a, b, pairs, seed)`` deals ``pairs`` deals and plays each of them
more than once with the players' places swapped, so luck of the cards cancels out: in a
partnership game A's team is team 0, then team 1; elsewhere A takes one seat and B every
other, and A's seat rotates round the whole table (each deal is played once per seat).
Every hand of a deal's match is dealt from the same seeds in each of its replays.

A match counts for A when A's side finishes ahead. Pif Paf sessions run until one player
holds every chip, which takes long, so ``hands`` may cut matches short: each match then
plays that many hands, and the figure that matters is A's chips per hand (a mean over the
deals, with a normal 95% interval). Each decision of each player is timed (the policy's
call only; the view and the legal actions are the engine's) in CPU time of the thread, so
the figure is what one core spends, whatever else the machine is running.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from cardtui.engine.bots.players import Policy
from cardtui.engine.core import Match
from cardtui.engine.games import get, player, remembers
from cardtui.engine.options import Raw
from cardtui.sim import WinRate

MAX_HANDS = 2000
"""A match still running after this many hands is stopped and counted for nobody."""


@dataclass
class Timing:
    """How long one player's decisions took, in seconds of CPU time."""

    samples: list[float] = field(default_factory=list)

    def quantile(self, q: float) -> float:
        if not self.samples:
            return 0.0
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def p50(self) -> float:
        return self.quantile(0.50)

    @property
    def p99(self) -> float:
        return self.quantile(0.99)

    def line(self, who: str) -> str:
        return f"{who} p50 {self.p50 * 1000:.2f} ms, p99 {self.p99 * 1000:.2f} ms ({len(self.samples)} decisions)"


@dataclass
class Mean:
    """A mean with a normal 95% interval (for chips per hand)."""

    values: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.values) if self.values else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        n = len(self.values)
        if n < 2:
            return (-math.inf, math.inf)
        half = 1.96 * statistics.stdev(self.values) / math.sqrt(n)
        return (self.mean - half, self.mean + half)


@dataclass
class ArenaResult:
    game: str
    players: int
    a: str
    b: str
    pairs: int
    seed: int
    hands_per_match: int
    wins: int = 0
    matches: int = 0
    unfinished: int = 0
    hands: int = 0
    chips: Mean = field(default_factory=Mean)
    """A's chips per hand (in points games, A's points less B's), one value per deal (the mean over its replays)."""
    times: dict[str, Timing] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def match_length(self) -> float:
        """How many hands a match lasted, on average (one cut short at ``hands_per_match`` counts those it played)."""
        played = self.matches + self.unfinished
        return self.hands / played if played else 0.0

    @property
    def rate(self) -> WinRate:
        return WinRate(self.wins, self.matches)

    def lines(self) -> list[str]:
        rate = self.rate
        lo, hi = rate.interval
        fair = 0.5 if self.players == 2 or get(self.game).teams else 1 / self.players
        out = [
            f"{self.game}, {self.players} players: {self.a} (A) vs {self.b} (B), {self.pairs} deals, seed {self.seed}",
            f"  A wins {self.wins} of {self.matches} matches: {rate.rate:.1%} (95% CI {lo:.1%}–{hi:.1%}; "
            f"an even match is {fair:.0%})" + (f", {self.unfinished} unfinished" if self.unfinished else ""),
        ]
        clo, chi = self.chips.interval
        out.append(f"  A's chips per hand (points games: A's points less B's): {self.chips.mean:+.3f} "
                   f"(95% CI {clo:+.3f} to {chi:+.3f}) over {self.hands} hands, {self.match_length:.1f} a match")
        out.append("  decision time: " + "; ".join(t.line(who) for who, t in self.times.items()))
        out.append(f"  {self.seconds:.1f} s")
        return out


def rotations(game: str, players: int) -> list[list[bool]]:
    """For each replay of a deal, which seats A plays (the rest are B's)."""
    if get(game).teams:
        return [[s % 2 == side for s in range(players)] for side in (0, 1)]
    return [[s == a for s in range(players)] for a in range(players)]


def arena(
    game: str,
    players: int,
    a: str,
    b: str,
    pairs: int,
    seed: int = 1,
    options: dict[str, Raw] | None = None,
    hands: int = 0,
    progress: Callable[[ArenaResult], None] | None = None,
    policies: tuple[Policy, Policy] | None = None,
    seconds: float = 0.0,
    stop: Callable[[ArenaResult], bool] | None = None,
    watch: Callable[[Match, int], None] | None = None,
) -> ArenaResult:
    """Play ``pairs`` duplicate deals of ``a`` against ``b`` (names ``player`` knows); with
    ``seconds``, stop after the deal that runs past that much wall time, and with ``stop``, after
    the deal at which it says so (``pairs`` then says how many deals were played). ``watch`` is
    shown the match before each decision, with the seat about to decide: for a player that studies
    another's policy on copies of the table (the exploitability bench), never for one that plays."""
    rules = get(game)
    if players not in rules.player_counts:
        allowed = ", ".join(map(str, rules.player_counts))
        raise ValueError(f"{rules.title} is played by {allowed} players, not {players}.")
    pa, pb = policies or (player(game, a), player(game, b))
    remembering = (remembers(game, pa), remembers(game, pb))
    opts = options or {}
    rules.check_options(opts)
    seats = rules.seat_infos([f"p{i}" for i in range(players)])
    result = ArenaResult(game, players, a, b, pairs, seed, hands)
    ta = result.times.setdefault("A" if a == b else a, Timing())
    tb = result.times.setdefault("B" if a == b else b, Timing())
    master = random.Random(seed)
    started = time.perf_counter()
    for done in range(1, pairs + 1):
        deal_seed = master.getrandbits(63)
        per_hand: list[float] = []
        for r, mine in enumerate(rotations(game, players)):
            hand_seeds = random.Random(deal_seed)
            turn_rng = random.Random(deal_seed ^ (r + 1) * 0x9E3779B97F4A7C15)
            bot_rng = random.Random(deal_seed + 7919 * (r + 1))
            match, _ = rules.open(opts, seats, hand_seeds.getrandbits(63))
            played = 0
            a_seat = mine.index(True)
            start = match.scores()
            while True:
                if match.hand_over():
                    played += 1
                    if match.match_over() or played >= (hands or MAX_HANDS):
                        break
                    match.next_hand(hand_seeds.getrandbits(63))
                    continue
                waiting = [s for s in match.to_act() if match.legal_actions(s)]
                if not waiting:
                    raise RuntimeError("The hand is waiting on nobody; the engine is stuck.")
                seat = waiting[int(turn_rng.random() * len(waiting))] if len(waiting) > 1 else waiting[0]
                if watch is not None:
                    watch(match, seat)
                legal = match.legal_actions(seat)
                view = match.view(seat)
                policy, timing = (pa, ta) if mine[seat] else (pb, tb)
                t0 = time.thread_time()
                if remembering[0 if mine[seat] else 1]:  # the seat's memory of the match, as at a table
                    action = policy(view, legal, bot_rng, memory=match.memory(seat))  # type: ignore[call-arg]
                else:
                    action = policy(view, legal, bot_rng)
                timing.samples.append(time.thread_time() - t0)
                match.apply(seat, action)
            result.hands += played
            scores = match.scores()
            gain = [scores[s] - start[s] for s in range(players)]
            if sum(scores) == sum(start):  # chips: A's own
                per_hand.append(gain[a_seat] / played)
            else:  # points: A's side's over B's
                others = [gain[s] for s in range(players) if not mine[s]]
                per_hand.append((gain[a_seat] - statistics.fmean(others)) / played)
            if match.match_over() or hands:
                result.matches += 1
                top = [s for s in range(players) if scores[s] == max(scores)]
                result.wins += all(mine[s] for s in top)
            else:
                result.unfinished += 1
        result.chips.values.append(statistics.fmean(per_hand))
        if progress is not None:
            progress(result)
        if (seconds and time.perf_counter() - started > seconds) or (stop is not None and stop(result)):
            result.pairs = done
            break
    result.seconds = time.perf_counter() - started
    return result

