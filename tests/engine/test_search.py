"""The search behind the bots and the analysis (``engine.bots.search``): every legal choice valued from
what the deciding seat knew, with its error, in the game's unit; and the match odds it values by.

The reshuffle test plays real positions of every game, deals the cards the deciding seat cannot see
otherwise (the other hands, the stock, Cacho's deck) and asks again: the view is the same, so the
evaluation and every level's decision must be the same, to the last digit.
"""

from __future__ import annotations

import copy
import math
import pickle
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from cardtui.engine.bots import estimates, odds, search
from cardtui.engine.bots.estimates import Estimate, Unit, weighed
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, Bound, SeatInfo
from cardtui.engine.games import LEVELS, get
from cardtui.engine.rummy.records import RummyView
from cardtui.engine.truco.argentino.rules import DECK as ARG_DECK
from cardtui.engine.truco.paulista.rules import DECK as PAU_DECK
from cardtui.engine.truco.views import TrucoView

TABLES = (("truco_argentino", 2), ("truco_argentino", 4), ("truco_paulista", 4), ("cacho", 2), ("cacho", 4),
          ("cacheta", 2), ("pifpaf", 3))
SMALL = estimates.Budget(0.25)


def positions(game: str, players: int, count: int, seed: int = 5) -> Iterator[tuple[Bound, int]]:
    """Decisions of a real match played by the easy bots: ``count`` of them with a real choice, each as
    (the match, the seat to decide)."""
    rules = get(game)
    rng = random.Random(seed)
    match, _ = rules.open({}, rules.seat_infos([f"p{i}" for i in range(players)]), seed)
    assert isinstance(match, Bound)
    bot = LEVELS[game]["easy"]
    found = 0
    for _ in range(3000):
        if match.hand_over():
            if match.match_over():
                return
            match.next_hand(rng.getrandbits(63))
            continue
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        legal = match.legal_actions(seat)
        if len([a for a in legal if a.type != "signal"]) > 1 and rng.random() < 0.25:
            found += 1
            yield match, seat
            if found >= count:
                return
        match.apply(seat, bot(match.view(seat), legal, rng))


def reshuffled(match: Bound, seat: int, seed: int) -> Bound:
    """A copy of ``match`` with the cards ``seat`` cannot see dealt otherwise, the same number in each
    place: the other hands, and the stock or deck. What the seat knows the place of stays: its own hand,
    a partner's it sees (a mão de onze), the cards a player took from the discard pile."""
    other = copy.deepcopy(match)
    st = other.state
    view = match.view(seat)
    stays: list[Counter[Card]] = [Counter() for _ in st.hands]
    for s in view.seats:  # type: ignore[attr-defined]
        if isinstance(view, RummyView):
            stays[s.seat] = Counter(s.taken)
        elif getattr(s, "cards", ()):
            stays[s.seat] = Counter(s.cards)
    slots: list[tuple[list[Card], int]] = []
    for s, hand in enumerate(st.hands):
        if s == seat:
            continue
        for i, c in enumerate(hand):
            if stays[s][c] > 0:
                stays[s][c] -= 1
            else:
                slots.append((hand, i))
    deck: list[Card] = getattr(st, "stock", None) or getattr(st, "deck", None) or []
    pool = [hand[i] for hand, i in slots] + list(deck)
    if isinstance(view, TrucoView):  # truco argentino keeps no deck: its cards dealt to nobody are as unseen
        anywhere = Counter(c for hand in st.hands for c in hand) + Counter(deck)
        anywhere.update(p.card for t in view.tricks for p in t.plays if p.card is not None)
        anywhere.update(p.card for p in view.trick if p.card is not None)
        if view.paulista is not None:
            anywhere.update(view.paulista.rejected)
        pool += [c for c in (PAU_DECK if view.paulista is not None else ARG_DECK) if not anywhere[c]]
    random.Random(seed).shuffle(pool)
    for (hand, i), c in zip(slots, pool, strict=False):
        hand[i] = c
    deck[:] = pool[len(slots) : len(slots) + len(deck)]
    return other


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_a_decision_does_not_change_when_the_unseen_cards_are_dealt_otherwise(game: str, players: int) -> None:
    moved = 0
    for match, seat in positions(game, players, count=3):
        legal = match.legal_actions(seat)
        view = match.view(seat)
        before = search.evaluate(view, legal, random.Random(11), SMALL)
        decisions = {level: LEVELS[game][level](view, legal, random.Random(13)) for level in LEVELS[game]}
        for shuffle in range(2):
            other = reshuffled(match, seat, shuffle)
            moved += other.state.hands != match.state.hands
            view2 = other.view(seat)
            assert view2 == view, "a reshuffle of unseen cards changed what the seat sees"
            legal2 = other.legal_actions(seat)
            assert legal2 == legal
            assert search.evaluate(view2, legal2, random.Random(11), SMALL) == before
            for level, action in decisions.items():
                assert LEVELS[game][level](view2, legal2, random.Random(13)) == action, level
    assert moved, "no reshuffle moved a card"


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_every_legal_choice_gets_an_estimate_in_the_games_unit(game: str, players: int) -> None:
    unit = Unit.MATCH if game.startswith("truco") or game == "cacheta" else Unit.CHIPS
    for match, seat in positions(game, players, count=2, seed=9):
        legal = match.legal_actions(seat)
        ev = search.evaluate(match.view(seat), legal, random.Random(3), SMALL)
        assert ev.unit is unit
        assert sorted(map(repr, (e.action for e in ev.choices))) == sorted(
            repr(a) for a in legal if a.type != "signal")
        assert ev.deals >= 2 and 0 < ev.effective <= ev.deals
        best = ev.best()
        assert best.gap == 0.0 and all(e.gap >= 0.0 for e in ev.choices)
        for e in ev.choices:
            assert math.isfinite(e.error) and e.error >= 0.0
            if unit is Unit.MATCH:
                assert 0.0 <= e.value <= 1.0
            assert e.value == pytest.approx(best.value - e.gap)


def test_a_larger_budget_narrows_the_estimates() -> None:
    match, seat = next(positions("truco_argentino", 2, count=1, seed=21))
    view, legal = match.view(seat), match.legal_actions(seat)
    small = search.evaluate(view, legal, random.Random(1), estimates.Budget(0.5))
    large = search.evaluate(view, legal, random.Random(1), estimates.Budget(4.0))
    assert large.deals == 8 * small.deals
    assert sum(e.error for e in large.choices) < sum(e.error for e in small.choices)


def test_a_spectators_view_has_no_choice_to_value() -> None:
    rules = get("cacho")
    match, _ = rules.open({}, rules.seat_infos(["a", "b"]), 1)
    with pytest.raises(ValueError, match="spectator"):
        search.evaluate(match.view(None), match.legal_actions(0), random.Random(1))


def test_weighed_means_and_errors() -> None:
    a, b = Action("a"), Action("b")
    ev = weighed(Unit.CHIPS, [[a], [b]], [[1.0, 3.0, 2.0, 2.0], [0.0, 2.0, 2.0, 0.0]], [1.0, 1.0, 1.0, 1.0])
    ea, eb = ev.of(a), ev.of(b)
    assert ea.value == 2.0 and eb.value == 1.0
    assert ea.error == pytest.approx(math.sqrt(2.0) / 4)  # sqrt(sum (x - mean)^2) / n
    assert eb.gap == 1.0 and eb.gap_error == pytest.approx(math.sqrt(0 + 0 + 1 + 1) / 4)  # differences 1 1 0 2
    assert ev.best() == ea and isinstance(ea, Estimate)
    heavy = weighed(Unit.CHIPS, [[a]], [[0.0, 10.0]], [3.0, 1.0])
    assert heavy.choices[0].value == 2.5 and heavy.effective == pytest.approx(16 / 10)


# -- the match odds -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("target", "paulista"), [(12, True), (15, False), (30, False)])
def test_match_odds_are_even_between_equals_and_rise_with_points(target: int, paulista: bool) -> None:
    for a in range(target):
        for b in range(target):
            here = odds.truco(a, b, target, paulista)
            assert here + odds.truco(b, a, target, paulista) == pytest.approx(1.0)
            if a + 1 < target:
                assert odds.truco(a + 1, b, target, paulista) >= here - 1e-12
    assert odds.truco(target, target - 5, target, paulista) == 1.0
    assert odds.truco(0, target - 1, target, paulista) < 0.1


def test_cacheta_odds_share_the_match_among_the_players_left() -> None:
    for points in ((10, 10), (3, 7), (10, 10, 10), (1, 4, 9, 2), (5, 0, 5)):
        shares = [odds.cacheta(points, s) for s in range(len(points))]
        assert sum(shares) == pytest.approx(1.0)
        for s, t in ((s, t) for s in range(len(points)) for t in range(len(points))):
            if points[s] > points[t]:
                assert shares[s] > shares[t]
    assert odds.cacheta((10, 10), 0) == pytest.approx(0.5)
    assert odds.cacheta((0, 4), 0) == 0.0 and odds.cacheta((0, 4), 1) == 1.0


def test_a_process_keeps_a_few_arrangers_not_one_per_wild_set() -> None:
    """A bot worker meets every Cacheta wild set in turn: it keeps a few arrangers, their answers within one budget."""
    from cardtui.engine.rummy.bots import search as rummy_search
    from cardtui.engine.rummy.bots.pifpaf import rules_of
    from cardtui.engine.rummy.melds import melder, wild_cards

    view = next(match.view(seat) for match, seat in positions("cacheta", 2, count=1))
    assert isinstance(view, RummyView)
    rules = rules_of(view)
    made = [rummy_search.arranger(melder(rules, wild_cards(Card.parse(f"{rank}S")))) for rank in
            ("A", "2", "3", "4", "5", "6", "7", "8")]
    assert len(rummy_search._ARRANGERS) <= rummy_search.KEPT
    assert rummy_search.arranger(made[-1].m) is made[-1]  # the latest is kept, not made again
    kept = list(rummy_search._ARRANGERS.values())
    assert sum(3 * a.cap for a in kept) <= rummy_search.ARRANGED_BUDGET  # the answers of all of them, bounded together
    assert all(a.cap == kept[0].cap > 0 for a in kept)



def test_hards_memory_of_a_truco_match_is_its_seats_own_and_comes_back_when_the_match_is_replayed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtui.engine.cards import parse_cards
    from cardtui.engine.truco.bots.search import TRUCO_CALLS, TrucoMemory, _view_seed, answer_odds
    from cardtui.engine.truco.bots.sim import MINITRUCO
    from cardtui.engine.truco.paulista.game import GAME as PAU

    rules = get("truco_paulista")
    assert rules is PAU and "hard" in PAU.remembering
    monkeypatch.setattr(PAU, "memory", lambda: TrucoMemory(MINITRUCO))  # the odds weighed, as in MiniTruco's house

    def remembered(match: Bound[object, object, TrucoView], seat: int) -> TrucoMemory:
        memory = match.memory(seat)
        assert isinstance(memory, TrucoMemory)
        return memory

    def play(seed: int) -> tuple[Bound[object, object, TrucoView], list[tuple[int, Action] | int]]:
        """A match of random players that call often, until calls were both accepted and refused."""
        rng = random.Random(seed)
        match, _ = rules.open({}, rules.seat_infos(["a", "b", "c", "d"]), seed)
        assert isinstance(match, Bound)
        steps: list[tuple[int, Action] | int] = []
        while not match.match_over() and len(steps) < 400:
            if match.hand_over():
                steps.append(rng.getrandbits(63))
                match.next_hand(steps[-1])
                continue
            answers = {c.accepted for s in range(4) for c in remembered(match, s).calls}
            if {True, False} <= answers:
                break
            seat = next(s for s in match.to_act() if match.legal_actions(s))
            legal = match.legal_actions(seat)
            calls = [a for a in legal if a.type in TRUCO_CALLS]
            answer = [a for a in legal if a.type in ("accept", "run")]
            steps.append((seat, rng.choice(answer) if answer else calls[0] if calls and rng.random() < 0.5
                          else rng.choice(legal)))
            match.apply(*steps[-1])
        return match, steps

    match, steps = play(23)
    again, _ = rules.open({}, rules.seat_infos(["a", "b", "c", "d"]), 23)  # a table restored: its actions replayed
    for step in steps:
        again.next_hand(step) if isinstance(step, int) else again.apply(*step)
    calls = [c for s in range(4) for c in remembered(match, s).calls]
    assert {c.accepted for c in calls} == {True, False}  # the memory held calls answered both ways
    assert all(c.odds is not None for c in calls)
    for seat in range(4):
        assert again.memory(seat) == match.memory(seat)
    assert not again.match_over() and not again.hand_over()
    seat = next(s for s in again.to_act() if again.legal_actions(s))
    decision, normal = again.decision(seat, "hard"), again.decision(seat, "normal")
    assert not isinstance(decision, Action) and not isinstance(normal, Action)
    assert decision.memory == match.memory(seat) and normal.memory is None  # handed to the level that reads it
    assert pickle.loads(pickle.dumps(decision)) == decision  # as it travels to a bot worker

    # Only the seat's view reaches it: the mão calls at once, and what it keeps is weighed from its own view, seeded
    # by it (the others holding other cards, the same memory); its own cards otherwise, and the odds move.
    def called(hands: tuple[str, str, str, str]) -> TrucoMemory:
        state, _ = PAU.resume(PAU.options({}), [SeatInfo(i, f"p{i}", i % 2) for i in range(4)], [3, 7], 0, 1, 1)
        for s, text in enumerate(hands):
            state.hands[s] = list(parse_cards(text))
        table = Bound(PAU, state)
        table.apply(1, Action("keep"))
        view, legal = PAU.view(state, 1), PAU.legal_actions(state, 1)
        table.apply(1, Action("truco"))
        table.apply(next(s for s in table.to_act() if table.legal_actions(s)), Action("accept"))
        memory = table.memory(1)
        assert isinstance(memory, TrucoMemory) and memory.calls[0].accepted is True
        assert memory.calls[0].odds == answer_odds(view, legal, random.Random(_view_seed(view)), MINITRUCO)
        return memory

    first = called(("4C 3H KS", "6D 2S QH", "AS 5D 6C", "7H 3S JD"))
    assert called(("7H 3S JD", "6D 2S QH", "4C 3H KS", "AS 5D 6C")) == first
    assert called(("4C 3H KS", "5C 4D 6S", "7D 2S QH", "7H 3S JD")).calls[0].odds != first.calls[0].odds
