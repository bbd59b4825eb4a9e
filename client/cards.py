"""Cards as coloured text. Formatting only: the client holds no rules."""

from __future__ import annotations

from rich.text import Text

SUITS = {
    "S": ("♠", "bold white"),
    "C": ("♣", "bold white"),
    "H": ("♥", "bold red"),
    "D": ("♦", "bold red"),
    "e": ("⚔", "bold cyan"),
    "b": ("♣", "bold green"),
    "o": ("●", "bold yellow"),
    "c": ("♥", "bold red"),
}
BACK = Text("▒▒▒", style="blue")


def card(code: str | None) -> Text:
    """``"QH"`` → ``Q♥`` in red; ``None`` → a card back."""
    if code is None:
        return BACK.copy()
    rank, suit = code[:-1], code[-1]
    symbol, style = SUITS.get(suit, (suit, "bold"))
    return Text(f"{rank:>2}{symbol}", style=style)


def hand(codes: list[str | None] | tuple[str | None, ...], sep: str = " ") -> Text:
    out = Text()
    for i, code in enumerate(codes):
        if i:
            out.append(sep)
        out.append_text(card(code))
    return out
