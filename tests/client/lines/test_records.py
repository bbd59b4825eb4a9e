"""By ear, what the server remembers: the leaderboard and a player's records, the finished tables and their
hands, a hand replayed step by step; and closing a table one created.

A real server on 127.0.0.1 (port 0, SQLite): two players with keys play a Cacho match out and its table is
closed, so that it has finished hands and its players a rating; then the line mode is asked about them, in
each language.
"""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from cardtui.i18n import _, speaking
from cardtui.identity import create
from cardtui.server.app import Running
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc
from tests.client.lines.listener import Listener
from tests.client.lines.test_by_ear import EYE_ONLY, LANGUAGES
from tests.server.test_records import play_out_the_match, sit


async def a_finished_match(server: Running, tmp_path: Path) -> str:
    """ana and bia play a short match of Cacho out; its table closed; its id."""
    address = f"127.0.0.1:{server.port}"
    ana, bia = create(tmp_path / "ana.pem"), create(tmp_path / "bia.pem")
    async with grpc.aio.insecure_channel(address) as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(
            game="cacho", name="Mesa velha", seats=2, options={"chips": common_pb2.OptionValue(number=3)}))
        players = [await sit(address, made.table.id, ana, "ana"), await sit(address, made.table.id, bia, "bia")]
        await play_out_the_match(players)
        await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=made.table.id, owner_token=made.owner_token))
        for p in players:
            await p.close()
    return made.table.id


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_ranks_a_players_records_the_history_and_a_replay_by_ear(server: Running, tmp_path: Path,
                                                                           lang: str) -> None:
    await a_finished_match(server, tmp_path)
    with speaking(lang):
        player = Listener(f"127.0.0.1:{server.port}", "caio")
        player.start()
        heard = player.heard
        await heard.until(lambda s: "127.0.0.1" in s, "the welcome")
        heard.type(_("ranks"))
        first = await heard.until(lambda s: s.startswith("1: ") and ("ana" in s or "bia" in s), "the leaderboard")
        assert any(s.startswith("2: ") for s in heard.said[first:]) or heard.said[first + 1].startswith("2: ")
        heard.type(_("ranks") + " 1")
        record = _("{game}: place {place}, rating {rating}, {stats}.").split("{place}")[0].format(game="Cacho")
        await heard.until(lambda s: s.startswith(record), "a player's records", first)
        heard.type(_("ranks") + " 9")
        nobody = _("There is no player {n} on the leaderboard last heard: type ranks to hear it.").format(n=9)
        await heard.until(lambda s: s == nobody, "no player 9, said")
        heard.type(_("history"))
        listed = await heard.until(lambda s: s.startswith("1: ") and "Mesa velha" in s, "the finished table")
        heard.type(_("history") + " 1")
        hand = _("Hand {n}: {players}; {result}.").split("{n}")[0]
        await heard.until(lambda s: s.startswith(hand), "its hands", listed)
        heard.type(_("replay") + " 1")
        await heard.until(lambda s: s.startswith(_("Step {n} of {all}, {what}.").split("{n}")[0] + "1 "),
                          "the first step")
        over = _("The hand is over: {result}.").split("{result}")[0]
        heard.type(_("next"))
        await heard.until(lambda s: s.startswith(_("Step {n} of {all}, {what}.").split("{n}")[0] + "2 ")
                          or s.startswith(over), "the second step")
        heard.type(f"{_('next')} {_('all')}")
        end = await heard.until(lambda s: s.startswith(over), "the hand's end")
        heard.type("")  # enter with no replay open: nothing is said twice, and nothing breaks
        heard.type(_("next"))
        await heard.until(lambda s: s == _("No replay is open: type replay and a hand's number."), "the replay over",
                          end)
        assert await player.stop() == 0
    for line in heard.said:
        assert not EYE_ONLY.findall(line), f"drawn for the eye: {line!r}"


async def test_a_table_one_created_is_closed_from_the_lobby_and_anothers_is_not(server: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        await lobby_pb2_grpc.LobbyStub(ch).CreateTable(lobby_pb2.CreateTableRequest(
            game="cacho", name="Alheia", seats=2, bots=1))
    player = Listener(f"127.0.0.1:{server.port}")
    player.start()
    heard = player.heard
    await heard.until(lambda s: s.startswith("1: ") and "Alheia" in s, "the other's table listed")
    heard.type("new cacho")
    await heard.until(lambda s: s.endswith("or cancel."), "the table described")
    heard.type("")
    await heard.until(lambda s: s.startswith("You sit at"), "the seat")
    heard.type("leave")
    n = await heard.until(lambda s: s.startswith("2: ") and "Cacho table" in s, "both tables listed")
    heard.type("close 1")
    await heard.until(lambda s: s == "Only the table's owner (who created it) may close it.", "the other's refused", n)
    heard.type("close 2")
    await heard.until(lambda s: s.startswith("Close Cacho table?"), "asked to be sure, the table by its name", n)
    heard.type("no")
    await heard.until(lambda s: s == "The table stays open.", "kept", n)
    heard.type("close 2")
    asked = await heard.until(lambda s: s.startswith("Close Cacho table?"), "asked again", n + 3)
    heard.type("yes")
    await heard.until(lambda s: s == "The table is closed.", "closed", asked)
    await heard.until(lambda s: s.startswith("1: ") and "Alheia" in s, "the list again", asked)
    assert await player.stop() == 0
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        tables = (await lobby_pb2_grpc.LobbyStub(ch).ListTables(lobby_pb2.ListTablesRequest())).tables
    assert [t.name for t in tables] == ["Alheia"]


def test_every_command_is_in_help_and_has_a_handler() -> None:
    """A command added to the list is heard in ``help`` where it is offered, and the loop answers it."""
    from cardtui.client.lines.commands import COMMANDS, help_lines
    from cardtui.client.lines.loop import LineRoom, Start

    room = LineRoom(Start("127.0.0.1:1"), Listener("127.0.0.1:1").heard)
    for lang in LANGUAGES:
        with speaking(lang):
            said = "\n".join(help_lines(False) + help_lines(True))
            for c in COMMANDS:
                assert f"\n{_(c.name)}" in said, f"{c.name} is not in help ({lang})"
    names = {c.name for c in COMMANDS}
    handled = set(room.handlers())
    assert names == handled, f"without a handler: {names - handled}; handled but no command: {handled - names}"
