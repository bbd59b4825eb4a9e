"""Cacheta rulings (docs/rules.md §2) on rigged hands: flip and wilds, points, na boa, cuts and burns; bot games."""

from __future__ import annotations

import json
import random

import pytest

from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, IllegalAction, InvalidOptions, NotYourTurn, SeatInfo
from cardtui.engine.events import CardsDealt, HandEnded, MatchEnded
from cardtui.engine.rummy.bots.cacheta import choose
from cardtui.engine.rummy.cacheta import (
    CUT,
    DECLARE,
    GAME,
    CachetaBurned,
    CachetaDeclared,
    CachetaEliminated,
    CachetaState,
)
from cardtui.engine.rummy.melds import wild_cards
from cardtui.engine.rummy.records import (
    DISCARD,
    DRAW,
    KNOCK,
    PASS,
    STOCK,
    Phase,
    RummyDrawnCard,
    RummyKnocked,
    RummyMeld,
    RummyView,
    RummyWindowClosed,
)
from cardtui.v1 import analysis_pb2
from tests.deal_rules import rummy_deal
from tests.engine.replaying import Played, check_steps, kinds, played
from tests.held import cards_in
from tests.per_game import GameTests, Hands, Reason, Short, ShortHand, Sim, Taps


def cacheta_knock() -> Played:
    """Bots play a Cacheta hand from a fixed seed to its knock."""
    bot = GAME.bot
    assert bot is not None
    rng = random.Random(2)
    return played(GAME, 3, 2, lambda st, seat, legal: bot(GAME.view(st, seat), legal, rng))


def test_a_cacheta_hand_to_its_knock() -> None:
    record, live, actors = cacheta_knock()
    steps = check_steps(GAME, record, live, actors)
    assert record["result"]["knock"] is not None
    assert "RummyKnocked" in kinds(steps[-1].events)
    for step in steps:
        view = step.view
        assert isinstance(view, RummyView) and view.cards == ()
        for s in view.seats:
            assert len(s.cards) == s.card_count, "every hand face up"
    deal = steps[0].view
    assert isinstance(deal, RummyView)
    assert [sorted(map(str, s.cards)) for s in deal.seats] == [sorted(record["deal"][str(s)]) for s in range(3)]
    end = steps[-1].view
    assert isinstance(end, RummyView) and end.result is not None and end.result.knock is not None
    knocker = next(s for s in end.seats if s.seat == end.result.knock.seat)
    melded = [c for m in end.result.knock.melds for c in m.cards]
    assert sorted(map(str, knocker.cards)) == sorted(map(str, melded)), "the knocker's hand is its melds"


REASONS = {
    "ten": Reason(
        analysis_pb2.AnalysisReason(
            knock=analysis_pb2.KnockAdvice(melded=9, outs=88, unseen=88, stock=30, discard="2S", tens=6, fewest=2)
        ),
        {
            "en": (
                "88 of the 88 unseen cards would take you out",
                "6 of them would meld all ten",
                "a knock of ten takes 2 points from every other player, one of nine 1",
                "The fewest points another player holds: 2.",
            ),
            "pt_BR": (
                "6 delas baixariam as dez",
                "bater com dez tira 2 pontos",
                "O outro jogador com menos pontos tem 2.",
            ),
            "es": (
                "6 de ellas ligarían las diez",
                "cortar con diez le quita 2 puntos",
                "El otro jugador con menos puntos tiene 2.",
            ),
        },
    ),
}
"""The analysis's reasons at this game, and what is said of each in every language (tests/per_game.py)."""


TESTS = GameTests(watched=Short(3, {"start_points": 2, "claim_ms": 500}), tournament=Short(4, {"start_points": 2}),
                  entries=8,
                  offered=frozenset({"draw:stock", "draw:pile", "discard", "knock", "cut", "pass", "declare"}),
                  usual=4, fair=(Hands(4, 12),),
                  sims=(Sim(2, {"start_points": 1}, 3, "normal", frozenset({"flip", "standings"})),
                        Sim(5, {"tournament": True}, 3, "normal", frozenset({"flip"})),
                        Sim(8, {}, 1, "easy", frozenset({"flip"}))),
                  seldom=((2, "rebuild"), (6, "rebuild")),
                  short_hand=ShortHand({1: "AS 2S 3S 4H 5H 6H 7C 8C KD", 0: "7S 8S 9S 10D JD QD 4C 5C KH"}, (1, 0),
                                       "2D", "QC JH 9C"),
                  fair_short=(2, 580), by_name=True,
                  taps=Taps(("2", "3"), fields=(("Time to claim a discard (ms)", "500"),)), reasons=REASONS,
                  replayed=cacheta_knock, deal=rummy_deal)
"""This game's rows in the shared tests that keep one for each game (tests/per_game.py)."""


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"p{i}") for i in range(n)]


def new(n: int = 3, flip: str = "4C", **options: object) -> CachetaState:
    state, _ = GAME.start(GAME.options(options), seats(n), seed=5)
    state.flip = Card.parse(flip)
    state.wilds = wild_cards(state.flip)
    return state


def rig(state: CachetaState, hands: dict[int, str], stock: str = "", pile: str = "") -> None:
    for s, text in hands.items():
        state.hands[s] = list(parse_cards(text))
    if stock:
        state.stock = list(parse_cards(stock))
    state.pile = list(parse_cards(pile))


def on_turn(state: CachetaState, seat: int) -> None:
    """Rig whose turn it is (to draw): a declaration is made on one's own turn or in a window."""
    state.turn = seat
    state.phase = Phase.DRAW


def pass_window(state: CachetaState) -> None:
    while state.phase is Phase.CLAIM:
        GAME.apply(state, GAME.to_act(state)[0], Action(PASS))


def test_deal_flip_and_wilds() -> None:
    state, events = GAME.start(GAME.options({}), seats(2), 3)
    assert state.flip is not None and len(state.stock) == 104 - 18 - 1
    assert state.wilds == wild_cards(state.flip)
    assert wild_cards(Card.parse("KH")) == parse_cards("AH AD")  # K → A, the flip's colour
    assert wild_cards(Card.parse("8C")) == parse_cards("9S 9C")
    assert state.playing == [1, 0] and state.turn == 1 and state.stacks == [10, 10]
    view = GAME.view(state, None)
    assert view.flip == state.flip and view.wilds == state.wilds and view.cards == ()
    assert view.rules.wild_acts and view.rules.ace_high and view.rules.group_suits == "atleast3"
    assert [type(e.body).__name__ for e in events][-1] == "CachetaFlipped"
    with pytest.raises(InvalidOptions):
        GAME.options({"start_points": 0})
    with pytest.raises(InvalidOptions, match="2, 3, 4, 5, 6, 7, 8 players, not 1"):
        GAME.start(GAME.options({}), seats(1), 1)
    assert GAME.start(GAME.options({"start_points": 5}), seats(2), 3)[0].stacks == [5, 5]


def test_knock_with_ten_costs_two_and_with_nine_one() -> None:
    state = new(3)  # black fives are wild
    rig(state, {1: "AS 2S 3S 7H 7D 7C 9H 10H 5S"}, stock="KD QH")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))  # QH: 9H 10H + wild 5S + QH... all ten meld
    assert Action(KNOCK) in GAME.legal_actions(state, 1)
    events = GAME.apply(state, 1, Action(KNOCK))
    assert state.stacks == [8, 10, 8]
    assert state.result is not None and state.result.deltas == (-2, 0, -2)
    assert state.result.knock is not None and state.result.knock.discard is None
    knocked = next(e.body for e in events if isinstance(e.body, RummyKnocked))
    assert RummyMeld(parse_cards("9H 10H QH 5S"), Card.parse("5S")) in knocked.melds  # 5S acts as JH
    assert HandEnded((-2, 0, -2), 1) in [e.body for e in events]
    GAME.next_hand(state, 7)
    assert state.dealer == 1 and state.turn == 2  # the deal passes left; its left starts
    state.wilds = wild_cards(Card.parse("4C"))
    rig(state, {2: "AS 2S 3S 7H 7D 7C 9H 10H KC"}, stock="JH")
    GAME.apply(state, 2, Action(DRAW, value=STOCK))
    GAME.apply(state, 2, Action(KNOCK, cards=parse_cards("KC")))
    assert state.stacks == [7, 9, 8]


def test_ace_at_both_ends_never_round_the_corner() -> None:
    state = new(3, flip="4C")
    rig(state, {1: "QS KS 7H 7D 7C 9H 10H JH 3D"}, stock="AS")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    assert Action(KNOCK, cards=parse_cards("3D")) in GAME.legal_actions(state, 1)  # Q-K-A
    state2 = new(3, flip="4C")
    rig(state2, {1: "KS 2S 7H 7D 7C 9H 10H JH 3D"}, stock="AS")
    GAME.apply(state2, 1, Action(DRAW, value=STOCK))
    assert not GAME.knocks(state2, 1)  # K-A-2 never


def test_at_most_one_wild_acts_in_a_meld() -> None:
    state = new(3, flip="4C")  # 5S and 5C are wild
    rig(state, {1: "AS 2S 3S 4D 5D 6D 9H 5S 5C"}, stock="KD")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    assert not GAME.knocks(state, 1)  # 9H with both wilds acting would be two in one meld
    state2 = new(3, flip="4C")
    rig(state2, {1: "AS 2S 3S 4D 5D 6D 9H 5S 5C"}, stock="10H")
    GAME.apply(state2, 1, Action(DRAW, value=STOCK))
    # 9H 10H and one wild acting; the other wild goes as the discard (or stands in A-2-3-4-5).
    assert GAME.knocks(state2, 1)


def test_points_floor_at_zero_and_last_player_wins() -> None:
    state = new(3, tournament=True)
    state.stacks[:] = [1, 10, 2]
    rig(state, {1: "AS 2S 3S 7H 7D 7C 9H 10H JH"}, stock="QH")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    events = GAME.apply(state, 1, Action(KNOCK))
    assert state.stacks == [0, 10, 0]  # the player on 1 loses 1, not 2
    assert GAME.match_over(state)
    assert state.result is not None and state.result.deltas == (-1, 0, -2)
    assert state.result.eliminated == (2, 0)
    bodies = [e.body for e in events]
    assert CachetaEliminated(0) in bodies and CachetaEliminated(2) in bodies and MatchEnded(1) in bodies
    # Both out in the same hand: a tie for second place scores 2 VP each.
    rows = {r.seat: r for r in state.standings}
    assert rows[1].place == 1 and rows[1].vp == 5
    assert rows[0].place == rows[2].place == 2 and rows[0].vp == rows[2].vp == 2
    assert rows[1].gp == 2 and rows[0].gp == 1
    assert GAME.view(state, None).standings == state.standings
    record = GAME.history(state)
    assert record is not None and record["standings"][0] == {"seat": 1, "place": 1, "points": 10, "vp": 5,
                                                                       "gp": 2}


def test_tournament_places_score_5_3_2_0() -> None:
    """docs/rules.md §2, **option** ``tournament``: VP 5/3/2/0 by place (second 3, third 2,
    the fourth and last 0); players out in different hands take different places."""
    state = new(4, tournament=True)
    state.stacks[:] = [2, 10, 4, 4]

    def knock_with_ten(seat: int) -> None:
        """``seat`` is on turn: it draws QH and goes out with ten cards (every opponent loses 2)."""
        assert state.turn == seat
        state.flip, state.wilds = Card.parse("4C"), wild_cards(Card.parse("4C"))  # black fives wild
        rig(state, {seat: "AS 2S 3S 7H 7D 7C 9H 10H JH"}, stock="QH")
        GAME.apply(state, seat, Action(DRAW, value=STOCK))
        GAME.apply(state, seat, Action(KNOCK))

    knock_with_ten(1)
    assert state.stacks == [0, 10, 2, 2] and not GAME.match_over(state)  # seat 0 is out first
    GAME.next_hand(state, 7)
    knock_with_ten(2)
    assert state.stacks == [0, 8, 2, 0] and not GAME.match_over(state)  # then seat 3
    GAME.next_hand(state, 8)
    knock_with_ten(1)  # seats 3 and 0 are out: left of dealer 2, seat 1 starts
    assert state.stacks == [0, 8, 0, 0] and GAME.match_over(state)  # then seat 2; seat 1 wins
    rows = {r.seat: (r.place, r.vp) for r in state.standings}
    assert rows == {1: (1, 5), 2: (2, 3), 3: (3, 2), 0: (4, 0)}  # a sole second 3, the last 0
    record = GAME.history(state)
    assert record is not None
    assert [(r["seat"], r["vp"]) for r in record["standings"]] == [(1, 5), (2, 3), (3, 2), (0, 0)]


def test_declare_cut_and_burn() -> None:
    state = new(4)  # black fives wild
    rig(state, {
        1: "2D 3D 4D 8S 8H 8D QC KC JD",
        2: "AS 2S 3S 7H 7D 7C 9H 10H KD",   # na boa on 8H / JH / wilds
        3: "4H 4D 4S JS JH JC 6C 7C KH",     # na boa on 5C(wild)/8C
        0: "2C 3C 6S 9S 9D 10C QS QD AH",
    }, stock="5H 2H")
    assert Action(DECLARE) not in GAME.legal_actions(state, 2), "seat 1's turn: not seat 2's time to declare"
    with pytest.raises(IllegalAction, match="own turn or in a claim window"):
        GAME.apply(state, 2, Action(DECLARE))
    on_turn(state, 0)
    assert Action(DECLARE) not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="only when"):
        GAME.apply(state, 0, Action(DECLARE))
    on_turn(state, 2)  # rigged: as if seats 2 and 3 had had their turns
    assert Action(DECLARE) in GAME.legal_actions(state, 2)
    events = GAME.apply(state, 2, Action(DECLARE))
    assert events[0].audience.public and events[0].body == CachetaDeclared(2) and GAME.view(state, 0).seats[2].declared
    with pytest.raises(IllegalAction, match="already declared"):
        GAME.apply(state, 2, Action(DECLARE))
    on_turn(state, 3)
    GAME.apply(state, 3, Action(DECLARE))
    on_turn(state, 1)
    GAME.apply(state, 1, Action(DRAW, value=STOCK))  # 2H
    with pytest.raises(IllegalAction, match="nine cards"):
        GAME.apply(state, 1, Action(DECLARE))
    GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("KC")))
    # Both declared players may try to cut; the window waits on them only.
    assert GAME.to_act(state) == (2, 3)
    assert Action(CUT) in GAME.legal_actions(state, 2) and Action(CUT) in GAME.legal_actions(state, 3)
    assert GAME.legal_actions(state, 0) == []
    assert GAME.view(state, 0).to_act == (2, 3, 0)
    with pytest.raises(IllegalAction, match="declared"):
        GAME.apply(state, 0, Action(CUT))
    # KC does not complete seat 2: burned as soon as no seat before it may still cut, here at once,
    # and told once (not again when the window closes)
    events = GAME.apply(state, 2, Action(CUT))
    assert CachetaBurned(2, Card.parse("KC")) in [e.body for e in events if e.audience.public]
    events = GAME.apply(state, 3, Action(PASS))
    assert [e.body for e in events if e.audience.public] == [RummyWindowClosed(Card.parse("KC"), None)]
    assert 2 in state.burned and not GAME.hand_over(state)
    assert state.pile[-1] == Card.parse("KC")  # the card goes back
    assert GAME.view(state, None).seats[2].burned
    assert state.turn == 2 and state.phase is Phase.DRAW
    GAME.apply(state, 2, Action(DRAW, value=STOCK))  # 5H
    GAME.apply(state, 2, Action(DISCARD, cards=parse_cards("5H")))
    pass_window(state)
    GAME.apply(state, 3, Action(DRAW, value=STOCK))  # the stock is rebuilt from the pile
    drawn = state.hands[3][-1]
    GAME.apply(state, 3, Action(DISCARD, cards=(drawn,)))
    pass_window(state)
    state.hands[0][-1] = Card.parse("8C")
    GAME.apply(state, 0, Action(DRAW, value=STOCK))
    GAME.apply(state, 0, Action(DISCARD, cards=parse_cards("8C")))
    assert GAME.legal_actions(state, 2) == []  # burned: no more cuts
    with pytest.raises(IllegalAction, match="burned"):
        GAME.apply(state, 2, Action(CUT))
    assert GAME.to_act(state) == (3,)
    GAME.apply(state, 3, Action(CUT))
    assert state.phase is Phase.KNOCK and state.turn == 3
    GAME.apply(state, 3, GAME.legal_actions(state, 3)[0])
    assert GAME.hand_over(state) and state.result is not None and state.result.knock is not None
    assert state.result.knock.seat == 3 and state.result.winner == 3 and state.result.knock.claimed == Card.parse("8C")
    record = GAME.history(state)
    assert record is not None
    cuts = [(a["seat"], a["outcome"]) for a in record["actions"] if a["type"] == CUT]
    assert cuts == [(2, "burned"), (3, "took")]


def test_first_cutter_after_the_discarder_wins() -> None:
    state = new(4)
    rig(state, {
        1: "2D 3D 4D 8S 8H 8D QC KC 9H",
        2: "AS 2S 3S 7H 7D 7C 10H JH QS",   # goes out with 9H (or KH), discarding QS
        3: "6H 6D 6C JS JH JD 10H 8H QH",   # goes out with 9H too
        0: "2C 3C 6S 9S 9D 10C QS QD AH",
    }, stock="2H")
    on_turn(state, 2)  # rigged: as if seats 2 and 3 had declared on their turns
    GAME.apply(state, 2, Action(DECLARE))
    on_turn(state, 3)
    GAME.apply(state, 3, Action(DECLARE))
    on_turn(state, 1)
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("9H")))
    GAME.apply(state, 3, Action(CUT))
    assert state.phase is Phase.CLAIM
    GAME.apply(state, 2, Action(CUT))
    assert state.phase is Phase.KNOCK and state.turn == 2
    GAME.apply(state, 2, Action(KNOCK, cards=parse_cards("QS")))
    assert state.result is not None and state.result.winner == 2
    assert 3 not in state.burned


def test_na_boa_counts_from_the_next_discard_on() -> None:
    """RULES §2: declaring inside the window of a discard does not let the player cut that discard."""
    state = new(4)  # black fives wild
    rig(state, {
        1: "2D 3D 4D 8S 8H 8D QC KC JD",
        2: "AS 2S 3S 7H 7D 7C 9H 10H KD",   # goes out with 8H or JH
        3: "4H 4D 4S JS JH JC 6C 7C KH",     # declared: goes out with 8C or a wild 5
        0: "2C 3C 6S 9S 9D 10C QS QD AH",
    }, stock="8H QD 2H")
    on_turn(state, 3)  # rigged: seat 3 declared on its turn
    GAME.apply(state, 3, Action(DECLARE))
    on_turn(state, 1)
    GAME.apply(state, 1, Action(DRAW, value=STOCK))  # 2H
    GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("JD")))
    assert state.phase is Phase.CLAIM and GAME.to_act(state) == (3,)
    GAME.apply(state, 2, Action(DECLARE))  # in the window of JD, which would not do anyway
    assert GAME.legal_actions(state, 2) == []
    with pytest.raises(IllegalAction, match="counts from the next discard on"):
        GAME.apply(state, 2, Action(CUT))
    GAME.apply(state, 3, Action(PASS))
    GAME.apply(state, 2, Action(DRAW, value=STOCK))  # QD
    GAME.apply(state, 2, Action(DISCARD, cards=parse_cards("QD")))
    GAME.apply(state, 3, Action(PASS))
    # The next discard after the declaration: 8H completes seat 2, who may cut it.
    GAME.apply(state, 3, Action(DRAW, value=STOCK))  # 8H
    GAME.apply(state, 3, Action(DISCARD, cards=parse_cards("8H")))
    assert GAME.to_act(state) == (2,) and GAME.legal_actions(state, 2) == [Action(PASS), Action(CUT)]
    GAME.apply(state, 2, Action(CUT))
    GAME.apply(state, 2, Action(KNOCK, cards=parse_cards("KD")))
    assert state.result is not None and state.result.winner == 2


def test_redaction_and_spectators() -> None:
    state, events = GAME.start(GAME.options({}), seats(3), 11)
    rng = random.Random(4)
    for _ in range(150):
        if GAME.hand_over(state):
            break
        for s in (0, 1, 2, None):
            view = GAME.view(state, s)
            mine = set(view.cards)
            assert s is not None or not mine
            public = set(view.pile) | {c for st in view.seats for c in st.taken} | set(view.wilds)
            public |= {view.flip} if view.flip else set()
            assert cards_in(view, skip=("outs",)) <= mine | public
        seat = GAME.to_act(state)[0]
        events += GAME.apply(state, seat, choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rng))
    for e in events:
        if isinstance(e.body, CardsDealt | RummyDrawnCard):
            assert not e.audience.public and e.audience.seats == frozenset({e.body.seat})


def test_a_seat_out_of_points_is_not_dealt_in() -> None:
    state = new(3)
    state.stacks[:] = [0, 10, 10]
    rig(state, {1: "AS 2S 3S 7H 7D 7C 9H 10H JH"}, stock="QH")
    GAME.apply(state, 1, Action(DRAW, value=STOCK))
    GAME.apply(state, 1, Action(KNOCK))
    GAME.next_hand(state, 3)
    assert state.dealer == 1 and state.playing == [2, 1] and state.hands[0] == []
    assert GAME.view(state, 0).seats[0].status == "out" and GAME.legal_actions(state, 0) == []
    with pytest.raises(NotYourTurn, match="not in this hand"):
        GAME.apply(state, 0, Action(DECLARE))


@pytest.mark.parametrize("players", range(2, 9))
def test_bot_games_follow_the_points_and_replay(players: int) -> None:
    rng = random.Random(players)
    state, _ = GAME.start(GAME.options({"start_points": 4, "tournament": True}), seats(players), players)
    hands = 0
    while not GAME.match_over(state):
        before = list(state.stacks)
        steps = 0
        while not GAME.hand_over(state):
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            GAME.apply(state, seat, choose(GAME.view(state, seat), legal, rng))
            steps += 1
            assert steps < 5000, "the hand did not finish"
        record = GAME.history(state)
        assert record is not None and record["flip"]
        knock = record["result"]["knock"]
        loss = 2 if knock["discard"] is None else 1
        for s in range(players):
            expected = 0 if s == knock["seat"] or before[s] == 0 else -min(loss, before[s])
            assert record["result"]["deltas"][str(s)] == expected
            assert state.stacks[s] == before[s] + expected
        json.dumps(record)
        assert GAME.replay(record).result == state.result
        hands += 1
        if not GAME.match_over(state):
            GAME.next_hand(state, rng.randrange(1 << 30))
    assert sum(1 for p in state.stacks if p > 0) == 1
    assert sorted(r.vp or 0 for r in state.standings)[-1] == 5


def test_bots_go_out_quickly(capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(7)
    quick = played = 0
    state, _ = GAME.start(GAME.options({"start_points": 100}), seats(4), 1)
    for _ in range(30):
        while not GAME.hand_over(state):
            seat = GAME.to_act(state)[0]
            GAME.apply(state, seat, choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rng))
        record = GAME.history(state)
        assert record is not None
        seat = record["result"]["knock"]["seat"]
        turns = sum(1 for a in record["actions"] if a["seat"] == seat and a["type"] in (DRAW, CUT))
        played += 1
        quick += turns <= 15
        GAME.next_hand(state, rng.randrange(1 << 30))
    with capsys.disabled():
        print(f"\nCacheta bots (4 players): winner out within 15 turns in {quick / played:.0%} of hands")
    assert quick / played >= 0.5


def test_na_boa_is_declared_on_ones_own_turn_or_in_a_claim_window() -> None:
    """RULES §2: a player one card from knocking declares on their own turn or in any claim window."""
    state = new(4)  # black fives wild
    rig(state, {
        1: "2D 3D 4D 8S 8H 8D QC KC JD",
        2: "AS 2S 3S 7H 7D 7C 9H 10H KD",   # one card from going out
        3: "4H 4D 4S JS JH JC 6C 7C KH",     # one card from going out
        0: "AC 2C 3C 6S 6H 6D 9D 10D QD",    # one card from going out
    }, stock="9C QS 2H")
    assert state.turn == 1 and state.phase is Phase.DRAW
    for seat in (2, 3, 0):  # seat 1 is drawing: nobody else may declare now
        assert Action(DECLARE) not in GAME.legal_actions(state, seat)
        with pytest.raises(NotYourTurn, match="own turn or in a claim window"):
            GAME.apply(state, seat, Action(DECLARE))
    assert not state.declared
    GAME.apply(state, 1, Action(DRAW, value=STOCK))  # 2H
    GAME.apply(state, 1, Action(DISCARD, cards=parse_cards("JD")))
    # Nobody had declared: the window on JD had nobody to wait on. Seat 2's own turn, before drawing:
    assert state.turn == 2 and state.phase is Phase.DRAW
    GAME.apply(state, 2, Action(DECLARE))
    GAME.apply(state, 2, Action(DRAW, value=STOCK))  # QS
    GAME.apply(state, 2, Action(DISCARD, cards=parse_cards("QS")))
    assert state.turn == 3 and state.phase is Phase.DRAW  # seat 2 discarded: nobody else may cut QS
    GAME.apply(state, 3, Action(DECLARE))  # after drawing it would hold ten: its turn, before the draw
    GAME.apply(state, 3, Action(DRAW, value=STOCK))  # 9C
    GAME.apply(state, 3, Action(DISCARD, cards=parse_cards("9C")))
    # The window on 9C waits on seat 2 only, and seat 0 may declare in it.
    assert state.phase is Phase.CLAIM and GAME.to_act(state) == (2,)
    assert Action(DECLARE) in GAME.legal_actions(state, 0)
    GAME.apply(state, 0, Action(DECLARE))
    assert set(state.declared) == {0, 2, 3}
