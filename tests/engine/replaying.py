"""A hand played live to its end and its replay checked step by step: what each game's rigged hand for the replay
tests (``GameTests.replayed``, declared in the game's own test module) is made with, and what the replay tests here,
over the wire and on the screen check it with."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardtui.engine.core import Action, Event, Game, ReplayStep, SeatInfo

Chooser = Callable[[Any, int, list[Action]], Action]
Played = tuple[dict[str, Any], list[Event], list[int | None]]
"""A hand played live: its history, every event in order, and who acted (None: the deal)."""


def played(game: Game[Any, Any, Any], n: int, seed: int, choose: Chooser, **options: object) -> Played:
    """A hand played live to its end: its history, every event in order, and who acted (None: the deal)."""
    seats = game.seat_infos([f"p{i}" for i in range(n)])
    state, events = game.start(game.options(options), [SeatInfo(s.seat, s.name, s.team) for s in seats], seed)
    actors: list[int | None] = [None]
    game.keep_time(state)  # as a server's table plays it: a claim window waits out its time
    while not game.hand_over(state):
        if not game.to_act(state):  # a window nobody takes: its time runs out (a replay shows it with the next action)
            events += game.lapse(state)
            continue
        seat = game.to_act(state)[0]
        action = choose(state, seat, game.legal_actions(state, seat))
        events += game.apply(state, seat, action)
        actors.append(seat)
    record = game.history(state)
    assert record is not None
    return record, events, actors


def kinds(events: list[Event] | tuple[Event, ...]) -> list[str]:
    return [e.kind for e in events]


def check_steps(game: Game[Any, Any, Any], record: dict[str, Any], live: list[Event],
                actors: list[int | None]) -> list[ReplayStep]:
    steps = game.replay_steps(record)
    assert [s.seat for s in steps] == actors
    assert [e for s in steps for e in s.events] == live, "the same events, whole, in the same order"
    assert not any(s.view.hand_over for s in steps[:-1]) and steps[-1].view.hand_over
    assert all(s.view.you is None for s in steps)
    return steps
