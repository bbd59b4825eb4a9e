"""What cards shown make of a claim said before them: an envido's count or a flor's, by the rules' own counts.

At a sealed table nobody knows a seat's envido when it is said; the cards that make it are shown at the hand's end,
and every checker (the server, each client, ``cardtui verify``) holds the number said against them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardtui.engine.cards import parse_cards
from cardtui.engine.truco.envido import Unsuited, envido
from cardtui.engine.truco.flor import flor_value

ENVIDO, FLOR = "envido", "flor"


def made(kind: str, cards: Sequence[str], unsuited: Unsuited = Unsuited.SUM_TWO) -> int:
    """The count ``cards`` (as docs/deal.md §2 writes them) make for ``kind``: envido, or flor (-1 without one)."""
    parsed = parse_cards(list(cards))
    if kind == FLOR:
        return flor_value(parsed)
    if kind == ENVIDO:
        return envido(parsed, unsuited)[0]
    raise ValueError(f"no claim called {kind!r}")


def holds(kind: str, value: int, cards: Sequence[str], unsuited: Unsuited = Unsuited.SUM_TWO) -> bool:
    """Whether ``cards`` shown make the ``value`` said for ``kind``, counted as the table counts an envido of no two
    cards of one suit (its ``envido_unsuited``)."""
    return made(kind, cards, unsuited) == value


def judge_for(options: object) -> Callable[[str, int, Sequence[str]], bool]:
    """``holds`` for a table's options as its history writes them (``envido_unsuited``; the default without)."""
    said = options.get("envido_unsuited") if isinstance(options, dict) else None
    unsuited = Unsuited(said) if said in {u.value for u in Unsuited} else Unsuited.SUM_TWO

    def judge(kind: str, value: int, cards: Sequence[str]) -> bool:
        return holds(kind, value, cards, unsuited)
    return judge
