"""Truco paulista, docs/rules.md §3: the deal, every tie ruling, truco and its caps, onze and ferro."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from cardtui.engine.cards import parse_cards
from cardtui.engine.core import Action, IllegalAction, InvalidOptions, NotYourTurn, SeatInfo
from cardtui.engine.truco.events import DealChoice, PaulistaDealChoice, PaulistaPartnerCards, TrucoSignalled
from cardtui.engine.truco.ladder import Word
from cardtui.engine.truco.paulista.game import GAME, PaulistaState
from cardtui.engine.truco.paulista.rules import ACTION_TYPES, DECK, RANK
from cardtui.engine.truco.signals import Signal
from cardtui.engine.truco.views import PaulistaPhase, TrucoPlay, TrucoStake, TrucoView
from cardtui.v1 import analysis_pb2
from tests.engine.replaying import Played, check_steps, played
from tests.engine.replaying import kinds as event_kinds
from tests.per_game import GameTests, Hands, Reason, Short, Sim, Taps


def paulista_truco_and_face_down() -> Played:
    """The mão keeps; truco is called and accepted (the hand stays best of three); a card goes face down."""
    called = {"truco": False, "down": False}

    def choose(state: Any, seat: int, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if "keep" in types:
            return Action("keep")
        if "truco" in types and not called["truco"]:
            called["truco"] = True
            return Action("truco")
        if "accept" in types:
            return Action("accept")
        if "play_down" in types and not called["down"]:
            called["down"] = True
            return next(a for a in legal if a.type == "play_down")
        return next(a for a in legal if a.type == "play")

    return played(GAME, 4, 3, choose, truco_decides="hand")


def test_a_truco_paulista_hand_with_a_truco_call_and_a_face_down_card() -> None:
    record, live, actors = paulista_truco_and_face_down()
    steps = check_steps(GAME, record, live, actors)
    assert "TrucoCalled" in event_kinds(live) and "TrucoAnswered" in event_kinds(live)
    for step in steps:
        view = step.view
        assert isinstance(view, TrucoView) and view.cards == ()
        assert all(len(s.cards) == s.card_count for s in view.seats), "every hand face up"
    kept = steps[1].view
    assert isinstance(kept, TrucoView) and all(s.card_count == 3 for s in kept.seats)
    down = next(i for i, s in enumerate(steps) if s.action is not None and s.action.type == "play_down")
    view = steps[down].view
    assert isinstance(view, TrucoView)
    plays = [p for t in view.tricks for p in t.plays] + list(view.trick)
    face_down = next(p for p in plays if p.face_down)
    assert face_down.card is not None and steps[down].action is not None
    assert face_down.card == steps[down].action.cards[0], "the open view turns a face-down card up"
    # Live, nobody saw that card's face but the player who played it.
    over = GAME.replay(record)
    for seat in range(4):
        downs = [p for t in GAME.view(over, seat).tricks for p in t.plays if p.face_down]
        assert downs and all((p.card is not None) == (p.seat == seat) for p in downs), seat
    end = steps[-1].view
    assert isinstance(end, TrucoView) and end.result is not None and end.level == 1


def paulista_deal(vector: dict[str, Any]) -> dict[str, list[str]]:
    """§10.3: three-card blocks from the front; the mão first, then as its choices say."""
    record = vector["history"]
    pack = list(vector["packs"][0])
    mao = (record["dealer"] + 1) % 4
    held: dict[int, list[str]] = {s: [] for s in range(4)}
    blocks: list[dict[str, Any]] = []

    def give(seat: int) -> None:
        held[seat] = pack[:3]
        del pack[:3]
        blocks.append({"to": seat, "cards": held[seat]})

    on11 = [t for t in (0, 1) if record["start"][str(t)] == 11]
    if on11:
        for i in range(4):
            give((mao + i) % 4)
    else:
        give(mao)
        for a in record["actions"]:
            if a["seat"] != mao or a["type"] not in ("keep", "pass_cards", "reject"):
                continue
            if a["type"] == "reject":
                assert a["cards"] == held[mao]
                give(mao)
            elif a["type"] == "pass_cards":
                assert a["cards"] == held[mao]
                held[(mao + 2) % 4] = held[mao]
                give(mao)
            else:
                for s in ((mao + 1) % 4, (mao + 2) % 4, (mao + 3) % 4):
                    if not held[s]:
                        give(s)
    assert blocks == vector["blocks"]
    return {str(s): held[s] for s in range(4)}


REASONS = {
    "trick": Reason(
        analysis_pb2.AnalysisReason(
            truco=analysis_pb2.TrucoAdvice(
                first=0.89,
                second=0.2,
                won=1,
                lost=0,
                trick=2,
                table=["5D", "3S"],
                high="3S",
                high_side=analysis_pb2.TRUCO_SIDE_THEIRS,
                card="7C",
                card_does=analysis_pb2.TRUCO_OUTCOME_LOSES,
                best_card="3H",
                best_does=analysis_pb2.TRUCO_OUTCOME_TIES,
                tie_goes=analysis_pb2.TRUCO_SIDE_YOURS,
                decides=True,
            )
        ),
        {
            "en": (
                "On the table in trick 2: 5♦, 3♠; their 3♠ holds it.",
                "The 7♣ leaves the trick to the other side.",
                "The best choice: with the 3♥ the trick stands tied.",
                "A tie of this trick gives your side the hand.",
                "Taking this trick takes the hand.",
            ),
            "pt_BR": (
                "Na mesa, na vaza 2: 5♦, 3♠; o 3♠ deles leva.",
                "O 7♣ deixa a vaza para o outro lado.",
                "A melhor escolha: com o 3♥ a vaza fica empatada.",
                "Um empate nesta vaza dá a mão ao seu lado.",
            ),
            "es": (
                "En la mesa, en la baza 2: 5♦, 3♠; el 3♠ de ellos la gana.",
                "El 7♣ le deja la baza al otro lado.",
                "La mejor opción: con el 3♥ la baza queda empardada.",
                "Una parda en esta baza le da la mano a tu lado.",
            ),
        },
    ),
    "sure": Reason(
        analysis_pb2.AnalysisReason(
            truco=analysis_pb2.TrucoAdvice(
                first=1.0,
                second=0.6,
                trick=1,
                table=["7C", "QD"],
                high="QD",
                high_side=analysis_pb2.TRUCO_SIDE_THEIRS,
                card="AD",
                card_does=analysis_pb2.TRUCO_OUTCOME_TAKES,
                best_card="4C",
                best_does=analysis_pb2.TRUCO_OUTCOME_SURE,
                tie_goes=analysis_pb2.TRUCO_SIDE_NEITHER,
                decides=True,
            )
        ),
        {
            "en": (
                "The A♦ takes the trick as it stands.",
                "The best choice: the 4♣ takes the trick whatever the other side still plays.",
            ),
            "pt_BR": (
                "O A♦ leva a vaza como está.",
                "A melhor escolha: o 4♣ leva a vaza, jogue o outro lado o que jogar.",
            ),
            "es": (
                "El A♦ gana la baza tal como está.",
                "La mejor opción: el 4♣ gana la baza, juegue lo que juegue el otro lado.",
            ),
        },
    ),
}
"""The analysis's reasons at this game, and what is said of each in every language (tests/per_game.py)."""


TESTS = GameTests(watched=Short(4), tournament=Short(4), entries=5, offered=ACTION_TYPES, usual=4,
                  fair=(Hands(4, 120),),
                  sims=(Sim(4, {}, 20, "easy"),
                        Sim(4, {"truco_decides": "hand", "chat": "always", "signals_seen": 1.0}, 20, "easy")),
                  tampered=True, taps=Taps(None), reasons=REASONS, replayed=paulista_truco_and_face_down,
                  deal=paulista_deal)
"""This game's rows in the shared tests that keep one for each game (tests/per_game.py)."""


SEATS = [SeatInfo(i, f"p{i}", i % 2) for i in range(4)]


def table(seed: int = 1, scores: tuple[int, int] = (0, 0), **options: object) -> PaulistaState:
    """A hand dealt by seat 0 (the mão is seat 1) at these scores."""
    state, _ = GAME.resume(GAME.options(options), SEATS, list(scores), 0, 1, seed)
    return state


def kept(seed: int = 1, **hands: str) -> PaulistaState:
    """The mão keeps; then ``hands`` (``s1="4C 3S 5H"``) replace what was dealt."""
    st = table(seed)
    GAME.apply(st, 1, Action("keep"))
    for key, text in hands.items():
        st.hands[int(key[1:])] = list(parse_cards(text))
    return st


def do(st: PaulistaState, seat: int, kind: str, card: str = "", amount: int = 0) -> None:
    if kind in ("pass_cards", "reject"):  # these name the cards they move: the ones held
        GAME.apply(st, seat, Action(kind, cards=tuple(st.hands[seat])))
        return
    GAME.apply(st, seat, Action(kind, amount=amount, cards=parse_cards(card) if card else ()))


def kinds(st: PaulistaState, seat: int) -> list[str]:
    return [a.type for a in GAME.legal_actions(st, seat) if a.type != "signal"]


def play_out(st: PaulistaState, *cards: str) -> None:
    for card in cards:
        down = card.startswith("~")
        do(st, GAME.to_act(st)[0], "play_down" if down else "play", card.lstrip("~"))


def history(st: PaulistaState) -> dict[str, object]:
    record = GAME.history(st)
    assert record is not None
    return record


def test_ranking_manilhas_then_three_down_to_four() -> None:
    assert len(DECK) == 40 and not any(c.rank in (8, 9, 10) for c in DECK)
    order = sorted(DECK, key=lambda c: -RANK[c])
    assert [str(c) for c in order[:4]] == ["4C", "7H", "AS", "7D"]
    rest = [sorted({c.rank for c in DECK if RANK[c] == v}) for v in sorted(set(RANK.values()), reverse=True)][4:]
    assert rest == [[3], [2], [1], [13], [11], [12], [7], [6], [5], [4]]


# -- the deal ----------------------------------------------------------------------
def test_the_mao_keeps_and_the_others_are_dealt_in_turn() -> None:
    st = table()
    assert [len(h) for h in st.hands] == [0, 3, 0, 0]
    assert kinds(st, 1) == ["keep", "pass_cards", "reject"] and kinds(st, 2) == []
    events = GAME.apply(st, 1, Action("keep"))
    dealt = [e.seat for e in events if e.kind == "CardsDealt"]
    assert dealt == [2, 3, 0]
    assert all(e.audience.seats == frozenset({e.seat}) for e in events if e.kind == "CardsDealt")
    assert GAME.to_act(st) == (1,) and st.phase == PaulistaPhase.PLAY


def test_passing_gives_the_cards_to_the_partner_then_keep_or_reject_only() -> None:
    st = table()
    first = list(st.hands[1])
    do(st, 1, "pass_cards")
    assert st.hands[3] == first and len(st.hands[1]) == 3 and st.hands[1] != first
    assert kinds(st, 1) == ["keep", "reject"]
    with pytest.raises(IllegalAction, match="passed once"):
        do(st, 1, "pass_cards")
    do(st, 1, "keep")
    assert st.hands[3] == first and all(len(h) == 3 for h in st.hands)


def test_at_most_three_rejections_shown_face_up() -> None:
    st = table()
    for _ in range(3):
        do(st, 1, "reject")
    assert kinds(st, 1) == ["keep", "pass_cards"]
    view = GAME.view(st, None)
    assert view.paulista is not None and len(view.paulista.rejected) == 9  # face up, out of play
    assert view.paulista.rejects_left == 0
    with pytest.raises(IllegalAction, match="Three hands"):
        do(st, 1, "reject")
    do(st, 1, "keep")
    assert len({c for h in st.hands for c in h} | set(st.rejected)) == 21


def test_the_history_records_no_stray_field_sent_with_a_call_an_answer_or_a_signal() -> None:
    st = kept()
    caller = st.to_play[0]
    GAME.apply(st, caller, Action("truco", amount=7, cards=parse_cards("AS"), value="x"))
    GAME.apply(st, (caller + 1) % 4, Action("accept", amount=3))
    GAME.apply(st, caller, Action("signal", amount=2, value=Signal.WINK.value))
    assert st.log is not None
    assert [(seat, a) for seat, a, _ in st.log.actions[-3:]] == [
        (caller, Action("truco")), ((caller + 1) % 4, Action("accept")), (caller, Action("signal", value="wink"))]


def test_the_history_lists_each_card_once_where_it_went() -> None:
    """Passed cards only under the partner who plays them; rejected ones in their reject actions."""
    st = table(seed=5)
    rejected = tuple(st.hands[1])
    events = GAME.apply(st, 1, Action("reject", cards=rejected))
    assert events[0].body == PaulistaDealChoice(1, DealChoice.REJECT, rejected)  # shown to everyone
    passed = tuple(st.hands[1])
    do(st, 1, "pass_cards")
    do(st, 1, "keep")
    final = [tuple(h) for h in st.hands]
    do(st, 1, "truco")
    do(st, 0, "run")
    record = history(st)
    deal = record["deal"]
    assert isinstance(deal, dict)
    assert deal == {str(s): [str(c) for c in final[s]] for s in range(4)}
    assert deal["3"] == [str(c) for c in passed]
    actions = record["actions"]
    assert isinstance(actions, list)
    assert actions[0] == {"seq": 1, "seat": 1, "type": "reject", "cards": [str(c) for c in rejected]}
    assert actions[1]["type"] == "pass_cards" and actions[1]["cards"] == [str(c) for c in passed]
    assert GAME.history(GAME.replay(record)) == record


# -- tricks and ties ---------------------------------------------------------------
HANDS = {"s1": "3S 2S KS", "s2": "3H 2H KH", "s3": "4S 5S 6S", "s0": "4H 5H 6H"}


def test_partners_tying_win_and_the_earlier_leads() -> None:
    st = kept(s1="3S 4S 5S", s2="4H 5H 6H", s3="3H 6S 7S", s0="4D 5D 6D")
    play_out(st, "3S", "4H", "3H", "4D")
    assert st.results == [1] and GAME.to_act(st) == (1,)


def test_opponents_tie_the_earlier_tying_player_leads() -> None:
    st = kept(**HANDS)
    play_out(st, "3S", "3H", "4S", "4H")
    assert st.results == [None] and GAME.to_act(st) == (1,)
    play_out(st, "KS", "2H", "5S", "5H")  # trick 1 tied: the next decided trick decides
    assert st.result is not None and st.scores == [1, 0]


def test_first_trick_winner_takes_a_later_tie() -> None:
    st = kept(s1="3S 2S 5S", s2="4H 2H KH", s3="4S 6S 7S", s0="5H 6H 7C")
    play_out(st, "3S", "4H", "4S", "5H")  # team 1 takes trick 1
    play_out(st, "2S", "2H", "6S", "6H")  # tied
    assert st.result is not None and st.scores == [0, 1] and len(GAME.view(st, 0).tricks) == 2


def test_a_tied_third_trick_goes_to_the_first_tricks_winner() -> None:
    st = kept(s1="3S KS 2S", s2="4H 3H 2H", s3="4S 5S 6S", s0="5H 6H 7C")
    play_out(st, "3S", "4H", "4S", "5H")  # team 1
    play_out(st, "KS", "3H", "5S", "6H")  # team 0; seat 2 leads
    play_out(st, "2H", "6S", "7C", "2S")  # tied
    assert st.scores == [0, 1]


def test_three_tied_tricks_go_to_the_maos_team() -> None:
    st = kept(s1="3S 2S KS", s2="3H 2H KH", s3="4S 5S 6S", s0="4H 5H 6H")
    play_out(st, "3S", "3H", "4S", "4H", "2S", "2H", "5S", "5H", "KS", "KH", "6S", "6H")
    assert st.scores == [0, 1] and st.result is not None and len(history(st)["result"]["tricks"]) == 3  # type: ignore[index]


def test_face_down_only_on_later_tricks_and_it_cannot_win() -> None:
    st = kept(s1="4S 5S 6S", s2="3H 2H KH", s3="4D 5D 6D", s0="4H 5H 6H")
    assert "play_down" not in kinds(st, 1)
    with pytest.raises(IllegalAction, match="second and third"):
        do(st, 1, "play_down", "4S")
    play_out(st, "4S", "3H", "4D", "4H")  # seat 2 leads trick 2
    assert kinds(st, 2).count("play_down") == 2
    play_out(st, "~2H", "6D", "5H", "5S")
    assert st.trick_plays[1][1] == 3  # the face-down 2H would have won face up
    assert GAME.view(st, 0).tricks[1].plays[0] == TrucoPlay(2, None, True, False)


def test_a_trick_played_all_face_down_is_a_tie() -> None:
    st = kept(s1="3S 4S 5S", s2="4H 5H 6H", s3="5D 6D 7S", s0="4D 6C 7C")
    play_out(st, "3S", "4H", "5D", "4D")  # team 1; seat 1 leads
    play_out(st, "~4S", "~5H", "~6D", "~6C")
    assert st.results == [1, None]
    assert st.result is not None and st.scores == [0, 1]  # a tie after a won first trick


# -- truco -------------------------------------------------------------------------
def test_truco_on_ones_turn_answered_by_either_opponent() -> None:
    st = kept()
    assert "truco" in kinds(st, 1) and "truco" not in kinds(st, 2)
    do(st, 1, "truco")
    assert GAME.to_act(st) == (0, 2)
    assert kinds(st, 0) == ["accept", "run", "seis"] == kinds(st, 2)
    assert kinds(st, 1) == [] and kinds(st, 3) == []
    pending = GAME.view(st, 0).pending
    assert pending is not None and (pending.call, pending.team, pending.answering_team) == (Word.TRUCO, 1, 0)
    assert (pending.value, pending.refused, pending.raises) == (3, 1, (Word.SEIS,))
    do(st, 2, "seis")
    assert kinds(st, 1) == ["accept", "run", "nove"]
    do(st, 3, "run")  # the raisers score the stake before the raise
    assert st.scores == [3, 0]


@pytest.mark.parametrize(("calls", "points"), [(1, 1), (2, 3), (3, 6), (4, 9)])
def test_running_pays_the_stake_before_the_call(calls: int, points: int) -> None:
    st = kept()
    seat = 1
    for name in ("truco", "seis", "nove", "doze")[:calls]:
        do(st, seat, name)
        seat = (seat + 1) % 4
    do(st, seat, "run")
    caller = (seat - 1) % 2
    assert st.scores[caller] == points


def test_no_raise_beyond_what_the_team_needs() -> None:
    st, _ = GAME.resume(GAME.options({}), SEATS, [6, 2], 0, 1, 1)
    do(st, 1, "keep")
    do(st, 1, "truco")  # team 1 on 2
    do(st, 0, "seis")  # team 0 on 6: 6 + 3 < 12, may raise
    assert kinds(st, 1) == ["accept", "run", "nove"]
    do(st, 1, "nove")
    assert kinds(st, 0) == ["accept", "run"]  # accepting 9 already wins for team 0
    view = GAME.view(st, 0)  # the prompt offers no raise to a team on 6 facing nove
    assert view.your_raise is None and view.pending is not None and view.pending.raises == ()
    assert view.raisers == ()
    with pytest.raises(IllegalAction, match="past what your team needs"):
        do(st, 0, "doze")


def test_a_team_on_6_facing_seis_cannot_raise_to_nove() -> None:
    """docs/rules.md §3: no call or raise by a team that winning the current stake would already take
    to 12; the seed's own example, a team on 6 cannot raise six to nine (a team on 5 can)."""
    st, _ = GAME.resume(GAME.options({}), SEATS, [2, 6], 0, 1, 1)
    do(st, 1, "keep")
    do(st, 1, "truco")  # team 1 on 6: 6 + 1 < 12, may call
    do(st, 2, "seis")  # team 0 on 2
    assert kinds(st, 1) == ["accept", "run"] == kinds(st, 3)  # 6 + 6 already takes team 1 to 12
    view = GAME.view(st, 1)
    assert view.pending is not None and view.pending.call == Word.SEIS and view.pending.raises == ()
    with pytest.raises(IllegalAction, match="past what your team needs"):
        do(st, 3, "nove")
    assert GAME.view(st, 1).pending == view.pending and view.pending.value == 6  # the refusal changed nothing
    st, _ = GAME.resume(GAME.options({}), SEATS, [2, 5], 0, 1, 1)
    do(st, 1, "keep")
    do(st, 1, "truco")
    do(st, 2, "seis")
    assert kinds(st, 1) == ["accept", "run", "nove"]  # 5 + 6 < 12: a team on 5 may


def test_a_team_on_10_may_call_truco_but_not_raise_past_12() -> None:
    st, _ = GAME.resume(GAME.options({}), SEATS, [2, 10], 0, 1, 1)
    do(st, 1, "keep")
    assert GAME.view(st, 1).your_raise == TrucoStake(Word.TRUCO, 3, 1)  # 10 + 1 < 12
    do(st, 1, "truco")
    do(st, 0, "seis")
    assert kinds(st, 1) == ["accept", "run"]  # 10 + 6 already wins: no nove


def test_an_accepted_truco_lets_the_trick_in_play_decide() -> None:
    st = kept(s1="4S 5S 6S", s2="3H 2H KH", s3="4D 5D 6D", s0="4H 5H 6H")
    do(st, 1, "truco")
    part = GAME.view(st, 0).paulista
    assert part is not None and part.call_decides and not part.trick_decides  # the reminder
    do(st, 0, "accept")
    part = GAME.view(st, 0).paulista
    assert part is not None and part.trick_decides
    assert "seis" not in kinds(st, 1)
    play_out(st, "4S", "3H", "4D", "4H")
    assert st.result is not None and st.scores == [3, 0] and len(GAME.view(st, 0).tricks) == 1


def test_a_raise_awaiting_its_answer_still_tells_that_the_trick_in_play_will_decide() -> None:
    st = kept(s1="4S 5S 6S", s2="3H 2H KH", s3="4D 5D 6D", s0="4H 5H 6H")
    do(st, 1, "truco")
    do(st, 0, "seis")  # raising accepts the truco, but no trick decides until the six is accepted
    for seat in (1, 2, 3):
        part = GAME.view(st, seat).paulista
        assert part is not None and part.call_decides and not part.trick_decides, seat
    do(st, 1, "accept")
    part = GAME.view(st, 1).paulista
    assert part is not None and part.trick_decides and not part.call_decides
    play_out(st, "4S", "3H", "4D", "4H")
    assert st.result is not None and st.scores == [6, 0] and len(GAME.view(st, 0).tricks) == 1


def test_a_tied_deciding_trick_falls_back_to_the_usual_tie_rules() -> None:
    st = kept(s1="3S 4S KS", s2="4H 3H 5C", s3="5S 6S 7S", s0="5H 6H 7C")
    play_out(st, "3S", "4H", "5S", "5H")  # team 1 takes trick 1; seat 1 leads
    do(st, 1, "truco")
    do(st, 2, "accept")
    play_out(st, "4S", "3H", "6S", "6H")  # seat 2's 3H wins trick 2 for team 0: it decides
    assert st.result is not None and st.scores == [3, 0]
    st = kept(s1="3S 4S KS", s2="4H KH 5C", s3="5S 6S 7S", s0="5H 6H 7C")
    play_out(st, "3S", "4H", "5S", "5H")  # team 1 takes trick 1
    do(st, 1, "truco")
    do(st, 2, "accept")
    play_out(st, "KS", "KH", "6S", "6H")  # the deciding trick ties: trick 1's winner takes the hand
    assert st.result is not None and st.scores == [0, 3]


def test_truco_decides_hand_plays_best_of_three_and_the_acceptors_may_raise() -> None:
    st, _ = GAME.resume(GAME.options({"truco_decides": "hand"}), SEATS, [0, 0], 0, 1, 1)
    do(st, 1, "keep")
    st.hands = [list(parse_cards(t)) for t in ("4H 5H 6H", "4S 5S 3S", "3H 2H KH", "4D 5D 6D")]
    do(st, 1, "truco")
    part = GAME.view(st, 0).paulista
    assert part is not None and not part.call_decides
    do(st, 0, "accept")
    play_out(st, "4S", "3H", "4D", "4H")
    assert st.result is None and GAME.to_act(st) == (2,)
    assert "seis" in kinds(st, 2)  # team 0 accepted, so it may raise on its turn
    assert GAME.view(st, 1).raisers == (0,) and GAME.view(st, 1).your_raise is None
    play_out(st, "2H", "5D", "5H", "5S")
    assert st.scores == [3, 0]


def test_after_a_hand_the_mao_deals_next() -> None:
    st = kept()
    do(st, 1, "truco")
    do(st, 0, "run")
    GAME.next_hand(st, 7)
    assert st.dealer == 1 and st.mao == 2 and GAME.to_act(st) == (2,)


# -- mão de onze and mão de ferro --------------------------------------------------
def test_mao_de_onze_team_sees_both_hands_and_decides() -> None:
    st, events = GAME.resume(GAME.options({}), SEATS, [11, 4], 0, 1, 1)
    assert st.phase == PaulistaPhase.ONZE and all(len(h) == 3 for h in st.hands)
    shown = [e for e in events if isinstance(e.body, PaulistaPartnerCards)]
    assert [(e.body.seat, e.audience.seats) for e in shown] == [(2, frozenset({0})), (0, frozenset({2}))]
    assert GAME.to_act(st) == (0, 2)
    assert kinds(st, 1) == [] and kinds(st, 0) == ["accept", "run"]
    partner = GAME.view(st, 0).seats[2]
    assert partner.cards == tuple(st.hands[2])
    assert GAME.view(st, 1).seats[3].cards == () and GAME.view(st, 1).seats[3].card_count == 3
    assert GAME.view(st, None).seats[0].cards == ()
    part = GAME.view(st, None).paulista
    assert part is not None and part.onze_team == 0 and not part.ferro
    do(st, 2, "accept")
    assert st.stake == 3 and "truco" not in kinds(st, 1)
    st = table(scores=(11, 4))
    do(st, 0, "run")
    assert st.scores == [11, 5]


def test_mao_de_ferro_is_played_blind() -> None:
    st = table(scores=(11, 11))
    assert st.phase == PaulistaPhase.PLAY and st.ferro
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(st, seat)
        assert all(s.cards == () and s.card_count == 3 for s in view.seats) and view.cards == ()
    assert [a.amount for a in GAME.legal_actions(st, 1) if a.type == "play_blind"] == [1, 2, 3]
    assert "truco" not in kinds(st, 1)
    card = st.hands[1][1]
    do(st, 1, "play_blind", amount=2)
    assert GAME.view(st, 3).trick == (TrucoPlay(1, card, False, False),)
    with pytest.raises(IllegalAction):
        do(st, 2, "play", str(st.hands[2][0]))


def test_a_won_mao_de_ferro_scores_1_tento() -> None:
    """docs/rules.md §3: both on 11, the mão de ferro is played blind for 1 tento; winning it ends the game at 12."""
    st = table(scores=(11, 11))
    assert st.ferro and st.stake == 1
    st.hands = [list(parse_cards(t)) for t in ("4H 5H 6H", "3S 3H 3D", "4D 5D 6D", "2S 2H 2D")]
    while st.result is None:
        do(st, GAME.to_act(st)[0], "play_blind", amount=1)
    assert st.results == [1, 1] and st.result is not None and st.result.team == 1  # team 1 takes two tricks
    assert st.scores == [11, 12]  # 1 tento, no more
    assert GAME.match_over(st)


def test_a_tied_mao_de_ferro_is_followed_by_another() -> None:
    st = table(scores=(11, 11))
    st.hands = [list(parse_cards(t)) for t in ("5H 6H KH", "5S 6S KS", "5D 6D KD", "5C 6C KC")]
    for _ in range(12):
        do(st, GAME.to_act(st)[0], "play_blind", amount=1)
    assert st.results == [None, None, None] and st.result is not None
    assert st.result.team is None and st.scores == [11, 11]  # nobody scores
    assert not GAME.match_over(st)
    GAME.next_hand(st, 3)
    assert st.ferro and st.phase == PaulistaPhase.PLAY  # another iron hand


# -- signals -----------------------------------------------------------------------
def test_signals_reach_the_partner_and_are_caught_by_chance() -> None:
    st = kept(seed=2)
    st.options = GAME.options({"signals_seen": 0.0})
    events = GAME.apply(st, 1, Action("signal", value="wink"))
    assert events[0].body == TrucoSignalled(1, Signal.WINK) and events[0].audience.seats == frozenset({1, 3})
    assert [s.seat for s in GAME.view(st, 3).signals] == [1] and GAME.view(st, 0).signals == ()
    st.options = GAME.options({"signals_seen": 1.0})
    events = GAME.apply(st, 2, Action("signal", value="kiss"))
    assert events[0].audience.seats == frozenset({0, 1, 2, 3}) and GAME.view(st, None).signals == ()
    with pytest.raises(IllegalAction, match="not a signal"):
        GAME.apply(st, 1, Action("signal", value="shout"))


def test_each_gesture_is_made_once_a_hand() -> None:
    """A partner saw it the first time: the gesture is no longer offered, a repeat is refused with a sentence and
    changes nothing, the others stay offered, and the next hand offers it again."""
    st = kept(seed=2)
    GAME.apply(st, 1, Action("signal", value="wink"))
    offered = {a.value for a in GAME.legal_actions(st, 1) if a.type == "signal"}
    assert "wink" not in offered and len(offered) == 7
    assert "wink" in {a.value for a in GAME.legal_actions(st, 3) if a.type == "signal"}  # the partner's own
    with pytest.raises(IllegalAction, match="made that gesture this hand already"):
        GAME.apply(st, 1, Action("signal", value="wink"))
    assert len(st.signals) == 1
    GAME.apply(st, 3, Action("signal", value="wink"))
    GAME.apply(st, 1, Action("signal", value="kiss"))
    assert [(s, sig.value) for s, sig, _ in st.signals] == [(1, "wink"), (3, "wink"), (1, "kiss")]
    again = kept(seed=2)
    assert "wink" in {a.value for a in GAME.legal_actions(again, 1) if a.type == "signal"}


def test_signals_seen_defaults_to_a_quarter() -> None:
    """docs/rules.md §3: each opponent catches a signal with probability **option** ``signals_seen``, default 0.25."""
    assert GAME.options({}).signals_seen == 0.25
    (spec,) = [s for s in GAME.option_specs if s.name == "signals_seen"]
    assert (spec.default, spec.min, spec.max) == (0.25, 0.0, 1.0)
    caught = 0
    for seed in range(400):  # each gesture once a hand: a hand each
        st = kept(seed=seed)  # a table with every option left at its default
        (event,) = GAME.apply(st, 1, Action("signal", value="wink"))
        seen = event.audience.seats
        assert seen is not None and {1, 3} <= seen  # the partner always sees it
        caught += len(seen & {0, 2})
    assert 150 <= caught <= 250  # of 800 chances: about a quarter (200), not 0, not all


# -- counts, views, options --------------------------------------------------------
def test_legal_action_counts() -> None:
    st = kept(**HANDS)
    assert len(GAME.legal_actions(st, 1)) == 3 + 1 + 8  # cards, truco, signals
    assert len(GAME.legal_actions(st, 2)) == 8
    play_out(st, "3S", "2H", "4S", "4H")
    assert len(GAME.legal_actions(st, 1)) == 2 + 2 + 1 + 8  # face up, face down, truco, signals


def test_refusals() -> None:
    st = kept(**HANDS)
    with pytest.raises(NotYourTurn):
        do(st, 2, "play", "3H")
    with pytest.raises(NotYourTurn):
        do(st, 2, "truco")
    with pytest.raises(IllegalAction, match="do not hold"):
        do(st, 1, "play", "4C")
    with pytest.raises(IllegalAction, match="no call to answer"):
        do(st, 0, "accept")
    with pytest.raises(IllegalAction, match="only in a mão de ferro"):
        do(st, 1, "play_blind", amount=1)
    with pytest.raises(IllegalAction, match="not an action"):
        do(st, 1, "grito")


def test_options() -> None:
    assert GAME.options({"chat": "always"}).chat == "always"
    with pytest.raises(InvalidOptions):
        GAME.options({"truco_decides": "never"})
    with pytest.raises(InvalidOptions):
        GAME.options({"stakes": 3})
    with pytest.raises(InvalidOptions):
        GAME.options({"signals_seen": 2.0})
    with pytest.raises(InvalidOptions):
        GAME.start(GAME.options({}), SEATS[:2], 1)
    assert {s.name for s in GAME.option_specs} == {"truco_decides", "chat", "signals_seen", "sealed"}


# -- whole matches at random -------------------------------------------------------
def _visible_ok(st: PaulistaState, seat: int | None) -> None:
    for s in GAME.view(st, seat).seats:
        assert s.card_count == len(st.hands[s.seat])
        if not s.cards:
            continue
        assert seat is not None and not st.ferro, "a card shown to a spectator or in a mão de ferro"
        onze_partner = st.onze >= 0 and s.seat & 1 == st.onze == seat & 1
        assert s.seat == seat or onze_partner, "a view shows another seat's cards"
        assert list(s.cards) == st.hands[s.seat]


@settings(max_examples=30, deadline=None)
@given(seed=hs.integers(0, 10**6), decides=hs.sampled_from(["trick", "hand"]))
def test_random_matches_keep_the_invariants(seed: int, decides: str) -> None:
    rng = random.Random(seed)
    st, _ = GAME.start(GAME.options({"truco_decides": decides, "signals_seen": 0.5}), SEATS, seed)
    while True:
        before = list(st.scores)
        while st.result is None:
            for seat in (None, 0, 1, 2, 3):
                _visible_ok(st, seat)
            moves = [(s, a) for s in range(4) for a in GAME.legal_actions(st, s)]
            seat, action = rng.choice(moves)
            GAME.apply(st, seat, action)
        gains = [st.scores[t] - before[t] for t in (0, 1)]
        assert sorted(gains)[0] == 0 and sorted(gains)[1] in (0, 1, 3, 6, 9, 12)
        assert st.scores[0] <= 12 + 11 and max(before) < 12
        record = GAME.history(st)
        assert record is not None and GAME.replay(record).result == st.result
        if GAME.match_over(st):
            break
        GAME.next_hand(st, rng.randrange(1 << 30))
    assert max(st.scores) >= 12


def test_bots_play_whole_matches_against_random_play() -> None:
    from cardtui.sim import versus_random

    result = versus_random("truco_paulista", 4, matches=40, seed=4)
    assert result.matches == 40
    assert result.wins >= 24, f"bots should clearly beat random play: {result.line('paulista')}"


def test_signals_caught_are_drawn_from_the_hand_so_a_replay_catches_the_same() -> None:
    st, _ = GAME.start(GAME.options({"signals_seen": 0.5}), SEATS, 11)
    do(st, 1, "keep")
    for seat, gesture in ((1, "bite_lip"), (2, "bite_lip"), (3, "bite_lip"), (0, "bite_lip"), (1, "kiss"), (2, "kiss")):
        GAME.apply(st, seat, Action("signal", value=gesture))
    do(st, 1, "truco")
    do(st, 0, "run")
    replayed = GAME.replay(history(st))
    assert replayed.signals == st.signals and len({who for _, _, who in st.signals}) > 1
