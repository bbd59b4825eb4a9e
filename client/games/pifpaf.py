"""Pif Paf, as this client shows, says and checks it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtui.client import fairness, gamebook
from cardtui.client.boards import rummy_deal
from cardtui.client.boards.rummy_words import BOARD_KEYS
from cardtui.client.option_words import CLAIM_MS, OptionWords
from cardtui.fair import PACKS
from cardtui.i18n import N_

if TYPE_CHECKING:
    from cardtui.client.boards.base import Board
    from cardtui.client.shape import Family

NAME = "pifpaf"


def board() -> type[Board]:
    from cardtui.client.boards.rummy import RummyBoard

    return RummyBoard


def lines() -> Family:
    from cardtui.client.boards.rummy_lines import RUMMY

    return RUMMY


GAME = gamebook.register(gamebook.ClientGame(
    name=NAME,
    title="Pif Paf",
    board=board,
    lines=lines,
    pack=PACKS["french104"],
    dealing=fairness.Dealing(to_winner=True),
    deal_check=rummy_deal.check(),
    leaving=N_("A bot plays your seat until someone takes it; your chips stay with the seat."),
    chips=True,
    held=10,
    kinds=("draw:stock", "draw:pile", "knock", "claim", "pass", "check", "bet", "call", "raise", "fold"),
    # ``c`` is claim in a claim window and check or call while betting: never both on offer at once.
    keys={"draw:stock": "s", "draw:pile": "p", "claim": "c", "pass": "x", "check": "c", "call": "c", "bet": "b",
          "raise": "r", "fold": "f", **BOARD_KEYS},
    labels={"draw:stock": N_("Stock"), "draw:pile": N_("Pile"), "claim": N_("Claim"), "pass": N_("Pass"),
            "discard": N_("Discard"), "knock": N_("Knock")},
    options={
        "chips": OptionWords(N_("Starting chips (cacife)")),
        "ante": OptionWords(N_("Ante each hand (pingo)")),
        "min_bet": OptionWords(N_("Smallest bet")),
        "max_bet": OptionWords(N_("Largest bet")),
        "group_suits": OptionWords(N_("Suits in a group"), {
            "exactly3": N_("exactly three suits"),
            "atleast3": N_("three suits or more"),
        }),
        "ace_high": OptionWords(N_("Ace high"), {
            "on": N_("Q-K-A is a sequence too"),
            "off": N_("the ace is low: A-2-3 only"),
        }),
        "claim_ms": CLAIM_MS,
        "dealer": OptionWords(N_("Who deals next"), {
            "winner": N_("the hand's winner"),
            "rotate": N_("the next player, in turn"),
        }),
        "rebuy": OptionWords(N_("Rebuy"), {
            "on": N_("out of chips: restocked at the next hand"),
            "off": N_("out of chips: sits out"),
        }),
    },
))
