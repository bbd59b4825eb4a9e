"""Pif Paf and Cacheta: every legal choice played out on deals of the cards a seat cannot see.

A seat sees its own cards, the discard pile, the flip, and the cards each player took from the
pile and has not thrown since (``engine.seen``); it does not see the others' other cards or the
stock's order. A deal of the unseen cards (``Deal``) gives each other player what it is known to
hold and the rest of its cards from the unseen ones, and lays the others down as the stock.
On each deal each choice is played out (``Rollout``) to the hand's end, every player by a
quick plain policy: take the discard when it melds more cards, throw the loosest card, knock
whenever the rules allow, claim a discard that goes out (Pif Paf). What the hand's end leaves
is valued in the game's unit: Cacheta, the chance of winning the match from the points left
(``odds.cacheta``); Pif Paf, the chips won or lost. Pif Paf's betting is played out the same
way: a player who has already put in as much as the bet stays in, and the others match it when their
hand's chance of winning pays for the call, as a player who reads the pot does, or fold.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from cardtui.engine import seen
from cardtui.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from cardtui.engine.bots import estimates, odds
from cardtui.engine.bots.estimates import Budget, Evaluation, Unit, weighed
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.rummy.bots.levels import Seen, chance_of
from cardtui.engine.rummy.bots.pifpaf import rules_of
from cardtui.engine.rummy.cacheta import CUT
from cardtui.engine.rummy.melds import CARDS, Melder, Ruleset, index, is_meld, melder
from cardtui.engine.rummy.records import (
    CLAIM,
    DISCARD,
    DRAW,
    KNOCK,
    PASS,
    PILE,
    Claiming,
    Phase,
    RummySeat,
    RummyView,
    Scoring,
    SeatStatus,
)

PLAY_DEALS = 16
"""Deals a play-budget evaluation draws (``estimates.Budget``)."""
LONGEST = 120
"""Turns a hand played out may last; one still going is valued as it stands (nobody knocked)."""
WAITING = 3
"""A hand with at most this many cards loose, two of them a pair, may go out with the next card (the pair and
the card drawn make a meld, the third is thrown). Such a hand throws back a card from the stock that melds
nothing more (``Rollout.waits``): the quick policy threw its loosest card, often one of the cards it waited
with. Holding AS AH AD 4D 5D 6D QS KS KH, it drew 3D (which joins the run and melds nothing more) and threw
KH, its wait for KC or KD; a useless card taken from the pile and thrown back kept the wait, and the search
put that draw a quarter of a chip above the stock's, the only way to go out, where normal and hard playing
the same deals out find the two level (``engine.analysis``: the stock's draw was flagged)."""
CLAIMABLE = 5
"""A hand with more loose cards than this cannot go out with one more card: the card a player claims joins
one meld, and taken out of it, that meld leaves at most four cards loose (a run of five broken in the middle,
a group left with two suits)."""


@dataclass
class Deal:
    """One way the unseen cards may lie: each seat's hand and the stock (its next card last), as a rollout
    plays with them (hands as masks, cards as indices in ``melds.CARDS``)."""

    hands: dict[int, Hand]
    stock: list[int]


def known_holdings(view: RummyView) -> dict[int, list[Card]]:
    """The cards each other player still in is known to hold: taken from the pile and not thrown since
    (``RummySeat.known``; a card taken and thrown back is on the pile, counted there)."""
    return {s.seat: list(s.known[: s.card_count]) for s in view.seats
            if s.seat != view.you and s.status is SeatStatus.IN}


def unseen(view: RummyView) -> list[Card]:
    """Every copy this seat has not seen and does not know the place of (``engine.seen``), in ``CARDS`` order."""
    left = seen.unseen(view)
    out: list[Card] = []
    for c in CARDS:
        out += [c] * left[c]
    return out


class Dealer:
    """Deals of the unseen cards agreeing with everything a seat knows, one after another (``deal``): what the
    seat knows is read from its view once."""

    def __init__(self, view: RummyView) -> None:
        known = known_holdings(view)
        self.pool = [index(c) for c in unseen(view)]
        self.you = view.you or 0
        self.mine = mask(view.cards)
        self.others = [(s.seat, mask(known[s.seat]), max(0, s.card_count - len(known[s.seat])))
                       for s in view.seats if s.seat in known]
        self.stock = view.stock_count

    def deal(self, rng: random.Random) -> Deal:
        """A deal: the unseen cards shuffled, each other seat given its known cards and the rest from them."""
        pool = list(self.pool)
        rng.shuffle(pool)
        hands = {self.you: self.mine}
        i = 0
        for seat, held, need in self.others:
            for c in pool[i : i + need]:
                held = add(held, c)
            hands[seat] = held
            i += need
        return Deal(hands, pool[i : i + self.stock])


# -- cards as numbers, hands as masks (what a rollout plays with) ------------------------------------
def _neighbours(i: int) -> int:
    """The cards that make card ``i`` less loose: its rank in another suit, its suit two ranks either way."""
    card = CARDS[i]
    out = 0
    for j, o in enumerate(CARDS):
        beside = o.suit is card.suit and 0 < abs(o.rank - card.rank) <= 2
        if beside or (o.rank == card.rank and o.suit is not card.suit):
            out |= 1 << j
    return out


NEIGHBOURS = tuple(_neighbours(i) for i in range(len(CARDS)))
NEAR = tuple(n | sum(1 << j for j, o in enumerate(CARDS) if o.suit is c.suit and {o.rank, c.rank} in ({1, 12}, {1, 13}))
             for n, c in zip(NEIGHBOURS, CARDS, strict=True))
"""``NEIGHBOURS`` and, for an ace, the queen and king of its suit (and theirs the ace): every card that may share
a meld of three with a card, one wild card acting in it."""
RANKS = tuple(c.rank for c in CARDS)
ARRANGED = 50_000
"""Hands an ``Arranger`` keeps the answer for, of each kind (loose cards, going out, the discard), where it is the
process's only one; past it, that kind starts again."""
ARRANGED_BUDGET = 60_000
"""Answers every ``Arranger`` of a process keeps together (each its share, ``ARRANGED`` a kind at most). A bots'
process that meets Cacheta's wild sets in turn holds ``KEPT`` arrangers, and at 200,000 answers a kind each they
could hold 2.4 million answers, filling over a night: such a process grew through its first hours. Shared at
300,000 they were still filling in a night's second hour (some 200 bytes an answer); at 60,000 (a dozen megabytes)
they fill within minutes of a busy room, and the bots decide as fast (bench/marks.md, "The bots' process in its
second hour")."""

Hand = tuple[int, int]
"""A hand as two masks over ``melds.CARDS``: the cards held at least once, the cards held twice."""
Loose = tuple[int, int, int]
"""The cards a hand's best arrangement leaves outside melds: as a ``Hand``'s two masks, and how many."""


def add(hand: Hand, card: int) -> Hand:
    """``hand`` with one more ``card``."""
    a, b = hand
    bit = 1 << card
    return (a, b | bit) if a & bit else (a | bit, b)


def remove(hand: Hand, card: int) -> Hand:
    """``hand`` with one copy of ``card`` fewer (it holds one)."""
    a, b = hand
    bit = 1 << card
    return (a, b ^ bit) if b & bit else (a ^ bit, b)


def mask(cards: Sequence[Card]) -> Hand:
    hand = (0, 0)
    for c in cards:
        hand = add(hand, index(c))
    return hand


def cards_of(hand: Hand) -> list[Card]:
    a, b = hand
    out: list[Card] = []
    while a:
        t = a & -a
        a ^= t
        c = CARDS[t.bit_length() - 1]
        out += (c, c) if b & t else (c,)
    return out


@cache
def partners(rules: Ruleset) -> tuple[tuple[int, ...], ...]:
    """For each card, the pairs of other cards it makes a natural three-card meld with (each pair a mask).

    A card joins a meld of a hand only if the hand holds such a pair: a natural run of three or more
    holds a run of three through any of its cards, a group of three suits or more a group of three
    suits through any of its cards. A card with no pair in a hand without wild cards is loose there."""
    out: list[tuple[int, ...]] = []
    for i, card in enumerate(CARDS):
        near = [j for j, o in enumerate(CARDS) if j != i and (o.rank == card.rank or o.suit is card.suit)]
        out.append(tuple((1 << j) | (1 << k) for j, k in combinations(near, 2)
                         if is_meld((card, CARDS[j], CARDS[k]), rules)))
    return tuple(out)


class Arranger:
    """The meld search (``melds.Melder.arrange``) asked about hands held as masks, each answer kept: a
    rollout asks about the same few hands over and over (every choice of a decision is played out on the
    same deals, and most of the others' turns go alike), so most questions are a lookup."""

    __slots__ = ("cap", "m", "memo", "outs", "pairs", "thrown", "wild")

    def __init__(self, m: Melder) -> None:
        self.m = m
        self.cap = ARRANGED
        """Answers of each kind kept before that kind starts again: this arranger's share of ``ARRANGED_BUDGET``."""
        self.memo: dict[Hand, Loose] = {}
        self.outs: dict[Hand, bool] = {}
        self.thrown: dict[tuple[int, int, int], int] = {}
        self.wild = mask(m.wilds)[0]
        self.pairs = partners(m.rules)

    def loose(self, hand: Hand) -> Loose:
        """The cards ``hand``'s best arrangement leaves outside melds (``Loose``)."""
        hit = self.memo.get(hand)
        if hit is None:
            if len(self.memo) >= self.cap:
                self.memo.clear()
            hit = self.memo[hand] = self.m.loose_masks(*hand)
        return hit

    def goes_out(self, hand: Hand) -> bool:
        """Whether ``hand`` melds all but one card at most (``melds.Melder.goes_out``: a search that stops at
        the first way, cheaper than the best arrangement)."""
        hit = self.outs.get(hand)
        if hit is None:
            if len(self.outs) >= self.cap:
                self.outs.clear()
            hit = self.outs[hand] = self.m.goes_out_masks(*hand)
        return hit

    def joins(self, hand: Hand, card: int) -> bool:
        """Whether ``card`` might join a meld of ``hand`` plus it; when not, it would only be one more loose
        card (a wild card in either may join anything)."""
        a, bit = hand[0], 1 << card
        if bit & self.wild:
            return True
        if a & self.wild:
            # A meld of ``card`` and a wild card acting holds another card near it (standing as itself).
            return bool(a & NEAR[card])
        for pair in self.pairs[card]:  # noqa: SIM110 - a loop, not any(): asked millions of times a hand
            if a & pair == pair:
                return True
        return False

    def loosest(self, hand: Hand, left: int) -> int:
        """The policy's discard among the loose cards ``left``: a natural one (a wild card only when no other
        is loose) with the fewest cards near it, the highest of equals, the lowest suit of those."""
        a, b = hand
        found = self.thrown.get((a, b, left))
        if found is not None:
            return found
        natural = left & ~self.wild or left
        best, key = -1, 1 << 30
        while natural:
            t = natural & -natural
            natural ^= t
            i = t.bit_length() - 1
            near = NEIGHBOURS[i]
            k = ((a & near).bit_count() + (b & near).bit_count()) * 16 - RANKS[i]  # fewest near, then highest
            if k < key:
                best, key = i, k
        if len(self.thrown) >= self.cap:
            self.thrown.clear()
        self.thrown[(a, b, left)] = best
        return best


_ARRANGERS: dict[Melder, Arranger] = {}
KEPT = 4
"""Arrangers kept at once, the most recently made: a process that plays many tables (a bot worker) meets every
wild set of Cacheta in turn (26 of them), and each arranger keeps up to ``ARRANGED`` answers of each kind: kept
all, an arena of 60 Cacheta deals grew to 1.8 GB."""


def arranger(m: Melder) -> Arranger:
    """The (kept) ``Arranger`` of a meld search."""
    found = _ARRANGERS.get(m)
    if found is None:
        while len(_ARRANGERS) >= KEPT:
            del _ARRANGERS[next(iter(_ARRANGERS))]
        found = _ARRANGERS[m] = Arranger(m)
        share = min(ARRANGED, ARRANGED_BUDGET // (3 * len(_ARRANGERS)))
        for each in _ARRANGERS.values():  # the budget shared anew among the arrangers kept
            each.cap = share
    return found


class Rollout:
    """A hand played out from a known deal, every seat by the quick policy (see the module). Cards are
    their indices in ``melds.CARDS``, hands masks (``Hand``). Each seat's loose cards are kept as it
    draws and throws: a card that joins nothing is one more loose card, a loose card thrown one fewer;
    only a card that may join a meld asks the meld search (``Arranger``).

    The stock's order is unknown, so which of its places a draw takes does not change what it may
    bring: any place not yet drawn from holds any card not yet seen, alike. Each seat draws from places
    of its own (its ``k``-th draw from the stock the ``k``-th of every ``len(order)``, in turn order), the
    first free place when its own are gone: the choices of one decision played out on one deal then
    bring each seat the same cards from the stock, whoever took the pile's card instead in between, and
    the gap between two choices is measured on the same luck (common random numbers) rather than on two
    stocks shifted by a card. A stock made again from the pile is in a known order: it is drawn in turn."""

    __slots__ = ("arr", "claims", "drawn", "free", "fresh", "hands", "lanes", "left", "low", "order", "pile", "stock",
                 "used")

    def __init__(self, arr: Arranger, hands: dict[int, Hand], stock: list[int], pile: list[int],
                 order: list[int], claims: bool) -> None:
        self.arr = arr
        self.hands = dict(hands)
        self.left: dict[int, Loose] = {}
        """Each seat's loose cards, where known."""
        self.stock = list(stock)
        """The stock, its first place last."""
        self.used = bytearray(len(stock))
        """Which places of the stock have been drawn from."""
        self.free = len(stock)
        self.low = 0
        """No place below this one is free."""
        self.drawn: dict[int, int] = {}
        """Each seat's draws from this stock."""
        self.lanes = True
        """Whether each seat draws from places of its own (the stock as dealt, in an unknown order)."""
        self.pile = list(pile)
        self.order = order
        """The seats in play, in turn order."""
        self.claims = claims
        """Pif Paf: a discard that lets another player go out is claimed."""
        self.fresh: tuple[int, int, int] | None = None
        """The last card drawn from the stock by a seat that waited (``waits``): the seat, the card, and how
        many cards it held loose before it (``finish``)."""

    def loose(self, seat: int) -> Loose:
        found = self.left.get(seat)
        if found is None:
            found = self.left[seat] = self.arr.loose(self.hands[seat])
        return found

    def take(self, seat: int, card: int) -> None:
        """``card`` into ``seat``'s hand."""
        hand = self.hands[seat]
        known = self.left.pop(seat, None)
        if known is not None and not self.arr.joins(hand, card):
            la, lb = add((known[0], known[1]), card)
            self.left[seat] = (la, lb, known[2] + 1)
        self.hands[seat] = add(hand, card)

    def drop(self, seat: int, card: int) -> None:
        """``card`` out of ``seat``'s hand onto the pile."""
        self.hands[seat] = remove(self.hands[seat], card)
        self.pile.append(card)
        known = self.left.pop(seat, None)
        if known is not None and known[0] >> card & 1:
            la, lb = remove((known[0], known[1]), card)
            self.left[seat] = (la, lb, known[2] - 1)

    def draw(self, seat: int, pile: bool | None = None) -> None:
        """``seat`` draws: the pile's top when ``pile`` (or, unsaid, when it melds more), else the stock."""
        if pile is None:
            # One more card melds more when no more cards are left loose: only a card that joins a meld can.
            pile = bool(self.pile) and self.arr.joins(self.hands[seat], self.pile[-1]) and (
                self.arr.loose(add(self.hands[seat], self.pile[-1]))[2] <= self.loose(seat)[2])
        if pile and self.pile:
            self.take(seat, self.pile.pop())
            return
        if not self.free:
            if len(self.pile) <= 1:
                if self.pile:
                    self.take(seat, self.pile.pop())
                return
            top = self.pile.pop()
            self.stock, self.pile = list(reversed(self.pile)), [top]
            self.used, self.free, self.low, self.lanes = bytearray(len(self.stock)), len(self.stock), 0, False
        waiting = not self.arr.wild and self.waits(seat)
        before = self.loose(seat)[2]
        card = self.from_stock(seat)
        self.take(seat, card)
        self.fresh = (seat, card, before) if waiting else None

    def waits(self, seat: int) -> bool:
        """Whether ``seat``'s nine cards may go out with the next card: two or three of them loose, two of those
        a pair that one card makes a meld of (the third, if any, to be thrown). Without wild cards only."""
        left, _, count = self.loose(seat)
        if not 2 <= count <= WAITING:
            return False
        rest = left
        while rest:
            t = rest & -rest
            rest ^= t
            if NEIGHBOURS[t.bit_length() - 1] & left:
                return True
        return False

    def from_stock(self, seat: int) -> int:
        """The card ``seat`` draws from the stock (it holds one): from its own places while they last."""
        used = self.used
        i = len(used)
        if self.lanes:
            k = self.drawn.get(seat, 0)
            self.drawn[seat] = k + 1
            i = k * len(self.order) + self.order.index(seat)
        if i >= len(used) or used[i]:
            while used[self.low]:
                self.low += 1
            i = self.low
        used[i] = 1
        self.free -= 1
        return self.stock[-1 - i]

    def finish(self, seat: int) -> tuple[int, bool] | None:
        """After a draw: knock if the ten cards allow (returns who and whether all ten meld), else throw
        the loosest card (None)."""
        left, _, count = self.loose(seat)
        fresh, self.fresh = self.fresh, None
        if count <= 1:
            if count:
                self.drop(seat, left.bit_length() - 1)
            return seat, not count
        if fresh is not None and fresh[0] == seat and count >= fresh[2]:
            return self.throw(seat, fresh[1])  # a hand that waits keeps its wait
        return self.throw(seat, self.arr.loosest(self.hands[seat], left))

    def throw(self, seat: int, card: int) -> tuple[int, bool] | None:
        """``seat`` discards ``card``; a player it lets go out may claim it (Pif Paf)."""
        self.drop(seat, card)
        if not self.claims:
            return None
        i = self.order.index(seat)
        for s in self.order[i + 1 :] + self.order[:i]:
            hand = self.hands[s]
            if (self.loose(s)[2] > CLAIMABLE and not self.arr.wild) or not self.arr.joins(hand, card):
                continue
            if not self.arr.goes_out(add(hand, card)):
                continue
            left, _, count = self.arr.loose(add(hand, card))
            if count <= 1 and not left >> card & 1:
                self.pile.pop()
                return s, not count
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
        self.arr = arranger(self.m)
        self.points = view.table.scoring is Scoring.KNOCK
        """Points lost at a knock (Cacheta): valued in match odds, else in chips."""
        self.order = [s.seat for s in self._in_turn()]
        self.pile = [index(c) for c in view.pile]
        self._worths: dict[tuple[int, Hand], float] = {}

    def _in_turn(self) -> list[RummySeat]:
        v = self.view
        n = len(v.seats)
        first = v.turn if v.turn is not None else (v.window.discarder if v.window is not None else self.you)
        seats = [v.seats[(first + i) % n] for i in range(n)]
        return [s for s in seats if s.status is SeatStatus.IN]

    def evaluate(self) -> Evaluation:
        groups = [[a] for a in self.legal]
        values: list[list[float]] = [[] for _ in groups]
        dealer = Dealer(self.view)
        for _ in range(self.deals):
            d = dealer.deal(self.rng)
            for j, (a,) in enumerate(groups):
                values[j].append(self.outcome(d.hands, d.stock, a))
        return weighed(Unit.MATCH if self.points else Unit.CHIPS, groups, values, [1.0] * self.deals)

    # -- one choice on one deal ----------------------------------------------------------------
    def outcome(self, hands: dict[int, tuple[int, int]], stock: list[int], action: Action) -> float:
        """``action`` played out on one deal (the seats' hands as masks, the stock as cards, ``Rollout``)."""
        v = self.view
        r = Rollout(self.arr, hands, stock, self.pile, self.order, claims=view_claims(v))
        kind = action.type
        paid = 0
        if kind in (FOLD, CHECK, CALL, BET, RAISE):
            if kind == FOLD:
                return self.value(None, paid=0, folded=True)
            target = self._target(action)
            paid = target - v.seats[self.you].put
            r.order = self._answered(r, target, v.pot + paid)
            if len(r.order) == 1:
                return self.value((self.you, False), paid=paid)
            extra = sum(target - v.seats[s].put for s in r.order if s != self.you and v.seats[s].put < target)
            return self.value(r.play(self._before_first(r)), paid=paid, extra=extra)
        end: tuple[int, bool] | None
        if kind == KNOCK:
            end = (self.you, not action.cards)
        elif kind in (CLAIM, CUT):
            assert v.window is not None
            card = index(v.window.card)
            if r.pile and r.pile[-1] == card:
                r.pile.pop()
            left, _, count = self.arr.loose(add(r.hands[self.you], card))
            end = (self.you, not count) if count <= 1 and not left >> card & 1 else None
            if end is None:  # a failed cut: the card goes back, play goes on
                r.pile.append(card)
                end = r.play(v.window.discarder)
        elif kind == DRAW:
            r.draw(self.you, action.value == PILE)
            end = r.finish(self.you) or r.play(self.you)
        elif kind == DISCARD:
            end = r.throw(self.you, index(action.cards[0])) or r.play(self.you)
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

    def _answered(self, r: Rollout, target: int, pot: int) -> list[int]:
        """The seats still in once each, in turn after this one, has answered a level of ``target`` chips put in
        with ``pot`` in the middle: one that has put in as much stays, the others call or fold (``_stays``), each
        seeing the pot with the calls before it and the players not yet folded."""
        v = self.view
        players = len(r.order)
        kept = []
        for s in r.order:
            owe = target - v.seats[s].put
            if s == self.you or owe <= 0:
                kept.append(s)
            elif self._stays(r.hands[s], s, owe, pot, players):
                kept.append(s)
                pot += owe
            else:
                players -= 1
        return kept

    def _stays(self, hand: Hand, seat: int, owe: int, pot: int, players: int) -> bool:
        """Whether ``seat`` holding ``hand``, asked to pay ``owe`` into ``pot`` with ``players`` still in, stays
        in: when its hand's chance of winning pays for the call, the hand valued as its player reads it from its
        own seat (``rummy_levels.win_chance``, normal's betting: the cards it melds, how near its loose cards are
        to a meld, how many live cards would make one). Read by the cards it melds alone, a dealt hand called a
        bet of the most one time in twenty in the model, where normal calls it one time in three, and hard bet the
        most with nine unconnected cards on every seed (``bench/pifpaf_bets.py``). (A rule of loose cards alone,
        deaf to the pot, let the hard bot that bets by this search take far fewer of the matches from normal,
        which calls by the pot: ``bench/marks.md``.)"""
        return chance_of(self._worth(hand, seat), players) * (pot + owe) >= owe

    def _worth(self, hand: Hand, seat: int) -> float:
        """``hand`` as ``seat``'s player values it (``Seen.value`` from its own view), remembered: every choice
        of the decision is played out on the same deals."""
        found = self._worths.get((seat, hand))
        if found is None:
            cards = tuple(cards_of(hand))
            seen = Seen(dataclasses.replace(self.view, you=seat, cards=cards))
            found = self._worths[(seat, hand)] = seen.value(cards)
        return found

    def _target(self, action: Action) -> int:
        """The chips each player must have put in (ante and bets) once this seat has taken a betting ``action``:
        a check leaves it, a call matches the most anyone has put in, a bet or raise names the round's new
        level (the ante is what the highest bettor put in beyond the round's level)."""
        v = self.view
        mine = v.seats[self.you].put
        if action.type == CALL:
            return mine + action.amount
        if action.type in (BET, RAISE):
            level = v.betting.level if v.betting is not None else 0
            most = max(s.put for s in v.seats if s.status is SeatStatus.IN)
            return most - level + action.amount
        return max(mine, max(s.put for s in v.seats if s.status is SeatStatus.IN))

    def value(self, end: tuple[int, bool] | None, paid: int, folded: bool = False, extra: int = 0) -> float:
        """What the hand's end is worth to this seat, in the game's unit."""
        v = self.view
        if self.points:
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


def view_claims(view: RummyView) -> bool:
    """Whether a discard that lets a player go out is taken at once (Pif Paf's claim, ``Claiming.COMPLETES``)."""
    return view.table.claiming is Claiming.COMPLETES


def evaluate(view: RummyView, legal: list[Action], rng: random.Random, budget: Budget = estimates.PLAY
             ) -> Evaluation:
    """Every legal choice of ``view``'s seat: Cacheta in match odds, Pif Paf in chips (see the module)."""
    return Search(view, legal, rng, budget.deals(PLAY_DEALS)).evaluate()
