"""Bot hands straight through the engine: hand histories and a summary."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from engine.games import get, seat_infos
from engine.history import dumps


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
    options: dict[str, Any] | None = None,
    history: IO[str] | None = None,
    on_hand: Callable[[dict[str, Any]], None] | None = None,
) -> SimReport:
    """Play ``hands`` hands of bots; every seed comes from ``seed``, so runs repeat exactly."""
    entry = get(game_name)
    game = entry.game
    opts = game.options(options or {})
    seats = seat_infos(game, [f"bot {i + 1}" for i in range(players)])
    rng = random.Random(seed)
    report = SimReport(game_name, players, deltas=[0] * players)
    start = time.perf_counter()
    state, _ = game.start(opts, seats, rng.getrandbits(63))
    report.matches = 1
    while report.hands < hands:
        if game.hand_over(state):
            record = game.history(state)
            report.hands += 1
            if record is not None:
                record = dict(record, table="sim", hand=report.hands, match=report.matches)
                for seat, d in record["result"]["deltas"].items():
                    report.deltas[int(seat)] += int(d)
                if history is not None:
                    history.write(dumps(record) + "\n")
                if on_hand is not None:
                    on_hand(record)
            if report.hands >= hands:
                break
            if game.match_over(state):
                state, _ = game.start(opts, seats, rng.getrandbits(63))
                report.matches += 1
            else:
                game.next_hand(state, rng.getrandbits(63))
            continue
        for seat in game.to_act(state):
            legal = game.legal_actions(state, seat)
            if legal:
                game.apply(state, seat, entry.bot(game.view(state, seat), legal, rng))
                report.actions += 1
                break
        else:
            raise RuntimeError("The hand is waiting on nobody; the engine is stuck.")
    report.seconds = time.perf_counter() - start
    return report
