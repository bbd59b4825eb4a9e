"""Pif Paf and Cacheta bots by level: each plays by how close a hand is to going out, counting only
the cards still in play, and keeps from the others what they are collecting.

What a seat can remember (``Seen``, counted by ``engine.seen``): its own cards, the whole discard
pile (only its top can be taken), the cards each player took from the pile and has not thrown
since, and the flip. Every other copy of a card is *live*: in the stock or in someone's hand, so
it may still come.

A nine-card hand is valued (``value``) by the chance that its next draw lets it go out (its
live outs over the cards unseen), then by how many of its cards already meld, then by the
pairs of loose cards a live card would turn into a meld. Levels:

- ``easy``: the old play (``engine.rummy.bots.pifpaf``) with its blunders taken out: a discard is
  taken from the pile only when it makes the hand closer to going out than the stock is
  likely to, outs are counted only while a copy is live, and na boa is declared only where
  it buys something (a cut needs it, and in a two-player game the discard is one's own to
  draw anyway, so there it only tells the other player what not to throw).
- ``normal``: discards and draws by ``value``, and no discard the next players are known to want.
- ``hard``: each discard valued one draw ahead: the chance of each live card coming, and the
  best discard after it.
Pif Paf's normal bets by the same value: by the hand's chance of winning (``win_chance``, from
self-play): call when the pot pays for the call, bet a hand better than an even share. (Normal once bet
only a hand near going out and folded a fair hand to a bet of one chip: against players who call nearly
every bet it took under its share of the matches.) Pif Paf's hard bot (``pifpaf_hard``) draws and
discards as ``hard`` here and bets by playing the hand out.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cache
from typing import Any

from cardtui.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from cardtui.engine.bots import hand_odds
from cardtui.engine.cards import FRENCH_SUITS, Card
from cardtui.engine.core import Action
from cardtui.engine.rummy.bots import cacheta as old_cacheta
from cardtui.engine.rummy.bots import pifpaf as old_pifpaf
from cardtui.engine.rummy.bots.pifpaf import rules_of
from cardtui.engine.rummy.cacheta import CUT, DECLARE
from cardtui.engine.rummy.melds import CARDS, GroupRule, Melder, Ruleset, index, melder
from cardtui.engine.rummy.records import (
    CLAIM,
    DISCARD,
    DRAW,
    KNOCK,
    PASS,
    PILE,
    STOCK,
    Claiming,
    Phase,
    RummyView,
    SeatStatus,
)
from cardtui.engine.seen import seen

WIDTH = 3
"""How many discards ``hard`` looks a draw ahead on."""
OUT_WEIGHT = 40.0
"""What a sure out next draw is worth, in melded cards."""


class Seen:
    """What one seat knows of where the cards are, and the meld search for its table."""

    def __init__(self, view: RummyView) -> None:
        self.view = view
        self.m: Melder = melder(rules_of(view), view.wilds)
        self.you = view.you if view.you is not None else 0
        gone = seen(view)  # its cards, the pile, the flip, what the others took and kept (``engine.seen``)
        self.gone = gone
        self._ties_of: dict[tuple[Card, Card], float] = {}
        top = view.pile[-1] if view.pile else None
        self.top = top
        live: dict[Card, int] = {}
        for c in CARDS:
            n = 2 - gone[c]
            if n > 0:
                live[c] = n
        self.live = live
        """Copies of each card that may still be drawn (the pile's top is counted with the pile)."""
        self.unseen = max(1, sum(live.values()))
        self.wanted = self._wanted()
        self._values: dict[tuple[int, int], float] = {}
        self._outs: dict[tuple[int, int], tuple[int, tuple[Card, ...]]] = {}

    def _wanted(self) -> Counter[Card]:
        """How much the other players are known to want each card: what melds with what they took."""
        want: Counter[Card] = Counter()
        for s in self.view.seats:
            if s.seat == self.you:
                continue
            for t in s.taken:
                for c in _near_cards(t):
                    want[c] += 1
        return want

    def live_outs(self, hand: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
        """How many live copies there are of the cards that let ``hand`` go out, and those cards."""
        key = self.m.masks(hand)
        known = self._outs.get(key)
        if known is None:
            outs = self.m.completing(hand)
            known = self._outs[key] = (sum(self.live.get(c, 0) for c in outs), outs)
        return known

    def value(self, hand: Sequence[Card]) -> float:
        """How close these nine cards are to going out (higher is closer)."""
        key = self.m.masks(hand)
        known = self._values.get(key)
        if known is None:
            known = self._values[key] = self._value(hand)
        return known

    def _value(self, hand: Sequence[Card]) -> float:
        _, loose = self.m.arrange(hand)
        melded = len(hand) - len(loose)
        score = float(melded)
        if len(loose) <= 4:
            n, outs = self.live_outs(hand)
            if outs:
                score += 3.0 + OUT_WEIGHT * n / self.unseen
        rules = self.m.rules
        return pairs_worth(score, loose, self.m.wilds, self.live, lambda a, b: pair_links(a, b, rules))

    def _ties(self, card: Card, loose: Sequence[Card]) -> float:
        """How much ``card`` is worth keeping among the loose cards: the live cards that pair it into a meld."""
        total = 0.0
        for o in others(card, loose):
            total += self._pair_ties(card, o)
        return total

    def _pair_ties(self, a: Card, b: Card) -> float:
        """The live cards that make ``a`` and ``b`` a meld, plus one; 0 when none could (remembered per pair)."""
        key = (a, b)
        hit = self._ties_of.get(key)
        if hit is None:
            links = pair_links(a, b, self.m.rules)
            hit = self._ties_of[key] = sum(self.live.get(x, 0) for x in links) + 1.0 if links else 0.0
        return hit

    def best_discard(self, hand: Sequence[Card], danger: float = 0.0, loose: bool = False) -> tuple[Card, float]:
        """The discard that leaves the best nine (a wild only when nothing else is left), less what
        handing it to the others costs (``danger`` per unit of their known want); with ``loose``, only
        the cards outside the best melds are tried (while there are any)."""
        choices = sorted(set(self.m.arrange(hand)[1] if loose else ()) or set(hand), key=index)
        natural = [c for c in choices if c not in self.m.wilds] or choices
        best: tuple[Card, float] | None = None
        for c in natural:
            rest = list(hand)
            rest.remove(c)
            v = self.value(rest) - danger * self.wanted[c]
            if best is None or v > best[1]:
                best = (c, v)
        assert best is not None
        return best

    def ahead(self, hand9: Sequence[Card], cap: int = 2) -> float:
        """``hand9``'s value one draw ahead: each live card by its chance, then the best discard after it."""
        now = self.value(hand9)
        total = 0.0
        weight = 0.0
        loose9 = self.m.arrange(hand9)[1]
        outs = set(self.m.completing(hand9)) if len(loose9) <= 4 else set()
        for c in _relevant(loose9, self.live, self.m):
            p = self.live[c] / self.unseen
            if c in outs:
                total += p * (now + OUT_WEIGHT)
            else:
                ten = [*hand9, c]
                _, loose = self.m.arrange(ten)
                natural = [x for x in loose if x not in self.m.wilds]
                pool = sorted(natural, key=lambda x: self._ties(x, loose))[:cap] or [c]
                best = now
                for d in pool:
                    rest = list(ten)
                    rest.remove(d)
                    best = max(best, self.value(rest))
                total += p * best
            weight += p
        return total + (1 - weight) * now


def _near_cards(card: Card) -> list[Card]:
    """Cards that could meld with ``card``: the same rank, or its suit within two."""
    out = [Card.of(card.rank, s) for s in FRENCH_SUITS if s is not card.suit]
    for d in (-2, -1, 1, 2):
        r = card.rank + d
        if 1 <= r <= 13:
            out.append(Card.of(r, card.suit))
    return out


def pairs_worth(score: float, loose: Sequence[Card], wilds: Collection[Card], live: Mapping[Card, int],
                links: Callable[[Card, Card], Sequence[Card]]) -> float:
    """``score`` plus what loose cards add for the melds they are one card short of: 0.9 a wild
    card, and 0.25 a pair plus 0.12 for each live card (``links``) that would make it a meld.
    Added onto ``score`` term by term, so that near ties between hands fall as they always did."""
    for i, a in enumerate(loose):
        if a in wilds:
            score += 0.9
            continue
        for b in loose[i + 1 :]:
            if b in wilds:
                continue
            found = links(a, b)
            if found:
                score += 0.25 + 0.12 * sum(live.get(c, 0) for c in found)
    return score


def others(card: Card, cards: Sequence[Card]) -> list[Card]:
    """``cards`` less ``card`` itself, once: a second copy of it is another card (two decks)."""
    rest = list(cards)
    if card in rest:
        rest.remove(card)
    return rest


@cache
def pair_links(a: Card, b: Card, rules: Ruleset) -> tuple[Card, ...]:
    """``_links``, remembered: the same pairs come up on every decision."""
    return tuple(_links(a, b, rules))


def _links(a: Card, b: Card, rules: Ruleset) -> list[Card]:
    """The cards that turn the loose pair ``a``, ``b`` into a meld of three (none when they are not a pair)."""
    if a.rank == b.rank:
        if a.suit is b.suit and rules.group is GroupRule.EXACTLY3:
            return []
        return [Card.of(a.rank, s) for s in FRENCH_SUITS if s is not a.suit and s is not b.suit]
    if a.suit is not b.suit:
        return []
    lo, hi = sorted((a.rank, b.rank))
    out = []
    if hi - lo == 1:
        out = [Card.of(r, a.suit) for r in (lo - 1, hi + 1) if 1 <= r <= 13]
        if rules.ace_high and hi == 13:
            out.append(Card.of(1, a.suit))
    elif hi - lo == 2:
        out = [Card.of(lo + 1, a.suit)]
    return out


def _relevant(loose: Sequence[Card], live: dict[Card, int], m: Melder) -> list[Card]:
    """The live cards that could change a hand with these loose cards: near one of them, or wild."""
    out: set[Card] = set(c for c in m.wilds if live.get(c))
    for h in loose:
        for c in _near_cards(h):
            if live.get(c):
                out.add(c)
    return sorted(out, key=index)


# -- decisions ----------------------------------------------------------------------------------
def _knock(legal: Sequence[Action]) -> Action | None:
    knocks = [a for a in legal if a.type == KNOCK]
    if knocks:
        return next((a for a in knocks if not a.cards), knocks[0])  # ten melded costs the others more
    return None


def _window(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """In a claim window: take the discard only when it surely lets the hand go out."""
    view = seen.view
    kinds = {a.type for a in legal}
    for claim in (CLAIM, CUT):
        if claim in kinds and view.window is not None and seen.m.goes_out([*view.cards, view.window.card]):
            return Action(claim)
    if PASS in kinds and view.window is not None:
        return Action(PASS)
    return None


def _declare(seen: Seen, legal: Sequence[Action]) -> Action | None:
    """Na boa only where a cut buys something: three players or more, and a live out to cut for."""
    if Action(DECLARE) not in legal:
        return None
    players = sum(1 for s in seen.view.seats if s.status.value == "in")
    n, _ = seen.live_outs(seen.view.cards)
    return Action(DECLARE) if players >= 3 and n >= 2 else None


Choice = Callable[[Any, Sequence[Action]], Action | None]
"""One part of a turn (a draw, a discard) as a level makes it, from what it has seen; None where it does not apply."""


def turn(view: RummyView, legal: Sequence[Action], seen: Callable[[RummyView], Seen], draw: Choice,
         discard: Choice) -> Action:
    """A Cacheta level's turn: a knock whenever one is legal, then the claim window and na boa as every
    level plays them, then the level's own ``draw`` and ``discard`` (``seen`` reads the view as the level
    does)."""
    knock = _knock(legal)
    if knock is not None:
        return knock
    read = seen(view)
    for pick in (_window(read, legal), _declare(read, legal), draw(read, legal), discard(read, legal)):
        if pick is not None:
            return pick
    return next((a for a in legal if a.type != DECLARE), legal[0])


def draw_open(seen: Seen, legal: Sequence[Action]) -> Action | tuple[Card, list[Card]] | None:
    """Where a draw stands before any weighing: None when there is no draw to make, the draw
    when only one source is open, else the pile's top card and the hand, to be weighed."""
    if not any(a.type == DRAW for a in legal):
        return None
    stock, pile = Action(DRAW, value=STOCK), Action(DRAW, value=PILE)
    if pile not in legal or not seen.view.pile:
        return stock
    if stock not in legal:
        return pile
    return seen.view.pile[-1], list(seen.view.cards)


def _draw(seen: Seen, legal: Sequence[Action], deep: bool, quick: bool = False) -> Action | None:
    open_ = draw_open(seen, legal)
    if not isinstance(open_, tuple):
        return open_
    top, hand = open_
    stock, pile = Action(DRAW, value=STOCK), Action(DRAW, value=PILE)
    if top not in seen.m.wilds and not any(_links(top, c, seen.m.rules) or c in seen.m.wilds for c in hand):
        return stock  # it melds with nothing held: kept, it could only be thrown again
    if seen.m.goes_out([*hand, top]):
        return pile
    _, with_top = seen.best_discard([*hand, top], loose=quick)
    if deep:  # the pile's card for sure, against the stock's card by its chances
        take = with_top > seen.ahead(hand) + 0.05
    else:
        n, _ = seen.live_outs(hand) if len(seen.m.arrange(hand)[1]) <= 4 else (0, ())
        take = with_top > seen.value(hand) + 0.5 + OUT_WEIGHT * n / seen.unseen
    return pile if take and (quick or not _thrown_back(seen, top, deep)) else stock


def _thrown_back(seen: Seen, top: Card, deep: bool) -> bool:
    """Whether the level, having taken ``top`` from the pile, would throw it straight back: its discard weighs
    what the draw does not (the others' want, a draw ahead). A card taken only to be thrown back is a turn
    without a draw; two such players handing the same card back and forth never reach the stock, and the hand
    never ends (two bots heads-up at Pif Paf did, each taking AC for a meld it would make and throwing it
    again)."""
    view = dataclasses.replace(seen.view, phase=Phase.DISCARD, cards=(*seen.view.cards, top), pile=seen.view.pile[:-1],
                               drawn=top)
    after = Seen(view)
    throw = _discard(after, [Action(DISCARD, cards=(c,)) for c in sorted(set(view.cards), key=index)], deep)
    return throw is not None and throw.cards == (top,)


def _minus(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


def _discard(seen: Seen, legal: Sequence[Action], deep: bool) -> Action | None:
    if not any(a.type == DISCARD for a in legal):
        return None
    hand = list(seen.view.cards)
    danger = 0.6
    if not deep:
        card, _ = seen.best_discard(hand, danger)
        return Action(DISCARD, cards=(card,))
    # One draw ahead, on the few best discards by the plain value.
    choices = sorted(set(hand), key=index)
    natural = [c for c in choices if c not in seen.m.wilds] or choices
    ranked = sorted(natural, key=lambda c: seen.value(_minus(hand, c)) - danger * seen.wanted[c], reverse=True)
    best, best_v = ranked[0], -1e9
    for c in ranked[:WIDTH]:
        v = seen.ahead(_minus(hand, c)) - danger * seen.wanted[c]
        if v > best_v:
            best, best_v = c, v
    return Action(DISCARD, cards=(best,))


VALUE_BET = 1.15
"""A Pif Paf hand bets when its chance of winning is this many times an even share (raises all the way
from ``VALUE_RAISE``)."""
VALUE_RAISE = 1.5


def win_chance(seen: Seen) -> float:
    """Pif Paf, at the betting round: the chance that these nine cards win the hand against the players
    still in (``hand_odds.PIFPAF_STRENGTH``: a hand's weight grows as ``exp(strength * value)``, an unknown
    hand weighs ``PIFPAF_FIELD``, whatever it bet). A bettor is not taken to be stronger: counting one that
    bet or raised twice as strong, normal folded nearly every hand to a player who raises every hand and
    kept few of the matches, and it took no more from today's bots (measured in ``bench/marks.md``)."""
    view = seen.view
    players = sum(1 for s in view.seats if s.status is SeatStatus.IN)
    return chance_of(seen.value(view.cards), players)


def chance_of(value: float, players: int) -> float:
    """Pif Paf: the chance that a hand of ``value`` (``Seen.value``) wins against ``players - 1`` unknown
    hands (see ``win_chance``; the search's model of a player answering a bet reads it too)."""
    mine = math.exp(hand_odds.PIFPAF_STRENGTH * value)
    return mine / (mine + (players - 1) * hand_odds.PIFPAF_FIELD)


def betting(legal: Sequence[Action]) -> bool:
    """Whether these are the choices of Pif Paf's betting round."""
    return any(a.type in (FOLD, CHECK, CALL) for a in legal)


def _bet_by_odds(seen: Seen, legal: Sequence[Action]) -> Action:
    """Pif Paf's betting round by the hand's chance of winning (``win_chance``): call when the pot pays for
    the call, fold when it does not; bet with a better hand than the even share, raise all the way with a
    much better one."""
    kinds = {a.type: a for a in legal}
    raises = [a for a in legal if a.type in (BET, RAISE)]
    p = win_chance(seen)
    even = 1.0 / sum(1 for s in seen.view.seats if s.status is SeatStatus.IN)
    if CALL in kinds:
        owe = kinds[CALL].amount
        if p * (seen.view.pot + owe) < owe:
            return kinds.get(FOLD) or kinds[CALL]
        return raises[-1] if raises and p > VALUE_RAISE * even else kinds[CALL]
    if raises and p > VALUE_BET * even:
        return raises[-1] if p > VALUE_RAISE * even else raises[0]
    return kinds.get(CHECK) or legal[0]


def _play(view: RummyView, legal: list[Action], rng: random.Random, deep: bool) -> Action:
    if betting(legal):
        return _bet_by_odds(Seen(view), legal)
    knock = _knock(legal)
    if knock is not None:
        return knock
    seen = Seen(view)
    for pick in (_window(seen, legal), _declare(seen, legal), _draw(seen, legal, deep), _discard(seen, legal, deep)):
        if pick is not None:
            return pick
    return next((a for a in legal if a.type != DECLARE), legal[0])


def normal(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """The normal rummy bot: draws and discards by the hand's value now; bets (Pif Paf) by its chance of winning."""
    return _play(view, legal, rng, deep=False)


def hard(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """The hard rummy bot's draws and discards, by the hand's value one draw ahead (bets, if asked, as normal
    does: ``pifpaf_hard`` bets by playing the hand out)."""
    return _play(view, legal, rng, deep=True)


def easy(view: RummyView, legal: list[Action], rng: random.Random) -> Action:
    """The old play, made sane: no pile draw that does not beat the stock, na boa only where it buys a cut."""
    seen = Seen(view)
    if Action(DECLARE) in legal and _declare(seen, legal) is None:
        legal = [a for a in legal if a.type != DECLARE]
        if not legal:
            return Action(DECLARE)
    if any(a.type == DRAW for a in legal) and not betting(legal):
        pick = _draw(seen, legal, deep=False, quick=True)
        if pick is not None:
            return pick
    if any(a.type == DISCARD for a in legal) and not any(a.type == KNOCK for a in legal):
        return _plain_discard(seen)
    if view.table.claiming is Claiming.DECLARED:  # na boa, and a cut for whoever declared it
        return old_cacheta.choose(view, legal, rng)
    return old_pifpaf.choose(view, legal, rng)


def _plain_discard(seen: Seen) -> Action:
    """The old discard (na boa first, then outs, fewest loose cards, most pairs) with only live outs counted."""
    m = seen.m
    hand = list(seen.view.cards)
    choices = sorted(set(m.arrange(hand)[1]) or set(hand), key=index)  # a loose card, while there is one
    natural = [c for c in choices if c not in m.wilds] or sorted(set(hand) - set(m.wilds), key=index) or choices
    best: tuple[Card, tuple[int, int, int, int]] | None = None
    for c in natural:
        rest = _minus(hand, c)
        _, loose = m.arrange(rest)
        n = seen.live_outs(rest)[0] if len(loose) <= 4 else 0
        pairs = sum(1 for i, a in enumerate(loose) for b in loose[i + 1 :] if _links(a, b, m.rules) or b in m.wilds)
        score = (1 if n else 0, n, -len(loose), pairs)
        if best is None or score > best[1]:
            best = (c, score)
    assert best is not None
    return Action(DISCARD, cards=(best[0],))
