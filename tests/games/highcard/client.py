"""High card as the client shows, says and checks it: Cacho's board, its deal check and its keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtui.client import fairness, gamebook
from cardtui.client.boards import cacho_deal
from cardtui.client.option_words import OptionWords
from cardtui.i18n import N_
from tests.games.highcard import NAME, PACK

if TYPE_CHECKING:
    from cardtui.client.boards.base import Board


def board() -> type[Board]:
    from cardtui.client.boards.cacho import CachoBoard

    return CachoBoard


GAME = gamebook.ClientGame(
    name=NAME,
    title="High card",
    board=board,
    pack=PACK,
    dealing=fairness.Dealing(first=-1),
    deal_check=cacho_deal.cacho,  # a card to each from the end of the shuffled pack, as Cacho's rounds
    leaving=N_("A bot plays your seat until someone takes it; your chips stay with the seat."),
    chips=True,
    kinds=("check", "bet", "call", "raise", "fold"),
    options={"chips": OptionWords(N_("Starting chips"))},
    keys={"fold": "f", "check": "c", "call": "c", "bet": "b", "raise": "r"},
)
