"""By ear, a tournament: created with the line mode's questions, entered, started, its standings heard, and the
player's table of the round sat at like any other.

A real server on 127.0.0.1 (port 0), bots quick but not instant, so the player reaches their table while its
match goes on; the line mode with its lines in memory (``listener``), the player proved by a key.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from cardtui.i18n import _, speaking
from cardtui.identity import create
from cardtui.server.app import Running, start
from tests.client.lines.listener import Listener
from tests.client.lines.test_by_ear import EYE_ONLY, LANGUAGES


@pytest_asyncio.fixture
async def quick(tmp_path: Path) -> AsyncIterator[Running]:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.1, next_hand_delay=0.0, cut_window=0.0,
                          bot_workers=0)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_tournament_created_entered_started_and_its_table_sat_at(quick: Running, tmp_path: Path,
                                                                          lang: str) -> None:
    with speaking(lang):
        player = Listener(f"127.0.0.1:{quick.port}", identity=create(tmp_path / "ana.pem"))
        player.start()
        heard = player.heard
        await heard.until(lambda s: "127.0.0.1" in s, "the welcome")
        heard.type(_("tournaments"))
        await heard.until(lambda s: s == _("No tournaments yet: type tournament new to create one."), "none yet")
        heard.type(f"{_('tournament')} {_('new')}")
        await heard.until(lambda s: s.startswith(_("A tournament of which game? {games}.").split("{")[0]), "the game")
        heard.type("cacho")
        described = _("Press enter to create it, or type change to choose each thing, or cancel.")
        await heard.until(lambda s: s.endswith(described), "the tournament described")
        heard.type("")
        await heard.until(lambda s: s.endswith(_("{name} is created. Type register to enter it, start to start it "
                                                 "now.").split("{name}")[1]), "created")
        heard.type(_("register"))
        await heard.until(lambda s: s.startswith(_("You are entered in {name}. When a round gives you a table, you "
                                                   "are told.").split("{name}")[0]), "entered")
        heard.type(_("tournaments"))
        await heard.until(lambda s: s.startswith("1: ") and "Cacho" in s, "the list")
        heard.type(_("start"))
        await heard.until(lambda s: s == _("The tournament starts: bots take the places left."), "started")
        template = _("{name}, round {round}: your table is ready. Type sit {n} to take your seat.")
        pattern = re.compile(re.escape(template).replace(re.escape("{name}"), ".+").replace(
            re.escape("{round}"), r"\d+").replace(re.escape("{n}"), r"(\d+)"))  # its number, never its id
        ready = await heard.until(pattern.fullmatch, "the table ready")
        match = pattern.fullmatch(heard.said[ready])
        assert match is not None
        heard.type(f"{_('sit')} {match.group(1)}")
        await heard.until(lambda s: s.startswith(_("You sit at {name}, seat {n}.").split("{name}")[0]), "the seat",
                          ready)
        heard.type(_("leave"))
        heard.type(_("tournament"))
        await heard.until(lambda s: s == _("Standings:"), "its standings", ready)
        assert await player.stop() == 0
    for line in heard.said:
        assert not EYE_ONLY.findall(line), f"drawn for the eye: {line!r}"
