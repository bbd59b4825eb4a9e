"""Tournaments: a night of tables scored by place, VP and GP, for every game (docs/rules.md, "Tournament scoring").

Pure: no clock, no I/O; the draw's random order comes from a seed the caller keeps (and records).

Scoring (docs/rules.md, "Tournament scoring", and §2 ``tournament``): each table's match gives every entry a place
(1 the best; teams share their team's place; equals share a place). **VP** by place 5 / 3 / 2 / 0;
places shared by more than one entry score 3 (first), 2 (second) or 1 (third) instead; fourth
and below score 0 whatever the tie. **GP**: the hands an entry was dealt into in the match, plus
one for winning the table alone. A bye (an entry left over when the entries do not fill whole
tables) scores ``BYE_VP`` and ``BYE_GP``.

Standings: VP, then GP, then head-to-head among the entries still level (+1 for each of them
one finished ahead of at a table they shared, -1 for each it finished behind), then the draw
(the earlier in round 1's seeded draw, the better), so every entry has a place of its own.

Pairing: round 1 seats the entries in the order of a seeded draw; later rounds are Swiss: by
standing, each table filled with entries that have not met yet where that is possible (a
bounded search, then the fewest repeats). Byes go to the lowest standing entries that have not
had one. In team games an entry is a team (pairs in truco paulista), seated together: member
``m`` of the ``j``-th entry at a table takes seat ``j + m * k``, ``k`` entries to a table, so
partners face each other as the rules seat them.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

VP_BY_PLACE = {1: 5, 2: 3, 3: 2}
"""Seed 001: the winner 5, second 3, third 2, fourth and below 0."""
VP_TIED = {1: 3, 2: 2, 3: 1}
"""Seed 001: a place shared by several scores 3 (first), 2 (second), 1 (third) each."""
BYE_VP = 3
"""A bye scores as a second place: more than a loss, less than a win."""
BYE_GP = 0
SEARCH_BUDGET = 20_000
"""Tables tried at most when looking for a round without repeat opponents."""


def victory_points(place: int, tied: bool) -> int:
    """VP for a place at a table; ``tied``: another entry shares it."""
    return (VP_TIED if tied else VP_BY_PLACE).get(place, 0)


def places(scores: Sequence[int], teams: Sequence[int], out_at: Mapping[int, int] | None = None) -> dict[int, int]:
    """Each team's place (1 the best; equals share one): by final score, then by who lasted longer.

    ``out_at``: the hand in which each seat that ran out of chips or points did (the later, the
    better); a seat missing from it never ran out. A team counts its best seat.
    """
    lasted = out_at or {}

    def key(seat: int) -> tuple[int, float]:
        return scores[seat], lasted.get(seat, math.inf)

    best = {team: max(key(s) for s in range(len(teams)) if teams[s] == team) for team in set(teams)}
    return {team: 1 + sum(1 for other in best.values() if other > mine) for team, mine in best.items()}


@dataclass(frozen=True, slots=True)
class Finish:
    """One entry's result at one table."""

    entry: int
    place: int
    hands: int
    """Hands the entry was dealt into (a team: its most)."""
    bot: bool = False
    """A bot played for one of its people during the match (they dropped or were away)."""


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    table: int
    """The table's number in its round, from 0."""
    finishes: tuple[Finish, ...]


@dataclass(frozen=True, slots=True)
class Scored:
    entry: int
    vp: int
    gp: int


def score(result: TableResult) -> tuple[Scored, ...]:
    """VP and GP of each entry at one table (docs/rules.md, "Tournament scoring")."""
    shared = {f.place: sum(1 for g in result.finishes if g.place == f.place) for f in result.finishes}
    out = []
    for f in result.finishes:
        tied = shared[f.place] > 1
        out.append(Scored(f.entry, victory_points(f.place, tied), f.hands + (1 if f.place == 1 and not tied else 0)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """One round's tables (each the entries at it, in seat order of entries) and its byes."""

    number: int
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    entry: int
    vp: int
    gp: int
    head_to_head: int
    draw: int
    """The entry's position in round 1's draw, from 0."""
    played: int
    """Tables played (byes not counted)."""
    byes: int
    bot: bool
    """A bot played for one of its people at some table."""


def standings(draw: Sequence[int], results: Iterable[TableResult], byes: Iterable[int] = ()) -> tuple[Standing, ...]:
    """The standings of every entry in ``draw`` after ``results`` and ``byes`` (an entry once per bye)."""
    results = list(results)
    vp = dict.fromkeys(draw, 0)
    gp = dict.fromkeys(draw, 0)
    played = dict.fromkeys(draw, 0)
    bye_count = dict.fromkeys(draw, 0)
    bot = dict.fromkeys(draw, False)
    for result in results:
        for s in score(result):
            vp[s.entry] += s.vp
            gp[s.entry] += s.gp
            played[s.entry] += 1
        for f in result.finishes:
            bot[f.entry] = bot[f.entry] or f.bot
    for entry in byes:
        vp[entry] += BYE_VP
        gp[entry] += BYE_GP
        bye_count[entry] += 1
    level: dict[tuple[int, int], set[int]] = {}
    for entry in draw:
        level.setdefault((vp[entry], gp[entry]), set()).add(entry)
    h2h = dict.fromkeys(draw, 0)
    for result in results:
        for a, b in itertools.permutations(result.finishes, 2):
            if b.entry in level[(vp[a.entry], gp[a.entry])] and a.place != b.place:
                h2h[a.entry] += 1 if a.place < b.place else -1
    position = {entry: i for i, entry in enumerate(draw)}
    order = sorted(draw, key=lambda e: (-vp[e], -gp[e], -h2h[e], position[e]))
    return tuple(Standing(i, e, vp[e], gp[e], h2h[e], position[e], played[e], bye_count[e], bot[e])
                 for i, e in enumerate(order, start=1))


# -- pairing ------------------------------------------------------------------------------------
def draw(entries: Sequence[int], seed: int) -> list[int]:
    """Round 1's order: the entries shuffled by a generator of their own from ``seed``."""
    order = list(entries)
    random.Random(seed).shuffle(order)
    return order


def _byes(order: Sequence[int], per_table: int, had: Mapping[int, int]) -> list[int]:
    """The lowest standing entries that have had the fewest byes, one for each place left over."""
    extra = len(order) % per_table
    if not extra:
        return []
    ranked = sorted(range(len(order)), key=lambda i: (had.get(order[i], 0), -i))
    return sorted((order[i] for i in ranked[:extra]), key=order.index)


def first_round(order: Sequence[int], per_table: int) -> RoundPlan:
    """Round 1: the draw's order, ``per_table`` entries a table; the last ones left over have byes."""
    byes = _byes(order, per_table, {})
    seated = [e for e in order if e not in byes]
    return RoundPlan(1, tuple(tuple(seated[i:i + per_table]) for i in range(0, len(seated), per_table)), tuple(byes))


def met(plans: Iterable[RoundPlan]) -> dict[int, set[int]]:
    """Who each entry has shared a table with."""
    out: dict[int, set[int]] = {}
    for plan in plans:
        for table in plan.tables:
            for a in table:
                out.setdefault(a, set()).update(b for b in table if b != a)
    return out


def swiss_round(number: int, order: Sequence[int], per_table: int, plans: Sequence[RoundPlan]) -> RoundPlan:
    """A later round: ``order`` is the standings' order; byes first, then tables by standing with
    no two entries that have met where a search within ``SEARCH_BUDGET`` finds such a round."""
    had: dict[int, int] = {}
    for plan in plans:
        for e in plan.byes:
            had[e] = had.get(e, 0) + 1
    byes = _byes(order, per_table, had)
    seated = [e for e in order if e not in byes]
    seen = met(plans)
    tables = _without_repeats(seated, per_table, seen) or _fewest_repeats(seated, per_table, seen)
    return RoundPlan(number, tuple(tables), tuple(byes))


def _without_repeats(seated: list[int], k: int, seen: Mapping[int, set[int]]) -> list[tuple[int, ...]] | None:
    budget = [SEARCH_BUDGET]

    def search(left: list[int]) -> list[tuple[int, ...]] | None:
        if not left:
            return []
        first, rest = left[0], left[1:]
        for others in itertools.combinations(rest, k - 1):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            table = (first, *others)
            if any(b in seen.get(a, ()) for a, b in itertools.combinations(table, 2)):
                continue
            found = search([e for e in rest if e not in others])
            if found is not None:
                return [table, *found]
        return None

    return search(seated)


def _fewest_repeats(seated: list[int], k: int, seen: Mapping[int, set[int]]) -> list[tuple[int, ...]]:
    """Greedy by standing: each table takes, in turn, the best placed entry that repeats the fewest meetings."""
    left = list(seated)
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < k:
            pick = min(left, key=lambda e: (sum(1 for t in table if e in seen.get(t, ())), left.index(e)))
            left.remove(pick)
            table.append(pick)
        tables.append(tuple(table))
    return tables


def seat_of(position: int, member: int, per_table: int) -> int:
    """The seat of member ``member`` of the entry at ``position`` of its table (partners face each other)."""
    return position + member * per_table


# -- from hand histories ------------------------------------------------------------------------
@dataclass
class _Match:
    tour: dict[str, Any]
    hands: list[Mapping[str, Any]] = field(default_factory=list)


StandingOf = Callable[[Mapping[str, Any], bool], Mapping[int, int]]
"""Each seat's standing before (False) or after (True) the hand a history records: its game's ``Rules.standing``
(``cardtui.engine.games.standing``), higher better, 0 or less out."""


def table_result(hands: Sequence[Mapping[str, Any]], standing: StandingOf) -> TableResult:
    """One tournament table's result from the histories of its match, in hand order
    (each carries the ``tournament`` key: its round, table and the entry at each seat). Each seat's standing is
    its game's (``standing``: higher better, 0 or less out), as the table's live ``scores`` were."""
    tour = hands[0]["tournament"]
    entries: list[int] = [int(e) for e in tour["entries"]]
    n = len(entries)
    teams = [int(s.get("team", s.get("seat", i))) for i, s in enumerate(hands[0]["seats"])]
    before = standing(hands[0], False)
    alive = {s for s in range(n) if before[s] > 0}
    out_at: dict[int, int] = {}
    bot = [False] * n
    final = [0] * n
    for number, record in enumerate(hands, start=1):
        after = standing(record, True)
        final = [after[s] for s in range(n)]
        for s in sorted(alive):
            if final[s] <= 0:
                out_at[s] = number
                alive.discard(s)
        for s, seat in enumerate(record["seats"]):
            bot[s] = bot[s] or bool(seat.get("away"))
        for change in record.get("holders", ()):
            bot[int(change["seat"])] = bot[int(change["seat"])] or bool(change.get("away"))
    team_place = places(final, teams, out_at)
    return outcome(int(tour["round"]), int(tour["table"]), entries, teams, team_place,
                   [out_at.get(s, len(hands)) for s in range(n)], bot)


def outcome(round_: int, table: int, entries: Sequence[int], teams: Sequence[int], team_place: Mapping[int, int],
            hands: Sequence[int], bot: Sequence[bool]) -> TableResult:
    """A table's result from its seats: the entry at each seat, each seat's team, each team's
    place, the hands each seat was dealt into and whether a bot played for its person."""
    finishes: dict[int, Finish] = {}
    for seat, entry in enumerate(entries):
        was = finishes.get(entry)
        finishes[entry] = Finish(entry, team_place[teams[seat]], max(hands[seat], was.hands if was else 0),
                                 bot[seat] or (was.bot if was else False))
    return TableResult(round_, table, tuple(finishes.values()))


@dataclass(frozen=True, slots=True)
class Recomputed:
    """A tournament's standings worked out from its hand histories alone."""

    id: str
    rounds: int
    standings: tuple[Standing, ...]
    names: dict[int, tuple[str, ...]]
    """Each entry's people, as the histories name its seats."""


def recompute(records: Iterable[Mapping[str, Any]], standing: StandingOf) -> list[Recomputed]:
    """Every tournament the histories hold, scored from them: each table's last match, round by round."""
    tables: dict[tuple[str, int, int], list[Mapping[str, Any]]] = {}
    meta: dict[str, dict[int, Mapping[str, Any]]] = {}
    for record in records:
        tour = record.get("tournament")
        if not isinstance(tour, Mapping):
            continue
        key = (str(tour["id"]), int(tour["round"]), int(tour["table"]))
        tables.setdefault(key, []).append(record)
        meta.setdefault(key[0], {})[key[1]] = tour
    out = []
    for tid, rounds in meta.items():
        results = []
        names: dict[int, tuple[str, ...]] = {}
        for (t, _, _), hands in sorted(tables.items()):
            if t != tid:
                continue
            hands = sorted(hands, key=lambda r: int(r["hand"]))
            results.append(table_result(hands, standing))
            entries = [int(e) for e in hands[0]["tournament"]["entries"]]
            for seat, entry in enumerate(entries):
                name = str(hands[0]["seats"][seat].get("name", ""))
                if name not in names.get(entry, ()):
                    names[entry] = (*names.get(entry, ()), name)
        draw_order = [int(e) for e in rounds[min(rounds)]["draw"]]
        byes = [int(e) for tour in rounds.values() for e in tour.get("byes", ())]
        out.append(Recomputed(tid, max(rounds), standings(draw_order, results, byes), names))
    return out
