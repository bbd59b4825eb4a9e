"""Hard's envido at truco argentino heads-up, by the equilibrium of the envido's own game (``envido_game``).

The adversary is built here too: the exact best response of each side in the abstract game, against the strategy
hard plays (``exploitability``). The rigged deals check the rules a sound envido keeps: 33 never refuses, a call
that a refusal would hand over the match is taken, the same view draws the same move, and the tables the
equilibrium leaves alone (four players) decide as before.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from cardtui.engine.cards import parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.truco.argentino.game import GAME as ARG
from cardtui.engine.truco.argentino.game import ArgentinoState
from cardtui.engine.truco.argentino.rules import DECK
from cardtui.engine.truco.bots import envido_game
from cardtui.engine.truco.bots.envido_deals import DEALS, MANO_WINS
from cardtui.engine.truco.bots.envido_game import BUCKETS, Solver, bucket_of, exploitability, played, refined, solve
from cardtui.engine.truco.bots.search import HARD_ACCEPT, HARD_WORLDS, Searcher
from cardtui.engine.truco.envido import envido
from tools import envido_deals

WORDS = ("envido", "real_envido", "falta_envido")


def hard(st: ArgentinoState, seat: int, seed: int = 1, equilibrium: bool = True) -> Action:
    """Hard's decision for ``seat`` (a signal first is made, and hard asked again)."""
    rng = random.Random(seed)
    for _ in range(3):
        action = Searcher(ARG.view(st, seat), ARG.legal_actions(st, seat), rng, HARD_WORLDS, mixed=True, reads=True,
                          accept_at=HARD_ACCEPT, equilibrium=equilibrium).decide()
        if action.type != "signal":
            return action
        ARG.apply(st, seat, action)
    raise AssertionError("hard only signals")


def argentino(scores: tuple[int, int] = (0, 0), dealer: int = 0, hand: int = 1, players: int = 2, **hands: str
              ) -> ArgentinoState:
    seats = [SeatInfo(i, f"p{i}", i % 2) for i in range(players)]
    state, _ = ARG.resume(ARG.options({}), seats, list(scores), dealer, hand, 1)
    for key, text in hands.items():
        state.give(int(key[1:]), parse_cards(text))
    return state


def test_the_deals_table_is_every_deal_of_the_deck_counted_once() -> None:
    # Each side's buckets as single hands count them (the deal of the other's three from the 37 left: 7,770
    # each), the table is the same seen from either side, and the mano's top bucket regenerates as written.
    single = [0] * len(BUCKETS)
    for hand in combinations(DECK, 3):
        single[bucket_of(envido(hand)[0])] += 1
    assert [sum(row) for row in DEALS] == [n * 7770 for n in single]
    assert all(DEALS[a][b] == DEALS[b][a] for a in range(len(BUCKETS)) for b in range(len(BUCKETS)))
    assert all(MANO_WINS[a][b] == (DEALS[a][b] if a > b else 0) for a in range(len(BUCKETS))
               for b in range(len(BUCKETS)) if a != b)
    top = len(BUCKETS) - 1
    hands = [(h, n) for h, n in envido_deals.hand_classes().items()
             if bucket_of(envido([DECK[i] for i in h])[0]) == top]
    deals, wins = envido_deals.count(hands)
    assert deals[top] == list(DEALS[top]) and wins[top] == list(MANO_WINS[top])


@pytest.mark.parametrize(("mano", "other", "target"), [(0, 0, 30), (15, 14, 30), (27, 27, 30), (8, 3, 15)])
def test_a_best_response_gains_little_against_the_strategy_played(mano: int, other: int, target: int) -> None:
    # The exact best response of each side in the abstract game, against the strategy played (the equilibrium's
    # average less its rarest moves): on average it gains under a fifth of a point of match odds.
    solver = Solver(mano, other, target, target - max(mano, other))
    strategy = refined(played(solver.run()))
    assert 0.0 <= exploitability(solver, strategy) < 0.002
    # What hard plays (``solve``, by ``Flat``'s lists) is that very strategy, to the last bit.
    assert solve(mano, other, target, target - max(mano, other)) == strategy
    # Each side's moves at each of its buckets form a distribution.
    assert all(abs(sum(row) - 1.0) < 1e-9 for rows in strategy.values() for row in rows)


def test_an_envido_of_33_is_never_refused_and_an_envido_of_nothing_never_falta() -> None:
    for mano, other in ((0, 0), (10, 20), (25, 25), (28, 29), (29, 5)):
        strategy = solve(mano, other, 30, 30 - max(mano, other))
        for history in envido_game.histories():
            nd = envido_game.node(history)
            if nd.actor >= 0 and envido_game.NO_QUIERO in nd.moves:
                row = strategy[history][bucket_of(33)]
                assert row[nd.moves.index(envido_game.NO_QUIERO)] == 0.0, (mano, other, history)
        for history in ("", envido_game.PASS) if max(mano, other) < 20 else ():
            # Falta envido on nothing where it stakes the match (at 29 it is worth a point): only a refusal pays it.
            assert strategy[history][0][envido_game.node(history).moves.index(envido_game.FALTA)] == 0.0


@pytest.mark.parametrize("word", WORDS)
def test_holding_33_the_equilibrium_never_refuses_an_envido(word: str) -> None:
    # Seat 1 is mano (seat 0 deals) and calls; hard (seat 0) holds 7o 6o, an envido of 33, at many scores and hands.
    for hand, scores in enumerate(((0, 0), (12, 3), (20, 25), (27, 28), (29, 29))):
        st = argentino(scores, hand=hand + 1, s0="7o 6o 4e", s1="4c 5b 6c")
        ARG.apply(st, 1, Action(word))
        assert hard(st, 0).type != "no_quiero", (word, scores)


def test_a_falta_whose_refusal_gives_the_match_is_taken_on_nothing() -> None:
    # At 20-29, seat 1 (mano, on 29) calls falta envido; hard holds an envido of 6: refused, 29 + 1 ends the match.
    st = argentino((20, 29), s0="4c 5o 6b", s1="1e 7o 3c")
    ARG.apply(st, 1, Action("falta_envido"))
    assert hard(st, 0).type == "quiero"


def test_the_same_view_draws_the_same_envido_and_the_draws_follow_the_equilibrium() -> None:
    # Hard, mano (seat 1) with an envido of 28 at 0-0, over many hands: the same view draws the same move whatever
    # the rng, and the openings come as often as the equilibrium says (a wide binomial bound).
    strategy = solve(0, 0, 30, 30)
    row = strategy[""][bucket_of(28)]
    opens = 0
    hands = 60
    for hand in range(1, hands + 1):
        st = argentino(hand=hand, s1="7e 1e 12c", s0="4c 5b 6o")
        first, again = hard(st, 1, seed=hand), hard(st, 1, seed=hand + 1000)
        assert first == again, hand
        opens += first.type in WORDS
        assert first.type != "falta_envido" or row[3] > 0
    expected = hands * (1.0 - row[0])
    assert abs(opens - expected) <= 4 * (expected * row[0]) ** 0.5 + 1, (opens, expected)


def test_four_players_bet_the_envido_as_before() -> None:
    # The equilibrium is the heads-up game's: at four, hard decides by the search and its mixed bluffs, as before.
    st = argentino(players=4, dealer=3, s0="7o 6o 4e")
    assert any(a.type == "envido" for a in ARG.legal_actions(st, 0))
    for seed in range(3):
        assert hard(st, 0, seed) == hard(st, 0, seed, equilibrium=False), seed
