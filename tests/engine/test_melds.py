"""The meld search against a plain exhaustive one, and every example in docs/rules.md."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtui.engine.cards import Card, french_deck, parse_cards
from cardtui.engine.rummy.meld_reference import Exhaustive
from cardtui.engine.rummy.melds import (
    CACHETA,
    CARDS,
    PIFPAF,
    GroupRule,
    Ruleset,
    _natural_melds,
    index,
    is_meld,
    melder,
    wild_cards,
)

PIFPAF_WIDE = Ruleset(GroupRule.ATLEAST3, ace_high=True)
RULESETS = {"pifpaf": PIFPAF, "pifpaf-atleast3-acehigh": PIFPAF_WIDE, "cacheta": CACHETA}
DECK = tuple(french_deck(copies=2))


# -- the obviously correct search (engine/rummy/meld_reference.py) --------------------------
_REFERENCES: dict[tuple[Ruleset, tuple[Card, ...]], Exhaustive] = {}


def reference(rules: Ruleset, wilds: tuple[Card, ...]) -> Exhaustive:
    """One reference per ruleset and wild set, so its caches serve every example."""
    key = (rules, wilds)
    if key not in _REFERENCES:
        _REFERENCES[key] = Exhaustive(rules, wilds)
    return _REFERENCES[key]


def make_hand(seed: int, rules: Ruleset, size: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A random hand with 0-4 wild cards: plain random, or built from melds and disturbed."""
    rng = random.Random(seed)
    wilds: tuple[Card, ...] = wild_cards(rng.choice(CARDS)) if rules.wild_acts else ()
    while True:
        if rng.random() < 0.25:
            hand = rng.sample(DECK, size)
        else:
            hand = []
            while len(hand) < size:
                hand += [CARDS[i] for i in rng.choice(_natural_melds(rules))][: size - len(hand)]
            for _ in range(rng.choice((0, 0, 1, 1, 2))):
                hand[rng.randrange(size)] = rng.choice(DECK)
        if wilds:
            for i, w in enumerate(rng.sample([wilds[0], wilds[0], wilds[1], wilds[1]], rng.randint(0, 4))):
                hand[i] = w
        rng.shuffle(hand)
        if max(Counter(hand).values()) <= 2:
            return tuple(hand), wilds


def check_split(rules: Ruleset, wilds: Sequence[Card], hand: Sequence[Card], melds: Sequence[Sequence[Card]]) -> None:
    assert Counter(c for m in melds for c in m) == Counter(hand)
    ref = reference(rules, tuple(wilds))
    for m in melds:
        assert ref.valid(tuple(sorted(m, key=lambda c: (c in ref.wild, index(c))))), f"{m} is not a meld"


# -- against the reference ----------------------------------------------------------
SEEDS = st.integers(min_value=0, max_value=2**48)
HANDS = int(os.environ.get("MELD_HANDS", "2500"))
"""Hands per ruleset checked against the reference (``MELD_HANDS=10000`` for the long run)."""


@pytest.mark.parametrize(
    ("name", "examples"), [("pifpaf", HANDS), ("pifpaf-atleast3-acehigh", HANDS // 5), ("cacheta", HANDS)]
)
def test_ten_cards_agree_with_reference(name: str, examples: int) -> None:
    rules = RULESETS[name]

    @settings(max_examples=examples, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS)
    def check(seed: int) -> None:
        hand, wilds = make_hand(seed, rules, 10)
        fast, ref = melder(rules, wilds), reference(rules, wilds)
        full = fast.all_melded(hand)
        assert full == ref.all_melded(hand)
        assert fast.goes_out(hand) == ref.goes_out(hand)
        if seed % 4 == 0 or full:
            assert fast.discards(hand) == ref.discards(hand)
            for knock in fast.knocks(hand):
                rest = list(hand)
                if knock.discard is not None:
                    rest.remove(knock.discard)
                check_split(rules, wilds, rest, knock.melds)

    check()


@pytest.mark.parametrize(("name", "examples"), [("pifpaf", 150), ("pifpaf-atleast3-acehigh", 60), ("cacheta", 100)])
def test_completing_cards_agree_with_reference(name: str, examples: int) -> None:
    rules = RULESETS[name]

    @settings(max_examples=examples, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS)
    def check(seed: int) -> None:
        hand, wilds = make_hand(seed, rules, 9)
        assert melder(rules, wilds).completing(hand) == reference(rules, wilds).completing(hand)

    check()


@pytest.mark.parametrize("name", ["pifpaf", "cacheta"])
def test_completing_cards_on_many_hands(name: str) -> None:
    """Completing cards on many hands each (``HANDS``), against the go-out check itself.

    The exhaustive reference is too slow for 52 candidates × thousands of hands, but the fast
    go-out check is held to it on as many hands above; here every completing-cards answer
    must equal "the candidates whose addition goes out", card by card.
    """
    rules = RULESETS[name]

    @settings(max_examples=HANDS, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS)
    def check(seed: int) -> None:
        hand, wilds = make_hand(seed, rules, 9)
        m = melder(rules, wilds)
        held = Counter(hand)  # a card's copies in the hand, counted once rather than once a candidate
        expected = tuple(x for x in CARDS if held[x] < 2 and m.goes_out((*hand, x)))
        assert m.completing(hand) == expected

    check()


def least_loose(ref: Exhaustive, hand: Sequence[Card]) -> int:
    """The fewest cards a hand can leave outside melds: its largest part that melds whole, by the reference."""
    for k in range(len(hand), -1, -1):
        if any(ref.all_melded([hand[i] for i in part]) for part in combinations(range(len(hand)), k)):
            return len(hand) - k
    return len(hand)


@pytest.mark.parametrize(("name", "examples"), [("pifpaf", 300), ("cacheta", 500)])
def test_arrange_leaves_as_few_cards_loose_as_any_split(name: str, examples: int) -> None:
    """The best arrangement (what a seat's view and the advice count as loose) leaves no more cards outside melds
    than the reference finds, its melds valid: melds of wild cards alone included (KD KH KH, one acting as KS), and
    whichever wild card acts in a meld (the search once let only the first act, and left a KS loose that a JS KS
    meld wanted standing as itself)."""
    rules = RULESETS[name]

    @settings(max_examples=examples, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS)
    def check(seed: int) -> None:
        hand, wilds = make_hand(seed, rules, 9 + seed % 2)
        melds, rest = melder(rules, wilds).arrange(hand)
        check_split(rules, wilds, [c for m in melds for c in m], melds)
        assert Counter(rest) + Counter(c for m in melds for c in m) == Counter(hand)
        assert len(rest) == least_loose(reference(rules, wilds), hand), (hand, wilds, melds)

    check()
    fours = parse_cards("4D 6D 7H 9C 9D 9S KD KD KH KH")  # every wild card: KH and KD, the flip QD's colour
    melds, rest = melder(CACHETA, wild_cards(Card.parse("QD"))).arrange(fours)
    assert rest == parse_cards("7H") and len(melds) == 3


@pytest.mark.parametrize("name", ["pifpaf", "cacheta"])
@pytest.mark.parametrize("size", [9, 10, 11])
def test_a_hand_as_masks_leaves_the_cards_arrange_leaves(name: str, size: int) -> None:
    """The rollouts ask about hands as masks over ``CARDS`` (wild cards where they fall there, not last as the
    search keeps them): the loose cards are those ``arrange`` lists, and the go-out check is the same."""
    rules = RULESETS[name]
    for seed in range(400):
        hand, wilds = make_hand(seed, rules, size)
        m = melder(rules, wilds)
        once = twice = 0
        for c in hand:
            bit = 1 << index(c)
            twice |= once & bit
            once |= bit
        _, rest = m.arrange(hand)
        left_once = left_twice = 0
        for c in rest:
            bit = 1 << index(c)
            left_twice |= left_once & bit
            left_once |= bit
        assert m.loose_masks(once, twice) == (left_once, left_twice, len(rest)), (hand, rest)
        assert m.goes_out_masks(once, twice) == m.goes_out(hand)


@pytest.mark.parametrize("name", ["pifpaf", "cacheta"])
def test_filling_cards_are_those_that_meld_every_card(name: str) -> None:
    """The cards that meld all ten (no discard) are exactly the candidates the all-melded check accepts."""
    rules = RULESETS[name]

    @settings(max_examples=300, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS)
    def check(seed: int) -> None:
        hand, wilds = make_hand(seed, rules, 9)
        m = melder(rules, wilds)
        held = Counter(hand)
        expected = tuple(x for x in CARDS if held[x] < 2 and m.all_melded((*hand, x)))
        assert m.filling(hand) == expected

    check()
    # 4H-6H, three sevens, KC KD: the third king melds all ten; a 3H would leave a king over.
    m = melder(CACHETA, wild_cards(Card.parse("9C")))
    hand = parse_cards("4H 5H 6H 7C 7D 7S KC KD 2S")
    assert Card.parse("KH") not in m.filling(hand) and Card.parse("KH") in m.completing(hand)
    # With 7H the run is four long: the kings and the two wilds (10S 10C) meld all ten.
    assert set(m.filling(parse_cards("4H 5H 6H 7H 7C 7D 7S KC KD"))) == set(parse_cards("KH KS 10S 10C"))


# -- the examples in docs/rules.md -------------------------------------------------------
def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


@pytest.mark.parametrize(
    ("text", "pifpaf", "atleast3", "cacheta"),
    [
        ("QS QH QD", True, True, True),
        ("QS QH QD QD", True, True, True),
        ("QS QD QD", False, False, False),
        ("QS QH QD QC", False, True, True),
        ("QS QH QD QC QC", False, True, True),
        ("AS 2S 3S", True, True, True),
        ("QS KS AS", False, True, True),
        ("10S JS QS KS AS", False, True, True),
        ("KS AS 2S", False, False, False),
        ("AS 2S 3S 4S 5S", True, True, True),
        ("5H 6H 8H", False, False, False),
        ("5H 6H 7S", False, False, False),
        ("5H 5H 6H", False, False, False),
        ("QS QH", False, False, False),
    ],
)
def test_rules_examples(text: str, pifpaf: bool, atleast3: bool, cacheta: bool) -> None:
    meld = cards(text)
    assert is_meld(meld, PIFPAF) is pifpaf
    assert is_meld(meld, PIFPAF_WIDE) is atleast3
    assert is_meld(meld, CACHETA) is cacheta
    assert melder(PIFPAF).all_melded(meld) is pifpaf
    assert melder(CACHETA, wild_cards(Card.parse("2C"))).all_melded(meld) is cacheta


def test_never_k_a_2_even_in_a_full_hand() -> None:
    hand = cards("QS KS AS 2S 5H 5D 5C 9H 9D 9C")
    for rules in RULESETS.values():
        assert not melder(rules).all_melded(hand)
    assert melder(CACHETA).discards(hand) == cards("2S")
    assert not melder(PIFPAF).goes_out(hand)
    hand = cards("JS QS KS AS 2S 3S 4S 5H 5D 5C")
    m = melder(CACHETA).split(hand)
    assert m is not None and not any(Card.parse("KS") in x and Card.parse("2S") in x for x in m)


def test_k_a_2_is_not_a_meld_for_the_search() -> None:
    hand = cards("KS AS 2S 5H 5D 5C 9H 9D 9C")
    for rules in RULESETS.values():
        assert not melder(rules).all_melded(hand)


def test_q_k_a_only_where_allowed() -> None:
    hand = cards("QS KS AS 5H 5D 5C 9H 9D 9C")
    assert not melder(PIFPAF).all_melded(hand)
    assert melder(PIFPAF_WIDE).all_melded(hand)
    assert melder(CACHETA).all_melded(hand)


def test_cacheta_one_wild_acting_per_meld() -> None:
    wilds = wild_cards(Card.parse("4C"))  # black fives
    assert wilds == cards("5S 5C")
    m = melder(CACHETA, wilds)
    assert m.all_melded(cards("7H 8H 5S 9D 9C 5C"))  # 7H 8H +wild; 9D 9C +wild
    assert not m.all_melded(cards("7H 5S 5C"))  # two wilds acting in one meld
    assert m.all_melded(cards("5S 5C 5H"))  # wilds standing as themselves
    assert m.all_melded(cards("5S 5C 5S"))  # two as themselves, one acting (as 5H or 5D)
    assert not m.all_melded(cards("9H 9H 5S"))  # 9H 9H 9x still shows only two suits
    assert m.all_melded(cards("9H 9H 9D 5S"))


def test_completing_cards() -> None:
    m = melder(PIFPAF)
    hand = cards("AS 2S 3S 7H 7D 7C 9H 10H JH")[:-1] + cards("KD")  # 9H 10H and a stray KD
    assert Card.parse("8H") in m.completing(hand) and Card.parse("JH") in m.completing(hand)
    assert m.completing(cards("AS 2S 3S 7H 7D 7C 9H 5D 2C")) == ()
    # Nine melded already: any card completes (draw it and discard it).
    assert len(m.completing(cards("AS 2S 3S 7H 7D 7C 9H 9D 9C"))) == 52


def test_a_third_copy_is_refused() -> None:
    with pytest.raises(ValueError, match="three"):
        melder(PIFPAF).goes_out(cards("AS AS AS"))


@pytest.mark.parametrize("name", ["pifpaf", "cacheta"])
def test_answers_kept_across_calls_are_those_of_a_fresh_search(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A melder keeps what its searches found between calls, and starts again when a memo is full
    (tiny here, so it empties many times): every answer equals that of a melder with nothing kept."""
    from cardtui.engine.rummy import melds

    monkeypatch.setattr(melds, "MEMO", 40)
    rules = RULESETS[name]
    warm: dict[tuple[Card, ...], melds.Melder] = {}
    blank: dict[tuple[Card, ...], melds.Melder] = {}

    def cold(wilds: tuple[Card, ...]) -> melds.Melder:
        m = blank.get(wilds)
        if m is None:  # made once a set of wilds: its memos are what each call empties
            m = blank[wilds] = melds.Melder(rules, wilds)
        for memo in (m._go_memo, m._hole_memo, m._best_memo):
            memo.clear()
        return m

    emptied = 0
    for seed in range(120 if name == "pifpaf" else 50):
        hand, wilds = make_hand(seed, rules, 10 if seed % 2 else 9)
        m = warm.get(wilds) or warm.setdefault(wilds, melds.Melder(rules, wilds))
        before = len(m._best_memo)
        assert m.arrange(hand) == cold(wilds).arrange(hand)
        after = len(m._best_memo)
        assert m.goes_out(hand) == cold(wilds).goes_out(hand)
        assert m.all_melded(hand) == cold(wilds).all_melded(hand)
        if len(hand) == 9:
            assert m.completing(hand) == cold(wilds).completing(hand)
            assert m.filling(hand) == cold(wilds).filling(hand)
        emptied += after < before or len(m._best_memo) < after
    assert emptied > 0


def test_a_process_sets_what_its_melders_remember_together() -> None:
    """A table process whose bots search elsewhere asks for a small budget (``server.app``): every melder's memos
    share it at once, those built before as well as after, and the answers do not change."""
    from cardtui.engine.rummy import melds

    before = melder(CACHETA, wild_cards(Card.parse("4H")))
    try:
        melds.memo_budget(20_000)
        after = melder(CACHETA, wild_cards(Card.parse("9S")))
        share = 20_000 // (4 * len(melds._MELDERS))
        assert before.memo_cap == after.memo_cap == share
        hand = parse_cards("4C 5C 6C 7D 7S 7H 9D 9C 9S KD")
        assert before.goes_out(hand) and after.goes_out(hand)
    finally:
        melds.memo_budget(melds.MEMO_BUDGET)
    assert before.memo_cap == min(melds.MEMO, melds.MEMO_BUDGET // (4 * len(melds._MELDERS)))


# -- the Spanish pack: its own ranks, jokers, and points ------------------------------------------------
JK = Card.parse("JK")
SPANISH_POINTS = (25, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10)
"""A joker 25, the others their number, the face cards 10 (Chinchón's usual count)."""
SPANISH = {
    "spanish40": Ruleset(GroupRule.ATLEAST3, wild_acts=True, pack="spanish42", points=SPANISH_POINTS),
    "spanish48": Ruleset(GroupRule.ATLEAST3, wild_acts=True, pack="spanish50", points=SPANISH_POINTS),
}


def spanish_hand(seed: int, rules: Ruleset, size: int) -> tuple[Card, ...]:
    """A random hand of a Spanish pack with its jokers: plain random, or built from melds and disturbed."""
    from cardtui.engine.cards import pack
    from cardtui.engine.rummy.melds import layout

    rng = random.Random(seed)
    deck = list(pack(rules.pack))
    kinds = layout(rules.pack).kinds
    if rng.random() < 0.3:
        return tuple(rng.sample(deck, size))
    hand: list[Card] = []
    while len(hand) < size:
        meld = [kinds[i] for i in rng.choice(_natural_melds(rules))]
        hand += [c for c in meld if c not in hand][: size - len(hand)]
    for _ in range(rng.choice((0, 1, 1, 2))):
        hand[rng.randrange(size)] = rng.choice([c for c in deck if c not in hand] or deck)
    if rng.random() < 0.5:
        hand[rng.randrange(size)] = JK
    return tuple(hand)


def test_a_spanish_pack_runs_in_its_own_ranks() -> None:
    """The pack of 40 has no 8 or 9: 6 7 10 is a run there, and only there; the pack of 48 runs 7 8 9. The ace is
    low only, a joker never stands as itself, and a card of another pack is in no meld."""
    forty, forty_eight = Ruleset(GroupRule.ATLEAST3, pack="spanish40"), Ruleset(GroupRule.ATLEAST3, pack="spanish48")
    assert is_meld(parse_cards("6c 7c 10c"), forty) and is_meld(parse_cards("7o 10o 11o 12o"), forty)
    assert not is_meld(parse_cards("6c 7c 10c"), forty_eight) and is_meld(parse_cards("7c 8c 9c"), forty_eight)
    assert not is_meld(parse_cards("11e 12e 1e"), forty) and is_meld(parse_cards("1e 2e 3e"), forty)
    assert is_meld(parse_cards("5e 5b 5o 5c"), forty) and not is_meld(parse_cards("5e 5b"), forty)
    assert not is_meld((JK, Card.parse("2e"), Card.parse("3e")), forty)
    assert not is_meld(parse_cards("5S 5H 5D"), forty) and not is_meld(parse_cards("8e 9e 10e"), forty)


def test_a_joker_acts_for_any_card_once_a_meld() -> None:
    rules = SPANISH["spanish40"]
    m = melder(rules, (JK,))
    assert m.all_melded((Card.parse("4o"), JK, Card.parse("6o")))
    assert m.all_melded((Card.parse("7o"), JK, Card.parse("11o")))  # the joker as the 10
    assert not m.all_melded((JK, JK, Card.parse("6o"))), "one joker acting in a meld"
    assert m.all_melded((JK, *parse_cards("2c 3c 4c"), JK, *parse_cards("7e 7b")))
    assert m.deadwood((*parse_cards("1e 2e 3e 12c 11b"), JK)) == 20, "the joker in the run, the two faces left"
    assert m.deadwood((*parse_cards("1e 2e 3e 5c"), JK)) == 5, "the joker in the run: the 5 is all that is left"


@pytest.mark.parametrize("name", sorted(SPANISH))
def test_spanish_hands_agree_with_reference(name: str) -> None:
    """Hands of seven and eight cards of either Spanish pack, jokers among them, against the exhaustive search: every
    card melded, a discard that melds the rest, and the best arrangement's points left loose."""
    rules = SPANISH[name]
    ref = reference(rules, (JK,))

    @settings(max_examples=300, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=SEEDS)
    def check(seed: int) -> None:
        hand = spanish_hand(seed, rules, 7 + seed % 2)
        fast = melder(rules, (JK,))
        assert fast.all_melded(hand) == ref.all_melded(hand)
        assert fast.goes_out(hand) == ref.goes_out(hand)
        assert fast.discards(hand) == ref.discards(hand)
        melds, rest = fast.arrange(hand)
        check_split(rules, (JK,), [c for m in melds for c in m], melds)
        assert Counter(rest) + Counter(c for m in melds for c in m) == Counter(hand)
        assert fast.deadwood(hand) == sum(rules.points[c.rank] for c in rest) == ref.least_points(hand), hand

    check()


def test_a_spanish_hand_as_masks_over_its_kinds() -> None:
    """The rollouts' masks over a pack's kinds (``kinds_of``: the joker after the natural cards)."""
    rules = SPANISH["spanish40"]
    m = melder(rules, (JK,))
    kinds = m.kinds_of()
    assert kinds[-1] is JK and len(kinds) == 41
    for seed in range(200):
        hand = spanish_hand(seed, rules, 8)
        once = twice = 0
        for c in hand:
            bit = 1 << kinds.index(c)
            twice |= once & bit
            once |= bit
        _, rest = m.arrange(hand)
        left_once = left_twice = 0
        for c in rest:
            bit = 1 << kinds.index(c)
            left_twice |= left_once & bit
            left_once |= bit
        assert m.loose_masks(once, twice) == (left_once, left_twice, len(rest)), (hand, rest)
        assert m.goes_out_masks(once, twice) == m.goes_out(hand)
