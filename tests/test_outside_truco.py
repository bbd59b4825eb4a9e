"""The bridge to MiniTruco's bots, and our bots' seat in MiniTruco's house.

Without MiniTruco: the situation the bridge puts to a strategy is checked field by field on rigged hands (as a
``JogadorBot`` would put it: its own ``valorProximaAposta``, the trick's leader under a raise, MiniTruco's rule for
a card face down, the trick results it keeps from an earlier hand), a call is put to both partners (a fake driver
stands in for MiniTruco's), and the view our bot gets in MiniTruco's house is held to our engine's own view of the
same table. Where the bench is pointed at a build of MiniTruco's core (``CARDTUI_MINITRUCO``) the bridge is proved
against MiniTruco's referee on a few deals and our bot plays in its house; elsewhere (CI) those tests are skipped
and say why.
"""

from __future__ import annotations

import math
import random

import pytest

from bench import outside_house, outside_truco
from bench.outside_truco import Bridge, Memory
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.truco.paulista.game import GAME as PAU
from cardtui.engine.truco.paulista.game import PaulistaState
from cardtui.engine.truco.views import TrucoRules

MISSING = outside_truco.missing()
needs_minitruco = pytest.mark.skipif(MISSING is not None, reason=f"MiniTruco's bots cannot run here: {MISSING}")


def _hand(start: tuple[int, int] = (3, 7)) -> PaulistaState:
    # Seat 0 deals: seat 1 is the mão and leads; partners 1 and 3 are MiniTruco's positions 2 and 4.
    state, _ = PAU.resume(PAU.options({"truco_decides": "hand"}), [SeatInfo(i, f"p{i}", i % 2) for i in range(4)],
                          list(start), 0, 1, 1)
    for seat, text in enumerate(("4C 3H KS", "7D 2S QH", "AS 5D 6C", "7H 3S JD")):
        state.hands[seat] = list(parse_cards(text))
    PAU.apply(state, 1, Action("keep"))
    return state


class _Table:
    def __init__(self, state: PaulistaState) -> None:
        self.state = state


def _bridge(state: PaulistaState, slots: list[int] | None = None) -> Bridge:
    b = Bridge("G", salt=1)
    b.memory = Memory(match=_Table(state), log=state.log, slots=slots or [0, 0, 0])
    return b


def _play(state: PaulistaState, *moves: tuple[int, str]) -> None:
    for seat, c in moves:
        PAU.apply(state, seat, Action("play", cards=parse_cards(c)))


def test_cards_in_minitruco_notation() -> None:
    assert [outside_truco.card(Card.parse(c)) for c in ("4C", "7H", "AS", "7D", "QS", "KD")] == \
        ["4p", "7c", "Ae", "7o", "Qe", "Ko"]
    assert [outside_house.card(t) for t in ("4p", "7c", "Ae", "7o", "Qe", "Ko")] == \
        [Card.parse(c) for c in ("4C", "7H", "AS", "7D", "QS", "KD")]


def test_a_seat_mid_trick_as_minitruco_sees_it() -> None:
    state = _hand()
    _play(state, (1, "2S"), (2, "5D"))
    fields = _bridge(state).situation(state, 3, turn_call=True).split()
    # position, trick, results, stake, next stake, caller, leader, scores, face down, hand, the table
    assert fields[:12] == ["4", "1", "0", "0", "0", "1", "3", "0", "2", "3", "7", "0"]
    assert fields[12].split(",") == ["7c", "3e", "Jo"]
    assert fields[13].split(",")[:4] == ["-", "2e", "5o", "-"]


def test_answering_a_call_its_next_stake_is_the_seats_own_count() -> None:
    state = _hand()
    _play(state, (1, "2S"), (2, "5D"), (3, "7H"), (0, "KS"))
    PAU.apply(state, 3, Action("truco"))
    fields = _bridge(state).situation(state, 0).split()
    # trick 2, trick 1 to positions 2 and 4 (our team 1); truco called by position 4, who leads the trick
    assert fields[1:5] == ["2", "2", "0", "0"]
    assert fields[7:9] == ["4", "4"]
    # JogadorBot's valorProximaAposta: 3 until a call is accepted (not the seis our rules let this team raise to)
    assert fields[6] == "3"
    PAU.apply(state, 0, Action("accept"))
    assert _bridge(state).situation(state, 0, turn_call=False).split()[6] == "0"  # its call was accepted: 0
    assert _bridge(state).situation(state, 3, turn_call=True).split()[6] == "0"  # the callers' team: 0
    assert _bridge(state).situation(state, 2, turn_call=True).split()[6] == "6"  # the acceptors: three above


def test_under_a_raise_given_as_an_answer_the_leader_is_who_led_the_trick() -> None:
    state = _hand()
    PAU.apply(state, 1, Action("truco"))
    PAU.apply(state, 2, Action("seis"))  # our rules: a raise as the answer; seat 1 still leads the trick
    fields = _bridge(state).situation(state, 3).split()
    assert fields[7] == "3" and fields[8] == "2"  # caller position 3, the trick led by position 2


def test_a_card_face_down_follows_minitrucos_partner_rule() -> None:
    state = _hand()
    _play(state, (1, "2S"), (2, "5D"), (3, "7H"), (0, "KS"))
    PAU.apply(state, 3, Action("play_down", cards=parse_cards("3S")))
    b = _bridge(state)
    assert b.situation(state, 0).split()[11] == "1"  # the next trick, partner not face down: may
    _play(state, (0, "4C"))
    assert b.situation(state, 1).split()[11] == "0"  # position 4's partner (position 2) played face down
    assert b.situation(state, 1).split()[13].split(",")[4:8] == ["4p", "-", "-", "xx"]


def test_a_trick_not_played_yet_shows_an_earlier_hands_result() -> None:
    state = _hand()
    _play(state, (1, "2S"), (2, "5D"), (3, "7H"), (0, "KS"))
    fields = _bridge(state, slots=[1, 3, 2]).situation(state, 0).split()
    assert fields[2:5] == ["2", "3", "2"]  # trick 1 this hand's (position 4's team), tricks 2 and 3 kept


class _FakeDriver:
    """MiniTruco's side, for a test: position 4 accepts every call, every other seat refuses."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def ask(self, request: str) -> tuple[str, str]:
        self.asked.append(request)
        pos = request.split()[3]
        return ("1" if pos == "4" else "0"), request


def test_a_call_is_put_to_both_partners_and_either_accepts(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _FakeDriver()
    monkeypatch.setattr(outside_truco, "DRIVER_PROCESS", fake)
    state = _hand()
    PAU.apply(state, 1, Action("truco"))
    b = _bridge(state)
    answer = b(PAU.view(state, 2), PAU.legal_actions(state, 2), random.Random(1))
    assert [r.split()[3] for r in fake.asked] == ["3", "1"]  # position 3 refuses; its partner, position 1, too
    assert answer == Action("run")
    state = _hand()
    _play(state, (1, "2S"))
    PAU.apply(state, 2, Action("truco"))
    fake.asked.clear()
    assert _bridge(state)(PAU.view(state, 1), PAU.legal_actions(state, 1), random.Random(1)) == Action("accept")
    assert [r.split()[3] for r in fake.asked] == ["2", "4"]  # position 2 refuses, position 4 accepts


def _told(state: PaulistaState, seat: int, kind: str, **more: object) -> dict[str, object]:
    """What MiniTruco's referee would have told ``seat`` of this table (the house's line), built by hand."""
    plays = []
    for i, (trick, _) in enumerate(state.trick_plays):
        for s, c, d in trick:
            plays.append(f"{i + 1} {s + 1} {'xx' if d else outside_truco.card(c)}")
    for s, c, d in state.trick:
        plays.append(f"{len(state.trick_plays) + 1} {s + 1} {'xx' if d else outside_truco.card(c)}")
    tricks = [f"{3 if w is None else (w & 1) + 1} {0 if w is None else w + 1}" for _, w in state.trick_plays]
    told: dict[str, object] = {
        "match": 1, "kind": kind, "you": seat + 1, "hand": 1, "opener": state.mao + 1,
        "scores": list(state.scores), "cards": [outside_truco.card(c) for c in state.hands[seat]],
        "plays": plays, "tricks": tricks, "calls": [], "onze": [], "partner_cards": [], "stake": state.stake,
        "next": 3, "pending": 0, "partner_refused": False, "partner_to_answer": False, "down": False}
    told.update(more)
    return told


def test_the_view_in_minitrucos_house_is_our_engines_view_of_the_same_table() -> None:
    state = _hand()
    _play(state, (1, "2S"), (2, "5D"), (3, "7H"), (0, "KS"), (3, "3S"))
    ours = PAU.view(state, 0)
    theirs, legal = outside_house.view_of(outside_house.Told(_told(state, 0, "turn", down=True)))
    for name in ("you", "cards", "tricks", "trick", "scores", "stake", "level", "turn", "pending", "signals"):
        assert getattr(theirs, name) == getattr(ours, name), name
    assert [s.card_count for s in theirs.seats] == [s.card_count for s in ours.seats]
    assert theirs.paulista is not None and ours.paulista is not None
    assert theirs.paulista.mao == ours.paulista.mao
    # MiniTruco's choices: each card face up or down (from the second trick), or a truco; no signal, no raise cap
    assert {a.type for a in legal} == {"play", "play_down", "truco"}
    assert sorted(str(a.cards[0]) for a in legal if a.type == "play") == ["3H", "4C"]


def test_answering_in_minitrucos_house_names_the_caller_and_a_partner_still_to_answer() -> None:
    state = _hand()
    _play(state, (1, "2S"), (2, "5D"), (3, "7H"), (0, "KS"))
    PAU.apply(state, 3, Action("truco"))
    told = _told(state, 0, "answer", calls=["4 3"], pending=4, partner_to_answer=True)
    view, legal = outside_house.view_of(outside_house.Told(told))
    ours = PAU.view(state, 0)
    assert view.pending is not None and ours.pending is not None
    assert (view.pending.seat, view.pending.call, view.pending.value, view.pending.refused) == \
        (ours.pending.seat, ours.pending.call, ours.pending.value, ours.pending.refused)
    assert view.pending.raises == ()  # MiniTruco answers a call yes or no
    assert view.to_act == (0, 2) and view.turn == 3  # the partner may still accept; the caller leads the trick
    assert legal == [Action("accept"), Action("run")]
    refused = outside_house.view_of(outside_house.Told({**told, "partner_refused": True, "partner_to_answer": False}))
    assert refused[0].to_act == (0,)


@needs_minitruco
def test_the_bridge_decides_as_minitrucos_referee_asks_on_the_same_deals() -> None:
    from bench import outside_proof

    proof = outside_proof.prove(2, 5, parallel=4)
    assert proof.hands and proof.decisions
    assert not [h for h in proof.hands if h.why == ["unexplained"]]


@needs_minitruco
def test_our_bot_plays_a_match_in_minitrucos_house() -> None:
    r = outside_house.play("G", outside_house.player("truco_paulista", "normal"), "normal", 1, 3, parallel=2)
    assert r.matches == 2 and r.unfinished == 0 and r.times.samples


def test_in_minitrucos_house_a_refusal_hands_the_call_to_the_partner() -> None:
    from cardtui.engine.truco.bots.sim import ACCEPT, CALL, MINITRUCO, OURS, REFUSE, Sim, Table

    def sim(referee: object) -> Sim:
        s = Sim(Table(4, (1, 2, 3, 0), 1, TrucoRules.PAULISTA, False, False, 12, False, 1, referee))  # type: ignore[arg-type]
        s.hands = [[14, 3, 4], [13, 5, 6], [12, 7, 8], [11, 9, 10]]
        s.apply(1, (CALL, 0))  # seat 1 calls truco: seats 2 and 0 answer
        return s

    ours = sim(OURS)
    assert (CALL, 0) in ours.legal(2)  # at our table an answer may raise
    ours.apply(2, (REFUSE, 0))
    assert ours.done and ours.pts == [0, 1]  # and the first answer is final
    house = sim(MINITRUCO)
    assert (CALL, 0) not in house.legal(2)  # in MiniTruco's house an answer is yes or no
    house.apply(2, (REFUSE, 0))
    assert not house.done and house.actor() == 0  # seat 2's refusal hands it to seat 0
    house.apply(0, (ACCEPT, 0))
    assert house.level == 1 and house.owner == 0
    both = sim(MINITRUCO)
    both.apply(2, (REFUSE, 0))
    both.apply(0, (REFUSE, 0))
    assert both.done and both.pts == [0, 1]  # the team runs when both refuse


def test_hard_told_its_partner_refused_reads_the_partner_as_weak() -> None:
    from cardtui.engine.truco.bots.sim import MINITRUCO
    from cardtui.engine.truco.bots.worlds import Knowledge

    state = _hand()
    _play(state, (1, "2S"), (2, "5D"), (3, "7H"), (0, "KS"))
    PAU.apply(state, 3, Action("truco"))
    told = _told(state, 0, "answer", calls=["4 3", "-3"], pending=4, partner_refused=True)
    view, _ = outside_house.view_of(outside_house.Told(told))
    k = Knowledge.of(view, reads=True, referee=MINITRUCO)
    assert k.partner_passed() == 2 and k.sim(k.deal(random.Random(1))).passed == 2
    strong = {0: list(state.hands[0]), 1: [], 2: list(parse_cards("4C 7H")), 3: list(state.hands[3])}
    weak = {**strong, 2: list(parse_cards("4H 5S"))}
    assert k.weight(weak) > k.weight(strong)
    at_ours = Knowledge.of(view, reads=True)
    assert at_ours.partner_passed() is None


def test_in_minitrucos_house_hard_reads_a_last_trick_truco_as_called_on_a_winner() -> None:
    from cardtui.engine.truco.bots import search
    from cardtui.engine.truco.bots.sim import MINITRUCO
    from cardtui.engine.truco.bots.worlds import Knowledge

    state, _ = PAU.resume(PAU.options({"truco_decides": "hand"}), [SeatInfo(i, f"p{i}", i % 2) for i in range(4)],
                          [3, 7], 0, 1, 1)
    for seat, text in enumerate(("KS 3H 4D", "7D 2S QH", "AS 5D 6C", "7H 3S JD")):
        state.hands[seat] = list(parse_cards(text))
    PAU.apply(state, 1, Action("keep"))
    _play(state, (1, "2S"), (2, "5D"), (3, "7H"), (0, "KS"), (3, "JD"), (0, "3H"), (1, "QH"), (2, "6C"), (0, "4D"))
    PAU.apply(state, 1, Action("truco"))  # the last trick: seat 1 calls before its last card; seat 2 answers
    told = _told(state, 2, "answer", calls=["2 3"], pending=2, partner_to_answer=True)
    view, legal = outside_house.view_of(outside_house.Told(told))
    k = Knowledge.of(view, reads=True, referee=MINITRUCO)
    ace_wins = k.sim({0: [], 1: list(parse_cards("7D")), 2: list(parse_cards("AS")), 3: list(parse_cards("3S"))})
    zap_wins = k.sim({0: [], 1: list(parse_cards("4C")), 2: list(parse_cards("AS")), 3: list(parse_cards("3S"))})
    for last, floor in ((search.HOUSE_LAST, search.HOUSE_LAST), (None, search.HOUSE_READ[0])):
        s = search.Searcher(view, legal, random.Random(1), 1, referee=MINITRUCO, accept_at=search.HOUSE_ACCEPT,
                            read_floors=search.HOUSE_READ, last_floor=last)
        # a deal the callers lose keeps the last trick's floor, without it the truco's floor of the earlier tricks
        assert (s.likelihood(ace_wins), s.likelihood(zap_wins)) == (pytest.approx(floor), 1.0)
    assert search.HOUSE_READ[0] > search.HOUSE_LAST


def test_hard_reads_the_other_team_by_its_best_card_once_its_answers_say_so() -> None:
    from cardtui.engine.truco.bots.search import HOUSE_TOP, AnswerRead

    read = AnswerRead()
    assert read.top is None  # by the odds alone until the answers say otherwise
    for _ in range(5):  # a team refusing what both models refuse stays read by the odds
        read = read.shown((0.1, 0.4), False)
    assert read.top is None and read.answers == 5
    read = AnswerRead().shown((0.05, 0.5), True)  # accepted a call only a best-card answerer takes
    assert read.top == HOUSE_TOP
    read = read.shown((0.1, 0.9), False).shown((0.2, 0.8), False)  # then refused what a manilha would take
    assert read.top is None
    assert AnswerRead().shown((0.0, 1.0), True).lean == pytest.approx(math.log(0.95 / 0.05))  # one answer: bounded


def test_hard_switches_its_read_after_a_run_of_answers_only_a_best_card_answerer_gives() -> None:
    from cardtui.engine.truco.bots.search import HOUSE_TOP, Called, TrucoMemory
    from cardtui.engine.truco.bots.sim import MINITRUCO

    memory = TrucoMemory(MINITRUCO)
    tops = []
    for hand in range(1, 5):  # each truco accepted where the odds alone gave it 0.2, the best card 0.6
        memory = TrucoMemory(MINITRUCO, (*memory.calls, Called(hand, 0, (0.2, 0.6), True)))
        tops.append(memory.read().top)
    assert tops == [None, HOUSE_TOP, HOUSE_TOP, HOUSE_TOP]  # one answer is not enough; two are (2 ln 3 > 1.5)
    pending = TrucoMemory(MINITRUCO, (*memory.calls, Called(5, 0, (0.2, 0.6))))
    assert pending.read() == memory.read() and pending.watching  # a call not yet answered says nothing
    truco = Action("truco")
    assert memory.heeds(truco) and not TrucoMemory().heeds(truco)  # at our tables no call is kept: nothing to read by
    assert TrucoMemory().read().answers == 0 and not TrucoMemory().watching


def test_a_call_is_likelier_accepted_by_best_card_answerers_only_while_a_manilha_is_unseen() -> None:
    from cardtui.engine.truco.bots.search import answer_odds
    from cardtui.engine.truco.bots.sim import MINITRUCO

    state = _hand()
    view, legal = outside_house.view_of(outside_house.Told(_told(state, 1, "turn")))
    by_odds, by_top = answer_odds(view, legal, random.Random(3), MINITRUCO)
    assert by_top > by_odds  # three manilhas unseen by the mão: the best-card answerers take more
    _play(state, (1, "7D"), (2, "AS"), (3, "7H"), (0, "KS"), (3, "3S"))  # three manilhas played, the zap in hand
    view, legal = outside_house.view_of(outside_house.Told(_told(state, 0, "turn")))
    assert answer_odds(view, legal, random.Random(3), MINITRUCO) == \
        pytest.approx(answer_odds(view, legal, random.Random(3), MINITRUCO))
    by_odds, by_top = answer_odds(view, legal, random.Random(3), MINITRUCO)
    assert by_top == by_odds  # no manilha left for the others: the models agree


def test_our_seat_in_minitrucos_house_remembers_the_answers_to_its_trucos_as_a_table_would() -> None:
    from cardtui.engine.truco.bots.search import TrucoMemory

    state = _hand()
    book = outside_house.Memories()
    view, legal = outside_house.view_of(outside_house.Told(_told(state, 1, "turn")))
    mind = book.memory(7, 1, view)
    assert mind == TrucoMemory(outside_house.MINITRUCO) and not mind.heeds(legal[0])
    book.acted(7, 1, view, legal, Action("truco"), mind)  # the mão calls: each model's odds of an acceptance kept
    (call,) = book.minds[(7, 1)].calls
    assert call.odds is not None and call.accepted is None and book.minds[(7, 1)].watching
    waiting = outside_house.view_of(outside_house.Told(_told(state, 1, "turn", calls=["2 3"])))[0]
    assert book.memory(7, 1, waiting).calls == (call,)  # told again before any answer: nothing learned
    book.minds[(8, 1)] = book.minds[(7, 1)]
    accepted = outside_house.view_of(outside_house.Told(_told(state, 1, "turn", calls=["2 3", "+1 3"], stake=3)))[0]
    assert book.memory(7, 1, accepted).calls[0].accepted is True  # the same hand, the rung risen
    refused = outside_house.view_of(outside_house.Told(_told(state, 1, "turn", hand=2)))[0]
    assert book.memory(8, 1, refused).calls[0].accepted is False  # a new hand: the call was refused
    assert book.ended(7) == 0 and (7, 1) not in book.minds and book.seen == [(7, *call.odds, True)]
