"""Truco argentino's deal vectors (docs/deal.md §14): the hands ``tools.deal_vectors`` deals, plays and writes for
this game, each from its chosen position, in this order (``DEALS``)."""

from __future__ import annotations

from typing import Any

from cardtui.fair import PACKS, FairRandom, sample_positions
from tools.deal_vectors import deal_seed, h, hand, pack_of


def argentino(players: int, dealer: int, options: dict[str, Any], title: str, pica: bool = False) -> dict[str, Any]:
    names = ["ana", "bia", "caio", "duda", "eva", "fabi"][:players]
    table = f"vectors-argentino-{players}" + ("-pica" if pica else "")
    seed = deal_seed(h(f"argentino server {players}{' pica' if pica else ''}"),
                    ((0, h(f"ana {players}")), (players - 1, b"cut")), table, 1)
    record = hand("truco_argentino", names, seed, dealer, [0] * players, options=options,
                  recall={"pica_pica": True} if pica else None)
    positions = sample_positions(FairRandom(seed), 40, 3 * players)
    pack = PACKS[pack_of(record)]
    return {"title": title, "game": "truco_argentino", "pack": pack_of(record), "positions": positions,
            "drawn": [pack[p] for p in positions], "history": record}



DEALS = (
    lambda: argentino(2, 0, {}, "Truco argentino, 2 players, dealer seat 0"),
    lambda: argentino(4, 2, {"flor": True}, "Truco argentino, 4 players with flor, dealer seat 2"),
    lambda: argentino(6, 4, {}, "Truco argentino, 6 players (pica-pica on; this deal is a 3v3 round), dealer seat 4"),
    lambda: argentino(6, 1, {}, "Truco argentino, 6 players: a pica-pica deal (three 1v1s), dealer seat 1", pica=True),
)
"""The game's vectors, each made by a call, in the order the file lists them."""
