"""Pif Paf's betting round at each level, in rigged positions of a real three-player table.

The old normal bet only a hand a card or two from going out and folded a fair hand to a bet of
one chip: against players who call nearly every bet (``today``) it took under its share of the
matches. Normal now bets by the hand's chance of winning (``win_chance``); hard by playing the hand
out (``pifpaf_hard``).
"""

from __future__ import annotations

import dataclasses
import random

from cardtui.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from cardtui.engine.cards import pack, parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.games import LEVELS, get
from cardtui.engine.rummy.bots import search as rummy_search
from cardtui.engine.rummy.bots.levels import Seen, win_chance
from cardtui.engine.rummy.records import Phase, RummyView

DECK = pack("french104")
"""Pif Paf's and Cacheta's pack: two French decks."""

SEATS = [SeatInfo(i, f"p{i}", i) for i in range(3)]


def betting(hand: str, bets: int = 0) -> tuple[RummyView, list[Action]]:
    """The view and legal actions of the seat to speak at a real table's betting round, after ``bets``
    bets of one chip by the seats before it, holding ``hand``."""
    match, _ = get("pifpaf").open({}, SEATS, 5)
    for _ in range(bets):
        match.apply(match.to_act()[0], Action(BET, 1))
    seat = match.to_act()[0]
    view = match.view(seat)
    assert isinstance(view, RummyView) and view.phase is Phase.BETTING
    return dataclasses.replace(view, cards=parse_cards(hand)), match.legal_actions(seat)


def decide(level: str, view: RummyView, legal: list[Action]) -> Action:
    return LEVELS["pifpaf"][level](view, legal, random.Random(1))


def test_a_hand_better_than_an_even_share_is_bet_not_checked() -> None:
    # Six cards melded and three loose: more than half the chance of the hand among three players.
    view, legal = betting("4H 5H 6H 7C 7D 7S KC 2D 10S")
    assert win_chance(Seen(view)) > 0.5
    for level in ("normal", "hard"):
        assert decide(level, view, legal).type == BET, level


def test_a_fair_hand_calls_a_bet_the_pot_pays_for() -> None:
    # One run and six loose cards: about a fifth of the hand, and a call of one chip into four pays
    # when the hand wins one time in five. A hand with nothing melded or paired folds.
    view, legal = betting("4H 5H 6H 9C 2D JS KC 8S QH", bets=1)
    assert view.pot == 4 and Action(CALL, 1) in legal
    assert win_chance(Seen(view)) * (view.pot + 1) > 1
    assert decide("normal", view, legal) == Action(CALL, 1)
    assert decide("hard", view, legal).type in (CALL, RAISE)  # played out, the hand is worth more than a call
    view = dataclasses.replace(view, cards=parse_cards("AC 3D 5S 7H 9C JD KS 2H 8S"))
    assert decide("normal", view, legal).type == FOLD


def test_hard_raises_with_a_hand_one_card_from_going_out() -> None:
    # Nine cards melded: any card drawn knocks. Hard raises by what the others will pay (its search has them
    # call by the pot: the most would make more of them fold); normal raises all the way, by its formula.
    view, legal = betting("4H 5H 6H 7C 7D 7S 8S 9S 10S", bets=1)
    for seed in range(5):
        assert LEVELS["pifpaf"]["hard"](view, legal, random.Random(seed)).type == RAISE, seed
    assert decide("normal", view, legal) == Action(RAISE, 3)



def test_a_bet_alone_does_not_make_normal_fold_a_hand_the_pot_pays_for() -> None:
    # A run and a pair facing a bet of the most (3 into 6): counted as one unknown hand, the bettor leaves
    # this hand over a third of the pot, which pays for the call. Counting every bettor twice as strong,
    # normal folded it, and a player who raised every hand took nearly every pot from it unseen.
    match, _ = get("pifpaf").open({}, SEATS, 5)
    match.apply(match.to_act()[0], Action(BET, 3))
    seat = match.to_act()[0]
    view = dataclasses.replace(match.view(seat), cards=parse_cards("4H 5H 6H 9C 9D JS KC 8S QH"))
    legal = match.legal_actions(seat)
    assert view.pot == 6 and Action(CALL, 3) in legal
    assert win_chance(Seen(view)) * (view.pot + 3) > 3
    assert decide("normal", view, legal) == Action(CALL, 3)


def test_hard_checks_nine_unconnected_cards() -> None:
    # No pair, no run, no two of a suit near enough to make one: a bet of the most here is called by a normal
    # player about once in three hands, by the second nearly always once the first has folded, and the hand
    # seldom wins when called. Hard's search once had a dealt hand call it one time in twenty (a hand read by
    # the cards it melds alone) and bet the most on every seed; the best of five bets valued on 32 deals still
    # came out above the check on one seed in four by their luck alone (``pifpaf_hard.steady``).
    view, legal = betting("2H 3C 5S 6D 8D 9S JC QS KH")
    picks = [LEVELS["pifpaf"]["hard"](view, legal, random.Random(seed)).type for seed in range(10)]
    assert picks.count(CHECK) >= 9, picks


def test_the_searchs_caller_answers_a_bet_as_normal_does() -> None:
    # Facing a bet of the most, first to answer: the search's model of the player stays in exactly when normal
    # calls, on hands dealt at random (about one in three calls; the model by melded cards alone: one in twenty).
    match, _ = get("pifpaf").open({}, SEATS, 5)
    bettor = match.to_act()[0]
    match.apply(bettor, Action(BET, 3))
    seat = match.to_act()[0]
    legal = match.legal_actions(seat)
    rng = random.Random(7)
    calls = 0
    for _ in range(150):
        hand = tuple(rng.sample(DECK, 9))
        view = dataclasses.replace(match.view(seat), cards=hand)
        search = rummy_search.Search(dataclasses.replace(view, you=bettor, cards=()), [], rng, 0)
        stays = search._stays(rummy_search.mask(hand), seat, 3, view.pot, 3)
        calls += stays
        assert stays == (decide("normal", view, legal) == Action(CALL, 3)), hand
    assert 30 <= calls <= 80, calls
