"""Truco paulista's rules data: options, the deck and its ranking, the truco ladder, the actions."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardtui.engine.cards import Card, french_deck
from cardtui.engine.core import Action, GameOptions
from cardtui.engine.options import option
from cardtui.engine.truco.ladder import Bet, Rung, Steps, Word
from cardtui.engine.truco.sealed import SEALED_HELP
from cardtui.engine.truco.signals import CHAT_HELP, SIGNALS_SEEN_HELP, Chat
from cardtui.engine.truco.tricks import strength_table

DECK = tuple(french_deck(ranks=(1, 2, 3, 4, 5, 6, 7, 11, 12, 13)))
"""40 cards: the French deck less 8, 9 and 10."""
TARGET = 12


def _rank(rank: int, exclude: tuple[str, ...] = ()) -> list[Card]:
    return [c for c in DECK if c.rank == rank and str(c) not in exclude]


_MANILHAS = ("4C", "7H", "AS", "7D")
RANK = strength_table(
    [
        *([Card.parse(m)] for m in _MANILHAS),
        _rank(3),
        _rank(2),
        _rank(1, _MANILHAS),
        _rank(13),
        _rank(11),
        _rank(12),
        _rank(7, _MANILHAS),
        _rank(6),
        _rank(5),
        _rank(4, _MANILHAS),
    ]
)
"""Card → strength: 4C, 7H, AS, 7D, then 3, 2, A, K, J, Q, 7, 6, 5, 4 (suits tie)."""


class TrucoDecides(StrEnum):
    TRICK = "trick"
    """Once a truco is accepted, the trick being played decides the hand (docs/rules.md §3)."""
    HAND = "hand"
    """Best of three tricks as usual."""


@dataclass(frozen=True, slots=True)
class PaulistaOptions(GameOptions):
    truco_decides: TrucoDecides = option(
        TrucoDecides.TRICK,
        "Once a truco is accepted: the trick in play decides the hand, or the hand goes on, best of three.",
    )
    chat: Chat = option(Chat.SPECTATORS_AND_BETWEEN_HANDS, CHAT_HELP)
    signals_seen: float = option(0.25, SIGNALS_SEEN_HELP, min=0.0, max=1.0)
    sealed: bool = option(False, SEALED_HELP)


LADDER = Steps(
    Bet.TRUCO,
    1,
    (Rung(Word.TRUCO, 3, 1), Rung(Word.SEIS, 6, 3), Rung(Word.NOVE, 9, 6), Rung(Word.DOZE, 12, 9)),
)
"""Truco 3, seis 6, nove 9, doze 12; run from a call and the callers take the stake before it."""
ONZE_STAKE = 3
"""A mão de onze played is played for 3, with no truco."""

KEEP = Action("keep")
ACCEPT = Action("accept")
"""Aceito: accept a call, or play a mão de onze."""
RUN = Action("run")
"""Corro: run from a call, or from a mão de onze."""
CALLS = {r.call: Action(r.call.value) for r in LADDER.rungs}
WORDS = {r.call.value: r.call for r in LADDER.rungs}
PLAY = {c: Action("play", cards=(c,)) for c in DECK}
PLAY_DOWN = {c: Action("play_down", cards=(c,)) for c in DECK}
PLAY_BLIND = tuple(Action("play_blind", amount=i) for i in range(4))
"""Mão de ferro: the first, second or third of one's unseen cards (amount 1–3)."""
ACTION_TYPES = frozenset(
    {"keep", "pass_cards", "reject", "accept", "run", "play", "play_down", "play_blind", "play_unopened", "signal",
     *WORDS}
)
