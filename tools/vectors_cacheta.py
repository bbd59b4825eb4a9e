"""Cacheta's deal vectors (docs/deal.md §14): the hands ``tools.deal_vectors`` deals, plays and writes for
this game, each from its chosen position, in this order (``DEALS``)."""

from __future__ import annotations

from typing import Any

from tools.deal_vectors import deal_seed, h, rummy


def cacheta() -> dict[str, Any]:
    seed = deal_seed(h("cacheta server"), ((2, h("caio 4")),), "vectors-cacheta", 1)
    return rummy("cacheta", "Cacheta, 3 players, dealer seat 0: the flip", seed, ["ana", "bia", "caio"], 0,
                 [10, 10, 10])



DEALS = (cacheta,)
"""The game's vectors, each made by a call, in the order the file lists them."""
