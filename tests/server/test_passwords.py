"""Passwords at rest: salted and slow, an older store brought up to it, the loop free meanwhile, and
guessing bounded per address.

A real server on 127.0.0.1 and its real SQLite files, read byte for byte as anyone who copied the
store would read them.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sqlite3
from pathlib import Path

import grpc
import pytest

from cardtui.server.app import Running, start
from cardtui.server.base import passwords
from cardtui.server.base.limits import Limits
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from tests.server.test_identity import refused
from tests.server.test_store_private import files
from tests.server.test_tournaments import request, sign_in

SECRET = "segredo"
OLD = hashlib.sha256(SECRET.encode()).hexdigest()
"""What an earlier version kept of the password: its unsalted SHA-256."""
WRONG = "That table's password is wrong."


def kept(running: Running) -> list[str]:
    """Every table's and tournament's password as the store keeps it."""
    tables = [json.loads(c)["password"] for (c,) in running.store.db.execute("SELECT config FROM tables ORDER BY id")]
    tournaments = [json.loads(d)["settings"]["password"] for (d,) in running.store.db.execute("SELECT data FROM "
                                                                                               "tournaments")]
    return tables + tournaments


async def locked_table_and_tournament(running: Running) -> tuple[list[str], str]:
    """Two tables and a tournament, all locked with ``SECRET``: the tables' ids, the tournament's."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        tables = [(await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=3, password=SECRET)))
                  .table.id for _ in range(2)]
        made = await tournament_pb2_grpc.TournamentsStub(ch).CreateTournament(
            request(game="cacho", table_size=2, password=SECRET))
    return tables, made.tournament.id


async def opens(running: Running, table_id: str, tournament_id: str) -> None:
    """``SECRET`` opens the table and the tournament; anything else does not."""
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        for wrong in ("", "Segredo", OLD):
            said = await refused(lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="ana",
                                                                            password=wrong)))
            assert said == WRONG, said
        joined = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="ana", password=SECRET))
        assert joined.token
        stub = tournament_pb2_grpc.TournamentsStub(ch)
        me = await sign_in(lobby, "bia")
        said = await refused(stub.Register(tournament_pb2.RegisterRequest(tournament_id=tournament_id,
                                                                          session=me.session, password=OLD)))
        assert said == "That tournament's password is wrong.", said
        await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tournament_id, session=me.session,
                                                           password=SECRET))


async def test_a_password_is_kept_as_a_salted_scrypt_and_still_opens_its_table(tmp_path: Path) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db")
    try:
        tables, tournament = await locked_table_and_tournament(running)
        stored = kept(running)
        assert all(s.startswith("scrypt$16384$8$1$") for s in stored), stored
        assert len(set(stored)) == 3, "each with a salt of its own: one password, three different entries"
        await opens(running, tables[0], tournament)
    finally:
        await running.stop(grace=0.1)
    store = b"".join(files(tmp_path / "store.db").values())
    assert OLD.encode() not in store and SECRET.encode() not in store


async def test_a_store_that_kept_unsalted_digests_is_upgraded_when_first_opened(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "store.db"
    running = await start("127.0.0.1", 0, db)
    tables, tournament = await locked_table_and_tournament(running)
    await running.stop(grace=0.1)
    old = sqlite3.connect(db)  # as an earlier version wrote it
    old.execute("UPDATE tables SET config = json_set(config, '$.password', ?)", (OLD,))
    old.execute("UPDATE tournaments SET data = json_set(data, '$.settings.password', ?)", (OLD,))
    old.commit()
    old.close()
    assert OLD.encode() in b"".join(files(db).values())

    caplog.set_level(logging.WARNING, logger="cardtui.store")
    running = await start("127.0.0.1", 0, db)
    try:
        stored = kept(running)
        assert all(s.startswith("scrypt$") for s in stored) and len(set(stored)) == 3, stored
        assert "3 passwords were kept as unsalted SHA-256; now each is a salted scrypt" in caplog.text
        await opens(running, tables[1], tournament)
    finally:
        await running.stop(grace=0.1)
    assert OLD.encode() not in b"".join(files(db).values()), "no old digest left in the files, freed pages too"
    caplog.clear()
    running = await start("127.0.0.1", 0, db)  # once is enough
    await running.stop(grace=0.1)
    assert "unsalted" not in caplog.text


async def test_a_check_leaves_the_loop_free() -> None:
    """scrypt runs in a worker thread: the loop goes round while it works."""
    stored = passwords.kept(SECRET)
    rounds = 0

    async def count() -> None:
        nonlocal rounds
        while True:
            await asyncio.sleep(0)  # a turn of the loop: what the test counts, not a wait
            rounds += 1

    counter = asyncio.create_task(count())
    try:
        assert await passwords.check(stored, SECRET)
        assert not await passwords.check(stored, SECRET + " ")
    finally:
        counter.cancel()
    assert rounds > 0
    assert not passwords.matches("scrypt$1048576$8$1$00$00", SECRET), "a cost past the memory bound never matches"
    assert not passwords.matches("scrypt$x", SECRET) and not passwords.matches("", SECRET)


async def test_passwords_tried_from_one_address_are_bounded(tmp_path: Path) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", limits=Limits(passwords_per_second=0.01))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            locked = (await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=3, password=SECRET)))
            open_ = (await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=3)))
            guess = lobby_pb2.SpectateRequest(table_id=locked.table.id, name="eve", password="guess")
            for _ in range(10):  # the burst: each is checked, and wrong
                assert await refused(lobby.Spectate(guess)) == WRONG
            said = await refused(lobby.Spectate(guess), grpc.StatusCode.RESOURCE_EXHAUSTED)
            assert said == "This address has tried passwords too fast; wait a little.", said
            # A password sent to a table that has none costs nothing and counts for nothing.
            for _ in range(3):
                await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=open_.table.id, name="eve", password="x"))
    finally:
        await running.stop(grace=0.1)
