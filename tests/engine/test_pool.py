"""The opponent pool: every style plays legal moves, and each plays the style it is named for.

Each test rigs a position with the engines' own rules (as the blunder tests do) and asks the styles;
a property over many random hands checks what every style shares: the chance a seat reads for its team
is a probability, certain once the hand is decided.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtui.arena import arena
from cardtui.engine.betting import CALL, FOLD
from cardtui.engine.bots.pool import STYLES
from cardtui.engine.cacho.bots import pool as pool_cacho
from cardtui.engine.cacho.rules import GAME as CACHO
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.games import ENTRIES, GAMES, names, player
from cardtui.engine.truco.argentino.game import GAME as ARG
from cardtui.engine.truco.argentino.game import ArgentinoState
from cardtui.engine.truco.bots.pool import Reading
from cardtui.engine.truco.paulista.game import GAME as PAU
from cardtui.engine.truco.views import TrucoView
from tests.engine.test_bot_blunders import cacho, decide

SEEDS = range(20)


@pytest.mark.parametrize("game", sorted(name for name, e in ENTRIES.items() if e.pool))
def test_every_style_plays_whole_matches_at_each_table_size(game: str) -> None:
    for players in GAMES[game].player_counts:
        for style in STYLES:
            name = f"pool-{style}"
            result = arena(game, players, name, "normal", pairs=1, seed=5, hands=2)
            assert result.times[name].samples, f"{name} never decided at {game} with {players}"
    assert {f"pool-{s}" for s in STYLES} <= set(names(game))


def argentino(us: int, them: int, mine: str, theirs: str = "1e 3o 2c") -> ArgentinoState:
    state, _ = ARG.resume(ARG.options({}), [SeatInfo(i, f"p{i}", i) for i in range(2)], [us, them], 1, 1, 1)
    state.give(0, parse_cards(mine))
    state.give(1, parse_cards(theirs))
    return state


def facing_truco(us: int, them: int, mine: str) -> ArgentinoState:
    state = argentino(us, them, mine)
    ARG.apply(state, 0, Action("play", cards=parse_cards(mine.split()[0])))
    ARG.apply(state, 1, Action("truco"))
    return state


def answers(style: str, state: ArgentinoState) -> set[str]:
    policy = player("truco_argentino", f"pool-{style}")
    return {decide(ARG, state, 0, policy, seed).type for seed in SEEDS}


def test_tight_refuses_a_middling_hand_that_loose_accepts() -> None:
    state = facing_truco(5, 5, "4c 2b 12o")
    assert answers("tight", state) == {"no_quiero"}
    assert answers("loose", state) == {"quiero"}


def test_score_accepts_what_a_refusal_would_lose_the_match_by() -> None:
    state = facing_truco(10, 29, "4c 5b 6e")
    assert answers("score", state) == {"quiero"}
    assert answers("tight", state) == {"no_quiero"}


def test_the_bluffer_calls_envido_on_nothing_some_of_the_time_and_tight_never() -> None:
    state = argentino(5, 5, "4c 5b 6e")
    bluffer = answers("bluffer", state)
    assert "envido" in bluffer and len(bluffer) > 1
    assert "envido" not in answers("tight", state)


def test_caller_calls_truco_where_tight_waits() -> None:
    state = argentino(5, 5, "3b 3c 4e")
    assert "truco" in answers("caller", state)
    assert "truco" not in answers("tight", state)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 9))
def test_the_chance_a_style_reads_is_a_probability_certain_once_the_hand_is_decided(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    match, _ = PAU.open({"truco_decides": "hand"}, [SeatInfo(i, f"p{i}", i % 2) for i in range(4)], seed)
    for _ in range(steps):
        if match.hand_over():
            break
        seat = match.to_act()[0]
        legal = [a for a in match.legal_actions(seat) if a.type in ("keep", "play", "accept")] or \
            match.legal_actions(seat)
        match.apply(seat, rng.choice(legal))
    if match.hand_over():
        return
    for seat in range(4):
        view = match.view(seat)
        assert isinstance(view, TrucoView)
        p = Reading(view).hand()
        assert 0.0 <= p <= 1.0


def test_a_hand_already_won_reads_as_certain() -> None:
    state = argentino(0, 0, "1e 1b 7e", "4c 5o 6b")
    for seat, card in ((0, "1e"), (1, "4c"), (0, "1b"), (1, "5o")):
        ARG.apply(state, seat, Action("play", cards=parse_cards(card)))
    view = ARG.view(state, 0)
    assert isinstance(view, TrucoView)
    assert Reading(view).hand() == 1.0


def test_cacho_percentiles_put_three_sixes_on_top_and_a_low_high_card_near_the_bottom() -> None:
    assert pool_cacho.percentile(tuple(parse_cards("6S 6H 6D"))) > 0.99
    assert pool_cacho.percentile(tuple(parse_cards("2S 3H 4D"))) < 0.1


def test_cacho_tight_folds_a_poor_hand_to_a_bet_that_loose_calls() -> None:
    st_, eldest, other = cacho("6S 6D", "5S 3C 4H 2H")  # the other holds 6D 3C 2H: above a third of hands
    CACHO.apply(st_, eldest, next(a for a in CACHO.legal_actions(st_, eldest) if a.type == "bet" and a.amount > 0))
    tight = player("cacho", "pool-tight")
    loose = player("cacho", "pool-loose")
    assert {decide(CACHO, st_, other, tight, s).type for s in SEEDS} == {FOLD}
    assert {decide(CACHO, st_, other, loose, s).type for s in SEEDS} == {CALL}
    assert Card.parse("6D") in st_.hands[other]
