"""The dealing rules of docs/deal.md §10 shared by more than one game, written again from the document alone; each
game's own rule is in its own test module (``GameTests.deal``), and ``tests/test_deal_vectors.py`` holds each
published deal vector to its game's."""

from __future__ import annotations

from typing import Any


def order_from(dealer: int, n: int) -> list[int]:
    """§9: dealer + 1 first, then on round the seat numbers."""
    return [(dealer + 1 + i) % n for i in range(n)]


def rummy_deal(vector: dict[str, Any]) -> dict[str, list[str]]:
    """§10.2: nine rounds of one card from the end of the pack, dealer + 1 first, seats with
    chips or points only; Cacheta then turns the next card (the flip)."""
    record = vector["history"]
    n = len(record["seats"])
    pack = list(vector["packs"][0])
    rebuys = record.get("rebuys", {})
    playing = [s for s in order_from(record["dealer"], n) if record["start"][str(s)] > 0 or str(s) in rebuys]
    held: dict[int, list[str]] = {s: [] for s in range(n)}
    for _ in range(9):
        for s in playing:
            held[s].append(pack.pop())
    if "flip" in record:  # a game that turns a card after the deal (Cacheta)
        assert pack.pop() == record["flip"]
    assert list(reversed(pack)) == vector["stock"]
    return {str(s): held[s] for s in range(n)}
