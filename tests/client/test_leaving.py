"""Leaving a table is heard by the server, or the screen says it was not and tries again.

The adversary is the network: the server goes away just as the player leaves mid-match. The
screen must not pretend the seat is given up; once the server is back, the leave is sent again
and the seat is free (the token opens nothing, a bot plays the seat for whoever takes it).
"""

from __future__ import annotations

import socket
from pathlib import Path

from cardtui.client.app import CardApp
from cardtui.client.screens.leaving import LeaveScreen
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.client.screens.table import TableScreen
from cardtui.client.textual_internals import notices
from cardtui.server.app import start
from tests.client.waiting import settled, until
from tests.conftest import create


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_leave_the_server_did_not_hear_is_said_and_sent_again_until_it_is(tmp_path: Path) -> None:
    port, db = free_port(), tmp_path / "store.db"
    running = await start("127.0.0.1", port, db, bot_delay=60, next_hand_delay=60)
    table_id = await create(running, game="cacho", seats=2, bots=1, turn_seconds=3600, name="night")
    app = CardApp(f"127.0.0.1:{port}", "ana")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await app.open_table(table_id)
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.in_match(), "the match")
            await running.stop(grace=0.1)  # the server goes away as ana leaves
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LeaveScreen), "asked first")
            await pilot.press("y")
            await until(pilot, lambda: not isinstance(app.screen, TableScreen | LeaveScreen), "off the table")
            said = [n.message for n in notices(app)]
            assert any("did not hear you leave night" in m for m in said), said

            running = await start("127.0.0.1", port, db, bot_delay=60, next_hand_delay=60)
            table = running.room.tables[table_id]
            await until(pilot, lambda: table.seating[0].token is None, "the leave heard at last")
            seat = table.summary().seats[0]
            assert (seat.name, seat.away, seat.bot, seat.taken) == ("ana", True, True, False), \
                "a bot plays the seat she left until someone takes it"
            assert not [g for g in running.room.tokens.values() if g.table is table and g.seat == 0]
            await until(pilot, lambda: any("You have left night" in n.message for n in notices(app)),
                        "told it is done")
    finally:
        await running.stop(grace=0.1)


def below(screen: object, upper: str, lower: str) -> bool:
    """Whether the widget ``upper`` ends on a row above the one where ``lower`` begins."""
    top = screen.query_one(upper).region  # type: ignore[attr-defined]
    bottom = screen.query_one(lower).region  # type: ignore[attr-defined]
    return bool(top.height) and top.bottom <= bottom.y


async def test_the_leave_dialog_says_its_words_above_its_buttons_in_every_language() -> None:
    """At a real table at 80x24 (Pif Paf) and at 120x40 (truco paulista), in English, Portuguese and Spanish:
    the question and what leaving does are drawn whole, each on rows above the buttons' rows."""
    from cardtui.client.textual_internals import drawn_lines
    from cardtui.i18n import speaking

    running = await start("127.0.0.1", free_port(), None, bot_delay=60, next_hand_delay=60)
    try:
        for game, seats, size in (("pifpaf", 4, (80, 24)), ("truco_paulista", 4, (120, 40))):
            table_id = await create(running, game=game, seats=seats, bots=seats - 1, turn_seconds=3600)
            for lang in ("en", "pt_BR", "es"):
                with speaking(lang):
                    app = CardApp(f"127.0.0.1:{running.port}", f"ana{lang[:2]}")
                    async with app.run_test(size=size) as pilot:
                        await until(pilot, lambda app=app: isinstance(app.screen, LobbyScreen), "the lobby")
                        await app.open_table(table_id)
                        await until(pilot, lambda app=app: isinstance(app.screen, TableScreen)
                                    and app.screen.in_match(), "the match")
                        await pilot.press("escape")
                        await until(pilot, lambda app=app: isinstance(app.screen, LeaveScreen), "asked first")
                        await settled(pilot)
                        dialog = app.screen
                        assert below(dialog, "#confirm-title", "#confirm-detail")
                        assert below(dialog, "#confirm-detail", "#confirm-buttons"), (game, size, lang)
                        box = dialog.query_one("#confirm-dialog").region
                        rows = drawn_lines(dialog)[box.y:box.bottom]
                        drawn = " ".join(" ".join(row.text[box.x:box.right].strip("█ ") for row in rows).split())
                        for words in (dialog.title_text, dialog.detail):  # type: ignore[attr-defined]
                            assert " ".join(words.split()) in drawn, (words, drawn)
                        await pilot.press("escape")
                        await until(pilot, lambda app=app: isinstance(app.screen, TableScreen), "back at the table")
                        await pilot.press("escape", "y")
    finally:
        await running.stop(grace=0.1)
