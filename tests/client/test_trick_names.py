"""The tricks of a truco hand name who played each card as they were called then.

The view's tricks carry only seats; a seat that changes hands mid-hand (bia leaves, dan sits)
must not make dan the winner of a trick bia took. The client keeps, from the stream's events
and ``names_then``, who played each seat's cards (``TableModel.played_by``).
"""

from __future__ import annotations

import io

from rich.console import Console

from cardtui.client.boards.truco import TrucoBoard
from cardtui.client.models import TableModel, played_after
from cardtui.v1 import common_pb2, table_pb2, truco_pb2


def played(seat: int, card: str) -> table_pb2.Event:
    return table_pb2.Event(truco=truco_pb2.TrucoEvent(played=truco_pb2.TrucoPlayed(seat=seat, card=card)))


def trick(*plays: tuple[int, str], winner: int) -> truco_pb2.TrucoTrick:
    return truco_pb2.TrucoTrick(plays=[truco_pb2.TrucoPlay(seat=s, card=c) for s, c in plays], winner=winner,
                                team=winner % 2)


def test_a_trick_is_won_by_who_played_its_card_not_by_who_sits_there_now() -> None:
    by: dict[int, tuple[str, ...]] = {}
    before, after = {0: "ana", 1: "bia (bot)"}, {0: "ana", 1: "dan"}
    for event, names in ((table_pb2.Event(hand_started=table_pb2.HandStarted(hand=1)), before),
                         (played(0, "4c"), before), (played(1, "7e"), before),
                         (played(1, "1b"), after), (played(0, "2c"), after)):
        by = played_after(by, event, names)
    assert by == {0: ("ana", "ana"), 1: ("bia (bot)", "dan")}
    view = table_pb2.View(truco=truco_pb2.TrucoView(
        seats=[truco_pb2.TrucoSeat(seat=0, name="ana", team=0), truco_pb2.TrucoSeat(seat=1, name="dan", team=1)],
        tricks=[trick((0, "4c"), (1, "7e"), winner=1), trick((1, "1b"), (0, "2c"), winner=1)]))
    model = TableModel(common_pb2.TableSummary(game="truco_argentino"), seat=0, view=view, names=after,
                       played_by=by)
    table = TrucoBoard()._tricks_table(model, view.truco)
    assert table is not None
    console = Console(width=120, file=io.StringIO(), record=True)
    console.print(table)
    rows = console.export_text().splitlines()
    assert "bia (bot)→dan" in rows[0], rows
    assert rows[1].rstrip().endswith("bia (bot) (them)"), rows  # trick 1: bia's 7 won it
    assert rows[2].rstrip().endswith(" dan (them)"), rows  # trick 2: dan's 1 won it
    assert played_after(by, table_pb2.Event(hand_started=table_pb2.HandStarted(hand=2)), after) == {}
