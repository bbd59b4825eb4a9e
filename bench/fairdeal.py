"""The fair deal against a dishonest host: for each of the harness's tricks (``tests/client/dishonest.py``), a
hundred hands of Cacho where the host plays the trick wherever it gives the client a six for its first card, and
what the real client's check said of each. The mark: no steered hand under ✔. The honest host is the baseline
for how often the six comes by itself."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass

from cardtui.client.connection import Connection
from cardtui.client.fairness import FairDeals
from tests.client.dishonest import CHOOSING, HOST_TRICKS, STEERING, TABLE, Dishonest, Trick, serving

HANDS = 100


@dataclass(frozen=True)
class Figures:
    trick: Trick
    hands: int
    six: float
    """How often the client's first card was a six (the host's target)."""
    steered: int
    """Hands whose deck the host's choice made."""
    ticked: int
    """Steered hands the client gave a ✔: the mark is 0."""
    ok: int
    """Hands with a ✔ in all."""


async def measure(trick: Trick, hands: int) -> Figures:
    """``hands`` hands of ``trick`` against the real client's connection and check."""
    cheat = Dishonest(plan=lambda _hand: trick, hands=hands, always=False, hosted=trick in HOST_TRICKS)
    fair = FairDeals()
    async with serving(cheat) as port:
        conn = Connection.open(f"127.0.0.1:{port}")
        try:
            joined = await conn.join(TABLE, "ana")
            async for _msg in conn.follow(joined.token, fair=fair):
                if cheat.finished.is_set() and fair.verdicts and fair.verdicts[-1].hand == cheat.dealt[-1].hand:
                    break
        finally:
            await conn.close()
    by = {v.hand: v for v in fair.verdicts}
    steered = [d for d in cheat.dealt if d.steered]
    return Figures(trick, len(cheat.dealt), sum(d.six for d in cheat.dealt) / len(cheat.dealt), len(steered),
                   sum(by[d.hand].ok for d in steered if d.hand in by), sum(v.ok for v in by.values()))


def model(hands: int, seed: int = 73) -> tuple[int, int, int, int, int, int]:
    """The randomised dishonest host (``tests/client/host_model.py``) for about ``hands`` hands over every game, half
    its moves honest: (hands, hands the host chose, ✔ in all, ✔ on a chosen deck, honest hands, alarms on them)."""
    from tests.client.host_model import TABLES, check, random_move
    from tests.client.host_model import run as play

    rng = random.Random(seed)
    dealt = chose = ticks = bad = honest = alarms = 0
    while dealt < hands:
        game, players = rng.choice(TABLES)
        k = 3 if game in ("pifpaf", "cacheta") else 12
        host = play(game, players, [random_move(rng) for _ in range(k)], rng.randrange(2**31), rng.random() < 0.7)
        findings = list(check(host))
        dealt += len(host.dealt)
        chose += sum(d.chose for d in host.dealt)
        ticks += sum(v.ok for v in host.fair.verdicts)
        bad += sum(f.verdict.ok for f in findings)
        honest += sum(d.move.honest for d in host.dealt)
        alarms += sum(not f.verdict.ok for f in findings)
    return dealt, chose, ticks, bad, honest, alarms


def run(print: Callable[[str], None], hands: int = HANDS, model_hands: int = 3000) -> None:
    async def every() -> None:
        for trick in [Trick.HONEST, *sorted(STEERING | CHOOSING)]:
            f = await measure(trick, hands)
            print(f"  {f.trick.value:14s} six {f.six:.3f}  steered {f.steered:3d}/{f.hands}"
                  f"  steered under ✔ {f.ticked}  ✔ {f.ok}/{f.hands}")

    asyncio.run(every())
    dealt, chose, ticks, bad, honest, alarms = model(model_hands)
    print(f"  the randomised host, every game: {dealt} hands, {chose} of them the host chose; ✔ {ticks}, of them on a"
          f" chosen deck {bad} (mark 0); honest hands {honest}, red on them {alarms} (mark 0)")
