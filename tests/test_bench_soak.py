"""The night's people (``bench.soak``): at rummy they go out when they can, so their hands end as people's do.

Moves picked at random among the legal ones never end a rummy hand between people: the rules turn the pile over
into a new stock whenever it runs out (docs/rules.md §1), and nine random cards almost never meld. A night's Pif
Paf table whose bots had folded once made about 119,000 such moves in one hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.soak import Night, growth, person_move, slope, slope_error
from cardtui.engine.cards import pack
from cardtui.engine.games import BUILT_IN, get
from cardtui.engine.rummy.records import RummyStockRebuilt
from cardtui.server.app import Running
from cardtui.server.base import wire
from cardtui.v1 import common_pb2, table_pb2
from tests.conftest import Player, create

RUMMY = [("pifpaf", 3), *((e.name, e.bench.night[0]) for e in BUILT_IN if e.rules.family_name == "rummy")]
"""Pif Paf at three, and each rummy game at the table the night seats it at (its entry's ``Bench.night``)."""


def play_hand(game: str, players: int, seed: int, choose: object, limit: int) -> tuple[int, bool, int]:
    """One hand of ``game`` on the engine, every seat choosing from its view on the wire: the moves made, whether
    the hand ended within ``limit``, and how often the stock was rebuilt."""
    rules = get(game)
    state, _ = rules.start(rules.options({}), rules.seat_infos([f"p{i}" for i in range(players)]), seed)
    rng = random.Random(seed)
    moves = rebuilt = 0
    while state.result is None and moves < limit:
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        action = choose(wire.view_message(rules.view(state, seat), legal, 0, b""), rng)  # type: ignore[operator]
        events = rules.apply(state, seat, wire.action_of(action))
        rebuilt += sum(isinstance(e.body, RummyStockRebuilt) for e in events)
        moves += 1
    return moves, state.result is not None, rebuilt


def at_random(view: table_pb2.View, rng: random.Random) -> common_pb2.Action:
    """What the night's people did before: any legal move but folding."""
    return rng.choice([a for a in view.legal if a.type != common_pb2.ACTION_TYPE_FOLD] or list(view.legal))


def test_random_people_alone_at_pif_paf_play_on_through_rebuilt_stocks() -> None:
    """The cause, on a deal where it shows: four people moving at random are still in the hand after 500 moves,
    the stock turned over."""
    moves, ended, rebuilt = play_hand("pifpaf", 4, 1, at_random, 500)
    assert (moves, ended) == (500, False)
    assert rebuilt >= 1


@settings(max_examples=16, deadline=None)
@given(st.sampled_from(RUMMY), st.integers(0, 10**6))
def test_the_nights_people_end_every_rummy_hand_as_people_do(game: tuple[str, int], seed: int) -> None:
    """Every seat a night's person, any deal: each hand ends within 300 moves, by a knock, a claim or a cut."""
    moves, ended, _ = play_hand(*game, seed, person_move, 300)
    assert ended, f"{game} seed {seed}: still on after {moves} moves"


async def test_three_of_the_nights_people_at_pif_paf_end_the_hand(server: Running,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A real server, a Pif Paf table of three people and no bot, every hand dealt from one fixed deck: the
    night's people play it to its end (a watcher waits for the hand's end), and then the next hand's."""
    deck = list(pack("french104"))
    random.Random(1).shuffle(deck)
    monkeypatch.setattr("cardtui.engine.rummy.base.shuffled", lambda cards, rng: list(deck))
    table_id = await create(server, game="pifpaf", seats=3, bots=0, turn_seconds=60,
                            options={"claim_ms": common_pb2.OptionValue(number=0)})  # no windows: a quick test
    eve = await Player(f"127.0.0.1:{server.port}").spectate(table_id, "eve")
    eve.subscribe()
    room = Night(server.port, think=(0.01, 0.03))
    try:
        for _ in range(3):
            await room.sit(table_id)
        await eve.wait_for(lambda p: p.kinds().count("hand_ended") >= 2)
    finally:
        await room.close()
        await eve.close()
    moves = room.counts["moves by people"]
    assert 0 < moves < 600, f"two hands took {moves} moves"
    assert "knocked" in eve.kinds() or "claimed" in eve.kinds(), eve.kinds()[-20:]


def test_a_nights_growth_is_read_with_its_error_and_the_moves_of_its_window(tmp_path: object) -> None:
    """A process that stays level but takes its memory a megabyte at a time reads as growing over a short window:
    the error says how far the reading may be off; a steady growth reads with none; the moves an hour are those of
    the window the growth is read over, not the night's."""
    steady = [(h / 60, 80.0 + 3.0 * h / 60) for h in range(60, 90)]
    assert slope(steady) == pytest.approx(3.0) and slope_error(steady) == pytest.approx(0.0, abs=1e-9)
    level = [(h / 60, 80.0 + (0.4 if h % 2 else -0.4)) for h in range(60, 77)]
    assert abs(slope(level)) <= 2 * slope_error(level)  # jitter alone: within its error of level

    def stepped(first: int, last: int) -> list[tuple[float, float]]:  # one megabyte taken at minute 72, jitter
        return [(h / 60, 80.0 + (1.0 if h >= 72 else 0.0) + (0.4 if h % 2 else -0.4)) for h in range(first, last)]

    assert slope(stepped(63, 80)) > 4.0 and slope_error(stepped(63, 80)) < 2.0  # a quarter hour: the step reads
    assert slope(stepped(63, 123)) < 1.5  # as growth beyond its error; an hour puts it within the mark
    assert slope_error(steady[:2]) == float("inf")
    import json
    from pathlib import Path

    path = Path(str(tmp_path)) / "looks.jsonl"
    with path.open("w") as f:
        for minute in range(0, 100):
            acts = 200 * minute if minute < 60 else 12_000 + 500 * (minute - 60)  # 12,000 then 30,000 an hour
            f.write(json.dumps({"hours": minute / 60, "acts": acts,
                                "rss": {"7": ["worker:1", int((80 + 2.0 * minute / 60) * 1024)]}}) + "\n")
    said = growth(str(path))
    assert said[1].endswith("+2.00 ± 0.00 MB a real hour after its first hour, over 39 min at 30,000 moves an hour")
