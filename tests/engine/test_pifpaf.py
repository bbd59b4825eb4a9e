"""Pif Paf rulings (docs/rules.md §1) on rigged hands, redaction, and whole bot sessions for 3 to 8 players."""

from __future__ import annotations

import json
import random

import pytest

from cardtui.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from cardtui.engine.cards import Card, pack, parse_cards, shuffled
from cardtui.engine.core import Action, IllegalAction, InvalidOptions, NotYourTurn, SeatInfo
from cardtui.engine.events import CardsDealt, HandEnded, MatchEnded
from cardtui.engine.rummy.bots.pifpaf import choose
from cardtui.engine.rummy.pifpaf import GAME, PifPafPotWon, PifPafState
from cardtui.engine.rummy.records import (
    CLAIM,
    DISCARD,
    DRAW,
    KNOCK,
    PASS,
    PILE,
    STOCK,
    DrawSource,
    Phase,
    RummyDrawnCard,
    RummyDrew,
    RummyKnocked,
    RummyResult,
    RummyStockRebuilt,
    RummyWindowClosed,
    RummyWindowOpened,
)
from cardtui.v1 import analysis_pb2
from tests.deal_rules import rummy_deal
from tests.held import cards_in
from tests.per_game import BETTING, GameTests, Hands, Reason, Short, ShortHand, Sim, Taps

REASONS = {
    "draw": Reason(
        analysis_pb2.AnalysisReason(draw=analysis_pb2.DrawAdvice(card="KH", loose=3, taking=2, outs=10, unseen=93)),
        {
            "en": (
                "Taking the K♥ left 2 cards outside melds (now 3)",
                "10 of the 93 unseen cards",
            ),
            "pt_BR": (
                "Pegar o K♥ deixava 2 cartas fora dos jogos (agora 3)",
                "10 das 93 cartas não vistas",
            ),
            "es": (
                "Tomar el K♥ dejaba 2 cartas fuera de los juegos (ahora 3)",
                "10 de las 93 cartas no vistas",
            ),
        },
    ),
    "out": Reason(
        analysis_pb2.AnalysisReason(
            draw=analysis_pb2.DrawAdvice(card="6H", goes_out=True, all_ten=True, outs=17, unseen=92)
        ),
        {
            "en": ("Taking the 6♥ let you go out with all ten cards melded",),
            "pt_BR": ("Pegar o 6♥ deixava você bater com as dez cartas",),
            "es": ("Tomar el 6♥ te dejaba cortar con las diez cartas",),
        },
    ),
    "discard": Reason(
        analysis_pb2.AnalysisReason(
            discard=analysis_pb2.DiscardAdvice(
                chosen="KC", chosen_loose=3, chosen_outs=8, best="2S", best_loose=3, best_outs=14, unseen=93
            )
        ),
        {
            "en": (
                "Throwing the K♣ kept 3 cards outside melds, with 8 live cards to help",
                "throwing the 2♠ kept 3 cards outside melds, with 14 live cards (of",
            ),
            "pt_BR": (
                "Descartar o K♣ deixava 3 cartas fora dos jogos, com 8 cartas vivas para ajudar",
                "descartar o 2♠ deixava 3 cartas fora dos jogos, com 14 cartas vivas (de",
            ),
            "es": (
                "Tirar el K♣ dejaba 3 cartas fuera de los juegos, con 8 cartas vivas para ayudar",
                "tirar el 2♠ dejaba 3 cartas fuera de los juegos, con 14 cartas vivas (de",
            ),
        },
    ),
    "single": Reason(
        analysis_pb2.AnalysisReason(
            discard=analysis_pb2.DiscardAdvice(
                chosen="KC", chosen_loose=1, chosen_outs=1, best="2S", best_loose=1, best_outs=0, unseen=30
            )
        ),
        {
            "en": (
                "Throwing the K♣ kept 1 card outside melds, with 1 live card to help",
                "throwing the 2♠ kept 1 card outside melds, with 0 live cards (of 30 unseen).",
            ),
            "pt_BR": (
                "Descartar o K♣ deixava 1 carta fora dos jogos, com 1 carta viva para ajudar",
                "descartar o 2♠ deixava 1 carta fora dos jogos, com 0 carta viva (de 30 não vistas).",
            ),
            "es": (
                "Tirar el K♣ dejaba 1 carta fuera de los juegos, con 1 carta viva para ayudar",
                "tirar el 2♠ dejaba 1 carta fuera de los juegos, con 0 cartas vivas (de 30 no vistas).",
            ),
        },
    ),
    "knock": Reason(
        analysis_pb2.AnalysisReason(
            knock=analysis_pb2.KnockAdvice(melded=9, outs=4, unseen=93, stock=40, discard="2S", tens=-1, fewest=-1)
        ),
        {
            "en": (
                "melded 9 of your cards",
                "throwing the 2♠, 4 of the 93 unseen",
                "40 left in the stock",
            ),
            "pt_BR": (
                "baixava 9 das suas cartas",
                "descartando o 2♠, 4 das 93 cartas não vistas",
                "com 40 no monte",
            ),
            "es": (
                "ligaba 9 de tus cartas",
                "tirando el 2♠, 4 de las 93 cartas no vistas",
                "con 40 en el mazo",
            ),
        },
    ),
}
"""The analysis's reasons at this game, and what is said of each in every language (tests/per_game.py)."""


TESTS = GameTests(watched=Short(3, {"chips": 2, "claim_ms": 500}), tournament=Short(3, {"chips": 1, "claim_ms": 500}),
                  entries=6,
                  offered=frozenset({"draw:stock", "draw:pile", "discard", "knock", "claim", "pass"}) | BETTING,
                  usual=4, fair=(Hands(4, 12),),
                  sims=(Sim(3, {}, 4, "easy", frozenset({"antes"})),
                        Sim(8, {"ace_high": True, "group_suits": "atleast3", "dealer": "rotate", "min_bet": 2,
                                "max_bet": 9}, 2, "easy", frozenset({"antes"})),
                        Sim(3, {"rebuy": True, "chips": 1, "ante": 1}, 3, "easy", frozenset({"rebuys"}))),
                  seldom=((3, "rebuild"), (8, "rebuild")), tampered=True,
                  short_hand=ShortHand({1: "AS 2S 3S 4H 5H 6H 7C 8C KD", 2: "QH QS 9D 10D 5D 5C 2C KS 7H",
                                        0: "4C 4D 7S 8S JH JC 3D 10H 2H"}, (1, 2, 0), None, "QD JS 9C 9C"),
                  fair_short=(3, 9840),
                  taps=Taps(("2", "3"), fields=(("Time to claim a discard (ms)", "500"),)), reasons=REASONS,
                  deal=rummy_deal)
"""This game's rows in the shared tests that keep one for each game (tests/per_game.py)."""


DECK = pack("french104")
"""Pif Paf's and Cacheta's pack: two French decks."""


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"p{i}") for i in range(n)]


def new(n: int = 3, **options: object) -> PifPafState:
    state, _ = GAME.start(GAME.options(options), seats(n), seed=5)
    return state


def everyone_checks(state: PifPafState) -> None:
    while state.phase is Phase.BETTING:
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, Action(CHECK))


def rig(state: PifPafState, hands: dict[int, str], stock: str = "", pile: str = "") -> None:
    for s, text in hands.items():
        state.hands[s] = list(parse_cards(text))
    if stock:
        state.stock = list(parse_cards(stock))  # the last card is the top
    state.pile = list(parse_cards(pile))


# -- options -----------------------------------------------------------------------------------
def test_options_are_validated() -> None:
    with pytest.raises(InvalidOptions, match="no option"):
        GAME.options({"jokers": 2})
    with pytest.raises(InvalidOptions):
        GAME.options({"group_suits": "two"})
    with pytest.raises(InvalidOptions, match="3, 4, 5, 6, 7, 8 players, not 2"):
        GAME.start(GAME.options({}), seats(2), 1)
    opts = GAME.options({"ante": 2, "ace_high": True, "dealer": "rotate"})
    assert opts.ace_high and opts.limits(4) == (2, 8)
    with pytest.raises(InvalidOptions, match="cover the ante"):
        GAME.options({"chips": 5, "ante": 10})
    with pytest.raises(InvalidOptions, match="smaller than the smallest"):
        GAME.options({"min_bet": 10, "max_bet": 5})


def test_bet_ranges_are_bounded_so_no_legal_list_is_huge() -> None:
    """chips ≤ 10,000 and max_bet ≤ 1,000: a betting round lists at most about a thousand amounts."""
    for name, value in (("chips", 1_000_000), ("max_bet", 1_001), ("min_bet", 1_001), ("ante", 101)):
        with pytest.raises(InvalidOptions, match=f"{name} must be from"):
            GAME.options({name: value})
    state = new(8, chips=10_000, ante=100, max_bet=1_000)
    legal = GAME.legal_actions(state, GAME.to_act(state)[0])
    assert len(legal) == 2 + (1_000 - 100 + 1)
    # With max_bet unset the cap is ante × players, itself capped: 100 × 8 = 800.
    assert GAME.options({"ante": 100, "chips": 10_000}).limits(8) == (100, 800)


# -- the deal and the betting round --------------------------------------------------------------
def test_deal_antes_and_betting_limits() -> None:
    state = new(4, chips=20, ante=2)
    assert state.dealer == 0 and state.playing == [1, 2, 3, 0]
    assert all(len(state.hands[s]) == 9 for s in range(4))
    assert len(state.stock) == 104 - 36
    assert state.stacks == [18] * 4 and state.pots.total == 8
    assert GAME.to_act(state) == (1,)
    legal = GAME.legal_actions(state, 1)
    # fold, check, and bets of 2..8 (min = ante, max = ante × players)
    assert [a.type for a in legal[:2]] == [FOLD, CHECK] and len(legal) == 2 + 7
    with pytest.raises(IllegalAction, match="between 2 and 8"):
        GAME.apply(state, 1, Action(BET, 9))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 2, Action(CHECK))
    view = GAME.view(state, 1)
    assert view.phase is Phase.BETTING and view.pot == 8 and view.betting is not None
    assert (view.betting.level, view.betting.cap, view.betting.min_raise) == (0, 8, 2)


def test_nine_cards_dealt_one_at_a_time_from_the_dealers_left() -> None:
    state, _ = GAME.resume(GAME.options({}), seats(3), [50, 50, 50], 0, 1, 77)
    deck = shuffled(DECK, random.Random(77))
    order = [1, 2, 0]
    for k in range(9):
        for i, s in enumerate(order):
            assert state.hands[s][k] == deck[-1 - (k * 3 + i)]


def test_raise_call_and_fold_then_play_among_those_left() -> None:
    state = new(4, chips=20, ante=1, min_bet=2, max_bet=6)
    assert GAME.default_action(state, 1) == Action(CHECK)  # the turn timer's choice: check, else fold
    GAME.apply(state, 1, Action(BET, 2))
    assert GAME.default_action(state, 2) == Action(FOLD)
    legal = GAME.legal_actions(state, 2)
    assert [a.amount for a in legal if a.type == RAISE] == [4, 5, 6]  # raises step by min_bet, capped at 6
    with pytest.raises(IllegalAction, match="a bet already"):
        GAME.apply(state, 2, Action(BET, 4))
    GAME.apply(state, 2, Action(RAISE, 6))  # repique, to the cap
    GAME.apply(state, 3, Action(FOLD))  # estou fora: loses the ante
    # Out at once, for the players still to answer: counting it in, normal folded hands the pot paid for.
    assert [s.status for s in GAME.view(state, 0).seats] == ["in", "in", "in", "folded"]
    GAME.apply(state, 0, Action(CALL, 6))
    assert GAME.legal_actions(state, 1) == [Action(FOLD), Action(CALL, 4)]  # nobody raises past the cap
    GAME.apply(state, 1, Action(CALL, 4))
    assert state.phase is Phase.DRAW and state.turn == 1 and state.live == [1, 2, 0]
    assert state.stacks == [13, 13, 13, 19] and state.pots.total == 22
    assert GAME.view(state, None).seats[3].status == "folded"


def test_all_fold_takes_the_pot_without_play() -> None:
    state = new(3, chips=10)
    GAME.apply(state, 1, Action(BET, 2))
    GAME.apply(state, 2, Action(FOLD))
    events = GAME.apply(state, 0, Action(FOLD))
    assert GAME.hand_over(state)
    assert state.stacks == [9, 12, 9]
    assert state.result is not None and state.result.knock is None and state.result.winner == 1
    assert sum(state.result.deltas) == 0
    assert PifPafPotWon(1, 5, False, True) in [e.body for e in events]


# -- drawing, discarding, windows -------------------------------------------------------------
def test_draw_discard_and_a_window_nobody_can_claim_closes_at_once() -> None:
    state = new(3, chips=10)
    everyone_checks(state)
    rig(state, {
        1: "AS 2S 3S 7H 7D 7C 9H 10H 2D",
        2: "4C 4H 4D KS KH KD 5S 6S 8C",
        0: "JS JH QC QD 3H 3C 5D 6D 9C",
    }, stock="KC AC 2H")
    assert state.turn == 1 and GAME.legal_actions(state, 1) == [Action(DRAW, value=STOCK)]
    assert GAME.timeout_ms(state) is None
    events = GAME.apply(state, 1, Action(DRAW, value=STOCK))
    assert state.hands[1][-1] == Card.parse("2H")
    assert all(Card.parse("2H") not in cards_in(e.body) for e in events if e.audience.public)
    drawn = next(e for e in events if isinstance(e.body, RummyDrawnCard))
    assert drawn.audience.seats == frozenset({1})
    assert RummyDrew(1, DrawSource.STOCK, None) in [e.body for e in events]
    assert GAME.view(state, 1).drawn == Card.parse("2H") and GAME.view(state, 2).drawn is None
    # 10 cards: discard any of the distinct cards, no knock (9H 10H 2D 2H are loose)
    assert [a.type for a in GAME.legal_actions(state, 1)].count(KNOCK) == 0
    events = GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("2D")))
    # The window opens to everyone; 2D completes nobody, so it closes at once.
    kinds = [type(e.body) for e in events]
    assert kinds.index(RummyWindowOpened) < kinds.index(RummyWindowClosed)
    assert RummyWindowClosed(Card.parse("2D"), None) in [e.body for e in events]
    assert state.phase is Phase.DRAW and state.turn == 2
    with pytest.raises(IllegalAction, match="your turn to draw"):
        GAME.apply(state, 2, Action(CLAIM))
    GAME.apply(state, 2, Action(DRAW, value=PILE))
    assert state.hands[2][-1] == Card.parse("2D")
    assert GAME.view(state, 0).seats[2].taken == parse_cards("2D")
    GAME.apply(state, 2, Action(DISCARD, cards=parse_cards("2D")))
    GAME.apply(state, 0, Action(DRAW, value=STOCK))  # AC
    GAME.apply(state, 0, Action(DISCARD, cards=parse_cards("AC")))
    GAME.apply(state, 1, Action(DRAW, value=STOCK))  # KC
    GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("KC")))
    # KC completes seat 2 (KS KH KD KC is four suits: not in Pif Paf!) -> no claim
    assert GAME.legal_actions(state, 2) == [Action(DRAW, value=STOCK), Action(DRAW, value=PILE)]
    assert GAME.view(state, 0).pile == parse_cards("2D AC KC")


def test_claim_window_waits_only_on_claimants_and_reveals_nothing() -> None:
    state = new(4, chips=10)
    everyone_checks(state)
    # Only seat 3 goes out with 8H.
    rig(state, {
        1: "AS 2S 3S 7H 7D 7C 9D 10C 8H",
        2: "4C 4H 4D KS KH KD 6H 2H QS",
        3: "5C 5H 5D JS JH JD 9H 10H QD",
        0: "2C 3C 4S 6C 8C 9C JC QC KC",
    }, stock="2D")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    events = GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("8H")))
    assert [type(e.body) for e in events][-1] is RummyWindowOpened
    assert state.phase is Phase.CLAIM
    assert GAME.to_act(state) == (3,)  # the server waits on seat 3 only
    assert GAME.timeout_ms(state) == 2500  # the rules time the window
    views = [GAME.view(state, s) for s in (0, 1, 2, 3, None)]
    assert {v.to_act for v in views} == {(2, 3, 0)}  # every seat it is open to, whoever may claim
    assert {v.window for v in views} == {views[0].window}
    assert views[4].window is not None and views[4].window.card == Card.parse("8H")
    assert GAME.legal_actions(state, 3) == [Action(PASS), Action(CLAIM)]
    assert GAME.legal_actions(state, 2) == [] and GAME.legal_actions(state, 0) == []
    with pytest.raises(NotYourTurn, match="nothing to answer"):
        GAME.apply(state, 2, Action(PASS))
    with pytest.raises(NotYourTurn, match="for the others"):
        GAME.apply(state, 1, Action(PASS))
    # The window lapses: the timer's default for a claimant is a pass, and play goes on.
    assert GAME.default_action(state, 3) == Action(PASS)
    GAME.apply(state, 3, GAME.default_action(state, 3))
    assert state.phase is Phase.DRAW and state.turn == 2 and GAME.timeout_ms(state) is None


def test_claim_priority_first_after_the_discarder() -> None:
    state = new(4, chips=10)
    everyone_checks(state)
    # Seats 2 and 3 both go out with 8H; seat 2 comes first after the discarder (1).
    rig(state, {
        1: "AS 2S 3S 7H 7D 7C 9D 10C 8H",
        2: "4C 4H 4D KS KH KD 6H 7H QS",
        3: "5C 5H 5D JS JH JD 9H 10H QD",
        0: "2C 3C 4S 6C 8C 9C JC QC KC",
    }, stock="2H")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("8H")))
    assert GAME.to_act(state) == (2, 3)
    assert GAME.legal_actions(state, 2)[-1] == Action(CLAIM)
    assert GAME.legal_actions(state, 3)[-1] == Action(CLAIM)
    GAME.apply(state, 3, Action(CLAIM))
    assert state.phase is Phase.CLAIM  # seat 2 may still claim ahead of seat 3
    assert GAME.view(state, 3).answered and not GAME.view(state, 2).answered
    events = GAME.apply(state, 2, Action(CLAIM))
    assert RummyWindowClosed(Card.parse("8H"), 2) in [e.body for e in events]
    # The claimant took the card; the knock is its next action, and it must use the card.
    assert state.phase is Phase.KNOCK and state.turn == 2 and GAME.to_act(state) == (2,)
    assert GAME.legal_actions(state, 2) == [Action(KNOCK, cards=parse_cards("QS"))]
    with pytest.raises(IllegalAction, match="now you knock"):
        GAME.apply(state, 2, Action(DISCARD, cards=parse_cards("QS")))
    GAME.apply(state, 2, Action(KNOCK, cards=parse_cards("QS")))
    assert GAME.hand_over(state) and state.result is not None and state.result.knock is not None
    knock = state.result.knock
    assert knock.seat == 2 and knock.discard == Card.parse("QS") and knock.claimed == Card.parse("8H")
    assert sorted(m.cards for m in knock.melds) == sorted(parse_cards(t) for t in ("4H 4D 4C", "6H 7H 8H", "KS KH KD"))
    assert state.stacks == [9, 9, 13, 9]
    record = GAME.history(state)
    assert record is not None
    claims = [a for a in record["actions"] if a["type"] == CLAIM]
    assert [(a["seat"], a["outcome"]) for a in claims] == [(3, "too late"), (2, "took")]
    assert record["actions"][-1] == {"seq": len(record["actions"]), "seat": 2, "type": KNOCK, "cards": ["QS"],
                                     "melds": [["4H", "4D", "4C"], ["6H", "7H", "8H"], ["KS", "KH", "KD"]]}
    assert record["result"]["knock"]["claimed"] == "8H"
    assert state.dealer == 0
    GAME.next_hand(state, 9)
    assert state.dealer == 2  # the winner deals next


def test_a_claim_must_use_the_claimed_card() -> None:
    """RULES §1: a hand already complete without the discard cannot claim it."""
    state = new(3, chips=10)
    everyone_checks(state)
    rig(state, {
        1: "2C 5D 8S JH KD 3H 6C 9D QS",
        2: "AS 2S 3S 7H 7D 7C 9H 10H JH",  # all nine melded already (it could have knocked)
        0: "4C 4H 4D KS KH KD 5S 6S 9C",   # goes out with 4S (4S 5S 6S) or 7S
    }, stock="4S")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("4S")))  # AS 2S 3S 4S would go out for seat 2 too
    assert GAME.to_act(state) == (0,)
    assert GAME.legal_actions(state, 2) == []
    with pytest.raises(IllegalAction, match="already meld without 4S: a claim must use the claimed card"):
        GAME.apply(state, 2, Action(CLAIM))
    GAME.apply(state, 0, Action(CLAIM))
    assert state.phase is Phase.KNOCK
    knocks = GAME.knocks(state, 0)
    assert knocks and all(any(Card.parse("4S") in m for m in k.melds) for k in knocks)


def test_knock_with_ten_and_with_a_discard() -> None:
    state = new(3, chips=10)
    everyone_checks(state)
    rig(state, {1: "AS 2S 3S 7H 7D 7C 9H 10H JH"}, stock="QH")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    knocks = [a for a in GAME.legal_actions(state, 1) if a.type == KNOCK]
    # all ten (9H..QH) or discard QH or discard 9H (10H JH QH)
    assert Action(KNOCK) in knocks and Action(KNOCK, cards=parse_cards("QH")) in knocks
    assert Action(KNOCK, cards=parse_cards("9H")) in knocks
    assert GAME.view(state, 1).can_knock and not GAME.view(state, 2).can_knock
    with pytest.raises(IllegalAction, match="does not leave"):
        GAME.apply(state, 1, Action(KNOCK, cards=parse_cards("7H")))
    events = GAME.apply(state, 1, Action(KNOCK))
    assert state.result is not None and state.result.knock is not None and state.result.knock.discard is None
    assert state.stacks == [9, 12, 9]
    knocked = next(e.body for e in events if isinstance(e.body, RummyKnocked))
    assert sorted(m.cards for m in knocked.melds) == sorted(
        parse_cards(t) for t in ("AS 2S 3S", "7H 7D 7C", "9H 10H JH QH"))
    assert HandEnded((-1, 2, -1), 1) in [e.body for e in events]


def test_ace_high_and_group_suit_options() -> None:
    plain = new(3, chips=10)
    wide = new(3, chips=10, ace_high=True, group_suits="atleast3")
    for state in (plain, wide):
        everyone_checks(state)
        rig(state, {1: "QS KS 7H 7D 7C 9H 10H JH 5C"}, stock="AS")
        GAME.apply(state, 1, Action(DRAW, value=STOCK))
    assert not GAME.knocks(plain, 1)  # Q-K-A is no sequence by default
    assert Action(KNOCK, cards=parse_cards("5C")) in GAME.legal_actions(wide, 1)
    assert GAME.view(wide, 1).rules.ace_high and GAME.view(plain, 1).rules.group_suits == "exactly3"
    corner = new(3, chips=10, ace_high=True)
    everyone_checks(corner)
    rig(corner, {1: "KS 2S 7H 7D 7C 9H 10H JH 5C"}, stock="AS")
    GAME.apply(corner, 1, Action(DRAW, value=STOCK))
    assert not GAME.knocks(corner, 1)  # K-A-2 never, even with ace_high


def test_groups_show_exactly_three_suits_unless_the_option_says_at_least_three() -> None:
    for group_suits, drawn, knocks in (("exactly3", "QD", True), ("exactly3", "QC", False), ("atleast3", "QC", True)):
        state = new(3, chips=10, group_suits=group_suits)
        everyone_checks(state)
        rig(state, {1: "QS QH QD 2S 3S 4S 7H 8H 9H"}, stock=drawn)
        GAME.apply(state, 1, Action(DRAW, value=STOCK))
        assert (Action(KNOCK) in GAME.legal_actions(state, 1)) is knocks, (group_suits, drawn)


def test_a_player_without_chips_is_not_dealt_in() -> None:
    state, _ = GAME.resume(GAME.options({"chips": 10}), seats(4), [10, 0, 10, 10], 0, 3, 5)
    assert state.playing == [2, 3, 0] and state.hands[1] == [] and GAME.to_act(state) == (2,)
    view = GAME.view(state, 1)
    assert view.seats[1].status == "out" and view.cards == () and GAME.legal_actions(state, 1) == []
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, Action(CHECK))


def test_stock_rebuilt_from_the_pile_unshuffled() -> None:
    state = new(3, chips=10)
    everyone_checks(state)
    rig(state, {1: "AS 2S 3S 7H 7D 7C 9H 10H 2D"}, pile="5C 6C 7S 8D")
    state.stock = []
    events = GAME.apply(state, 1, Action(DRAW, value=STOCK))
    assert RummyStockRebuilt(3) in [e.body for e in events]
    # 8D stays as the discard top; 5C (the first discard) is the new stock's top and is drawn.
    assert state.hands[1][-1] == Card.parse("5C")
    assert state.pile == [Card.parse("8D")]
    assert state.stock == list(parse_cards("7S 6C"))
    state.hand_log.finish({})
    record = state.hand_log.history()
    assert record is not None
    log = record["actions"]
    assert log[-2] == {"seq": len(log) - 1, "seat": None, "type": "rebuild", "cards": ["5C", "6C", "7S"], "top": "8D"}
    assert log[-1]["type"] == DRAW and log[-1]["card"] == "5C"


# -- pots ------------------------------------------------------------------------------------
def test_side_pot_goes_to_the_next_eligible_seat() -> None:
    s2, _ = GAME.resume(GAME.options({"chips": 10}), seats(3), [20, 2, 20], 0, 1, 5)
    GAME.apply(s2, 1, Action(BET, 1))  # all in
    GAME.apply(s2, 2, Action(RAISE, 3))
    GAME.apply(s2, 0, Action(CALL, 3))
    assert s2.phase is Phase.DRAW
    rig(s2, {1: "AS 2S 3S 7H 7D 7C 9H 10H JH"}, stock="QH")
    GAME.apply(s2, 1, Action(DRAW, value=STOCK))
    GAME.apply(s2, 1, Action(KNOCK))
    # Main pot 3×2 = 6 to seat 1; side pot 2×2 = 4 to seat 2, the next seat after the winner.
    assert s2.stacks == [16, 6, 20]
    assert sum(s2.stacks) == 42


def short_stacked(knocker: int) -> tuple[PifPafState, list[object]]:
    """Five seats, dealer 2 (turn order 3, 4, 0, 1, 2); seats 4 and 0 go all in for less; seat 2 folds."""
    state, _ = GAME.resume(GAME.options({"chips": 30, "max_bet": 20}), seats(5), [4, 30, 30, 30, 3], 2, 1, 8)
    for seat, action in ((3, Action(BET, 2)), (4, Action(CALL, 2)), (0, Action(RAISE, 3)), (1, Action(RAISE, 10)),
                         (2, Action(FOLD)), (3, Action(CALL, 8))):
        GAME.apply(state, seat, action)
    assert state.phase is Phase.DRAW
    assert state.pots.put == [4, 11, 1, 11, 3]
    state.turn = knocker
    rig(state, {knocker: "AS 2S 3S 7H 7D 7C 9H 10H JH"}, stock="QH")
    GAME.apply(state, knocker, Action(DRAW, value=STOCK))
    events = GAME.apply(state, knocker, Action(KNOCK))
    return state, [e.body for e in events if isinstance(e.body, PifPafPotWon)]


@pytest.mark.parametrize(("knocker", "won", "stacks"), [
    # The main pot (3 from each live seat and seat 2's folded ante) to seat 4; the first side pot
    # (seats 0, 1, 3) to seat 0, the first after seat 4 in it; the second (1 and 3) skips seat 0.
    (4, [(4, 13), (0, 3), (1, 14)], [3, 33, 29, 19, 13]),
    (0, [(0, 13), (0, 3), (1, 14)], [16, 33, 29, 19, 0]),
    (3, [(3, 13), (3, 3), (3, 14)], [0, 19, 29, 49, 0]),
    (1, [(1, 13), (1, 3), (1, 14)], [0, 49, 29, 19, 0]),
])
def test_side_pots_of_a_knock_go_to_the_next_live_player_after_the_knocker_who_is_in_them(
    knocker: int, won: list[tuple[int, int]], stacks: list[int]
) -> None:
    """RULES §1: the knocker takes every pot they are in; each other pot goes to the first seat after them in it."""
    state, pots = short_stacked(knocker)
    assert pots == [PifPafPotWon(s, chips, i > 0, False) for i, (s, chips) in enumerate(won)]
    assert state.stacks == stacks and sum(stacks) == 4 + 30 * 3 + 3


# -- the session -------------------------------------------------------------------------------
def test_rebuy_restocks_a_busted_player() -> None:
    state, _ = GAME.start(GAME.options({"chips": 3, "rebuy": True}), seats(3), 1)
    state.stacks[1] = 0
    state.result = RummyResult((0, 0, 0), 0, None, ())
    GAME.next_hand(state, 4)
    assert state.dealer == 0  # the winner deals
    assert state.stacks[1] == 3 - 1
    state.hand_log.finish({})
    head = state.hand_log.history()
    assert head is not None
    assert head["rebuys"] == {"1": 3} and head["start"]["1"] == 3


def test_dealer_rotates_with_the_option() -> None:
    state = new(3, chips=2, dealer="rotate")
    GAME.apply(state, 1, Action(BET, 1))
    GAME.apply(state, 2, Action(FOLD))
    events = GAME.apply(state, 0, Action(FOLD))
    assert state.stacks == [1, 4, 1] and not GAME.match_over(state)
    assert not any(isinstance(e.body, MatchEnded) for e in events)
    GAME.next_hand(state, 3)
    assert state.dealer == 1  # rotates left, though seat 1 won


def test_the_session_ends_when_one_player_holds_every_chip() -> None:
    state = new(3, chips=1)  # everyone is all in with the ante: no betting, straight to play
    assert state.phase is Phase.DRAW and state.turn == 1
    rig(state, {1: "AS 2S 3S 7H 7D 7C 9H 10H JH"}, stock="QH")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    events = GAME.apply(state, 1, Action(KNOCK))
    assert state.stacks == [0, 3, 0] and GAME.match_over(state)
    assert MatchEnded(1) in [e.body for e in events]
    with pytest.raises(IllegalAction, match="match is over"):
        GAME.next_hand(state, 4)


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
            mine = set(view.cards)
            assert s is not None or not mine
            if s is not None and s in state.playing:
                assert sorted(view.cards) == sorted(state.hands[s])
            public = set(view.pile) | {c for st in view.seats for c in st.taken}
            assert cards_in(view, skip=("outs",)) <= mine | public
        log += GAME.apply(state, seat, choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rng))
    for e in log:
        if e.audience.public:
            assert not isinstance(e.body, CardsDealt | RummyDrawnCard)
            if isinstance(e.body, RummyDrew):
                assert (e.body.card is None) == (e.body.source is DrawSource.STOCK)
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
