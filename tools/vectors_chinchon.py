"""Chinchón's deal vectors (docs/deal.md §14): the hands ``tools.deal_vectors`` deals, plays and writes for
this game, each from its chosen position, in this order (``DEALS``)."""

from __future__ import annotations

from typing import Any

from tools.deal_vectors import deal_seed, h, rummy


def chinchon() -> dict[str, Any]:
    """Chinchón at three, the pack of 48 and two jokers (the options choose it): the card turned up, then the stock."""
    seed = deal_seed(h("chinchon server"), ((1, h("bia 7")), (2, h("caio 7"))), "vectors-chinchon", 1)
    return rummy("chinchon", "Chinchón, 3 players, dealer seat 2, the pack of 48 and two jokers: the card turned up",
                 seed, ["ana", "bia", "caio"], 2, [0, 0, 0], options={"cards": 48, "jokers": 2})



DEALS = (chinchon,)
"""The game's vectors, each made by a call, in the order the file lists them."""
