"""Chinchón, as this client shows, says and checks it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from cardtui.client import fairness, gamebook
from cardtui.client.boards import rummy_deal
from cardtui.client.boards.rummy_words import BOARD_KEYS
from cardtui.client.option_words import OptionWords
from cardtui.fair import PACKS
from cardtui.i18n import N_
from cardtui.v1 import common_pb2, rummy_pb2

if TYPE_CHECKING:
    from google.protobuf.message import Message

    from cardtui.client.boards.base import Board
    from cardtui.client.shape import Family

NAME = "chinchon"


def board() -> type[Board]:
    from cardtui.client.boards.rummy import RummyBoard

    return RummyBoard


def lines() -> Family:
    from cardtui.client.boards.rummy_lines import RUMMY

    return RUMMY


def pack_for(options: Mapping[str, common_pb2.OptionValue]) -> tuple[str, ...]:
    """The pack the table's options choose (docs/deal.md §10.5): 40 or 48 cards, and its jokers."""
    cards = options["cards"].number if "cards" in options else 40
    jokers = options["jokers"].number if "jokers" in options else 0
    return PACKS[f"spanish{cards + jokers}"]


def still_in(points: int, options: Mapping[str, common_pb2.OptionValue]) -> bool:
    """A player is in up to the table's target (the engine's option ``target``, 100 unless the table says)."""
    return points <= (options["target"].number if "target" in options else 100)


def turned_up(body: Message) -> str | None:
    """The card turned up from the deck after the deal to start the pile (docs/deal.md §10.5)."""
    return body.card if isinstance(body, rummy_pb2.ChinchonUp) else None


def counted(body: Message) -> list[tuple[int, str]] | None:
    """Every hand laid out at the count: the closer's cards beyond the melds it closed with, every other hand
    whole (its melds, its loose cards, what it laid off); the first count is the closer's."""
    if not isinstance(body, rummy_pb2.ChinchonCounted):
        return None
    return [(c.seat, card) for i, c in enumerate(body.counts) for card in (list(c.loose) if i == 0 else [
        *(x for meld in c.melds for x in meld.cards), *c.loose, *c.laid_off])]


GAME = gamebook.register(gamebook.ClientGame(
    name=NAME,
    title="Chinchón",
    board=board,
    lines=lines,
    pack=PACKS["spanish40"],
    pack_for=pack_for,
    dealing=fairness.Dealing(still_in=still_in),
    deal_check=rummy_deal.check(rummy_deal.Shows(
        turned_up=turned_up, not_next=N_("the card turned up, {card}, is not the deck's next card"),
        laid_out=counted, laid_how=N_("counted"))),
    leaving=N_("A bot plays your seat until someone takes it; your points stay with the seat."),
    held=8,
    kinds=("draw:stock", "draw:pile", "knock", "reenter", "pass"),
    keys={"draw:stock": "s", "draw:pile": "p", "reenter": "r", "pass": "x", **BOARD_KEYS},
    labels={"draw:stock": N_("Stock"), "draw:pile": N_("Pile"), "discard": N_("Discard"), "knock": N_("Close"),
            "reenter": N_("Come back in"), "pass": N_("Stay out")},
    options={
        "cards": OptionWords(N_("Cards in the pack")),
        "jokers": OptionWords(N_("Jokers")),
        "joker_points": OptionWords(N_("Points of a joker left out")),
        "figures": OptionWords(N_("Points of the sota, caballo and rey"), {
            "ten": N_("10 each"),
            "number": N_("their number: 10, 11, 12"),
        }),
        "limit": OptionWords(N_("Most points left out to close")),
        "first_round": OptionWords(N_("Close on the first turn"), {
            "on": N_("allowed"),
            "off": N_("not on the first turn of the hand"),
        }),
        "chinchon": OptionWords(N_("A chinchón (seven in one run)"), {
            "match": N_("wins the match"),
            "minus_ten": N_("counts -10"),
        }),
        "target": OptionWords(N_("Points that put a player out")),
        "reentries": OptionWords(N_("Times a player may come back in")),
        "lay_off": OptionWords(N_("Laying off on the closer's melds"), {
            "on": N_("the others lay off what fits"),
            "off": N_("no laying off"),
        }),
    },
))
