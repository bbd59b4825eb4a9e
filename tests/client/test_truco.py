"""The truco table screens, played by key presses against a real server with bots."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio
from rich.console import Console
from textual.pilot import Pilot

from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.help import rules_text
from cardtui.client.table_screen import TableScreen
from cardtui.server.app import Running, start
from tests.conftest import create

SIZE = (120, 40)

@pytest_asyncio.fixture
async def table_server(tmp_path: Path) -> AsyncIterator[Running]:
    """Bots slow enough that a call can be seen waiting for its answer, fast enough for a test."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.15, next_hand_delay=0.05)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


def board_view(app: CardApp) -> dict[str, Any]:
    return app.screen.query_one("#board").view  # type: ignore[attr-defined, no-any-return]


def board_text(app: CardApp) -> str:
    console = Console(width=160, record=True, file=io.StringIO())
    console.print(app.screen.query_one("#board").render())
    return console.export_text()


def log_text(app: CardApp) -> str:
    return "\n".join(line.text for line in app.screen.query_one("#log").lines)  # type: ignore[attr-defined]


def keys(app: CardApp) -> dict[str, str]:
    """Each action type on offer → the key that chooses it (the first of its kind)."""
    bar = app.screen.query_one(ActionBar)
    out: dict[str, str] = {}
    for n, group in enumerate(bar.choices, start=1):
        out.setdefault(group[0].type, str(n))
    return out


def button_labels(app: CardApp) -> list[str]:
    return [str(b.label) for b in app.screen.query_one(ActionBar).query("Button")]


def record_board(app: CardApp) -> list[str]:
    """Every board the screen draws while a call awaits its answer, however briefly."""
    shown: list[str] = []

    def drawn(view: dict[str, Any]) -> None:
        if view.get("pending"):
            shown.append(board_text(app))

    app.screen.watch(app.screen.query_one("#board"), "view", drawn, init=False)
    return shown


async def open_table(pilot: Pilot[None], app: CardApp, table_id: str) -> TableScreen:
    await pilot.pause(0.2)
    await app.open_table(table_id)
    for _ in range(40):
        await pilot.pause(0.05)
        if isinstance(app.screen, TableScreen) and board_view(app).get("seats"):
            return app.screen
    raise AssertionError("the table did not open")


async def test_paulista_hand_with_a_truco_called_by_key(table_server: Running) -> None:
    table_id = await create(table_server, game="truco_paulista", seats=4, bots=3)
    app = CardApp(f"127.0.0.1:{table_server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(pilot, app, table_id)
        assert screen.seat == 0
        view = board_view(app)
        assert [s["team"] for s in view["seats"]] == [0, 1, 0, 1]
        assert all(c is None for s in view["seats"][1:] for c in s["cards"]), "others' cards are backs"
        text = board_text(app)
        assert "tentos" in text and "partner" in text and "(them)" in text
        shown = record_board(app)
        called = False
        mark = 0
        for _ in range(400):
            await pilot.pause(0.03)
            view = board_view(app)
            text = board_text(app)
            if called and "wins the hand" in "\n".join(log_text(app).splitlines()[mark:]):
                break
            offered = keys(app)
            if not offered:
                continue
            labels = button_labels(app)
            if "truco" in offered and not called:
                assert any(label.endswith("Truco!") for label in labels), labels
                mark = len(log_text(app).splitlines())
                await pilot.press(offered["truco"])
                called = True
            elif "accept" in offered and called:
                assert "your answer: Aceito, Corro" in text or "Mão de onze" in text
                await pilot.press(offered["accept"])
            elif "run" in offered:  # a call before ours: run, and try again next hand
                await pilot.press(offered["run"])
            elif "play" in offered:
                mine = [c for c in view["seats"][0]["cards"] if c is not None]
                assert any(label.startswith(f"{offered['play']} Play") for label in labels), labels
                assert mine, "my own cards are face up"
                await pilot.press(offered["play"])
            elif "keep" in offered:
                await pilot.press(offered["keep"])
            elif "play_blind" in offered:
                await pilot.press(offered["play_blind"])
        after = "\n".join(log_text(app).splitlines()[mark:])
        assert "ana: Truco!" in after, after
        assert "wins the hand" in after.split("ana: Truco!", 1)[1], after
        assert any("Truco! for 3 — waiting for their answer" in t for t in shown), "the board showed our call"


async def test_argentino_hand_with_an_envido_called_by_key(table_server: Running) -> None:
    table_id = await create(table_server, game="truco_argentino", seats=2, bots=1)
    app = CardApp(f"127.0.0.1:{table_server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await open_table(pilot, app, table_id)
        text = board_text(app)
        assert "malas" in text and "Envido" in text
        called = envido_seen = False
        mark = 0
        for _ in range(400):
            await pilot.pause(0.03)
            text = board_text(app)
            if called and ("Envido  Envido" in text or "Real envido" in text or "Falta envido" in text):
                envido_seen = True
            if called and "Team 1 scores" in "\n".join(log_text(app).splitlines()[mark:]):
                break
            offered = keys(app)
            if not offered:
                continue
            labels = button_labels(app)
            calls = [k for k in ("envido", "real_envido", "falta_envido") if k in offered]
            if calls and not called:
                assert any(label.endswith("Envido") for label in labels) or "envido" not in calls, labels
                mark = len(log_text(app).splitlines())
                await pilot.press(offered[calls[0]])
                called = True
            elif "announce" in offered:
                await pilot.press(offered["announce"])
            elif "son_buenas" in offered:
                await pilot.press(offered["son_buenas"])
            elif "quiero" in offered:
                assert "your answer: Quiero, No quiero" in text, text
                await pilot.press(offered["quiero"])
            elif "play" in offered:
                await pilot.press(offered["play"])
        after = "\n".join(log_text(app).splitlines()[mark:])
        said = [line for line in after.splitlines() if line.startswith("ana: ") and "nvido" in line]
        assert said, after
        assert "Team 1 scores" in after.split(said[0], 1)[1], after
        assert envido_seen, "the board showed the envido called"


async def test_spectator_sees_no_hand_and_no_action_bar(table_server: Running) -> None:
    table_id = await create(table_server, game="truco_paulista", seats=4, bots=4)
    app = CardApp(f"127.0.0.1:{table_server.port}", "eve", spectate=table_id)
    async with app.run_test(size=SIZE) as pilot:
        played = False
        for _ in range(100):
            await pilot.pause(0.05)
            if not isinstance(app.screen, TableScreen) or not board_view(app).get("seats"):
                continue
            assert app.screen.spectating
            assert not app.screen.query(ActionBar)
            view = board_view(app)
            assert all(c is None for s in view["seats"] for c in s["cards"])
            if view.get("trick") or view.get("tricks"):
                played = True
                break
        assert played
        text = board_text(app)
        assert "plays" in text or "Trick" in text
        assert "(us)" not in text and "partner" not in text, "a spectator belongs to no team"


async def test_signals_share_one_key_cycled_with_plus(table_server: Running) -> None:
    table_id = await create(table_server, game="truco_argentino", seats=2, bots=1)
    app = CardApp(f"127.0.0.1:{table_server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await open_table(pilot, app, table_id)
        for _ in range(100):
            if "signal" in keys(app):
                break
            await pilot.pause(0.03)
        bar = app.screen.query_one(ActionBar)
        assert len(bar.choices) <= 9, "every choice keeps a number key"
        assert [g[0].type for g in bar.choices].count("signal") == 1
        key = keys(app)["signal"]
        first = button_labels(app)[int(key) - 1]
        assert first.startswith(f"{key} Seña"), first
        await pilot.press("plus")
        second = button_labels(app)[int(keys(app)["signal"]) - 1]
        assert second != first
        await pilot.press(keys(app)["signal"])
        for _ in range(40):
            await pilot.pause(0.03)
            if "ana winks." in log_text(app):
                break
        assert "ana winks." in log_text(app)
        assert "you: wink" in board_text(app)


def test_rules_pages_name_the_calls_and_the_signal_key() -> None:
    paulista = rules_text("truco_paulista")
    assert all(word in paulista for word in ("Truco!", "Seis!", "Nove!", "Doze!", "Aceito", "Corro", "Signal"))
    argentino = rules_text("truco_argentino")
    assert all(word in argentino for word in ("Quiero", "No quiero", "Retruco", "Vale cuatro", "Real envido",
                                              "Falta envido", "Son buenas", "Me voy al mazo", "Seña"))
