"""The truco family as the shared code asks it (``engine.family``): both trucos show a ``TrucoView``, whose
``rules`` say which truco's rules it plays (each game declares them), and whose ``paulista`` or ``argentino`` part
holds that game's own facts, read where it is there.

Registered as ``engine.truco`` is imported: the search, the reasons and the match odds are imported when first
asked, so that the rules alone load no bot."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from cardtui.engine import family
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, EventBody, GameView
from cardtui.engine.truco import seen
from cardtui.engine.truco.events import Reason as EndReason
from cardtui.engine.truco.events import TrucoCalled, TrucoRoundEnded
from cardtui.engine.truco.ladder import Bet
from cardtui.engine.truco.views import PaulistaPhase, TrucoRules, TrucoView

if TYPE_CHECKING:
    from cardtui.engine.advice import Reason
    from cardtui.engine.bots.estimates import Budget, Evaluation


def _view(view: GameView) -> TrucoView:
    assert isinstance(view, TrucoView)
    return view


class Truco(family.Family):
    name: ClassVar[str] = "truco"
    view: ClassVar[type[GameView]] = TrucoView
    judges_twice: ClassVar[bool] = True
    parts: ClassVar[tuple[str, ...]] = ("paulista", "argentino")

    def deck(self, view: GameView) -> Sequence[Card]:
        return seen.deck(_view(view))

    def seen(self, view: GameView) -> Counter[Card]:
        return seen.seen(_view(view))

    def held(self, view: GameView) -> tuple[Card, ...]:
        return _view(view).cards

    def evaluate(self, view: GameView, legal: list[Action], rng: random.Random, budget: Budget) -> Evaluation:
        from cardtui.engine.truco.bots import search

        return search.evaluate(_view(view), legal, rng, budget)

    def stake(self, view: GameView, base: float) -> float:
        return truco_stake(_view(view))

    def claims(self, options: object) -> Callable[[str, int, Sequence[str]], bool] | None:
        from cardtui.engine.truco.claims import judge_for

        return judge_for(options)

    def solve(self, view: GameView, legal: Sequence[Action]) -> family.Solved | None:
        from cardtui.engine.truco import endgame

        return endgame.solve(_view(view), legal)

    def played_out(self, view: GameView, legal: list[Action], rng: random.Random, budget: Budget) -> Evaluation | None:
        from cardtui.engine.truco import judge

        return judge.evaluate(_view(view), legal, rng, budget)

    def bots_model(self, view: GameView, legal: list[Action], rng: random.Random, budget: Budget) -> Evaluation | None:
        from cardtui.engine.truco import judge

        return judge.as_bots_play(_view(view), legal, rng, budget)

    def judged(self, view: GameView) -> bool:
        """Not truco paulista's deal (keep, pass or reject): the search plays each out from a model deal of the cards
        to come, where keeping three cards and passing them to the partner are the same hands in another order, and
        the model's plain play put one five points of match odds above the other (holding 4S 7D 2C at 0 to 0): its
        noise, not the choice's worth."""
        part = _view(view).paulista
        return part is None or part.phase is not PaulistaPhase.DEAL

    def reason(self, view: GameView, legal: Sequence[Action], chosen: Action, best: Action) -> Reason | None:
        from cardtui.engine.truco import advice

        return advice.reason(_view(view), chosen, best)

    def called(self, body: EventBody) -> tuple[int, int] | None:
        return (body.seat, body.team) if isinstance(body, TrucoCalled) and body.bet is Bet.TRUCO else None

    def round_ended(self, body: EventBody) -> tuple[int | None] | None:
        if not isinstance(body, TrucoRoundEnded):
            return None
        return (body.team if body.team is not None and body.reason not in NO_TRUCO_WIN else None,)


NO_TRUCO_WIN = (EndReason.TIED, EndReason.ENVIDO)
"""Rounds whose truco stake nobody won by a call: a tied iron hand, a match the envido ended."""


def truco_stake(view: TrucoView) -> float:
    """A truco decision's stake: the hand's stake as it stands (3 in a mão de onze), taken or lost at this score,
    the points of the hand's earlier rounds counted (``odds.match_stake``)."""
    from cardtui.engine.bots import odds

    team = (view.you or 0) & 1
    won = view.argentino.points if view.argentino is not None else (0, 0)
    us, them = view.scores[team] + won[team], view.scores[1 - team] + won[1 - team]
    paulista = view.rules is TrucoRules.PAULISTA
    hand = 3 if view.paulista is not None and view.paulista.onze_team is not None else view.stake
    return odds.match_stake(odds.truco(us + hand, them, view.target, paulista),
                            odds.truco(us, them + hand, view.target, paulista))


FAMILY = family.register(Truco())
