"""Signals between partners (docs/rules.md, "Signals"), shared by both trucos.

A seat playing the round with a partner beside it in that round may make one of the
standard gestures at any time: with nobody to read it (a 1v1, a pica-pica duel) there is
no signal to make. Its partners always see it; each opponent catches it with probability
``signals_seen``, drawn from the hand's rng so that a replay catches the same signals. A
signal is a gesture, not a claim: nothing stops a player from signalling cards they do
not hold. What each gesture means is the players' business (clients show the table of
signals, docs/rules.md); the engine only carries it. Each gesture is made once a hand: the
partners saw it the first time, so a repeat says nothing, and a hand's signals stay a few (every
view carries them) however often a client asks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from cardtui.engine.core import N_, Action
from cardtui.engine.truco.tricks import opponents, partners

SIGNAL = "signal"


class Signal(StrEnum):
    EYEBROW = "eyebrow"
    WINK = "wink"
    LIPS_ASIDE = "lips_aside"
    BITE_LIP = "bite_lip"
    KISS = "kiss"
    OPEN_MOUTH = "open_mouth"
    CLOSE_EYES = "close_eyes"
    TILT_HEAD = "tilt_head"


SIGNALS = {s.value: s for s in Signal}
SIGNAL_ACTIONS = tuple(Action(SIGNAL, value=s.value) for s in Signal)
MADE = N_("You have made that gesture this hand already: your partners saw it.")
"""Why a gesture is refused the second time in a hand."""


def made(signals: Sequence[tuple[int, Signal, frozenset[int]]], seat: int, value: str) -> bool:
    """Whether ``seat`` has made this gesture this hand (``signals``: the hand's, in order)."""
    return any(s == seat and sig.value == value for s, sig, _ in signals)


def unmade(actions: list[Action], signals: Sequence[tuple[int, Signal, frozenset[int]]], seat: int) -> list[Action]:
    """``actions`` less the gestures ``seat`` has made this hand."""
    done = {sig.value for s, sig, _ in signals if s == seat}
    if not done:
        return actions
    return [a for a in actions if a.type != SIGNAL or a.value not in done]


def audience(rng: random.Random, seat: int, n: int, chance: float) -> frozenset[int]:
    """Who sees ``seat``'s signal: the signaller, its partners, and each opponent who catches it
    (drawn from the deal's stream after the deal: docs/deal.md §11)."""
    seen = {seat, *partners(seat, n)}
    for o in opponents(seat, n):
        if rng.random() < chance:
            seen.add(o)
    return frozenset(seen)


class Chat(StrEnum):
    """Talk about one's hand is not allowed (signals are), so table chat is an option."""

    SPECTATORS_AND_BETWEEN_HANDS = "spectators-and-between-hands"
    ALWAYS = "always"


CHAT_HELP = N_("Who may chat at the table: spectators, and players between hands; or anyone, always.")
SIGNALS_SEEN_HELP = N_("The chance that each opponent catches a signal (partners always see it).")
