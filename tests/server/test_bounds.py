"""The contract's bounds are the server's: every CreateTable field and every option, both sides.

Over the wire, against a real server: each field at its lowest and highest allowed value is
accepted, one past either end refused (INVALID_ARGUMENT, with a sentence that gives the bounds);
the bounds written in lobby.proto's comments and in the refusals are the same numbers; each
game's options are tried at the ends GetInfo describes.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import pytest_asyncio

from cardtui.server.app import Running, start
from cardtui.server.base.limits import Limits
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc
from tests.server.test_identity import refused

PROTO = Path(__file__).resolve().parents[2] / "proto" / "cardtui" / "v1" / "lobby.proto"


@pytest_asyncio.fixture
async def lobby(tmp_path: Path) -> AsyncIterator[lobby_pb2_grpc.LobbyStub]:
    running: Running = await start("127.0.0.1", 0, tmp_path / "store.db", limits=Limits(tables_per_minute=1e9))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            yield lobby_pb2_grpc.LobbyStub(ch)
    finally:
        await running.stop(grace=0.1)


async def accepted(lobby: lobby_pb2_grpc.LobbyStub, **fields: Any) -> lobby_pb2.CreatedTable:
    """A table made with ``fields`` (a cacho table of people unless they say otherwise), closed again."""
    fields = {"game": "cacho", "seats": 2, "bots": 0, **fields}
    made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(**fields))
    await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=made.table.id, owner_token=made.owner_token))
    return made


async def refusal(lobby: lobby_pb2_grpc.LobbyStub, **fields: Any) -> str:
    fields = {"game": "cacho", "seats": 2, "bots": 0, **fields}
    return await refused(lobby.CreateTable(lobby_pb2.CreateTableRequest(**fields)), grpc.StatusCode.INVALID_ARGUMENT)


def proto_bounds(field: str) -> tuple[int, int]:
    """The "LOW to HIGH" the comment beside (or above) ``field`` in CreateTableRequest gives."""
    text = PROTO.read_text()
    message = text[text.index("message CreateTableRequest {"):]
    message = message[:message.index("\n}")]
    lines = message.splitlines()
    at = next(i for i, line in enumerate(lines) if re.search(rf"\b{field} = \d+;", line))
    comment = [lines[at]]
    i = at - 1
    while lines[i].strip().startswith("//"):
        comment.insert(0, lines[i])
        i -= 1
    found = re.search(r"(-?\d+) to (\d+)", " ".join(comment))
    assert found, comment
    return int(found[1]), int(found[2])


@pytest.mark.parametrize("field", ["turn_seconds", "bot_delay_ms", "away_after", "idle_minutes"])
async def test_each_number_field_is_taken_at_its_ends_and_refused_one_past_them(
    lobby: lobby_pb2_grpc.LobbyStub, field: str
) -> None:
    low, high = proto_bounds(field)
    await accepted(lobby, **{field: low})
    await accepted(lobby, **{field: high})
    for wrong in (low - 1, high + 1):
        if wrong == 0 and field != "bot_delay_ms":
            continue  # 0: the default, as the comment says
        said = await refusal(lobby, **{field: wrong})
        assert f"{low} and {high}" in said or f"{low} to {high}" in said, (field, said)
    if field != "bot_delay_ms":
        await accepted(lobby, **{field: 0})


async def test_the_defaults_and_what_the_table_says_it_got(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    assert (await accepted(lobby, turn_seconds=0)).table.turn_seconds == 30
    assert (await accepted(lobby, turn_seconds=5)).table.turn_seconds == 5
    assert len((await accepted(lobby, seats=0)).table.seats) == 2  # cacho's fewest
    said = await refusal(lobby, turn_seconds=4)
    assert said == "The turn timer must be between 5 and 3600 seconds (0 for the default, 30)."
    said = await refusal(lobby, bot_delay_ms=-1)
    assert said == "The bot delay must be between 0 and 60000 ms (unset for the server's default)."


async def test_a_table_that_never_finishes_is_not_a_strangers_choice(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    said = await refusal(lobby, idle_minutes=-1)
    assert said == ("A table that never finishes is the server's choice (cardtui serve --idle-minutes -1), not a "
                    "table's; ask for 1 to 1440 minutes, or 0 for the server's default.")
    assert "-1 is refused" in PROTO.read_text(), "the proto says so too"


async def test_seats_bots_name_password_and_bot_levels(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    info = await lobby.GetInfo(lobby_pb2.GetInfoRequest())
    for game in info.games:
        for seats in game.player_counts:
            await accepted(lobby, game=game.name, seats=seats, bots=0)
        for wrong in (min(game.player_counts) - 1, max(game.player_counts) + 1, -1):
            if wrong:
                said = await refusal(lobby, game=game.name, seats=wrong)
                assert ", ".join(map(str, game.player_counts)) in said, said
    made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=2, bot_levels=["hard"]))
    await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=made.table.id, owner_token=made.owner_token))
    for bots in (-1, 3):
        assert "0 to 2" in await refusal(lobby, bots=bots)
    await accepted(lobby, name="x" * 24, password="p" * 128)
    assert "24" in await refusal(lobby, name="x" * 25)
    assert "128" in await refusal(lobby, password="p" * 129)
    said = await refusal(lobby, bots=2, bot_levels=["grandmaster"])
    assert said == "There is no bot level 'grandmaster' at Cacho; try one of: easy, normal, hard.", said
    said = await refusal(lobby, bots=2, bot_levels=["easy", "hard", "easy"])
    assert said == "Give one bot level for every bot (2), or one for all of them.", said
    await refusal(lobby, game="poker")


COMPANIONS = {("pifpaf", "ante"): {"chips": common_pb2.OptionValue(number=10_000)}}
"""Options a game ties together (Pif Paf: the starting chips cover the ante), set so that an
option's end is tried on its own merits."""


def option_cases(spec: lobby_pb2.OptionSpec) -> tuple[list[common_pb2.OptionValue], list[common_pb2.OptionValue]]:
    """Values GameInfo allows for an option, at its ends, and values just past them."""
    value = common_pb2.OptionValue
    if spec.type == lobby_pb2.OPTION_TYPE_FLAG:
        return [value(flag=True), value(flag=False)], [value(number=1), value(choice="yes")]
    if spec.type == lobby_pb2.OPTION_TYPE_CHOICE:
        return [value(choice=c) for c in spec.choices], [value(choice="nope"), value(number=0)]
    if spec.type == lobby_pb2.OPTION_TYPE_NUMBER:
        low, high = int(spec.min), int(spec.max)
        good = [value(number=v) for v in (spec.values or [low, high])]
        bad = [value(number=low - 1), value(number=high + 1), value(fraction=low + 0.5)]
        if spec.values:
            bad.append(value(number=next(v for v in range(low, high) if v not in spec.values)))
        return good, bad
    assert spec.type == lobby_pb2.OPTION_TYPE_FRACTION
    return ([value(fraction=spec.min), value(fraction=spec.max)],
            [value(fraction=spec.min - 0.001), value(fraction=spec.max + 0.001), value(fraction=float("nan"))])


async def test_a_sealed_table_is_refused_where_it_is_not_dealt_yet_and_nothing_is_made(
    lobby: lobby_pb2_grpc.LobbyStub, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both trucos offer the option (the engine plays a sealed hand) and the server relays a sealed deal of each,
    with bots or without (in every arrangement: tests/test_matrix.py). A game that offered the option without its
    hand's steps relayed sealed (truco paulista before they were, made so here) is refused with a sentence saying
    what is missing, rather than open a table nobody could be dealt at."""
    from cardtui.engine.truco.paulista.game import GAME as PAULISTA

    sealed = {"sealed": common_pb2.OptionValue(flag=True)}
    for seats, bots in ((4, 0), (4, 3)):
        made = await accepted(lobby, game="truco_paulista", seats=seats, bots=bots, options=sealed)
        assert made.table.id
    monkeypatch.setattr(type(PAULISTA), "sealed_dealt", False)
    before = await lobby.ListTables(lobby_pb2.ListTablesRequest())
    said = await refusal(lobby, game="truco_paulista", seats=4, options=sealed)
    assert said == ("A sealed table of Truco paulista is not dealt yet: the steps of its hand that move hidden "
                    "cards are not relayed sealed. Sealed tables are dealt at: Truco argentino.")
    after = await lobby.ListTables(lobby_pb2.ListTablesRequest())
    assert len(after.tables) == len(before.tables)
    made = await accepted(lobby, game="truco_argentino", seats=2, options=sealed)
    assert made.table.id
    made = await accepted(lobby, game="truco_argentino", seats=4, bots=3, options=sealed)  # the bots: the host's
    assert made.table.id
    off = {"sealed": common_pb2.OptionValue(flag=False)}
    made = await accepted(lobby, game="truco_argentino", seats=2, options=off)
    assert made.table.id


async def test_every_option_of_every_game_is_taken_at_its_ends_and_refused_past_them(
    lobby: lobby_pb2_grpc.LobbyStub,
) -> None:
    info = await lobby.GetInfo(lobby_pb2.GetInfoRequest())
    tried = 0
    for game in info.games:
        seats = min(game.player_counts)
        for spec in game.options:
            good, bad = option_cases(spec)
            companions = COMPANIONS.get((game.name, spec.name), {})
            for v in good:
                if spec.name == "sealed" and v.flag:  # dealt for some games and seats only: its own test above
                    continue
                await accepted(lobby, game=game.name, seats=seats, options={**companions, spec.name: v})
            for v in bad:
                said = await refusal(lobby, game=game.name, seats=seats, options={spec.name: v})
                assert spec.name in said, said
                if spec.type in (lobby_pb2.OPTION_TYPE_NUMBER, lobby_pb2.OPTION_TYPE_FRACTION) and not spec.values:
                    assert f"{spec.min:g}" in said and f"{spec.max:g}" in said, said
                tried += 1
        said = await refusal(lobby, game=game.name, seats=seats, options={"no_such": common_pb2.OptionValue(flag=True)})
        assert "no option 'no_such'" in said, said
    assert tried > 50


@pytest.mark.parametrize("max_tables", [20, 30])
async def test_max_tables_is_how_many_tables_one_address_opens_at_once(tmp_path: Path, max_tables: int) -> None:
    """``--max-tables N`` (``Limits.tables_per_minute``): a script setting up a room opens N tables at once; the next
    is refused with the sentence the flag's help quotes, and one more may open every 3 s (the test's clock)."""
    import argparse

    from cardtui import cli
    from cardtui.server.base.clock import ManualClock

    [commands] = [a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction)]
    serve = commands.choices["serve"]
    [flag] = [a for a in serve._actions if "--max-tables" in a.option_strings]
    assert "opened tables too fast" in (flag.help or "") and "every 3 s" in (flag.help or "")
    clock = ManualClock()
    running = await start("127.0.0.1", 0, tmp_path / "store.db", limits=Limits(tables_per_minute=max_tables),
                          clock=clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            table = lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=0)
            for _ in range(max_tables):
                await lobby.CreateTable(table)
            with pytest.raises(grpc.aio.AioRpcError) as too_fast:
                await lobby.CreateTable(table)
            assert too_fast.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert too_fast.value.details() == "This connection has opened tables too fast; wait a little."
            await clock.advance(3.0)
            await lobby.CreateTable(table)
            assert len(running.room.tables) == max_tables + 1
    finally:
        await running.stop(grace=0.1)
