"""Signals between partners (seed 003's table), shared by both trucos.

A seat holding cards may make one of the standard gestures at any time. Its partners
always see it; each opponent catches it with probability ``signals_seen``, drawn from the
hand's rng so that a replay catches the same signals. A signal is a gesture, not a claim:
nothing stops a player from signalling cards they do not hold.
"""

from __future__ import annotations

import random
from enum import StrEnum

from cardtui.engine.core import Action, Event, only
from cardtui.engine.tricks import opponents, partners

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


GESTURES = {
    Signal.EYEBROW: "raises an eyebrow",
    Signal.WINK: "winks",
    Signal.LIPS_ASIDE: "moves the lips to one side",
    Signal.BITE_LIP: "bites the lip",
    Signal.KISS: "blows a kiss",
    Signal.OPEN_MOUTH: "opens the mouth",
    Signal.CLOSE_EYES: "closes both eyes",
    Signal.TILT_HEAD: "tilts the head",
}

MEANING_ARGENTINO = {
    Signal.EYEBROW: "1e",
    Signal.WINK: "1b",
    Signal.LIPS_ASIDE: "7e or 7o",
    Signal.BITE_LIP: "a 3",
    Signal.KISS: "a 2",
    Signal.OPEN_MOUTH: "a 1",
    Signal.CLOSE_EYES: "bad cards",
    Signal.TILT_HEAD: "good envido",
}
"""Seed 003's table."""

MEANING_PAULISTA = {
    Signal.EYEBROW: "4C",
    Signal.WINK: "7H",
    Signal.LIPS_ASIDE: "AS or 7D",
    Signal.BITE_LIP: "a 3",
    Signal.KISS: "a 2",
    Signal.OPEN_MOUTH: "an ace",
    Signal.CLOSE_EYES: "bad cards",
    Signal.TILT_HEAD: "a good hand",
}
"""The same gestures read for the paulista deck: the four manilhas in rank order."""

SIGNAL_ACTIONS = tuple(Action(SIGNAL, value=s.value) for s in Signal)


def send(
    rng: random.Random, seat: int, n: int, signal: Signal, chance: float, name: str
) -> tuple[frozenset[int], Event]:
    """Who sees ``seat``'s signal, and the event for them (one draw per opponent)."""
    seen = {seat, *partners(seat, n)}
    for o in opponents(seat, n):
        if rng.random() < chance:
            seen.add(o)
    who = frozenset(seen)
    event = Event(
        "signal",
        only(*who),
        f"{name} {GESTURES[signal]}.",
        seat=seat,
        data={"signal": signal.value},
    )
    return who, event
