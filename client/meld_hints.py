"""A meld hint as the table's log says it (``h`` at every rummy game; table.proto's ``Hint``).

The server works it out from the player's own cards alone; this says it: the melds the picked
card makes already, then the pairs it makes and the cards (any one of them) that would complete each.
"""

from __future__ import annotations

from rich.text import Text

from cardtui.client.cards import glyphs
from cardtui.i18n import _
from cardtui.v1 import table_pb2


def hint_told(card: str, hint: table_pb2.HintResponse) -> Text:
    """One line: ``Meld hint, 7♥: 5♥ 6♥ 7♥ (a meld) · 7♥ 8♥ with 6♥ or 9♥``."""
    out = Text(_("Meld hint, {card}:").format(card=glyphs(card)) + " ", style="bold")
    if not hint.melds:
        out.append(_("no meld of your cards, not even with one more card."), style="dim")
        return out
    for i, meld in enumerate(hint.melds):
        if i:
            out.append(" · ")
        cards = " ".join(glyphs(c) for c in meld.cards)
        if not meld.needs:
            out.append(_("{cards} (a meld)").format(cards=cards), style="bold green")
        else:
            needs = _(" or ").join(glyphs(c) for c in meld.needs[:4]) + ("…" if len(meld.needs) > 4 else "")
            out.append(_("{cards} with {needs}").format(cards=cards, needs=needs))
    return out
