"""What a seat has seen of the cards: one count, read from its view, for the reasons, the analysis and the bots.

A seat's view holds everything it may know; this module turns it into the copies of each card whose place
the seat knows, so that the advice that states a count of unseen or live cards (``engine.advice``), the
deals the search and the analysis play out (``bots.truco_worlds``, ``bots.rummy_search``) and the bots that
count live cards (``bots.rummy_levels``) count alike:

- truco: its own cards, those it played face down included; the cards it passed to its partner (paulista's
  mão: the partner holds them); every card played face up this hand, a card of a player gone to the deck
  included, and in a pica-pica hand's earlier duels; the cards rejected face up (paulista); the cards shown
  (argentino's envido and flor); a partner's cards it sees (a mão de onze);
- Pif Paf and Cacheta: its own cards, the whole discard pile, the flip (Cacheta), and in each other seat's
  hand the copies it is known to hold, taken from the pile and not thrown since (``RummySeat.known``). A card
  taken and thrown back is on the pile and counted there once. The cards of a stock made again from the pile
  are back where a draw may bring them: not counted (the view no longer shows them, and a draw may);
- Cacho: its own cards, and every card a showdown turned up.

What is left of the deck (``unseen``) is what the seat could not place: the others' hands but for what it
knows of them, and the stock.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardtui.engine.cacho import DECK as CACHO_DECK
from cardtui.engine.cacho_records import CachoView
from cardtui.engine.cards import Card
from cardtui.engine.core import GameView
from cardtui.engine.rummy import DECK as RUMMY_DECK
from cardtui.engine.rummy_records import RummyView
from cardtui.engine.truco.argentino.rules import DECK as ARGENTINO_DECK
from cardtui.engine.truco.paulista.rules import DECK as PAULISTA_DECK
from cardtui.engine.truco.views import TrucoView


def seen(view: GameView) -> Counter[Card]:
    """The copies of each card whose place ``view``'s seat knows (see the module); empty for a spectator."""
    out: Counter[Card] = Counter()
    you = getattr(view, "you", None)
    if you is None:
        return out
    if isinstance(view, TrucoView):
        out.update(_truco(view, you))
    elif isinstance(view, RummyView):
        out.update(view.cards)
        out.update(view.pile)
        if view.flip is not None:
            out[view.flip] += 1
        for s in view.seats:
            if s.seat != you:
                out.update(s.known)
    elif isinstance(view, CachoView):
        for c in view.seats:
            out.update(c.cards)  # its own, and every hand a showdown turned up
    return out


def _truco(view: TrucoView, you: int) -> set[Card]:
    """A truco deck holds one copy of each card: the set of those the seat has seen."""
    out = set(view.cards)
    for plays in (*(t.plays for t in view.tricks), view.trick):
        out.update(p.card for p in plays if p.card is not None)
    for s in view.seats:
        if s.seat != you:
            out.update(s.cards)
    if view.paulista is not None:
        out.update(view.paulista.rejected)
        out.update(view.paulista.passed_cards)
    if view.argentino is not None:
        out.update(view.argentino.earlier)
        for shown in view.argentino.shown:
            out.update(shown.cards)
    return out


def deck(view: GameView) -> Sequence[Card]:
    """Every copy of every card of ``view``'s game."""
    if isinstance(view, TrucoView):
        return PAULISTA_DECK if view.paulista is not None else ARGENTINO_DECK
    if isinstance(view, RummyView):
        return RUMMY_DECK
    if isinstance(view, CachoView):
        return CACHO_DECK
    raise ValueError(f"No deck is known for {type(view).__name__}.")


def unseen(view: GameView) -> Counter[Card]:
    """The copies of each card whose place ``view``'s seat does not know: the deck less ``seen`` (never below 0)."""
    known = seen(view)
    out: Counter[Card] = Counter()
    for c, n in Counter(deck(view)).items():
        if n > known[c]:
            out[c] = n - known[c]
    return out
