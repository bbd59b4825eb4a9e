"""Pif Paf rulings on rigged hands, redaction, and whole bot sessions for 3 to 8 players."""

from __future__ import annotations

import json
import random
import re

import pytest

from cardtui.engine.bots.pifpaf import choose
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, IllegalAction, InvalidOptions, NotYourTurn, SeatInfo
from cardtui.engine.history import jsonable
from cardtui.engine.pifpaf import CLAIM, DISCARD, DRAW, GAME, KNOCK, PASS, PILE, STOCK, Phase, PifPafState

CARD = re.compile(r"^(?:[AJQK]|10|[2-9])[SHDC]$")


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"p{i}") for i in range(n)]


def new(n: int = 3, **options: object) -> PifPafState:
    state, _ = GAME.start(GAME.options(options), seats(n), seed=5)
    return state


def everyone_checks(state: PifPafState) -> None:
    while state.phase is Phase.BETTING:
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, Action("check"))


def rig(state: PifPafState, hands: dict[int, str], stock: str = "", pile: str = "") -> None:
    for s, text in hands.items():
        state.hands[s] = list(parse_cards(text))
    if stock:
        state.stock = list(parse_cards(stock))  # the last card is the top
    state.pile = list(parse_cards(pile))


def test_options_are_validated() -> None:
    with pytest.raises(InvalidOptions, match="no option"):
        GAME.options({"jokers": 2})
    with pytest.raises(InvalidOptions):
        GAME.options({"group_suits": "two"})
    with pytest.raises(InvalidOptions, match="3 to 8"):
        GAME.start(GAME.options({}), seats(2), 1)
    opts = GAME.options({"ante": "2", "ace_high": "true", "dealer": "rotate"})
    assert opts.ace_high and opts.limits(4) == (2, 8)


def test_deal_antes_and_betting_limits() -> None:
    state = new(4, chips=20, ante=2)
    assert state.dealer == 0 and state.playing == [1, 2, 3, 0]
    assert all(len(state.hands[s]) == 9 for s in range(4))
    assert len(state.stock) == 104 - 36
    assert state.stacks == [18] * 4 and state.pots.total == 8
    assert GAME.to_act(state) == (1,)
    legal = GAME.legal_actions(state, 1)
    # fold, check, and bets of 2..8 (min = ante, max = ante × players)
    assert [a.type for a in legal[:2]] == ["fold", "check"] and len(legal) == 2 + 7
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, Action("bet", 9))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 2, Action("check"))


def test_all_fold_takes_the_pot_without_play() -> None:
    state = new(3, chips=10)
    GAME.apply(state, 1, Action("bet", 2))
    GAME.apply(state, 2, Action("fold"))
    GAME.apply(state, 0, Action("fold"))
    assert GAME.hand_over(state)
    assert state.stacks == [9, 12, 9]
    assert state.result is not None and state.result["knock"] is None and state.result["winner"] == 1
    assert sum(state.result["deltas"].values()) == 0


def test_draw_discard_claim_window_and_knock() -> None:
    state = new(3, chips=10)
    everyone_checks(state)
    rig(state, {
        1: "AS 2S 3S 7H 7D 7C 9H 10H 2D",
        2: "4C 4H 4D KS KH KD 5S 6S 8C",
        0: "JS JH QC QD 3H 3C 5D 6D 9C",
    }, stock="KC AC 2H")
    assert state.turn == 1 and GAME.legal_actions(state, 1) == [Action(DRAW, value=STOCK)]
    events = GAME.apply(state, 1, Action(DRAW, value=STOCK))
    assert state.hands[1][-1] == Card.parse("2H")
    public = [e for e in events if e.audience.public]
    assert all("2H" not in json.dumps(jsonable(e.data)) for e in public)
    assert next(e for e in events if e.kind == "drawn").audience.seats == frozenset({1})
    # 10 cards: discard any of the distinct cards, no knock (9H 10H 2D 2H are loose)
    assert [a.type for a in GAME.legal_actions(state, 1)].count(KNOCK) == 0
    GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("2D")))
    # The window opens to every other player, whoever could use the card.
    assert state.phase is Phase.CLAIM and GAME.to_act(state) == (2, 0)
    assert GAME.timeout_ms(state) == 2500
    assert GAME.legal_actions(state, 2) == [Action(PASS)]
    with pytest.raises(IllegalAction, match="does not complete"):
        GAME.apply(state, 2, Action(CLAIM))
    GAME.apply(state, 0, Action(PASS))
    assert GAME.to_act(state) == (2,)
    GAME.apply(state, 2, GAME.default_action(state, 2))
    assert state.phase is Phase.DRAW and state.turn == 2
    GAME.apply(state, 2, Action(DRAW, value=PILE))
    assert state.hands[2][-1] == Card.parse("2D")
    GAME.apply(state, 2, Action(DISCARD, cards=parse_cards("2D")))
    GAME.apply(state, 0, Action(PASS))
    GAME.apply(state, 1, Action(PASS))
    GAME.apply(state, 0, Action(DRAW, value=STOCK))  # AC
    GAME.apply(state, 0, Action(DISCARD, cards=parse_cards("AC")))
    for s in GAME.to_act(state):
        GAME.apply(state, s, Action(PASS))
    GAME.apply(state, 1, Action(DRAW, value=STOCK))  # KC
    GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("KC")))
    # KC completes seat 2 (KS KH KD KC is four suits: not in Pif Paf!) -> no claim
    assert GAME.legal_actions(state, 2) == [Action(PASS)]


def test_claim_priority_first_after_the_discarder() -> None:
    state = new(4, chips=10)
    everyone_checks(state)
    # Seats 2 and 3 both go out with 8H; seat 3 comes after seat 2 from the discarder (1).
    rig(state, {
        1: "AS 2S 3S 7H 7D 7C 9D 10C 8H",
        2: "4C 4H 4D KS KH KD 6H 7H QS",
        3: "5C 5H 5D JS JH JD 9H 10H QD",
        0: "2C 3C 4S 6C 8C 9C JC QC KC",
    }, stock="2H")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("8H")))
    assert GAME.legal_actions(state, 2)[-1] == Action(CLAIM)
    assert GAME.legal_actions(state, 3)[-1] == Action(CLAIM)
    GAME.apply(state, 3, Action(CLAIM))
    assert not GAME.hand_over(state)  # seat 2 may still claim ahead of seat 3
    GAME.apply(state, 0, Action(PASS))
    GAME.apply(state, 2, Action(CLAIM))
    assert GAME.hand_over(state) and state.result is not None
    knock = state.result["knock"]
    assert knock["seat"] == 2 and knock["discard"] == "QS"
    assert sorted(map(tuple, knock["melds"])) == [("4H", "4D", "4C"), ("6H", "7H", "8H"), ("KS", "KH", "KD")]
    assert state.stacks == [9, 9, 13, 9]
    assert state.dealer == 0
    GAME.next_hand(state, 9)
    assert state.dealer == 2  # the winner deals next


def test_knock_with_ten_and_with_a_discard() -> None:
    state = new(3, chips=10)
    everyone_checks(state)
    rig(state, {1: "AS 2S 3S 7H 7D 7C 9H 10H JH"}, stock="QH")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    knocks = [a for a in GAME.legal_actions(state, 1) if a.type == KNOCK]
    # all ten (9H..QH) or discard QH or discard 9H (10H JH QH)
    assert Action(KNOCK) in knocks and Action(KNOCK, cards=parse_cards("QH")) in knocks
    assert GAME.view(state, 1).can_knock
    with pytest.raises(IllegalAction, match="does not leave"):
        GAME.apply(state, 1, Action(KNOCK, cards=parse_cards("7H")))
    GAME.apply(state, 1, Action(KNOCK))
    assert state.result is not None and state.result["knock"]["discard"] is None
    assert state.stacks == [9, 12, 9]


def test_stock_rebuilt_from_the_pile_unshuffled() -> None:
    state = new(3, chips=10)
    everyone_checks(state)
    rig(state, {1: "AS 2S 3S 7H 7D 7C 9H 10H 2D"}, pile="5C 6C 7S 8D")
    state.stock = []
    events = GAME.apply(state, 1, Action(DRAW, value=STOCK))
    assert any(e.kind == "restock" for e in events)
    # 8D stays as the discard top; 5C (the first discard) is the new stock's top and is drawn.
    assert state.hands[1][-1] == Card.parse("5C")
    assert state.pile == [Card.parse("8D")]
    assert state.stock == list(parse_cards("7S 6C"))


def test_side_pot_goes_to_the_next_eligible_seat() -> None:
    s2, _ = GAME.resume(GAME.options({"chips": 10}), seats(3), [20, 2, 20], 0, 1, 5)
    GAME.apply(s2, 1, Action("bet", 1))  # all in
    GAME.apply(s2, 2, Action("raise", 3))
    GAME.apply(s2, 0, Action("call", 3))
    assert s2.phase is Phase.DRAW
    rig(s2, {1: "AS 2S 3S 7H 7D 7C 9H 10H JH"}, stock="QH")
    GAME.apply(s2, 1, Action(DRAW, value=STOCK))
    GAME.apply(s2, 1, Action(KNOCK))
    # Main pot 3×2 = 6 to seat 1; side pot 2×2 = 4 to seat 2, the next seat after the winner.
    assert s2.stacks == [16, 6, 20]
    assert sum(s2.stacks) == 42


def test_rebuy_restocks_a_busted_player() -> None:
    state, _ = GAME.start(GAME.options({"chips": 3, "rebuy": True}), seats(3), 1)
    state.stacks[1] = 0
    state.result = {"winner": 0}
    GAME.next_hand(state, 4)
    assert state.stacks[1] == 3 - 1
    record_head = state.log.head if state.log else {}
    assert record_head["rebuys"] == {"1": 3} and record_head["start"]["1"] == 3


def test_redaction_in_views_and_events() -> None:
    state, events = GAME.start(GAME.options({}), seats(4), 11)
    rng = random.Random(2)
    log = list(events)
    for _ in range(200):
        if GAME.hand_over(state):
            break
        seat = GAME.to_act(state)[0]
        for s in (*range(4), None):
            view = GAME.view(state, s)
            mine = set(view.your_cards)
            assert s is not None or not mine
            if s is not None and s in state.playing:
                assert sorted(view.your_cards) == sorted(map(str, state.hands[s]))
            public = set(filter(None, [view.discard_top, view.claim_card])) | set(view.your_outs)
            found = {x for x in re.findall(r'"([^"]+)"', json.dumps(jsonable(view))) if CARD.match(x)}
            assert found <= mine | public
        log += GAME.apply(state, seat, choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rng))
    for e in log:
        if e.audience.public:
            assert e.kind not in ("cards", "drawn")
            if e.kind == "draw":
                assert e.data["from"] == PILE or "card" not in e.data
        else:
            assert e.audience.seats is not None and len(e.audience.seats) == 1


@pytest.mark.parametrize("players", range(3, 9))
def test_bot_sessions_conserve_chips_and_replay(players: int) -> None:
    rng = random.Random(players)
    options = GAME.options({"chips": 12, "ante": 2})
    state, _ = GAME.start(options, seats(players), players)
    total = 12 * players
    hands = 0
    while not GAME.match_over(state) and hands < 6:
        steps = 0
        while not GAME.hand_over(state):
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rng))
            steps += 1
            assert steps < 5000, "the hand did not finish"
        assert sum(state.stacks) == total
        record = GAME.history(state)
        assert record is not None and sum(record["result"]["deltas"].values()) == 0
        json.dumps(record)
        assert GAME.replay(record).result == state.result
        hands += 1
        if not GAME.match_over(state):
            GAME.next_hand(state, rng.randrange(1 << 30))
    assert hands >= 1


def go_out_rate(game_hands: int = 30, players: int = 4) -> float:
    """Share of hands where the winner went out within their first 15 turns."""
    rng = random.Random(99)
    quick = played = 0
    state, _ = GAME.start(GAME.options({"chips": 1000}), seats(players), 1)
    for _ in range(game_hands):
        while not GAME.hand_over(state):
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rng))
        record = GAME.history(state)
        assert record is not None
        knock = record["result"]["knock"]
        if knock is not None:
            turns = sum(1 for a in record["actions"] if a["seat"] == knock["seat"] and a["type"] in (DRAW, CLAIM))
            played += 1
            quick += turns <= 15
        GAME.next_hand(state, rng.randrange(1 << 30))
    return quick / played


def test_bots_go_out_quickly(capsys: pytest.CaptureFixture[str]) -> None:
    rate = go_out_rate()
    with capsys.disabled():
        print(f"\nPif Paf bots (4 players): winner out within 15 turns in {rate:.0%} of hands")
    assert rate >= 0.5
