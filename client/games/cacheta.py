"""Cacheta, as this client shows, says and checks it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtui.client import fairness, gamebook
from cardtui.client.boards import rummy_deal
from cardtui.client.boards.rummy_words import BOARD_KEYS
from cardtui.client.option_words import CLAIM_MS, OptionWords
from cardtui.fair import PACKS
from cardtui.i18n import N_
from cardtui.v1 import rummy_pb2

if TYPE_CHECKING:
    from google.protobuf.message import Message

    from cardtui.client.boards.base import Board
    from cardtui.client.shape import Family

NAME = "cacheta"


def board() -> type[Board]:
    from cardtui.client.boards.rummy import RummyBoard

    return RummyBoard


def lines() -> Family:
    from cardtui.client.boards.rummy_lines import RUMMY

    return RUMMY


def flip(body: Message) -> str | None:
    """The flip, turned up from the deck after the deal (docs/deal.md §10)."""
    return body.flip if isinstance(body, rummy_pb2.CachetaFlipped) else None


GAME = gamebook.register(gamebook.ClientGame(
    name=NAME,
    title="Cacheta",
    board=board,
    lines=lines,
    pack=PACKS["french104"],
    dealing=fairness.Dealing(),
    deal_check=rummy_deal.check(rummy_deal.Shows(
        turned_up=flip, not_next=N_("the flip {card} is not the card the deck turns up"))),
    leaving=N_("A bot plays your seat until someone takes it; your points stay with the seat."),
    held=10,
    kinds=("draw:stock", "draw:pile", "knock", "cut", "pass", "declare"),
    keys={"draw:stock": "s", "draw:pile": "p", "cut": "c", "pass": "x", "declare": "n", **BOARD_KEYS},
    labels={"draw:stock": N_("Stock"), "draw:pile": N_("Pile"), "cut": N_("Cut"), "pass": N_("Pass"),
            "declare": "Na boa", "discard": N_("Discard"), "knock": N_("Knock")},
    options={
        "start_points": OptionWords(N_("Starting points")),
        "claim_ms": CLAIM_MS,
        "tournament": OptionWords(N_("Tournament scoring"), {
            "on": N_("victory points by place, and game points"),
            "off": N_("last player standing wins"),
        }),
    },
))
