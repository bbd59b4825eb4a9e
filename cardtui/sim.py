"""Bot hands straight through the engine: hand histories and a summary.

A simulation checks the rules and the histories at scale, so now and then it plays a hand off
the bots' usual path (``detour``), to write what bots seldom do: a Cacho redeal (everyone passes
the first card) and a rummy stock rebuilt (everyone draws from the stock and throws the card
drawn until the stock runs out). With ``fair`` each history also holds ``awaited``, as a server
writes it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from cardtui.engine import family
from cardtui.engine.core import Action, Event, GameView, Match, SeatInfo
from cardtui.engine.fairness import DealSeed, Seed, linked
from cardtui.engine.games import get
from cardtui.engine.history import dumps
from cardtui.engine.options import Raw
from cardtui.fair import SCHEME, SCHEMES, before

DETOUR_EVERY = 8
"""One hand in this many, from the second (the 2nd, the 10th, …), is played off the bots' path
until it has written what the detour is for (``detour``); a Pif Paf hand everyone folds before
play carries the detour on to the next hand."""

DETOURED = frozenset({"CachoRedealt", "RummyStockRebuilt"})
"""The events a detour plays for: once one comes, the bots play the hand on."""


def detour(view: GameView, legal: list[Action]) -> Action | None:
    """A seat's action off the bots' path, or None to let its bot play: what its family plays to write what bots
    seldom do (``engine.family.Family.detour``: in Cacho's round 1 a pass, everyone passing, so the deal is void
    and dealt again; in the rummy games a draw from the stock, the card drawn thrown, every claim window let go,
    until the stock runs out and the pile becomes the stock)."""
    return family.of(view).detour(view, legal)


@dataclass
class SimReport:
    game: str
    players: int
    hands: int = 0
    actions: int = 0
    matches: int = 0
    seconds: float = 0.0
    deltas: list[int] = field(default_factory=list)

    def lines(self) -> list[str]:
        rate = self.hands / self.seconds if self.seconds else 0.0
        out = [
            f"{self.game}, {self.players} players: {self.hands} hands in {self.matches} matches, "
            f"{self.actions} actions, {self.seconds:.2f} s ({rate:,.0f} hands/s)",
            "chip/point deltas per seat: " + ", ".join(f"seat {i}: {d:+d}" for i, d in enumerate(self.deltas)),
        ]
        return out


def simulate(
    game_name: str,
    players: int,
    hands: int,
    seed: int,
    options: dict[str, Raw] | None = None,
    history: IO[str] | None = None,
    on_hand: Callable[[dict[str, Any]], None] | None = None,
    fair: bool = False,
    table: str = "sim",
    level: str = "easy",
    scheme: str = SCHEME,
) -> SimReport:
    """Play ``hands`` hands of bots; every seed comes from ``seed``, so runs repeat exactly.
    The bots play at ``level``: easy by default, the quick one, since a simulation checks the
    rules and the histories at scale, not the bots' strength (that is ``cardtui arena``).

    ``fair``: deal each hand from a fresh ``DealSeed`` (``sim_deal_seed``, under ``scheme``: a run pinned
    under the first version deals as it did) and chain the histories (``prev``), so that ``cardtui verify``
    can check them; otherwise plain seeds.
    """
    rules = get(game_name)
    opts = options or {}
    seats = rules.seat_infos([f"bot {i + 1}" for i in range(players)])
    rng = random.Random(seed)
    report = SimReport(game_name, players, deltas=[0] * players)

    def hand_seed() -> Seed:
        return sim_deal_seed(rng, table, report.hands + 1, players, scheme) if fair else rng.getrandbits(63)

    previous: dict[str, Any] | None = None
    start = time.perf_counter()
    match, _ = rules.open(opts, seats, hand_seed())
    report.matches = 1
    detouring = False
    while report.hands < hands:
        if match.hand_over():
            record = match.history()
            report.hands += 1
            if record is not None:
                record = dict(record, table=table, hand=report.hands, match=report.matches)
                if fair:  # as a server writes it: the seats the deal waited for (every simulated seed came in time)
                    record["awaited"] = sorted(int(s) for s in record["fair"]["player_seeds"])
                    record = previous = linked(record, previous)
                for seat, d in record["result"]["deltas"].items():
                    report.deltas[int(seat)] += int(d)
                if history is not None:
                    history.write(dumps(record) + "\n")
                if on_hand is not None:
                    on_hand(record)
            if report.hands >= hands:
                break
            if match.match_over():
                match, _ = rules.open(opts, seats, hand_seed())
                report.matches += 1
            else:
                match.next_hand(hand_seed())
            detouring = detouring or report.hands % DETOUR_EVERY == 1
            continue
        for seat in match.to_act():
            legal = match.legal_actions(seat)
            if legal:
                action = detour(match.view(seat), legal) if detouring else None
                events: list[Event] = match.apply(seat, action or match.bot_action(seat, rng, level))
                detouring = detouring and not any(e.kind in DETOURED for e in events)
                report.actions += 1
                break
        else:
            raise RuntimeError("The hand is waiting on nobody; the engine is stuck.")
    report.seconds = time.perf_counter() - start
    return report


def sim_deal_seed(rng: random.Random, table: str, hand: int, players: int, scheme: str = SCHEME) -> DealSeed:
    """A fair deal seed for a simulated hand: a server seed and 0 to 3 players' links, with the pledges they
    follow, all from ``rng``.

    A real table draws its server seed from ``secrets``; a simulation draws it from its own
    seed, so that a run repeats exactly.
    """
    server = rng.randbytes(32)
    seats = sorted(rng.sample(range(players), rng.randint(0, min(3, players))))
    links = {s: rng.randbytes(32) for s in seats}  # each the next link of a chain its pledge named (§3a)
    if scheme == SCHEMES[0]:
        return DealSeed(server, tuple(links.items()), table, hand, scheme)
    return DealSeed(server, tuple(links.items()), table, hand, scheme,
                    tuple((s, before(link)) for s, link in links.items()))


@dataclass(frozen=True, slots=True)
class WinRate:
    wins: int
    matches: int

    @property
    def rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson score interval at 95%."""
        n, z = self.matches, 1.96
        if not n:
            return (0.0, 1.0)
        p = self.rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def line(self, what: str) -> str:
        lo, hi = self.interval
        return f"{what}: bots win {self.rate:.1%} of {self.matches} matches (95% CI {lo:.1%}–{hi:.1%})"


def random_policy(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Uniform among the legal actions: the yardstick bots must beat."""
    return rng.choice(legal)


def versus_random(game_name: str, players: int, matches: int, seed: int = 7, level: str | None = None) -> WinRate:
    """Bots on one side (at ``level``; None: the game's default), random play on the other, sides
    swapped every match.

    Partnership games pit team against team; elsewhere seat 0 is the bot and the rest
    play at random. A match counts for the bots when their side finishes ahead.
    """
    rules = get(game_name)
    seats = rules.seat_infos([f"p{i}" for i in range(players)])
    rng = random.Random(seed)
    wins = 0
    for m in range(matches):
        side = m % 2 if rules.teams else m % players
        match, _ = rules.open({}, seats, rng.getrandbits(63))
        while not match.match_over():
            if match.hand_over():
                match.next_hand(rng.getrandbits(63))
                continue
            seat = rng.choice(match.to_act())
            if seats[seat].team == seats[side].team:
                action = match.bot_action(seat, rng) if level is None else match.bot_action(seat, rng, level)
            else:
                action = random_policy(match.view(seat), match.legal_actions(seat), rng)
            match.apply(seat, action)
        wins += winner_side(match, seats) == seats[side].team
    return WinRate(wins, matches)


def winner_side(match: Match, seats: list[SeatInfo]) -> int:
    """The team (or seat) that finished ahead in a finished match."""
    scores = match.scores()
    return seats[max(range(len(scores)), key=lambda s: scores[s])].team
