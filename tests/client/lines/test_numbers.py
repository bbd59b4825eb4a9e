"""An action keeps its number whenever it is offered: a card by its place in the hand (a truco hand as dealt, so
that a card keeps its number until it is played), every other action by its kind, from each game's fixed list.

Random matches of every game on the real engines, each seat's view and legal actions as the wire carries them
(``server.wire.view_message``), numbered as the line mode numbers them; after every decision: every legal
action is behind one choice, no two choices share a number, a kind's number is the one its game's list gives it
(never a number left over for a kind the list lacks), and a card's number is its place.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtui.client.lines import loop  # noqa: F401  (every game's words)
from cardtui.client.lines.actions import (
    CARDED,
    FACE_DOWN,
    HELD,
    KINDS,
    choices,
    dealt_slots,
    first_kind,
    held,
    keyed_menu,
    kind_of,
    menu,
    pick,
    terse_menu,
    told,
)
from cardtui.client.lines.reading import runs_of_numbers
from cardtui.client.models import TableModel, action_name
from cardtui.engine.games import GAMES
from cardtui.server.base import wire
from cardtui.v1 import common_pb2

NAMES = ("pifpaf", "cacheta", "truco_paulista", "truco_argentino", "cacho")


def numbered_play(game: str, seed: int, steps: int = 160) -> int:
    """A random match of ``game``, every decision's choices checked; how many decisions were checked."""
    rules = GAMES[game]
    rng = random.Random(seed)
    players = rng.choice(list(rules.player_counts))
    seats = rules.seat_infos([f"p{i}" for i in range(players)])
    match, _ = rules.open({}, seats, rng.getrandbits(63))
    slots: dict[int, list[str | None]] = {}
    kept: dict[tuple[int, int, str], int] = {}
    """(seat, hand, card) -> the number that played it: the same all hand long."""
    summary = common_pb2.TableSummary(id="t", game=game)
    checked = 0
    for _step in range(steps):
        if match.hand_over():
            if match.match_over():
                break
            match.next_hand(rng.getrandbits(63))
            slots.clear()
            continue
        seat = rng.choice(match.to_act())
        legal = match.legal_actions(seat)
        view = wire.view_message(match.view(seat), legal, 0)
        model = TableModel(summary, seat).with_view(view, 1)
        if view.WhichOneof("game") == "truco":
            slots[seat] = dealt_slots(slots.get(seat, []), list(view.truco.cards))
        offered = choices(model, slots.get(seat, []))
        behind = sorted(a.SerializeToString() for c in offered for a in c.actions)
        assert behind == sorted(a.SerializeToString() for a in model.legal), "every legal action, once"
        numbers = [n for c in offered for n in (c.number, *c.also)]
        assert len(numbers) == len(set(numbers)), f"{game}: two choices share a number: {numbers}"
        for c in offered:
            first = c.actions[0]
            name = action_name(first)
            if name in CARDED or name == FACE_DOWN:
                hand = (slots.get(seat) or list(view.truco.cards)) if view.WhichOneof("game") == "truco" else list(
                    view.rummy.cards)
                place = first.position if first.position and not first.cards else hand.index(first.cards[0]) + 1
                expected = place + (HELD[game] if name == FACE_DOWN else 0)
                assert c.number == expected, f"{game}: {name} of place {place} numbered {c.number}"
                if first.cards and view.WhichOneof("game") == "truco":
                    key = (seat, view.hand, first.cards[0])
                    assert kept.setdefault(key, place) == place, "a truco card moved from its place"
            else:
                kind = kind_of(first)
                assert kind in KINDS[game], f"{game}: {kind} is not in its list of numbers"
                assert c.number == first_kind(game) + KINDS[game].index(kind), f"{game}: {kind} moved"
            if not c.amounts and not c.kinds:
                picked = pick(offered, str(c.number))
                assert picked is not None and picked.action == first, "its number answers it"
            else:  # its number alone, or with a word where its amount or kind goes: what is said back runs no numbers
                for typed in (str(c.number), f"{c.number} which"):
                    back = pick(offered, typed)
                    said_back = back.problem if back is not None and back.problem else ""
                    assert not runs_of_numbers(said_back), f"{game}: two numbers in a row in {said_back!r}"
        hand = held(model, slots.get(seat, []))
        for said in (menu(offered), terse_menu(offered, hand), terse_menu(offered, hand, frozenset(told(offered))),
                     keyed_menu(offered)):
            assert not runs_of_numbers(said), f"{game}: two numbers in a row in {said!r}"
        checked += 1
        match.apply(seat, rng.choice(legal))
    return checked


@pytest.mark.parametrize("game", NAMES)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_action_keeps_its_number_whenever_it_is_offered(game: str, seed: int) -> None:
    assert numbered_play(game, seed) > 0


def test_a_rummy_discard_answers_to_either_place_of_a_card_held_twice() -> None:
    """Two decks: a card held twice is one discard, answered by either of its places."""
    view = wire.view_message(None)
    view.ClearField("waiting")
    view.rummy.cards.extend(["7H", "7H", "8H"])
    view.legal.extend([common_pb2.Action(type=common_pb2.ACTION_TYPE_DISCARD, cards=["7H"]),
                       common_pb2.Action(type=common_pb2.ACTION_TYPE_DISCARD, cards=["8H"])])
    model = TableModel(common_pb2.TableSummary(id="t", game="pifpaf"), 0).with_view(view, 1)
    offered = choices(model)
    assert [(c.number, c.also) for c in offered] == [(1, (2,)), (3, ())]
    for answer in ("1", "2"):
        picked = pick(offered, answer)
        assert picked is not None and picked.action is not None and list(picked.action.cards) == ["7H"]
    refused = pick(offered, "4")
    assert refused is not None and refused.action is None and "enter" in refused.problem


def test_the_terse_turn_says_discard_alone_where_a_long_hand_may_lose_any_and_the_cards_that_may_not_go() -> None:
    """"Discard" is shorter to hear than "discard 1 to 10" once the numbers were said; a card that may not go (the
    one just taken from the pile) is named, not numbered ("discard any but 2 hearts": a number after "but" was heard
    as protecting a card held twice, which either of its numbers discards)."""
    view = wire.view_message(None)
    view.ClearField("waiting")
    hand = ["2H", "3H", "4H", "5H", "9C", "KD"]
    view.rummy.cards.extend(hand)
    view.legal.extend([common_pb2.Action(type=common_pb2.ACTION_TYPE_DISCARD, cards=[c]) for c in hand])

    def said(known: frozenset[str] = frozenset({"discard"})) -> str:
        model = TableModel(common_pb2.TableSummary(id="t", game="pifpaf"), 0).with_view(view, 1)
        return terse_menu(choices(model), hand, known)

    assert said(frozenset()) == "discard 1 to 6", "the first time, with its numbers"
    assert said() == "discard"
    del view.legal[0]
    assert said() == "discard any but 2 hearts"
    del view.legal[-1]
    assert said() == "discard any but 2 hearts and king diamonds", "the last card too"
    del view.legal[0]
    assert said(frozenset()) == "discard 3 to 5" and said() == "discard"


def test_a_card_held_twice_is_not_said_as_one_that_may_not_go() -> None:
    """Two decks: the card taken from the pile may not go, its twin (the same card, another place) goes as either
    number; the terse turn names the one card that may not, and never numbers a place either answers to."""
    view = wire.view_message(None)
    view.ClearField("waiting")
    hand = ["3C", "5H", "6H", "7H", "8S", "9S", "10S", "5H", "QD", "KD"]
    view.rummy.cards.extend(hand)
    view.legal.extend([common_pb2.Action(type=common_pb2.ACTION_TYPE_DISCARD, cards=[c])
                       for c in dict.fromkeys(hand) if c != "3C"])
    model = TableModel(common_pb2.TableSummary(id="t", game="pifpaf"), 0).with_view(view, 1)
    assert terse_menu(choices(model), hand, frozenset({"discard"})) == "discard any but 3 clubs"


def test_the_terse_turn_says_draw_where_both_the_stock_and_the_pile_may_be_drawn_from() -> None:
    """Their numbers never move (11 and 12 at Pif Paf): said the first time, "draw" after; the whole menu, on
    enter, names them with their numbers."""
    view = wire.view_message(None)
    view.ClearField("waiting")
    view.rummy.cards.extend(["2H", "3H", "4H"])
    view.legal.extend([common_pb2.Action(type=common_pb2.ACTION_TYPE_DRAW, source=common_pb2.DRAW_SOURCE_STOCK),
                       common_pb2.Action(type=common_pb2.ACTION_TYPE_DRAW, source=common_pb2.DRAW_SOURCE_PILE)])
    model = TableModel(common_pb2.TableSummary(id="t", game="pifpaf"), 0).with_view(view, 1)
    assert terse_menu(choices(model)) == "stock 11 or pile 12"
    assert terse_menu(choices(model), known=frozenset({"draw:stock", "draw:pile"})) == "draw"
    assert menu(choices(model)) == "Stock, 11; Pile, 12", "the whole menu, on enter, names them"
    del view.legal[1]
    model = TableModel(common_pb2.TableSummary(id="t", game="pifpaf"), 0).with_view(view, 1)
    assert terse_menu(choices(model)) == "Stock 11"
