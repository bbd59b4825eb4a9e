"""Every fact an advice states is true: recounted from the hand's history alone (``bench.recount``, code of its own:
the rules' ranks, ties and envido, Cacho's hands, the cards a rummy seat has seen, melds by the exhaustive
reference), over random hands of every game and option set; and what a seat has seen (``engine.seen``, which
the reasons, the search's deals and the bots count by) is what the history shows it. ``make bench --only facts``
runs the same over thousands of reasons."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.facts import OPTION_SETS, Tally, check, records
from bench.recount import PAULISTA_RANK, _groups, _may_meld, envido_of, facts, seen_by
from cardtui.engine import advice, analysis
from cardtui.engine.advice import EnvidoReason, TrucoReason
from cardtui.engine.cards import Card, parse_cards
from cardtui.engine.core import Action, SeatInfo
from cardtui.engine.games import ENTRIES
from cardtui.engine.rummy.melds import CARDS
from cardtui.engine.seen import seen, unseen
from cardtui.engine.truco.argentino.game import GAME as ARG
from cardtui.engine.truco.paulista.game import GAME as PAU
from cardtui.engine.truco.paulista.rules import DECK as PAU_DECK

OWN = frozenset(name for name in ENTRIES if (Path(__file__).parent / f"test_{name}_facts.py").exists())
"""The games whose facts have a test of their own (``tests/engine/test_<name>_facts.py``, on fixed seeds): left out
of the random draws here, which keeps the draws' time as it was."""
SETS = st.sampled_from([i for i, (game, _, _) in enumerate(OPTION_SETS) if game not in OWN])
SEEDS = st.integers(min_value=0, max_value=2**32)
RUMMY_DECISIONS = 3
"""Rummy decisions checked a hand (drawn through it): the recount's meld search is the slow one."""


def first(game: str) -> int:
    """The index of ``game``'s first option set (its defaults)."""
    return next(i for i, (name, _, _) in enumerate(OPTION_SETS) if name == game)


def hand(index: int, seed: int) -> dict[str, Any]:
    game, options, players = OPTION_SETS[index]
    return next(records(game, options, players, seed, 1))


@settings(max_examples=24, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(index=SETS, seed=SEEDS)
def test_every_fact_a_reason_states_is_the_one_the_history_recounts(index: int, seed: int) -> None:
    game = OPTION_SETS[index][0]
    tally = Tally()
    check(hand(index, seed), random.Random(seed), tally, game,
          most=RUMMY_DECISIONS if ENTRIES[game].bench.facts_most else None)
    assert not tally.wrong, [(where, step, f) for where, step, f in tally.wrong[:5]]


@settings(max_examples=40, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(index=SETS, seed=SEEDS)
def test_what_a_seat_has_seen_is_what_the_history_shows_it(index: int, seed: int) -> None:
    """At every action of the hand (signals and bets too): its cards, the cards it passed, every card played face up
    (and its own face down), rejected or shown, a pica-pica hand's earlier duels; the pile, the flip, the cards each
    seat took from the pile and has not thrown since."""
    record = hand(index, seed)
    for position in analysis.positions(record):
        assert +seen(position.view) == +seen_by(record, position.step), (record["game"], position.step)


@settings(max_examples=100, derandomize=True, deadline=None, database=None)
@given(hand=st.lists(st.sampled_from([*CARDS, Card.parse("JK")]), min_size=3, max_size=11), wilds=st.integers(0, 3))
def test_the_recounts_groups_are_every_group_that_may_meld(hand: list[Card], wilds: int) -> None:
    """The recount's melds are looked for among the groups grown from groups that may meld (``_groups``): the same
    groups as every combination of three or more places filtered by ``_may_meld``, with wild cards or without."""
    wild = frozenset(hand[:wilds])
    every = [m for size in range(3, len(hand) + 1) for m in combinations(range(len(hand)), size)
             if _may_meld([hand[i] for i in m], wild)]
    assert sorted(_groups(hand, wild)) == sorted(every)


def test_the_recount_tells_a_wrong_fact() -> None:
    """A reason with one fact changed is caught: the recount is not the reason read back."""
    record = hand(first("truco_paulista"), 3)
    position = next(p for p in analysis.positions(record) if analysis.worth_judging(p))
    best = next(a for a in position.legal if a.type != "signal" and a != position.chosen)
    why = advice.reason(position.view, position.legal, position.chosen, best)
    assert isinstance(why, TrucoReason)
    assert all(f.true for f in facts(record, position.step, position.chosen, best, why))
    off = TrucoReason(why.first, why.second, why.won + 1, why.lost, why.trick, why.table, why.high, why.high_side,
                      why.card, why.card_does, why.best_card, why.best_does, why.tie_goes, why.decides)
    assert [f.name for f in facts(record, position.step, position.chosen, best, off) if not f.true] == ["won"]


def test_the_mao_who_passed_its_cards_counts_them_seen() -> None:
    """Truco paulista: the mão passed its first three cards to its partner, who holds them: they are not among the
    cards it had not seen (18 of 328 facts counted them unseen)."""
    state, _ = PAU.resume(PAU.options({}), [SeatInfo(i, f"p{i}", i % 2) for i in range(4)], [0, 0], 0, 1, 4)
    passed = tuple(state.hands[1])
    PAU.apply(state, 1, Action("pass_cards", cards=passed))
    PAU.apply(state, 1, Action("keep"))
    view = PAU.view(state, 1)
    assert view.paulista is not None and view.paulista.passed_cards == passed
    assert set(passed) <= set(seen(view)) and not set(passed) & set(unseen(view))
    assert sum(unseen(view).values()) == len(PAU_DECK) - 6
    assert PAU.view(state, 3).paulista.passed_cards == ()  # type: ignore[union-attr]  # nobody else saw them
    legal = PAU.legal_actions(state, 1)
    why = advice.reason(view, legal, Action("truco"), next(a for a in legal if a.type == "play"))
    assert isinstance(why, TrucoReason)
    left = [c for c in PAU_DECK if c not in set(view.cards) | set(passed)]
    best = max(view.cards, key=lambda c: PAULISTA_RANK[c])
    assert why.first == sum(1 for u in left if PAULISTA_RANK[best] > PAULISTA_RANK[u]) / len(left)


def test_an_unsuited_envido_is_counted_by_the_tables_rule() -> None:
    """Truco argentino with ``envido_unsuited = highest``: the reason counts every hand by the table's rule, read
    from the table, not guessed from the seat's own envido (which a hand of one suit pair cannot tell)."""
    seats = [SeatInfo(i, f"p{i}", i) for i in range(2)]
    for rule in ("sum_two", "highest"):
        state, _ = ARG.resume(ARG.options({"envido_unsuited": rule}), seats, [0, 0], 1, 1, 1)
        state.give(0, parse_cards("7e 6e 1b"))  # 33 either way: a suited pair
        state.give(1, parse_cards("4c 5o 11b"))
        view = ARG.view(state, 0)
        assert view.argentino is not None and str(view.argentino.envido_unsuited) == rule
        legal = ARG.legal_actions(state, 0)
        why = advice.reason(view, legal, Action("envido"), next(a for a in legal if a.type == "play"))
        assert isinstance(why, EnvidoReason) and why.envido == 33
        left = sorted(unseen(view).elements(), key=str)
        theirs = [envido_of(h, rule == "highest") for h in combinations(left, 3)]
        assert why.beats == sum(1.0 if e < 33 else 0.5 if e == 33 else 0.0 for e in theirs) / len(theirs)


def test_a_card_taken_and_thrown_back_is_counted_once() -> None:
    """Pif Paf: a card another seat took from the pile and threw back is on the pile, not also in that seat's hand
    (1,077 of 5,627 rummy reasons counted it twice, their unseen and live cards one to three too few)."""
    for seed in range(40):
        record = hand(first("pifpaf"), seed)  # Pif Paf, three players
        for position in analysis.positions(record):
            view = position.view
            back = [c for s in view.seats if s.seat != view.you for c in s.taken if c not in s.known]
            if back and any(c in view.pile for c in back):
                counted = seen(view)
                assert counted == seen_by(record, position.step)
                assert all(counted[c] <= Counter(view.pile)[c] + Counter(view.cards)[c] +
                           sum(Counter(s.known)[c] for s in view.seats if s.seat != view.you) for c in back)
                return
    raise AssertionError("no hand had a card taken and thrown back")


def test_the_facts_bench_looks_at_its_clock_after_every_hand(monkeypatch: Any) -> None:
    """A run ends after the hand that reaches its count (not after a round of every option set) and prints what it
    has checked so far as it goes: cut short on a slow machine, it still says something."""
    from bench import facts as bench_facts

    monkeypatch.setattr(bench_facts, "MARK", 10)
    monkeypatch.setattr(bench_facts, "PROGRESS", 0.0)
    lines: list[str] = []
    assert bench_facts.run(lines.append, quick=True, seconds=3600.0)
    assert any(line.startswith("  after ") and " 1 hands, " in line for line in lines), lines
    assert " facts checked in 1 hands, 0 wrong, in " in lines[-1], lines
