"""Truco paulista, as this client shows, says and checks it."""

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

NAME = "truco_paulista"


def board() -> type[Board]:
    from cardtui.client.boards.truco import TrucoBoard

    return TrucoBoard


def lines() -> Family:
    from cardtui.client.boards.truco_family import TRUCO_FAMILY

    return TRUCO_FAMILY


GAME = gamebook.register(gamebook.ClientGame(
    name=NAME,
    title="Truco paulista",
    board=board,
    lines=lines,
    pack=PACKS["french40"],
    dealing=fairness.Dealing(passes=True),
    deal_check=truco_deal.paulista,
    leaving=N_("A bot plays your seat until someone takes it; your team plays on with it."),
    teams=True,
    held=3,
    face_down=True,
    cards_played=True,
    kinds=("truco", "accept", "run", "keep", "pass_cards", "reject", "signal"),
    # The rungs of the truco share ``t`` (only the next one is ever on offer); cards are the board's: ``1``-``3``
    # by their place in the hand as dealt, ``d`` to play one face down.
    keys={"keep": "k", "pass_cards": "p", "reject": "r", "accept": "q", "run": "n", "truco": "t", "seis": "t",
          "nove": "t", "doze": "t", "signal": "s"},
    labels={"keep": N_("Fico (keep)"), "pass_cards": N_("Pass on"), "reject": N_("Reject"), "accept": "Aceito",
            "run": "Corro", "truco": "Truco!", "seis": "Seis!", "nove": "Nove!", "doze": "Doze!", "play": N_("Play"),
            "play_down": N_("Face down"), "play_blind": N_("Turn up"), "signal": "Sinal",
            "play_unopened": N_("Face down, unopened")},
    labeller=truco_label,
    phrases=TRUCO_ONLY,
    options={
        "truco_decides": OptionWords(N_("After a truco is accepted"), {
            "trick": N_("the trick in play decides the hand"),
            "hand": N_("best of three tricks, as usual"),
        }),
        "chat": CHAT,
        "signals_seen": SIGNALS_SEEN,
        "sealed": SEALED,
    },
))
