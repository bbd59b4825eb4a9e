"""Cacho, as this client shows, says and checks it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtui.client import fairness, gamebook
from cardtui.client.boards import cacho_deal
from cardtui.client.option_words import OptionWords
from cardtui.fair import PACKS
from cardtui.i18n import N_

if TYPE_CHECKING:
    from cardtui.client.boards.base import Board
    from cardtui.client.shape import Family

NAME = "cacho"


def board() -> type[Board]:
    from cardtui.client.boards.cacho import CachoBoard

    return CachoBoard


def lines() -> Family:
    from cardtui.client.boards.cacho_lines import CACHO

    return CACHO


GAME = gamebook.register(gamebook.ClientGame(
    name=NAME,
    title="Cacho",
    board=board,
    lines=lines,
    pack=PACKS["french24"],
    dealing=fairness.Dealing(first=-1),
    deal_check=cacho_deal.cacho,
    leaving=N_("A bot plays your seat until someone takes it; your chips stay with the seat."),
    chips=True,
    kinds=("pass", "check", "bet", "call", "raise", "fold"),
    keys={"pass": "p", "fold": "f", "check": "c", "call": "c", "bet": "b", "raise": "r"},
    options={
        "chips": OptionWords(N_("Starting chips")),
    },
))
