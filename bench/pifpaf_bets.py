"""Does a Pif Paf bet with nothing pay? The same deals played with the bet and with a check.

At a three-player table the seat first to speak at the betting round is dealt nine unconnected
cards (``NOTHING``: no pair, no run, no two of a suit near enough to make one); the other hands and
the stock are dealt from the rest of the pack, a fresh shuffle for each deal. Each deal is played
twice from the same place, once with the seat's first choice forced to each of ``CHOICES`` (by
default the bet of the most and a check), and then to the hand's end by the bots: hard at the seat,
``others`` (normal by default) at the other two, every bot drawing on the same generator in each
replay, so the two lines part only where the choice makes them part (common random numbers).
What the seat holds at the hand's end less what it held before its choice, the ante counted as
already paid, is its chips for the hand; the figure that decides is the mean of the gap between the
two choices, deal by deal, with its normal 95% interval. A run stops after ``deals`` deals or
``seconds`` of wall time, whichever comes first, and as soon as the interval leaves 0 once at least
``least`` deals are in.

``python -m bench.pifpaf_bets [--deals N] [--seconds S] [--seed K] [--others normal]``
"""

from __future__ import annotations

import argparse
import copy
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cardtui.engine.betting import BET, CHECK
from cardtui.engine.cards import Card, pack, parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.games import LEVELS
from cardtui.engine.rummy.pifpaf import GAME as PIFPAF
from cardtui.engine.rummy.pifpaf import PifPafState
from cardtui.engine.rummy.records import Phase, RummyView

DECK = pack("french104")
"""Pif Paf's and Cacheta's pack: two French decks."""

NOTHING = "2H 3C 5S 6D 8D 9S JC QS KH"
"""Issue 59's hand: nine cards of which no two could share a meld."""
CHOICES = (Action(BET, 3), Action(CHECK))
"""The bet of the most (three players, ante 1) against the check."""
SEATS = [SeatInfo(i, f"p{i}", i) for i in range(3)]
LONGEST = 3000
"""Actions a hand may take before the run stops: two bots once handed one card back and forth for ever."""


@dataclass
class Gap:
    """Chips a hand for each choice, and the gap between the first two, deal by deal."""

    chips: dict[Action, list[float]] = field(default_factory=dict)

    @property
    def deals(self) -> int:
        return min((len(v) for v in self.chips.values()), default=0)

    def gaps(self) -> list[float]:
        first, second = list(self.chips.values())[:2]
        return [a - b for a, b in zip(first, second, strict=False)]

    @staticmethod
    def interval(values: Sequence[float]) -> tuple[float, float, float]:
        """The mean and its normal 95% interval."""
        mean = statistics.fmean(values)
        if len(values) < 2:
            return mean, -math.inf, math.inf
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
        return mean, mean - half, mean + half

    def lines(self) -> list[str]:
        out = []
        for action, values in self.chips.items():
            mean, lo, hi = self.interval(values)
            out.append(f"  {action.type} {action.amount or ''}: {mean:+.3f} chips a hand ({lo:+.3f} to {hi:+.3f})")
        mean, lo, hi = self.interval(self.gaps())
        a, b = list(self.chips)[:2]
        out.append(f"  {a.type} {a.amount} less {b.type}: {mean:+.3f} chips a hand ({lo:+.3f} to {hi:+.3f}), "
                   f"{self.deals} deals")
        return out


def rigged(seed: int, hand: Sequence[Card]) -> tuple[PifPafState, int]:
    """A three-player table at its betting round, the seat first to speak holding ``hand`` and the other
    hands and the stock dealt from the rest of the pack by ``seed``."""
    state, _ = PIFPAF.start(PIFPAF.options({}), SEATS, seed)
    seat = PIFPAF.to_act(state)[0]
    rest = list(DECK)
    for c in hand:
        rest.remove(c)
    random.Random(seed).shuffle(rest)
    state.hands[seat] = list(hand)
    for s in state.playing:
        if s != seat:
            state.hands[s] = [rest.pop() for _ in hand]
    state.stock = rest
    assert PIFPAF.view(state, seat).phase is Phase.BETTING
    return state, seat


Policy = Callable[[RummyView, list[Action], random.Random], Action]


def played(state: PifPafState, seat: int, first: Action, mine: Policy, theirs: Policy, rng: random.Random) -> float:
    """The seat's chips at the hand's end less its chips before ``first``, the rest of the hand by the bots."""
    before = PIFPAF.scores(state)[seat]
    PIFPAF.apply(state, seat, first)
    for _ in range(LONGEST):
        if PIFPAF.hand_over(state):
            break
        s = next(s for s in PIFPAF.to_act(state) if PIFPAF.legal_actions(state, s))
        policy = mine if s == seat else theirs
        PIFPAF.apply(state, s, policy(PIFPAF.view(state, s), PIFPAF.legal_actions(state, s), rng))
    else:
        raise RuntimeError(f"A hand still going after {LONGEST} actions: the bots are going round in a circle.")
    return float(PIFPAF.scores(state)[seat] - before)


def run(print: Callable[[str], None], deals: int = 2000, seconds: float = 600.0, seed: int = 59,
        others: str = "normal", least: int = 200, hand: str = NOTHING,
        choices: Sequence[Action] = CHOICES) -> Gap:
    """Play up to ``deals`` deals with each of ``choices`` (see the module); the figures as they stand."""
    cards = parse_cards(hand)
    mine: Policy = LEVELS["pifpaf"]["hard"]
    theirs: Policy = LEVELS["pifpaf"][others]
    master = random.Random(seed)
    gap = Gap({a: [] for a in choices})
    started = time.perf_counter()
    for done in range(1, deals + 1):
        deal_seed = master.getrandbits(63)
        state, seat = rigged(deal_seed, cards)
        legal = PIFPAF.legal_actions(state, seat)
        for action in choices:
            assert action in legal, action
            gap.chips[action].append(played(copy.deepcopy(state), seat, action, mine, theirs,
                                            random.Random(deal_seed)))
        if done % 100 == 0:
            print(f"  {done} deals, {time.perf_counter() - started:.0f} s")
        _, lo, hi = Gap.interval(gap.gaps())
        if time.perf_counter() - started > seconds or (done >= least and (lo > 0 or hi < 0)):
            break
    print(f"== Pif Paf 3p, first to speak holding {hand}: hard there, {others} at the other seats, seed {seed}")
    for line in gap.lines():
        print(line)
    print(f"  {time.perf_counter() - started:.0f} s")
    return gap


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.pifpaf_bets")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seconds", type=float, default=600.0)
    p.add_argument("--seed", type=int, default=59)
    p.add_argument("--others", default="normal", choices=sorted(LEVELS["pifpaf"]))
    p.add_argument("--least", type=int, default=200, help="deals before a decided interval stops the run")
    args = p.parse_args()
    run(lambda s: print(s, flush=True), args.deals, args.seconds, args.seed, args.others, args.least)


if __name__ == "__main__":
    main()
