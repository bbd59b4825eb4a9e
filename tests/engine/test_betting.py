"""The shared betting round and pots."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtui.engine.betting import BET, CALL, CHECK, FOLD, RAISE, BettingRound, Pot, Pots
from cardtui.engine.core import Action, IllegalAction, NotYourTurn


def test_side_pots_when_one_is_all_in_for_less() -> None:
    pots = Pots(3)
    for seat, chips in ((0, 5), (1, 10), (2, 10)):
        pots.add(seat, chips)
    assert pots.pots() == [Pot(15, (0, 1, 2)), Pot(10, (1, 2))]
    # Seat 0 best: wins the main pot only; the side pot goes to the better of 1 and 2.
    assert pots.award([0, 2, 1]) == [15, 0, 10]


def test_folded_chips_stay_in_the_pot_but_cannot_win() -> None:
    pots = Pots(3)
    for seat, chips in ((0, 4), (1, 4), (2, 2)):
        pots.add(seat, chips)
    pots.folded.add(1)
    assert pots.pots() == [Pot(6, (0, 2)), Pot(4, (0,))]
    assert pots.award([2, 0]) == [4, 0, 6]
    assert sum(pots.award([1, 2, 0])) == pots.total


def test_round_with_cap_raise_and_call() -> None:
    stacks = [10, 3, 10]
    pots = Pots(3)
    r = BettingRound([0, 1, 2], stacks, pots, cap=6)
    assert r.legal(1) == []
    legal = r.legal(0)
    assert legal[:2] == [Action(FOLD), Action(CHECK)]
    assert [a.amount for a in legal if a.type == BET] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(NotYourTurn):
        r.act(1, Action(CHECK))
    r.act(0, Action(BET, 4))
    assert r.legal(1)[1] == Action(CALL, 3)  # all in for less
    assert not [a for a in r.legal(1) if a.type == RAISE]
    r.act(1, Action(CALL, 3))
    assert stacks[1] == 0
    with pytest.raises(IllegalAction, match="between 5 and 6"):
        r.act(2, Action(RAISE, 9))
    r.act(2, Action(RAISE, 6))
    assert r.to_act == 0
    r.act(0, Action(CALL, 2))
    assert r.done and pots.total == 15 and stacks == [4, 0, 4]


@settings(max_examples=200, deadline=None)
@given(
    stacks=st.lists(st.integers(0, 12), min_size=2, max_size=5),
    cap=st.integers(0, 10),
    min_raise=st.integers(1, 3),
    resto=st.booleans(),
    moves=st.lists(st.integers(0, 1000), max_size=12),
)
def test_legal_is_exactly_what_refusal_allows(stacks: list[int], cap: int, min_raise: int, resto: bool,
                                              moves: list[int]) -> None:
    """``legal`` is built, not filtered through ``refusal``: the two must still agree on every
    action and amount, at every point of a round."""
    r = BettingRound(range(len(stacks)), list(stacks), Pots(len(stacks)), cap=cap, min_raise=min_raise, resto=resto)
    top = sum(stacks) + 2
    for pick in [*moves, 0]:
        for seat in range(len(stacks)):
            legal = r.legal(seat)
            candidates = [Action(FOLD), Action(CHECK), Action(CALL, r.to_call(seat)),
                          *(Action(k, n) for k in (BET, RAISE) for n in range(top))]
            allowed = [a for a in candidates if r.refusal(seat, a) is None]
            assert sorted(legal, key=repr) == sorted(allowed, key=repr)
        if r.done:
            break
        seat = r.to_act
        assert seat is not None
        legal = r.legal(seat)
        r.act(seat, legal[pick % len(legal)])
