"""Cards and their notation, shared by every game (docs/deal.md §2).

French decks: ``AS 2S … 10S JS QS KS`` with suits S H D C.
Spanish decks: ``1e … 7e 10e 11e 12e`` with suits e (espadas) b (bastos) o (oros) c (copas); the pack of 48
has ``8e 9e`` too. A joker is ``JK``, with no rank and no suit (``JOKER``).
A card is its rank and suit; two French decks hold every card twice, and a pack may hold two jokers, so hands
are multisets (tuples), never sets.

Each pack a table may be dealt from is named in ``cardtui.fair.PACKS`` (docs/deal.md §2); ``pack`` gives its
cards in the order its shuffle starts from.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from cardtui.fair import PACKS


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    ESPADAS = "e"
    BASTOS = "b"
    OROS = "o"
    COPAS = "c"
    JOKER = "*"
    """A joker's: it belongs to no suit (``JOKER``)."""

    @property
    def spanish(self) -> bool:
        return self.value.islower()

    @property
    def red(self) -> bool:
        """Hearts and diamonds are red; Cacheta's wilds follow the flip's colour."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


_SYMBOLS = {
    Suit.SPADES: "♠",
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
    Suit.ESPADAS: "⚔",
    Suit.BASTOS: "♣",
    Suit.OROS: "●",
    Suit.COPAS: "♥",
    Suit.JOKER: "★",
}

FRENCH_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
SPANISH_SUITS = (Suit.ESPADAS, Suit.BASTOS, Suit.OROS, Suit.COPAS)
_FRENCH_FACE = {1: "A", 11: "J", 12: "Q", 13: "K"}
_FRENCH_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
_SPANISH_RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
"""The pack of 40, truco's; the pack of 48 adds 8 and 9."""
_SPANISH_48 = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
JOKER_NOTATION = "JK"


_MAKING = True
"""True only while ``_all_cards`` makes the one object of each card (at import, below)."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. ``str(card)`` is its notation; ``Card.parse`` reads it back."""

    rank: int
    suit: Suit

    __hash__ = object.__hash__
    """By identity: there is one object per card (``Card.of``; made only by ``_all_cards``, ``__post_init__``
    refuses any other), so equal cards are the same object and hash alike. The fields' hash was a Python call
    at every lookup of a card in a set or dict: a fifth of a rummy bot's time."""

    def __post_init__(self) -> None:
        if not _MAKING:
            raise TypeError(f"Cards are not made anew: Card.of({self.rank}, Suit.{self.suit.name}) is the card.")

    def __str__(self) -> str:
        return _NOTATION[self]  # each card's, written once as the cards are made (a format at every call was
        # a second of a thousand rummy hands' checks)

    def __repr__(self) -> str:
        return f"Card({self})"

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self  # one object per card (``Card.of``), copies included

    def __reduce__(self) -> tuple[object, tuple[int, Suit]]:
        return (Card.of, (self.rank, self.suit))

    @staticmethod
    def of(rank: int, suit: Suit) -> Card:
        """The card of this rank and suit: always the same object, so that finding a card in a
        hand, a set or a dict is settled by identity before any comparison runs."""
        try:
            return _INTERNED[rank, suit]
        except KeyError:
            raise ValueError(f"There is no {rank} of {suit.name.lower()}.") from None

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card in notation; a bad string raises ``ValueError`` with a sentence."""
        try:
            return _PARSED[text]
        except (KeyError, TypeError):
            raise ValueError(f"{text!r} is not a card (examples: AS, 10H, QD, 1e, 12o, JK).") from None


def _written(rank: int, suit: Suit) -> str:
    if suit is Suit.JOKER:
        return JOKER_NOTATION
    if suit.spanish:
        return f"{rank}{suit.value}"
    return f"{_FRENCH_FACE.get(rank, str(rank))}{suit.value}"


def _all_cards() -> dict[str, Card]:
    out: dict[str, Card] = {}
    for suit in FRENCH_SUITS:
        for rank in range(1, 14):
            out[_written(rank, suit)] = Card(rank, suit)
    for suit in SPANISH_SUITS:
        for rank in _SPANISH_48:
            out[_written(rank, suit)] = Card(rank, suit)
    out[JOKER_NOTATION] = Card(0, Suit.JOKER)
    return out


_PARSED = _all_cards()
_INTERNED = {(c.rank, c.suit): c for c in _PARSED.values()}
_NOTATION = {c: text for text, c in _PARSED.items()}
_MAKING = False

JOKER = _PARSED[JOKER_NOTATION]
"""The joker: wild where the rules let it be, worth what they say (rank 0, no suit)."""


def parse_cards(texts: Iterable[str] | str) -> tuple[Card, ...]:
    """``parse_cards("AS 6S 3D")`` or ``parse_cards(["AS", "6S"])``."""
    if isinstance(texts, str):
        texts = texts.split()
    return tuple(Card.parse(t) for t in texts)


def notation(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def french_deck(ranks: Iterable[int] = range(1, 14), copies: int = 1) -> list[Card]:
    """A French deck restricted to ``ranks``; ``copies=2`` for the 104-card rummy pack."""
    rank_list = list(ranks)
    return [Card.of(r, s) for _ in range(copies) for s in FRENCH_SUITS for r in rank_list]


def spanish_deck() -> list[Card]:
    """The 40-card Spanish deck (no 8s or 9s)."""
    return [Card.of(r, s) for s in SPANISH_SUITS for r in _SPANISH_RANKS]


@cache
def pack(name: str) -> tuple[Card, ...]:
    """The pack called ``name`` (``cardtui.fair.PACKS``, docs/deal.md §2), in the order its shuffle starts from;
    ``ValueError`` for a name no pack has."""
    try:
        return tuple(Card.parse(c) for c in PACKS[name])
    except KeyError:
        raise ValueError(f"There is no pack called {name[:40]!r}; the packs are {', '.join(PACKS)}.") from None


def shuffled(deck: Sequence[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy; chance comes only from the rng passed in."""
    out = list(deck)
    rng.shuffle(out)
    return out
