"""An analysis's numbers and reasons in words (``client.advice``): one scale of points for every loss, a value in its
game's unit, and every kind of reason said in English, Portuguese and Spanish with its numbers, a sentence at a time,
each from a capital."""

from __future__ import annotations

import re

import pytest

from cardtui.client import advice
from cardtui.client.models import TableModel
from cardtui.i18n import speaking
from cardtui.v1 import analysis_pb2, common_pb2
from tests.per_game import declared

A = analysis_pb2
REASONS = {kind: (game, said) for game, tests in declared().items() for kind, said in tests.reasons.items()}
"""Every kind of reason, the game that gives it and what is said of it (``GameTests.reasons``, in each game's own
tests)."""


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_every_kind_of_reason_is_said_with_its_numbers_in_every_language(lang: str) -> None:
    assert len(REASONS) == sum(len(t.reasons) for t in declared().values()), "a kind of reason named twice"
    with speaking(lang):
        for kind, (game, given) in REASONS.items():
            model = TableModel(common_pb2.TableSummary(game=game), 0)
            card = {"trick": "7C", "sure": "AD"}.get(kind)
            chosen = common_pb2.Action(type=common_pb2.ACTION_TYPE_PLAY, cards=[card]) if card else None
            text = advice.reason_text(model, given.reason, chosen=chosen)
            assert text is not None, kind
            for part in given.said[lang]:
                assert part in text.plain, (kind, part, text.plain)
        assert advice.reason_text(TableModel(common_pb2.TableSummary(game="cacho"), 0), A.AnalysisReason()) is None


SCALE = A.PointsScale(stake=125.0, inaccuracy=5.0, mistake=10.0, blunder=15.0)


@pytest.mark.parametrize(("lang", "points", "chips", "accuracy", "lost"), [
    ("en", "9.4 points", "0.23 chips", "Accuracy (0 to 100) measures", ("(9.4 points lost)", "(32 points lost)")),
    ("pt_BR", "9.4 pontos", "0.23 fichas", "Precisão (0 a 100) mede",
     ("(9.4 pontos perdidos)", "(32 pontos perdidos)")),
    ("es", "9.4 puntos", "0.23 fichas", "Precisión (0 a 100) mide", ("(9.4 puntos perdidos)", "(32 puntos perdidos)"))])
def test_a_loss_is_in_one_scale_of_points_and_a_value_in_its_games_unit(lang: str, points: str, chips: str,
                                                                        accuracy: str, lost: tuple[str, str]) -> None:
    """Points mean one thing everywhere: a loss on the labels' scale (the server's, said with its lines), in every
    game; a choice's value is the chance to win the match, or chips, and is never called points."""
    with speaking(lang):
        assert advice.amount(9.4) == points
        assert advice.value(-0.23, A.ANALYSIS_UNIT_CHIPS) == "-" + chips
        assert advice.value(0.547, A.ANALYSIS_UNIT_MATCH) == "54.7%"
        assert advice.lost(9.4) == lost[0]
        assert advice.lost(32.4) == lost[1]
        assert advice.accuracy_line().startswith(accuracy)
        for unit in (A.ANALYSIS_UNIT_MATCH, A.ANALYSIS_UNIT_CHIPS):
            said = advice.unit_line(unit, SCALE)
            assert all(f" {n}" in said for n in ("125", "5", "10", "15")), said
            assert "1%" not in said
        assert advice.close(3.0, 0.52, 0.55, A.ANALYSIS_UNIT_MATCH) is not None
        assert advice.close(3.0, 0.5501, 0.5502, A.ANALYSIS_UNIT_MATCH) is None  # shown alike: "as good"


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_every_sentence_of_every_reason_starts_with_a_capital(lang: str) -> None:
    """A part said on its own (a card's outcome in the trick) is a sentence of its own: "…32%. The 6♠ leads the
    trick.", never "…32%. the 6♠ leads the trick."."""
    led = A.AnalysisReason(truco=A.TrucoAdvice(first=0.84, second=0.32, trick=1, card="6S",
                                               card_does=A.TRUCO_OUTCOME_LEADS, tie_goes=A.TRUCO_SIDE_NEITHER))
    play = common_pb2.Action(type=common_pb2.ACTION_TYPE_PLAY, cards=["6S"])
    with speaking(lang):
        for kind, reason in {**{k: given.reason for k, (_, given) in REASONS.items()}, "led": led}.items():
            truco = kind in ("trick", "led")
            model = TableModel(common_pb2.TableSummary(game="truco_paulista" if truco else "cacho"), 0)
            text = advice.reason_text(model, reason, chosen=play if truco else None)
            assert text is not None
            for sentence in re.split(r"(?<=[.!?])\s+", text.plain):
                assert not sentence[:1].islower(), (kind, sentence, text.plain)


AT_ODDS = {"en": ("the odds alone favour staying in", "the odds alone say fold"),
           "pt_BR": ("só pelas odds, valia continuar", "só pelas odds, era sair fora"),
           "es": ("solo por las odds, convenía seguir", "solo por las odds, tocaba retirarse")}


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_a_bet_reason_at_odds_with_its_verdict_says_why(lang: str) -> None:
    """The pot odds count a win against random hands; the verdict plays the hand out. Where they point
    different ways (the odds favour calling, the best is to fold; or the other way round) the reason
    says so in words; where they agree it says nothing more."""
    model = TableModel(common_pb2.TableSummary(game="cacho"), 0)
    fold = common_pb2.Action(type=common_pb2.ACTION_TYPE_FOLD)
    call = common_pb2.Action(type=common_pb2.ACTION_TYPE_CALL, chips=17)
    good = A.AnalysisReason(bet=A.BetAdvice(pot=23, call=17, needed=0.425, chance=0.6, opponents=1))
    poor = A.AnalysisReason(bet=A.BetAdvice(pot=23, call=17, needed=0.425, chance=0.07, opponents=1))
    favour, say_fold = AT_ODDS[lang]
    with speaking(lang):
        def said(reason: A.AnalysisReason, best: common_pb2.Action | None) -> str:
            text = advice.reason_text(model, reason, best)
            assert text is not None
            return text.plain

        assert favour in said(good, fold) and say_fold not in said(good, fold)
        assert say_fold in said(poor, call) and favour not in said(poor, call)
        for reason, best in ((good, call), (poor, fold), (good, None), (poor, None)):
            assert favour not in said(reason, best) and say_fold not in said(reason, best)
