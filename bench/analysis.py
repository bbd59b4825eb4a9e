"""`make bench --only analysis`: the marks of the analysis of a hand (``engine.analysis``).

- the blunder suite (``bench.analysis_rigs``): each rig's answer checked against playouts of the whole hand
  (the right move ahead), then ten seeds each: of each kind of decision (envido, truco calls, card play,
  draws, discards, knocks, bets), the wrong moves flagged at least a mistake in at least 90% of its seeds, the
  right moves never flagged;
- hands of truco played by the bots (normal and hard), every seat analysed: at least half of the flagged
  decisions are truco calls, their answers or cards played, and each of those carries a reason;
- hands of hard against hard: at most 5% of hard's own decisions flagged a mistake or worse;
- the same hands analysed again with another seed: the two agree on every mistake and blunder
  (a decision flagged a mistake or worse by one is by the other) at least 95% of the time;
- the analysis's own choice, played as a bot, against hard on duplicate deals: a lower bound above 52%;
- the wall time of one hand's analysis in the server's pool, idle but for it (the hand's decisions shared
  among its workers), its 95th percentile: at most 3 s; and of one seat's (what a player waits for).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bench.analysis_rigs import KINDS, LEVEL_RIGS, RIGS, SEEDS, verify
from cardtui.arena import arena
from cardtui.engine import analysis
from cardtui.engine.analysis import FLAGGED, SERIOUS
from cardtui.engine.games import ENTRIES, get, levels
from cardtui.server.processes.analysis_pool import AnalysisPool, cores

TABLES = (("truco_argentino", 2), ("truco_paulista", 4), ("cacho", 3), ("cacheta", 2), ("pifpaf", 3))
SEAT_HANDS = 20
"""Hands whose seats are each also analysed alone (what a player at the table waits for)."""


def hard_hands(game: str, players: int, count: int, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` hands of ``game`` with every seat played by the hard bot."""
    return list(itertools.islice(hard_stream(game, players, seed), count))


def hard_stream(game: str, players: int, seed: int = 1) -> Iterator[dict[str, Any]]:
    """Hands of ``game`` with every seat played by the hard bot, one at a time (a new match when one ends)."""
    rules = get(game)
    rng = random.Random(seed)
    names = [f"hard{i}" for i in range(players)]
    match, _ = rules.open({}, rules.seat_infos(names), seed)
    while True:
        if match.hand_over():
            record = match.history()
            assert record is not None
            yield record
            if match.match_over():
                match, _ = rules.open({}, rules.seat_infos(names), rng.getrandbits(32))
            else:
                match.next_hand(rng.getrandbits(63))
            continue
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        match.apply(seat, match.bot_action(seat, rng, "hard"))


DEALS, PLAYS = 8, 8
"""A rig's answer is played out from its own deal and seven others of the cards its seat could not see, each move
eight times a deal."""
MARK_KIND = 0.9
"""Of each kind of decision, the share of its wrong moves' seeds flagged at least a mistake."""


def blunder_suite(print: Callable[[str], None], seeds: range = SEEDS, deals: int = DEALS, plays: int = PLAYS) -> bool:
    print(f"-- the blunder suite: {len(RIGS) + len(LEVEL_RIGS)} rigged positions, each answer played out on {deals}"
          f" deals x {plays}, then {len(seeds)} seeds each")
    met = True
    named: dict[str, list[int]] = {kind: [0, 0] for kind in KINDS}
    right_flagged = 0
    for rig in RIGS:
        checked = verify(rig, deals, plays)
        stake = 3.0 if rig.game in ("cacho", "pifpaf") else 1.0
        wrong = sum(analysis.analyse_position(rig.position(rig.wrong), s, stake).label in SERIOUS for s in seeds)
        flagged = sum(analysis.analyse_position(rig.position(rig.right), s, stake).label in FLAGGED for s in seeds)
        named[rig.kind][0] += wrong
        named[rig.kind][1] += len(seeds)
        right_flagged += flagged
        ok = checked.holds and flagged == 0
        met &= ok
        print(f"  [{rig.kind}] {rig.name}: played out, right {checked.right:.3f} wrong {checked.wrong:.3f} (ahead or "
              f"level on {checked.ahead}/{checked.deals} deals); wrong flagged ≥ mistake {wrong}/{len(seeds)}, right "
              f"flagged {flagged}/{len(seeds)}" + ("" if ok else ": NOT met"))
    for kind, (n, total) in named.items():
        ok = total > 0 and n >= MARK_KIND * total
        met &= ok
        print(f"  {kind}: wrong moves flagged ≥ mistake {n}/{total} ({100 * n / max(1, total):.0f}%, mark ≥ "
              f"{100 * MARK_KIND:.0f}%)" + ("" if ok else ": NOT met"))
    print(f"  right moves flagged: {right_flagged} (mark 0)")
    for level in LEVEL_RIGS:
        flagged = sum(analysis.analyse_position(level.position(), s, 3.0).label in FLAGGED for s in seeds)
        met &= flagged == 0
        print(f"  {level.name}: right flagged {flagged}/{len(seeds)}" + ("" if flagged == 0 else ": NOT met"))
    return met


CALLS_AND_CARDS = frozenset({"truco", "retruco", "vale_cuatro", "seis", "nove", "doze", "accept", "run", "quiero",
                             "no_quiero", "play", "play_down", "play_blind"})
"""A truco call, its answer, a card played: where most of a truco hand's points are won and lost."""
ENVIDO_TYPES = frozenset({"envido", "real_envido", "falta_envido"})


def mixed_hands(game: str, players: int, count: int, seed: int = 3) -> list[dict[str, Any]]:
    """``count`` hands of ``game``, its seats played by the normal and the hard bots in turn."""
    rules = get(game)
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
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
        match.apply(seat, match.bot_action(seat, rng, "normal" if seat % 2 else "hard"))
    return out


def truco_reasons(print: Callable[[str], None], hands: int = 50) -> bool:
    """Of the decisions flagged in ``hands`` hands of each truco, how many are calls, answers or cards (the mark: at
    least half), and whether each of those has a reason."""
    calls = envidos = other = reasoned = 0
    for game, players in (("truco_paulista", 4), ("truco_argentino", 2)):
        for record in mixed_hands(game, players, hands):
            for m in analysis.analyse(record, seed=1).moments:
                if m.label not in FLAGGED:
                    continue
                if m.chosen.type in ENVIDO_TYPES or m.best.type in ENVIDO_TYPES or (
                        m.reason is not None and m.reason.kind == "envido"):
                    envidos += 1
                elif m.chosen.type in CALLS_AND_CARDS:
                    calls += 1
                    reasoned += m.reason is not None and m.reason.kind == "truco"
                else:
                    other += 1
    flagged = calls + envidos + other
    ok = flagged > 0 and calls * 2 >= flagged and reasoned == calls
    print(f"-- truco decisions flagged in {hands} hands of each truco (normal and hard bots), every seat: {flagged}: "
          f"calls, answers and cards {calls} ({100 * calls / max(1, flagged):.0f}%, mark ≥ 50%), each with a reason: "
          f"{reasoned}/{calls}; envido {envidos}; other {other}" + ("" if ok else ": NOT met"))
    return ok


def _p(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def _analysed(pool: AnalysisPool, record: dict[str, Any], seed: int, seats: list[int]
                    ) -> tuple[analysis.HandAnalysis, float]:
    """One job of the server's pool (the pool idle but for it): the analysis and its wall time."""
    start = time.perf_counter()
    future = pool.submit((record["hand"], seed, tuple(seats)), json.dumps(record), seed, seats)
    assert future is not None
    done = analysis.from_json(json.loads(await future))
    return done, time.perf_counter() - start


def _decision_cpu(record: dict[str, Any]) -> list[tuple[int, float]]:
    """Each decision of the hand analysed in this process on a seed of its own (nothing of the pool's work
    kept): its seat and the CPU time it took."""
    times: list[float] = []
    last = [time.process_time()]

    def tick(done: int, total: int) -> None:
        now = time.process_time()
        if done:
            times.append(now - last[0])
        last[0] = now

    done = analysis.analyse(record, seed=3, progress=tick)
    return [(m.seat, t) for m, t in zip(done.moments, times, strict=True)]


def _busier(times: list[float], workers: int) -> float:
    """The CPU time of the busier worker when ``times``' decisions are dealt out among ``workers`` as the pool
    deals them (``engine.analysis.dealt``)."""
    return max(sum(times[i] for i in analysis.dealt(len(times), k, workers)) for k in range(workers))


async def _self_play(print: Callable[[str], None], hands: int, games: tuple[tuple[str, int], ...]) -> bool:
    pool = AnalysisPool(cores())
    met = True
    try:
        for game, players in games:
            count = hands if game.startswith("truco") or game == "cacho" else max(2, hands // 25)
            records = hard_hands(game, players, count)
            wall, seat, whole, decisions, serious, agree, either = [], [], [], 0, 0, 0, 0
            alike, flagged_hands = 0, 0
            load = os.getloadavg()[0]
            for n, record in enumerate(records):
                every = [int(s["seat"]) for s in record["seats"]]
                first, took = await _analysed(pool, record, 1, every)
                wall.append(took)
                second, _ = await _analysed(pool, record, 2, every)
                if n < SEAT_HANDS:
                    cpu = _decision_cpu(record)
                    whole.append(_busier([t for _, t in cpu], pool.workers))
                    seat += [_busier([t for s, t in cpu if s == mine], pool.workers) for mine in every]
                decisions += len(first.moments)
                serious += sum(m.label in SERIOUS for m in first.moments)
                for a, b in zip(first.moments, second.moments, strict=True):
                    if a.label in SERIOUS or b.label in SERIOUS:
                        either += 1
                        agree += (a.label in SERIOUS) == (b.label in SERIOUS)
                ones = [{m.step for m in done.moments if m.label in SERIOUS} for done in (first, second)]
                alike += ones[0] == ones[1]
                flagged_hands += bool(ones[0] | ones[1])
            load = max(load, os.getloadavg()[0])
            share = serious / max(1, decisions)
            agreement = agree / either if either else 1.0
            ok = share <= 0.05 and agreement >= 0.95 and _p(whole, 0.95) <= 3.0
            met &= ok
            print(f"  {game} {players}p: {len(records)} hands, {decisions} decisions, flagged ≥ mistake "
                  f"{100 * share:.1f}% (mark ≤ 5%), two seeds agree on {agree}/{either} flagged "
                  f"({100 * agreement:.0f}%, mark ≥ 95%)")
            print(f"    hands whose two analyses flag the same mistakes and blunders: {alike} of {len(records)} "
                  f"({100 * alike / max(1, len(records)):.0f}%); of the {flagged_hands} where either flags one, "
                  f"{alike - (len(records) - flagged_hands)} (the mark is judged on the flags, above)")
            print(f"    one hand, its decisions shared among {pool.workers} idle workers: p50 {_p(whole, 0.5):.2f} s "
                  f"p95 {_p(whole, 0.95):.2f} s of the busier worker's CPU (mark ≤ 3 s); one seat: p50 "
                  f"{_p(seat, 0.5):.2f} s p95 {_p(seat, 0.95):.2f} s; wall in the pool on this machine: p50 "
                  f"{_p(wall, 0.5):.2f} s p95 {_p(wall, 0.95):.2f} s, load average up to {load:.1f}"
                  + ("" if ok else ": NOT met"))
    finally:
        pool.close()
    return met


def self_play(print: Callable[[str], None], hands: int, games: tuple[tuple[str, int], ...] = TABLES) -> bool:
    print("-- hard against hard, analysed twice (seeds 1 and 2) in the server's analysis pool; the time of one")
    print(f"   hand and of one seat as CPU time (the first {SEAT_HANDS} hands: the pool's workers run at the lowest")
    print("   priority, so on a shared machine their wall time is the other work's), and the pool's wall time")
    return asyncio.run(_self_play(print, hands, games))


HARD_TABLES = (*TABLES, *((name, entry.bench.seats) for name, entry in ENTRIES.items() if name not in dict(TABLES)))
"""Every game, for the share of hard's decisions flagged (``hard_share``): the self-play's tables, and each other
game at the table its entry names (``Entry.bench``)."""
PROGRESS = 120.0
"""Seconds between two lines of a long run's progress."""


def hard_share(print: Callable[[str], None], hands: int, seconds: float, games: Sequence[tuple[str, int]] = HARD_TABLES,
               seed: int = 1) -> bool:
    """Hard against hard at each of ``games``: ``hands`` hands a table (rummy: a 25th, at least 2) or ``seconds`` of
    it, each hand analysed once (seed 1), every seat; at most 5% of the decisions flagged a mistake or worse. The
    clock is looked at after every hand, and the counts so far printed every ``PROGRESS`` seconds."""
    print(f"-- hard against hard, every seat analysed once: up to {hands} hands a table (rummy a 25th) or "
          f"{seconds:.0f} s")
    met = True
    for game, players in games:
        count = hands if game.startswith("truco") or game == "cacho" else max(2, hands // 25)
        start = told = time.perf_counter()
        cpu = time.process_time()
        done = decisions = 0
        flagged: list[str] = []
        for record in hard_stream(game, players, seed):
            for m in analysis.analyse(record, 1).moments:
                decisions += 1
                if m.label in SERIOUS:
                    flagged.append(f"hand {done + 1} step {m.step} seat {m.seat}: {m.chosen.describe()} {m.label} "
                                   f"({m.points:.1f} points), best {m.best.describe()}")
            done += 1
            if done >= count or time.perf_counter() - start > seconds:
                break
            if time.perf_counter() - told > PROGRESS:
                told = time.perf_counter()
                print(f"    {game} {players}p after {told - start:.0f} s: {done} hands, {decisions} decisions, "
                      f"{len(flagged)} flagged")
        share = len(flagged) / max(1, decisions)
        ok = share <= 0.05
        met &= ok
        print(f"  {game} {players}p: {done} hands, {decisions} decisions, flagged ≥ mistake {len(flagged)} "
              f"({100 * share:.1f}%, mark ≤ 5%) in {time.perf_counter() - start:.0f} s ({time.process_time() - cpu:.0f}"
              " s of CPU)" + ("" if ok else ": NOT met"))
        for line in flagged:
            print("    " + line)
    return met


BOT_TABLES = (("truco_argentino", 2), ("truco_paulista", 4), ("cacho", 2), ("cacheta", 2), ("pifpaf", 3))
"""Where the analysis's own choice plays the hard bot: two players, or two teams, where there may be."""
PIFPAF_HANDS = 10
"""Pif Paf matches last until one player holds every chip: each is cut at this many hands, and A's chips per
hand say who played better."""


def as_bot(print: Callable[[str], None], seconds: float, games: tuple[tuple[str, int], ...] = BOT_TABLES) -> bool:
    """The analysis's choice (``analysis.player``, the analysis budget) against hard on duplicate deals, each
    game for at most ``seconds``: its lower bound must be above 52% (Pif Paf: chips per hand above nothing)."""
    print(f"-- the analysis's choice as a bot against hard, duplicate deals, at most {seconds:.0f} s a game")
    met = True
    for game, players in games:
        hard = levels(game)["hard"]
        hands = PIFPAF_HANDS if game == "pifpaf" else 0
        result = arena(game, players, "analysis", "hard", pairs=100_000, seed=12, hands=hands,
                       policies=(analysis.player(game), hard), seconds=seconds)
        lo, hi = result.rate.interval
        clo, chi = result.chips.interval
        ok = clo > 0.0 if game == "pifpaf" else lo > 0.52
        met &= ok
        print(f"  {game} {players}p: {result.rate.rate:.1%} of {result.matches} matches (95% {lo:.1%}–{hi:.1%}); "
              f"chips a hand {result.chips.mean:+.3f} ({clo:+.3f} to {chi:+.3f}) over {result.hands} hands; "
              f"{result.times['analysis'].line('analysis')}" + ("" if ok else ": NOT met"))
    return met


def run(print: Callable[[str], None], quick: bool = False, hands: int = 500, seconds: float = 1800.0) -> bool:
    suite = blunder_suite(print, SEEDS[:3] if quick else SEEDS, 3 if quick else DEALS, 3 if quick else PLAYS)
    suite &= truco_reasons(print, 10 if quick else 50)
    games = TABLES[:3] if quick else TABLES
    played = self_play(print, 20 if quick else hands, games)
    strong = as_bot(print, 60.0 if quick else seconds, BOT_TABLES[:1] if quick else BOT_TABLES)
    print(f"  analysis marks: {'met' if suite and played and strong else 'NOT all met'}")
    return suite and played and strong


# -- the tables while the analysis pool works flat out ---------------------------------------------
FLOOD = 4
"""Analyses asked for at once while the pool is kept busy (its queue holds the rest)."""
FLOODED: list[dict[str, int]] = []
"""Each flood's refusals by status (what a run that analysed nothing was told)."""


async def _flood(load: Any, done: list[int]) -> None:
    """Ask, without end, for the analysis of the last finished hand of one load table or another (each
    seat's, by its holder), ``FLOOD`` at a time: the pool's workers never idle."""
    import grpc

    from cardtui.v1 import analysis_pb2, lobby_pb2_grpc

    rng = random.Random(5)
    refused: dict[str, int] = {}
    FLOODED.append(refused)

    async def one(k: int) -> None:
        stub = lobby_pb2_grpc.LobbyStub(load.channels[k % len(load.channels)])
        while True:
            table = rng.choice(load.tables)
            seat = rng.choice(table.seats)
            try:
                async for update in stub.Analyze(analysis_pb2.AnalyzeRequest(table_id=table.id, token=seat.token)):
                    if update.WhichOneof("update") == "analysis":
                        done[0] += 1
            except grpc.aio.AioRpcError as err:
                refused[err.code().name] = refused.get(err.code().name, 0) + 1
                await asyncio.sleep(0.05)  # no finished hand there yet, or the queue is full

    await asyncio.gather(*(one(k) for k in range(FLOOD)))


MARK_P99 = 1.2
"""The tables' p99 with analyses flat out, at most this many times their p99 without (issue 40)."""
DRAWS = 2000
"""Resamplings of the turns for the ratio's interval."""


def p99_ratio(quiet: Sequence[dict[str, Any]], busy: Sequence[dict[str, Any]], draws: int = DRAWS,
              rng: random.Random | None = None) -> tuple[float, float, float]:
    """The busy turns' pooled p99 over the quiet turns', with a 95% interval from resampling the turns of
    each (a percentile bootstrap): on a machine whose own hiccups move one turn's p99 by a third, one ratio
    of two short runs says little, and the interval says how little. Turns, not acts, are resampled: the
    acts of one turn share its machine's moment, so they are not independent draws."""
    from bench.load import pooled

    rng = rng or random.Random(0)

    def ratio(q: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> float:
        low = pooled(q)["p99"]
        return float(pooled(b)["p99"] / low) if low else float("nan")

    seen = sorted(ratio([rng.choice(quiet) for _ in quiet], [rng.choice(busy) for _ in busy]) for _ in range(draws))
    return ratio(quiet, busy), seen[int(0.025 * (draws - 1))], seen[int(0.975 * (draws - 1))]


async def load_with_analyses(tables: int = 200, seconds: float = 60.0, rounds: int = 12,
                             out: Callable[[str], Any] = print) -> bool | None:
    """The load bench's tables (``bench.load``) at 1 act/table/s, measured in turns with the analysis pool
    idle and with it kept working flat out (``_flood``), pooled: p99 with analyses within x1.2 of without.
    True: met (the interval's top at most x1.2); False: not (its bottom above); None: the turns cannot say."""
    from bench.load import Server, pooled

    server = Server(False)
    await server.start(tables, out)
    assert server.load is not None
    quiet, busy, done = [], [], [0]
    try:
        for _ in range(rounds):
            quiet.append(await server.load.run(1.0, seconds / rounds))
            flood = asyncio.create_task(_flood(server.load, done))
            await asyncio.sleep(2.0)  # the workers at work before the turn is measured
            before = done[0]
            busy.append(await server.load.run(1.0, seconds / rounds))
            flood.cancel()
            await asyncio.gather(flood, return_exceptions=True)
            out(f"    a turn with analyses: {done[0] - before} hands analysed meanwhile; refused {FLOODED[-1]}; "
                f"p99 {quiet[-1]['p99']:.1f} ms before it, {busy[-1]['p99']:.1f} ms in it")
    finally:
        await server.stop()
    q, b = pooled(quiet), pooled(busy)
    ratio, lo, hi = p99_ratio(quiet, busy)
    ok = True if hi <= MARK_P99 else False if lo > MARK_P99 else None
    said = {True: "met", False: "NOT met", None: "undecided (the interval holds the mark's line)"}[ok]
    out(f"  {tables} tables at 1 act/table/s, {rounds} turns each way: p99 {q['p99']:.1f} ms with the analysis pool "
        f"idle, {b['p99']:.1f} ms with it flat out: x{ratio:.2f} (95% x{lo:.2f}–x{hi:.2f}, turns resampled; "
        f"mark ≤ x{MARK_P99}); p50 {q['p50']:.1f} vs {b['p50']:.1f} ms; {done[0]} hands analysed; load average "
        f"{os.getloadavg()[0]:.1f}: {said}")
    return ok
