"""Cacheta's hard bot: the rummy value one draw ahead, aware of what Cacheta pays.

A knock with all ten cards melded costs every opponent 2 points, one with nine and a discard
only 1. So among hands one card from going out, this bot values each live out by what it
pays: an out that melds all ten cards (a sequence or group of four beside the pair it
completes, say) counts ``1 + TEN_BONUS`` times, unless every other player is on 1 point.
Draws and discards are then chosen as in ``rummy_levels.hard``: the pile's card for sure
against the stock's by its chances, and the few best discards valued one draw ahead; but the
pile's card is taken only when it melds more of the hand at once (as ``cacheta_normal`` does:
a card taken for a hand that only looks better lost more than it gained, measured on duplicate
deals, and it tells the other players what this one collects).

It holds a discard back only where it most likely hands the game over: a player who has
declared na boa and took from the pile two cards that this one makes a meld of. A broader
guess at what the others hold (every live copy by its chance of being in their hand) cost
more speed than it saved in two-player tests.

Heads-up, a knock of nine is not always taken (``_wait``). A hand whose nine cards all meld
throws its tenth and keeps all nine melded whether it knocks or not; waiting, it knocks next
turn with ten (2 points, not 1) if the stock or the other's discard brings a card that melds
all ten, and with nine otherwise, unless the other player knocks first. It waits where that is
worth more in match odds (``odds.cacheta``) than the point now, counting the other's chance of
knocking first from how far into the hand it is and how many cards it holds from the pile
(``KNOCK_ODDS``): early in a hand, with many cards that meld all ten still live, and never when
the other player has 1 point left. Against normal on duplicate deals, waiting so wins more
matches than always knocking, and more with ``TEN_BONUS`` at 3.5 than at 2.0 (measured in
``bench/marks.md``). It sees only its seat's view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from cardtui.engine.bots import odds
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.rummy.bots.levels import (
    OUT_WEIGHT,
    Seen,
    _minus,
    _relevant,
    draw_open,
    pair_links,
    pairs_worth,
    turn,
)
from cardtui.engine.rummy.bots.search import known_holdings
from cardtui.engine.rummy.melds import index
from cardtui.engine.rummy.records import DISCARD, DRAW, KNOCK, PILE, STOCK, RummyView, SeatStatus

TEN_BONUS = 3.5
"""An out that melds all ten cards counts this much more than one that melds nine: against normal on
duplicate deals, 3.5 won more matches than 2.0 or 5.0 (measured in ``bench/marks.md``)."""
WIDTH = 3
"""How many discards are valued one draw ahead."""
CAP = 1
"""How many discards the look-ahead tries after each card it may draw."""
FEED = 20.0
"""What throwing a card that likely lets a declared player go out costs (a sure out of one's own is 40)."""
KNOCK_ODDS = (-4.77, 0.852, 0.755)
"""Heads-up, how likely the other player can knock at its n-th draw of a hand, holding k cards it took from the
pile: ``1 / (1 + exp(-(a + b ln n + c k)))`` with these ``(a, b, c)``: 0.8% at its first draw holding none,
2.7% at its fourth, 11% at its fourth holding two, 18% at its eighth holding two. Fitted to normal's draws
against hard (``python -m bench.odds --cacheta-knocks --hands 2000 --seed 7``); by the draw alone (no k) the
fit tells knocks apart less well (the fit's figures: ``bench/marks.md``)."""
PILE_TEN = 0.5
"""How likely the other's next discard is a card that melds all ten, against a card from the stock."""
LOOK = 4
"""How many turns ahead ``_wait`` looks: it may wait again next turn, the other's chance of knocking growing."""
OTHER_TEN = 0.37
"""How often the other player's knock melds all ten cards (normal's, measured in ``bench/marks.md``)."""


class CachetaSeen(Seen):
    """``Seen`` whose hand value counts each live out by the points it wins."""

    def __init__(self, view: RummyView) -> None:
        super().__init__(view)
        others = [s.score for s in view.seats if s.seat != self.you and s.status.value == "in"]
        self.ten_bonus = TEN_BONUS if any(score >= 2 for score in others) else 0.0
        """Nothing more for ten melded when every other player has 1 point left: either knock ends them."""
        self.feeds: set[Card] = set()
        """Cards that make a meld of two cards a player who declared na boa took from the pile (and has
        not thrown since): most likely the card they wait on."""
        for s in view.seats:
            if s.seat != self.you and s.status.value == "in" and s.declared:
                held = sorted(set(s.known), key=index)
                for i, a in enumerate(held):
                    for b in held[i + 1 :]:
                        self.feeds.update(pair_links(a, b, self.m.rules))

        self._loose: dict[tuple[int, int], tuple[Card, ...]] = {}
        self._tens: dict[tuple[int, int], frozenset[Card]] = {}

    def loose(self, hand: Sequence[Card]) -> tuple[Card, ...]:
        """The cards outside the hand's best melds, searched once per hand."""
        key = self.m.masks(hand)
        hit = self._loose.get(key)
        if hit is None:
            hit = self._loose[key] = self.m.arrange(hand)[1]
        return hit

    def tens(self, hand: Sequence[Card]) -> frozenset[Card]:
        """The cards that meld all of the hand with none left over, searched once per hand."""
        key = self.m.masks(hand)
        hit = self._tens.get(key)
        if hit is None:
            hit = self._tens[key] = frozenset(self.m.filling(hand))
        return hit

    def cost(self, card: Card) -> float:
        """What throwing ``card`` may hand the others (``FEED`` when it is in ``feeds``)."""
        return FEED if card in self.feeds else 0.0

    def _value(self, hand: Sequence[Card]) -> float:
        loose = self.loose(hand)
        melded = len(hand) - len(loose)
        score = float(melded)
        if len(loose) <= 4:
            live, outs = self.live_outs(hand)
            if outs:
                n = float(live)
                if live and self.ten_bonus:
                    n += self.ten_bonus * sum(self.live.get(c, 0) for c in self.tens(hand))
                score += 3.0 + OUT_WEIGHT * n / self.unseen
        rules = self.m.rules
        return pairs_worth(score, loose, self.m.wilds, self.live, lambda a, b: pair_links(a, b, rules))

    def ahead(self, hand9: Sequence[Card], cap: int = 0) -> float:
        """``hand9``'s value one draw ahead (``Seen.ahead``), an out that melds all ten counted by what it pays;
        after each draw, the ``cap`` (default ``CAP``) least tied loose cards are tried as the discard."""
        cap = cap or CAP
        now = self.value(hand9)
        total = 0.0
        weight = 0.0
        m = self.m
        loose9 = self.loose(hand9)
        outs = set(self.live_outs(hand9)[1]) if len(loose9) <= 4 else set()
        tens = self.tens(hand9) if outs and self.ten_bonus else frozenset()
        for c in _relevant(loose9, self.live, m):
            p = self.live[c] / self.unseen
            if c in outs:
                total += p * (now + OUT_WEIGHT * (1.0 + self.ten_bonus if c in tens else 1.0))
            else:
                ten = [*hand9, c]
                _, loose = m.arrange(ten)
                natural = [x for x in loose if x not in m.wilds]
                if len(natural) > cap == 1:
                    pool = [min(natural, key=lambda x: self._ties(x, loose))]
                elif len(natural) > cap:
                    pool = sorted(natural, key=lambda x: self._ties(x, loose))[:cap]
                else:
                    pool = natural or [c]
                best = now
                for d in pool:
                    best = max(best, self.value(_minus(ten, d)))
                total += p * best
            weight += p
        return total + (1 - weight) * now


# -- decisions ----------------------------------------------------------------------------------
def _draw(seen: CachetaSeen, legal: Sequence[Action]) -> Action | None:
    open_ = draw_open(seen, legal)
    if not isinstance(open_, tuple):
        return open_
    top, hand = open_
    stock, pile = Action(DRAW, value=STOCK), Action(DRAW, value=PILE)
    if seen.m.goes_out([*hand, top]):
        if seen.ten_bonus and not seen.loose(hand) and top not in seen.tens(hand):
            return stock  # nine melded already: any card from the stock knocks too, and some knock with ten
        return pile
    if len(seen.loose([*hand, top])) >= len(seen.loose(hand)) + 1:
        return stock  # it melds nothing more at once: a card that only looks better (see the module)
    ten = [*hand, top]
    with_top = max((seen.value(_minus(ten, d)) - seen.cost(d) for d in _natural(seen, ten) if d != top),
                   default=-1e9)
    if with_top <= seen.value(hand) + 0.05:
        return stock  # the look-ahead is never below the hand as it is: no need to ask it
    return pile if with_top > seen.ahead(hand) + 0.05 else stock


def _natural(seen: Seen, hand: Sequence[Card]) -> list[Card]:
    choices = sorted(set(hand), key=index)
    return [c for c in choices if c not in seen.m.wilds] or choices


def _discard(seen: CachetaSeen, legal: Sequence[Action]) -> Action | None:
    if not any(a.type == DISCARD for a in legal):
        return None
    hand = list(seen.view.cards)
    natural = _natural(seen, hand)
    ranked = sorted(natural, key=lambda c: seen.value(_minus(hand, c)) - seen.cost(c), reverse=True)
    best, best_v = ranked[0], -1e9
    for c in ranked[:WIDTH]:
        v = seen.ahead(_minus(hand, c)) - seen.cost(c)
        if v > best_v:
            best, best_v = c, v
    return Action(DISCARD, cards=(best,))


def knock_chance(draw: int, took: int) -> float:
    """How likely a player can knock at its ``draw``-th draw of a hand, holding ``took`` cards from the pile
    (``KNOCK_ODDS``)."""
    a, b, c = KNOCK_ODDS
    return 1.0 / (1.0 + math.exp(-(a + b * math.log(draw) + c * took)))


def _wait(view: RummyView, legal: Sequence[Action]) -> Action | None:
    """Heads-up, where a knock of nine is legal and one of ten is not: its card thrown without knocking, when
    waiting for a card that melds all ten is worth more in match odds than the point now (see the module)."""
    knocks = [a for a in legal if a.type == KNOCK]
    playing = [s for s in view.seats if s.status is SeatStatus.IN]
    if not knocks or any(not a.cards for a in knocks) or len(playing) != 2 or view.you is None:
        return None
    seen = CachetaSeen(view)
    if not seen.ten_bonus:
        return None  # the other has 1 point left: any knock ends the match
    best: tuple[float, Card] | None = None
    for knock in knocks:
        card = knock.cards[0]
        if Action(DISCARD, cards=(card,)) in legal:
            ten = sum(seen.live.get(c, 0) for c in seen.tens(_minus(view.cards, card))) / seen.unseen
            if best is None or ten > best[0]:
                best = (ten, card)
    if best is None:
        return None
    ten, card = best
    ten = 1 - (1 - ten) * (1 - PILE_TEN * ten)
    me, other = view.you, next(s.seat for s in playing if s.seat != view.you)
    points = [s.score for s in view.seats]

    def chance(mine: int, theirs: int) -> float:
        after = list(points)
        after[me], after[other] = max(0, mine), max(0, theirs)
        return odds.cacheta(after, me)

    now = chance(points[me], points[other] - 1)
    with_ten = chance(points[me], points[other] - 2)
    beaten = (1 - OTHER_TEN) * chance(points[me] - 1, points[other]) + OTHER_TEN * chance(points[me] - 2, points[other])
    draws = (len(view.pile) + sum(len(s.taken) for s in view.seats)) // 2 + 1
    took = len(known_holdings(view).get(other, ()))
    later = now
    for step in reversed(range(LOOK)):
        knocks_first = knock_chance(draws + step, took)
        later = (1 - knocks_first) * (ten * with_ten + (1 - ten) * max(now, later)) + knocks_first * beaten
    return Action(DISCARD, cards=(card,)) if later > now else None


def hard(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """Cacheta's hard bot."""
    return _wait(view, legal) or turn(view, legal, CachetaSeen, _draw, _discard)


