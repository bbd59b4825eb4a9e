"""A name is one name however it is spelled, and a name that looks like an owned one is refused.

Over the wire, against a real server: the spellings an outside script sat under before (the
decomposed accent, a soft hyphen, fullwidth letters, a Cyrillic letter) and what a person may
still type (spaces, accents, ñ).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio

from cardtui.identity import Identity, create
from cardtui.server.app import Running, start
from cardtui.server.base.clock import ManualClock
from cardtui.server.base.limits import Limits
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc, players_pb2
from tests.conftest import create as create_table
from tests.server.test_identity import prove, refused

JOSE_NFD = "Jose\u0301"
JOSE_SOFT_HYPHEN = "Jo\u00adsé"
JOSE_FULLWIDTH = "\uff2a\uff4f\uff53é"
ANA_CYRILLIC = "\u0430na"


@pytest_asyncio.fixture
async def lobby(server: Running) -> AsyncIterator[lobby_pb2_grpc.LobbyStub]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        yield lobby_pb2_grpc.LobbyStub(ch)


async def sit(lobby: lobby_pb2_grpc.LobbyStub, table_id: str, name: str) -> str:
    """A guest sits under ``name``: the name the table shows for the seat."""
    joined = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=name))
    return next(s.name for s in joined.table.seats if s.seat == joined.seat)


def hello(lobby: lobby_pb2_grpc.LobbyStub, name: str, key: Identity | None = None) -> object:
    return lobby.Hello(players_pb2.HelloRequest(name=name, public_key=key.public_key if key else b""))


async def test_every_spelling_of_an_owned_name_is_refused_and_other_names_are_not(
    server: Running, lobby: lobby_pb2_grpc.LobbyStub, tmp_path: Path
) -> None:
    jose, ana, mallory = (create(tmp_path / f"{n}.pem") for n in ("jose", "ana", "mallory"))
    await prove(lobby, jose, "José")
    await prove(lobby, ana, "ana")
    table_id = await create_table(server, game="pifpaf", seats=8, bots=0)
    for spelling in (JOSE_NFD, JOSE_FULLWIDTH, "JOSÉ"):  # one name: PRECIS gives them one key
        said = await refused(lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=spelling)))
        assert "belongs to a player on this server who proves it with their key" in said, said
        said = await refused(hello(lobby, spelling, mallory))
        assert "belongs to another player" in said, said
    said = await refused(lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=JOSE_SOFT_HYPHEN)),
                         grpc.StatusCode.INVALID_ARGUMENT)
    assert said == ("A name cannot hold U+00AD SOFT HYPHEN; use letters, digits and the punctuation on a "
                    "keyboard."), said
    await refused(hello(lobby, "Jo\u200bsé", mallory), grpc.StatusCode.INVALID_ARGUMENT)
    # Spelled otherwise but drawn the same (UTS #39): a Cyrillic а, a Greek ο, a Greek capital Α.
    for lookalike, owner in ((ANA_CYRILLIC, "ana"), ("Jοsé", "José"), ("ΑNA", "ana")):
        said = await refused(lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=lookalike)))
        assert said == f"That name looks like {owner!r}, which belongs to another player.", said
        said = await refused(hello(lobby, lookalike, mallory))
        assert said == f"That name looks like {owner!r}, which belongs to another player.", said
    await refused(lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name=ANA_CYRILLIC)))
    # What people type keeps working, shown as typed: spaces, accents, ñ, another name near one owned.
    for name in ("Ana María", "ñandú", "Joséa", "anabela", "José Luis", "D'Ávila"):
        assert await sit(lobby, table_id, name) == name
    # The owners themselves, however they type their own names.
    assert (await prove(lobby, jose, JOSE_NFD)).name == JOSE_NFD
    assert not (await prove(lobby, ana, "ANA")).first


async def test_a_name_a_person_may_not_hold_is_refused_with_the_character_named(
    server: Running, lobby: lobby_pb2_grpc.LobbyStub
) -> None:
    table_id = await create_table(server, game="cacho", seats=4, bots=0)
    cases = {
        "🃏 rei": "A name cannot hold 🃏 (U+1F0CF PLAYING CARD BLACK JOKER); use letters, digits and the "
                  "punctuation on a keyboard.",
        "ana\u202e": "A name cannot hold U+202E RIGHT-TO-LEFT OVERRIDE; use letters, digits and the punctuation "
                     "on a keyboard.",
        "ana\u05d0": "The word 'ana\u05d0' mixes right-to-left and left-to-right letters, which a name may not.",
        "\x1b[2J\x07": "A name cannot hold U+0007; use letters, digits and the punctuation on a keyboard.",
    }
    for name, sentence in cases.items():
        said = await refused(lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=name)),
                             grpc.StatusCode.INVALID_ARGUMENT)
        assert said == sentence, said
    assert await sit(lobby, table_id, "\x1b[31mred\x1b[0m") == "red", "terminal escapes are left out, as before"


@pytest_asyncio.fixture
async def few_names(tmp_path: Path) -> AsyncIterator[Running]:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", limits=Limits(names_per_key=3,
                                                                                tables_per_minute=1e9))
    try:
        yield running
    finally:
        await running.stop(grace=0.1)


async def test_one_key_owns_a_bounded_number_of_names(few_names: Running, tmp_path: Path) -> None:
    family = create(tmp_path / "family.pem")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{few_names.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        for name in ("ana", "bia", "cris"):
            assert (await prove(lobby, family, name)).first
        said = await refused(hello(lobby, "dora", family), grpc.StatusCode.RESOURCE_EXHAUSTED)
        assert said == "This key owns 3 names on this server, the most one key may own; play under one of them."
        for name in ("ana", "bia", "cris"):  # the names it owns stay its own
            assert not (await prove(lobby, family, name)).first
        assert (await prove(lobby, create(tmp_path / "dora.pem"), "dora")).first, "another key is not bound by it"


@pytest_asyncio.fixture
async def quick_log(tmp_path: Path) -> AsyncIterator[tuple[Running, ManualClock]]:
    """No rate limit on names, and a short window for the refusals' log, on a clock the test moves."""
    clock = ManualClock()
    running = await start("127.0.0.1", 0, tmp_path / "store.db",
                          limits=Limits(tables_per_minute=1e9, refusal_log_seconds=0.5), clock=clock)
    try:
        yield running, clock
    finally:
        await running.stop(grace=0.1)


async def test_refusals_reach_the_log_at_a_bounded_rate(
    quick_log: tuple[Running, ManualClock], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    running, clock = quick_log
    ana = create(tmp_path / "ana.pem")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        await prove(lobby, ana, "ana")
        caplog.set_level(logging.INFO, logger="cardtui.service")
        kinds = ["ana", ANA_CYRILLIC, JOSE_SOFT_HYPHEN, "x" * 30]  # four reasons to refuse
        began, sent = clock.now(), 0
        for _ in range(6):  # 1,200 refusals, a window's time apart, however long the machine takes over them
            calls = [hello(lobby, kinds[i % len(kinds)]) for i in range(200)]
            outcomes = await asyncio.gather(*calls, return_exceptions=True)  # type: ignore[call-overload]
            assert all(isinstance(o, grpc.aio.AioRpcError) for o in outcomes)
            sent += len(calls)
            await clock.advance(0.5)
        elapsed = clock.now() - began
    lines = [r.getMessage() for r in caplog.records if r.name == "cardtui.service"]
    refusals = [line for line in lines if line.startswith("refused (")]
    windows = elapsed / 0.5 + 1
    assert 4 <= len(refusals) <= 4 * (windows + 1), (len(refusals), sent, elapsed)
    assert any("more like it" in line for line in refusals), refusals[:8]
    left_out = sum(int(line.split("(and ", 1)[1].split()[0]) for line in refusals if "(and " in line)
    assert left_out > sent / 2, "each line counts the refusals it stands for"


async def test_a_store_that_compared_names_case_folded_is_migrated_on_open(tmp_path: Path) -> None:
    """An older server kept ``names.folded`` and let a second key own the decomposed spelling of
    an owned name: once migrated, the name has one key, its first owner's."""
    db = tmp_path / "store.db"
    jose, other = create(tmp_path / "jose.pem"), create(tmp_path / "other.pem")
    running = await start("127.0.0.1", 0, db)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
        await prove(lobby_pb2_grpc.LobbyStub(ch), jose, "José")
    await running.stop(grace=0.1)
    old = sqlite3.connect(db)
    old.executescript("DROP TABLE name_looks; ALTER TABLE names RENAME COLUMN key TO folded;")
    old.execute("INSERT INTO players (id, name, public_key, created) VALUES ('key:other', ?, ?, 0)",
                (JOSE_NFD, other.public_key))
    old.execute("INSERT INTO names (folded, name, player) VALUES (?, ?, 'key:other')", (JOSE_NFD.casefold(), JOSE_NFD))
    old.commit()
    old.close()
    running = await start("127.0.0.1", 0, db)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            assert (await lobby.Hello(players_pb2.HelloRequest(name="josé", public_key=jose.public_key))).known
            await refused(hello(lobby, JOSE_NFD, other))
            await refused(hello(lobby, "José"))
        rows = running.store.db.execute("SELECT key, name FROM names").fetchall()
        assert rows == [("josé", "José")]
        looks = running.store.db.execute("SELECT looks FROM name_looks WHERE key = 'josé'").fetchall()
        assert sorted(row[0] for row in looks) == ["JOSE\u0301", "Jose\u0301", "jose\u0301"]
    finally:
        await running.stop(grace=0.1)


async def test_a_store_that_kept_one_lower_case_skeleton_a_name_is_brought_up_to_every_case(tmp_path: Path) -> None:
    """The previous store kept one skeleton a name, of its lower-cased key, in ``names.looks``: a
    Cyrillic capital ``М`` (whose small ``м`` looks like no ``m``) passed beside an owned ``Maria``.
    Opened now, the column is gone, the name's every case form is looked up, and it is refused."""
    db = tmp_path / "store.db"
    maria, mallory = create(tmp_path / "maria.pem"), create(tmp_path / "mallory.pem")
    running = await start("127.0.0.1", 0, db)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
        await prove(lobby_pb2_grpc.LobbyStub(ch), maria, "Maria")
    await running.stop(grace=0.1)
    old = sqlite3.connect(db)
    old.executescript("DROP TABLE name_looks; ALTER TABLE names ADD COLUMN looks TEXT NOT NULL DEFAULT 'maria'; "
                      "CREATE INDEX names_looks ON names (looks);")
    old.close()
    running = await start("127.0.0.1", 0, db)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            said = await refused(hello(lobby, "\u041caria", mallory))
            assert said == "That name looks like 'Maria', which belongs to another player.", said
            assert (await lobby.Hello(players_pb2.HelloRequest(name="MARIA", public_key=maria.public_key))).known
        columns = {row[1] for row in running.store.db.execute("PRAGMA table_info(names)")}
        assert columns == {"key", "name", "player"}
    finally:
        await running.stop(grace=0.1)
