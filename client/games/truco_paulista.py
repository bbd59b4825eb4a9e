"""Truco paulista, as this client shows, says and checks it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtui.client import fairness, gamebook
from cardtui.client.option_words import CHAT, SIGNALS_SEEN, OptionWords
from cardtui.client.phrases import TRUCO_ONLY
from cardtui.fair import PACKS
from cardtui.i18n import N_

if TYPE_CHECKING:
    from cardtui.client.boards.base import Board

NAME = "truco_paulista"


def board() -> type[Board]:
    from cardtui.client.boards.truco import TrucoBoard

    return TrucoBoard


GAME = gamebook.register(gamebook.ClientGame(
    name=NAME,
    title="Truco paulista",
    board=board,
    pack=PACKS[NAME],
    dealing=fairness.Dealing(passes=True),
    deal_check=fairness.paulista,
    leaving=N_("A bot plays your seat until someone takes it; your team plays on with it."),
    teams=True,
    held=3,
    face_down=True,
    cards_played=True,
    kinds=("truco", "accept", "run", "keep", "pass_cards", "reject", "signal"),
    brief=True,
    phrases=TRUCO_ONLY,
    options={
        "truco_decides": OptionWords(N_("After a truco is accepted"), {
            "trick": N_("the trick in play decides the hand"),
            "hand": N_("best of three tricks, as usual"),
        }),
        "chat": CHAT,
        "signals_seen": SIGNALS_SEEN,
    },
))
