"""A Chinchón table in the real client, on a real server: a person plays by keys against a bot (draws from the
action bar; on the board, picks with the arrows, closes with ``k`` when a close is offered, else discards with
``d``), the log says each close and its count in Chinchón's words, and every hand's deal is checked and found fair,
the card turned up to start the pile and every hand laid out at the count included. The pack of 48 with two
jokers, chosen by the table's options, is checked as that pack. The table closes with 10 left out (the most an
option allows), so that hands are short."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.boards.rummy import RummyBoard
from cardtui.client.boards.rummy_table import title
from cardtui.client.models import action_kind
from cardtui.client.screens.table import TableScreen
from cardtui.server.app import Running
from cardtui.v1 import common_pb2, rummy_pb2
from tests.client.test_app import SIZE, log_text
from tests.client.waiting import at_table, in_lobby, settled, until
from tests.conftest import create


def to_discard(screen: TableScreen) -> bool:
    """Whether the board waits on this seat to discard (or close): its own keys, not the action bar's."""
    model = screen.model
    v = model.view
    return (v is not None and v.WhichOneof("game") == "rummy" and v.rummy.phase == rummy_pb2.RUMMY_PHASE_DISCARD
            and v.rummy.HasField("turn") and v.rummy.turn == model.seat and bool(model.legal))


def highest_loose(v: rummy_pb2.RummyView) -> str | None:
    """The loose card that counts most (a figure over a seven, a joker never): what a player throws first."""
    ranked = [c for c in v.loose if c[:-1].isdigit()]
    return max(ranked, key=lambda c: int(c[:-1]), default=None)


async def play(pilot: Pilot[Any], done: Callable[[], object]) -> list[str]:
    """The seat played by keys until ``done()``: the bar's first choice (a draw from the stock); on the board a
    close where one is offered, else a discard of the loose card that counts most (each picked with the arrows
    first). What was pressed."""
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen)
    bar = screen.query_one(ActionBar)
    board = screen.query_one(RummyBoard)
    pressed: list[str] = []
    while not done():
        await until(pilot, lambda: done() or bool(bar.choices) or to_discard(screen), "a turn, or the end")
        await settled(pilot)
        if done():
            break
        seq = screen.model.seq
        if bar.choices:
            await pilot.press(bar.keys[0])
            pressed.append("draw")
        elif to_discard(screen):
            closes = [a for a in screen.model.legal if action_kind(a) == "knock" and a.cards]
            view = screen.model.view.rummy
            target = closes[0].cards[0] if closes else highest_loose(view)
            for _step in range(len(view.cards) + 1 if target is not None else 0):
                if board.picked() == target:
                    break
                await pilot.press("right")
                await settled(pilot)
            if closes:
                await pilot.press("k")
                pressed.append("close")
            else:
                await pilot.press("d")
                pressed.append("discard")
        else:
            continue
        await until(pilot, lambda seq=seq: done() or screen.model.seq != seq, "the table to take the move")
    return pressed


@contextlib.asynccontextmanager
async def at_chinchon(server: Running, options: dict[str, int]) -> AsyncIterator[tuple[Pilot[Any], CardApp,
                                                                                        TableScreen]]:
    """ana, in the real client, at a new Chinchón table of two seats (a bot in the other) made with ``options``."""
    values = {k: common_pb2.OptionValue(number=v) for k, v in options.items()}
    table_id = await create(server, game="chinchon", seats=2, bots=1, turn_seconds=600, options=values)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        yield pilot, app, await at_table(pilot)


@pytest.mark.parametrize(("pack", "hands"), [({}, 2), ({"cards": 48, "jokers": 2}, 1)],
                         ids=["spanish40", "spanish50"])
async def test_a_chinchon_table_is_played_by_keys_and_every_deal_checks_out(patient_server: Running,
                                                                            pack: dict[str, int], hands: int) -> None:
    """Two hands on the pack of 40 (the second's dealer follows from the first's), one on the pack of 50."""
    async with at_chinchon(patient_server, {**pack, "limit": 10}) as (pilot, app, screen):
        pressed = await play(pilot, lambda: f"✔ Hand {hands}" in log_text(app))
        while "discard" not in pressed and "close" not in pressed:  # the bot closed before this seat's first discard
            hands += 1  # (its seven and one drawn melded at once): the next hand, until this seat has played one
            pressed += await play(pilot, lambda n=hands: f"✔ Hand {n}" in log_text(app))
        text = " ".join(log_text(app).split())
        for hand in range(1, hands + 1):
            assert (f"✔ Hand {hand} (table deal {hand}): fair deal (committed before the cut; your seed in; your cards"
                    " match).") in text, text
        assert "⚠" not in text and "knocks" not in text, text
        assert "is turned up to start the pile." in text, text
        assert "The count: " in text or "the hand is void" in text, text
        assert "discard" in pressed or "close" in pressed, pressed
        if "close" in pressed:
            assert "You close with " in text, text
        assert screen.model.view is not None
        assert title(screen.model, screen.model.view, 80).plain.startswith("Chinchón · hand "), "the board's title"
        checked = [v for v in screen.fair.verdicts if v.checked]
        assert [v.hand for v in checked][:hands] == list(range(1, hands + 1)) and all(v.ok for v in checked)


async def test_a_whole_chinchon_match_is_played_by_keys_to_its_end(patient_server: Running) -> None:
    """A whole match by keys, against a bot: to 50 points (a close with up to 10 left out), hand after hand until a
    player passes the target and the other wins the match. Every hand's deal checks out, each count and the
    elimination are said in the log, and the board says the match is over."""
    async with at_chinchon(patient_server, {"limit": 10, "target": 50}) as (pilot, app, screen):
        await play(pilot, lambda: "wins the match." in log_text(app) or "win the match." in log_text(app))
        await until(pilot, lambda: screen.model.view is not None and screen.model.view.match_over, "the match over")
        text = " ".join(log_text(app).split())
        hands = text.count("is turned up to start the pile.")
        assert text.count("The count: ") + text.count("the hand is void") == hands, text
        assert "⚠" not in text, text
        await until(pilot, lambda: len([v for v in screen.fair.verdicts if v.checked]) == hands, "every deal checked")
        checked = [v for v in screen.fair.verdicts if v.checked]
        assert [v.hand for v in checked] == list(range(1, hands + 1)) and all(v.ok for v in checked), checked
        if "You pass the target with " in text:  # out: the bot wins
            assert "bot 2 wins the match." in text, text
        else:
            assert "bot 2 passes the target with " in text and ("You win the match." in text
                                                               or "ana wins the match." in text), text
        assert ": out of the match." in text, text
