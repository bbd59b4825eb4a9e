"""The rummy family as the shared code asks it (``engine.family``): every rummy game's view is a ``RummyView``, and
what a game is (its pack, its hand, its scoring) is the view's ``table``, never told by which fields are filled in.

Registered as ``engine.rummy`` is imported: what a question needs (the search, the reasons, the match odds) is
imported when it is first asked, so that the rules alone load no bot."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from cardtui.engine import family
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, EventBody, GameView
from cardtui.engine.rummy import seen
from cardtui.engine.rummy.pifpaf import PifPafPotWon
from cardtui.engine.rummy.records import DISCARD, DRAW, PASS, STOCK, Phase, RummyView, Scoring, SeatStatus

if TYPE_CHECKING:
    from cardtui.engine.advice import Reason
    from cardtui.engine.bots.estimates import Budget, Evaluation

RULES_MELD_MEMO = 20_000
"""What the meld searches of a process that drives tables remember together, where its bots search elsewhere
(``melds.memo_budget``): a night's soak grew such a process a megabyte an hour as the default budget filled."""


def _view(view: GameView) -> RummyView:
    assert isinstance(view, RummyView)
    return view


class Rummy(family.Family):
    name: ClassVar[str] = "rummy"
    view: ClassVar[type[GameView]] = RummyView
    whole_hands: ClassVar[bool] = True
    melds: ClassVar[bool] = True
    parts: ClassVar[tuple[str, ...]] = ("betting", "flip")

    def deck(self, view: GameView) -> Sequence[Card]:
        return seen.deck(_view(view))

    def seen(self, view: GameView) -> Counter[Card]:
        return seen.seen(_view(view))

    def held(self, view: GameView) -> tuple[Card, ...]:
        return _view(view).cards

    def evaluate(self, view: GameView, legal: list[Action], rng: random.Random, budget: Budget) -> Evaluation:
        v = _view(view)
        if v.table.scoring is Scoring.DEADWOOD:
            from cardtui.engine.rummy.bots import chinchon_search

            return chinchon_search.evaluate(v, legal, rng, budget)
        from cardtui.engine.rummy.bots import search

        return search.evaluate(v, legal, rng, budget)

    def stake(self, view: GameView, base: float) -> float:
        """Chips: the pot as it stands, the betting round's bets in it. Points lost at a knock (Cacheta): the match
        odds of this seat knocking (every other losing a point) against another knocking (``knock_stake``). Points
        counted against (Chinchón): the match odds of a hand's usual count going to the others or to this seat
        (``deadwood_stake``)."""
        v = _view(view)
        if v.table.scoring is Scoring.KNOCK:
            return knock_stake(v)
        if v.table.scoring is Scoring.DEADWOOD:
            return deadwood_stake(v)
        return max(base, float(v.pot))

    def judged(self, view: GameView) -> bool:
        """Not Pif Paf's betting round: the search plays the others' answers to a bet as the normal bot answers, one
        kind of player among many, too narrow to call a bet or a check a mistake."""
        return _view(view).phase is not Phase.BETTING

    def reason(self, view: GameView, legal: Sequence[Action], chosen: Action, best: Action) -> Reason | None:
        from cardtui.engine.rummy import advice

        return advice.reason(_view(view), legal, chosen, best)

    def detour(self, view: GameView, legal: Sequence[Action]) -> Action | None:
        """A draw from the stock, the card drawn thrown, every claim window let go: until the stock runs out and the
        pile becomes the stock."""
        v = _view(view)
        wanted: Action | None = None
        if v.phase is Phase.CLAIM:
            wanted = Action(PASS)
        elif v.phase is Phase.DRAW:
            wanted = Action(DRAW, value=STOCK)
        elif v.phase is Phase.DISCARD and v.drawn is not None:
            wanted = Action(DISCARD, cards=(v.drawn,))
        return wanted if wanted in legal else None

    def hints(self, view: GameView, card: Card) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
        from cardtui.engine.rummy.bots.pifpaf import rules_of
        from cardtui.engine.rummy.meld_hints import meld_hints

        v = _view(view)
        return [(h.cards, h.needs) for h in meld_hints(card, v.cards, rules_of(v), v.wilds)]

    def rules_only(self) -> None:
        from cardtui.engine.rummy import melds

        melds.memo_budget(RULES_MELD_MEMO)

    def chips_won(self, body: EventBody) -> tuple[int, int] | None:
        return (body.seat, body.chips) if isinstance(body, PifPafPotWon) else None


def knock_stake(view: RummyView) -> float:
    """A decision's stake where every other seat loses points at a knock (Cacheta): this seat knocking (every other
    losing a point) against another knocking (this seat and the rest losing one), the others taken alike
    (``odds.match_stake``)."""
    from cardtui.engine.bots import odds

    me = view.you or 0
    points = [s.score if s.status is SeatStatus.IN else 0 for s in view.seats]

    def knocks(k: int) -> float:
        return odds.cacheta([p if i == k else max(0, p - 1) for i, p in enumerate(points)], me)

    others = [s for s, p in enumerate(points) if s != me and p > 0]
    if not others:
        return odds.FLOOR
    return odds.match_stake(knocks(me), sum(knocks(k) for k in others) / len(others))


def deadwood_stake(view: RummyView) -> float:
    """A decision's stake where every hand counts points against (Chinchón): the match odds of the others counting
    what a hand usually leaves a player who did not close, against this seat counting it (``odds.match_stake``)."""
    from cardtui.engine.bots import odds
    from cardtui.engine.rummy.bots import chinchon_odds

    me = view.you or 0
    usual = round(sum(p * n for p, n in chinchon_odds.OTHER))
    points = [s.score for s in view.seats]
    alive = [s.status is not SeatStatus.OUT for s in view.seats]
    theirs = [p if i == me or not alive[i] else p + usual for i, p in enumerate(points)]
    mine = [p + usual if i == me else p for i, p in enumerate(points)]
    target = view.table.target

    def odds_at(after: list[int]) -> float:
        return chinchon_odds.chinchon(after, me, target, [a and p <= target for a, p in zip(alive, after, strict=True)])

    return odds.match_stake(odds_at(theirs), odds_at(mine))


FAMILY = family.register(Rummy())
