"""Truco argentino's rules data: options, the deck and its ranking, the truco ladder, the actions.

The actions are built once here and shared, so listing legal actions allocates little:
the engine's hot path is a few list operations on these constants.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from cardtui.engine.cards import Card, spanish_deck
from cardtui.engine.core import Action, GameOptions
from cardtui.engine.options import option
from cardtui.engine.truco.envido import NEXT, Unsuited, card_points
from cardtui.engine.truco.ladder import Bet, Rung, Steps, Word
from cardtui.engine.truco.sealed import SEALED_HELP
from cardtui.engine.truco.signals import CHAT_HELP, SIGNALS_SEEN_HELP, Chat
from cardtui.engine.truco.tricks import strength_table

DECK = tuple(spanish_deck())
POINTS_AT = tuple(card_points(c) for c in DECK)
"""Each card's envido points, by position in ``DECK``: the deal scores hands from these."""
SUIT_AT = tuple(c.suit for c in DECK)
"""Each card's suit, by position in ``DECK``."""


def _cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def _rank(ranks: str, exclude: str = "") -> list[Card]:
    skip = set(_cards(exclude))
    return [c for c in DECK if str(c.rank) in ranks.split() and c not in skip]


RANK = strength_table(
    [
        _cards("1e"),
        _cards("1b"),
        _cards("7e"),
        _cards("7o"),
        _rank("3"),
        _rank("2"),
        _rank("1", "1e 1b"),
        _rank("12"),
        _rank("11"),
        _rank("10"),
        _rank("7", "7e 7o"),
        _rank("6"),
        _rank("5"),
        _rank("4"),
    ]
)
"""Card → strength: 1e, 1b, 7e, 7o, then 3, 2, 1, 12, 11, 10, 7, 6, 5, 4 (suits tie)."""


class Ties(StrEnum):
    """How a tied trick is settled (docs/rules.md §4), named by the rule."""

    PLAY_ON = "play_on"
    """A tied trick makes the next take all; all three tied: the mano's team."""
    FIRST_TRICK = "first_trick"
    """The winner of trick 1 wins on a later tie."""

    @classmethod
    def _missing_(cls, value: object) -> Ties | None:
        """Tables and hand histories stored before the rename carry ``seed`` / ``traditional``."""
        return {"seed": cls.PLAY_ON, "traditional": cls.FIRST_TRICK}.get(str(value))


class EnvidoScored(StrEnum):
    ROUND_END = "round_end"
    """Envido and flor points are added with the truco's, when the round ends (the seed)."""
    AT_ONCE = "at_once"
    """Added as soon as they are settled, so they can decide a 29–29 game."""


@dataclass(frozen=True, slots=True)
class ArgentinoOptions(GameOptions):
    target: int = option(30, "Points to win: 30 (told in malas and buenas) or 15.", min=15, max=30, values=(15, 30))
    ties: Ties = option(
        Ties.PLAY_ON,
        "Tied tricks: play on (a tied trick makes the next take all) or first trick (the first trick's "
        "winner wins on a later tie).",
    )
    envido_unsuited: Unsuited = option(
        Unsuited.SUM_TWO, "Envido of a hand with no two cards of one suit: its two best cards summed, or its single "
        "best card."
    )
    pica_pica: bool = option(True, "Six players: alternate a 3v3 round with three 1v1s, dealt together.")
    flor: bool = option(False, "Play with flor (three cards of one suit); off: sin flor.")
    envido_scored: EnvidoScored = option(
        EnvidoScored.ROUND_END, "Envido and flor points: added when the round ends, or at once when settled."
    )
    mazo_first: int = option(
        1,
        "What a team gives by going to the deck in the first trick while the envido could still be called.",
        min=1,
        max=2,
    )
    chat: Chat = option(Chat.SPECTATORS_AND_BETWEEN_HANDS, CHAT_HELP)
    signals_seen: float = option(0.25, SIGNALS_SEEN_HELP, min=0.0, max=1.0)
    sealed: bool = option(False, SEALED_HELP)


LADDER = Steps(
    Bet.TRUCO,
    1,
    (Rung(Word.TRUCO, 2, 1), Rung(Word.RETRUCO, 3, 2), Rung(Word.VALE_CUATRO, 4, 3)),
)
"""Truco 2, retruco 3, vale cuatro 4; refused, the stake before the call (1, 2, 3)."""

TRUCO_CALLS = {i: Action(r.call.value) for i, r in enumerate(LADDER.rungs, 1)}
"""The call that takes the truco to each level (1 truco, 2 retruco, 3 vale cuatro)."""
TRUCO_LEVEL = {r.call.value: i for i, r in enumerate(LADDER.rungs, 1)}
QUIERO = Action("quiero")
NO_QUIERO = Action("no_quiero")
SON_BUENAS = Action("son_buenas")
MAZO = Action("mazo")
ANNOUNCE = tuple(Action("announce", amount=k) for k in range(40))
PLAY = {c: Action("play", cards=(c,)) for c in DECK}
PLAY_AT = tuple(PLAY[c] for c in DECK)
"""The play actions by position in ``DECK``: the deal looks them up without hashing cards."""
ENVIDO_CALLS: dict[tuple[Word, ...], tuple[Action, ...]] = {
    calls: tuple(Action(c.value) for c in nxt) for calls, nxt in NEXT.items()
}
"""The envido calls that may follow a sequence of calls (none after Falta Envido)."""
ENVIDO_WORDS = {c.value: c for c in (Word.ENVIDO, Word.REAL_ENVIDO, Word.FALTA_ENVIDO)}
FLOR = Action(Word.FLOR.value)
ACHICO = Action(Word.CON_FLOR_ME_ACHICO.value)
CONTRA = Action(Word.CONTRA_FLOR.value)
RESTO = Action(Word.CONTRA_FLOR_AL_RESTO.value)
FLOR_WORDS = {c.value: c for c in (Word.CON_FLOR_ME_ACHICO, Word.CONTRA_FLOR, Word.CONTRA_FLOR_AL_RESTO)}
ACTION_TYPES = frozenset(
    {"play", "quiero", "no_quiero", "announce", "son_buenas", "mazo", "signal", "flor", "play_unopened", "show",
     *TRUCO_LEVEL, *ENVIDO_WORDS, *FLOR_WORDS}
)


def told(score: int, target: int) -> tuple[int, bool] | None:
    """A score to 30 told in malas (0–15) and buenas (16–30): (count, buenas); None to 15."""
    if target != 30:
        return None
    return (score, False) if score <= 15 else (score - 15, True)
