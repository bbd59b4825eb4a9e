"""What any person at a rummy table could remember is in every seat's view (issue 12): the discards in
order, what each player took from the pile, who declared na boa (the conformance suite checks that every
view goes over the wire and back unchanged)."""

from __future__ import annotations

import random

import pytest

from cardtui.engine.cards import Card
from cardtui.engine.core import SeatInfo
from cardtui.engine.games import get
from cardtui.engine.rummy.records import (
    DrawSource,
    RummyDiscarded,
    RummyDrew,
    RummyKnocked,
    RummyStockRebuilt,
    RummyView,
    RummyWindowClosed,
)


@pytest.mark.parametrize(("game", "players"), [("cacheta", 2), ("cacheta", 4), ("pifpaf", 3)])
def test_views_remember_the_discards_the_takes_and_the_declarations(game: str, players: int) -> None:
    rules = get(game)
    match, _ = rules.open({}, [SeatInfo(i, f"p{i}", i) for i in range(players)], 11)
    rng = random.Random(5)
    pile: list[Card] = []
    taken: dict[int, list[Card]] = {s: [] for s in range(players)}
    declared: set[int] = set()
    took = 0
    for _ in range(3000):
        if match.hand_over():
            break
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        legal = match.legal_actions(seat)
        kinds = {a.type: a for a in legal}
        # Play that takes from the pile and declares often, so that there is something to remember.
        pick = (kinds.get("check") or kinds.get("call") or kinds.get("declare") or kinds.get("knock")
                or (kinds.get("cut") if rng.random() < 0.3 else None) or kinds.get("pass"))
        if pick is None:
            pick = legal[int(rng.random() * len(legal))]
            while pick.type == "fold":
                pick = legal[int(rng.random() * len(legal))]
        if pick.type == "declare":
            declared.add(seat)
        for event in match.apply(seat, pick):
            body = event.body
            if isinstance(body, RummyDiscarded):
                pile.append(body.card)
            elif isinstance(body, RummyDrew) and body.source is DrawSource.PILE:
                assert body.card == pile.pop()
                taken[body.seat].append(body.card)
                took += 1
            elif isinstance(body, RummyWindowClosed) and body.taken_by is not None:
                assert body.card == pile.pop()
                taken[body.taken_by].append(body.card)
                took += 1
            elif isinstance(body, RummyKnocked) and body.discard is not None:
                pile.append(body.discard)
            elif isinstance(body, RummyStockRebuilt):
                pile = pile[-1:]
        for who in range(players):
            view = match.view(who)
            assert isinstance(view, RummyView)
            assert list(view.pile) == pile
            assert {s.seat: list(s.taken) for s in view.seats} == taken
            assert {s.seat for s in view.seats if s.declared} == declared
    assert took, "nothing was ever taken from the pile"
    if game == "cacheta":
        assert declared
