"""The analysis of a hand (``engine.analysis``): known blunders named, right moves never flagged, the
verdict judged from what the seat knew (the reshuffle test), a loss flagged only when the estimate
tells it apart, and a hand's analysis as JSON and over a match."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bench.analysis_rigs import KINDS, LEVEL_RIGS, RIGS, Level, Rig, reshuffle, verify
from cardtui.engine import analysis
from cardtui.engine.analysis import FLAGGED, SERIOUS, Choice, Label, Position
from cardtui.engine.bots import estimates, odds
from cardtui.engine.bots.estimates import Unit
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action
from cardtui.engine.games import get
from tests.engine.test_search import positions, reshuffled


@pytest.mark.parametrize("rig", RIGS, ids=[r.game + ":" + r.name[:30] for r in RIGS])
def test_a_known_blunder_is_named_and_the_right_move_never_flagged(rig: Rig) -> None:
    stake = 3.0 if rig.game in ("cacho", "pifpaf") else 1.0
    for seed in range(2):
        wrong = analysis.analyse_position(rig.position(rig.wrong), seed, stake)
        right = analysis.analyse_position(rig.position(rig.right), seed, stake)
        assert wrong.label in SERIOUS, (seed, wrong.label, wrong.points)
        assert right.label not in FLAGGED, (seed, right.label, right.points)


def test_the_suite_has_every_kind_of_decision_of_every_game() -> None:
    kinds = {(r.game, r.kind) for r in RIGS}
    assert {k for _, k in kinds} == set(KINDS)
    assert {g for g, _ in kinds} == {"truco_paulista", "truco_argentino", "pifpaf", "cacheta", "cacho"}
    assert {k for g, k in kinds if g.startswith("truco")} == {"envido", "truco call", "card play"}
    assert {k for g, k in kinds if g in ("pifpaf", "cacheta")} == {"draw", "discard", "knock"}
    assert all(r.state is not None for r in RIGS), "each rig is a state its hand can be played out from"


@pytest.mark.parametrize("rig", RIGS, ids=[r.game + ":" + r.name[:30] for r in RIGS])
def test_each_answer_holds_when_the_whole_hand_is_played_out(rig: Rig) -> None:
    """The rig's right move comes out ahead of its wrong one with the bots playing the whole hand out, on its own
    deal and on others of the cards its seat could not see (``make bench --only analysis`` plays more)."""
    checked = verify(rig, deals=3, plays=2)
    assert checked.holds, checked
    rules, state, seat = rig.state()  # type: ignore[misc]
    again = reshuffle(rules, state, seat, random.Random(3))
    assert rules.view(again, seat) == rules.view(state, seat), "a deal made again shows the seat the same"


@pytest.mark.parametrize("rig", LEVEL_RIGS, ids=[r.name[:40] for r in LEVEL_RIGS])
def test_the_right_move_is_never_flagged_where_the_other_is_no_blunder(rig: Level) -> None:
    """One card from going out with a useless card on the pile: the stock's draw, the only way out, is never
    flagged (the search once put the pile up to a quarter of a chip ahead: ``rummy_search.WAITING``)."""
    for seed in range(4):
        right = analysis.analyse_position(rig.position(), seed, 3.0)
        assert right.label not in FLAGGED, (seed, right.label, right.points)
        assert right.loss <= 0.2, (seed, right.loss)


RUMMY_RIGS = [r for r in RIGS if r.game in ("cacheta", "pifpaf")]
TWENTY = next(r for r in RIGS if r.name.startswith("argentino 20–29"))
"""Truco argentino at 20 to 29 of 30, facing a truco with the two best cards."""


@pytest.mark.parametrize("rig", RUMMY_RIGS, ids=[r.game for r in RUMMY_RIGS])
def test_the_analysis_as_a_bot_plays_hards_move_unless_it_flags_it(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """At Pif Paf and Cacheta the analysis's advice played as a bot is the hard bot's move where the verdict on
    that move says nothing, and the analysis's own best where it flags it: a hard bot that played the rig's
    known blunder is overruled; told that the same move is as good, the bot plays it."""
    view, legal, seat = rig.make()
    def hard(view: object, legal: list[Action], rng: random.Random) -> Action:
        return rig.wrong

    instead = analysis.choose(view, list(legal), random.Random(1), hard)
    assert instead != rig.wrong  # the analysis's best there: the rig's right move, or one no worse
    stake = 3.0 if rig.game == "pifpaf" else 1.0
    assert analysis.analyse_position(Position(1, seat, view, tuple(legal), instead), 0, stake).label not in FLAGGED
    judged = analysis.analyse_position
    monkeypatch.setattr(analysis, "analyse_position", lambda position, seed: dataclasses.replace(
        judged(position, seed), label=Label.GOOD))
    assert analysis.choose(view, list(legal), random.Random(1), hard) == rig.wrong


@pytest.mark.parametrize(("game", "players", "scale"), [
    ("truco_argentino", 2, 2.0), ("truco_paulista", 4, 2.0), ("cacho", 3, 2.0), ("cacheta", 2, 0.25),
    ("pifpaf", 3, 0.25)])
def test_a_decisions_analysis_does_not_change_when_the_unseen_cards_are_dealt_otherwise(
        game: str, players: int, scale: float) -> None:
    moved = 0
    for match, seat in positions(game, players, count=2, seed=17):
        legal = match.legal_actions(seat)
        chosen = next(a for a in legal if a.type != "signal")
        before = analysis.analyse_position(Position(3, seat, match.view(seat), tuple(legal), chosen), 5, 1.0,
                                           estimates.Budget(scale))
        for shuffle in range(2):
            other = reshuffled(match, seat, shuffle)
            moved += other.state.hands != match.state.hands
            after = analysis.analyse_position(Position(3, seat, other.view(seat), tuple(other.legal_actions(seat)),
                                                       chosen), 5, 1.0, estimates.Budget(scale))
            assert after == before
    assert moved, "no reshuffle moved a card"


def test_a_loss_is_flagged_only_above_its_threshold_and_twice_its_error() -> None:
    """A label's line is counted from the loss less two standard errors: near a line, the label below. (A match
    stake of 1.25 makes a point of match odds one point of loss, as lichess counts them.)"""
    best = Choice(Action("a"), 0.6, 0.01, 0.0, 0.0)
    for gap, error, expected in ((0.20, 0.01, Label.BLUNDER), (0.12, 0.005, Label.MISTAKE),
                                 (0.12, 0.015, Label.INACCURACY), (0.16, 0.01, Label.MISTAKE),
                                 (0.07, 0.005, Label.INACCURACY), (0.07, 0.02, Label.GOOD),
                                 (0.04, 0.001, Label.GOOD), (0.20, 0.11, Label.GOOD), (0.12, 0.07, Label.GOOD)):
        lab, _ = analysis.label(Choice(Action("b"), 0.6 - gap, 0.01, gap, error), best, Unit.MATCH, 1.25)
        assert lab is expected, (gap, error)
    sure = Choice(Action("a"), 1.0, 0.0, 0.0, 0.0)
    assert analysis.label(Choice(Action("b"), 0.8, 0.02, 0.2, 0.02), sure, Unit.MATCH, 1.25)[0] is Label.MISSED_WIN
    # 8.5 points of match odds (accepting, at 0 to 0 of 12, a truco surely lost: 3 points where running gave 1)
    # are more than two stakes of a hand worth 7.7 points either way: a blunder, however the lichess scale reads it.
    lost = Choice(Action("b"), 0.6 - 0.085, 0.01, 0.085, 0.004)
    assert analysis.label(lost, best, Unit.MATCH, 1.25)[0] is Label.INACCURACY
    stake = analysis.match_stake(0.5 + 0.0385, 0.5 - 0.0385)
    assert stake == pytest.approx(0.0385) and analysis.label(lost, best, Unit.MATCH, stake)[0] is Label.BLUNDER
    # Chips: a tenth of the stake is 12.5 points, a mistake; the same chips at ten times the stake are nothing.
    chips = Choice(Action("b"), -0.3, 0.01, 0.3, 0.01)
    assert analysis.label(chips, best, Unit.CHIPS, 3.0)[0] is Label.MISTAKE
    assert analysis.label(chips, best, Unit.CHIPS, 30.0)[0] is Label.GOOD
    assert analysis.accuracy(0.0) == pytest.approx(100.0, abs=0.01) and 60 < analysis.accuracy(10.0) < 70


def hands(game: str, players: int, count: int, seed: int = 3, level: str = "easy") -> list[dict[str, Any]]:
    rules = get(game)
    rng = random.Random(seed)
    match, _ = rules.open({}, rules.seat_infos([f"p{i}" for i in range(players)]), seed)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        if match.hand_over():
            record = match.history()
            assert record is not None
            out.append(record)
            match.next_hand(rng.getrandbits(63))
            continue
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        match.apply(seat, match.bot_action(seat, rng, level))
    return out


def test_a_hands_analysis_reads_its_history_and_round_trips_as_json() -> None:
    records = hands("truco_argentino", 2, 3)
    seen: list[tuple[int, int]] = []
    done = []
    analysed = [analysis.analyse(r, seed=1, budget=estimates.Budget(0.5),
                                 progress=lambda n, total: seen.append((n, total))) for r in records]
    assert seen[0][0] == 0 and all(n == total for n, total in seen if n == seen[-1][0])
    for record, hand in zip(records, analysed, strict=True):
        steps = [a for a in record["actions"] if a.get("seat") is not None]
        for m in hand.moments:
            entry = steps[m.step - 1]
            assert entry["seat"] == m.seat and entry["type"] == m.chosen.type
            assert m.of(m.chosen) is not None and m.of(m.best) is not None
            assert m.held and set(m.held) <= set(parse_cards(record["deal"][str(m.seat)]))  # its own cards
        assert analysis.from_json(analysis.to_json(hand)) == hand
        mine = hand.only([0])
        assert mine.seats == (0,) and all(m.seat == 0 for m in mine.moments)
        done.append(hand)
    seats, worst = analysis.summary(done)
    assert [s.seat for s in seats] == [0, 1] and all(0.0 <= s.accuracy <= 100.0 for s in seats)
    assert len(worst) <= 3 and [w.moment.points for w in worst] == sorted((w.moment.points for w in worst),
                                                                           reverse=True)
    # The same seed, the same analysis; made in two parts (two workers side by side), the same once joined.
    assert analysis.analyse(records[0], seed=1, budget=estimates.Budget(0.5)) == analysed[0]
    halves = [analysis.analyse(records[0], seed=1, budget=estimates.Budget(0.5), part=k, parts=2) for k in (0, 1)]
    assert all(h.moments for h in halves)
    joined = sorted((m for h in halves for m in h.moments), key=lambda m: m.step)
    assert tuple(joined) == analysed[0].moments and halves[0].seats == analysed[0].seats


def test_a_hands_decisions_are_dealt_out_once_each_and_a_draw_and_a_discard_alike() -> None:
    for count in range(12):
        for parts in (1, 2, 3):
            shares = [analysis.dealt(count, k, parts) for k in range(parts)]
            assert sorted(i for share in shares for i in share) == list(range(count))
    # A rummy hand alternates a draw and a discard: each of two parts gets as many of each.
    for k in (0, 1):
        share = analysis.dealt(40, k, 2)
        assert sum(i % 2 == 0 for i in share) == sum(i % 2 == 1 for i in share) == 10


def test_only_a_finished_hand_that_replays_is_analysed() -> None:
    record = hands("cacho", 2, 1)[0]
    with pytest.raises(ValueError, match="not finished"):
        analysis.analyse({**record, "result": None})
    forged = dict(record, actions=[dict(record["actions"][0], type="raise", amount=999), *record["actions"][1:]])
    with pytest.raises(ValueError):
        analysis.analyse(forged, budget=estimates.Budget(0.25))
    with pytest.raises(ValueError, match="no game"):
        analysis.analyse(dict(record, game="poker"))


def test_the_drill_says_whether_a_new_choice_is_within_a_few_points() -> None:
    rig = TWENTY
    wrong = analysis.analyse_position(rig.position(rig.wrong), 0)
    hand = analysis.HandAnalysis("truco_argentino", "t", 1, 0, Unit.MATCH, 1.0, 0, 8.0, (0,), (wrong,))
    assert analysis.retry(hand, wrong, rig.right)[0] is True
    ok, lost = analysis.retry(hand, wrong, rig.wrong)
    assert ok is False and lost > 10.0
    with pytest.raises(ValueError, match="not a legal choice"):
        analysis.retry(hand, wrong, Action("flor"))
    assert dataclasses.replace(wrong, label=Label.GOOD) != wrong


def test_a_blind_play_is_judged_as_the_choice_it_was() -> None:
    # A history names the card a blind play turned up; the legal action names only its place.
    legal = (Action("play_blind", amount=1), Action("play_blind", amount=2), Action("run"))
    history = Action("play_blind", amount=1, cards=(Card.parse("6H"),))
    assert analysis.as_legal(history, legal) == legal[0]
    assert analysis.as_legal(Action("run"), legal) is legal[2]


def test_more_deals_join_and_a_gap_is_measured_deal_by_deal() -> None:
    a, b, c = Action("a"), Action("b"), Action("c")
    first = estimates.weighed(Unit.CHIPS, [[a], [b]], [[1.0, 2.0, 3.0], [0.0, 2.0, 1.0]], [1.0, 1.0, 1.0])
    then = estimates.weighed(Unit.CHIPS, [[a], [b]], [[2.0, 2.0], [1.0, 3.0]], [1.0, 1.0])
    both = analysis.joined(first, then)
    assert both == estimates.weighed(Unit.CHIPS, [[a], [b]], [[1.0, 2.0, 3.0, 2.0, 2.0], [0.0, 2.0, 1.0, 1.0, 3.0]],
                                     [1.0] * 5)
    up, error = analysis.above(both, 0, 1)
    assert up == pytest.approx(0.6) and error == pytest.approx(both.choices[1].gap_error)
    assert analysis.above(both, 1, 0) == (pytest.approx(-0.6), error)
    # Two choices alike on every one of a few deals are not known to be alike: a rival is looked at again.
    alike = estimates.weighed(Unit.CHIPS, [[a], [c]], [[3.0] * 8, [3.0] * 8], [1.0] * 8)
    assert analysis.floor(alike) == pytest.approx(3.0 / 8)
    assert analysis.contenders(alike, 0, Unit.CHIPS, 3.0) == [1]
    far = estimates.weighed(Unit.CHIPS, [[a], [c]], [[3.0] * 400, [3.0] * 400], [1.0] * 400)
    assert analysis.contenders(far, 0, Unit.CHIPS, 3.0) == []


def test_a_verdict_is_settled_only_away_from_every_line() -> None:
    a, b = Action("a"), Action("b")

    def gap(mean: float, spread: float, n: int = 400) -> estimates.Evaluation:
        rows = [[mean + (spread if i % 2 else -spread) for i in range(n)], [0.0] * n]
        return estimates.weighed(Unit.MATCH, [[b], [a]], rows, [1.0] * n)

    assert analysis.settled(gap(0.30, 0.01), 1, Unit.MATCH, 1.0)  # a blunder, however it is looked at
    assert analysis.settled(gap(0.001, 0.01), 1, Unit.MATCH, 1.0)  # as good
    assert not analysis.settled(gap(0.11, 0.4), 1, Unit.MATCH, 1.0)  # near the mistake line
    assert analysis.grade(12.0, 0.5) == 2 and analysis.grade(12.0, 1.5) == 1 and analysis.grade(12.0, 7.0) == 0
    assert analysis.grade(4.0, 0.1) == 0


def test_a_longer_look_stops_once_the_deals_left_could_not_change_the_label() -> None:
    a, b = Action("a"), Action("b")

    def gap(mean: float, spread: float, n: int = 400) -> estimates.Evaluation:
        rows = [[mean + (spread if i % 2 else -spread) for i in range(n)], [0.0] * n]
        return estimates.weighed(Unit.MATCH, [[b], [a]], rows, [1.0] * n)

    tie = gap(0.0, 1.2)  # level, with an error of six points: not settled (a mistake is under two errors away)
    assert not analysis.settled(tie, 1, Unit.MATCH, 1.0)
    assert not analysis.decided(tie, 1, Unit.MATCH, 1.0, 0.125)  # eight times the deals could bring it near
    assert analysis.decided(tie, 1, Unit.MATCH, 1.0, 0.5)  # twice the deals could not lift it over a line
    near = gap(0.19, 1.2)  # near the mistake line on these deals and on twice as many
    assert not analysis.settled(near, 1, Unit.MATCH, 1.0) and not analysis.decided(near, 1, Unit.MATCH, 1.0, 0.5)
    assert analysis.decided(near, 1, Unit.MATCH, 1.0, 1.0)  # the most is spent


def test_a_rummy_decision_is_looked_at_on_fewer_deals() -> None:
    rig = next(r for r in RIGS if r.game == "pifpaf")
    rummy = analysis.plan(rig.position(rig.wrong).view)
    truco = analysis.plan(TWENTY.position(TWENTY.wrong).view)
    assert (rummy.screen.scale, rummy.look.scale, rummy.most.scale, rummy.contenders) == (0.5, 2.0, 16.0, 2)
    assert (truco.screen.scale, truco.look.scale, truco.most.scale) == (1.0, 8.0, 256.0)


def test_truco_paulistas_deal_is_not_judged() -> None:
    """Keeping, passing or rejecting the first three cards: the model deals the cards to come and plays each out by
    its plain policy, which set apart two orders of the same hands (keeping and passing) by points of match odds."""
    dealt = 0
    for record in hands("truco_paulista", 4, 6, seed=5):
        for p in analysis.positions(record):
            if p.chosen.type in ("keep", "pass_cards", "reject"):
                dealt += 1
                assert not analysis.worth_judging(p)
        assert not any(m.chosen.type in ("keep", "pass_cards", "reject")
                       for m in analysis.analyse(record, budget=estimates.Budget(0.25)).moments)
    assert dealt


def test_pif_pafs_betting_round_is_not_judged_and_a_bettor_stays_in_against_a_call() -> None:
    record = hands("pifpaf", 3, 1)[0]
    betting = [p for p in analysis.positions(record) if p.view.phase.value == "betting"]
    assert betting and not any(analysis.worth_judging(p) for p in betting)
    # Facing a bet, a call is no sure win: the player who bet is still in (the search used to let everyone
    # with a poor hand fold, the bettor too, and valued the call at the whole pot on every deal).
    rules = get("pifpaf")
    match, _ = rules.open({}, rules.seat_infos(["p0", "p1", "p2"]), 3)
    while True:
        seat = match.to_act()[0]
        legal = match.legal_actions(seat)
        bets = [a for a in legal if a.type in ("bet", "raise")]
        if any(a.type == "call" for a in legal):
            break
        match.apply(seat, bets[-1] if bets else next(a for a in legal if a.type == "check"))
    call = next(a for a in legal if a.type == "call")
    ev = estimates_of(match.view(seat), [call, next(a for a in legal if a.type == "fold")])
    assert ev.of(call).error > 0.0 and ev.of(call).value < match.view(seat).pot / 2


def estimates_of(view: Any, legal: list[Action]) -> estimates.Evaluation:
    from cardtui.engine.bots import search

    return search.evaluate(view, legal, random.Random(2), estimates.Budget(2.0))


def test_a_pif_paf_decision_is_measured_against_the_pot_it_is_played_for() -> None:
    later: list[Position] = []
    for record in hands("pifpaf", 3, 4, level="hard"):  # the hard bot bets a good hand
        base = analysis.stake(record)
        later = [p for p in analysis.positions(record) if analysis.worth_judging(p) and p.view.pot > base]
        if later:
            break
    assert later, "no betting round put chips in the pot"
    position = later[0]
    moment = analysis.analyse_position(position, 1, base, estimates.Budget(1.0))
    assert moment.stake == position.view.pot
    assert moment.points == pytest.approx(0.0 if moment.label in (Label.BEST, Label.GOOD) and moment.points == 0.0
                                          else analysis.CHIP_POINTS * moment.loss / position.view.pot)
    # The same chips lost at the antes' stake would read three or four times as many points.
    chips = Choice(Action("b"), -1.2, 0.01, 1.2, 0.01)
    top = Choice(Action("a"), 0.0, 0.01, 0.0, 0.0)
    assert analysis.label(chips, top, Unit.CHIPS, 12.0)[0] is Label.MISTAKE
    assert analysis.label(chips, top, Unit.CHIPS, base)[0] is Label.BLUNDER
    # Each decision keeps its own stake as JSON; an analysis kept before decisions had one reads the hand's.
    hand = analysis.HandAnalysis("pifpaf", "t", 1, 0, Unit.CHIPS, base, 1, 1.0, (position.seat,), (moment,))
    assert analysis.from_json(analysis.to_json(hand)) == hand
    older = analysis.to_json(hand)
    del older["decisions"][0]["stake"]
    assert analysis.from_json(older).moments[0].stake == base
    # The drill measures a new choice against the decision's stake, as the verdict was.
    assert analysis.retry(hand, moment, moment.best) == (True, 0.0)
    # A Cacho decision is played for the hand's stake, whatever its view; a truco one for what a stake of its hand is
    # worth to the match at the score (argentino 20 to 29 of 30, a truco called: 1 point either way).
    cacho = next(r for r in RIGS if r.game == "cacho")
    assert analysis.at_stake(cacho.position(cacho.wrong).view, 3.0) == 3.0
    truco = TWENTY.position(TWENTY.wrong).view
    assert analysis.at_stake(truco, 1.0) == pytest.approx(
        (odds.truco(21, 29, 30, False) - odds.truco(20, 30, 30, False)) / 2)


def test_many_choices_are_narrowed_to_the_contenders_by_halving(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten choices; the best looks only fourth on the first look's eight deals: taken by the first look's two
    best, the contenders would leave it out, and the choice made would be judged against lesser ones."""
    choices = [Action(f"c{i}") for i in range(10)]
    truth = {c.type: 1.0 for c in choices} | {"c0": 0.0, "c7": 2.0}
    looked: list[list[str]] = []

    def evaluate(view: Any, legal: list[Action], rng: random.Random, budget: estimates.Budget
                 ) -> estimates.Evaluation:
        n = budget.deals(16)
        first = not looked
        looked.append([a.type for a in legal])
        rows = [[(truth[a.type] if not first else 1.5 if a.type in ("c1", "c2", "c3") else
                  1.2 if a.type == "c7" else truth[a.type]) + (0.1 if i % 2 else -0.1) for i in range(n)]
                for a in legal]
        return estimates.weighed(Unit.CHIPS, [[a] for a in legal], rows, [1.0] * n)

    monkeypatch.setattr(analysis.search, "evaluate", evaluate)
    plan = analysis.Plan(estimates.Budget(0.5), estimates.Budget(2.0), estimates.Budget(16.0), 2, True)
    first = evaluate(None, choices, random.Random(1), plan.screen)
    assert sorted(first.choices, key=lambda e: -e.value)[3].action.type == "c7"  # fourth of ten
    rounds = analysis.screened(None, first, choices[0], random.Random(1), plan, model=evaluate)  # type: ignore[arg-type]
    last = rounds[-1]
    assert len(last.choices) <= plan.contenders + 1 and {"c0", "c7"} <= {e.action.type for e in last.choices}
    assert last.best().action.type == "c7" and all(len(r.choices) < len(first.choices) for r in rounds)
    assert [len(k) for k in looked] == [10, 6, 4, 3]  # each round halves the choices (the one made kept)
    mine = analysis._row(last, choices[0])
    assert analysis.contenders(last, mine, Unit.CHIPS, 3.0, plan.contenders)[0] == analysis._row(last, choices[7])
    # Without halving, the plan keeps the first look as it is.
    assert analysis.screened(None, first, choices[0], random.Random(1), dataclasses.replace(plan, halving=False)) == []


@pytest.mark.parametrize(("game", "players"), [("truco_argentino", 2), ("cacho", 3), ("pifpaf", 3)])
def test_no_choice_is_shown_above_the_best(game: str, players: int) -> None:
    """A choice left out of a longer look is put below the best by its gap on the deals it was last played on
    (``judge``): never above the best on the strength of a luckier few deals of its own."""
    # The first hand in which seat 0 had a real choice (a hand can end before it has one: a knock at once).
    judged = (analysis.analyse(record, seed=2, seats=[0]) for record in hands(game, players, 3, level="hard"))
    done = next((d for d in judged if d.moments), None)
    assert done is not None
    for m in done.moments:
        best = m.of(m.best)
        assert best is not None and best.gap == 0.0
        assert all(c.value <= best.value + 1e-12 and c.gap >= 0.0 for c in m.choices), (m.step, m.choices)
