"""Chinchón's facts: every fact an advice states of a Chinchón hand is the one its history recounts
(``bench/recount_chinchon.py``, its rules restated), and what a seat has seen is what the history shows it, at each
of its option sets (``Entry.bench``); ``tests/engine/test_advice_facts.py`` holds the other games on random draws."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.facts import OPTION_SETS, Tally, check, records
from bench.recount import facts, seen_by
from cardtui.engine import advice, analysis
from cardtui.engine.advice import DiscardReason, DrawReason, KnockReason
from cardtui.engine.cards import Card
from cardtui.engine.seen import seen

CHINCHON = [i for i, (game, _, _) in enumerate(OPTION_SETS) if game == "chinchon"]
RUMMY_DECISIONS = 3
"""Decisions checked a hand (drawn through it): the recount's meld search is the slow one."""


def hand(index: int, seed: int) -> dict[str, Any]:
    game, options, players = OPTION_SETS[index]
    return next(records(game, options, players, seed, 1))


def test_a_chinchon_seat_has_seen_the_card_turned_up_and_its_reasons_count_the_spanish_pack() -> None:
    """Chinchón: the card turned up to start the pile is seen by every seat until it is taken; a reason's live cards
    are the Spanish pack's (counted over the French one they were always none), and a close's cards melded are the
    seven's, not Pif Paf's nine, said as a close (``closes``). Each fact stated is the one the history recounts."""
    index = next(i for i, (game, options, _) in enumerate(OPTION_SETS) if game == "chinchon" and not options)
    helped = closes = 0
    for seed in range(12):
        record = hand(index, seed)
        positions = list(analysis.positions(record))
        up = Card.parse(record["up"])
        assert seen_by(record, positions[0].step)[up] >= 1 and seen(positions[0].view)[up] >= 1
        for position in positions:
            if position.step % 3 and not any(a.type == "knock" for a in position.legal):
                continue  # every third decision, and every one a close was open at
            others = [a for a in position.legal if not analysis.same(a, position.chosen)]
            for best in others[:1] + [a for a in others[1:] if a.type == "knock"][:1]:
                why = advice.reason(position.view, position.legal, position.chosen, best)
                if why is None:
                    continue
                stated = facts(record, position.step, position.chosen, best, why)
                assert all(f.true for f in stated), [f for f in stated if not f.true]
                helped += isinstance(why, DiscardReason) and why.chosen_outs > 0
                assert not isinstance(why, DrawReason | KnockReason) or why.closes, why  # said as a close of seven
                if isinstance(why, KnockReason):
                    closes += 1
                    assert 4 <= why.melded <= 7, why
        if helped and closes >= 2:
            break
    assert helped and closes >= 2, (helped, closes)


@pytest.mark.parametrize("index", CHINCHON)
def test_chinchon_facts_and_what_a_seat_has_seen_are_recounted_at_each_option_set(index: int) -> None:
    """Each Chinchón option set (its pack of 48 and jokers, the figures' numbers, a limit, re-entry): a few decisions
    of two hands, every fact recounted; and at every action what each seat has seen is what the history shows."""
    for seed in (1, 2):
        record = hand(index, seed)
        tally = Tally()
        check(record, random.Random(seed), tally, "chinchon", most=RUMMY_DECISIONS)
        assert tally.facts and not tally.wrong, [(where, step, f) for where, step, f in tally.wrong[:5]]
        for position in analysis.positions(record):
            assert +seen(position.view) == +seen_by(record, position.step), position.step
