"""Chinchón's bots on rigged deals: what each level does where the right play is plain, the match odds the search
values a hand's end in, and the search itself on a real view."""

from __future__ import annotations

import random

import pytest

from cardtui.engine import family
from cardtui.engine.bots.estimates import Budget
from cardtui.engine.core import Action
from cardtui.engine.rummy.bots import chinchon as bots
from cardtui.engine.rummy.bots import chinchon_odds, chinchon_search
from cardtui.engine.rummy.chinchon import REENTER
from cardtui.engine.rummy.records import DISCARD, DRAW, KNOCK, PASS, PILE, STOCK
from tests.engine.test_chinchon import GAME, act, close_now, draw, rigged

LEVELS = {"least": bots.least, "easy": bots.easy, "normal": bots.normal, "hard": bots.hard}


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_closes_with_all_seven_melded(monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    state, _ = rigged(monkeypatch, {0: "1c 2c 3c 5o 5e 5b 12o", 1: "4b 6b 10b 11e 2e 3e 7e"}, "12e", "4c 6o", dealer=1)
    draw(state, 0)  # 4c: 1c to 4c and three 5s, 12o to throw
    legal = GAME.legal_actions(state, 0)
    chosen = LEVELS[level](GAME.view(state, 0), legal, random.Random(1))
    assert chosen == Action(KNOCK, cards=(bots.Card.parse("12o"),))


@pytest.mark.parametrize("level", ["least", "normal", "hard"])
def test_the_pile_card_that_makes_a_meld_is_taken(monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    state, _ = rigged(monkeypatch, {0: "1c 2c 7o 7e 12b 11b 4e", 1: "4b 6b 10b 11e 2e 3e 7c"}, "3c", "5o 6o", dealer=1)
    legal = GAME.legal_actions(state, 0)
    assert LEVELS[level](GAME.view(state, 0), legal, random.Random(2)) == Action(DRAW, value=PILE)


@pytest.mark.parametrize("level", ["least", "normal", "hard"])
def test_a_card_in_a_meld_is_never_thrown(monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    state, _ = rigged(monkeypatch, {0: "1c 2c 3c 7o 7e 7b 12b", 1: "4b 6b 10b 11e 2e 3e 7c"}, "5e", "11o 6o", dealer=1)
    draw(state, 0)  # 11o
    legal = GAME.legal_actions(state, 0)
    chosen = LEVELS[level](GAME.view(state, 0), legal, random.Random(3))
    assert chosen.type in (DISCARD, KNOCK) and str(chosen.cards[0]) in ("11o", "12b"), chosen


def test_every_level_comes_back_in_when_it_may(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = close_now(monkeypatch, [0, 40], options={"reentries": 1})
    legal = GAME.legal_actions(state, 1)
    assert legal == [Action(REENTER), Action(PASS)]
    for level, bot in LEVELS.items():
        assert bot(GAME.view(state, 1), legal, random.Random(4)) == Action(REENTER), level


def test_the_match_odds_are_even_between_equals_and_fall_with_points() -> None:
    assert chinchon_odds.heads_up(30, 30, 100) == pytest.approx(0.5)
    row = [chinchon_odds.heads_up(p, 30, 100) for p in range(0, 101, 10)]
    assert row == sorted(row, reverse=True) and row[0] > 0.6 and row[-1] < 0.2
    assert chinchon_odds.heads_up(101, 0, 100) == 0.0 and chinchon_odds.heads_up(0, 101, 100) == 1.0
    three = [chinchon_odds.chinchon([20, 50, 90], s, 100) for s in range(3)]
    assert sum(three) == pytest.approx(1.0) and three[0] > three[1] > three[2] > 0.0
    assert chinchon_odds.chinchon([20, 50, 90], 2, 100, [True, True, False]) == 0.0
    assert chinchon_odds.chinchon([20, 50, 90], 1, 100, [False, True, False]) == 1.0


def test_the_search_values_a_close_with_all_seven_melded_above_a_discard(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = rigged(monkeypatch, {0: "1c 2c 3c 5o 5e 5b 12o", 1: "4b 6b 10b 11e 2e 3e 7e"}, "12e", "4c 6o",
                      start=[60, 60], dealer=1)
    draw(state, 0)
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    found = family.of(view).evaluate(view, legal, random.Random(5), Budget(0.5))
    assert {e.action for e in found.choices} == set(legal)
    best = max(found.choices, key=lambda e: e.value)
    assert best.action == Action(KNOCK, cards=(bots.Card.parse("12o"),)), best
    assert min(e.value for e in found.choices) >= 0.0 and max(e.value for e in found.choices) <= 1.0
    assert family.of(view).stake(view, 1.0) > 0.0


def test_a_played_out_hand_counts_as_the_rules_do(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = rigged(monkeypatch, {0: "1c 2c 3c 5o 5e 5b 12o", 1: "4b 6b 10b 11e 2e 3e 7e"}, "12e", "4c 6o", dealer=1)
    act(state, 0, DRAW, value=STOCK)
    view = GAME.view(state, 0)
    search = chinchon_search.Search(view, GAME.legal_actions(state, 0), random.Random(6), 1)
    hands = {0: list(view.cards), 1: list(state.hands[1])}
    rollout = search.rollout(hands, [])
    rollout.hands[0].remove(bots.Card.parse("12o"))
    end = rollout.count(0)
    assert end.closer == 0 and end.points[0] == -10 and end.points[1] == 4 + 6 + 10 + 10 + 2 + 3 + 7


HANDS_AT_FOUR = 6
"""Hands the four normal bots play (fewer if the match ends first)."""


def test_four_normal_bots_end_every_hand() -> None:
    """Four normal bots (deterministic) at a table that closes only with all seven melded: a hand nobody closes is
    void once the stock rebuilt from the pile runs out, so every hand ends, and some end so."""
    rng = random.Random(7)
    state, _ = GAME.start(GAME.options({"limit": 0}), GAME.seat_infos(["ana", "bia", "caio", "duda"]), 7)
    endings = []
    for hand in range(HANDS_AT_FOUR):
        steps = 0
        while not GAME.hand_over(state):
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            GAME.apply(state, seat, bots.normal(GAME.view(state, seat), legal, rng))
            steps += 1
            assert steps < 4 * 40, "a hand ends once the rebuilt stock runs out"
        record = GAME.history(state)
        assert record is not None
        endings.append("void" if record["result"].get("void") else "closed")
        if GAME.match_over(state):
            break
        GAME.next_hand(state, 100 + hand)
    assert "void" in endings, endings


def test_hard_keeps_the_card_that_would_meld_two_the_next_player_took_from_the_pile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1 took 4e and 6e from the pile: 5e would give it a run. Seat 0 keeps it and throws 5o, worth the same
    to its own hand; what each would give seat 1 (``Hard.danger``) is the reason."""
    state, _ = rigged(monkeypatch, {0: "1c 2c 3c 10b 11b 12b 4e", 1: "1o 2b 3o 7e 10o 11c 12e"}, "7c",
                      "6e 5e 5o", options={"limit": 3}, dealer=1)
    for seat, kind, card in ((0, "", "4e"), (1, PILE, "7e"), (0, "", "6e"), (1, PILE, "10o"), (0, "", "")):
        draw(state, seat, kind or STOCK)
        if card:
            act(state, seat, DISCARD, card)
    view = GAME.view(state, 0)
    hard = bots.Hard(view)
    five_e, five_o = bots.Card.parse("5e"), bots.Card.parse("5o")
    assert hard.danger(five_e) >= 10 > 2 > hard.danger(five_o), (hard.danger(five_e), hard.danger(five_o))
    assert bots.hard(view, GAME.legal_actions(state, 0), random.Random(5)) == Action(DISCARD, cards=(five_o,))


def test_hard_closes_or_waits_for_all_seven_by_the_match_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same cards, a close of 2 points open and a few live cards that would meld all seven: level, hard closes;
    far behind, the -10 is worth the wait; with the other player near the target, it closes (its count may put him
    out)."""
    decisions = {}
    for start in ((0, 0), (85, 20), (40, 95)):
        state, _ = rigged(monkeypatch, {0: "1c 2c 3c 5o 5e 5b 2e", 1: "1o 2b 3o 7e 10o 11c 12e"}, "7c", "11o",
                          start=list(start), dealer=1)
        draw(state, 0)
        legal = GAME.legal_actions(state, 0)
        assert Action(KNOCK, cards=(bots.Card.parse("11o"),)) in legal
        decisions[start] = bots.hard(GAME.view(state, 0), legal, random.Random(6)).type
    assert decisions == {(0, 0): KNOCK, (85, 20): DISCARD, (40, 95): KNOCK}, decisions


def test_hard_throws_a_high_card_late_in_the_hand_that_it_keeps_early(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 10c beside the 7c (the 6c or the 11c would meld them in a run), the 6o drawn: early, hard keeps the 10c
    for what live cards might meld of it and throws the 6o; once twenty cards were drawn from the stock (``SPAN``)
    it counts that hope less (``LATE``) and throws the 10c, ten points that the other player's close would count in
    full."""
    state, _ = rigged(monkeypatch, {0: "2o 10c 7c 7e 3b 4o 2b", 1: "6c 5o 12o 2e 11e 10b 3c"}, "6e", "6o",
                      dealer=1)
    draw(state, 0)
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    assert bots.Hard(view).drawn() == 1 and bots.Read(view).hope == 1.0
    thrown = {}
    for drawn in (1, 5, bots.SPAN):
        monkeypatch.setattr(bots.Hard, "drawn", lambda self, n=drawn: n)
        assert bots.Hard(view).hope == pytest.approx(1.0 - bots.LATE * drawn / bots.SPAN)
        thrown[drawn] = bots.hard(view, legal, random.Random(1)).cards[0]
    six, ten = bots.Card.parse("6o"), bots.Card.parse("10c")
    assert thrown == {1: six, 5: six, bots.SPAN: ten}, thrown
