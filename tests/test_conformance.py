"""One conformance suite over every game and player count, in the spirit of OpenSpiel's random_sim_test.

Random play through the contract the server uses (``Rules``/``Match``): every legal action
applies; a refusal changes nothing; a view shows a seat no card that no event showed it
(and a spectator only what was public); a finished hand's history replays to the same
result; every view and event converts to its wire message and back unchanged. The open view
(every card face up) holds every card any seat sees, converts to the wire and back, and a
finished hand replays step by step to the open view the hand ended with.
"""

from __future__ import annotations

import contextlib
import pickle
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from cardtui.engine.cards import Card
from cardtui.engine.core import Action, Event, GameView, IllegalAction, InvalidOptions, Match, Rules
from cardtui.engine.events import HandStarted
from cardtui.engine.games import GAMES
from cardtui.engine.options import Raw
from cardtui.server.base import wire
from cardtui.v1 import table_pb2
from tests.games import highcard
from tests.games.highcard.rules import GAME as HIGHCARD
from tests.held import cards_in

ALL = {**GAMES, HIGHCARD.name: HIGHCARD}
"""Every game the room offers, and the tests' own (registered while each test here runs: ``registered``)."""
CASES = [(name, n) for name, rules in ALL.items() for n in rules.player_counts]
HYPOTHETICAL = ("outs",)
"""View fields that name cards nobody holds yet (a seat's outs): not a leak."""
REMEMBERED = ("your_",)
"""View fields in which a seat recalls its own cards once they have left the table (the envido
of a pica-pica duel already played): the open view shows the table, not a seat's memory."""


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    """The tests' game in the registries, as a game from outside the package is: the suite holds it to the
    contract as it does every game."""
    with highcard.registered():
        yield


def round_trip(view: GameView, legal: list[Action]) -> None:
    msg = wire.view_message(view, legal, 1500)
    back = table_pb2.View.FromString(msg.SerializeToString())
    assert wire.view_record(back, type(view)) == view
    assert wire.expand(back.legal) == legal
    # What streams carry: the same message, spliced from its parts' bytes (twice: the second
    # from what the encoders remember).
    for _ in range(2):
        assert table_pb2.View.FromString(wire.view_bytes(view, legal, 1500, b"")) == msg


def event_round_trip(event: Event) -> None:
    viewer = None if event.audience.public else min(event.audience.seats or {0})
    msg = wire.event_message(7, event, viewer)
    body = wire.event_record(table_pb2.Event.FromString(msg.SerializeToString()))
    assert wire.record(body, type(event.body)) == event.body
    # What streams and replays carry: the body serialized once, numbered and marked around it.
    for replay in (False, True):
        built = table_pb2.Event.FromString(wire.event_bytes(7, wire.event_body(event.body), replay))
        assert built == wire.event_message(7, event, viewer, replay=replay)
    assert table_pb2.Event.FromString(wire.event_bytes(7, wire.HIDDEN)) == table_pb2.Event(seq=7, hidden={})


def dealt_by(events: list[Event], dealer: int) -> None:
    """The dealer named before the deal (what a table's commitment names) is the one that deals."""
    started = [ev.body for ev in events if isinstance(ev.body, HandStarted)]
    assert [b.dealer for b in started] == [dealer], (started, dealer)


def play(rules: Rules, players: int, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    seats = rules.seat_infos([f"p{i}" for i in range(players)])
    named = rules.opening_dealer({}, seats)
    match, events = rules.open({}, seats, rng.getrandbits(63))
    dealt_by(events, named)
    known: dict[int | None, set[Card]] = {s: set() for s in [*range(players), None]}

    def heard(evs: list[Event]) -> None:
        for ev in evs:
            event_round_trip(ev)
            for who in known:
                if ev.audience.sees(who):
                    known[who] |= cards_in(ev.body)

    heard(events)
    for step in range(steps):
        if match.hand_over():
            record = match.history()
            assert record is not None
            design_keys_hold(rules.name, record)
            replayed = rules.replay_match(record)
            assert replayed.history() is not None
            assert replayed.history()["result"] == record["result"]  # type: ignore[index]
            replay_steps(rules, record, match.open_view())
            if match.match_over():
                named = rules.opening_dealer({}, seats)
                match, events = rules.open({}, seats, rng.getrandbits(63))
            else:
                named = match.next_dealer()
                assert match.next_dealer() == named, "asking who deals next changes nothing"
                events = match.next_hand(rng.getrandbits(63))
            dealt_by(events, named)
            known = {s: set() for s in known}
            heard(events)
            continue
        everything = match.open_view()
        assert everything.you is None
        round_trip(everything, [])
        shown = cards_in(everything)
        for who in known:
            view = match.view(who)
            legal = match.legal_actions(who) if who is not None else []
            round_trip(view, legal)
            assert set(match.to_act()) <= set(view.to_act), f"{who}'s view waits on {view.to_act}, not {match.to_act()}"
            leaked = cards_in(view, HYPOTHETICAL) - known[who]
            assert not leaked, f"seat {who} sees {sorted(map(str, leaked))} that no event showed it"
            hidden = cards_in(view, HYPOTHETICAL + REMEMBERED) - shown
            assert not hidden, f"the open view lacks {sorted(map(str, hidden))} that seat {who} sees"
        waiting = match.to_act()
        assert waiting, "the hand waits on nobody"
        seat = rng.choice(waiting)
        legal = match.legal_actions(seat)
        assert legal, f"seat {seat} is waited on but may do nothing"
        if step % 4 == 0:  # a refusal's check compares every audience's view: now and then is enough
            refuse(match, seat, players)
        heard(match.apply(seat, rng.choice(legal)))


def replay_steps(rules: Rules, record: dict[str, object], final: GameView) -> None:
    """The hand again, step by step: the deal, then one step per seat's action, each with every
    event whole and the open view after it, all converting to the wire and back; it ends where
    the hand ended."""
    steps = rules.replay_steps(record)
    actions = [a for a in record["actions"] if a["seat"] is not None]  # type: ignore[attr-defined, index]
    assert len(steps) == len(actions) + 1
    assert steps[0].seat is None and steps[0].action is None
    assert [s.seat for s in steps[1:]] == [a["seat"] for a in actions]
    for step in steps:
        round_trip(step.view, [])
        assert step.view.you is None
        for event in step.events:
            event_round_trip(event)
    assert not steps[-2].view.hand_over if len(steps) > 1 else True
    assert steps[-1].view == final


def refuse(match: Match, seat: int, players: int) -> None:
    """An action that is not legal is refused with a sentence, and changes nothing."""
    before = [wire.view_message(match.view(s)).SerializeToString() for s in [*range(players), None]]
    bogus = Action("no_such_action")
    with pytest.raises(IllegalAction) as refusal:
        match.apply(seat, bogus)
    assert str(refusal.value).strip().endswith(".")
    others = [s for s in range(players) if s not in match.to_act()]
    if others:
        legal = match.legal_actions(seat)
        for action in legal[:1]:
            if action not in match.legal_actions(others[0]):
                with pytest.raises(IllegalAction):
                    match.apply(others[0], action)
    after = [wire.view_message(match.view(s)).SerializeToString() for s in [*range(players), None]]
    assert before == after


def design_keys_hold(name: str, record: dict[str, Any]) -> None:
    """docs/history.md's hand-history keys, a public contract, hold for every game and mode."""
    n = len(record["seats"])
    seats = {str(s) for s in range(n)}
    assert record["format"] == "cardtui-hand/1" and record["game"] == name
    for key in ("options", "table", "hand", "seed", "dealer", "seats", "start", "deal", "actions", "result"):
        assert key in record, key
    assert [s["seat"] for s in record["seats"]] == list(range(n))
    assert all({"seat", "name", "team"} <= set(s) for s in record["seats"])
    assert set(record["start"]) <= seats and set(record["deal"]) <= seats
    assert all(isinstance(c, str) for cards in record["deal"].values() for c in cards)
    assert [a["seq"] for a in record["actions"]] == list(range(1, len(record["actions"]) + 1))
    assert all("seat" in a and "type" in a for a in record["actions"])
    result = record["result"]
    assert set(result["deltas"]) <= seats
    if name in ("cacho", "pifpaf"):
        assert sum(result["deltas"].values()) == 0, "chips: deltas sum to zero"
    if name == "cacheta":
        assert isinstance(record["flip"], str)
    if name == "cacho":
        assert "winner" in result and isinstance(result.get("showdown") or {}, dict)
    if name in ("pifpaf", "cacheta") and result.get("knock"):
        knock = result["knock"]
        assert {"seat", "melds", "discard"} <= set(knock) and all(isinstance(m, list) for m in knock["melds"])
    if name.startswith("truco"):
        assert isinstance(result["tricks"], list) and "points" in result
        for trick in result["tricks"]:
            assert set(trick["cards"]) <= seats and (trick["winner"] is None or str(trick["winner"]) in seats)
        if "envido" in result:
            assert "scores" in result["envido"] and "winner" in result["envido"]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_play_keeps_the_contract(game: str, players: int) -> None:
    for seed in range(2):
        play(GAMES[game], players, seed, 160)


@pytest.mark.parametrize("game", list(ALL))
def test_every_option_is_described_with_bounds_and_help(game: str) -> None:
    rules = GAMES[game]
    specs = rules.option_specs
    assert rules.check_options({}) == {s.name: s.default for s in specs}
    for spec in specs:
        assert spec.help.strip()
        if spec.kind in ("number", "fraction"):
            assert spec.min <= spec.default <= spec.max
            assert spec.max - spec.min < 10**7
            msg = wire.option_spec(spec)
            assert msg.max == spec.max and tuple(msg.values) == spec.values


@pytest.mark.parametrize("game", list(ALL))
def test_every_value_an_option_offers_is_taken(game: str) -> None:
    """What a form built from the specs offers, the game accepts: each choice, each listed value,
    both ends of a range and a number between them."""
    rules = GAMES[game]
    for spec in rules.option_specs:
        offered: tuple[Raw, ...]
        if spec.kind == "flag":
            offered = (True, False)
        elif spec.kind == "choice":
            offered = spec.choices
        elif spec.values:
            offered = spec.values
        elif spec.kind == "number":
            offered = (int(spec.min), int(spec.max), int(spec.min + spec.max) // 2)
        else:
            offered = (spec.min, spec.max, (spec.min + spec.max) / 2)
        numbers = [o for o in rules.option_specs if o.kind in ("number", "fraction") and o is not spec]
        # Some options are tied to others (Pif Paf's ante to the chips): a value must be taken
        # with the others at their defaults, or at their highest, or at their lowest.
        others: list[dict[str, Raw]] = [{}, {o.name: o.values[-1] if o.values else o.max for o in numbers},
                                        {o.name: o.values[0] if o.values else o.min for o in numbers}]
        for value in offered:
            taken = []
            for rest in others:
                with contextlib.suppress(InvalidOptions):
                    taken.append(rules.check_options({**rest, spec.name: value})[spec.name])
            assert value in taken, (spec.name, value)
        if spec.values:  # and nothing else in the range
            between = next(v for v in range(int(spec.min), int(spec.max) + 1) if v not in spec.values)
            with pytest.raises(InvalidOptions):
                rules.check_options({spec.name: between})


def random_moments(rules: Rules, players: int, seed: int, steps: int,
                   options: Mapping[str, Raw] | None = None) -> Iterator[tuple[Match, int]]:
    """A match played at random (under ``options``), one moment at a time: (the match, a seat that may act), then
    that seat's random legal action is applied; hands follow one another to the match's end."""
    rng = random.Random(seed)
    match, _ = rules.open(dict(options or {}), rules.seat_infos([f"p{i}" for i in range(players)]),
                          rng.getrandbits(63))
    for _ in range(steps):
        if match.hand_over():
            if match.match_over():
                return
            match.next_hand(rng.getrandbits(63))
            continue
        seat = rng.choice([s for s in match.to_act() if match.legal_actions(s)])
        yield match, seat
        match.apply(seat, rng.choice(match.legal_actions(seat)))


def test_every_action_type_of_every_game_is_on_the_wire() -> None:
    names = set(wire._enum_numbers(wire.common_pb2.ActionType.DESCRIPTOR))
    for game, players in CASES:
        for match, _ in random_moments(GAMES[game], players, 1, 200):
            for s in range(players):
                for a in match.legal_actions(s):
                    assert a.type in names, f"{game}: {a.type} is not an ActionType"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_bots_decision_is_a_snapshot_another_process_can_make(game: str, players: int) -> None:
    """What the server sends to its bot workers: a decision pickles whole, and made from the
    snapshot (as a worker makes it) it is the action the bot makes at the table, and legal."""
    from cardtui.server.base.thinking import decide

    rules = GAMES[game]
    rng = random.Random(7)
    checked = 0
    for match, seat in random_moments(rules, players, 7, 400):
        if rng.random() < 0.2 and checked < 4:
            checked += 1
            for level in rules.bot_levels:
                made = match.decision(seat, level)
                assert not isinstance(made, Action), "a seat with legal actions and a bot has a choice to make"
                assert pickle.loads(pickle.dumps(made)) == made
                seed = rng.getrandbits(64)
                action = decide(pickle.loads(pickle.dumps(made)), seed)
                assert action == match.bot_action(seat, random.Random(seed), level)
                assert action in match.legal_actions(seat)
    assert checked == 4


def test_every_game_says_how_many_usually_play_it() -> None:
    """Where a new table's form starts: one of the counts the game allows, not simply the most."""
    for rules in GAMES.values():
        assert rules.usual_players in rules.player_counts, rules.name
    assert GAMES["truco_argentino"].usual_players == 2 and GAMES["cacheta"].usual_players == 4
