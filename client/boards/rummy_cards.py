"""A rummy hand's cards: their orders (by suit, by rank), the melds the view made of them, and
how a meld is written, its wild card marked (``*`` acting as wild, ``°`` standing as itself).

The board shows your hand grouped as the view groups it (each meld in turn, then the loose cards);
these are the pieces it is drawn from, and the log writes a knock's melds with them too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from cardtui.client.cards import card_text
from cardtui.v1 import rummy_pb2

SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3}
"""Suits alternate colours when a hand is sorted by suit."""
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
ACTING = "*"
"""After a wild card acting as wild in its meld."""
ITSELF = "°"
"""After a wild card standing as itself."""


def rank_of(code: str) -> int:
    r = code[:-1]
    return RANKS.get(r) or int(r)


def by_suit(code: str) -> tuple[int, int]:
    return SUIT_ORDER.get(code[-1], 9), rank_of(code)


def by_rank(code: str) -> tuple[int, int]:
    return rank_of(code), SUIT_ORDER.get(code[-1], 9)


def wild_kinds(wilds: Sequence[str]) -> list[str]:
    """The wild cards, each kind once (two decks hold two of each)."""
    return sorted(set(wilds), key=by_suit)


@dataclass(frozen=True)
class Slot:
    """A card of your hand and where the view put it: a meld (its index) or loose (-1)."""

    code: str
    group: int
    acting: bool
    """A wild card acting as wild in its meld."""


def slots(v: rummy_pb2.RummyView) -> list[Slot]:
    """Your cards as the view groups them: each meld in turn, then the loose cards."""
    out: list[Slot] = []
    for i, meld in enumerate(v.melds):
        acting = max((j for j, c in enumerate(meld.cards) if c == meld.wild), default=-1) if meld.HasField(
            "wild") else -1
        out += [Slot(c, i, j == acting) for j, c in enumerate(meld.cards)]
    out += [Slot(c, -1, False) for c in sorted(v.loose, key=by_suit)]
    grouped = Counter(s.code for s in out)
    for c in v.cards:  # cards the view did not group (the hand is over, or you are out of it)
        if grouped[c]:
            grouped[c] -= 1
        else:
            out.append(Slot(c, -1, False))
    return out


def meld_text(meld: rummy_pb2.RummyMeld, wilds: Sequence[str]) -> Text:
    """A meld's cards, the card acting as wild marked."""
    out = Text()
    acting = max((j for j, c in enumerate(meld.cards) if c == meld.wild), default=-1) if meld.HasField("wild") else -1
    for j, c in enumerate(meld.cards):
        if j:
            out.append(" ")
        out.append_text(card_text(c))
        if j == acting:
            out.append(ACTING, style="bold magenta")
        elif c in wilds:
            out.append(ITSELF, style="magenta")
    return out


def melds_text(melds: Sequence[rummy_pb2.RummyMeld], wilds: Sequence[str]) -> Text:
    out = Text()
    for i, meld in enumerate(melds):
        if i:
            out.append(" │ ", style="dim")
        out.append_text(meld_text(meld, wilds))
    return out
