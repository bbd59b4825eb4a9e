"""Cacho's deal vectors (docs/deal.md §14): the hands ``tools.deal_vectors`` deals, plays and writes for
this game, each from its chosen position, in this order (``DEALS``)."""

from __future__ import annotations

from typing import Any

from cardtui.engine.core import Action
from cardtui.fair import PACKS, FairRandom, shuffled
from tools.deal_vectors import deal_seed, h, hand, pack_of, shuffle_draws


def cacho_redeal() -> dict[str, Any]:
    """Three players, the dealer seat 1: everyone passes the first card (a redeal), then two bet."""
    seed = deal_seed(bytes(range(32)), ((0, h("ana")), (2, b"\x07")), "vectors-cacho", 1)
    first_round = {"redealt": False}

    def policy(state: Any, seat: int, legal: list[Action]) -> Action | None:
        if state.round == 1 and not first_round["redealt"]:
            if seat == 1:  # the last to speak: the deal is void after this pass
                first_round["redealt"] = True
            return Action("pass")
        if state.round in (1, 2):
            return Action("pass") if seat == 1 else next(a for a in legal if a.type == "bet")
        return next((a for a in legal if a.type in ("check", "call")), None)

    record = hand("cacho", ["ana", "bia", "caio"], seed, 1, [20, 20, 20], policy=policy)
    rng = FairRandom(seed)
    pack = pack_of(record)
    packs = [shuffled(PACKS[pack], rng) for _ in range(2)]
    return {"title": "Cacho, 3 players, dealer seat 1: a redeal", "game": "cacho", "pack": pack, "packs": packs,
            "draws": shuffle_draws(PACKS[pack], seed), "history": record}


def cacho_bust() -> dict[str, Any]:
    """Four players, seat 2 out of chips: it is skipped; the dealer is seat 3."""
    seed = deal_seed(h("cacho server 2"), ((1, h("bia 2")), (3, h("duda 2"))), "vectors-cacho-2", 1)
    record = hand("cacho", ["ana", "bia", "caio", "duda"], seed, 3, [5, 3, 0, 7], bots=2)
    packs = [shuffled(PACKS[pack_of(record)], FairRandom(seed))]
    return {"title": "Cacho, 4 players, seat 2 has no chips, dealer seat 3", "game": "cacho",
            "pack": pack_of(record), "packs": packs, "history": record}



DEALS = (cacho_redeal, cacho_bust)
"""The game's vectors, each made by a call, in the order the file lists them."""
