"""The README's picture of a table: the real client at a real table, saved as the SVG Textual exports.

It starts a real server on 127.0.0.1 (a free port, a throw-away store, bots in the other seats), opens
the real ``CardApp`` under ``run_test()`` at the size asked, sits at a new table, waits until the hand is
dealt and it is the person's turn (cards in hand, the action bar offering its keys), and saves the
screen with ``App.save_screenshot``. Each step waits for a state of the app, never for an amount of
time; ``--seconds`` bounds the whole run only so that a broken one ends with a sentence.

    .venv/bin/python -m tools.screenshot [--game truco_paulista] [--size 100x32] [--out docs/table.svg]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
from textual.pilot import Pilot

from cardtui.client.app import CardApp
from cardtui.client.lobby import LobbyScreen
from cardtui.client.table_screen import TableScreen
from cardtui.server.app import start
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc

SEATS = {"truco_paulista": 4, "truco_argentino": 2, "cacho": 4, "pifpaf": 3, "cacheta": 2}
"""How many play at the pictured table of each game: the person and bots in the rest."""


async def until(pilot: Pilot[Any], ok: Callable[[], object], what: str, deadline: float) -> None:
    """Let the app run, one of its turns at a time, until ``ok()`` holds; fail naming ``what`` past the deadline."""
    while not ok():
        if time.monotonic() > deadline:
            raise SystemExit(f"screenshot: waited too long for {what}")
        await pilot.pause()


def my_turn(app: CardApp) -> bool:
    """The table is on screen, its hand dealt, and the person's action bar offers something."""
    screen = app.screen
    return (isinstance(screen, TableScreen) and screen.model.view is not None
            and bool(screen.model.legal))


async def shoot(game: str, size: tuple[int, int], out: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    with tempfile.TemporaryDirectory() as folder:
        running = await start("127.0.0.1", 0, Path(folder) / "store.db", bot_delay=0.05, next_hand_delay=0.5,
                              bot_workers=0, analysis_workers=0)
        try:
            address = f"127.0.0.1:{running.port}"
            seats = SEATS[game]
            async with grpc.aio.insecure_channel(address) as channel:
                created = await lobby_pb2_grpc.LobbyStub(channel).CreateTable(lobby_pb2.CreateTableRequest(
                    game=game, name="Friday night", seats=seats, bots=seats - 1, bot_levels=["normal"]))
            app = CardApp(address, "ana")
            async with app.run_test(size=size) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.wide is not None,
                            "the lobby", deadline)
                await app.open_table(created.table.id)
                await until(pilot, lambda: my_turn(app), "the hand to be dealt and the person's turn", deadline)
                for _ in range(3):  # the turn's last messages drawn: the bar, the log, the footer
                    await pilot.pause()
                out.parent.mkdir(parents=True, exist_ok=True)
                app.save_screenshot(out.name, str(out.parent))
        finally:
            await running.stop(grace=0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.screenshot", description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="truco_paulista", choices=sorted(SEATS))
    parser.add_argument("--size", default="100x32", help="the terminal's columns x rows (default 100x32)")
    parser.add_argument("--out", type=Path, default=Path("docs/table.svg"))
    parser.add_argument("--seconds", type=float, default=120.0, help="the longest the whole run may take")
    args = parser.parse_args(argv)
    columns, rows = (int(n) for n in args.size.lower().split("x"))
    asyncio.run(shoot(args.game, (columns, rows), args.out, args.seconds))
    print(f"saved {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
