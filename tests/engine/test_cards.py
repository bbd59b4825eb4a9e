"""Cards: one object per card, whichever way it was made."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from cardtui.engine.cards import Card, Suit, french_deck, parse_cards, spanish_deck
from cardtui.engine.rummy.bots.levels import others


def test_every_way_of_making_a_card_gives_the_same_object() -> None:
    ace = Card.parse("AS")
    assert Card.of(1, Suit.SPADES) is ace
    assert copy.copy(ace) is ace and copy.deepcopy([ace])[0] is ace
    assert pickle.loads(pickle.dumps(ace)) is ace
    two_decks = french_deck(copies=2)
    assert len(two_decks) == 104 and len({id(c) for c in two_decks}) == 52
    assert all(c is Card.parse(str(c)) for c in (*two_decks, *spanish_deck()))


def test_a_card_is_not_made_anew_so_a_card_hashes_by_its_one_object() -> None:
    ace = Card.parse("AS")
    with pytest.raises(TypeError, match=r"Card.of\(1, Suit.SPADES\) is the card"):
        Card(1, Suit.SPADES)
    with pytest.raises(TypeError, match="not made anew"):
        dataclasses.replace(ace, rank=2)
    # Identity hashing holds only while equal cards are one object: every card of every deck is.
    every = {c for c in french_deck(copies=2) + spanish_deck()}
    assert all(Card.of(c.rank, c.suit) is c for c in every)
    assert {ace: "found"}[pickle.loads(pickle.dumps(Card.of(1, Suit.SPADES)))] == "found"


def test_a_card_of_no_deck_is_refused_with_a_sentence() -> None:
    with pytest.raises(ValueError, match="no 14 of spades"):
        Card.of(14, Suit.SPADES)


def test_the_others_of_a_card_keep_its_second_copy() -> None:
    hand = parse_cards("10H 10H 3S")
    assert others(Card.parse("10H"), hand) == list(parse_cards("10H 3S"))
    assert others(Card.parse("KD"), hand) == list(hand)
