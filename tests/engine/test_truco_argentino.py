"""Truco argentino, docs/rules.md §4: rigged positions for every ruling, then random whole matches."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, IllegalAction, InvalidOptions, NotYourTurn, SeatInfo
from cardtui.engine.truco.argentino.game import GAME, ArgentinoState
from cardtui.engine.truco.argentino.rules import ACTION_TYPES, DECK, RANK, Ties, told
from cardtui.engine.truco.envido import Unsuited, accepted_value, envido, refused_value
from cardtui.engine.truco.flor import flor_value as flor
from cardtui.engine.truco.ladder import Bet, Word
from cardtui.engine.truco.paulista.game import GAME as PAULISTA
from cardtui.engine.truco.signals import Chat, Signal
from cardtui.engine.truco.views import TrucoView
from cardtui.v1 import analysis_pb2
from tests.deal_rules import order_from
from tests.engine.replaying import Played, check_steps, played
from tests.engine.replaying import kinds as event_kinds
from tests.per_game import GameTests, Hands, Matrix, Reason, Short, Sim, Taps


def argentino_envido_and_deck() -> Played:
    """Envido is called and refused; the mano goes to the deck."""
    said = {"envido": False}

    def choose(state: Any, seat: int, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if "envido" in types and not said["envido"]:
            said["envido"] = True
            return Action("envido")
        if "no_quiero" in types:
            return Action("no_quiero")
        return Action("mazo")

    return played(GAME, 2, 5, choose, flor=False)


def test_a_truco_argentino_hand_shows_a_hand_thrown_to_the_deck() -> None:
    """The open view still shows the cards the mano threw in."""
    record, live, actors = argentino_envido_and_deck()
    steps = check_steps(GAME, record, live, actors)
    assert "ArgentinoWentToDeck" in event_kinds(live)
    end = steps[-1].view
    assert isinstance(end, TrucoView)
    gone = [s for s in end.seats if len(s.cards) == 3]
    assert len(gone) == 2, "both hands, the one thrown in included"


def argentino_deal(vector: dict[str, Any]) -> dict[str, list[str]]:
    """§10.4: the k-th card drawn goes to the seat (k mod n) places after the dealer's left."""
    record = vector["history"]
    n = len(record["seats"])
    drawn = vector["drawn"]
    mano_first = order_from(record["dealer"], n)
    held: dict[int, list[str]] = {s: [] for s in range(n)}
    for k, card in enumerate(drawn):
        held[mano_first[k % n]].append(card)
    return {str(s): held[s] for s in range(n)}


REASONS = {
    "envido": Reason(
        analysis_pb2.AnalysisReason(
            envido=analysis_pb2.EnvidoAdvice(envido=2, beats=0.02, mine=10, theirs=12, target=30)
        ),
        {
            "en": (
                "Your envido was 2",
                "2%",
                "Score 10 to 12, playing to 30.",
            ),
            "pt_BR": (
                "Seu envido era 2",
                "2%",
                "Placar 10 a 12",
            ),
            "es": (
                "Tu envido era 2",
                "2%",
                "Tanteador 10 a 12",
            ),
        },
    ),
    "answer": Reason(
        analysis_pb2.AnalysisReason(
            envido=analysis_pb2.EnvidoAdvice(
                envido=33, beats=0.99, call="real_envido", caller=30, beats_caller=0.9, mine=12, theirs=10, target=30
            )
        ),
        {
            "en": (
                "Your envido was 33",
                "Real envido",
                "30 or more",
                "90%",
            ),
            "pt_BR": (
                "Seu envido era 33",
                "Real envido",
                "30 ou mais",
                "90%",
            ),
            "es": (
                "Tu envido era 33",
                "Real envido",
                "30 o más",
                "90%",
            ),
        },
    ),
    "truco": Reason(
        analysis_pb2.AnalysisReason(truco=analysis_pb2.TrucoAdvice(first=1.0, second=0.25, won=1, lost=0)),
        {
            "en": (
                "Your best card beats 100%",
                "25%",
                "Tricks so far: 1 won, 0 lost.",
            ),
            "pt_BR": (
                "Sua melhor carta ganha de 100%",
                "25%",
                "1 ganhas, 0 perdidas",
            ),
            "es": (
                "Tu mejor carta le gana al 100%",
                "25%",
                "1 ganadas, 0 perdidas",
            ),
        },
    ),
}
"""The analysis's reasons at this game, and what is said of each in every language (tests/per_game.py)."""


TESTS = GameTests(watched=Short(2, {"target": 15}), tournament=Short(2, {"target": 15}), entries=5,
                  offered=ACTION_TYPES, usual=2, fair=(Hands(6, 120, {"pica_pica": True}),),
                  sims=(Sim(2, {}, 20, "easy", frozenset({"pica_pica"})),
                        Sim(2, {"target": 15, "envido_scored": "at_once", "ties": "first_trick"}, 20, "easy"),
                        Sim(4, {"flor": True, "envido_unsuited": "highest", "mazo_first": 2}, 20, "easy"),
                        Sim(6, {}, 20, "easy", frozenset({"pica_pica"})),
                        Sim(6, {"pica_pica": False, "flor": True, "signals_seen": 0.0}, 20, "easy")),
                  taps=Taps(("2", "3")), reasons=REASONS, replayed=argentino_envido_and_deck, deal=argentino_deal,
                  matrix=Matrix("deck", slow=(2, 0, 6, {}), quick_match={"target": 15}))
"""This game's rows in the shared tests that keep one for each game (tests/per_game.py)."""


E, R, F = Word.ENVIDO, Word.REAL_ENVIDO, Word.FALTA_ENVIDO


def table(n: int = 2, seed: int = 1, **options: object) -> ArgentinoState:
    seats = [SeatInfo(i, f"p{i}", i % 2) for i in range(n)]
    state, _ = GAME.start(GAME.options(options), seats, seed)
    return state


def rig(state: ArgentinoState, **hands: str) -> None:
    """``rig(state, s0="1e 7o 4c", s1=...)``: give seats these cards (envido and flor recomputed)."""
    for key, text in hands.items():
        state.give(int(key[1:]), parse_cards(text))


def do(state: ArgentinoState, seat: int, kind: str, card: str = "", amount: int = 0) -> None:
    cards = parse_cards(card) if card else ()
    GAME.apply(state, seat, Action(kind, amount=amount, cards=cards))


def kinds(state: ArgentinoState, seat: int) -> list[str]:
    return [a.type for a in GAME.legal_actions(state, seat) if a.type != "signal"]


def shown(view: TrucoView) -> dict[int, tuple[str, ...]]:
    assert view.argentino is not None
    return {s.seat: tuple(str(c) for c in s.cards) for s in view.argentino.shown}


def pending(view: TrucoView) -> tuple[str, int, str] | None:
    p = view.pending
    return None if p is None else (p.bet.value, p.team, p.call.value)


def result(state: ArgentinoState) -> dict[str, object]:
    """The hand history's result."""
    record = GAME.history(state)
    assert record is not None
    out = record["result"]
    assert isinstance(out, dict)
    return out


# -- cards and envido --------------------------------------------------------------
def test_ranking_from_the_ancho_de_espadas_down() -> None:
    order = sorted(DECK, key=lambda c: -RANK[c])
    assert [str(c) for c in order[:4]] == ["1e", "1b", "7e", "7o"]
    groups = [sorted({c.rank for c in DECK if RANK[c] == v}) for v in sorted(set(RANK.values()), reverse=True)]
    assert groups[4:] == [[3], [2], [1], [12], [11], [10], [7], [6], [5], [4]]
    assert RANK[Card.parse("3e")] == RANK[Card.parse("3c")]  # suits tie


@pytest.mark.parametrize(
    ("cards", "unsuited", "score"),
    [
        ("6o 7o 1e", Unsuited.SUM_TWO, 33),  # the highest envido there is
        ("11c 5c 3e", Unsuited.SUM_TWO, 25),  # the seed's example: 0 + 5 + 20
        ("10e 12e 4b", Unsuited.SUM_TWO, 20),  # figures count 0
        ("1e 2e 7e", Unsuited.SUM_TWO, 29),  # three suited: the best two
        ("7e 6o 5b", Unsuited.SUM_TWO, 13),  # unsuited, seed: the two best summed
        ("7e 6o 5b", Unsuited.HIGHEST, 7),  # unsuited, traditional: the best card
        ("12e 11o 10b", Unsuited.SUM_TWO, 0),
    ],
)
def test_envido_scores(cards: str, unsuited: Unsuited, score: int) -> None:
    assert envido(parse_cards(cards), unsuited)[0] == score


@pytest.mark.parametrize(
    ("calls", "accepted", "refused"),
    [
        ((E,), 2, 1),
        ((R,), 3, 2),
        ((E, E), 4, 3),
        ((E, R), 5, 4),
        ((R, R), 6, 5),
        ((E, E, R), 7, 6),
        ((F,), "falta", 1),
        ((E, F), "falta", 2),
        ((E, E, R, F), "falta", 7),
    ],
)
def test_the_seeds_envido_table(calls: tuple[Word, ...], accepted: object, refused: int) -> None:
    falta = 9
    assert accepted_value(calls, falta) == (falta if accepted == "falta" else accepted)
    assert refused_value(calls) == refused


@pytest.mark.parametrize(
    ("calls", "next_calls"),
    [
        ((), ["envido", "real_envido", "falta_envido"]),
        (("envido",), ["envido", "real_envido", "falta_envido"]),
        (("real_envido",), ["real_envido", "falta_envido"]),
        (("envido", "envido"), ["real_envido", "falta_envido"]),
        (("envido", "real_envido"), ["falta_envido"]),
        (("real_envido", "real_envido"), ["falta_envido"]),
        (("envido", "envido", "real_envido"), ["falta_envido"]),
        (("falta_envido",), []),
    ],
)
def test_envido_raises_follow_the_table(calls: tuple[str, ...], next_calls: list[str]) -> None:
    st = table()
    seat = 1  # mano; the calls alternate between the two players
    for c in calls:
        do(st, seat, c)
        seat = 1 - seat
    if not calls:
        assert [k for k in kinds(st, 1) if "envido" in k] == next_calls
        return
    assert kinds(st, seat) == ["quiero", "no_quiero", *next_calls, "mazo"]
    assert kinds(st, 1 - seat) == []  # the caller waits


def test_accepted_envido_is_announced_from_the_last_raiser_and_paid_at_the_end() -> None:
    st = table()
    rig(st, s1="7o 6o 4e", s0="1e 2e 3c")
    do(st, 1, "envido")
    do(st, 0, "envido")
    do(st, 1, "real_envido")
    do(st, 0, "quiero")
    assert GAME.to_act(st) == (1,)  # the last raiser speaks first
    assert [a.amount for a in GAME.legal_actions(st, 1) if a.type == "announce"] == [33]
    with pytest.raises(IllegalAction):
        do(st, 1, "announce", amount=30)  # announced numbers are the true ones
    do(st, 1, "announce", amount=33)
    assert kinds(st, 0) == ["son_buenas"]  # 23 cannot win
    do(st, 0, "son_buenas")
    assert st.envido.closed and st.round_points == [0, 7]
    assert st.scores == [0, 0]  # added when the round ends
    do(st, 1, "mazo")
    assert st.scores == [1, 7]
    assert st.result is not None and result(st)["envido"]["winner"] == 1  # type: ignore[index]
    assert shown(GAME.view(st, 0)) == {1: ("7o", "6o")}  # the winner's envido cards


def test_refused_envido_pays_the_table() -> None:
    st = table()
    do(st, 1, "envido")
    do(st, 0, "envido")
    do(st, 1, "real_envido")
    do(st, 0, "no_quiero")
    assert st.round_points == [0, 6]


def test_falta_envido_pays_what_the_leader_lacks() -> None:
    st = table(n=2, seed=3)
    st.scores = [22, 10]  # the falta: what the leader lacks, 30 - 22
    rig(st, s1="7o 6o 4e", s0="1e 2e 3c")
    do(st, 1, "envido")
    do(st, 0, "falta_envido")
    do(st, 1, "quiero")
    do(st, 0, "announce", amount=23)
    do(st, 1, "announce", amount=33)
    assert st.round_points == [0, 8]


def test_equal_envido_goes_to_the_player_nearer_the_mano() -> None:
    st = table(n=4)  # dealer 0, mano 1: play order 1, 2, 3, 0
    rig(st, s0="7o 6o 4e", s1="5c 4c 1e", s2="1o 2b 3c", s3="7e 6e 4b")
    do(st, 0, "envido")  # the dealer calls; announcing starts with them
    do(st, 1, "quiero")
    do(st, 0, "announce", amount=33)
    assert kinds(st, 1) == ["son_buenas"]  # 29 does not beat 33
    do(st, 1, "son_buenas")
    assert GAME.to_act(st) == (3,)  # seat 2 is seat 0's partner: no need to speak
    assert [a.amount for a in GAME.legal_actions(st, 3) if a.type == "announce"] == [33]  # 3 is nearer the mano
    do(st, 3, "announce", amount=33)
    assert GAME.to_act(st) == (2,)  # team 0 now trails: seat 2, who has not spoken, is asked
    assert kinds(st, 2) == ["son_buenas"]
    do(st, 2, "son_buenas")
    assert st.envido.closed and st.best == 3 and st.round_points == [0, 2]


def test_envido_only_before_playing_and_before_a_truco_is_accepted() -> None:
    st = table()
    rig(st, s1="4e 5e 6e", s0="4b 5b 6b")
    do(st, 1, "play", "4e")
    assert "envido" not in kinds(st, 1)  # the mano has played
    assert "envido" in kinds(st, 0)
    st = table()
    do(st, 1, "truco")
    do(st, 0, "quiero")
    assert "envido" not in kinds(st, 1) and "envido" not in kinds(st, 0)


def test_partner_who_has_not_played_may_call_envido() -> None:
    st = table(n=4)
    order = st.to_play[:]
    first = order[0]
    do(st, first, "play", str(st.hands[first][0]))
    assert "envido" not in kinds(st, first)
    partner = (first + 2) % 4
    assert "envido" in kinds(st, partner)  # out of turn, before playing


# -- truco -------------------------------------------------------------------------
def test_truco_retruco_vale_cuatro_and_fold_values() -> None:
    for refuse_at, stake in ((1, 1), (2, 2), (3, 3)):
        st = table()
        calls = ["truco", "retruco", "vale_cuatro"][:refuse_at]
        seat = 1
        for c in calls:
            do(st, seat, c)
            seat = 1 - seat
        do(st, seat, "no_quiero")
        caller_team = (1 - seat) & 1
        assert st.scores[caller_team] == stake and st.scores[1 - caller_team] == 0


def test_answers_and_raises_when_truco_is_called() -> None:
    st = table()
    do(st, 1, "truco")
    assert kinds(st, 0) == ["quiero", "no_quiero", "retruco", "envido", "real_envido", "falta_envido", "mazo"]
    assert kinds(st, 1) == []  # no play and no second call while a bet awaits its answer
    do(st, 0, "retruco")  # accepts the truco
    assert st.truco.level == 1
    assert kinds(st, 1) == ["quiero", "no_quiero", "vale_cuatro", "mazo"]
    do(st, 1, "vale_cuatro")
    assert kinds(st, 0) == ["quiero", "no_quiero", "mazo"]  # nothing above vale cuatro
    do(st, 0, "quiero")
    assert st.truco.level == 3 and "vale_cuatro" not in kinds(st, 1)


def test_only_the_team_that_last_accepted_may_raise_even_out_of_turn() -> None:
    st = table()
    do(st, 1, "truco")
    do(st, 0, "quiero")
    assert GAME.to_act(st) == (1,)
    assert "retruco" in kinds(st, 0)  # not seat 0's turn, but its team accepted
    assert "retruco" not in kinds(st, 1)
    with pytest.raises(IllegalAction, match="accepted the last bet"):
        do(st, 1, "retruco")
    do(st, 0, "retruco")
    do(st, 1, "quiero")
    assert "vale_cuatro" in kinds(st, 1) and "vale_cuatro" not in kinds(st, 0)


def test_envido_is_settled_before_a_pending_truco() -> None:
    st = table()
    do(st, 1, "truco")
    do(st, 0, "envido")  # "el envido está primero"
    assert kinds(st, 1) == ["quiero", "no_quiero", "envido", "real_envido", "falta_envido", "mazo"]
    assert kinds(st, 0) == []
    do(st, 1, "no_quiero")
    assert st.round_points == [1, 0]
    assert kinds(st, 0) == ["quiero", "no_quiero", "retruco", "mazo"]  # the truco still waits
    do(st, 0, "quiero")
    assert st.truco.level == 1


def test_going_to_the_deck() -> None:
    st = table(n=4)
    do(st, 1, "truco")
    assert "mazo" not in kinds(st, 1) and "mazo" not in kinds(st, 3)  # their own call waits
    do(st, 2, "quiero")
    do(st, 1, "mazo")
    assert st.result is None  # seat 3 plays on for team 1
    assert 1 not in st.to_play and not st.hands[1]
    do(st, 3, "mazo")
    assert st.result is not None and st.scores == [2, 0]  # at the current stake


# -- tricks and ties ---------------------------------------------------------------
def _play_out(st: ArgentinoState, *cards: str) -> None:
    for card in cards:
        seat = GAME.to_act(st)[0]
        do(st, seat, "play", card)


@pytest.mark.parametrize(
    ("ties", "plays", "winner_team", "tricks"),
    [
        # Mano is seat 1 (team 1). Trick 1 tied: trick 2 takes all.
        ("play_on", ["3e", "3o", "4e", "5o"], 0, 2),
        # Trick 2 tied after team 1 took trick 1: play_on plays trick 3, which takes all...
        ("play_on", ["7e", "4o", "3e", "3o", "4e", "5o"], 0, 3),
        # ...first_trick gives the hand to the winner of trick 1.
        ("first_trick", ["7e", "4o", "3e", "3o"], 1, 2),
        # Trick 3 tied: the mano's team.
        ("play_on", ["7e", "4o", "4e", "5o", "2e", "2o"], 1, 3),
        ("play_on", ["4e", "7o", "5o", "4e2", "2e", "2o"], 1, 3),
        # All three tied: the mano's team.
        ("play_on", ["3e", "3o", "2e", "2o", "1o", "1c"], 1, 3),
        ("first_trick", ["3e", "3o", "2e", "2o", "1o", "1c"], 1, 3),
    ],
)
def test_tie_rulings(ties: str, plays: list[str], winner_team: int, tricks: int) -> None:
    st = table(ties=ties)
    if "4e2" in plays:  # team 0 took trick 1, team 1 trick 2, trick 3 tied
        plays = ["4e", "7o", "5e", "4o", "2e", "2o"]
    hand1 = [c for i, c in enumerate(plays) if i % 2 == 0]
    hand0 = [c for i, c in enumerate(plays) if i % 2 == 1]
    rig(st, s1=" ".join(hand1), s0=" ".join(hand0))
    for i in range(len(plays) // 2):
        do(st, GAME.to_act(st)[0], "play", hand1[i] if GAME.to_act(st)[0] == 1 else hand0[i])
        do(st, GAME.to_act(st)[0], "play", hand1[i] if GAME.to_act(st)[0] == 1 else hand0[i])
        if st.result is not None:
            break
    assert st.result is not None
    assert st.scores[winner_team] == 1 and st.scores[1 - winner_team] == 0
    assert len(result(st)["tricks"]) == tricks  # type: ignore[arg-type]


def test_after_a_tie_the_same_player_leads_again() -> None:
    st = table(n=4)  # mano 1; order 1 2 3 0
    rig(st, s1="3e 4e 5e", s2="3o 5o 6o", s3="4o 4b 5b", s0="4c 5c 6c")
    _play_out(st, "3e", "3o", "4o", "4c")
    assert st.results == [None] and GAME.to_act(st) == (1,)


def test_partners_tying_take_the_trick() -> None:
    st = table(n=4)
    rig(st, s1="3e 4e 5e", s2="4o 5o 6o", s3="3o 4b 5b", s0="4c 5c 6c")
    _play_out(st, "3e", "4o", "3o", "4c")
    assert st.results == [1] and GAME.to_act(st) == (1,)  # the earlier of the two leads


# -- pica-pica and the deal --------------------------------------------------------
def test_six_players_alternate_a_3v3_round_with_three_1v1s() -> None:
    st = table(n=6)
    assert (st.dealer, st.pica, st.players) == (0, False, (1, 2, 3, 4, 5, 0))
    do(st, 1, "mazo"), do(st, 3, "mazo"), do(st, 5, "mazo")
    assert st.result is not None
    GAME.next_hand(st, 2)
    assert (st.dealer, st.pica) == (0, True)  # the same dealer deals the 1v1s
    duels = []
    for _ in range(3):
        duels.append(st.players)
        assert all(len(st.hands[s]) == 3 for s in st.players)  # dealt together, at the start
        do(st, st.players[0], "mazo")
    assert duels == [(1, 4), (2, 5), (3, 0)]
    assert st.result is not None and st.scores == [1 + 2, 1]
    GAME.next_hand(st, 3)
    assert (st.dealer, st.pica, st.players[0]) == (1, False, 2)


def test_pica_pica_off_rotates_the_dealer_every_round() -> None:
    st = table(n=6, pica_pica=False)
    do(st, 1, "mazo"), do(st, 3, "mazo"), do(st, 5, "mazo")
    GAME.next_hand(st, 2)
    assert (st.dealer, st.pica) == (1, False)


def test_points_of_the_1v1s_are_added_after_all_three() -> None:
    st = table(n=6)
    do(st, 1, "mazo"), do(st, 3, "mazo"), do(st, 5, "mazo")
    GAME.next_hand(st, 2)
    before = list(st.scores)
    do(st, 1, "mazo")  # duel 1: team 0 takes it
    assert st.scores == before
    do(st, 2, "mazo")
    do(st, 3, "mazo")
    assert st.scores == [before[0] + 2, before[1] + 1]
    assert [d["seats"] for d in result(st)["rounds"]] == [[1, 4], [2, 5], [3, 0]]  # type: ignore[index, union-attr]


def test_legal_action_counts_at_the_start() -> None:
    st = table()
    # The mano: 3 cards, 3 envido calls, truco, the deck; no signals in a 1v1.
    assert len(GAME.legal_actions(st, 1)) == 8
    assert len(GAME.legal_actions(st, 0)) == 5  # no card to play yet
    st = table(n=6)  # with partners, the 8 signals
    assert len(GAME.legal_actions(st, 1)) == 16 and len(GAME.legal_actions(st, 4)) == 13
    do(st, 1, "truco")
    # Quiero, no quiero, retruco, 3 envido calls, the deck (a no quiero), 8 signals; the callers wait.
    assert [len(GAME.legal_actions(st, s)) for s in range(6)] == [15, 8, 15, 8, 15, 8]


# -- flor (option flor on) ---------------------------------------------------------
FLOR_ANSWERS = ["con_flor_me_achico", "contra_flor", "contra_flor_al_resto"]


@pytest.mark.parametrize(
    ("cards", "value"),
    [("7e 6e 5e", 38), ("10o 11o 12o", 20), ("1c 12c 4c", 25), ("1e 2e 3b", -1), ("7e 6e", -1)],
)
def test_flor_values(cards: str, value: int) -> None:
    assert flor(parse_cards(cards)) == value


def test_a_lone_flor_scores_3_and_shows_its_cards() -> None:
    st = table(flor=True)  # mano 1
    rig(st, s1="7e 6e 5e", s0="1b 2o 3c")
    assert kinds(st, 1) == ["flor", "truco", "mazo"]  # no card and no envido before the flor
    assert GAME.view(st, 1).argentino.must_flor and not GAME.view(st, 0).argentino.must_flor  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="Sing your flor"):
        do(st, 1, "play", "7e")
    do(st, 1, "flor")
    assert st.round_points == [0, 3] and GAME.to_act(st) == (1,)
    assert kinds(st, 1) == ["play", "play", "play", "truco", "mazo"]
    assert kinds(st, 0) == ["truco", "mazo"]  # no envido in a round with a flor
    do(st, 1, "play", "7e")
    do(st, 0, "mazo")
    assert st.scores == [0, 4]
    assert st.result is not None
    assert result(st)["flor"] == {
        "calls": ["flor"],
        "outcome": "alone",
        "points": 3,
        "team": 1,
        "scores": {"1": 38},
        "winner": 1,
        "cards": ["7e", "6e", "5e"],
    }
    assert shown(GAME.view(st, 0)) == {1: ("7e", "6e", "5e")}


def test_flor_answers_an_envido_and_cancels_it() -> None:
    st = table(flor=True)
    rig(st, s1="1b 2o 3c", s0="4o 5o 6o")
    do(st, 1, "envido")
    assert kinds(st, 0) == ["flor", "mazo"]  # with a flor there is no envido to accept
    with pytest.raises(IllegalAction, match="Sing your flor"):
        do(st, 0, "quiero")
    do(st, 0, "flor")
    assert st.envido.closed and st.envido.pending < 0 and st.round_points == [3, 0]
    assert st.e_record is not None and st.e_record.cancelled and st.e_record.calls == (Word.ENVIDO,)
    do(st, 1, "mazo")
    assert st.scores == [4, 0] and st.result is not None and result(st)["envido"]["cancelled"]  # type: ignore[index]


def test_flor_strikes_an_envido_already_settled() -> None:
    st = table(n=4, flor=True)  # mano 1: order 1 2 3 0
    rig(st, s1="1b 2o 3c", s2="4e 5b 6c", s3="7b 1o 11c", s0="4o 5o 6o")
    do(st, 1, "envido")
    do(st, 2, "no_quiero")
    assert st.round_points == [0, 1]
    do(st, 0, "flor")  # seat 0 had not played: its flor voids the envido
    assert st.round_points == [3, 0]


def test_flor_instead_of_announcing_an_envido() -> None:
    st = table(n=4, flor=True)
    rig(st, s1="1b 2o 3c", s2="4e 5e 6e", s3="7b 1o 11c", s0="4o 2b 6c")
    do(st, 1, "envido")
    do(st, 0, "quiero")
    do(st, 1, "announce", amount=st.env[1])
    assert GAME.to_act(st) == (2,) and kinds(st, 2) == ["flor"]
    do(st, 2, "flor")
    assert st.announcer < 0 and st.e_record is not None and st.e_record.cancelled
    assert st.round_points == [3, 0] and GAME.to_act(st) == (1,)


@pytest.mark.parametrize(
    ("calls", "points"),
    [
        (["con_flor_me_achico"], [0, 4]),  # the flor that folds: 4 to the other
        (["contra_flor", "quiero"], [0, 6]),  # 38 beats 35
        (["contra_flor", "no_quiero"], [4, 0]),
        (["contra_flor_al_resto", "quiero"], [0, 8]),  # the resto: 30 - 22
        (["contra_flor_al_resto", "no_quiero"], [4, 0]),
        (["contra_flor", "contra_flor_al_resto", "quiero"], [0, 8]),
        (["contra_flor", "contra_flor_al_resto", "no_quiero"], [0, 6]),
    ],
)
def test_flor_against_flor(calls: list[str], points: list[int]) -> None:
    st = table(flor=True)
    st.scores = [22, 10]  # the resto: 30 - 22
    rig(st, s1="7e 6e 5e", s0="4o 5o 6o")
    do(st, 1, "flor")
    assert GAME.to_act(st) == (0,) and kinds(st, 0) == FLOR_ANSWERS and kinds(st, 1) == []
    assert pending(GAME.view(st, 0)) == ("flor", 1, "flor")
    seat = 0
    for c in calls:
        do(st, seat, c)
        seat = 1 - seat
        if c == "contra_flor":
            assert kinds(st, seat) == ["quiero", "no_quiero", "contra_flor_al_resto"]
            assert pending(GAME.view(st, seat)) == ("flor", 1 - seat, "contra_flor")
        if c == "contra_flor_al_resto":
            assert kinds(st, seat) == ["quiero", "no_quiero"]
    assert st.f_done and st.flor_bet.pending < 0 and st.round_points == points
    assert GAME.to_act(st) == (1,) and "play" in kinds(st, 1)  # the flor is over: play on
    do(st, 0, "mazo")
    assert st.result is not None
    record = result(st)["flor"]
    assert isinstance(record, dict)
    assert record["points"] == max(points)
    assert record["calls"] == ["flor", *[c for c in calls if "quiero" not in c and "achico" not in c]]
    assert record["winner"] == (1 if calls[-1] == "quiero" else None)
    assert shown(GAME.view(st, 0)) == ({1: ("7e", "6e", "5e")} if calls[-1] == "quiero" else {})


def test_equal_flores_go_to_the_side_nearer_the_mano() -> None:
    st = table(flor=True)  # mano 1
    rig(st, s1="7e 6e 5e", s0="7o 6o 5o")
    do(st, 0, "flor")  # out of turn, before its first card
    do(st, 1, "contra_flor")
    do(st, 0, "quiero")
    assert st.round_points == [0, 6] and st.f_record is not None and st.f_record.winner == 1
    assert st.f_record.scores == {1: 38, 0: 38}


def test_two_flores_on_one_team() -> None:
    st = table(n=4, flor=True)  # order 1 2 3 0
    rig(st, s1="4e 5e 6e", s2="1b 2o 3c", s3="7c 1c 12c", s0="4o 2b 6c")
    do(st, 1, "flor")
    do(st, 3, "flor")  # out of turn: each flor alone scores 3
    assert st.round_points == [0, 6]
    assert st.f_record is not None and st.f_record.points == 6 and st.f_record.winner == 1
    for seat, cards in ((1, "4e"), (2, "1b"), (3, "7c"), (0, "4o")):
        do(st, seat, "play", cards)
    do(st, 0, "mazo"), do(st, 2, "mazo")
    assert set(shown(GAME.view(st, 0))) == {1, 3}
    # Against a flor, both partners' flores may answer, and the best of all wins.
    st = table(n=4, flor=True)
    rig(st, s1="4e 5e 6e", s2="1b 2o 3c", s3="7c 1c 12c", s0="4o 5o 7o")
    do(st, 1, "flor")
    assert GAME.to_act(st) == (2,)  # the other team is asked in turn: first seat 2, who has none
    assert kinds(st, 2) == ["son_buenas"] and kinds(st, 0) == FLOR_ANSWERS
    do(st, 2, "son_buenas")
    assert GAME.to_act(st) == (0,)
    do(st, 0, "contra_flor")
    assert GAME.to_act(st) == (1,)  # the sung flor answers; seat 3's flor is not told
    assert kinds(st, 3) == ["quiero", "no_quiero", "contra_flor_al_resto"]  # but may answer too
    assert kinds(st, 2) == []  # no flor, no say
    do(st, 3, "quiero")
    assert st.f_record is not None and st.f_record.winner == 0  # 36 beats 35 and 28
    assert st.f_record.scores == {1: 35, 3: 28, 0: 36} and st.round_points == [6, 0]


def test_flor_comes_before_a_pending_truco() -> None:
    st = table(flor=True)
    rig(st, s1="4e 5e 6e", s0="4o 5o 7o")
    do(st, 0, "truco")
    # Quiero, no quiero, retruco, the flor and the deck; no envido with a flor in hand.
    assert kinds(st, 1) == ["quiero", "no_quiero", "retruco", "flor", "mazo"] and len(GAME.legal_actions(st, 1)) == 5
    do(st, 1, "flor")
    assert GAME.to_act(st) == (0,) and kinds(st, 0) == FLOR_ANSWERS  # the flor first
    do(st, 0, "con_flor_me_achico")
    assert GAME.to_act(st) == (1,) and kinds(st, 1) == ["quiero", "no_quiero", "retruco", "mazo"]  # the truco waits
    do(st, 1, "no_quiero")
    assert st.scores == [1, 4]


def test_legal_action_counts_with_flor() -> None:
    st = table(flor=True)
    rig(st, s1="4e 5e 6e", s0="1b 2o 3c")
    assert len(GAME.legal_actions(st, 1)) == 3  # flor, truco, the deck (no signals in a 1v1)
    assert len(GAME.legal_actions(st, 0)) == 5  # 3 envido calls, truco, the deck
    do(st, 1, "flor")
    assert len(GAME.legal_actions(st, 1)) == 5  # 3 cards, truco, the deck
    assert len(GAME.legal_actions(st, 0)) == 2  # the envido is gone
    st = table(n=6, flor=True)  # order 1 2 3 4 5 0
    rig(st, s1="4e 5e 6e", s4="4o 5o 6o", s2="1b 2o 3c", s3="1o 2c 3e", s5="1c 2e 3b", s0="4b 5c 7c")
    do(st, 1, "flor")
    assert GAME.to_act(st) == (2,)  # the other team in turn from the singer: 2, 4, 0
    # Seat 2 says son buenas (no flor); seat 4 may answer (3 answers); 8 signals each.
    assert [len(GAME.legal_actions(st, s)) for s in range(6)] == [8, 8, 9, 8, 11, 8]


def test_going_to_the_deck_drops_an_unsung_flor() -> None:
    st = table(n=4, flor=True)
    rig(st, s1="1b 2o 3c", s2="4e 5e 6e", s3="7b 1o 11c", s0="4o 5b 6c")
    do(st, 2, "mazo")
    assert not st.owes[2]
    do(st, 1, "envido")
    assert kinds(st, 0) == ["quiero", "no_quiero", "envido", "real_envido", "falta_envido", "mazo"]


def test_flor_refusals_are_sentences() -> None:
    st = table(flor=True)
    rig(st, s1="4e 5e 6e", s0="1b 2o 3c")
    with pytest.raises(IllegalAction, match="no flor"):
        do(st, 0, "flor")
    with pytest.raises(IllegalAction, match="answers a flor"):
        do(st, 0, "contra_flor")
    do(st, 1, "flor")
    with pytest.raises(IllegalAction, match="already sung"):
        do(st, 1, "flor")
    st = table(flor=True)
    rig(st, s1="4e 5e 6e", s0="4o 5o 6o")
    do(st, 1, "flor")
    with pytest.raises(NotYourTurn, match="waiting for an answer"):
        do(st, 1, "play", "4e")
    with pytest.raises(IllegalAction, match="Answer the flor"):
        do(st, 0, "truco")


def test_flor_in_the_pica_pica_1v1s() -> None:
    st = table(n=6, flor=True)
    do(st, 1, "mazo"), do(st, 3, "mazo"), do(st, 5, "mazo")
    GAME.next_hand(st, 2)
    assert st.pica and st.players == (1, 4)
    rig(st, s1="4e 5e 6e", s4="4o 5o 6o", s2="1b 2o 3c", s5="1c 2c 3c", s3="1o 2e 3b", s0="4b 5c 7b")
    do(st, 4, "flor")
    do(st, 1, "contra_flor")
    do(st, 4, "quiero")  # 35 each: seat 1 is mano of this 1v1
    do(st, 1, "mazo")
    assert st.players == (2, 5) and kinds(st, 5) == ["flor", "truco", "mazo"]
    do(st, 5, "flor")  # alone: seat 2 has none
    do(st, 2, "mazo")
    assert st.players == (3, 0)
    do(st, 3, "mazo")
    assert st.result is not None
    duels = result(st)["rounds"]
    assert isinstance(duels, list)
    assert [d.get("flor", {}).get("points") for d in duels] == [6, 3, None]
    assert duels[0]["flor"]["winner"] == 1  # equal flores: the mano of the 1v1
    assert result(st)["points"] == {"0": 1 + 1, "1": 6 + 3 + 1}

# -- signals, views, options -------------------------------------------------------
def test_signals_reach_partners_and_are_caught_by_chance() -> None:
    st = table(n=4, signals_seen=0.0)
    events = GAME.apply(st, 1, Action("signal", value="wink"))
    assert events[0].audience.seats == frozenset({1, 3})
    assert [(s.seat, s.signal) for s in GAME.view(st, 3).signals] == [(1, "wink")] and GAME.view(st, 0).signals == ()
    st = table(n=4, signals_seen=1.0)
    events = GAME.apply(st, 1, Action("signal", value="wink"))
    assert events[0].audience.seats == frozenset({0, 1, 2, 3})
    assert GAME.view(st, None).signals == ()
    with pytest.raises(IllegalAction, match="'shout' is not a signal"):
        GAME.apply(st, 1, Action("signal", value="shout"))


def test_each_gesture_is_made_once_a_hand() -> None:
    """As at paulista: a gesture made is no longer offered, in any state of the hand, and a repeat is refused."""
    st = table(n=4, signals_seen=0.0)
    GAME.apply(st, 1, Action("signal", value="wink"))
    assert "wink" not in {a.value for a in GAME.legal_actions(st, 1) if a.type == "signal"}
    assert "wink" in {a.value for a in GAME.legal_actions(st, 3) if a.type == "signal"}
    with pytest.raises(IllegalAction, match="made that gesture this hand already"):
        GAME.apply(st, 1, Action("signal", value="wink"))
    assert len(st.signals) == 1
    GAME.apply(st, 0, Action("truco"))  # waiting on an answer: the gestures left are still offered, less the one
    for seat in (1, 2):
        offered = {a.value for a in GAME.legal_actions(st, seat) if a.type == "signal"}
        assert offered == ({s.value for s in Signal} - {"wink"} if seat == 1 else {s.value for s in Signal})
    with pytest.raises(IllegalAction, match="made that gesture this hand already"):
        GAME.apply(st, 1, Action("signal", value="wink"))


def test_views_show_only_ones_own_cards() -> None:
    st = table(n=4)
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(st, seat)
        for s in view.seats:
            if s.seat == seat:
                assert len(s.cards) == 3 and view.cards == s.cards
            else:
                assert s.cards == () and s.card_count == 3
    assert GAME.view(st, None).argentino.your_envido is None  # type: ignore[union-attr]


def test_refusals_are_sentences() -> None:
    st = table()
    with pytest.raises(NotYourTurn, match="turn to play"):
        do(st, 0, "play", str(st.hands[0][0]))
    with pytest.raises(IllegalAction, match="no call to answer"):
        do(st, 0, "quiero")
    with pytest.raises(IllegalAction, match="not an action"):
        do(st, 0, "grito")
    with pytest.raises(IllegalAction, match="sin flor"):
        do(st, 0, "flor")


def test_options() -> None:
    assert GAME.options({"flor": True}).flor and not GAME.options({}).flor
    with pytest.raises(InvalidOptions):
        GAME.options({"flor": "maybe"})
    with pytest.raises(InvalidOptions, match="target is one of: 15, 30"):
        GAME.options({"target": 20})
    with pytest.raises(InvalidOptions):
        GAME.options({"colour": "red"})
    with pytest.raises(InvalidOptions):
        GAME.options({"mazo_first": 3})
    assert GAME.options({"target": 15, "ties": "first_trick"}).target == 15
    assert GAME.options({"envido_scored": "at_once", "mazo_first": 2}).mazo_first == 2
    # Tables stored before the ties rule was named by its meaning still open, as the rule they meant.
    assert GAME.options({"ties": "seed"}).ties is Ties.PLAY_ON
    assert GAME.options({"ties": "traditional"}).ties is Ties.FIRST_TRICK
    assert GAME.check_options({"ties": "traditional"})["ties"] == "first_trick"
    assert [s.choices for s in GAME.option_specs if s.name == "ties"] == [("play_on", "first_trick")]
    with pytest.raises(InvalidOptions, match="ties is one of: play_on, first_trick"):
        GAME.options({"ties": "house"})
    with pytest.raises(InvalidOptions):
        GAME.start(GAME.options({}), [SeatInfo(i, "x", i % 2) for i in range(3)], 1)
    assert told(3, 30) == (3, False) and told(20, 30) == (5, True) and told(16, 30) == (1, True)
    assert told(15, 30) == (15, False) and told(7, 15) is None


def test_the_chat_option_is_the_same_as_the_paulistas() -> None:
    """docs/rules.md §3, "Signals (both trucos)": table chat is **option** ``chat`` =
    spectators-and-between-hands (the default) | always, in Truco argentino as in paulista."""
    assert GAME.options({}).chat == Chat.SPECTATORS_AND_BETWEEN_HANDS == "spectators-and-between-hands"
    assert GAME.options({"chat": "always"}).chat == Chat.ALWAYS
    with pytest.raises(InvalidOptions):
        GAME.options({"chat": "never"})
    (spec,) = [s for s in GAME.option_specs if s.name == "chat"]
    assert spec.default == "spectators-and-between-hands"
    assert spec.choices == ("spectators-and-between-hands", "always")
    assert spec == next(s for s in PAULISTA.option_specs if s.name == "chat")


# -- whole matches at random -------------------------------------------------------
def _random_match(n: int, seed: int, options: dict[str, object], flores: list[int] | None = None) -> int:
    rng = random.Random(seed)
    st = table(n=n, seed=seed, **options)
    hands = 0
    while True:
        before = list(st.scores)
        falta = st.falta
        while st.result is None:
            for seat in (None, *range(n)):
                view = GAME.view(st, seat)
                for s in view.seats:
                    if s.seat != seat:
                        assert s.cards == (), "a view shows another seat's cards"
            moves = [(s, a) for s in range(n) for a in GAME.legal_actions(st, s)]
            awaited = GAME.to_act(st)
            assert moves and awaited and all(kinds(st, s) for s in awaited), "a seat is awaited with nothing to do"
            seat, action = rng.choice(moves)
            GAME.apply(st, seat, action)
        hands += 1
        rounds = 3 if st.pica else 1
        for team in (0, 1):
            gained = st.scores[team] - before[team]
            assert 0 <= gained <= rounds * (4 + max(7, 6 * n // 2, falta))
        rounds_json = result(st)["rounds"]
        assert isinstance(rounds_json, list) and len(rounds_json) == rounds
        if flores is not None:
            flores.extend(r["flor"]["points"] for r in rounds_json if "flor" in r)
        assert sum(st.result.deltas) == (n // 2) * (st.scores[0] + st.scores[1] - sum(before))
        record = GAME.history(st)
        assert record is not None and record["game"] == "truco_argentino"
        assert GAME.replay(record).result == st.result
        if GAME.match_over(st):
            return hands
        GAME.next_hand(st, rng.randrange(1 << 30))


@settings(max_examples=60, deadline=None)
@given(
    n=hs.sampled_from([2, 4, 6]),
    seed=hs.integers(0, 10**6),
    ties=hs.sampled_from(["play_on", "first_trick"]),
    with_flor=hs.booleans(),
)
def test_random_matches_keep_the_invariants(n: int, seed: int, ties: str, with_flor: bool) -> None:
    options: dict[str, object] = {"ties": ties, "target": 15, "signals_seen": 0.5, "flor": with_flor}
    assert _random_match(n, seed, options) >= 1


@pytest.mark.parametrize("n", [2, 4, 6])
def test_random_matches_with_flor_replay_exactly(n: int) -> None:
    flores: list[int] = []
    for seed in range(12):
        _random_match(n, 1000 * n + seed, {"flor": True, "target": 30}, flores)
    assert flores and all(p >= 3 for p in flores)  # flores came up, and each paid


# -- bots --------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 4, 6])
def test_bots_play_whole_matches_against_random_play(n: int) -> None:
    from cardtui.sim import versus_random

    result = versus_random("truco_argentino", n, matches=40, seed=n)
    assert result.matches == 40
    assert result.wins >= 24, f"bots should clearly beat random play: {result.line('argentino')}"


@pytest.mark.parametrize("n", [2, 4, 6])
def test_bots_play_whole_matches_with_flor(n: int) -> None:
    from cardtui.engine.truco.bots.today import choose_argentino

    rng = random.Random(n)
    for m in range(6):
        st = table(n=n, seed=m, flor=True)
        while not GAME.match_over(st):
            if st.result is not None:
                GAME.next_hand(st, rng.randrange(1 << 30))
                continue
            seat = rng.choice(GAME.to_act(st))
            GAME.apply(st, seat, choose_argentino(GAME.view(st, seat), GAME.legal_actions(st, seat), rng))


def test_bots_never_call_a_truco_that_cannot_change_the_outcome() -> None:
    from cardtui.engine.truco.bots.today import choose_argentino

    st = table()
    st.scores = [10, 29]  # team 1 wins the match with the round's single point anyway
    rig(st, s1="1e 1b 7e", s0="4c 5o 6b")
    for seed in range(30):
        action = choose_argentino(GAME.view(st, 1), GAME.legal_actions(st, 1), random.Random(seed))
        assert action.type != "truco"
    st.scores = [10, 10]
    picks = {choose_argentino(GAME.view(st, 1), GAME.legal_actions(st, 1), random.Random(s)).type for s in range(30)}
    assert "truco" in picks  # with the best three cards it does call when it matters


def test_bots_take_the_trick_with_the_lowest_card_that_wins() -> None:
    from cardtui.engine.truco.bots.today import choose_argentino

    st = table()
    rig(st, s1="4c 5o 6b", s0="1e 3o 2b")
    do(st, 1, "play", "6b")
    action = choose_argentino(
        GAME.view(st, 0), [a for a in GAME.legal_actions(st, 0) if a.type == "play"], random.Random(1)
    )
    assert action.cards == parse_cards("2b")


# -- docs/rules.md §4: the rulings of issue 9 ----------------------------------------------
def test_the_best_envido_at_the_table_always_wins() -> None:
    """Announce from the last raiser; passed over only while one's team leads; the trailing team is asked."""
    st = table(n=4)  # dealer 0, mano 1: order 1 2 3 0
    rig(st, s1="4e 5b 6c", s2="7o 6o 4b", s3="7e 5e 1c", s0="3b 2b 12o")
    assert [st.env[s] for s in range(4)] == [25, 11, 33, 32]
    do(st, 3, "envido")
    do(st, 0, "real_envido")
    do(st, 1, "quiero")
    said = []
    while st.announcer >= 0:
        seat = st.announcer
        (action,) = [a for a in GAME.legal_actions(st, seat) if a.type != "signal"]  # the table knows every score
        said.append((seat, action.amount if action.type == "announce" else "son buenas"))
        GAME.apply(st, seat, action)
    # Seat 0 (the last raiser) 25; seat 1 cannot beat it; seat 2 is passed over (its team leads);
    # seat 3 takes the lead with 32, so seat 2 is asked after all, and its 33 wins.
    assert said == [(0, 25), (1, "son buenas"), (3, 32), (2, 33)]
    assert st.best == 2 and st.round_points == [5, 0]
    assert st.e_record is not None and st.e_record.winner == 2 and st.e_record.scores == {0: 25, 3: 32, 2: 33}


def test_the_best_envido_at_the_table_always_wins_with_six_players() -> None:
    """docs/rules.md §4 (issue 9.1, 3v3): a seat passed over while its team led still wins with the best envido.

    Announce from the last raiser, counter-clockwise; a player is passed over only while their own
    team holds the best score; whenever the other team takes the lead, each player of the trailing
    team who has not announced is asked, in order. So the best envido at the table always wins.
    """
    st = table(n=6)  # dealer 0, mano 1: order 1 2 3 4 5 0; teams 0 2 4 against 1 3 5
    assert (st.pica, st.players) == (False, (1, 2, 3, 4, 5, 0))  # the 3v3 round
    rig(st, s0="3b 2b 12o", s1="4e 5b 6c", s2="7o 6o 4b", s3="6e 2e 12c", s4="7c 3c 11b", s5="7e 5e 1c")
    assert [st.env[s] for s in range(6)] == [25, 11, 33, 28, 30, 32]
    do(st, 5, "envido")
    do(st, 0, "real_envido")  # seat 0, the last raiser, speaks first
    do(st, 1, "quiero")
    said = []
    while st.announcer >= 0:
        seat = st.announcer
        (action,) = [a for a in GAME.legal_actions(st, seat) if a.type != "signal"]  # the table knows every score
        said.append((seat, action.amount if action.type == "announce" else "son buenas"))
        GAME.apply(st, seat, action)
    # Seat 0 leads with 25; seat 1 cannot beat it; seat 2 is passed over (its team leads);
    # seats 3, 4 and 5 take the lead in turn; team 0 trails again, so seat 2 is asked after all.
    assert said == [(0, 25), (1, "son buenas"), (3, 28), (4, 30), (5, 32), (2, 33)]
    assert st.envido.closed and st.best == 2 and st.round_points == [2 + 3, 0]
    assert st.e_record is not None and st.e_record.winner == 2
    assert st.e_record.scores == {0: 25, 3: 28, 4: 30, 5: 32, 2: 33}


def test_son_buenas_only_when_the_envido_cannot_win() -> None:
    st = table()
    rig(st, s1="7o 6o 4e", s0="1e 2e 3c")
    do(st, 1, "envido")
    do(st, 0, "quiero")
    with pytest.raises(IllegalAction, match="Your envido wins: announce it"):
        do(st, 1, "son_buenas")  # the first to speak always leads
    do(st, 1, "announce", amount=33)
    with pytest.raises(IllegalAction, match="cannot win"):
        do(st, 0, "announce", amount=23)


def test_a_card_played_before_going_to_the_deck_cannot_win() -> None:
    st = table(n=4)  # order 1 2 3 0
    rig(st, s1="1e 4e 5e", s2="3o 5o 6o", s3="4c 5b 6b", s0="5c 6c 7c")
    do(st, 1, "play", "1e")  # the best card there is
    do(st, 1, "mazo")  # out of turn: its card can no longer win
    view = GAME.view(st, 0)
    assert view.trick[0].card == Card.parse("1e") and view.trick[0].void
    _play_out(st, "3o", "4c", "5c")
    assert st.tricks[0].winner == 2 and st.results == [0]  # seat 2's 3o takes it
    assert GAME.view(st, 0).tricks[0].plays[0].void
    do(st, 3, "mazo")  # team 1 is gone
    assert result(st)["tricks"] == [
        {"cards": {"1": "1e", "2": "3o", "3": "4c", "0": "5c"}, "winner": 2, "void": [1]}
    ]


def test_going_to_the_deck_facing_a_truco_is_a_no_quiero() -> None:
    st = table(n=4)
    do(st, 1, "truco")
    events = GAME.apply(st, 2, Action("mazo"))  # seat 0 is still in: the round ends all the same
    assert [e.kind for e in events[:2]] == ["ArgentinoWentToDeck", "TrucoAnswered"]
    assert events[0].body.no_quiero  # type: ignore[attr-defined]
    assert st.result is not None and st.scores == [0, 1]  # truco refused: 1


def test_going_to_the_deck_facing_an_envido_is_a_no_quiero_and_play_goes_on() -> None:
    st = table(n=4)
    do(st, 1, "envido")
    do(st, 2, "mazo")
    assert st.envido.closed and st.round_points == [0, 1] and st.result is None
    assert not st.live[2] and GAME.to_act(st) == (1,)
    with pytest.raises(NotYourTurn, match="waiting for an answer"):
        st2 = table(n=4)
        do(st2, 1, "envido")
        do(st2, 3, "mazo")  # the callers' own call waits: no leaving on it


@pytest.mark.parametrize(("mazo_first", "points"), [(1, 1), (2, 2)])
def test_going_to_the_deck_in_the_first_trick_with_the_envido_open(mazo_first: int, points: int) -> None:
    st = table(mazo_first=mazo_first)
    do(st, 1, "mazo")  # the mano leaves before anything is called
    assert st.scores == [points, 0]
    st = table(mazo_first=mazo_first)
    do(st, 1, "envido")
    do(st, 0, "no_quiero")
    do(st, 1, "mazo")  # the envido was played: the plain stake
    assert st.scores == [1, 1]
    st = table(mazo_first=mazo_first)
    rig(st, s1="4e 5e 6e", s0="4o 5o 7o")
    do(st, 1, "play", "4e")
    do(st, 0, "play", "5o")
    do(st, 1, "mazo")  # trick 1 is over: the plain stake
    assert st.scores == [1, 0]
    st = table(mazo_first=mazo_first)
    do(st, 1, "truco")
    do(st, 0, "mazo")  # facing a truco in trick 1 with the envido open: the more of the two
    assert st.scores == [0, points]


def test_envido_scored_at_once_can_decide_a_29_29_game() -> None:
    st = table(envido_scored="at_once")
    st.scores = [29, 29]
    do(st, 1, "envido")
    events = GAME.apply(st, 0, Action("no_quiero"))
    assert st.scores == [29, 30] and st.result is not None and GAME.match_over(st)
    assert st.result.rounds[0].reason == "envido"
    assert events[-1].kind == "MatchEnded" and events[-1].body.team == 1  # type: ignore[attr-defined]


def test_both_teams_past_the_target_play_on_until_one_ends_a_round_ahead() -> None:
    """The seed's example, scored at the round's end: 29-29, an envido and a truco both refused."""
    st = table()
    st.scores = [29, 29]
    do(st, 1, "envido")
    do(st, 0, "no_quiero")
    assert st.scores == [29, 29]  # added when the round ends
    do(st, 0, "truco")
    do(st, 1, "no_quiero")
    assert st.scores == [30, 30] and not GAME.match_over(st)  # both there: play on
    GAME.next_hand(st, 5)
    do(st, 0, "mazo")  # the mano (seat 0 now) leaves: team 1 ends a round ahead
    assert st.scores == [30, 31] and GAME.match_over(st)


def test_no_signals_without_a_partner_in_the_round() -> None:
    st = table()
    assert "signal" not in {a.type for s in (0, 1) for a in GAME.legal_actions(st, s)}
    with pytest.raises(IllegalAction, match="nobody to signal to"):
        GAME.apply(st, 1, Action("signal", value="wink"))
    st = table(n=6)
    do(st, 1, "mazo"), do(st, 3, "mazo"), do(st, 5, "mazo")
    GAME.next_hand(st, 2)  # the pica-pica duels: no partner plays them
    assert st.pica
    assert "signal" not in {a.type for s in range(6) for a in GAME.legal_actions(st, s)}
    with pytest.raises(IllegalAction):
        GAME.apply(st, 2, Action("signal", value="wink"))  # waiting for its duel


@pytest.mark.parametrize("holder", [0, 2])
def test_the_waiting_list_does_not_single_out_a_flor_holder(holder: int) -> None:
    st = table(n=4, flor=True)  # order 1 2 3 0
    hands = {"s1": "4e 5e 6e", "s3": "1b 2o 3c", "s0": "4b 5c 7c", "s2": "5b 6c 7o"}
    hands[f"s{holder}"] = "4o 5o 7o"
    rig(st, **hands)
    do(st, 1, "flor")
    assert GAME.to_act(st) == (2,)  # whoever holds the flor: the other team in turn from the singer
    if holder == 2:
        assert kinds(st, 2) == FLOR_ANSWERS
        do(st, 2, "con_flor_me_achico")
    else:
        assert kinds(st, 2) == ["son_buenas"] and kinds(st, 0) == FLOR_ANSWERS
        do(st, 2, "son_buenas")
        assert GAME.to_act(st) == (0,)
        do(st, 0, "con_flor_me_achico")
    assert st.f_done and st.round_points == [0, 4]


def test_the_view_says_what_a_screen_needs() -> None:
    st = table(n=4)
    st.scores = [20, 3]
    view = GAME.view(st, 1)
    part = view.argentino
    assert part is not None
    assert [(t.count, t.buenas) for t in part.told] == [(5, True), (3, False)]  # 5 buenas, 3 malas
    assert part.falta == 10 and part.envido_open and part.may_envido and part.your_envido == st.env[1]
    assert view.stake == 1 and view.raisers == (0, 1) and view.your_raise is not None
    assert [(r.call, r.value, r.refused) for r in view.ladder] == [
        (Word.TRUCO, 2, 1), (Word.RETRUCO, 3, 2), (Word.VALE_CUATRO, 4, 3)
    ]
    do(st, 1, "truco")
    do(st, 2, "quiero")
    view = GAME.view(st, 1)
    assert view.stake == 2 and view.raisers == (0,) and view.your_raise is None  # the acceptors raise next
    assert not view.argentino.envido_open  # type: ignore[union-attr]
    do(st, 2, "retruco")
    view = GAME.view(st, 3)
    assert view.pending is not None and view.pending.bet is Bet.TRUCO and view.pending.answering_team == 1
    assert (view.pending.value, view.pending.refused) == (3, 2) and view.your_raise is not None


def test_a_game_to_15_ends_at_15() -> None:
    st = table(target=15)
    st.scores = [14, 3]
    view = GAME.view(st, 0)
    assert view.target == 15 and view.argentino is not None and view.argentino.told == ()  # no malas nor buenas
    assert view.argentino.falta == 1
    do(st, 1, "mazo")  # the mano leaves: team 0 takes 1
    assert st.scores == [15, 3] and GAME.match_over(st)


@pytest.mark.parametrize("cards", ["4o 5o 7o", "4o 5b 7c"])
def test_whether_the_envido_is_open_does_not_tell_of_a_flor(cards: str) -> None:
    st = table(flor=True)  # mano 1
    rig(st, s1="4e 5b 6c", s0=cards)
    do(st, 1, "play", "4e")
    part = GAME.view(st, 1).argentino
    assert part is not None and part.envido_open  # seat 0 has not played: it is open, flor or not


# -- the hand's records and generator, made the fast way --------------------------------
def test_a_hands_generator_is_random_random_of_its_seed_in_the_same_state() -> None:
    from cardtui.engine.fairness import hand_rng

    for seed in (0, 1, 11, 2**31 - 1, 2**63 + 5, -7):
        fast, plain = hand_rng(seed), random.Random(seed)
        assert type(fast) is random.Random
        assert fast.getstate() == plain.getstate()
        assert [fast.getrandbits(6) for _ in range(40)] == [plain.getrandbits(6) for _ in range(40)]
        assert fast.gauss(0, 1) == plain.gauss(0, 1) and fast.getstate() == plain.getstate()


def test_a_dealt_event_is_the_record_its_constructor_makes() -> None:
    from cardtui.engine.core import Event, only
    from cardtui.engine.events import CardsDealt
    from cardtui.engine.truco.base import dealt_event

    cards = parse_cards("1e 7o 4c")
    fast, plain = dealt_event(2, cards, only(2)), Event(CardsDealt(2, cards), only(2))
    assert type(fast) is Event and type(fast.body) is CardsDealt
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    assert fast.body.seat == 2 and fast.body.cards == cards and fast.audience == only(2)
    with pytest.raises(AttributeError):
        fast.body.seat = 3  # type: ignore[misc]
    state, events = GAME.start(GAME.options({}), [SeatInfo(i, f"p{i}", i % 2) for i in range(4)], 11)
    dealt = [e for e in events if isinstance(e.body, CardsDealt)]
    assert [e.body.seat for e in dealt] == [0, 1, 2, 3]
    assert all(e == Event(CardsDealt(e.body.seat, state.dealt[e.body.seat]), only(e.body.seat)) for e in dealt)


def test_a_record_made_by_its_slots_is_the_one_its_constructor_makes() -> None:
    from cardtui.engine.truco.base import made
    from cardtui.engine.truco.events import Reason
    from cardtui.engine.truco.views import TrucoResult, TrucoRoundResult

    rounds = (TrucoRoundResult(1, (0, 1), 0, 2, Reason.TRICKS, (2, 0)),)
    fast, plain = made(TrucoResult, (2, 0), (2, 0), 0, rounds, (5, 3)), TrucoResult((2, 0), (2, 0), 0, rounds, (5, 3))
    assert type(fast) is TrucoResult and fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    with pytest.raises(TypeError, match="5 fields, not 4"):
        made(TrucoResult, (2, 0), (2, 0), 0, rounds)


def test_round_records_compare_hash_and_print_by_their_attributes() -> None:
    import copy

    from cardtui import native
    from cardtui.engine.truco.argentino.state import EnvidoRecord, RoundRecord, Trick
    from cardtui.engine.truco.events import Reason

    cards = parse_cards("1e 7o")
    trick = Trick(((0, cards[0]), (1, cards[1])), 0, frozenset())
    same = Trick(((0, cards[0]), (1, cards[1])), 0, frozenset())
    assert trick == same and hash(trick) == hash(same) and trick != Trick(trick.plays, 1, frozenset())
    assert repr(trick).startswith("Trick(") and "winner=0" in repr(trick)
    envido = EnvidoRecord((Word.ENVIDO,), True, False, 2, 0, {0: 27}, 0, cards)
    record = RoundRecord(1, (0, 1), 1, (trick,), 0, 1, Reason.TRICKS, (3, 0), envido, None)
    assert copy.deepcopy(record) is record and record.tricks == (same,) and record.envido == envido
    assert record.result.reason == Reason.TRICKS and record.result is RoundRecord(*[
        getattr(record, n) for n in ("round", "seats", "mano", "tricks", "team", "stake", "reason", "points",
                                     "envido", "flor")]).result  # shared by value
    if native.STATUS.startswith("compiled"):
        with pytest.raises(AttributeError):
            trick.winner = 1  # type: ignore[misc]


def test_the_rulings_envido_table_is_the_engines() -> None:
    """docs/rules.md's table of envido bets states what the engine pays, row by row (a clone's own ruling: a
    player who reads it must be paid what it says)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text.split("### Envido bets", 1)[1].split("\n### ", 1)[0]
    words = {"Envido": E, "Real Envido": R}
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| ") and not line.startswith("| bets") and not line.startswith("| Falta")]
    assert len(rows) == 6, rows
    for calls, accepted, refused in rows:
        seq = tuple(words[c.strip()] for c in calls.split(","))
        assert (accepted_value(seq, 9), refused_value(seq)) == (int(accepted), int(refused)), calls
