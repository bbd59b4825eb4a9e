"""Chinchón (docs/rules.md §6), rule by rule on rigged deals, and at random with hypothesis."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtui.engine import games  # noqa: F401  (the bots by level, on the rules)
from cardtui.engine.cards import Card, pack, parse_cards
from cardtui.engine.core import Action, IllegalAction, SeatInfo
from cardtui.engine.events import HandEnded, MatchEnded
from cardtui.engine.games import levels
from cardtui.engine.rummy.chinchon import (
    GAME,
    REENTER,
    ChinchonCounted,
    ChinchonEliminated,
    ChinchonOptions,
    ChinchonReentered,
    ChinchonState,
    ChinchonUp,
)
from cardtui.engine.rummy.records import (
    DISCARD,
    DRAW,
    KNOCK,
    PASS,
    PILE,
    STOCK,
    Phase,
    RummyStockRebuilt,
    RummyView,
    Scoring,
    SeatStatus,
)
from cardtui.v1 import analysis_pb2
from tests.deal_rules import order_from
from tests.engine.replaying import Played, check_steps, kinds, played
from tests.per_game import GameTests, Hands, Matrix, Reason, Short, ShortHand, Sim, Taps


def chinchon_close() -> Played:
    """Normal bots play a Chinchón hand of three from a fixed seed to its close and count, on the pack of 48 with
    both jokers."""
    bot = levels("chinchon")["normal"]
    rng = random.Random(3)
    return played(GAME, 3, 3, lambda st, seat, legal: bot(GAME.view(st, seat), legal, rng), cards=48,
                  jokers=2)


def test_a_chinchon_hand_to_its_count() -> None:
    record, live, actors = chinchon_close()
    steps = check_steps(GAME, record, live, actors)
    assert record["result"]["knock"] is not None and record["pack"] == "spanish50"
    assert "ChinchonUp" in kinds(steps[0].events) and "ChinchonCounted" in kinds(steps[-1].events)
    deal = steps[0].view
    assert isinstance(deal, RummyView) and deal.pile == (Card.parse(record["up"]),), "the card turned up"
    assert [sorted(map(str, s.cards)) for s in deal.seats] == [sorted(record["deal"][str(s)]) for s in range(3)]
    end = steps[-1].view
    assert isinstance(end, RummyView) and end.result is not None and end.result.knock is not None
    assert end.result.counts[0].seat == end.result.knock.seat, "the closer counted first"
    assert {str(c.seat): c.points for c in end.result.counts} == {
        s: c["points"] for s, c in record["result"]["counts"].items()}
    for step in steps:
        assert isinstance(step.view, RummyView)
        assert all(len(s.cards) == s.card_count for s in step.view.seats), "every hand face up"


def chinchon_deal(vector: dict[str, Any]) -> dict[str, list[str]]:
    """§10.5: seven rounds of one card from the end of the pack, dealer + 1 first, seats not past the target; the
    next card turned up to start the pile; the rest the stock."""
    record = vector["history"]
    n = len(record["seats"])
    pack = list(vector["packs"][0])
    target = record["options"]["target"]
    playing = [s for s in order_from(record["dealer"], n) if record["start"][str(s)] <= target]
    held: dict[int, list[str]] = {s: [] for s in range(n)}
    for _ in range(7):
        for s in playing:
            held[s].append(pack.pop())
    assert pack.pop() == record["up"]
    assert list(reversed(pack)) == vector["stock"]
    return {str(s): held[s] for s in range(n)}


REASONS = {
    "seven": Reason(
        analysis_pb2.AnalysisReason(
            draw=analysis_pb2.DrawAdvice(card="5o", loose=2, taking=0, goes_out=True, outs=9, unseen=28, closes=True)
        ),
        {
            "en": (
                "Taking the 5● let you close with all seven cards melded, for -10.",
                "9 of the 28 unseen cards",
            ),
            "pt_BR": ("Pegar o 5● deixava você fechar com as sete cartas em jogos, por -10.",),
            "es": ("Tomar el 5● te dejaba cortar con las siete cartas ligadas, por -10.",),
        },
    ),
    "close": Reason(
        analysis_pb2.AnalysisReason(
            knock=analysis_pb2.KnockAdvice(
                melded=6, outs=3, unseen=25, stock=12, discard="7e", tens=-1, fewest=-1, closes=True
            )
        ),
        {
            "en": (
                "Closing then melded 6 of the seven cards kept.",
                "throwing the 7⚔, 3 of the 25 unseen cards would meld all seven, a close for -10",
                "12 left in the stock",
            ),
            "pt_BR": (
                "Fechar ali baixava 6 das sete cartas que ficavam.",
                "descartando o 7⚔, 3 das 25 cartas não vistas baixariam as sete, um fechamento por -10",
                "com 12 no monte",
            ),
            "es": (
                "Cortar ahí ligaba 6 de las siete cartas que quedaban.",
                "tirando el 7⚔, 3 de las 25 cartas no vistas ligarían las siete, un corte por -10",
                "con 12 en el mazo",
            ),
        },
    ),
}
"""The analysis's reasons at this game, and what is said of each in every language (tests/per_game.py)."""


TESTS = GameTests(watched=Short(3, {"target": 20}), tournament=Short(3, {"target": 20}), entries=7,
                  offered=frozenset({"draw:stock", "draw:pile", "discard", "knock", "reenter", "pass"}),
                  usual=3, fair=(Hands(3, 12), Hands(4, 12, {"cards": 48, "jokers": 2}, "48")),
                  sims=(Sim(2, {"target": 30, "reentries": 1}, 4, "easy", frozenset({"pack", "up"})),
                        Sim(4, {"cards": 48, "jokers": 2, "figures": "number", "limit": 7, "lay_off": False}, 2,
                            "easy", frozenset({"pack", "up"}))),
                  seldom=((2, "rebuild"),), tampered=True,
                  short_hand=ShortHand({1: "1c 2c 3c 4o 5o 6o 12o", 0: "7e 10b 11c 12c 7b 10o 11o"}, (1, 0), "11e",
                                       "10e 7c 2e", pack="spanish40", size=7),
                  taps=Taps(("2",), on_its_side=False, fields=(("Points that put a player out", "10"),),
                            match_in_one=True),
                  reasons=REASONS, replayed=chinchon_close, deal=chinchon_deal,
                  matrix=Matrix("close", slow=(3, 1, 1, {"limit": 10, "jokers": 2}),
                                quick_match={"target": 10, "limit": 10}))
"""This game's rows in the shared tests that keep one for each game (tests/per_game.py). The pack of 48 with two
jokers is a table's own choice (docs/deal.md §10.5), checked fair too. The short hand: the bot's 12o and the 10e it
draws first count 10 each, more than the table's limit of 5 left out; the 2e it draws next lets it close. On the
phone it is held upright only (its rummy board is one the others already play on its side), and the target typed
makes its one hand a whole match: ana's cards, left unmelded, put her past it. In the matrix a hand is long: the
slow client plays one, closed by its bot as soon as 10 points left out allow, the late client drawing and
throwing; with both jokers in the pack the bot melds sooner (2.8 of the slow client's turns a hand where the pack of
40 alone takes 5.2, over 400 deals of the engine), each turn two of its late reads."""


NAMES = ["ana", "bia", "caio", "duda"]


def deck_for(hands: Mapping[int, str], up: str, stock: str, options: ChinchonOptions, dealer: int, n: int
             ) -> list[Card]:
    """A pack that deals ``hands`` (seat → its seven cards), turns ``up`` and then gives ``stock`` (the next card
    first), the rest of the pack after: as the deal takes cards from its end (docs/deal.md §10.5)."""
    order = [(dealer + 1 + i) % n for i in range(n)]
    dealt = {s: list(parse_cards(hands[s])) for s in order}
    sequence: list[Card] = [dealt[s][r] for r in range(7) for s in order]
    sequence += [Card.parse(up), *parse_cards(stock)]
    rest = Counter(pack(options.pack))
    rest.subtract(sequence)
    assert all(v >= 0 for v in rest.values()), f"a card twice: {sorted(c for c, v in rest.items() if v < 0)}"
    sequence += list(rest.elements())
    return sequence[::-1]


def rigged(monkeypatch: pytest.MonkeyPatch, hands: Mapping[int, str], up: str, stock: str = "",
           options: Mapping[str, Any] | None = None, start: Sequence[int] | None = None, dealer: int = 0
           ) -> tuple[ChinchonState, list[Any]]:
    """A hand dealt as rigged, at the points ``start`` (0 each)."""
    opts = GAME.options(dict(options or {}))
    n = len(hands)
    deck = deck_for(hands, up, stock, opts, dealer, n)
    monkeypatch.setattr("cardtui.engine.rummy.base.shuffled", lambda cards, rng: list(deck))
    seats = [SeatInfo(i, NAMES[i], i) for i in range(n)]
    state, events = GAME.resume(opts, seats, list(start or [0] * n), dealer, 1, 1)
    return state, [e.body for e in events]


def act(state: ChinchonState, seat: int, kind: str, card: str = "", value: str = "") -> list[Any]:
    action = Action(kind, cards=(Card.parse(card),) if card else (), value=value)
    return [e.body for e in GAME.apply(state, seat, action)]


def draw(state: ChinchonState, seat: int, source: str = STOCK) -> list[Any]:
    return act(state, seat, DRAW, value=source)


def count_of(events: Sequence[Any], seat: int) -> Any:
    counted = next(e for e in events if isinstance(e, ChinchonCounted))
    return next(c for c in counted.counts if c.seat == seat)


# -- the deal and a turn ---------------------------------------------------------------------------------------
def test_seven_each_one_turned_up_and_the_dealers_left_plays_first(monkeypatch: pytest.MonkeyPatch) -> None:
    state, events = rigged(monkeypatch, {0: "1e 2e 3e 4e 5e 6e 7e", 1: "1b 2b 3b 4b 5b 6b 7b",
                                         2: "1o 2o 3o 4o 5o 6o 7o"}, "10c", "11c 12c")
    assert [len(h) for h in state.hands] == [7, 7, 7] and state.pile == [Card.parse("10c")]
    assert any(isinstance(e, ChinchonUp) and e.card == Card.parse("10c") for e in events)
    assert len(state.stock) == 40 - 21 - 1 and state.turn == 1
    assert GAME.legal_actions(state, 1) == [Action(DRAW, value=STOCK), Action(DRAW, value=PILE)]
    view = GAME.view(state, 1)
    assert view.table.scoring is Scoring.DEADWOOD and view.table.pack == "spanish40" and view.table.limit == 5
    assert draw(state, 1) and Card.parse("11c") in state.hands[1]
    act(state, 1, DISCARD, "11c")
    assert state.turn == 2 and state.pile[-1] == Card.parse("11c") and state.phase is Phase.DRAW
    assert GAME.history(state) is None
    assert state.log is not None and state.log.top["up"] == "10c" and state.log.top["pack"] == "spanish40"


def test_the_pack_of_40_has_no_8_or_9_and_runs_7_then_10(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not any(c.rank in (8, 9) for c in pack("spanish40")) and len(pack("spanish40")) == 40
    assert len(pack("spanish48")) == 48 and Counter(c.rank for c in pack("spanish48"))[8] == 4
    assert Counter(map(str, pack("spanish50")))["JK"] == 2
    # 5o 6o 7o and the 10o are a run in the pack of 40: with 1c 1b 1e, every card melded once the 12c goes.
    state, _ = rigged(monkeypatch, {0: "5o 6o 7o 1c 1b 1e 12c", 1: "2e 3e 5e 7e 11e 12e 2b"}, "12b", "10o")
    draw(state, 1)
    act(state, 1, DISCARD, "10o")
    draw(state, 0, PILE)
    events = act(state, 0, KNOCK, "12c")
    assert count_of(events, 0).points == -10
    assert [len(m.cards) for m in count_of(events, 0).melds] == [3, 4] or sorted(
        len(m.cards) for m in count_of(events, 0).melds) == [3, 4]


def test_the_pack_of_48_runs_7_8_9(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = rigged(monkeypatch, {0: "7c 8c 2e 2b 2o 12e 1b", 1: "1e 3e 5e 7e 11e 12b 3b"}, "12o", "9c",
                      options={"cards": 48})
    draw(state, 1)
    act(state, 1, DISCARD, "9c")
    draw(state, 0, PILE)
    events = act(state, 0, KNOCK, "12e")
    melds = {tuple(map(str, m.cards)) for m in count_of(events, 0).melds}
    assert ("7c", "8c", "9c") in melds and count_of(events, 0).points == 1


# -- closing and the count -------------------------------------------------------------------------------------
def test_a_close_leaves_at_most_the_limit_and_every_hand_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = rigged(monkeypatch, {0: "1e 2e 3e 5c 5b 5o 12o", 1: "4b 6b 10b 11e 2c 3c 7c",
                                    2: "1o 1b 12c 11c 7e 7o 6e"}, "10e", "3o")
    draw(state, 1)
    act(state, 1, DISCARD, "3o")
    draw(state, 2)
    act(state, 2, DISCARD, "6e")
    draw(state, 0, PILE)  # 6e: no use; 12o thrown leaves 6e loose, 6 points: above 5
    assert not any(a.type == KNOCK for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="counting 6 outside melds: this table closes with 5 at most"):
        GAME.apply(state, 0, Action(KNOCK, cards=(Card.parse("12o"),)))
    act(state, 0, DISCARD, "12o")
    draw(state, 1)  # the 10e was turned up and is under the pile: seat 1 draws the stock's next
    # Seat 0 holds 1e 2e 3e 5c 5b 5o 6e: closing needs a card of 5 or less besides its melds.
    state, _ = rigged(monkeypatch, {0: "1e 2e 3e 5c 5b 5o 12o", 1: "4b 6b 10b 11e 2c 3c 7c",
                                    2: "1o 1b 12c 11c 7e 7o 6e"}, "10e", "3o 11b 4e")
    draw(state, 1)
    act(state, 1, DISCARD, "3o")
    draw(state, 2)
    act(state, 2, DISCARD, "11b")
    draw(state, 0)  # 4e: joins 1e 2e 3e, and 12o goes face down
    events = act(state, 0, KNOCK, "12o")
    counted = next(e for e in events if isinstance(e, ChinchonCounted))
    assert [c.seat for c in counted.counts] == [0, 1, 2] and not counted.chinchon
    assert count_of(events, 0).points == -10 and count_of(events, 0).loose == ()
    assert count_of(events, 1).points == 4 + 6 + 10 + 10 + 2 + 3 + 7 and count_of(events, 1).laid_off == ()
    assert count_of(events, 2).points == 1 + 1 + 10 + 10 + 7 + 7 + 6
    ended = next(e for e in events if isinstance(e, HandEnded))
    assert ended.deltas == (-10, 42, 42) and tuple(state.stacks) == (-10, 42, 42)
    assert GAME.scores(state) == (111, 59, 59), "higher is better: the points each may still take and stay in"
    assert GAME.hand_over(state) and not GAME.match_over(state)
    record = GAME.history(state)
    assert record is not None and record["result"]["counts"]["0"]["points"] == -10 and record["up"] == "10e"


def test_the_others_lay_off_on_the_closers_melds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1's 4e joins the closer's run 1e 2e 3e, its 5c the closer's 5b 5o 5e; with ``lay_off`` off, nothing is
    laid off."""
    hands = {0: "1e 2e 3e 5b 5o 5e 12o", 1: "4e 5c 11b 11c 2o 7o 10o"}
    state, _ = rigged(monkeypatch, hands, "12c", "3c 2c")
    draw(state, 1)
    act(state, 1, DISCARD, "3c")
    draw(state, 0)  # 2c: loose, 2 points: closes with 12o face down
    events = act(state, 0, KNOCK, "12o")
    closer, other = count_of(events, 0), count_of(events, 1)
    assert closer.points == 2 and closer.loose == (Card.parse("2c"),)
    assert set(other.laid_off) == {Card.parse("4e"), Card.parse("5c")} and other.points == 10 + 10 + 2 + 7 + 10
    state, _ = rigged(monkeypatch, hands, "12c", "3c 2c", options={"lay_off": False})
    draw(state, 1)
    act(state, 1, DISCARD, "3c")
    draw(state, 0)
    events = act(state, 0, KNOCK, "12o")
    assert count_of(events, 1).laid_off == () and count_of(events, 1).points == 4 + 5 + 10 + 10 + 2 + 7 + 10


def test_nothing_is_laid_off_on_a_close_with_every_card_melded(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = rigged(monkeypatch, {0: "1e 2e 3e 5b 5o 5e 12o", 1: "5c 11b 11c 2o 7o 10o 6b"}, "12c", "3c 4e")
    draw(state, 1)
    act(state, 1, DISCARD, "3c")
    draw(state, 0)  # 4e: every card melded once 12o goes
    events = act(state, 0, KNOCK, "12o")
    assert count_of(events, 0).points == -10 and count_of(events, 1).laid_off == ()
    assert count_of(events, 1).points == 5 + 10 + 10 + 2 + 7 + 10 + 6, "the 5c stays in its hand"


def test_a_close_with_the_limit_at_0_needs_every_card_melded(monkeypatch: pytest.MonkeyPatch) -> None:
    hands = {0: "1e 2e 3e 5b 5o 5e 12o", 1: "4b 6b 10b 11e 2c 3c 7c"}
    state, _ = rigged(monkeypatch, hands, "12c", "3o 1c", options={"limit": 0})
    draw(state, 1)
    act(state, 1, DISCARD, "3o")
    draw(state, 0)  # 1c: one point loose
    assert not any(a.type == KNOCK for a in GAME.legal_actions(state, 0))
    state, _ = rigged(monkeypatch, hands, "12c", "3o 5c", options={"limit": 0})
    draw(state, 1)
    act(state, 1, DISCARD, "3o")
    draw(state, 0)
    assert Action(KNOCK, cards=(Card.parse("12o"),)) in GAME.legal_actions(state, 0)


def test_no_close_on_the_first_turn_where_the_table_says(monkeypatch: pytest.MonkeyPatch) -> None:
    hands = {0: "1e 2e 3e 5b 5o 5e 12o", 1: "4b 6b 10b 11e 6c 3c 7c"}
    state, _ = rigged(monkeypatch, hands, "12c", "1c 3o 2c 2b", options={"first_round": False})
    draw(state, 1)
    act(state, 1, DISCARD, "1c")
    draw(state, 0)  # 3o: loose, 3 points: a close on the first turn is refused
    with pytest.raises(IllegalAction, match="first turn"):
        GAME.apply(state, 0, Action(KNOCK, cards=(Card.parse("12o"),)))
    act(state, 0, DISCARD, "12o")
    draw(state, 1)
    act(state, 1, DISCARD, "2c")
    draw(state, 0)
    assert Action(KNOCK, cards=(Card.parse("2b"),)) in GAME.legal_actions(state, 0)


def test_face_cards_count_ten_or_their_number(monkeypatch: pytest.MonkeyPatch) -> None:
    for figures, expected in (("ten", 10 + 10 + 10), ("number", 10 + 11 + 12)):
        state, _ = rigged(monkeypatch, {0: "1e 2e 3e 5b 5o 5e 12o", 1: "10b 11c 12c 4o 5c 6o 7o"}, "12e",
                          "1o 2c", options={"figures": figures})
        draw(state, 1)
        act(state, 1, DISCARD, "1o")
        draw(state, 0)  # 2c: 2 points loose
        events = act(state, 0, KNOCK, "12o")
        assert count_of(events, 1).laid_off == (Card.parse("5c"),)  # on the closer's 5b 5o 5e
        assert count_of(events, 1).points == expected + 4 + 6 + 7, figures


# -- the chinchón ---------------------------------------------------------------------------------------------
def test_a_chinchon_wins_the_match(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = rigged(monkeypatch, {0: "1c 2c 3c 4c 5c 6c 12o", 1: "4b 6b 10b 11e 2e 3e 7e"}, "12e", "3o 7c")
    draw(state, 1)
    act(state, 1, DISCARD, "3o")
    draw(state, 0)  # 7c: 1c to 7c, seven in a run of copas
    events = act(state, 0, KNOCK, "12o")
    assert next(e for e in events if isinstance(e, ChinchonCounted)).chinchon
    assert any(isinstance(e, MatchEnded) and e.winner == 0 for e in events)
    assert GAME.match_over(state) and GAME.hand_over(state)
    assert GAME.scores(state)[0] > 0 >= GAME.scores(state)[1], "the match is over for the other: it stands as out"
    record = GAME.history(state)
    assert record is not None and record["result"]["chinchon"] is True


def test_a_chinchon_may_count_minus_ten_only(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = rigged(monkeypatch, {0: "1c 2c 3c 4c 5c 6c 12o", 1: "4b 6b 10b 11e 2e 3e 7e"}, "12e", "3o 7c",
                      options={"chinchon": "minus_ten"})
    draw(state, 1)
    act(state, 1, DISCARD, "3o")
    draw(state, 0)
    events = act(state, 0, KNOCK, "12o")
    assert count_of(events, 0).points == -10 and not any(isinstance(e, MatchEnded) for e in events)
    assert not GAME.match_over(state)


def test_a_run_of_seven_with_a_joker_is_no_chinchon(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = rigged(monkeypatch, {0: "1c 2c 3c JK 5c 6c 12o", 1: "4b 6b 10b 11e 2e 3e 7e"}, "12e", "3o 7c",
                      options={"jokers": 1})
    draw(state, 1)
    act(state, 1, DISCARD, "3o")
    draw(state, 0)
    events = act(state, 0, KNOCK, "12o")
    assert not next(e for e in events if isinstance(e, ChinchonCounted)).chinchon
    assert count_of(events, 0).points == -10 and not GAME.match_over(state)


# -- jokers -----------------------------------------------------------------------------------------------------
def test_a_joker_acts_once_a_meld_and_counts_its_points_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    for points in (25, 50):
        state, _ = rigged(monkeypatch, {0: "1e 2e JK 5b 5o 5e 12o", 1: "4b 6b 10b JK 2c 3c 7c"}, "12c", "3o 1c",
                          options={"jokers": 2, "joker_points": points, "lay_off": False})
        draw(state, 1)
        act(state, 1, DISCARD, "3o")
        draw(state, 0)  # 1c: the joker acts as 3e; 1c left, 1 point
        events = act(state, 0, KNOCK, "12o")
        closer = count_of(events, 0)
        assert closer.points == 1 and any(m.wild == Card.parse("JK") for m in closer.melds)
        # Seat 1: the joker melds 6b and 10b (as the 7b: 7 then 10 in the pack of 40), the best it can; the rest
        # count, the joker not.
        assert count_of(events, 1).points == 4 + 2 + 3 + 7


def test_two_jokers_never_share_a_meld_nor_make_a_fifth_of_a_rank() -> None:
    from cardtui.engine.rummy.melds import melder

    joker = Card.parse("JK")
    m = melder(GAME.options({"jokers": 2}).rules, (joker,))
    assert not m.all_melded((joker, joker, Card.parse("6o")))
    assert not m.all_melded((*parse_cards("5b 5o 5e 5c"), joker)), "a group holds each suit once"
    assert m.all_melded((*parse_cards("5b 5o 5e 5c"), joker, joker)), "5b 5o and a joker, 5e 5c and the other"


# -- the match: the target, the last one in, the reenganche -----------------------------------------------------
OTHERS = "10b 11c 12c 7o 6e 10o 11e"
"""Seven cards that meld nothing and lay off nothing on the closer's 2e 3e 4e and 5b 5o 5e: 63 points."""


def close_now(monkeypatch: pytest.MonkeyPatch, start: Sequence[int], options: Mapping[str, Any] | None = None
              ) -> tuple[ChinchonState, list[Any]]:
    """Seat 0 closes at once with one card loose (1c, 1 point); seat 1 holds ``OTHERS`` (63 points)."""
    state, _ = rigged(monkeypatch, {0: "2e 3e 4e 5b 5o 5e 12o", 1: OTHERS}, "4c", "3o 1c", options=options,
                      start=start)
    draw(state, 1)
    act(state, 1, DISCARD, "3o")
    draw(state, 0)
    return state, act(state, 0, KNOCK, "12o")


def test_past_the_target_a_player_is_out_and_the_last_one_in_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    state, events = close_now(monkeypatch, [40, 40])
    assert [e for e in events if isinstance(e, ChinchonEliminated)] == [ChinchonEliminated(1, 103)]
    assert tuple(state.stacks) == (41, 103) and GAME.match_over(state)
    assert any(isinstance(e, MatchEnded) and e.winner == 0 for e in events)
    assert GAME.view(state, 0).seats[1].status is SeatStatus.OUT, "out as soon as the count puts it past the target"


def test_on_the_target_a_player_stays_in(monkeypatch: pytest.MonkeyPatch) -> None:
    state, events = close_now(monkeypatch, [0, 37])
    assert tuple(state.stacks) == (1, 100) and not GAME.match_over(state), "100 does not pass a target of 100"
    state, events = close_now(monkeypatch, [0, 37], options={"target": 99})
    assert GAME.match_over(state) and any(isinstance(e, ChinchonEliminated) for e in events)


def test_when_everyone_passes_the_target_the_fewest_points_win(monkeypatch: pytest.MonkeyPatch) -> None:
    state, events = close_now(monkeypatch, [100, 40])
    # seat 0 ends on 101, seat 1 on 103: both past 100; the fewest, seat 0, wins.
    assert tuple(state.stacks) == (101, 103) and any(isinstance(e, MatchEnded) and e.winner == 0 for e in events)


def test_a_player_put_out_may_come_back_in_at_the_highest_points(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = rigged(monkeypatch, {0: "2e 3e 4e 5b 5o 5e 12o", 1: OTHERS, 2: "1o 2o 3o 6c 6b 6o 2b"}, "4c",
                      "7c 11o 1c", options={"reentries": 1}, start=[10, 40, 60])
    draw(state, 1)
    act(state, 1, DISCARD, "7c")
    draw(state, 2)
    act(state, 2, DISCARD, "11o")
    draw(state, 0)
    events = act(state, 0, KNOCK, "12o")
    assert [e.seat for e in events if isinstance(e, ChinchonEliminated)] == [1]
    assert state.phase is Phase.REENTRY and not GAME.hand_over(state) and GAME.to_act(state) == (1,)
    assert GAME.legal_actions(state, 1) == [Action(REENTER), Action(PASS)] and GAME.legal_actions(state, 2) == []
    assert GAME.default_action(state, 1) == Action(PASS)
    events = act(state, 1, REENTER)
    assert ChinchonReentered(1, 62) in events and tuple(state.stacks)[1] == 62  # seat 2's 60 and its 2b
    assert GAME.hand_over(state) and not GAME.match_over(state) and state.reentries[1] == 1
    record = GAME.history(state)
    assert record is not None and record["result"]["reentered"] == [1]
    assert GAME.replay(record).stacks == state.stacks, "the history replays the reenganche"
    # Its one reenganche spent, seat 1 put out again stays out.
    nxt = GAME.replay(record)
    assert nxt.reentries[1] == 1


def test_a_player_put_out_may_stay_out(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = close_now(monkeypatch, [10, 40], options={"reentries": 2})
    assert state.phase is Phase.REENTRY
    events = act(state, 1, PASS)
    assert any(isinstance(e, MatchEnded) and e.winner == 0 for e in events) and GAME.match_over(state)


# -- a hand nobody closes: the stock rebuilt once, then void -----------------------------------------------------
LONG = {0: "2e 3e 4e 5b 5o 5e 12o", 1: OTHERS}
"""Seat 0 closes with the 1e (1e 2e 3e 4e, the 5s, 12o face down); seat 1's cards meld nothing."""


def long_hand(monkeypatch: pytest.MonkeyPatch) -> ChinchonState:
    """A two-player hand on 40 cards (25 left in the stock after the deal and the card turned up), the stock's 24th
    card the 1e; every player draws the stock and throws the card it drew until seat 0 draws the last card of the
    stock rebuilt from the pile (the 1e again: the pile turned over gives its cards back in the order thrown)."""
    opts = GAME.options({})
    held = Counter(parse_cards(" ".join(LONG.values()))) + Counter([Card.parse("4c"), Card.parse("1e")])
    rest = sorted((Counter(pack(opts.pack)) - held).elements())
    state, _ = rigged(monkeypatch, LONG, "4c", " ".join(map(str, [*rest[:23], Card.parse("1e")])))
    rebuilt = 0
    for n in range(1, 50):
        seat = state.turn
        assert seat == (1 if n % 2 else 0)
        rebuilt += sum(isinstance(e, RummyStockRebuilt) for e in draw(state, seat))
        card = state.drawn
        assert card is not None
        act(state, seat, DISCARD, str(card))
        assert not GAME.hand_over(state), f"the hand goes on after draw {n}: the stock is rebuilt once"
        if n == 25:
            assert not state.stock and rebuilt == 0, "the first stock is out, to be rebuilt at the next draw"
    assert rebuilt == 1 and len(state.stock) == 1
    draw(state, 0)
    assert state.drawn == Card.parse("1e") and not state.stock
    return state


def test_the_rebuilt_stock_running_out_voids_a_hand_nobody_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    state = long_hand(monkeypatch)
    assert Action(KNOCK, cards=(Card.parse("12o"),)) in GAME.legal_actions(state, 0), "the last draw may close"
    events = act(state, 0, DISCARD, "1e")
    assert events[-1] == HandEnded((0, 0), None) and not any(isinstance(e, ChinchonCounted) for e in events)
    assert GAME.hand_over(state) and not GAME.match_over(state) and tuple(state.stacks) == (0, 0)
    view = GAME.view(state, 1)
    assert view.result is not None and view.result.winner is None and view.result.knock is None
    record = GAME.history(state)
    assert record is not None
    assert record["result"] == {"deltas": {"0": 0, "1": 0}, "winner": None, "counts": {}, "chinchon": False,
                                "eliminated": [], "void": True, "knock": None}
    assert GAME.replay(record).stacks == state.stacks, "the history replays to the void"
    from tests.test_history_schema import problems

    assert not problems(json.loads(json.dumps(record))), "the void hand's history is docs/history.md's"
    GAME.next_hand(state, 2)
    assert state.dealer == 1, "the deal passes left as after any hand"


def test_the_player_who_draws_the_rebuilt_stocks_last_card_may_still_close(monkeypatch: pytest.MonkeyPatch) -> None:
    state = long_hand(monkeypatch)
    events = act(state, 0, KNOCK, "12o")
    assert count_of(events, 0).points == -10 and tuple(state.stacks) == (-10, 63)
    record = GAME.history(state)
    assert record is not None and "void" not in record["result"] and record["result"]["winner"] == 0


# -- at random ---------------------------------------------------------------------------------------------------
HANDS = 4
"""Hands a random match plays at most (the target 30 ends many sooner)."""
OPTIONS = st.fixed_dictionaries({
    "cards": st.sampled_from([40, 48]),
    "jokers": st.integers(0, 2),
    "figures": st.sampled_from(["ten", "number"]),
    "limit": st.sampled_from([0, 3, 5, 7]),
    "first_round": st.booleans(),
    "chinchon": st.sampled_from(["match", "minus_ten"]),
    "target": st.sampled_from([30, 100]),
    "reentries": st.integers(0, 1),
    "lay_off": st.booleans(),
})


@settings(max_examples=12, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_random_matches_keep_every_card_and_count_every_point(options: dict[str, Any], players: int,
                                                              seed: int) -> None:
    """Played at random (a bot's choice or any legal action): every card of the pack is in one place at every
    step, a hand's points are what its count says, a seat out is dealt no more, and the match ends with one in."""
    import random

    rng = random.Random(seed)
    seats = GAME.seat_infos(NAMES[:players])
    state, _ = GAME.start(GAME.options(options), seats, seed)
    full = Counter(pack(state.options.pack))
    for hand in range(HANDS):
        steps = 0
        at_start = list(state.stacks)
        while not GAME.hand_over(state):
            where = Counter(state.stock) + Counter(state.pile) + sum((Counter(h) for h in state.hands), Counter())
            assert where == full, "every card in one place"
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            action = rng.choice(legal) if rng.random() < 0.5 else GAME.bot_of("easy")(  # type: ignore[misc]
                GAME.view(state, seat), legal, rng)
            events = GAME.apply(state, seat, action)
            for e in events:
                if isinstance(e.body, HandEnded):
                    back = set(state.came_back)
                    assert [a - b for s, (a, b) in enumerate(zip(state.stacks, at_start, strict=True))
                            if s not in back] == [d for s, d in enumerate(e.body.deltas) if s not in back]
            steps += 1
            assert steps < 3000, "a hand ends"
        record = GAME.history(state)
        assert record is not None
        counts = record["result"]["counts"]
        for s, c in counts.items():
            assert c["points"] == (-10 if not c["loose"] and int(s) == record["result"]["knock"]["seat"]
                                   else sum(state.options.points[Card.parse(x).rank] for x in c["loose"]))
        assert GAME.replay(record).stacks == state.stacks
        if GAME.match_over(state):
            assert state.winner is not None
            break
        GAME.next_hand(state, seed + hand + 1)
        assert all(GAME.in_game(state, s) for s in state.playing)
