"""Truco argentino, as this client shows, says and checks it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtui.client import fairness, gamebook
from cardtui.client.boards import truco_deal
from cardtui.client.boards.truco_words import truco_label
from cardtui.client.option_words import CHAT, SEALED, SIGNALS_SEEN, OptionWords
from cardtui.client.phrases import TRUCO_ONLY
from cardtui.fair import PACKS
from cardtui.i18n import N_

if TYPE_CHECKING:
    from cardtui.client.boards.base import Board
    from cardtui.client.shape import Family

NAME = "truco_argentino"


def board() -> type[Board]:
    from cardtui.client.boards.truco import TrucoBoard

    return TrucoBoard


def lines() -> Family:
    from cardtui.client.boards.truco_family import TRUCO_FAMILY

    return TRUCO_FAMILY


GAME = gamebook.register(gamebook.ClientGame(
    name=NAME,
    title="Truco argentino",
    board=board,
    lines=lines,
    pack=PACKS["spanish40"],
    dealing=fairness.Dealing(passes=True, duels=truco_deal.duel_begun),
    deal_check=truco_deal.argentino,
    leaving=N_("A bot plays your seat until someone takes it; your team plays on with it."),
    teams=True,
    held=3,
    cards_played=True,
    kinds=("truco", "quiero", "no_quiero", "envido", "real_envido", "falta_envido", "announce", "son_buenas", "flor",
           "contra_flor", "contra_flor_al_resto", "con_flor_me_achico", "mazo", "signal"),
    # The rungs of the truco share ``t`` (only the next one is ever on offer); cards are the board's: ``1``-``3``
    # by their place in the hand as dealt.
    keys={"truco": "t", "retruco": "t", "vale_cuatro": "t", "quiero": "q", "no_quiero": "n", "envido": "e",
          "real_envido": "r", "falta_envido": "f", "announce": "a", "son_buenas": "b", "flor": "l", "contra_flor": "c",
          "contra_flor_al_resto": "o", "con_flor_me_achico": "h", "mazo": "m", "signal": "s"},
    labels={"truco": "Truco", "retruco": "Retruco", "vale_cuatro": "Vale cuatro", "quiero": "Quiero",
            "no_quiero": "No quiero", "envido": "Envido", "real_envido": "Real envido", "falta_envido": "Falta envido",
            "announce": "Tengo", "son_buenas": "Son buenas", "flor": "Flor", "con_flor_me_achico": "Me achico",
            "contra_flor": "Contra flor", "contra_flor_al_resto": "Al resto", "mazo": "Al mazo", "play": N_("Play"),
            "signal": "Seña", "play_unopened": N_("Face down, unopened"), "show": N_("Show the claim's cards")},
    labeller=truco_label,
    phrases=TRUCO_ONLY,
    options={
        "target": OptionWords(N_("Points to win")),
        "ties": OptionWords(N_("Tied tricks"), {
            "play_on": N_("play on: a tie makes the next trick take all"),
            "first_trick": N_("the winner of the first trick wins a later tie"),
        }),
        "envido_unsuited": OptionWords(N_("Envido with no two of a suit"), {
            "sum_two": N_("two best cards, even of different suits"),
            "highest": N_("the single best card"),
        }),
        "pica_pica": OptionWords(N_("Pica-pica (six players)"), {
            "on": N_("a 3v3 round, then three 1v1s"),
            "off": N_("always 3v3"),
        }),
        "flor": OptionWords(N_("Flor"), {
            "on": N_("with flor (three cards of one suit)"),
            "off": N_("sin flor: no flor"),
        }),
        "envido_scored": OptionWords(N_("Envido points are added"), {
            "round_end": N_("when the round ends"),
            "at_once": N_("as soon as the envido is settled"),
        }),
        "mazo_first": OptionWords(N_("Points for going to the deck in the first trick")),
        "chat": CHAT,
        "signals_seen": SIGNALS_SEEN,
        "sealed": SEALED,
    },
))
