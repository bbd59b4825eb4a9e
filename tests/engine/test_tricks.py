"""Shared trick resolution and team scoring (engine.truco.tricks): every tie ruling of both games."""

from __future__ import annotations

import pytest

from cardtui.engine.truco.tricks import (
    DOWN,
    TieRule,
    hand_winner,
    opponents,
    partners,
    rotation,
    scores_by_seat,
    trick_winner,
)

FIRST, LAST = TieRule.FIRST_DECIDED, TieRule.LAST_TAKES_ALL
A, B, T = 0, 1, None  # team 0, team 1, a tied trick


def test_highest_card_takes_the_trick() -> None:
    assert trick_winner([(0, 3), (1, 9), (2, 5), (3, 1)]) == (1, 1)


def test_partners_tying_win_for_their_team_and_the_earlier_leads() -> None:
    assert trick_winner([(1, 4), (2, 9), (3, 1), (0, 9)]) == (2, 2)


def test_opponents_tying_leave_the_trick_to_no_one() -> None:
    assert trick_winner([(0, 9), (1, 9), (2, 3), (3, 1)]) == (None, 0)
    # A partner's equal card does not break an opponents' tie.
    assert trick_winner([(0, 9), (1, 9), (2, 9), (3, 1)]) == (None, 0)


def test_a_higher_card_breaks_an_earlier_tie() -> None:
    assert trick_winner([(0, 5), (1, 5), (2, 8), (3, 1)]) == (2, 2)


def test_face_down_cards_cannot_win() -> None:
    assert trick_winner([(0, DOWN), (1, 0), (2, DOWN), (3, DOWN)]) == (1, 1)
    assert trick_winner([(0, DOWN), (1, DOWN)]) == (None, None)


@pytest.mark.parametrize(
    ("results", "rule", "winner"),
    [
        # Two tricks always win, under both rules.
        ([A, A], FIRST, A),
        ([B, B], LAST, B),
        ([A, B, A], LAST, A),
        # Nothing decided yet.
        ([A], FIRST, None),
        ([A, B], FIRST, None),
        ([T, T], FIRST, None),
        ([T, T], LAST, None),
        # First decided (paulista, argentino traditional): a tie goes to the first trick's winner.
        ([A, T], FIRST, A),
        ([B, A, T], FIRST, B),
        ([T, B], FIRST, B),  # trick 1 tied: the next decided trick decides
        ([T, T, A], FIRST, A),
        ([T, T, T], FIRST, "mano"),  # all three tied: the mão's team
        # Seed 003: trick 1 tied, trick 2 takes all.
        ([T, B], LAST, B),
        # Trick 2 tied: trick 3 takes all.
        ([A, T], LAST, None),
        ([A, T, B], LAST, B),
        ([T, T, B], LAST, B),
        # Trick 3 tied, or all three: the mano's team.
        ([A, B, T], LAST, "mano"),
        ([A, T, T], LAST, "mano"),
        ([T, T, T], LAST, "mano"),
    ],
)
def test_hand_winner(results: list[int | None], rule: TieRule, winner: object) -> None:
    for mano_team in (0, 1):
        expected = mano_team if winner == "mano" else winner
        assert hand_winner(results, mano_team, rule) == expected


def test_seats_and_teams() -> None:
    assert partners(0, 6) == (2, 4)
    assert opponents(0, 6) == (1, 3, 5)
    assert partners(1, 2) == ()
    assert rotation(3, [1, 2, 3, 0]) == [3, 0, 1, 2]
    assert scores_by_seat([3, 0], 4) == [3, 0, 3, 0]


def test_the_ladder_climbs_accepts_refuses_and_raises() -> None:
    from cardtui.engine.truco.argentino.rules import LADDER as ARGENTINO
    from cardtui.engine.truco.envido import TABLE as ENVIDO
    from cardtui.engine.truco.flor import TABLE as FLOR
    from cardtui.engine.truco.ladder import Ladder, Word
    from cardtui.engine.truco.paulista.rules import LADDER as PAULISTA

    truco = Ladder(PAULISTA)
    assert truco.next_calls() == (Word.TRUCO,) and truco.answering == -1
    truco.call(1, Word.TRUCO)
    assert (truco.pending, truco.answering, truco.caller) == (1, 0, 1)
    assert (truco.if_accepted(0), truco.if_refused()) == (3, 1)
    truco.call(2, Word.SEIS)  # a raise accepts the truco
    assert (truco.level, truco.owner, truco.pending) == (1, 0, 0)
    assert truco.refuse() == (0, 3) and truco.closed
    truco = Ladder(ARGENTINO)
    truco.call(0, Word.TRUCO)
    assert truco.accept(1) == 2 and truco.owner == 1 and truco.next_calls() == (Word.RETRUCO,)
    envido = Ladder(ENVIDO)
    envido.call(0, Word.ENVIDO)
    envido.call(1, Word.REAL_ENVIDO)
    assert envido.next_calls() == (Word.FALTA_ENVIDO,)
    assert (envido.if_accepted(9), envido.if_refused()) == (5, 4)
    flor = Ladder(FLOR)
    flor.call(0, Word.FLOR)
    assert flor.next_calls() == (Word.CONTRA_FLOR, Word.CONTRA_FLOR_AL_RESTO) and not FLOR.acceptable(flor.calls)
    assert flor.if_refused() == 4
    flor.call(1, Word.CONTRA_FLOR)
    assert (flor.if_accepted(8), flor.if_refused()) == (6, 4)
    flor.call(0, Word.CONTRA_FLOR_AL_RESTO)
    assert (flor.if_accepted(8), flor.if_refused()) == (8, 6)
