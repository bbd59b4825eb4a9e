"""The conformance suite's random play, on the truco options it does not try (it plays the defaults)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from cardtui.engine.core import Action, Decision, Match, ReplayStep, Rules, SeatInfo
from cardtui.engine.games import GAMES
from cardtui.engine.options import Raw
from tests.test_conformance import play


class WithOptions(Rules):
    """A game whose matches open with these options (what the suite's ``play`` opens)."""

    def __init__(self, rules: Rules, options: Mapping[str, Raw]) -> None:
        self.rules = rules
        self.raw = dict(options)
        self.name, self.title = rules.name, rules.title  # type: ignore[misc]
        self.min_players, self.max_players = rules.min_players, rules.max_players  # type: ignore[misc]

    @property
    def player_counts(self) -> tuple[int, ...]:
        return self.rules.player_counts

    @property
    def option_specs(self) -> Any:
        return self.rules.option_specs

    def check_options(self, raw: Mapping[str, Raw]) -> dict[str, Raw]:
        return self.rules.check_options(raw)

    def open(self, raw: Mapping[str, Raw], seats: Sequence[SeatInfo], seed: int) -> tuple[Match, list[Any]]:
        return self.rules.open(self.raw, seats, seed)

    def pack(self, raw: Mapping[str, Raw]) -> str:
        return self.rules.pack(self.raw)

    def opening_dealer(self, raw: Mapping[str, Raw], seats: Sequence[SeatInfo]) -> int:
        return self.rules.opening_dealer(self.raw, seats)

    def replay_match(self, record: Mapping[str, Any]) -> Match:
        return self.rules.replay_match(record)

    def replay_steps(self, record: Mapping[str, Any]) -> list[ReplayStep]:
        return self.rules.replay_steps(record)

    def decide(self, decision: Decision, rng: random.Random) -> Action:
        return self.rules.decide(decision, rng)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("truco_argentino", {"flor": True}),
        ("truco_argentino", {"flor": True, "envido_scored": "at_once", "mazo_first": 2}),
        ("truco_argentino", {"ties": "first_trick", "pica_pica": False, "envido_unsuited": "highest"}),
        ("truco_paulista", {"truco_decides": "hand", "signals_seen": 1.0}),
    ],
)
def test_random_play_keeps_the_contract_with_options(game: str, options: dict[str, Raw]) -> None:
    rules = WithOptions(GAMES[game], options)
    for players in rules.player_counts:
        play(rules, players, players, 200)
