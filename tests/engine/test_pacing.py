"""Bots paced like people (issue 12): how long each kind of decision takes, at a real table's scale."""

from __future__ import annotations

import random

import pytest

from cardtui.engine.bots.pacing import Pace, delay, pace
from cardtui.engine.cards import parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.games import get
from cardtui.engine.rummy.records import CLAIM, PASS, Phase, RummyView
from cardtui.engine.truco.argentino.game import GAME as ARG
from cardtui.engine.truco.paulista.game import GAME as PAU


def times(kind: Pace, n: int = 2000) -> list[float]:
    rng = random.Random(7)
    return [delay(kind, 1.0, rng) for _ in range(n)]


def test_each_kind_of_decision_takes_a_persons_time() -> None:
    quick, card, call = times(Pace.QUICK), times(Pace.CARD), times(Pace.CALL)
    assert max(quick) <= 0.15
    assert min(card) >= 0.6 and max(card) <= 1.2 and max(card) - min(card) > 0.5  # spread, not fixed
    assert min(call) >= 1.2 and max(call) <= 2.5 and max(call) - min(call) > 1.0
    assert max(delay(Pace.CALL, 0.01, random.Random(s)) for s in range(50)) <= 0.025  # a table's scale


def test_a_quick_decision_never_waits_past_150_ms_whatever_the_scale() -> None:
    assert max(delay(Pace.QUICK, 10.0, random.Random(s)) for s in range(200)) <= 0.15


def paulista_hand() -> tuple[object, int]:
    seats = [SeatInfo(i, f"p{i}", i % 2) for i in range(4)]
    state, _ = PAU.resume(PAU.options({}), seats, [0, 0], 0, 1, 1)
    PAU.apply(state, 1, Action("keep"))
    state.hands[1] = list(parse_cards("4C 5H 6H"))
    return state, 1


def test_truco_cards_calls_answers_and_signals() -> None:
    st, seat = paulista_hand()
    legal = PAU.legal_actions(st, seat)
    play = next(a for a in legal if a.type == "play")
    signal = next(a for a in legal if a.type == "signal")
    assert pace(play, legal) is Pace.CARD
    assert pace(Action("truco"), legal) is Pace.CALL
    assert pace(signal, legal) is Pace.QUICK
    PAU.apply(st, seat, Action("truco"))
    answer = PAU.legal_actions(st, 2)
    assert {a.type for a in answer} >= {"accept", "run", "seis"}
    assert all(pace(a, answer) is Pace.CALL for a in answer if a.type != "signal")
    # A signal and the card after it cost one card's delay and a quick one, never two full delays.
    rng = random.Random(3)
    for _ in range(200):
        both = delay(pace(signal, legal), 1.0, rng) + delay(pace(play, legal), 1.0, rng)
        assert both <= 1.2 + 0.15


def test_envido_and_its_answers_are_calls() -> None:
    seats = [SeatInfo(i, f"p{i}", i % 2) for i in range(2)]
    st, _ = ARG.resume(ARG.options({}), seats, [0, 0], 1, 1, 4)
    (mano,) = ARG.to_act(st)
    legal = ARG.legal_actions(st, mano)
    assert pace(Action("envido"), legal) is Pace.CALL and pace(Action("falta_envido"), legal) is Pace.CALL
    ARG.apply(st, mano, Action("envido"))
    answer = ARG.legal_actions(st, 1 - mano)
    assert all(pace(a, answer) is Pace.CALL for a in answer if a.type in ("quiero", "no_quiero", "envido"))


@pytest.mark.parametrize("game", ["pifpaf", "cacheta"])
def test_a_claim_window_pass_and_a_forced_move_are_quick(game: str) -> None:
    rules = get(game)
    match, _ = rules.open({}, [SeatInfo(i, f"p{i}", i) for i in range(rules.min_players)], 2)
    seen_draw = False
    for _ in range(400):
        if match.hand_over():
            break
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        legal = match.legal_actions(seat)
        view = match.view(seat)
        assert isinstance(view, RummyView)
        if view.phase is Phase.CLAIM and Action(PASS) in legal:
            assert pace(Action(PASS), legal) is Pace.QUICK
            if any(a.type in (CLAIM, "cut") for a in legal):
                assert pace(next(a for a in legal if a.type in (CLAIM, "cut")), legal) is Pace.QUICK
        elif view.phase is Phase.DRAW:
            seen_draw = True
            assert pace(legal[0], legal) is (Pace.QUICK if len(legal) == 1 else Pace.CARD)
        elif view.phase is Phase.DISCARD:
            assert pace(next(a for a in legal if a.type == "discard"), legal) is Pace.CARD
        prefer = ("check", "call", "pass", "draw", "discard")
        match.apply(seat, min(legal, key=lambda a: prefer.index(a.type) if a.type in prefer else 9))
    assert seen_draw
    # What a claim window offers (a window opens only for seats that can take the card): its pass is quick.
    claim = "cut" if game == "cacheta" else CLAIM
    window = [Action(PASS), Action(claim), *([Action("declare")] if game == "cacheta" else [])]
    assert pace(Action(PASS), window) is Pace.QUICK and pace(Action(claim), window) is Pace.QUICK
    assert pace(Action("knock"), [Action("knock"), Action("discard")]) is Pace.QUICK
    assert pace(Action("play"), [Action("play")]) is Pace.QUICK  # no choice: nothing to think over
