"""The opponent pool: players of other styles than our levels, to measure the levels against.

Our levels were made against each other and against ten-line baselines; a strong player meets
people who play otherwise. The pool's players are written from how other people's bots and
strong players play (MiniTruco's and CTruco's bots, poker's player types), five styles for each
game with calls or bets: ``tight``, ``loose``, ``caller``, ``bluffer`` and ``score`` (the last plays by
the score, or at Cacho by its stack). Each sees only its seat's view; the arena knows them as
``pool-tight`` and so on (``named``; each game's entry in ``engine.games`` lists its own).
The truco styles are in ``pool.truco``, Cacho's in ``pool.cacho``;
the rummy games have no bets worth a style (Pif Paf's one betting round aside) and no pool.
"""

from __future__ import annotations

from collections.abc import Callable

from cardtui.engine.bots.baselines import Policy

STYLES = ("tight", "loose", "caller", "bluffer", "score")
"""The pool's styles, the same names in every game it plays."""


def named(player: Callable[[str], Policy]) -> dict[str, Policy]:
    """A game's pool by the names the arena knows: ``pool-tight`` and the rest, from its module's ``player``."""
    return {f"pool-{s}": player(s) for s in STYLES}
