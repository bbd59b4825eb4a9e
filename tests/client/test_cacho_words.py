"""What the Cacho table says of a showdown: who won, with what, and, when hands are equal, why the
pot went where it did."""

from __future__ import annotations

import io

import pytest
from rich.console import Console, RenderableType

import cardtui.client.app  # noqa: F401  (every board registers its words)
from cardtui.client.boards.cacho import CachoBoard
from cardtui.client.models import TableModel
from cardtui.i18n import speaking
from cardtui.v1 import cacho_pb2, common_pb2, table_pb2

NAMES = ["ana", "bia", "caio"]


def said(renderable: RenderableType) -> str:
    console = Console(width=80, file=io.StringIO(), record=True)
    console.print(renderable)
    return console.export_text()


def showdown(points: tuple[int, int]) -> TableModel:
    """bia (eldest) and caio show two of a suit for ``points``; bia takes the pot of 6."""
    two = cacho_pb2.CACHO_CATEGORY_TWO_SUITED
    result = cacho_pb2.CachoResult(deltas=[0, 4, -4], winner=1, pot=8, showdown=[
        cacho_pb2.CachoShowing(seat=1, cards=["6S", "1S", "2H"], strength=cacho_pb2.CachoStrength(category=two,
                                                                                                points=points[0])),
        cacho_pb2.CachoShowing(seat=2, cards=["5H", "2H", "3S"], strength=cacho_pb2.CachoStrength(category=two,
                                                                                                points=points[1]))])
    seats = [cacho_pb2.CachoSeat(seat=i, name=n, chips=20) for i, n in enumerate(NAMES)]
    people = [common_pb2.SeatSummary(seat=i, name=n, taken=True) for i, n in enumerate(NAMES)]
    view = table_pb2.View(hand=3, dealer=0, hand_over=True, seats=people,
                          cacho=cacho_pb2.CachoView(round=4, seats=seats, result=result))
    summary = common_pb2.TableSummary(game="cacho", seats=people)
    return TableModel(summary, 0).with_view(view, 9)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Tied with caio: a tie goes to the eldest"),
    ("pt_BR", "Empate com caio: o empate fica com o mano"),
    ("es", "Empate con caio: el empate es para el mano"),
])
def test_a_tie_at_the_showdown_says_why_the_pot_went_to_the_eldest(lang: str, words: str) -> None:
    with speaking(lang):
        tied = said(CachoBoard().result_summary(showdown((27, 27))) or "")
        apart = said(CachoBoard().result_summary(showdown((27, 26))) or "")
    assert "(27)" in tied and words in " ".join(tied.split()), tied
    assert words.split(":")[0] not in apart, "said only when the hands are equal"
