"""Chinchón: every legal choice played out on deals of the cards a seat cannot see.

A seat sees its own cards, the discard pile and the cards each player took from it and still holds
(``engine.seen``); a deal of the unseen cards (``Dealer``) gives each other player what it is known to hold and
the rest of its cards from the unseen ones, and lays the others down as the stock. On each deal each choice is
played out (``Rollout``) to the close, every player by a quick plain policy: the pile's card when it leaves fewer
points loose, the discard that leaves the fewest, a close as soon as the rules allow it. The close is counted as
the rules count it (the closer's points, -10 with every card melded; every other hand's points, laying nothing
off, which a quick count leaves out), and what the hand leaves is valued in match odds
(``chinchon_odds``): the chance of being the last player in, from the points every seat then has.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardtui.engine import seen
from cardtui.engine.bots import estimates
from cardtui.engine.bots.estimates import Budget, Evaluation, Unit, weighed
from cardtui.engine.cards import JOKER, Card
from cardtui.engine.core import Action
from cardtui.engine.rummy.bots import chinchon_odds
from cardtui.engine.rummy.bots.pifpaf import rules_of
from cardtui.engine.rummy.melds import Melder, index, layout, melder
from cardtui.engine.rummy.records import DISCARD, DRAW, KNOCK, PASS, PILE, Phase, RummyView, SeatStatus

PLAY_DEALS = 16
"""Deals a play-budget evaluation draws (``estimates.Budget``)."""
LONGEST = 60
"""Turns a hand played out may last; one still going is valued as it stands (nobody closed)."""
REENTER = "reenter"
ALL_MELDED = -10


def _chinchon(cards: Sequence[Card], m: Melder) -> bool:
    if len(cards) != 7 or any(c is JOKER for c in cards) or len({c.suit for c in cards}) != 1:
        return False
    place = layout(m.rules.pack).place
    places = sorted(place[c.rank] for c in cards)
    return places == list(range(places[0], places[0] + 7))


@functools.lru_cache(maxsize=256)
def _alone(m: Melder, card: Card) -> int:
    """What ``card`` counts outside melds, as ``m`` counts it."""
    return m.deadwood((card,))


@dataclass
class End:
    """How a hand played out ended: who closed and with what (None: nobody, within ``LONGEST`` turns)."""

    closer: int | None
    points: dict[int, int]
    """What each seat in the hand counted."""
    chinchon: bool = False


class Rollout:
    """A hand played out from a known deal, every seat by the quick policy (see the module)."""

    def __init__(self, m: Melder, hands: dict[int, list[Card]], stock: list[Card], pile: list[Card],
                 order: list[int], limit: int, first: bool) -> None:
        self.m = m
        self.hands = {s: list(h) for s, h in hands.items()}
        self.stock = list(stock)
        """The stock, its next card last."""
        self.pile = list(pile)
        self.order = order
        self.limit = limit
        self.first_round = first
        self.turns = {s: 1 for s in order}
        self.left: dict[int, int] = {}
        """What each seat's hand counts as its last throw left it (unchanged until its next draw)."""
        self.ready: tuple[Card, int] | None = None
        """``least`` of the hand a draw from the pile just made, as the draw worked it out to take it."""

    def points(self, cards: Sequence[Card]) -> int:
        return self.m.deadwood(cards)

    def least(self, hand: Sequence[Card]) -> tuple[Card, int]:
        """The discard that leaves the fewest points, the highest card of equals (a joker last).

        Exact, with few searches: a card the hand's best arrangement leaves loose is thrown keeping every meld, so
        what is left counts the hand's points less the card's own; a card in a meld leaves at least that (no
        arrangement of fewer cards melds more), so it is searched without it only where that floor could beat the
        best loose card."""
        best: tuple[Card, int] | None = None
        m = self.m
        pts = m.rules.points
        _, loose = m.arrange(hand)
        whole = sum(_alone(m, c) for c in loose)  # (``Melder.deadwood``: what the loose cards count)
        floor = min((whole - _alone(m, c) for c in loose), default=None)
        for c in sorted(set(hand), key=lambda c: (c is JOKER, -pts[c.rank], index(c))):
            if c in loose:
                p = whole - _alone(m, c)
            elif floor is not None and whole - _alone(m, c) > floor:
                continue  # leaves more than a loose card's throw: never the least
            else:
                rest = list(hand)
                rest.remove(c)
                p = self.points(rest)
            if best is None or p < best[1]:
                best = (c, p)
        assert best is not None
        return best

    def draw(self, seat: int, pile: bool | None = None) -> None:
        hand = self.hands[seat]
        self.ready = None
        if pile is None:
            taken = self.least([*hand, self.pile[-1]]) if self.pile else None
            now = self.left.get(seat)
            pile = taken is not None and taken[1] < (self.points(hand) if now is None else now)
            if pile:
                self.ready = taken  # the hand ``finish`` throws from is this one
        if pile and self.pile:
            hand.append(self.pile.pop())
        else:
            if not self.stock:
                if len(self.pile) <= 1:
                    if self.pile:
                        hand.append(self.pile.pop())
                    return
                top = self.pile.pop()
                self.stock, self.pile = self.pile[::-1], [top]
            hand.append(self.stock.pop())
        self.turns[seat] += 1

    def finish(self, seat: int) -> End | None:
        """After a draw: close if the rules allow it (the fewest points), else throw the card that leaves the
        fewest."""
        card, left = self.least(self.hands[seat]) if self.ready is None else self.ready
        self.ready = None
        self.hands[seat].remove(card)
        if left <= self.limit and (self.first_round or self.turns[seat] > 1):
            return self.count(seat)
        self.pile.append(card)
        self.left[seat] = left
        return None

    def count(self, closer: int) -> End:
        """The close counted: the closer's points (-10 with every card melded), every other hand's."""
        kept = self.hands[closer]
        left = self.points(kept)
        out = {closer: ALL_MELDED if left == 0 and not self.m.arrange(kept)[1] else left}
        for s in self.order:
            if s != closer:
                out[s] = self.points(self.hands[s])
        return End(closer, out, _chinchon(kept, self.m))

    def play(self, after: int, turns: int = LONGEST) -> End:
        """Play on from the seat after ``after`` until someone closes, or ``turns`` run out."""
        i = self.order.index(after)
        for t in range(turns):
            seat = self.order[(i + 1 + t) % len(self.order)]
            self.draw(seat)
            end = self.finish(seat)
            if end is not None:
                return end
        return End(None, {})


class Dealer:
    """Deals of the unseen cards agreeing with everything a seat knows."""

    def __init__(self, view: RummyView) -> None:
        self.you = view.you if view.you is not None else 0
        left = seen.unseen(view)
        self.pool = sorted(left.elements(), key=index)
        self.mine = list(view.cards)
        self.others = [(s.seat, list(s.known[: s.card_count]), max(0, s.card_count - len(s.known[: s.card_count])))
                       for s in view.seats if s.seat != self.you and s.status is SeatStatus.IN]
        self.stock = view.stock_count

    def deal(self, rng: random.Random) -> tuple[dict[int, list[Card]], list[Card]]:
        pool = list(self.pool)
        rng.shuffle(pool)
        hands = {self.you: list(self.mine)}
        i = 0
        for seat, known, need in self.others:
            hands[seat] = known + pool[i : i + need]
            i += need
        return hands, pool[i : i + self.stock]


class Search:
    """One decision's evaluation (see the module)."""

    def __init__(self, view: RummyView, legal: list[Action], rng: random.Random, deals: int) -> None:
        self.view = view
        self.legal = legal
        self.rng = rng
        self.deals = deals
        self.you = view.you if view.you is not None else 0
        self.m = melder(rules_of(view), view.wilds)
        table = view.table
        self.limit, self.target = table.limit, table.target
        n = len(view.seats)
        first = view.turn if view.turn is not None else self.you
        self.order = [s for s in ((first + i) % n for i in range(n)) if view.seats[s].status is SeatStatus.IN]
        self.points = [s.score for s in view.seats]
        self.alive = [s.status is not SeatStatus.OUT for s in view.seats]

    def evaluate(self) -> Evaluation:
        groups = [[a] for a in self.legal]
        values: list[list[float]] = [[] for _ in groups]
        if self.view.phase is Phase.REENTRY:
            for j, (a,) in enumerate(groups):
                values[j] = [self.reentry(a)] * self.deals
            return weighed(Unit.MATCH, groups, values, [1.0] * self.deals)
        dealer = Dealer(self.view)
        for _ in range(self.deals):
            hands, stock = dealer.deal(self.rng)
            for j, (a,) in enumerate(groups):
                values[j].append(self.outcome(hands, stock, a))
        return weighed(Unit.MATCH, groups, values, [1.0] * self.deals)

    def reentry(self, action: Action) -> float:
        points, alive = list(self.points), list(self.alive)
        if action.type == REENTER:
            points[self.you] = max((p for s, p in enumerate(points) if alive[s] and s != self.you), default=0)
            alive[self.you] = True
        else:
            alive[self.you] = False
        return chinchon_odds.chinchon(points, self.you, self.target, alive)

    def rollout(self, hands: dict[int, list[Card]], stock: list[Card]) -> Rollout:
        r = Rollout(self.m, hands, stock, list(self.view.pile), self.order, self.limit, True)
        r.first_round = True  # the view does not say whose first turn it is: a close is taken as allowed
        return r

    def outcome(self, hands: dict[int, list[Card]], stock: list[Card], action: Action) -> float:
        r = self.rollout(hands, stock)
        kind = action.type
        if kind == KNOCK:
            r.hands[self.you].remove(action.cards[0])
            end = r.count(self.you)
        elif kind == DISCARD:
            r.hands[self.you].remove(action.cards[0])
            r.pile.append(action.cards[0])
            end = r.play(self.you)
        elif kind == DRAW:
            r.draw(self.you, action.value == PILE)
            end = r.finish(self.you) or r.play(self.you)
        elif kind == PASS:
            return self.reentry(action)
        else:
            end = r.play(self.you)
        return self.value(end)

    def value(self, end: End) -> float:
        """What the hand's end is worth to this seat: its match odds from the points every seat then has. (A chinchón
        counts as any close with every card melded: the quick policy seldom makes one, and a table may count it so.)"""
        points = list(self.points)
        for s, p in end.points.items():
            points[s] += p
        alive = [self.alive[s] and points[s] <= self.target for s in range(len(points))]
        if not any(alive):
            best = min((p for s, p in enumerate(points) if self.alive[s]), default=0)
            return 1.0 if points[self.you] == best else 0.0
        return chinchon_odds.chinchon(points, self.you, self.target, alive)


def evaluate(view: RummyView, legal: list[Action], rng: random.Random, budget: Budget = estimates.PLAY
             ) -> Evaluation:
    """Every legal choice of ``view``'s seat, in match odds (see the module)."""
    return Search(view, legal, rng, budget.deals(PLAY_DEALS)).evaluate()

