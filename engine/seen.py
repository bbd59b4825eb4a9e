"""What a seat has seen of the cards: one count, read from its view, for the reasons, the analysis and the bots.

A seat's view holds everything it may know; this module turns it into the copies of each card whose place
the seat knows, so that the advice that states a count of unseen or live cards (``engine.advice``), the
deals the search and the analysis play out (the families' searches) and the bots that count live cards count
alike. Each family says what its seats have seen (``engine.family``; ``engine/<family>/seen.py``): truco, a seat's
own cards, every card played face up, rejected, passed or shown; rummy, its own cards, the discard pile, a card
turned out of play and what the others are known to hold; Cacho, its own cards and every hand a showdown turned up.

What is left of the deck (``unseen``) is what the seat could not place: the others' hands but for what it
knows of them, and the stock.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardtui.engine import family
from cardtui.engine.cards import Card
from cardtui.engine.core import GameView


def seen(view: GameView) -> Counter[Card]:
    """The copies of each card whose place ``view``'s seat knows (its family's count); empty for a spectator."""
    return family.of(view).seen(view)


def deck(view: GameView) -> Sequence[Card]:
    """Every copy of every card of the pack ``view``'s table is dealt from."""
    return family.of(view).deck(view)


def unseen(view: GameView) -> Counter[Card]:
    """The copies of each card whose place ``view``'s seat does not know: the deck less ``seen`` (never below 0)."""
    known = seen(view)
    out: Counter[Card] = Counter()
    for c, n in Counter(deck(view)).items():
        if n > known[c]:
            out[c] = n - known[c]
    return out
