"""The bridge to MiniTruco's bots: what a seat sees, told as MiniTruco's ``SituacaoJogo`` expects it.

The situation is checked field by field on a rigged hand, without MiniTruco. Where the bench is pointed at a
build of MiniTruco's core (``CARDTUI_MINITRUCO``) its strategies play a match at our table; elsewhere (CI)
that test is skipped and says why.
"""

from __future__ import annotations

import pytest

from bench import outside_truco
from cardtui.arena import arena
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.truco.paulista.game import GAME as PAU
from cardtui.engine.truco.paulista.game import PaulistaState


def _hand() -> PaulistaState:
    # Seat 0 deals: seat 1 is the mão and leads; partners 1 and 3 are MiniTruco's positions 2 and 4.
    state, _ = PAU.resume(PAU.options({"truco_decides": "hand"}), [SeatInfo(i, f"p{i}", i % 2) for i in range(4)],
                          [3, 7], 0, 1, 1)
    for seat, text in enumerate(("4C 3H KS", "7D 2S QH", "AS 5D 6C", "7H 3S JD")):
        state.hands[seat] = list(parse_cards(text))
    PAU.apply(state, 1, Action("keep"))
    return state


def test_cards_in_minitruco_notation() -> None:
    assert [outside_truco.card(Card.parse(c)) for c in ("4C", "7H", "AS", "7D", "QS", "KD")] == \
        ["4p", "7c", "Ae", "7o", "Qe", "Ko"]


def test_a_seat_mid_trick_as_minitruco_sees_it() -> None:
    state = _hand()
    PAU.apply(state, 1, Action("play", cards=parse_cards("2S")))
    PAU.apply(state, 2, Action("play", cards=parse_cards("5D")))
    view = PAU.view(state, 3)
    fields = outside_truco.situation(view, PAU.legal_actions(state, 3)).split()
    # position, trick, results, stake, next stake, caller, leader, scores, face down, hand, the table
    assert fields[:12] == ["4", "1", "0", "0", "0", "1", "3", "0", "2", "3", "7", "0"]
    assert fields[12].split(",") == ["7c", "3e", "Jo"]
    assert fields[13].split(",")[:4] == ["-", "2e", "5o", "-"]


def test_a_call_awaiting_its_answer_names_its_caller_and_a_trick_won() -> None:
    state = _hand()
    for seat, card in ((1, "2S"), (2, "5D"), (3, "7H"), (0, "KS")):
        PAU.apply(state, seat, Action("play", cards=parse_cards(card)))
    PAU.apply(state, 3, Action("truco"))
    view = PAU.view(state, 0)
    fields = outside_truco.situation(view, PAU.legal_actions(state, 0)).split()
    # trick 2, trick 1 to positions 2 and 4 (our team 1); truco called by position 4, who leads the trick
    assert fields[1:5] == ["2", "2", "0", "0"]
    assert fields[7:9] == ["4", "4"]
    assert fields[6] == "6"  # the answering team may raise to seis


@pytest.mark.skipif(outside_truco.missing() is not None, reason=f"MiniTruco's bots cannot run here: "
                    f"{outside_truco.missing()}")
def test_minitruco_plays_a_match_at_our_table() -> None:
    for name in outside_truco.PLAYERS.values():
        result = arena("truco_paulista", 4, "hard", name, pairs=1, seed=3, options={"truco_decides": "hand"})
        assert result.matches == 2 and result.unfinished == 0
    assert outside_truco.DRIVER_PROCESS.errors == 0
