"""Cacho, docs/rules.md §5: scripted hands on rigged cards, legal-action counts, random play."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtui.engine.betting import BET as OPEN
from cardtui.engine.betting import CALL, CHECK, FOLD, RAISE
from cardtui.engine.cacho.rules import (
    BET,
    CACHO,
    DECK,
    FLUSH2,
    GAME,
    HIGH,
    PASS,
    SIXES,
    CachoState,
    CachoView,
    strength,
)
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, GameView, IllegalAction, NotYourTurn, SeatInfo
from cardtui.v1 import analysis_pb2
from tests.deal_rules import order_from
from tests.engine.replaying import Played, check_steps, kinds, played
from tests.per_game import BETTING, GameTests, Hands, Reason, Short, Sim, Taps


def every_card_face_up_cacho(view: GameView) -> None:
    assert isinstance(view, CachoView)
    for s in view.seats:
        assert len(s.cards) == s.card_count


def cacho_redeal_and_showdown() -> Played:
    """Everyone passes round 1 (a redeal), then everyone bets, bets again and checks to a showdown."""
    script = iter(["pass"] * 3 + ["bet"] * 3 + ["bet"] * 3 + ["check"] * 3)

    def choose(state: Any, seat: int, legal: list[Action]) -> Action:
        kind = next(script)
        return next(a for a in legal if a.type == kind)

    return played(GAME, 3, 11, choose)


def test_a_cacho_hand_with_a_redeal_and_a_showdown() -> None:
    record, live, actors = cacho_redeal_and_showdown()
    assert any(a["type"] == "redeal" and a["seat"] is None for a in record["actions"])
    steps = check_steps(GAME, record, live, actors)
    assert len(steps) == 13  # the deal and twelve actions: the redeal is no step of its own
    assert kinds(steps[0].events)[:2] == ["HandStarted", "CachoRoundDealt"]
    assert kinds(steps[0].events).count("CardsDealt") == 3
    assert kinds(steps[3].events) == ["Acted", "CachoRedealt", "CachoRoundDealt", *["CardsDealt"] * 3]
    assert kinds(steps[-1].events)[:4] == ["Acted", "CachoShowed", "CachoShowed", "CachoShowed"]
    for step in steps:
        every_card_face_up_cacho(step.view)
    deal, end = steps[0].view, steps[-1].view
    assert isinstance(deal, CachoView) and isinstance(end, CachoView)
    assert all(len(s.cards) == 1 for s in deal.seats) and deal.round == 1
    assert all(len(s.cards) == 3 and s.strength is not None for s in end.seats)
    assert end.result is not None and len(end.result.showdown) == 3
    assert [s.cards for s in end.seats] == [
        tuple(Card.parse(c) for c in record["result"]["showdown"][str(s)]) for s in range(3)
    ]
    # The deal before the redeal is shown until it is voided: the third pass's step shows the new one.
    voided = next(a for a in record["actions"] if a["type"] == "redeal")["voided"]
    before, after = steps[2].view, steps[3].view
    assert isinstance(before, CachoView) and isinstance(after, CachoView)
    assert [[str(c) for c in s.cards] for s in before.seats] == [voided[str(s)] for s in range(3)]
    assert [[str(c) for c in s.cards] for s in after.seats] == [record["deal"][str(s)][:1] for s in range(3)]


def cacho_deal(vector: dict[str, Any]) -> dict[str, list[str]]:
    """§10.1: a card a round from the end of the pack to each seat still in, eldest first; a
    redeal (an action by nobody) voids the cards and deals from the next pack."""
    record = vector["history"]
    n = len(record["seats"])
    playing = [s for s in order_from(record["dealer"], n) if record["start"][str(s)] > 0]
    packs = [list(p) for p in vector["packs"]]
    pack = packs.pop(0)
    held: dict[int, list[str]] = {s: [] for s in range(n)}
    live = list(playing)
    for s in live:
        held[s].append(pack.pop())
    out_round: set[int] = set()
    bettors: list[int] = []
    round_no, spoke = 1, 0
    for a in record["actions"]:
        if a["type"] == "redeal":
            assert a["voided"] == {str(s): held[s] for s in playing}
            pack, held = packs.pop(0), {s: [] for s in range(n)}
            for s in live:
                held[s].append(pack.pop())
            spoke = 0
            continue
        if round_no < 3:
            spoke += 1
            if a["type"] == "bet":
                bettors.append(a["seat"])
            if spoke == len(live) and (bettors or round_no == 2):  # round over; round 1 with no bet: a redeal
                out_round = {s for s in live if s not in bettors} if bettors else set()
                live = [s for s in live if s not in out_round]
                round_no, spoke, bettors = round_no + 1, 0, []
                if len(live) > 1:
                    for s in live:
                        held[s].append(pack.pop())
    assert not packs
    return {str(s): held[s] for s in range(n)}


REASONS = {
    "bet": Reason(
        analysis_pb2.AnalysisReason(
            bet=analysis_pb2.BetAdvice(pot=23, call=17, needed=0.425, chance=0.07, opponents=1, chance_all=0.07)
        ),
        {
            "en": (
                "The pot held 23 chips and staying in cost 17",
                "42%",
                "yours wins 7% of the time",
                "That is less than the pot odds ask for.",
            ),
            "pt_BR": (
                "O pote tinha 23 fichas e continuar custava 17",
                "42%",
                "a sua ganha 7% das vezes",
            ),
            "es": (
                "El pozo tenía 23 fichas y seguir costaba 17",
                "42%",
                "la tuya gana el 7% de las veces",
            ),
        },
    ),
    "bets": Reason(
        analysis_pb2.AnalysisReason(
            bet=analysis_pb2.BetAdvice(pot=6, call=4, needed=0.4, chance=0.44, opponents=2, chance_all=0.1936)
        ),
        {
            "en": (
                "yours wins 44% of the time",
                "Against both other players still in, about 19%.",
                "That is less than the pot odds ask for.",
            ),
            "pt_BR": (
                "cerca de 19%",
                "Isso é menos do que as odds do pote pedem.",
            ),
            "es": (
                "cerca del 19%",
                "Eso es menos de lo que piden las odds del pozo.",
            ),
        },
    ),
}
"""The analysis's reasons at this game, and what is said of each in every language (tests/per_game.py)."""


TESTS = GameTests(watched=Short(4, {"chips": 3}), tournament=Short(3, {"chips": 3}), entries=7,
                  offered=frozenset({"pass"}) | BETTING, usual=4, fair=(Hands(4, 120),),
                  sims=(Sim(2, {}, 20, "easy"), Sim(4, {"chips": 3}, 20, "easy")),
                  seldom=((2, "redeal"), (4, "redeal")), tampered=True, taps=Taps(("2", "3")), reasons=REASONS,
                  replayed=cacho_redeal_and_showdown, deal=cacho_deal)
"""This game's rows in the shared tests that keep one for each game (tests/per_game.py)."""


pass_, bet = Action(PASS), lambda n: Action(BET, n)


def table(n: int = 3, chips: int = 20, seed: int = 1) -> CachoState:
    seats = [SeatInfo(i, f"p{i}", i) for i in range(n)]
    state, _ = GAME.start(GAME.options({"chips": chips}), seats, seed)
    return state


def rig(state: CachoState, first: str, later: str = "") -> None:
    """Give each player (eldest first) the round-1 card in ``first``; ``later`` is dealt next, in order."""
    for seat, card in zip(state.playing, parse_cards(first), strict=True):
        state.hands[seat] = [card]
    state.deck = list(reversed(parse_cards(later)))


# -- the pack ----------------------------------------------------------------------
def test_the_pack_is_24_cards_ace_to_six_of_each_suit() -> None:
    """docs/rules.md §5: 24 cards (A–6 of each French suit); 6 high, ace low. Every hand is dealt from it."""
    assert len(DECK) == 24 and len(set(DECK)) == 24
    assert sorted(map(str, DECK)) == sorted(f"{r}{s}" for r in ("A", "2", "3", "4", "5", "6") for s in "SHDC")
    assert strength(parse_cards("6S 5H 4D")) > strength(parse_cards("AS 5H 4D"))  # 6 high, ace low
    s = table(4)
    dealt = [c for h in s.hands for c in h]
    assert len(dealt) == 4 and sorted(dealt + s.deck) == sorted(DECK)


# -- showdown categories -----------------------------------------------------------
def test_categories_rank_in_order() -> None:
    assert strength(parse_cards("6S 6H 6D")) == (SIXES, 18)
    assert strength(parse_cards("AD 4D 5D")) == (CACHO, 30)  # the seed's example
    assert strength(parse_cards("4S 2S 6D")) == (FLUSH2, 26)  # the seed's example
    assert strength(parse_cards("6S 5H 4D")) == (HIGH, 6)
    # A higher kind always wins, whatever the points.
    assert strength(parse_cards("AS 2S 3S")) > strength(parse_cards("6S 5S 4H"))
    assert strength(parse_cards("AS 2S 3H")) > strength(parse_cards("6S 5H 4D"))
    assert strength(parse_cards("6S 6H 6D")) > strength(parse_cards("6C 5C 4C"))


def test_eldest_wins_equal_hands() -> None:
    s = table(3)
    eldest, second, dealer = s.playing
    assert s.dealer == dealer
    rig(s, "2S 2H 3D", "3S 3H 4C 4S 4H")
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    for seat in (eldest, second):
        GAME.apply(s, seat, bet(2))
    GAME.apply(s, dealer, pass_)
    # eldest: 2S 3S 4S? no: deck order deals 3S, 3H to round 2, 4C 4S to round 3.
    # eldest holds 2S 3S 4C (two of a suit: 25); second holds 2H 3H 4S (two of a suit: 25).
    GAME.apply(s, eldest, Action(CHECK))
    GAME.apply(s, second, Action(CHECK))
    assert s.result is not None
    assert s.result["winner"] == eldest
    assert s.result["deltas"] == {str(eldest): 4, str(second): -3, str(dealer): -1}


# -- round 1 -------------------------------------------------------------------------
def test_all_pass_in_round_one_redeals() -> None:
    s = table(3)
    hand_no = s.hand_no
    events = []
    for seat in list(s.playing):
        events += GAME.apply(s, seat, pass_)
    assert [e.kind for e in events].count("CachoRedealt") == 1
    assert s.round == 1 and s.hand_no == hand_no and s.result is None
    assert all(len(s.hands[p]) == 1 for p in s.playing)
    assert s.stacks == [20, 20, 20]


def test_round_one_passers_lose_nothing_and_a_lone_bettor_takes_back_the_pot() -> None:
    s = table(3)
    a, b, c = s.playing
    GAME.apply(s, a, pass_)
    GAME.apply(s, b, bet(1))
    assert s.stacks[b] == 19
    GAME.apply(s, c, pass_)
    assert s.result is not None and s.result["winner"] == b
    assert s.stacks == [20, 20, 20]
    assert sum(s.result["deltas"].values()) == 0


def test_round_one_offers_pass_or_bet_one_only_to_the_seat_on_turn() -> None:
    s = table(4)
    first = s.playing[0]
    assert GAME.legal_actions(s, first) == [pass_, bet(1)]
    for other in s.playing[1:]:
        assert GAME.legal_actions(s, other) == []
        with pytest.raises(NotYourTurn):
            GAME.apply(s, other, bet(1))
    with pytest.raises(IllegalAction, match="pass or bet 1"):
        GAME.apply(s, first, bet(2))
    with pytest.raises(IllegalAction):
        GAME.apply(s, first, Action(RAISE, 5))
    assert s.pots.total == 0 and s.stacks == [20] * 4  # refusals change nothing


# -- round 2 -------------------------------------------------------------------------
def test_round_two_passers_lose_their_chip() -> None:
    s = table(3)
    a, b, c = s.playing
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    assert s.round == 2 and all(len(s.hands[p]) == 2 for p in s.playing)
    GAME.apply(s, a, bet(2))
    GAME.apply(s, b, pass_)
    GAME.apply(s, c, pass_)
    # One bettor left: takes the pot unseen, the passers' single chips with it.
    assert s.result is not None and s.result["winner"] == a
    assert s.stacks[a] == 22 and s.stacks[b] == 19 and s.stacks[c] == 19
    assert s.result["showdown"] == {}


def test_all_pass_in_round_two_everyone_stays() -> None:
    s = table(3)
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    for seat in s.playing:
        GAME.apply(s, seat, pass_)
    assert s.round == 3 and s.in_hand == s.playing
    assert all(len(s.hands[p]) == 3 for p in s.playing)
    assert s.pots.total == 3


def test_round_two_bettors_go_on_and_passers_are_out() -> None:
    s = table(4)
    a, b, c, d = s.playing
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    GAME.apply(s, a, bet(2))
    GAME.apply(s, b, pass_)
    GAME.apply(s, c, bet(2))
    GAME.apply(s, d, pass_)
    assert s.round == 3 and s.in_hand == [a, c]
    assert len(s.hands[b]) == 2  # no third card for those out
    assert s.pots.total == 8


# -- round 3 and the resto -----------------------------------------------------------
def test_resto_caps_raises_at_the_smallest_stack_still_in() -> None:
    s = table(3)
    s.stacks = [20, 9, 30]
    a, b, _ = s.playing
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    for seat in s.playing:
        GAME.apply(s, seat, bet(2))
    assert s.round == 3
    smallest = min(s.stacks[x] for x in s.playing)
    legal = GAME.legal_actions(s, a)
    assert [x.type for x in legal[:2]] == [FOLD, CHECK]
    amounts = [x.amount for x in legal if x.type == OPEN]
    assert amounts == list(range(1, smallest + 1))
    with pytest.raises(IllegalAction):
        GAME.apply(s, a, Action(OPEN, smallest + 1))
    GAME.apply(s, a, Action(OPEN, 3))
    legal_b = GAME.legal_actions(s, b)
    assert Action(CALL, 3) in legal_b
    assert [x.amount for x in legal_b if x.type == RAISE] == list(range(4, smallest + 1))


def test_the_resto_follows_folds() -> None:
    """RULES §5: the cap is the smallest stack still in, recomputed after every fold."""
    s = table(3)
    s.stacks = [20, 8, 20]
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    for seat in s.playing:
        GAME.apply(s, seat, bet(2))
    assert s.round == 3 and s.stacks == [17, 5, 17]
    first = GAME.to_act(s)[0]
    assert max(a.amount for a in GAME.legal_actions(s, first) if a.type == OPEN) == 5
    while s.stacks[GAME.to_act(s)[0]] != 5:
        GAME.apply(s, GAME.to_act(s)[0], Action(CHECK))
    GAME.apply(s, GAME.to_act(s)[0], Action(FOLD))  # the short stack folds
    seat = GAME.to_act(s)[0]
    assert max(a.amount for a in GAME.legal_actions(s, seat) if a.type in (OPEN, RAISE)) == 17
    assert GAME.view(s, seat).cap == 17


def test_the_deepest_stacks_allowed_keep_the_legal_list_short() -> None:
    """Every bet amount is a legal action of its own: the chips option bounds how many."""
    top = int(next(spec.max for spec in GAME.option_specs if spec.name == "chips"))
    assert top == 1_000
    s = table(2, chips=top)
    for _ in range(2):
        for seat in s.playing:
            GAME.apply(s, seat, bet(s.round))
    assert s.round == 3
    legal = GAME.legal_actions(s, GAME.to_act(s)[0])
    amounts = [x.amount for x in legal if x.type == OPEN]
    assert amounts == list(range(1, top - 3 + 1))  # the resto: what is left after 1 + 2
    assert len(legal) <= 1_002


def test_a_redeal_is_an_action_naming_the_voided_cards() -> None:
    """Issue: a history accounts for every card: the voided ones in the redeal, the rest in ``deal``."""
    s = table(3)
    rig(s, "AS 2S 3S")
    for seat in list(s.playing):
        GAME.apply(s, seat, pass_)
    a, b, c = s.playing
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    for seat in s.playing:
        GAME.apply(s, seat, pass_)
    while s.result is None:
        GAME.apply(s, GAME.to_act(s)[0], Action(CHECK))
    record = GAME.history(s)
    assert record is not None
    redeal = next(x for x in record["actions"] if x["type"] == "redeal")
    assert redeal["seat"] is None and sorted(redeal["cards"]) == ["2S", "3S", "AS"]
    assert redeal["voided"] == {str(a): ["AS"], str(b): ["2S"], str(c): ["3S"]}
    assert {k: len(v) for k, v in record["deal"].items()} == {str(a): 3, str(b): 3, str(c): 3}
    assert GAME.replay(record).result == s.result


def test_a_pass_shows_at_once_on_the_seat() -> None:
    from cardtui.engine.cacho.rules import SeatStatus

    s = table(3)
    first = s.playing[0]
    GAME.apply(s, first, pass_)
    assert GAME.view(s, None).seats[first].status is SeatStatus.PASSED
    assert GAME.view(s, None).seats[s.playing[1]].status is SeatStatus.IN


def test_round_three_fold_leaves_one_player_who_wins_unseen() -> None:
    s = table(2)
    a, b = s.playing
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    for seat in s.playing:
        GAME.apply(s, seat, bet(2))
    GAME.apply(s, a, Action(OPEN, 4))
    GAME.apply(s, b, Action(FOLD))
    assert s.result is not None and s.result["winner"] == a
    assert s.result["showdown"] == {}
    assert s.result["deltas"] == {str(a): 3, str(b): -3}


def test_calls_without_raise_go_to_showdown_and_best_kind_wins() -> None:
    s = table(2)
    a, b = s.playing
    rig(s, "AS 6H", "2S 6D 3S 6C")  # a: AS 2S 3S (cacho 26); b: 6H 6D 6C (three sixes)
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    for seat in s.playing:
        GAME.apply(s, seat, bet(2))
    GAME.apply(s, a, Action(OPEN, 5))
    GAME.apply(s, b, Action(CALL, 5))
    assert s.result is not None
    assert s.result["winner"] == b
    assert s.result["showdown"] == {str(a): ["AS", "2S", "3S"], str(b): ["6H", "6D", "6C"]}
    assert s.stacks[a] == 12 and s.stacks[b] == 28


def test_the_history_records_what_a_call_moved_not_the_amount_sent_with_it() -> None:
    """A client may send a call or a fold with any amount; the history says what happened."""
    s = table(2)
    a, b = s.playing
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    for seat in s.playing:
        GAME.apply(s, seat, bet(2))
    GAME.apply(s, a, Action(OPEN, 3))
    GAME.apply(s, b, Action(CALL, 999))
    assert s.log is not None
    history = s.log.history()
    assert history is not None
    assert history["actions"][-1] == {"seq": 6, "seat": b, "type": "call", "amount": 3}
    assert s.stacks[a] + s.stacks[b] == 40


def test_short_stack_goes_all_in_for_less_and_side_pot_is_split() -> None:
    s = table(3)
    s.stacks = [1, 20, 20]
    short = 0
    rig(s, "AH AC AD", "")
    s.hands[short] = [Card.parse("6S")]
    s.deck = list(reversed(parse_cards("2C 6H 3C 4D 6D 5C")))
    for seat in s.playing:
        GAME.apply(s, seat, bet(1))
    assert s.stacks[short] == 0
    assert GAME.legal_actions(s, s.playing[0]) == [pass_, bet(min(2, s.stacks[s.playing[0]]))]
    for seat in s.playing:
        GAME.apply(s, seat, bet(min(2, s.stacks[seat])))
    # No one can bet past the all-in player's stack: straight to the showdown, or checks.
    while s.result is None:
        seat = GAME.to_act(s)[0]
        GAME.apply(s, seat, Action(CHECK))
    assert sum(s.result["deltas"].values()) == 0
    assert sum(s.stacks) == 41
    # The short stack can win at most the main pot: one chip from each player.
    assert s.stacks[short] <= 3


# -- flow -----------------------------------------------------------------------------
def test_dealer_rotates_left_and_the_match_ends_when_one_holds_every_chip() -> None:
    s = table(2, chips=3)
    dealers = []
    rng = random.Random(3)
    from cardtui.engine.cacho.bots.today import choose

    while not GAME.match_over(s):
        if GAME.hand_over(s):
            dealers.append(s.dealer)
            GAME.next_hand(s, rng.getrandbits(32))
            continue
        seat = GAME.to_act(s)[0]
        GAME.apply(s, seat, choose(GAME.view(s, seat), GAME.legal_actions(s, seat), rng))
    assert sorted(s.stacks) == [0, 6]
    assert all(dealers[i] != dealers[i + 1] for i in range(len(dealers) - 1))
    with pytest.raises(IllegalAction):
        GAME.next_hand(s, 1)


def test_bad_options_are_refused_with_a_sentence() -> None:
    from cardtui.engine.core import InvalidOptions

    with pytest.raises(InvalidOptions, match="from 3 to 1000"):
        GAME.options({"chips": 1})
    with pytest.raises(InvalidOptions, match="from 3 to 1000"):
        GAME.options({"chips": 1001})
    with pytest.raises(InvalidOptions, match="no option"):
        GAME.options({"ante": 1})
    with pytest.raises(InvalidOptions):
        GAME.start(GAME.options({}), [SeatInfo(0, "solo")], 1)


# -- random play ----------------------------------------------------------------------
def _hidden_cards_in(view: object, seat: int | None, state: CachoState) -> None:
    """No view holds a card its seat may not see: others' cards stay None until shown."""
    for sv in view.seats:  # type: ignore[attr-defined]
        assert sv.card_count == len(state.hands[sv.seat])
        if sv.seat == seat or sv.seat in state.shown:
            assert list(sv.cards) == state.hands[sv.seat]
        else:
            assert sv.cards == () and sv.strength is None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), chips=st.integers(3, 30),
       choices=st.lists(st.integers(0, 1000), min_size=50, max_size=200))
def test_random_play_conserves_chips_redacts_and_replays(
    seed: int, players: int, chips: int, choices: list[int]
) -> None:
    s = table(players, chips=chips, seed=seed)
    total = players * chips
    rng = random.Random(seed)
    for pick in choices:
        if GAME.hand_over(s):
            record = GAME.history(s)
            assert record is not None
            assert sum(record["result"]["deltas"].values()) == 0
            assert GAME.replay(record).result == s.result
            if GAME.match_over(s):
                break
            GAME.next_hand(s, rng.getrandbits(32))
            continue
        (seat,) = GAME.to_act(s)
        legal = GAME.legal_actions(s, seat)
        GAME.apply(s, seat, legal[pick % len(legal)])
        in_pot = 0 if GAME.hand_over(s) else s.pots.total
        assert sum(s.stacks) + in_pot == total
        assert min(s.stacks) >= 0
        for who in [*range(players), None]:
            _hidden_cards_in(GAME.view(s, who), who, s)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_matches_finish_for_every_player_count(players: int) -> None:
    from cardtui.sim import simulate

    report = simulate("cacho", players, 300, seed=players)
    assert report.hands == 300
    assert sum(report.deltas) == 0
    assert report.actions >= 300


@pytest.mark.parametrize("players", [2, 3, 4])
def test_histories_account_for_every_card(players: int) -> None:
    """500 hands each: ``deal`` holds the cards each seat played the hand with, every one from the
    24-card pack and none twice; each redeal names the cards it voided (a redeal reshuffles the
    pack, so a voided card may come again); a showdown shows exactly the cards ``deal`` gives."""
    from collections import Counter

    from cardtui.engine.cacho.rules import DECK
    from cardtui.engine.games import GAMES

    rules = GAMES["cacho"]
    rng = random.Random(players)
    seats = rules.seat_infos([f"p{i}" for i in range(players)])
    match, _ = rules.open({}, seats, rng.getrandbits(63))
    pack = {str(c) for c in DECK}
    read = redeals = showdowns = 0
    while read < 500:
        if match.hand_over():
            record = match.history()
            assert record is not None
            dealt = [c for cards in record["deal"].values() for c in cards]
            assert set(dealt) <= pack and len(dealt) == len(set(dealt)), record["deal"]
            assert all(len(cards) <= 3 for cards in record["deal"].values()), record["deal"]
            for a in record["actions"]:
                if a["type"] == "redeal":
                    voided = [c for cards in a["voided"].values() for c in cards]
                    assert sorted(voided) == sorted(a["cards"]) and Counter(voided) == Counter(set(voided))
                    assert set(voided) <= pack
                    redeals += 1
            for seat, cards in (record["result"].get("showdown") or {}).items():
                assert sorted(cards) == sorted(record["deal"][seat])
                showdowns += 1
            read += 1
            if match.match_over():
                match, _ = rules.open({}, seats, rng.getrandbits(63))
            else:
                match.next_hand(rng.getrandbits(63))
            continue
        seat = rng.choice(match.to_act())
        legal = match.legal_actions(seat)
        calm = [a for a in legal if a.type != FOLD and a.amount <= 2] or list(legal)
        match.apply(seat, rng.choice(calm))
    assert redeals and showdowns
