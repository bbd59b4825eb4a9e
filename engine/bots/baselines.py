"""Simple fixed policies, about ten lines each: the yardsticks the bots' levels are measured against.

Each is a bot (``view, legal, rng -> action``) that sees only its seat's view. They are
deliberately plain; each game's entry (``engine.games``) names its own for the arena (``cardtui arena``). Here is
the one every game has, ``random``; each family's own are in its folder (``engine/<family>/bots/baselines.py``):

- ``random``: uniform among the legal actions (signals left out while anything else is legal).
- ``paulista-manilha``: truco with 4C or 7H, accept with a manilha or a 3.
- ``paulista-trick-aware``: knows the default ``truco_decides = trick``: calls truco when the
  trick in play is certainly won (the zap, or last to play and on top), accepts when its
  best card beats the table's, and plays its best card into a trick that decides the hand.
- ``argentino-simple``: truco with 1e or 1b, accept with a top-four card or a 3, envido at 27+.
- ``argentino-caller``: the same, but answers every envido with quiero from 24: it punishes an
  envido called on nothing.
- ``cacho-value``: minimum bets with value, call with 28+.
- ``cacheta-isolated`` / ``pifpaf-isolated``: take a discard only when it melds, discard the
  most isolated loose card, knock, declare and cut whenever possible; Pif Paf checks and calls.
- ``cacheta-pairs``: the same, but it keeps its loose pairs and throws its highest loose card.
- ``cacheta-guarded``: the same as pairs, but it never throws a card linked to one another
  player took from the pile.

Exploiters: fixed answers that farm a bot whose bluffs come too often or too rarely. Each
plays as its game's baseline except in answering a bet:

- truco (both games) ``always-accept``: accepts every truco and envido (and never raises);
  ``never-accept``: refuses every one (a bettor that never bluffs loses nothing to it).
- Cacho ``always-call``: calls every bet in round 3; ``nuts-call``: calls only with the nuts
  (three sixes or a cacho), folds everything else.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from cardtui.engine.core import Action, GameView

TALK = "signal"
"""The one kind of action that is talk rather than a move (truco's signals between partners)."""

Policy = Callable[[GameView, list[Action], random.Random], Action]


def random_policy(view: GameView, legal: list[Action], rng: random.Random) -> Action:
    """Uniform among the legal actions, leaving signals out unless nothing else is legal."""
    moves = [a for a in legal if a.type != TALK] or legal
    return moves[int(rng.random() * len(moves))]


# -- shared by the baselines and bots ------------------------------------------------------------
def first(legal: Sequence[Action], *types: str) -> Action | None:
    """The first legal action of the first of ``types`` that has one."""
    for t in types:
        for a in legal:
            if a.type == t:
                return a
    return None
