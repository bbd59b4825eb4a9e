"""Pif Paf's deal vectors (docs/deal.md §14): the hands ``tools.deal_vectors`` deals, plays and writes for
this game, each from its chosen position, in this order (``DEALS``)."""

from __future__ import annotations

from typing import Any

from tools.deal_vectors import deal_seed, h, rummy, until_rebuilt


def pifpaf() -> dict[str, Any]:
    seed = deal_seed(h("pifpaf server"), ((0, h("ana 3")), (1, bytes(64)), (3, h("duda 3"))), "vectors-pifpaf", 1)
    return rummy("pifpaf", "Pif Paf, 4 players, dealer seat 2: the stock runs out and is rebuilt", seed,
                 ["ana", "bia", "caio", "duda"], 2, [50, 50, 50, 50], policy=until_rebuilt)



DEALS = (pifpaf,)
"""The game's vectors, each made by a call, in the order the file lists them."""
