"""Write ``engine/truco/bots/envido_deals.py``: how often each pair of envido buckets is dealt at truco argentino
heads-up, and how often the mano's wins, counted over every deal of the 40 cards (``python -m tools.envido_deals``).

Every deal of the mano's three cards and the other's three from the 37 left is counted once (9,880 × 7,770); the
mano's hands are taken by their class under the four suits' permutations, which changes no envido, so the count
runs over a few hundred hands rather than ten thousand. The count is the abstract envido game's chance
(``engine.truco.bots.envido_game``)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from itertools import combinations, permutations
from pathlib import Path

from cardtui.engine.truco.argentino.rules import DECK
from cardtui.engine.truco.bots.envido_game import BUCKETS, bucket_of
from cardtui.engine.truco.envido import envido

OUT = Path(__file__).resolve().parent.parent / "engine" / "truco" / "bots" / "envido_deals.py"


def hand_classes() -> dict[tuple[int, ...], int]:
    """Each of the mano's hands by its class under the suits' permutations: a representative and how many hands."""
    suits = sorted({c.suit for c in DECK}, key=str)
    index = {c: i for i, c in enumerate(DECK)}
    maps = []
    for perm in permutations(suits):
        to = dict(zip(suits, perm, strict=True))
        maps.append([index[next(d for d in DECK if d.rank == c.rank and d.suit is to[c.suit])] for c in DECK])
    classes: dict[tuple[int, ...], int] = {}
    for hand in combinations(range(len(DECK)), 3):
        key = min(tuple(sorted(m[i] for i in hand)) for m in maps)
        classes[key] = classes.get(key, 0) + 1
    return classes


def count(hands: Iterable[tuple[tuple[int, ...], int]] | None = None) -> tuple[list[list[int]], list[list[int]]]:
    """The deals by (the mano's bucket, the other's bucket), and of those the ones the mano's envido wins (equal
    scores go to the mano); ``hands``: the mano's hands counted (each with its multiplicity), every one if None."""
    env = {h: envido([DECK[i] for i in h])[0] for h in combinations(range(len(DECK)), 3)}
    n = len(BUCKETS)
    deals = [[0] * n for _ in range(n)]
    wins = [[0] * n for _ in range(n)]
    for hand, times in (hands if hands is not None else hand_classes().items()):
        mine = env[hand]
        a = bucket_of(mine)
        left = [i for i in range(len(DECK)) if i not in hand]
        row, won = [0] * n, [0] * n
        for other in combinations(left, 3):
            theirs = env[other]
            b = bucket_of(theirs)
            row[b] += 1
            won[b] += mine >= theirs
        for b in range(n):
            deals[a][b] += times * row[b]
            wins[a][b] += times * won[b]
    return deals, wins


HEAD = (
    '"""Written by ``python -m tools.envido_deals``: do not edit. The deals of truco argentino heads-up by the\n'
    "mano's envido bucket and the other's (``envido_game.BUCKETS``), over every deal of the 40 cards, and of\n"
    'those the ones the mano\'s envido wins (equal scores to the mano)."""\n'
)


def render(deals: list[list[int]], wins: list[list[int]]) -> str:
    rows = "\n".join(f"    {tuple(r)}," for r in deals)
    won = "\n".join(f"    {tuple(r)}," for r in wins)
    return (f"{HEAD}\nDEALS: tuple[tuple[int, ...], ...] = (\n{rows}\n)\n"
            f"MANO_WINS: tuple[tuple[int, ...], ...] = (\n{won}\n)\n")


def main() -> None:
    deals, wins = count()
    OUT.write_text(render(deals, wins), encoding="utf-8")
    print(f"wrote {OUT} ({sum(map(sum, deals))} deals)", file=sys.stderr)


if __name__ == "__main__":
    main()
