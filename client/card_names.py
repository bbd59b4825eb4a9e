"""Cards said as a person names them ("7 of hearts", "rei de paus"), in the reader's language: the line mode's words
for a card (``client.lines.sentences``), which each family's own words use too (``client/boards/*_lines.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardtui.i18n import N_, NP_, _, pgettext

SUIT_NAMES = {"S": N_("spades"), "C": N_("clubs"), "H": N_("hearts"), "D": N_("diamonds")}
SPANISH_SUIT_NAMES = {"e": NP_("spanish deck", "swords"), "b": NP_("spanish deck", "clubs"),
                      "o": NP_("spanish deck", "coins"), "c": NP_("spanish deck", "cups")}
"""The Spanish deck's suits: its bastos are clubs in English, but not the French deck's clubs in Spanish
(tréboles), hence a context of their own."""
FRENCH_RANKS = {"A": N_("ace"), "J": N_("jack"), "Q": N_("queen"), "K": N_("king")}
SPANISH_RANKS = {"1": N_("ace"), "10": N_("jack"), "11": N_("knight"), "12": N_("king")}
"""The Spanish deck's 10, 11 and 12 are the sota, the caballo and the rey."""
SPANISH = frozenset("ebco")


def card_words(code: str, short: bool = False) -> str:
    """``"7H"`` → "7 of hearts", ``"12b"`` → "king of clubs": a card as a person names it; ``short``: as the
    terse level says it, the rank and the suit alone ("7 hearts", "king clubs"), quicker to hear."""
    rank, suit = code[:-1], code[-1]
    return name_of(rank, suit, short)


def name_of(rank: str, suit: str, short: bool = False) -> str:
    named, suit_name = rank_and_suit(rank, suit)
    if short:
        return pgettext("a card, said short", "{rank} {suit}").format(rank=named, suit=suit_name)
    return _("{rank} of {suit}").format(rank=named, suit=suit_name)


def cards_words(codes: Iterable[str], short: bool = False) -> str:
    """Cards as a list said aloud: "7 of swords, 3 of cups and king of clubs" (``short``: "7 swords, ...")."""
    names = [card_words(c, short) for c in codes]
    if not names:
        return _("no cards")
    if len(names) == 1:
        return names[0]
    return _("{some} and {last}").format(some=", ".join(names[:-1]), last=names[-1])


def rank_and_suit(rank: str, suit: str) -> tuple[str, str]:
    """A card's rank and suit words, in the reader's language."""
    ranks = SPANISH_RANKS if suit in SPANISH else FRENCH_RANKS
    suit_name = (pgettext("spanish deck", SPANISH_SUIT_NAMES[suit]) if suit in SPANISH_SUIT_NAMES
                 else _(SUIT_NAMES.get(suit, suit)))
    return (_(ranks[rank]) if rank in ranks else rank), suit_name


PLACE = "place"
"""The context of a card's place as a word (literal in each ``NP_``, as the extractor reads it)."""
ORDINALS = (NP_("place", "first"), NP_("place", "second"), NP_("place", "third"), NP_("place", "fourth"),
            NP_("place", "fifth"), NP_("place", "sixth"), NP_("place", "seventh"), NP_("place", "eighth"),
            NP_("place", "ninth"), NP_("place", "tenth"), NP_("place", "eleventh"), NP_("place", "twelfth"))
"""A card's place in the hand, as a word: said before a card's name, never a number before a number."""


def ordinal(n: int) -> str:
    return pgettext(PLACE, ORDINALS[n - 1]) if 1 <= n <= len(ORDINALS) else str(n)


def placed(places: Sequence[str | None]) -> str:
    """Cards in the order of their numbers: as a list where every place holds one, else each with its place as a
    word ("first: 7 of swords; third: king of cups"), a played one's place skipped."""
    if all(c is not None for c in places):
        return cards_words([c for c in places if c is not None])
    return "; ".join(_("{place}: {card}").format(place=ordinal(n), card=card_words(c))
                     for n, c in enumerate(places, start=1) if c is not None)
