"""A browser guest takes over a Pif Paf seat mid-hand, and reads his own seat truly.

A real table server and the real web endpoint on 127.0.0.1; the guest's terminal output is
replayed into a screen (pyte) as in ``test_web``. ana sits at a table of bots and leaves during
the first hand; a bot plays her seat on; the guest (in his browser's language) sits down in it.
His board names the seat his, and the hand so far in his log tells none of the moves made before
he sat as his own ("You discard…"), in English, Portuguese and Spanish.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio

from cardtui.client.words import fmt
from cardtui.i18n import _, speaking
from cardtui.server.app import Running, start
from cardtui.server.web.site import WebLimits, WebServer, local_target, open_socket
from cardtui.v1 import lobby_pb2
from tests.conftest import Player, create
from tests.test_web import Guest
from tests.waiting import eventually

TALL = (80, 50)
"""A terminal taller than wide as it looks, as a phone held upright: the log goes under the board,
at the full width, so each of its lines reads whole on one row."""
YOU = ("You draw from the stock.", "You draw {card} from the stock.", "You discard {card}.",
       "You take {card} from the pile.", "You let it go.", "You claim {card}!", "You win the pot of {n}.",
       "You win the pot of {n}: everyone else folded.")
"""Lines the log says of the reader's own moves at Pif Paf (read up to their first field)."""


@pytest_asyncio.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[Running, WebServer]]:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.3, next_hand_delay=30)
    guests = WebServer(local_target("127.0.0.1", running.port), limits=WebLimits(per_address=2, total=4))
    await guests.start(open_socket("127.0.0.1", 0))
    try:
        yield running, guests
    finally:
        await guests.stop()
        await running.stop(grace=0.2)


def own_moves(lang: str) -> list[str]:
    with speaking(lang):
        return [_(line).split("{")[0].rstrip(".!").strip() for line in YOU]


@pytest.mark.parametrize(("lang", "header"), [("en", "en-US"), ("pt_BR", "pt-BR,pt;q=0.9"), ("es", "es-AR")])
async def test_a_browser_guest_who_takes_a_seat_mid_hand_sees_it_his(
    served: tuple[Running, WebServer], lang: str, header: str
) -> None:
    running, guests = served
    table_id = await create(running, game="pifpaf", seats=3, bots=2, turn_seconds=600, name="noite")
    table = running.room.tables[table_id]
    ana = await Player(f"127.0.0.1:{running.port}").join(table_id, "ana")
    ana.subscribe()
    await ana.wait_for(lambda q: q.last_view is not None and q.last_view.hand >= 1)
    await ana.lobby.Leave(lobby_pb2.LeaveRequest(token=ana.token))  # a bot plays her seat on
    await ana.close()
    assert table.match is not None
    match = table.match  # the bots play some of the hand for ana and themselves (or all of it)
    await eventually(lambda: match.logged() >= 4 or match.hand_over(), "four moves of the hand, or its end")
    # Then they wait (a move on its timer lands), before the guest comes: however long the page takes
    # to start on a busy machine, the hand so far fits the log.
    table.config.bot_delay = 60.0
    with speaking(lang):
        ask = _("Your name at the tables")
        sits = fmt(_("{name} sits down at seat {seat}."), name="lucho", seat=ana.seat + 1).plain
        begins = fmt(_("Game {n} begins."), n=1).plain
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"ws://127.0.0.1:{guests.port}/ws?width={TALL[0]}&height={TALL[1]}",
                                   headers={"Accept-Language": header})
        await ws.send_json(["resize", {"width": TALL[0], "height": TALL[1]}])
        guest = Guest(ws, *TALL)
        try:
            await guest.until(ask)
            await guest.type("lucho\r")
            await guest.until("noite")  # the lobby lists the table
            await guest.type("\r")  # enter: sit down at the one free seat, ana's
            await guest.until(sits)
            rows = guest.screen.display
            at = next(i for i, row in enumerate(rows) if sits in row)
            log_top = next(i for i, row in enumerate(rows) if begins in row)
            board = "\n".join(rows[:log_top])
            before = "\n".join(rows[log_top:at])
            assert "lucho" in board and not re.search(r"\bana\b", board), f"his name on his seat of the board:\n{board}"
            assert "lucho" not in before, f"nothing before he sat is his:\n{before}"
            mine = [said for said in own_moves(lang) if said in before]
            assert not mine, f"moves made before he sat are not told as his ({mine}):\n{before}"
        finally:
            await ws.close()
