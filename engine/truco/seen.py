"""What a seat of a truco table has seen of the cards (``engine.seen`` asks each family): its own cards, those it
played face down included; the cards it passed to its partner (paulista's mão: the partner holds them); every card
played face up this hand, a card of a player gone to the deck included, and in a pica-pica hand's earlier duels;
the cards rejected face up (paulista); the cards shown (argentino's envido and flor); a partner's cards it sees
(a mão de onze). A truco deck holds one copy of each card."""

from __future__ import annotations

from collections import Counter

from cardtui.engine.cards import Card
from cardtui.engine.truco.argentino.rules import DECK as ARGENTINO_DECK
from cardtui.engine.truco.paulista.rules import DECK as PAULISTA_DECK
from cardtui.engine.truco.views import TrucoRules, TrucoView


def seen(view: TrucoView) -> Counter[Card]:
    """The cards whose place the seat knows (see the module), once each; empty for a spectator."""
    you = view.you
    if you is None:
        return Counter()
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
    return Counter(out)


def deck(view: TrucoView) -> tuple[Card, ...]:
    """The game's pack: truco paulista's French 40 or truco argentino's Spanish 40 (the view's ``rules`` say which)."""
    return PAULISTA_DECK if view.rules is TrucoRules.PAULISTA else ARGENTINO_DECK
