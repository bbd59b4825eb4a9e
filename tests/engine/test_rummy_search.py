"""The rummy search's rollouts keep each seat's loose cards as it draws and throws, asking the meld search
only when a card may join a meld: the shortcuts must give what the meld search gives, on every hand.

Hands are drawn from two shuffled packs (Pif Paf's rules, Cacheta's with wild cards), so each test checks
thousands of hands in well under a second; the rollout test plays real positions out.
"""

from __future__ import annotations

import random

import pytest

from cardtui.engine.cards import Card
from cardtui.engine.rummy.bots import search as rummy_search
from cardtui.engine.rummy.bots.search import CLAIMABLE, Arranger, Rollout, add, arranger, mask, remove
from cardtui.engine.rummy.melds import CACHETA, CARDS, PIFPAF, Melder, index, melder, wild_cards

PACK = [c for c in CARDS for _ in range(2)]


def hands(rng: random.Random, count: int, size: int) -> list[tuple[list[Card], Card]]:
    """``count`` hands of ``size`` cards with one more card from the same pack."""
    out = []
    for _ in range(count):
        cards = rng.sample(PACK, size + 1)
        out.append((cards[:size], cards[size]))
    return out


def melders(rng: random.Random) -> list[Melder]:
    return [melder(PIFPAF), *(melder(CACHETA, wild_cards(rng.choice(CARDS))) for _ in range(3))]


@pytest.mark.parametrize("size", [9, 10])
def test_a_card_that_joins_nothing_is_one_more_loose_card(size: int) -> None:
    rng = random.Random(size)
    joined = 0
    for m in melders(rng):
        arr = Arranger(m)
        for cards, extra in hands(rng, 600, size):
            hand, card = mask(cards), index(extra)
            before, after = arr.loose(hand), arr.loose(add(hand, card))
            if arr.joins(hand, card):
                joined += 1
                continue
            assert after[2] == before[2] + 1, (cards, extra, m.wilds)
            assert after[0] >> card & 1, (cards, extra, m.wilds)
    assert joined > 100  # the test also met cards that do join


def out_hands(rng: random.Random, count: int) -> list[list[Card]]:
    """``count`` ten-card Pif Paf hands that go out: runs and groups of three suits, and at most one card more."""
    out = []
    while len(out) < count:
        cards: list[Card] = []
        while len(cards) < 8:
            size = rng.randint(3, min(6, 10 - len(cards)))
            if rng.random() < 0.5:
                rank = rng.randint(1, 13)
                suits = rng.sample(range(4), 3)
                meld = [Card.of(rank, CARDS[s].suit) for s in suits]
                meld += [Card.of(rank, CARDS[rng.choice(suits)].suit) for _ in range(size - 3)]
            else:
                low = rng.randint(1, 14 - size)
                suit = rng.choice(CARDS[:4]).suit
                meld = [Card.of(r, suit) for r in range(low, low + size)]
            cards += meld
        if len(cards) == 9:
            cards.append(rng.choice(CARDS))
        if len(cards) == 10 and all(cards.count(c) <= 2 for c in cards):
            out.append(cards)
    return out


def test_a_hand_that_goes_out_with_one_more_card_has_at_most_claimable_loose_cards() -> None:
    """A claimed card joins a meld of a hand that goes out; without it the hand has no more than ``CLAIMABLE``
    loose cards, and some hands have that many (a run of five broken in the middle)."""
    rng = random.Random(3)
    arr = Arranger(melder(PIFPAF))
    most = 0
    for cards in out_hands(rng, 300):
        whole = mask(cards)
        left, _, count = arr.loose(whole)
        assert count <= 1
        for card in {index(c) for c in cards}:
            if left >> card & 1:
                continue
            most = max(most, arr.loose(remove(whole, card))[2])
    assert most == CLAIMABLE


def test_the_loose_cards_a_rollout_keeps_are_the_meld_searchs() -> None:
    """Every seat's loose cards, wherever the rollout keeps them, are as many as the meld search finds:
    checked after each draw and each discard of hands played out as ``Rollout.play`` plays them."""
    checked = 0

    def check(r: Rollout, seat: int) -> None:
        nonlocal checked
        kept = r.left.get(seat)
        if kept is not None:
            checked += 1
            assert kept[2] == r.arr.loose(r.hands[seat])[2]
            assert kept[0] & ~r.hands[seat][0] == 0

    rng = random.Random(8)
    for m in melders(rng):
        for _ in range(40):
            deck = rng.sample(PACK, len(PACK))
            seats = {s: mask(deck[9 * s : 9 * s + 9]) for s in range(3)}
            r = Rollout(arranger(m), seats, [index(c) for c in deck[27:]], [], [0, 1, 2], claims=not m.wilds)
            for t in range(rummy_search.LONGEST):  # Rollout.play from seat 2, a step at a time
                seat = r.order[t % len(r.order)]
                r.draw(seat)
                check(r, seat)
                done = r.finish(seat)
                check(r, seat)
                if done is not None:
                    break
    assert checked > 1000


def test_the_arrangers_are_kept_per_meld_search() -> None:
    m = melder(PIFPAF)
    assert arranger(m) is arranger(m)
    assert rummy_search.partners(PIFPAF) is rummy_search.partners(PIFPAF)


def test_each_seat_draws_the_same_stock_cards_whoever_took_the_piles_card_before() -> None:
    """Two choices played out on one deal bring the others the same cards from the stock: taking the pile's
    card instead of the stock's does not shift every later draw by a card (common random numbers)."""
    rng = random.Random(3)
    deck = rng.sample(range(len(CARDS)), 40)
    seats = {s: mask([CARDS[i] for i in deck[9 * s : 9 * s + 9]]) for s in range(3)}
    stock = deck[27:39]
    brought = []
    for pile in (True, False):
        r = Rollout(arranger(melder(PIFPAF)), seats, stock, [deck[39]], [0, 1, 2], claims=False)
        r.draw(0, pile)
        before = r.hands[1]
        r.draw(1, False)
        brought.append(r.hands[1][0] & ~before[0])
    assert brought[0] == brought[1]


def test_the_stock_deals_each_card_once_then_is_made_again_from_the_pile_in_its_order() -> None:
    rng = random.Random(4)
    deck = rng.sample(range(len(CARDS)), 35)
    seats = {s: (0, 0) for s in range(3)}
    stock = deck[:30]
    r = Rollout(arranger(melder(PIFPAF)), seats, stock, deck[30:], [0, 1, 2], claims=False)
    drawn = []
    for k in range(len(stock)):
        seat = (k * 2) % 3  # seats out of turn: some of them run out of places of their own
        before = r.hands[seat][0]
        r.draw(seat, False)
        drawn.append((r.hands[seat][0] & ~before).bit_length() - 1)
    assert sorted(drawn) == sorted(stock)
    r.draw(1, False)  # the stock is gone: the pile but its top, turned over, is drawn from its bottom up
    assert r.hands[1][0] >> deck[30] & 1 and r.pile == [deck[34]]
