"""The playouts behind the search and the analysis (``engine.truco.bots.sim``) tell a trick and a tie as the
engine does: the rules are the engine's own (``engine.truco.tricks``), not a copy of them."""

from __future__ import annotations

import random

from cardtui.engine import analysis
from cardtui.engine.analysis import SERIOUS, Label, Position
from cardtui.engine.cards import parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.truco.paulista.game import GAME as PAU
from cardtui.engine.truco.paulista.game import PaulistaState

SEATS4 = [SeatInfo(i, f"p{i}", i % 2) for i in range(4)]


def tie_that_wins() -> PaulistaState:
    """Seat 0 deals nothing: seat 1 is the mão. Seat 2 (team 0) took trick 1; in trick 2 it led the 5♦ and
    seat 3 played the 3♠. Seat 0 holds the 3♥ and the 7♣: the 3♥ ties the trick, and a tie goes to the team
    that took trick 1 (seat 1, the last to play, holds nothing above a 3); the 7♣ gives the trick away, and
    seat 3's zap takes trick 3."""
    state, _ = PAU.resume(PAU.options({}), SEATS4, [0, 0], 0, 1, 1)
    PAU.apply(state, 1, Action("keep"))
    for seat, text in {1: "4S JS QD", 2: "2C 5D 6H", 3: "KD 3S 4C", 0: "4H 3H 7C"}.items():
        state.hands[seat] = list(parse_cards(text))
    for seat, card in ((1, "4S"), (2, "2C"), (3, "KD"), (0, "4H"), (2, "5D"), (3, "3S")):
        PAU.apply(state, seat, Action("play", cards=parse_cards(card)))
    return state


def test_a_card_that_ties_a_trick_whose_tie_wins_the_hand_is_best_and_the_card_that_gives_it_away_is_flagged() -> None:
    state = tie_that_wins()
    view, legal = PAU.view(state, 0), tuple(PAU.legal_actions(state, 0))
    tie, low = Action("play", cards=parse_cards("3H")), Action("play", cards=parse_cards("7C"))
    for seed in range(2):
        right = analysis.analyse_position(Position(1, 0, view, legal, tie), seed)
        wrong = analysis.analyse_position(Position(1, 0, view, legal, low), seed)
        assert right.label is Label.BEST and right.best == tie, (seed, right.label, right.best)
        assert wrong.label in SERIOUS, (seed, wrong.label, wrong.points)
        assert wrong.best == tie


def test_the_search_puts_the_card_that_ties_a_won_tie_above_every_other_choice() -> None:
    """Played out by the model, the 3♥'s tie wins the hand: the search puts it above the 7♣ and a card face down by
    more than twice their gaps' errors (the playout policy once read the tie as the 3♠'s trick, and valued all
    four cards alike)."""
    from cardtui.engine.bots import estimates, search

    state = tie_that_wins()
    legal = [a for a in PAU.legal_actions(state, 0) if a.type != "signal"]
    found = search.evaluate(PAU.view(state, 0), legal, random.Random(1), estimates.ANALYSIS)
    tie = found.of(Action("play", cards=parse_cards("3H")))
    assert found.best() == tie
    for other in found.choices:
        if other is not tie:
            assert other.gap > 2 * other.gap_error, other
