"""Tournament scoring by place (docs/rules.md, "Tournament scoring": every tie case), standings and their
tie-breaks, pairing."""

from __future__ import annotations

import itertools

import pytest

from cardtui.engine.tournament import (
    BYE_VP,
    Finish,
    RoundPlan,
    TableResult,
    draw,
    first_round,
    met,
    places,
    score,
    seat_of,
    standings,
    swiss_round,
)


def table(*rows: tuple[int, int, int], round_: int = 1, number: int = 0) -> TableResult:
    """(entry, place, hands) for each entry at the table."""
    return TableResult(round_, number, tuple(Finish(e, p, h) for e, p, h in rows))


def vp_gp(result: TableResult) -> dict[int, tuple[int, int]]:
    return {s.entry: (s.vp, s.gp) for s in score(result)}


@pytest.mark.parametrize(("placings", "vp"), [
    ((1, 2, 3, 4), (5, 3, 2, 0)),      # no tie: 5 / 3 / 2 / 0
    ((1, 1, 3, 4), (3, 3, 2, 0)),      # first place shared: 3 each
    ((1, 2, 2, 4), (5, 2, 2, 0)),      # second place shared: 2 each
    ((1, 2, 3, 3), (5, 3, 1, 1)),      # third place shared: 1 each
    ((1, 2, 2, 2), (5, 2, 2, 2)),      # three share second
    ((1, 1, 1, 4), (3, 3, 3, 0)),      # three share first
    ((1, 2, 3, 4, 4), (5, 3, 2, 0, 0)),  # fourth and below: 0, tied or not
    ((1, 2), (5, 3)),                  # a table of two
    ((1, 2, 3, 4, 5, 6, 7, 8), (5, 3, 2, 0, 0, 0, 0, 0)),
])
def test_victory_points_by_place_with_every_tie_of_seed_001(placings: tuple[int, ...], vp: tuple[int, ...]) -> None:
    result = table(*((e, p, 10) for e, p in enumerate(placings)))
    assert tuple(vp_gp(result)[e][0] for e in range(len(placings))) == vp


def test_game_points_are_hands_dealt_plus_one_for_winning_the_table_alone() -> None:
    assert vp_gp(table((0, 1, 12), (1, 2, 12), (2, 3, 9), (3, 4, 5))) == {0: (5, 13), 1: (3, 12), 2: (2, 9),
                                                                          3: (0, 5)}
    shared = vp_gp(table((0, 1, 7), (1, 1, 7)))
    assert shared == {0: (3, 7), 1: (3, 7)}, "a shared first place wins nobody the table"


def test_places_by_score_then_who_lasted_longer_teams_share() -> None:
    # Cacheta: all eliminated at 0 but one; the later out, the better; the same hand ties.
    assert places([0, 4, 0, 0], [0, 1, 2, 3], {0: 5, 2: 9, 3: 9}) == {1: 1, 2: 2, 3: 2, 0: 4}
    # Truco: teams are seat % 2 and take their best seat's score.
    assert places([12, 7, 12, 7], [0, 1, 0, 1]) == {0: 1, 1: 2}


def test_standings_vp_then_gp_then_head_to_head_then_the_draw() -> None:
    order = [3, 1, 0, 2]  # the draw
    results = [
        table((0, 1, 10), (1, 2, 10)),           # 0 beats 1: 5, 3
        table((2, 1, 10), (3, 2, 10), number=1),  # 2 beats 3: 5, 3
        table((1, 1, 10), (0, 2, 10), round_=2),  # 1 beats 0: both now 8 VP 21 GP
        table((3, 1, 10), (2, 2, 10), round_=2, number=1),
    ]
    got = standings(order, results)
    assert [(s.entry, s.vp, s.gp) for s in got] == [(3, 8, 21), (1, 8, 21), (0, 8, 21), (2, 8, 21)]
    assert all(s.head_to_head == 0 for s in got), "each pair split its meetings"
    # level on VP and GP, head-to-head decides: 0 finished ahead of 1 when they met; 1 drew earlier
    results = [
        table((2, 1, 10), (0, 2, 10), (1, 3, 10)),                    # 2: 5, 0: 3, 1: 2
        table((3, 1, 10), (1, 2, 10), round_=2),                      # 1: 3 more
        table((4, 1, 10), (5, 2, 10), (0, 3, 10), round_=2, number=1),  # 0: 2 more
    ]
    got = standings([1, 3, 0, 2, 4, 5], results)
    row = {s.entry: s for s in got}
    assert (row[0].vp, row[0].gp, row[1].vp, row[1].gp) == (5, 20, 5, 20)
    assert (row[0].head_to_head, row[1].head_to_head) == (1, -1)
    assert row[0].place < row[1].place, "head-to-head before the draw"


def test_head_to_head_counts_only_among_entries_level_on_vp_and_gp() -> None:
    results = [table((0, 1, 5), (1, 2, 5), (2, 3, 5)), table((1, 1, 5), (0, 2, 5), (2, 3, 5), round_=2)]
    got = standings([2, 1, 0], results)
    assert [s.entry for s in got] == [1, 0, 2], "0 and 1 level (8 VP, 11 GP), 1 earlier in the draw"
    results.append(table((0, 1, 5), (1, 2, 5), (2, 3, 4), round_=3))
    results.append(table((1, 1, 5), (0, 2, 5), (2, 3, 6), round_=4))
    level = standings([2, 1, 0], results)
    assert level[0].entry == 1 and level[0].head_to_head == 0


def test_a_bye_scores_as_a_second_place() -> None:
    got = {s.entry: s for s in standings([0, 1, 2], [table((0, 1, 4), (1, 2, 4))], byes=[2])}
    assert (got[2].vp, got[2].byes, got[2].played) == (BYE_VP, 1, 0)


def test_the_draw_is_the_seeds_and_round_one_follows_it() -> None:
    assert draw(range(8), 7) == draw(range(8), 7)
    assert draw(range(8), 7) != draw(range(8), 8)
    plan = first_round(draw(range(9), 1), 4)
    assert len(plan.tables) == 2 and len(plan.byes) == 1
    assert plan.byes == (draw(range(9), 1)[-1],), "the last of the draw sits out round 1"


def test_swiss_rounds_avoid_repeat_opponents_and_share_out_byes() -> None:
    entries = list(range(7))
    plans = [first_round(entries, 2)]
    for number in range(2, 7):
        order = [s.entry for s in standings(entries, [])]
        plans.append(swiss_round(number, order, 2, plans))
    pairs = [frozenset(t) for p in plans for t in p.tables]
    assert len(pairs) == len(set(pairs)), "nobody meets the same opponent twice in six rounds of seven"
    byes = [e for p in plans for e in p.byes]
    assert len(byes) == 6 and len(set(byes)) == 6, "one bye a round, never twice to anyone while others have none"


def test_swiss_pairs_by_standing() -> None:
    plans = [RoundPlan(1, ((0, 1), (2, 3), (4, 5), (6, 7)))]
    results = [table((0, 1, 3), (1, 2, 3)), table((2, 1, 3), (3, 2, 3), number=1),
               table((4, 1, 3), (5, 2, 3), number=2), table((6, 1, 3), (7, 2, 3), number=3)]
    order = [s.entry for s in standings(list(range(8)), results)]
    plan = swiss_round(2, order, 2, plans)
    assert plan.tables == ((0, 2), (4, 6), (1, 3), (5, 7)), "winners meet winners, no rematch"


def test_repeats_when_nothing_else_is_possible_are_the_fewest() -> None:
    plans = [RoundPlan(1, ((0, 1, 2),)), RoundPlan(2, ((0, 1, 2),))]
    plan = swiss_round(3, [0, 1, 2], 3, plans)
    assert sorted(plan.tables[0]) == [0, 1, 2]
    seen = met(plans)
    assert seen[0] == {1, 2}


def test_partners_face_each_other_in_team_games() -> None:
    # truco paulista: two pairs a table, teams are seat % 2
    seats = {(pos, member): seat_of(pos, member, 2) for pos, member in itertools.product(range(2), range(2))}
    assert seats == {(0, 0): 0, (0, 1): 2, (1, 0): 1, (1, 1): 3}
    # truco argentino for six: two trios
    assert [seat_of(1, m, 2) for m in range(3)] == [1, 3, 5]
