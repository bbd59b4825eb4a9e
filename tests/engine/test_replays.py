"""Replays: a finished hand rebuilt from its history, step by step, with every card face up.

Each rigged hand is played live first; its replay must give back the same events in the same
order (every audience's, whole), one step for the deal and one per seat's action, and an
open view after each step that shows every hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from cardtui.engine.cacho.rules import GAME as CACHO
from cardtui.engine.cacho.rules import CachoView
from cardtui.engine.cards import Card
from cardtui.engine.core import Action, Event, Game, GameView, ReplayStep, SeatInfo
from cardtui.engine.games import GAMES, levels
from cardtui.engine.rummy.cacheta import GAME as CACHETA
from cardtui.engine.rummy.chinchon import GAME as CHINCHON
from cardtui.engine.rummy.records import RummyView
from cardtui.engine.truco.argentino.game import GAME as ARGENTINO
from cardtui.engine.truco.paulista.game import GAME as PAULISTA
from cardtui.engine.truco.views import TrucoView

Chooser = Callable[[Any, int, list[Action]], Action]


def played(game: Game[Any, Any, Any], n: int, seed: int, choose: Chooser, **options: object,
           ) -> tuple[dict[str, Any], list[Event], list[int | None]]:
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


def first(kind: str) -> Chooser:
    def choose(state: Any, seat: int, legal: list[Action]) -> Action:
        return next((a for a in legal if a.type == kind), legal[0])

    return choose


def every_card_face_up_cacho(view: GameView) -> None:
    assert isinstance(view, CachoView)
    for s in view.seats:
        assert len(s.cards) == s.card_count


Played = tuple[dict[str, Any], list[Event], list[int | None]]


def cacho_redeal_and_showdown() -> Played:
    """Everyone passes round 1 (a redeal), then everyone bets, bets again and checks to a showdown."""
    script = iter(["pass"] * 3 + ["bet"] * 3 + ["bet"] * 3 + ["check"] * 3)

    def choose(state: Any, seat: int, legal: list[Action]) -> Action:
        kind = next(script)
        return next(a for a in legal if a.type == kind)

    return played(CACHO, 3, 11, choose)


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

    return played(PAULISTA, 4, 3, choose, truco_decides="hand")


def argentino_envido_and_deck() -> Played:
    """Envido is called and refused; the mano goes to the deck."""
    said = {"envido": False}

    def choose(state: Any, seat: int, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if "envido" in types and not said["envido"]:
            said["envido"] = True
            return Action("envido")
        if "no_quiero" in types:
            return Action("no_quiero")
        return Action("mazo")

    return played(ARGENTINO, 2, 5, choose, flor=False)


def cacheta_knock() -> Played:
    """Bots play a Cacheta hand from a fixed seed to its knock."""
    bot = CACHETA.bot
    assert bot is not None
    rng = random.Random(2)
    return played(CACHETA, 3, 2, lambda st, seat, legal: bot(CACHETA.view(st, seat), legal, rng))


def chinchon_close() -> Played:
    """Normal bots play a Chinchón hand of three from a fixed seed to its close and count, on the pack of 48 with
    both jokers."""
    bot = levels("chinchon")["normal"]
    rng = random.Random(3)
    return played(CHINCHON, 3, 3, lambda st, seat, legal: bot(CHINCHON.view(st, seat), legal, rng), cards=48,
                  jokers=2)


RIGGED: dict[str, Callable[[], Played]] = {
    "cacho": cacho_redeal_and_showdown,
    "truco_paulista": paulista_truco_and_face_down,
    "truco_argentino": argentino_envido_and_deck,
    "cacheta": cacheta_knock,
    "chinchon": chinchon_close,
}
"""Rigged hands by game, for the replay tests here, over the wire and on the screen."""


def test_a_cacho_hand_with_a_redeal_and_a_showdown() -> None:
    record, live, actors = cacho_redeal_and_showdown()
    assert any(a["type"] == "redeal" and a["seat"] is None for a in record["actions"])
    steps = check_steps(CACHO, record, live, actors)
    assert len(steps) == 13  # the deal and twelve actions: the redeal is no step of its own
    assert kinds(steps[0].events)[:2] == ["HandStarted", "CachoRoundDealt"]
    assert kinds(steps[0].events).count("CardsDealt") == 3
    assert kinds(steps[3].events) == ["Acted", "CachoRedealt", "CachoRoundDealt", *["CardsDealt"] * 3]
    assert kinds(steps[-1].events)[:4] == ["Acted", "CachoShowed", "CachoShowed", "CachoShowed"]
    for step in steps:
        every_card_face_up_cacho(step.view)
    deal, end = steps[0].view, steps[-1].view
    assert isinstance(deal, CachoView) and isinstance(end, CachoView)
    assert all(len(s.cards) == 1 for s in deal.seats) and deal.round == 1
    assert all(len(s.cards) == 3 and s.strength is not None for s in end.seats)
    assert end.result is not None and len(end.result.showdown) == 3
    assert [s.cards for s in end.seats] == [
        tuple(Card.parse(c) for c in record["result"]["showdown"][str(s)]) for s in range(3)
    ]
    # The deal before the redeal is shown until it is voided: the third pass's step shows the new one.
    voided = next(a for a in record["actions"] if a["type"] == "redeal")["voided"]
    before, after = steps[2].view, steps[3].view
    assert isinstance(before, CachoView) and isinstance(after, CachoView)
    assert [[str(c) for c in s.cards] for s in before.seats] == [voided[str(s)] for s in range(3)]
    assert [[str(c) for c in s.cards] for s in after.seats] == [record["deal"][str(s)][:1] for s in range(3)]


def test_a_truco_paulista_hand_with_a_truco_call_and_a_face_down_card() -> None:
    record, live, actors = paulista_truco_and_face_down()
    steps = check_steps(PAULISTA, record, live, actors)
    assert "TrucoCalled" in kinds(live) and "TrucoAnswered" in kinds(live)
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
    over = PAULISTA.replay(record)
    for seat in range(4):
        downs = [p for t in PAULISTA.view(over, seat).tricks for p in t.plays if p.face_down]
        assert downs and all((p.card is not None) == (p.seat == seat) for p in downs), seat
    end = steps[-1].view
    assert isinstance(end, TrucoView) and end.result is not None and end.level == 1


def test_a_truco_argentino_hand_shows_a_hand_thrown_to_the_deck() -> None:
    """The open view still shows the cards the mano threw in."""
    record, live, actors = argentino_envido_and_deck()
    steps = check_steps(ARGENTINO, record, live, actors)
    assert "ArgentinoWentToDeck" in kinds(live)
    end = steps[-1].view
    assert isinstance(end, TrucoView)
    gone = [s for s in end.seats if len(s.cards) == 3]
    assert len(gone) == 2, "both hands, the one thrown in included"


def test_a_cacheta_hand_to_its_knock() -> None:
    record, live, actors = cacheta_knock()
    steps = check_steps(CACHETA, record, live, actors)
    assert record["result"]["knock"] is not None
    assert "RummyKnocked" in kinds(steps[-1].events)
    for step in steps:
        view = step.view
        assert isinstance(view, RummyView) and view.cards == ()
        for s in view.seats:
            assert len(s.cards) == s.card_count, "every hand face up"
    deal = steps[0].view
    assert isinstance(deal, RummyView)
    assert [sorted(map(str, s.cards)) for s in deal.seats] == [sorted(record["deal"][str(s)]) for s in range(3)]
    end = steps[-1].view
    assert isinstance(end, RummyView) and end.result is not None and end.result.knock is not None
    knocker = next(s for s in end.seats if s.seat == end.result.knock.seat)
    melded = [c for m in end.result.knock.melds for c in m.cards]
    assert sorted(map(str, knocker.cards)) == sorted(map(str, melded)), "the knocker's hand is its melds"


def test_a_chinchon_hand_to_its_count() -> None:
    record, live, actors = chinchon_close()
    steps = check_steps(CHINCHON, record, live, actors)
    assert record["result"]["knock"] is not None and record["pack"] == "spanish50"
    assert "ChinchonUp" in kinds(steps[0].events) and "ChinchonCounted" in kinds(steps[-1].events)
    deal = steps[0].view
    assert isinstance(deal, RummyView) and deal.pile == (Card.parse(record["up"]),), "the card turned up"
    assert [sorted(map(str, s.cards)) for s in deal.seats] == [sorted(record["deal"][str(s)]) for s in range(3)]
    end = steps[-1].view
    assert isinstance(end, RummyView) and end.result is not None and end.result.knock is not None
    assert end.result.counts[0].seat == end.result.knock.seat, "the closer counted first"
    assert {str(c.seat): c.points for c in end.result.counts} == {
        s: c["points"] for s, c in record["result"]["counts"].items()}
    for step in steps:
        assert isinstance(step.view, RummyView)
        assert all(len(s.cards) == s.card_count for s in step.view.seats), "every hand face up"


@pytest.mark.parametrize("game", list(GAMES))
def test_an_unfinished_history_does_not_replay(game: str) -> None:
    rules = GAMES[game]
    n = rules.min_players if rules.min_players > 2 or game != "truco_argentino" else 2
    match, _ = rules.open({}, rules.seat_infos([f"p{i}" for i in range(max(n, rules.min_players))]), 4)
    rng = random.Random(4)
    bot = levels(game)["normal"]  # random play seldom goes out at the rummy games: 32,444 actions to a Pif Paf hand
    while not match.hand_over():
        seat = match.to_act()[0]
        match.apply(seat, bot(match.view(seat), match.legal_actions(seat), rng))
    record = match.history()
    assert record is not None
    assert rules.replay_steps(record)[-1].view.hand_over
    cut = dict(record, actions=record["actions"][:-1])
    with pytest.raises(ValueError, match="only finished hands replay"):
        rules.replay_steps(cut)
