"""Cards as coloured text. Formatting only: the client holds no rules.

Every suit has a mark of its own, the same on the board and in the log: the Spanish suits
are not drawn as French ones (bastos are not clubs, copas are not hearts).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

SUITS = {
    "S": ("♠", "bold white"),
    "C": ("♣", "bold white"),
    "H": ("♥", "bold red"),
    "D": ("♦", "bold red"),
    "e": ("⚔", "bold cyan"),
    "b": ("♧", "bold green"),
    "o": ("●", "bold yellow"),
    "c": ("♡", "bold red"),
}
BACK = Text("▒▒▒", style="blue")


def glyphs(code: str) -> str:
    """``"7H"`` → ``7♥``: a card as plain text, for places that cannot hold colour."""
    rank, suit = code[:-1], code[-1]
    return rank + SUITS.get(suit, (suit, ""))[0]


def card_text(code: str | None) -> Text:
    """``"QH"`` → ``Q♥`` in red; ``None`` → a card back."""
    if code is None:
        return BACK.copy()
    rank, suit = code[:-1], code[-1]
    symbol, style = SUITS.get(suit, (suit, "bold"))
    return Text(f"{rank}{symbol}", style=style)


def cards_text(codes: Iterable[str | None], sep: str = " ") -> Text:
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(sep)
        out.append_text(card_text(code))
    return out


def card(code: str | None) -> Text:
    """A card padded to a fixed width, for boards that line cards up."""
    out = card_text(code)
    if code is not None and len(code) == 2:
        out = Text(" ") + out
    return out


def hand(codes: Iterable[str | None], sep: str = " ") -> Text:
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(sep)
        out.append_text(card(code))
    return out


def backs(n: int) -> Text:
    return hand([None] * n)
