"""Truco paulista's deal vectors (docs/deal.md §14): the hands ``tools.deal_vectors`` deals, plays and writes for
this game, each from its chosen position, in this order (``DEALS``)."""

from __future__ import annotations

from typing import Any

from cardtui.engine.core import Action, Game
from cardtui.engine.games import GAMES
from tools.deal_vectors import deal_seed, game_deck, h, hand, pack_of


def paulista_blocks(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The three-card blocks as the deal gives them out, front of the pack first, and to whom."""
    game = GAMES["truco_paulista"]
    assert isinstance(game, Game)
    out: list[dict[str, Any]] = []
    before: list[Any] | None = None
    for _seat, _action, _events, state in game.replaying(record):
        hands = [list(map(str, h_)) for h_ in state.hands]
        taken = 40 - len(state.deck)
        if len(out) * 3 < taken:
            for i in range(len(out), taken // 3):
                cards = [str(c) for c in game_deck(record)[3 * i:3 * i + 3]]
                to = next(s for s in range(4) if hands[s] == cards and (before is None or before[s] != cards))
                out.append({"to": to, "cards": cards})
        before = hands
    return out


def paulista_choices() -> dict[str, Any]:
    """The mão rejects, passes to the partner, then keeps; the others are dealt in turn."""
    seed = deal_seed(h("paulista server"), ((1, h("bia 5")), (2, h("caio 5"))), "vectors-paulista", 1)
    script = ["reject", "pass_cards", "keep"]

    def policy(state: Any, seat: int, legal: list[Action]) -> Action | None:
        if state.phase.value == "deal" and script:
            kind = script.pop(0)
            return next(a for a in legal if a.type == kind)
        return None

    record = hand("truco_paulista", ["ana", "bia", "caio", "duda"], seed, 3, [0, 0, 0, 0], policy=policy)
    return {"title": "Truco paulista, dealer seat 3 (the mão is seat 0): reject, pass, keep",
            "game": "truco_paulista", "pack": pack_of(record), "packs": [game_deck(record)],
            "blocks": paulista_blocks(record), "history": record}


def paulista_onze() -> dict[str, Any]:
    seed = deal_seed(h("paulista server 2"), ((0, h("ana 6")),), "vectors-paulista-2", 1)
    record = hand("truco_paulista", ["ana", "bia", "caio", "duda"], seed, 0, [11, 7, 11, 7])
    return {"title": "Truco paulista, mão de onze (team 0 on 11), dealer seat 0", "game": "truco_paulista",
            "pack": pack_of(record), "packs": [game_deck(record)], "blocks": paulista_blocks(record), "history": record}


def paulista_ferro() -> dict[str, Any]:
    seed = deal_seed(h("paulista server 3"), (), "vectors-paulista-3", 1)
    record = hand("truco_paulista", ["ana", "bia", "caio", "duda"], seed, 2, [11, 11, 11, 11])
    return {"title": "Truco paulista, mão de ferro (both on 11), dealer seat 2, no player's seed",
            "game": "truco_paulista", "pack": pack_of(record), "packs": [game_deck(record)],
            "blocks": paulista_blocks(record), "history": record}



DEALS = (paulista_choices, paulista_onze, paulista_ferro)
"""The game's vectors, each made by a call, in the order the file lists them."""
