"""`make bench --only facts`: every fact the advice states, over random hands of every game and option set,
held to a recount from the hand's history alone (``bench.recount``). The mark: no fact wrong, over at least
``MARK`` reasons. ``python -m bench.facts --game <name> --reasons 400`` checks one game's option sets alone.

Hands are played by a mix of the easy and normal bots and random legal moves (so that what bots seldom do comes
up: a card face down, a player gone to the deck, a stock rebuilt, a claim); at every decision with a real
choice, the reason is worked out for the choice made beside each of a few others (the analysis names one of
them best: any may be), and each of its facts recounted. Each option set gets an even share of the run's CPU
(``run``): the reasons of a Cacho or rummy hand cost far more than a truco hand's.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from bench.recount import Fact, facts
from cardtui.engine import advice, analysis
from cardtui.engine.games import ENTRIES, get

OPTION_SETS: tuple[tuple[str, Mapping[str, Any], int], ...] = tuple(
    (name, options, players) for name, entry in ENTRIES.items() for options, players in entry.bench.facts)
"""Every game, and each of its options that changes a fact (a tie rule, the envido's, a flor, points at once,
a meld rule, claims, the chips, a pack, jokers, points and limit), each at a count of players it allows: each game
declares its own (``Entry.bench``)."""
MARK = 10_000
"""Reasons the bench checks at least (every fact of each)."""
RANDOM = 0.25
"""The share of moves made at random among the legal ones."""
OTHERS = 2
"""Beside the choice made, how many other choices each decision's reason is worked out against."""


def records(game: str, options: Mapping[str, Any], players: int, seed: int, hands: int) -> Iterator[dict[str, Any]]:
    """``hands`` hands of one match (a new match when one ends), each seat played by easy, normal or at random."""
    rules = get(game)
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    match, _ = rules.open(dict(options), rules.seat_infos(names), seed)
    levels = [rng.choice(("easy", "normal")) for _ in range(players)]
    done = 0
    for _ in range(20_000):
        if match.hand_over():
            record = match.history()
            assert record is not None
            yield record
            done += 1
            if done >= hands:
                return
            if match.match_over():
                match, _ = rules.open(dict(options), rules.seat_infos(names), rng.getrandbits(32))
            else:
                match.next_hand(rng.getrandbits(63))
            continue
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        legal = [a for a in match.legal_actions(seat) if a.type != "signal"] or match.legal_actions(seat)
        action = rng.choice(legal) if rng.random() < RANDOM else match.bot_action(seat, rng, levels[seat])
        match.apply(seat, action)


@dataclass
class Tally:
    """Reasons and facts checked, and the wrong ones (each with where it was)."""

    reasons: Counter[str] = field(default_factory=Counter)
    facts: int = 0
    wrong: list[tuple[str, int, Fact]] = field(default_factory=list)

    def add(self, where: str, step: int, found: list[Fact]) -> None:
        self.reasons[where] += 1
        self.facts += len(found)
        self.wrong += [(where, step, f) for f in found if not f.true]


def check(record: Mapping[str, Any], rng: random.Random, tally: Tally, where: str, most: int | None = None) -> None:
    """Every reason of ``record``'s decisions (of ``most`` of them, drawn through the hand) against the recount."""
    judged = [p for p in analysis.positions(record) if analysis.worth_judging(p)]
    if most is not None and len(judged) > most:
        judged = sorted(rng.sample(judged, most), key=lambda p: p.step)
    for position in judged:
        others = [a for a in position.legal if a.type != "signal" and not analysis.same(a, position.chosen)]
        for best in rng.sample(others, min(OTHERS, len(others))):
            why = advice.reason(position.view, position.legal, position.chosen, best)
            if why is not None:
                tally.add(f"{where} {why.kind}", position.step, facts(record, position.step, position.chosen, best,
                                                                      why))


PROGRESS = 120.0
"""Seconds between two lines of a run's progress."""


def run(print: Callable[[str], None], quick: bool = False, seconds: float = 900.0, game: str | None = None,
        reasons: int | None = None) -> bool:
    """Hands of every option set (of ``game``'s alone, given one), until ``MARK`` reasons (``reasons``, given) or
    ``seconds`` are checked; print the counts. Each hand
    goes to the option set that has had the least CPU time so far, so that every set gets an even share of the run
    (a Cacho hand's reasons cost a hundred times a truco hand's: in turns, hand for hand, the dear sets would take
    the run). The clock is looked at after every hand, and the counts so far printed every ``PROGRESS`` seconds, so
    a run cut short says what it checked."""
    tally = Tally()
    rng = random.Random(7)
    mark = reasons if reasons is not None else MARK // 10 if quick else MARK
    start = told = time.perf_counter()
    spent = [0.0] * len(OPTION_SETS)
    played = [0] * len(OPTION_SETS)
    sets = [i for i, (g, _, _) in enumerate(OPTION_SETS) if game is None or g == game]
    print(f"-- the advice's facts against a recount from the history: at least {mark} reasons, "
          f"{'every game' if game is None else game} and option set, each set an even share of the CPU")
    while sum(tally.reasons.values()) < mark and time.perf_counter() - start < seconds:
        i = min(sets, key=lambda k: (spent[k], k))
        name, options, players = OPTION_SETS[i]
        where = f"{name} {players}p {dict(options) or 'defaults'}"
        cpu = time.process_time()
        for record in records(name, options, players, played[i], 1):
            check(record, rng, tally, where, most=ENTRIES[name].bench.facts_most)
        spent[i] += time.process_time() - cpu
        played[i] += 1
        if time.perf_counter() - told > PROGRESS:
            told = time.perf_counter()
            print(f"  after {told - start:.0f} s: {sum(played)} hands, {sum(tally.reasons.values())} reasons, "
                  f"{tally.facts} facts, {len(tally.wrong)} wrong")
    for i in sets:
        name, options, players = OPTION_SETS[i]
        where = f"{name} {players}p {dict(options) or 'defaults'}"
        n = sum(v for k, v in tally.reasons.items() if k.startswith(where + " "))
        print(f"  {where}: {played[i]} hands, {n} reasons, {spent[i]:.0f} s of CPU")
    for where, n in sorted(tally.reasons.items()):
        print(f"    {where}: {n} reasons")
    total = sum(tally.reasons.values())
    for where, step, fact in tally.wrong[:20]:
        print(f"  WRONG {where} step {step}: {fact.name} said {fact.stated!r}, recounted {fact.counted!r}")
    ok = not tally.wrong and total >= mark
    print(f"  {total} reasons, {tally.facts} facts checked in {sum(played)} hands, {len(tally.wrong)} wrong, in "
          f"{time.perf_counter() - start:.0f} s" + ("" if ok else ": NOT met"))
    return ok


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.facts", description="The facts recounted, of one game's "
                                     "option sets (or every game's, as make bench --only facts).")
    parser.add_argument("--game", help="the game, by name (default: every game)")
    parser.add_argument("--reasons", type=int, help=f"reasons to check at least (default {MARK})")
    parser.add_argument("--seconds", type=float, default=900.0, help="stop after the hand past this many seconds")
    given = parser.parse_args()
    raise SystemExit(0 if run(print, seconds=given.seconds, game=given.game, reasons=given.reasons) else 1)
