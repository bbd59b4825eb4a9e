"""Replays: a finished hand rebuilt from its history, step by step, with every card face up.

Each rigged hand is played live first; its replay must give back the same events in the same
order (every audience's, whole), one step for the deal and one per seat's action, and an
open view after each step that shows every hand.
"""

from __future__ import annotations

import random

import pytest

from cardtui.engine.games import GAMES, levels
from tests.per_game import declared

RIGGED = {name: tests.replayed for name, tests in declared().items() if tests.replayed is not None}
"""Rigged hands by game (each declared in its game's own test module, which checks its replay there), for the
replay tests here, over the wire and on the screen."""


@pytest.mark.parametrize("game", list(GAMES))
def test_an_unfinished_history_does_not_replay(game: str) -> None:
    rules = GAMES[game]
    n = rules.min_players if rules.min_players > 2 or game != "truco_argentino" else 2
    match, _ = rules.open({}, rules.seat_infos([f"p{i}" for i in range(max(n, rules.min_players))]), 4)
    rng = random.Random(4)
    bot = levels(game)["normal"]  # random play seldom goes out at the rummy games: 32,444 actions to a Pif Paf hand
    while not match.hand_over():
        seat = match.to_act()[0]
        match.apply(seat, bot(match.view(seat), match.legal_actions(seat), rng))
    record = match.history()
    assert record is not None
    assert rules.replay_steps(record)[-1].view.hand_over
    cut = dict(record, actions=record["actions"][:-1])
    with pytest.raises(ValueError, match="only finished hands replay"):
        rules.replay_steps(cut)
