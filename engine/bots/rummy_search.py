"""Pif Paf and Cacheta: every legal choice played out on deals of the cards a seat cannot see.

A seat sees its own cards, the discard pile, the flip, and the cards each player took from the
pile; it does not see the others' other cards or the stock's order. A deal of the unseen cards
(``Deal``) gives each other player what it is known to hold (what it took and has not thrown
since) and the rest of its cards from the unseen ones, and lays the others down as the stock.
On each deal each choice is played out (``Rollout``) to the hand's end, every player by a
quick plain policy: take the discard when it melds more cards, throw the loosest card, knock
whenever the rules allow, claim a discard that goes out (Pif Paf). What the hand's end leaves
is valued in the game's unit: Cacheta, the chance of winning the match from the points left
(``odds.cacheta``); Pif Paf, the chips won or lost. Pif Paf's betting is played out the same
way: the others stay in with any hand that is not far from going out.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from cardtui.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from cardtui.engine.bots import estimates, odds
from cardtui.engine.bots.estimates import Budget, Evaluation, Unit, weighed
from cardtui.engine.bots.rummy_levels import rules_of
from cardtui.engine.cacheta import CUT
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.melds import CARDS, Melder, melder
from cardtui.engine.rummy_records import (
    CLAIM,
    DISCARD,
    DRAW,
    KNOCK,
    PASS,
    PILE,
    Phase,
    RummySeat,
    RummyView,
    SeatStatus,
)

PLAY_DEALS = 16
"""Deals a play-budget evaluation draws (``estimates.Budget``)."""
LONGEST = 120
"""Turns a hand played out may last; one still going is valued as it stands (nobody knocked)."""
STAYS = 5
"""A player the model asks to pay into a Pif Paf bet stays in with at most this many loose cards."""


def _isolation(card: Card, others: Sequence[Card]) -> int:
    return sum(
        1 for o in others
        if (o.rank == card.rank and o.suit is not card.suit)
        or (o.suit is card.suit and 0 < abs(o.rank - card.rank) <= 2)
    )


@dataclass
class Deal:
    """One way the unseen cards may lie: each seat's hand and the stock (its next card last)."""

    hands: dict[int, list[Card]]
    stock: list[Card]


def known_holdings(view: RummyView) -> dict[int, list[Card]]:
    """The cards each other player is known to hold: taken from the pile and not back on it."""
    pile = Counter(view.pile)
    out: dict[int, list[Card]] = {}
    for s in view.seats:
        if s.seat == view.you or s.status is not SeatStatus.IN:
            continue
        held: list[Card] = []
        for c in s.taken:
            if pile[c] > 0:
                pile[c] -= 1
            else:
                held.append(c)
        out[s.seat] = held[: s.card_count]
    return out


def unseen(view: RummyView, known: dict[int, list[Card]]) -> list[Card]:
    """Every copy this seat has not seen and does not know the place of."""
    gone = Counter(view.cards)
    gone.update(view.pile)
    if view.flip is not None:
        gone[view.flip] += 1
    for cards in known.values():
        gone.update(cards)
    out: list[Card] = []
    for c in CARDS:
        out += [c] * max(0, 2 - gone[c])
    return out


def deal(view: RummyView, rng: random.Random) -> Deal:
    """A deal of the unseen cards agreeing with everything the seat knows."""
    known = known_holdings(view)
    pool = unseen(view, known)
    rng.shuffle(pool)
    hands = {view.you or 0: list(view.cards)}
    i = 0
    for s in view.seats:
        if s.seat not in known:
            continue
        need = max(0, s.card_count - len(known[s.seat]))
        hands[s.seat] = [*known[s.seat], *pool[i : i + need]]
        i += need
    return Deal(hands, pool[i : i + view.stock_count])


class Rollout:
    """A hand played out from a known deal, every seat by the quick policy (see the module)."""

    __slots__ = ("claims", "hands", "m", "order", "pile", "stock")

    def __init__(self, m: Melder, hands: dict[int, list[Card]], stock: list[Card], pile: list[Card],
                 order: list[int], claims: bool) -> None:
        self.m = m
        self.hands = {s: list(h) for s, h in hands.items()}
        self.stock = list(stock)
        self.pile = list(pile)
        self.order = order
        """The seats in play, in turn order."""
        self.claims = claims
        """Pif Paf: a discard that lets another player go out is claimed."""

    def melded(self, hand: Sequence[Card]) -> int:
        return len(hand) - len(self.m.arrange(hand)[1])

    def draw(self, seat: int, pile: bool | None = None) -> None:
        """``seat`` draws: the pile's top when ``pile`` (or, unsaid, when it melds more), else the stock."""
        hand = self.hands[seat]
        if pile is None:
            pile = bool(self.pile) and self.melded([*hand, self.pile[-1]]) > self.melded(hand)
        if pile and self.pile:
            hand.append(self.pile.pop())
            return
        if not self.stock:
            if len(self.pile) <= 1:
                if self.pile:
                    hand.append(self.pile.pop())
                return
            top = self.pile.pop()
            self.stock, self.pile = list(reversed(self.pile)), [top]
        hand.append(self.stock.pop())

    def finish(self, seat: int) -> tuple[int, bool] | None:
        """After a draw: knock if the ten cards allow (returns who and whether all ten meld), else throw
        the loosest card (None)."""
        hand = self.hands[seat]
        _, loose = self.m.arrange(hand)
        if len(loose) <= 1:
            if loose:
                hand.remove(loose[0])
                self.pile.append(loose[0])
            return seat, not loose
        wilds = self.m.wilds
        natural = [c for c in loose if c not in wilds] or list(loose)
        card = min(natural, key=lambda c: (_isolation(c, [o for o in hand if o is not c]), -c.rank))
        return self.throw(seat, card)

    def throw(self, seat: int, card: Card) -> tuple[int, bool] | None:
        """``seat`` discards ``card``; a player it lets go out may claim it (Pif Paf)."""
        self.hands[seat].remove(card)
        self.pile.append(card)
        if not self.claims:
            return None
        i = self.order.index(seat)
        for s in self.order[i + 1 :] + self.order[:i]:
            hand = [*self.hands[s], card]
            _, loose = self.m.arrange(hand)
            if len(loose) <= 1 and card not in loose:
                self.pile.pop()
                return s, not loose
        return None

    def play(self, after: int, turns: int = LONGEST) -> tuple[int, bool] | None:
        """Play on from the seat after ``after`` until someone knocks (who, and whether all ten meld), or
        ``turns`` run out (None)."""
        i = self.order.index(after)
        for t in range(turns):
            seat = self.order[(i + 1 + t) % len(self.order)]
            self.draw(seat)
            done = self.finish(seat)
            if done is not None:
                return done
        return None


class Search:
    """One decision's evaluation (see the module)."""

    def __init__(self, view: RummyView, legal: list[Action], rng: random.Random, deals: int) -> None:
        self.view = view
        self.legal = legal
        self.rng = rng
        self.deals = deals
        self.you = view.you if view.you is not None else 0
        self.m = melder(rules_of(view), view.wilds)
        self.cacheta = view.flip is not None
        self.order = [s.seat for s in self._in_turn()]

    def _in_turn(self) -> list[RummySeat]:
        v = self.view
        n = len(v.seats)
        first = v.turn if v.turn is not None else (v.window.discarder if v.window is not None else self.you)
        seats = [v.seats[(first + i) % n] for i in range(n)]
        return [s for s in seats if s.status is SeatStatus.IN]

    def evaluate(self) -> Evaluation:
        groups = [[a] for a in self.legal]
        values: list[list[float]] = [[] for _ in groups]
        for _ in range(self.deals):
            d = deal(self.view, self.rng)
            for j, (a,) in enumerate(groups):
                values[j].append(self.outcome(d, a))
        return weighed(Unit.MATCH if self.cacheta else Unit.CHIPS, groups, values, [1.0] * self.deals)

    # -- one choice on one deal ----------------------------------------------------------------
    def outcome(self, d: Deal, action: Action) -> float:
        v = self.view
        r = Rollout(self.m, d.hands, d.stock, list(v.pile), self.order, claims=not self.cacheta)
        kind = action.type
        paid = 0
        if kind in (FOLD, CHECK, CALL, BET, RAISE):
            if kind == FOLD:
                return self.value(None, paid=0, folded=True)
            paid = action.amount
            r.order = [s for s in r.order if s == self.you or self._stays(r, s)]
            if len(r.order) == 1:
                return self.value((self.you, False), paid=paid)
            return self.value(r.play(self._before_first(r)), paid=paid, extra=self._calls(r, paid))
        end: tuple[int, bool] | None
        if kind == KNOCK:
            hand = r.hands[self.you]
            end = (self.you, not action.cards)
            if action.cards:
                hand.remove(action.cards[0])
        elif kind in (CLAIM, CUT):
            assert v.window is not None
            if r.pile and r.pile[-1] == v.window.card:
                r.pile.pop()
            hand = [*r.hands[self.you], v.window.card]
            _, loose = self.m.arrange(hand)
            end = (self.you, not loose) if len(loose) <= 1 and v.window.card not in loose else None
            if end is None:  # a failed cut: the card goes back, play goes on
                r.pile.append(v.window.card)
                end = r.play(v.window.discarder)
        elif kind == DRAW:
            r.draw(self.you, action.value == PILE)
            end = r.finish(self.you) or r.play(self.you)
        elif kind == DISCARD:
            end = r.throw(self.you, action.cards[0]) or r.play(self.you)
        elif kind == PASS and v.window is not None:
            end = r.play(v.window.discarder)
        else:  # declaring na boa, or a turn by the policy
            if v.phase is Phase.DRAW and v.turn == self.you:
                r.draw(self.you)
                end = r.finish(self.you) or r.play(self.you)
            elif v.phase is Phase.DISCARD and v.turn == self.you:
                end = r.finish(self.you) or r.play(self.you)
            else:
                end = r.play(v.window.discarder if v.window is not None else self._before_first(r))
        return self.value(end, paid=0)

    def _before_first(self, r: Rollout) -> int:
        """The seat before the first to draw: play starts left of the dealer."""
        n = len(self.view.seats)
        first = next(s for i in range(1, n + 1) if (s := (self.view.dealer + i) % n) in r.order)
        return r.order[(r.order.index(first) - 1) % len(r.order)]

    def _stays(self, r: Rollout, seat: int) -> bool:
        return len(self.m.arrange(r.hands[seat])[1]) <= STAYS

    def _calls(self, r: Rollout, paid: int) -> int:
        """Chips the others who stay put in to match this seat's bet (what the pot gains)."""
        b = self.view.betting
        level = b.level if b is not None else 0
        mine = self.view.seats[self.you].put + paid
        return sum(max(0, mine - self.view.seats[s].put) for s in r.order if s != self.you) if mine > level else 0

    def value(self, end: tuple[int, bool] | None, paid: int, folded: bool = False, extra: int = 0) -> float:
        """What the hand's end is worth to this seat, in the game's unit."""
        v = self.view
        if self.cacheta:
            points = [s.score if s.status is SeatStatus.IN else 0 for s in v.seats]
            if end is not None:
                knocker, ten = end
                for s in range(len(points)):
                    if s != knocker and points[s] > 0:
                        points[s] = max(0, points[s] - (2 if ten else 1))
            return odds.cacheta(points, self.you)
        if folded or end is None:
            return -paid
        pot = v.pot + paid + extra
        return pot - paid if end[0] == self.you else -paid


def evaluate(view: RummyView, legal: list[Action], rng: random.Random, budget: Budget = estimates.PLAY
             ) -> Evaluation:
    """Every legal choice of ``view``'s seat: Cacheta in match odds, Pif Paf in chips (see the module)."""
    return Search(view, legal, rng, budget.deals(PLAY_DEALS)).evaluate()
