"""What Pif Paf and Cacheta share: histories that account for every card, outs, wild cards in melds."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, Bound, SeatInfo
from cardtui.engine.games import GAMES
from cardtui.engine.rummy.base import RummyGame
from cardtui.engine.rummy.cacheta import GAME as CACHETA
from cardtui.engine.rummy.melds import wild_cards
from cardtui.engine.rummy.pifpaf import GAME as PIFPAF
from cardtui.engine.rummy.records import DISCARD, DRAW, PASS, PILE, STOCK, Phase, RummyMeld
from tests.engine.rummy_helpers import account, near_sets

HANDS = 500
CASES = [("pifpaf", n) for n in range(3, 9)] + [("cacheta", n) for n in range(2, 9)]


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"p{i}") for i in range(n)]


# -- every card accounted for ---------------------------------------------------------------------
def _together(a: Card, b: Card) -> bool:
    if a.rank == b.rank:
        return a.suit != b.suit
    return a.suit == b.suit and 0 < abs(a.rank - b.rank) <= 2


NEAR = near_sets(_together)


def quick_policy(match: Bound[Any, Any, Any], seat: int, rng: random.Random) -> Action:
    """A cheap player that still goes out: it keeps cards with neighbours, takes a useful discard
    now and then, claims, cuts (and burns) and declares at random, and knocks when it can."""
    game, state = match.game, match.state
    assert isinstance(game, RummyGame)
    phase = state.phase
    if phase is Phase.BETTING:
        return rng.choice(match.legal_actions(seat)[:4])
    if phase is Phase.CLAIM:
        return Action(game.claim_type) if rng.random() < 0.7 else Action(PASS)
    if phase is Phase.KNOCK:
        return rng.choice(match.legal_actions(seat))
    hand = state.hands[seat]
    if phase is Phase.DRAW:
        if game is CACHETA and seat not in state.declared and rng.random() < 0.5 and game.completing(state, seat):
            return Action("declare")
        useful = 0.5 if state.pile and not NEAR[state.pile[-1]].isdisjoint(hand) else 0.05
        if state.pile and (rng.random() < useful or not (state.stock or len(state.pile) > 1)):
            return Action(DRAW, value=PILE)
        return Action(DRAW, value=STOCK)
    knocks = game.knocks(state, seat)
    if knocks:
        k = rng.choice(knocks)
        return Action("knock", cards=() if k.discard is None else (k.discard,))
    choices = [c for c in hand if c != state.drawn] or hand  # never straight back: no endless swaps
    worst = min(choices, key=lambda c: (len([d for d in hand if d is not c and d in NEAR[c]]), rng.random()))
    return Action(DISCARD, cards=(worst,))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_histories_account_for_every_card(game: str, players: int) -> None:
    """500 hands each: ``deal`` and ``actions`` alone account for every card exactly once
    (Cacheta's flip included, stock rebuilds followed), and a claimant's knock is an action."""
    rules = GAMES[game]
    rng = random.Random(players)
    table = rules.seat_infos([f"p{i}" for i in range(players)])
    match, _ = rules.open({}, table, rng.getrandbits(63))
    kinds: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    read = 0
    while read < HANDS:
        if match.hand_over():
            record = match.history()
            assert record is not None
            account(record)
            read += 1
            kinds.update(a["type"] for a in record["actions"])
            outcomes.update(a["outcome"] for a in record["actions"] if "outcome" in a)
            actions = record["actions"]
            for i, a in enumerate(actions):
                if a.get("outcome") == "took":
                    assert any(b["type"] == "knock" and b["seat"] == a["seat"] for b in actions[i + 1:])
            if match.match_over():
                match, _ = rules.open({}, table, rng.getrandbits(63))
            else:
                match.next_hand(rng.getrandbits(63))
            continue
        assert isinstance(match, Bound)
        seat = rng.choice(match.to_act())
        match.apply(seat, quick_policy(match, seat, rng))
    assert kinds["knock"] > HANDS // 3 and kinds[DRAW] and kinds[DISCARD]
    assert outcomes["took"], "no discard was ever taken out of turn"
    if game == "cacheta":
        assert outcomes["burned"] and kinds["declare"]


# -- what the view works out for a seat --------------------------------------------------------
def test_outs_count_only_cards_with_a_copy_still_in_play() -> None:
    state, _ = PIFPAF.start(PIFPAF.options({"chips": 10}), seats(3), 5)
    while state.phase is Phase.BETTING:
        PIFPAF.apply(state, PIFPAF.to_act(state)[0], Action("check"))
    # Seat 2 goes out with 4S or 7S (4S 5S 6S or 5S 6S 7S).
    state.hands[2] = list(parse_cards("4C 4H 4D KS KH KD 5S 6S 9C"))
    assert PIFPAF.view(state, 2).outs == parse_cards("4S 7S")
    # Both 7S are seen: one covered in the pile, one taken from the pile by seat 0 (known to be there).
    state.pile = list(parse_cards("7S 2D"))
    state.known[0][Card.parse("7S")] += 1
    assert PIFPAF.view(state, 2).outs == parse_cards("4S")
    # A copy on top of the pile can still be drawn: it is live.
    state.pile = list(parse_cards("2D 7S"))
    assert PIFPAF.view(state, 2).outs == parse_cards("4S 7S")
    # Seat 0 discards its 7S again: one copy covered, one unseen.
    state.known[0][Card.parse("7S")] -= 1
    state.pile = list(parse_cards("7S 2D 7S 3C"))
    assert PIFPAF.view(state, 2).outs == parse_cards("4S")


def test_the_flip_is_out_of_play_for_outs() -> None:
    state, _ = CACHETA.start(CACHETA.options({}), seats(2), 5)
    state.flip = Card.parse("4C")
    state.wilds = wild_cards(state.flip)
    state.hands[1] = list(parse_cards("AS 2S 3S 7H 7D 7C 9H 10H KD"))  # out with 8H, JH or a wild
    state.hands[0] = list(parse_cards("2C 3C 6S 9S 9D 10C QS QD AH"))
    assert set(parse_cards("8H JH 5S 5C")) <= set(CACHETA.view(state, 1).outs)
    state.pile = list(parse_cards("8H 2D"))
    state.flip = Card.parse("8H")  # pretend the flip were the other 8H (the wilds stay)
    assert Card.parse("8H") not in CACHETA.view(state, 1).outs


def test_melds_mark_the_card_acting_as_wild() -> None:
    state, _ = CACHETA.start(CACHETA.options({}), seats(2), 5)
    state.flip = Card.parse("4C")
    state.wilds = wild_cards(state.flip)  # 5S and 5C
    state.hands[1] = list(parse_cards("AS 2S 3S 7H 7D 7C 9H 10H 5C"))
    view = CACHETA.view(state, 1)
    assert RummyMeld(parse_cards("9H 10H 5C"), Card.parse("5C")) in view.melds
    state.hands[1] = list(parse_cards("3S 4S 5S 7H 7D 7C JH 9D 2D"))
    view = CACHETA.view(state, 1)
    assert RummyMeld(parse_cards("3S 4S 5S"), None) in view.melds  # 5S stands as itself
    assert view.loose == parse_cards("2D 9D JH")


def test_claim_window_timeouts_are_for_windows_only() -> None:
    state, _ = PIFPAF.start(PIFPAF.options({"claim_ms": 1500}), seats(3), 5)
    seen = set()
    rng = random.Random(3)
    from cardtui.engine.rummy.bots.pifpaf import choose

    for _ in range(400):
        if PIFPAF.hand_over(state):
            PIFPAF.next_hand(state, rng.randrange(1 << 30))
        seen.add((state.phase, PIFPAF.timeout_ms(state)))
        seat = PIFPAF.to_act(state)[0]
        PIFPAF.apply(state, seat, choose(PIFPAF.view(state, seat), PIFPAF.legal_actions(state, seat), rng))
    assert {t for p, t in seen if p is not Phase.CLAIM} == {None}
    assert {t for p, t in seen if p is Phase.CLAIM} <= {1500}
