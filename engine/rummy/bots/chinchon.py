"""Chinchón's bots: each counts a hand by the points its cards outside melds would count (the rules' own count, the
meld search's ``deadwood``), and knows which cards are still live (``engine.seen``: not in its hand, the pile, or a
hand that took them from the pile).

- ``least``, the baseline: takes the pile's card when it leaves fewer points loose, throws the card that leaves the
  fewest, and closes as soon as it may (the close that leaves the fewest points).
- ``easy``: the baseline, that also throws its highest loose card among equals, and comes back in when it may.
- ``normal``: values a hand beyond its points now: the loose cards a live card would meld (a pair of a rank, two of
  a suit close together) weigh less than cards that nothing joins; it keeps a card the next player took from the
  pile away from them; and it closes as soon as it may (a close leaves the others their whole count: waiting for a
  better one seldom pays).
- ``hard``: normal's values, each discard looked one draw ahead (the chance of each live card coming, and the best
  discard after it); each discard weighed by what it would give the next player (``Hard.danger``: the pairs it
  would meld, each by the chance that player holds both, a card it took from the pile for certain); and a close
  put off one turn only where the match odds (``chinchon_odds``) of the -10 that enough live cards would bring
  outweigh those of closing now, and of another player closing first (``Hard.close_now``): behind in the match
  it waits more readily, ahead, or with another player near the target, it closes. And as the stock goes it counts
  what live cards might meld of a loose card less (``LATE``, ``SPAN``), so that late in a hand it throws the high
  cards it had kept for a meld.

Each sees only its seat's view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from cardtui.engine.cards import JOKER, Card
from cardtui.engine.core import Action
from cardtui.engine.rummy.bots import chinchon_odds
from cardtui.engine.rummy.bots.pifpaf import rules_of
from cardtui.engine.rummy.chinchon import HAND, REENTER
from cardtui.engine.rummy.melds import Melder, Ruleset, index, layout, melder
from cardtui.engine.rummy.records import DISCARD, DRAW, KNOCK, PASS, PILE, STOCK, RummyView, SeatStatus
from cardtui.engine.seen import seen as seen_by


def melder_of(view: RummyView) -> Melder:
    """The meld search of ``view``'s table, counting points as its rules do."""
    return melder(rules_of(view), view.wilds)


def points(m: Melder, cards: Sequence[Card]) -> int:
    """What ``cards`` leave outside melds, counted."""
    return m.deadwood(cards)


def without(hand: Sequence[Card], card: Card) -> list[Card]:
    rest = list(hand)
    rest.remove(card)
    return rest


def _reentry(legal: Sequence[Action]) -> Action | None:
    return Action(REENTER) if Action(REENTER) in legal else None


def _best_close(m: Melder, hand: Sequence[Card], legal: Sequence[Action]) -> Action | None:
    closes = [a for a in legal if a.type == KNOCK]
    if not closes:
        return None
    return min(closes, key=lambda a: (points(m, without(hand, a.cards[0])), index(a.cards[0])))


def _least_discard(m: Melder, hand: Sequence[Card]) -> tuple[Card, int]:
    """The discard that leaves the fewest points loose, the highest card of equals (a joker last)."""
    best: tuple[Card, int] | None = None
    for c in sorted(set(hand), key=lambda c: (c is JOKER, -m.rules.points[c.rank], index(c))):
        p = points(m, without(hand, c))
        if best is None or p < best[1]:
            best = (c, p)
    assert best is not None
    return best


def least(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """The baseline: the pile's card when it leaves fewer points, the discard that leaves fewest, a close at once."""
    picked = _reentry(legal)
    if picked is not None:
        return picked
    m = melder_of(view)
    hand = list(view.cards)
    close = _best_close(m, hand, legal)
    if close is not None:
        return close
    if any(a.type == DRAW for a in legal):
        pile = Action(DRAW, value=PILE)
        if pile in legal and view.pile:
            _, taking = _least_discard(m, [*hand, view.pile[-1]])
            if taking < points(m, hand) or Action(DRAW, value=STOCK) not in legal:
                return pile
        return Action(DRAW, value=STOCK) if Action(DRAW, value=STOCK) in legal else legal[0]
    if any(a.type == DISCARD for a in legal):
        card, _ = _least_discard(m, hand)
        return Action(DISCARD, cards=(card,))
    return legal[0]


def easy(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """The baseline's play, now and then drawing from the stock where the pile's card would do (a beginner does not
    always see it), and now and then keeping a card it drew that the baseline would throw straight back, throwing
    another loose card instead: so that hands nobody can close (every useful card held, the stock turned over again
    and again) end all the same."""
    if any(a.type == DRAW for a in legal) and Action(DRAW, value=STOCK) in legal and rng.random() < 0.25:
        return Action(DRAW, value=STOCK)
    chosen = least(view, legal, rng)
    if chosen.type == DISCARD and view.drawn is not None and chosen.cards == (view.drawn,) and rng.random() < 0.3:
        loose = [c for c in melder_of(view).arrange(view.cards)[1] if c != view.drawn and c is not JOKER]
        if loose:
            return Action(DISCARD, cards=(rng.choice(sorted(loose, key=index)),))
    return chosen


# -- normal and hard: a hand valued beyond its points ---------------------------------------------------------
LATE = 0.6
SPAN = 20
"""Hard counts what live cards might meld of a loose card less as the hand goes on: by ``LATE`` of it once ``SPAN``
cards were drawn from the stock (about ten turns each at two), the share growing with each card drawn. Late in a
hand fewer draws are left to meld a card, and another player is nearer its close, when loose points count in
full."""
CLOSE_NEXT = 0.2
"""How often another player closes on its next turn, about, once a hand is under way."""


class Read:
    """What one seat knows and how it values a hand (see the module)."""

    def __init__(self, view: RummyView) -> None:
        self.view = view
        self.m = melder_of(view)
        self.rules = self.m.rules
        self.you = view.you if view.you is not None else 0
        gone = seen_by(view)
        deck = Counter(layout(self.rules.pack).kinds)
        if view.table.points and self.rules.wild_acts:
            deck[JOKER] = layout(self.rules.pack).jokers
        self.size = sum(deck.values())
        self.live = {c: n - gone[c] for c, n in deck.items() if n > gone[c]}
        """Copies of each card still to come (the stock or another hand)."""
        self.unseen = max(1, sum(self.live.values()))
        self.next = self._next_seat()
        self.hope = 1.0
        """How much of what live cards might meld a value counts (hard counts less as the stock goes)."""
        self._values: dict[tuple[Card, ...], float] = {}
        self._with: dict[tuple[Card, tuple[Card, ...]], int] = {}
        self._counts: dict[tuple[Card, int], int] = {}
        self._near: dict[tuple[Card, ...], frozenset[Card]] = {}

    def _next_seat(self) -> int | None:
        v = self.view
        n = len(v.seats)
        for i in range(1, n):
            s = v.seats[(self.you + i) % n]
            if s.status is SeatStatus.IN:
                return s.seat
        return None

    def value(self, hand: Sequence[Card]) -> float:
        """What a hand of seven costs (lower is better): its loose points, less what live cards could meld of them."""
        key = tuple(sorted(hand, key=index))
        known = self._values.get(key)
        if known is None:
            known = self._values[key] = self._value(key)
        return known

    def _value(self, hand: tuple[Card, ...]) -> float:
        melds, loose = self.m.arrange(hand)
        pts = self.rules.points
        cost = float(sum(pts[c.rank] for c in loose))
        for c in loose:
            links = self._links(c, loose, melds)
            if links:
                cost -= pts[c.rank] * min(0.6, 0.12 * links) * self.hope
        return cost

    def _links(self, card: Card, loose: Sequence[Card], melds: Sequence[Sequence[Card]]) -> int:
        """Live cards that would meld ``card`` with another loose card, or join it to a meld."""
        mask = 0
        rank, suit = card.rank, card.suit
        for o in loose:  # a card of another rank and suit melds with it only through a joker
            if o is not card and (o.rank == rank or o.suit is suit or o is JOKER):
                mask |= self._joining(card, (o,))
        for mm in melds:  # nor does a meld with no card of its rank or suit, nor a joker to give up
            if any(o is JOKER or o.rank == rank or o.suit is suit for o in mm):
                mask |= self._joining(card, tuple(mm))
        total = self._counted(card, mask) if mask else 0
        if self.rules.wild_acts:
            total += self.live.get(JOKER, 0)
        return total

    def _joining(self, card: Card, others: tuple[Card, ...]) -> int:
        """Which live neighbours ``x`` of ``card`` (bits, in ``_neighbours``' order) meld ``card``, ``x`` and
        ``others`` (another loose card, or a meld) together. A value asks the same few pairs again for every hand it
        weighs: each is worked out once a decision."""
        key = (card, others)
        hit = self._with.get(key)
        if hit is None:
            live = self.live
            hit = 0
            for i, x in enumerate(_neighbours(card, self.rules)):
                if live.get(x, 0) and self.m.all_melded([*others, card, x]):
                    hit |= 1 << i
            self._with[key] = hit
        return hit

    def _counted(self, card: Card, mask: int) -> int:
        """The live copies of the neighbours of ``card`` that ``mask`` names."""
        key = (card, mask)
        hit = self._counts.get(key)
        if hit is None:
            near = _neighbours(card, self.rules)
            hit = self._counts[key] = sum(self.live[near[i]] for i in range(len(near)) if mask >> i & 1)
        return hit

    def wanted(self, card: Card) -> bool:
        """Whether the next player took from the pile a card that ``card`` would meld with."""
        if self.next is None:
            return False
        taken = self.view.seats[self.next].known
        return any(t.rank == card.rank or (t.suit is card.suit and abs(t.rank - card.rank) <= 2) for t in taken)

    def penalty(self, card: Card) -> float:
        """What throwing ``card`` costs beyond the hand it leaves: a card the next player wants, or a joker."""
        return (3.0 if self.wanted(card) else 0.0) + (30.0 if card is JOKER else 0.0)

    def best_discard(self, hand: Sequence[Card]) -> tuple[Card, float]:
        best: tuple[Card, float] | None = None
        for c in sorted(set(hand), key=lambda c: (c is JOKER, index(c))):
            v = self.value(without(hand, c)) + self.penalty(c)
            if best is None or v < best[1]:
                best = (c, v)
        assert best is not None
        return best

    def near(self, hand: Sequence[Card]) -> frozenset[Card]:
        """Every card that may meld with a card of ``hand``: its neighbours (a joker melds with any)."""
        key = tuple(hand)
        hit = self._near.get(key)
        if hit is None:
            hit = self._near[key] = frozenset(x for c in hand for x in _neighbours(c, self.rules))
        return hit

    def alone(self, card: Card) -> float:
        """What a card that melds with nothing in the hand adds to its value, kept: its points, less what the live
        jokers might meld of it."""
        pts = float(self.rules.points[card.rank])
        jokers = self.live.get(JOKER, 0) if self.rules.wild_acts else 0
        return pts - pts * min(0.6, 0.12 * jokers) if jokers else pts

    def ahead(self, hand7: Sequence[Card]) -> float:
        """A seven-card hand's value one draw ahead: each live card by its chance, then the best discard. A card that
        melds with none of the seven changes nothing else in the hand: kept, it adds ``alone`` to the best six (the
        same sum, worked out once)."""
        now = self.value(hand7)
        near = self.near(hand7)
        six: float | None = None
        total = weight = 0.0
        for c, n in self.live.items():
            p = n / self.unseen
            if c is JOKER or c in near:
                _, after = self.best_discard([*hand7, c])
            else:
                if six is None:
                    six = min(self.value(without(hand7, d)) + self.penalty(d) for d in set(hand7))
                after = min(now + self.penalty(c), six + self.alone(c))
            total += p * min(now, after)
            weight += p
        return total + (1.0 - weight) * now


class Hard(Read):
    """Hard's reading: normal's values, a discard weighed by what it gives the next player, a close by the match
    odds."""

    def __init__(self, view: RummyView) -> None:
        super().__init__(view)
        seat = view.seats[self.next] if self.next is not None else None
        self.their_known: Counter[Card] = Counter(seat.known) if seat is not None else Counter()
        self.their_unknown = max(0, seat.card_count - len(seat.known)) if seat is not None else 0
        """The next player's cards not known (not taken from the pile), dealt from the unseen ones."""
        self._danger: dict[Card, float] = {}
        self.hope = 1.0 - LATE * self.drawn() / SPAN

    def drawn(self) -> int:
        """Cards drawn from the stock this hand, at most ``SPAN`` (and ``SPAN`` once the stock was rebuilt)."""
        dealt = HAND * sum(1 for s in self.view.seats if s.status is SeatStatus.IN) + 1
        first = self.size - dealt
        stock = self.view.stock_count
        return SPAN if stock > first else min(SPAN, first - stock)

    def holds(self, card: Card) -> float:
        """The chance that the next player holds ``card``: 1 for a card it took from the pile, else its share of
        the unseen copies."""
        if self.their_known[card]:
            return 1.0
        return min(1.0, self.their_unknown * self.live.get(card, 0) / self.unseen)

    def danger(self, card: Card) -> float:
        """What throwing ``card`` gives the next player, about: for each two cards that would meld it, the chance
        that player holds both, times the points the meld takes off its hand."""
        if self.next is None or card is JOKER:
            return 0.0
        known = self._danger.get(card)
        if known is None:
            pts = self.rules.points
            known = self._danger[card] = sum(self.holds(x) * self.holds(y) * (pts[x.rank] + pts[y.rank])
                                             for x, y in _pairs(card, self.rules.pack))
        return known

    def penalty(self, card: Card) -> float:
        return self.danger(card) + (30.0 if card is JOKER else 0.0)

    def close_now(self, hand: Sequence[Card], close: Action) -> bool:
        """Close now, but where waiting a turn is worth more in match odds (``chinchon_odds``, each other player
        taken to count what a player who did not close usually counts, ``OTHER``): the chance that the next card
        melds all seven (-10, and nothing laid off), against the chance (``CLOSE_NEXT`` each) that another player
        closes first, counting what a closer usually counts (``CLOSER``) while this hand keeps its points."""
        kept = without(hand, close.cards[0])
        left = points(self.m, kept)
        if left <= 0:
            return True
        outs = sum(n for c, n in self.live.items()
                   if any(points(self.m, without([*kept, c], d)) == 0 for d in set([*kept, c])))
        chance = outs / self.unseen
        v = self.view
        alive = [s.status is SeatStatus.IN for s in v.seats]
        others = [s for s in range(len(v.seats)) if alive[s] and s != self.you]
        if not chance or not others:
            return True
        scores = [s.score for s in v.seats]
        target = v.table.target

        def odds(mine: int, theirs: tuple[tuple[int, float], ...]) -> float:
            total = 0.0
            for d, p in theirs:
                after = list(scores)
                after[self.you] += mine
                for o in others:
                    after[o] += max(d, 0)
                live = [alive[s] and after[s] <= target for s in range(len(after))]
                if any(live):
                    total += p * chinchon_odds.chinchon(after, self.you, target, live)
                else:  # every one past the target: the fewest points win
                    total += p * (after[self.you] == min(after[s] for s in range(len(after)) if alive[s]))
            return total

        now = odds(left, chinchon_odds.OTHER)
        first = min(0.9, CLOSE_NEXT * len(others))
        wait = chance * odds(-10, chinchon_odds.OTHER) + (1.0 - chance) * (
            first * odds(left, chinchon_odds.CLOSER) + (1.0 - first) * now)
        return now >= wait


@cache
def _pairs(card: Card, pack: str) -> tuple[tuple[Card, Card], ...]:
    """Every two cards that meld with ``card``: two of its rank in other suits, or two that make a run of three with
    it in its suit."""
    lay = layout(pack)
    if card.rank not in lay.place:
        return ()
    out = list(combinations([Card.of(card.rank, s) for s in lay.suits if s is not card.suit], 2))
    p, ranks = lay.place[card.rank], lay.ranks
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if p + a >= 0 and p + b < len(ranks):
            out.append((Card.of(ranks[p + a], card.suit), Card.of(ranks[p + b], card.suit)))
    return tuple(out)


@cache
def _neighbours_of(card: Card, pack: str) -> tuple[Card, ...]:
    lay = layout(pack)
    place = lay.place
    out = [Card.of(card.rank, s) for s in lay.suits if s is not card.suit] if card.rank in place else []
    if card.rank in place:
        p = place[card.rank]
        for d in (-2, -1, 1, 2):
            q = p + d
            if 0 <= q < len(lay.ranks):
                out.append(Card.of(lay.ranks[q], card.suit))
    return tuple(out)


def _neighbours(card: Card, rules: Ruleset) -> tuple[Card, ...]:
    """Cards that may meld with ``card``: its rank in another suit, its suit within two places of the pack's ranks."""
    if card is JOKER:
        return ()
    return _neighbours_of(card, rules.pack)


def _play(view: RummyView, legal: list[Action], rng: random.Random, deep: bool) -> Action:
    picked = _reentry(legal)
    if picked is not None:
        return picked
    read = Hard(view) if deep else Read(view)
    hand = list(view.cards)
    close = _best_close(read.m, hand, legal)
    if close is not None and (not isinstance(read, Hard) or read.close_now(hand, close)):
        return close
    if any(a.type == DRAW for a in legal):
        stock, pile = Action(DRAW, value=STOCK), Action(DRAW, value=PILE)
        if pile not in legal or not view.pile:
            return stock if stock in legal else legal[0]
        if stock not in legal:
            return pile
        _, with_top = read.best_discard([*hand, view.pile[-1]])
        now = read.ahead(hand) if deep else read.value(hand) - 1.0
        return pile if with_top < now - 0.5 else stock
    if any(a.type == DISCARD for a in legal):
        if not deep:
            card, _ = read.best_discard(hand)
            return Action(DISCARD, cards=(card,))
        ranked = sorted(set(hand), key=lambda c: read.value(without(hand, c)) + read.penalty(c))
        best, best_v = ranked[0], float("inf")
        for c in ranked[:3]:
            v = read.ahead(without(hand, c)) + read.penalty(c)
            if v < best_v:
                best, best_v = c, v
        return Action(DISCARD, cards=(best,))
    if close is not None:
        return close
    return next((a for a in legal if a.type != PASS), legal[0])


def normal(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """Chinchón's normal bot (see the module)."""
    return _play(view, legal, rng, deep=False)


def hard(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """Chinchón's hard bot (see the module)."""
    return _play(view, legal, rng, deep=True)
