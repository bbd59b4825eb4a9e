"""How hands end between two equal players: the data the match odds are worked out from (``odds``).

A first guess, until ``python -m bench.odds`` measures it.
"""

PAULISTA_POINTS: tuple[tuple[int, float], ...] = ((1, 0.55), (3, 0.33), (6, 0.08), (9, 0.03), (12, 0.01))
"""Truco paulista, neither team on 11: the points a hand brings its winner, and how often."""
PAULISTA_ONZE_RUN = 0.3
"""How often a team on 11 runs from its mão de onze."""
PAULISTA_ONZE_WIN = 0.6
"""How often a team on 11 that plays its mão de onze wins it."""
ARGENTINO_POINTS: tuple[tuple[tuple[int, int], float], ...] = (
    ((1, 0), 0.22), ((2, 0), 0.33), ((3, 0), 0.2), ((4, 0), 0.12), ((5, 0), 0.07), ((7, 0), 0.06))
"""Truco argentino, two players: the points a hand brings each (the mano's side first or not, alike)."""
CACHETA_TEN = 0.2
"""Cacheta, two players: how often a knock melds all ten cards (every other player loses 2, not 1)."""
PIFPAF_STRENGTH = 0.32
"""Pif Paf, three players: how a hand's chance of winning grows with its value at the deal
(``rummy_levels.Seen.value``): its weight is ``exp(PIFPAF_STRENGTH * value)``..."""
PIFPAF_FIELD = 2.98
"""... against the mean weight of a hand dealt, this."""
