"""The Cacho family as the shared code asks it (``engine.family``): every game of it shows a ``CachoView``.

Registered as ``engine.cacho`` is imported: the search and the reasons are imported when first asked."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from cardtui.engine import family
from cardtui.engine.cacho import seen
from cardtui.engine.cacho.records import CachoPotWon, CachoView
from cardtui.engine.cacho.rules import DECK, PASS
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, EventBody, GameView

if TYPE_CHECKING:
    from cardtui.engine.advice import Reason
    from cardtui.engine.bots.estimates import Budget, Evaluation


def _view(view: GameView) -> CachoView:
    assert isinstance(view, CachoView)
    return view


class Cacho(family.Family):
    name: ClassVar[str] = "cacho"
    view: ClassVar[type[GameView]] = CachoView

    def deck(self, view: GameView) -> Sequence[Card]:
        return DECK

    def seen(self, view: GameView) -> Counter[Card]:
        return seen.seen(_view(view))

    def held(self, view: GameView) -> tuple[Card, ...]:
        v = _view(view)
        return v.seats[v.you].cards if v.you is not None else ()

    def evaluate(self, view: GameView, legal: list[Action], rng: random.Random, budget: Budget) -> Evaluation:
        from cardtui.engine.cacho.bots import search

        return search.evaluate(_view(view), legal, rng, budget)

    def reason(self, view: GameView, legal: Sequence[Action], chosen: Action, best: Action) -> Reason | None:
        from cardtui.engine.cacho import advice

        return advice.reason(_view(view), legal)

    def detour(self, view: GameView, legal: Sequence[Action]) -> Action | None:
        """In round 1 a pass: everyone passing, the deal is void and dealt again."""
        wanted = Action(PASS) if _view(view).round == 1 else None
        return wanted if wanted in legal else None

    def chips_won(self, body: EventBody) -> tuple[int, int] | None:
        return (body.seat, body.chips) if isinstance(body, CachoPotWon) else None


FAMILY = family.register(Cacho())
