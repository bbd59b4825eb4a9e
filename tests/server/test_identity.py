"""Players who are remembered: a name is the first key's that proves it, and nobody else's."""

from __future__ import annotations

import os
import stat
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtui.identity import Identity, IdentityError, challenge, create, load, load_or_create
from cardtui.server.app import Running, start
from cardtui.server.base.limits import Limits
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc, players_pb2
from tests.conftest import create as create_table


def stub(ch: grpc.aio.Channel) -> lobby_pb2_grpc.LobbyStub:
    return lobby_pb2_grpc.LobbyStub(ch)


async def prove(lobby: lobby_pb2_grpc.LobbyStub, me: Identity, name: str) -> players_pb2.ProveResponse:
    hello = await lobby.Hello(players_pb2.HelloRequest(name=name, public_key=me.public_key))
    signature = me.sign(hello.server_id, hello.nonce, name)
    return await lobby.Prove(players_pb2.ProveRequest(name=name, public_key=me.public_key, nonce=hello.nonce,
                                                      signature=signature))


async def refused(call: object, code: grpc.StatusCode = grpc.StatusCode.PERMISSION_DENIED) -> str:
    with pytest.raises(grpc.aio.AioRpcError) as err:
        await call  # type: ignore[misc]
    assert err.value.code() == code, err.value.details()
    details = err.value.details() or ""
    assert details.endswith(".") and len(details) > 20, details
    return details


def test_an_identity_is_made_once_private_to_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "conf" / "identity.pem"
    me = load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_or_create(path)
    assert again.public_key == me.public_key and len(me.public_key) == 32
    os.chmod(path, 0o644)
    with pytest.raises(IdentityError, match="chmod 600"):
        load(path)
    (tmp_path / "junk.pem").write_bytes(b"not a key")
    os.chmod(tmp_path / "junk.pem", 0o600)
    with pytest.raises(IdentityError, match="does not hold a cardtui key"):
        load(tmp_path / "junk.pem")


async def test_a_name_is_the_first_keys_and_refused_to_anyone_who_knows_only_the_name(
    server: Running, tmp_path: Path
) -> None:
    ana, mallory = create(tmp_path / "ana.pem"), create(tmp_path / "mallory.pem")
    table_id = await create_table(server, game="cacho", seats=3, bots=1)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        lobby = stub(ch)
        proved = await prove(lobby, ana, "ana")
        assert proved.first and proved.name == "ana" and proved.session
        assert proved.fingerprint == ana.fingerprint
        # Another key is refused the name, whatever its case, at Hello and at Prove.
        details = await refused(lobby.Hello(players_pb2.HelloRequest(name="Ana", public_key=mallory.public_key)))
        assert "belongs to another player" in details
        # A guest (no key) can neither sit nor watch under it.
        details = await refused(lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="ana")))
        assert "proves it with their key" in details
        await refused(lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="ANA")))
        await refused(lobby.Hello(players_pb2.HelloRequest(name="ana")))
        # Another key signing a nonce handed out for ana's key proves nothing.
        hello = await lobby.Hello(players_pb2.HelloRequest(name="ana", public_key=ana.public_key))
        forged = mallory.sign(hello.server_id, hello.nonce, "ana")
        await refused(lobby.Prove(players_pb2.ProveRequest(name="ana", public_key=ana.public_key, nonce=hello.nonce,
                                                           signature=forged)))
        # ... nor does a nonce handed out for another key.
        hello = await lobby.Hello(players_pb2.HelloRequest(name="mal", public_key=mallory.public_key))
        await refused(lobby.Prove(players_pb2.ProveRequest(
            name="ana", public_key=mallory.public_key, nonce=hello.nonce,
            signature=mallory.sign(hello.server_id, hello.nonce, "ana"))))
        # With the session the seat is ana's; a guest still plays under a name nobody owns.
        seat = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, session=proved.session))
        guest = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="bea"))
        names = {s.seat: s.name for s in guest.table.seats}
        assert names[seat.seat] == "ana" and names[guest.seat] == "bea"
        # A session proves its own name only, and an unknown one asks for a new proof.
        await refused(lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name="bea",
                                                               session=proved.session)),
                      grpc.StatusCode.INVALID_ARGUMENT)
        await refused(lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, session="made-up")),
                      grpc.StatusCode.UNAUTHENTICATED)
        await refused(lobby.Hello(players_pb2.HelloRequest(name="bot 2", public_key=mallory.public_key)),
                      grpc.StatusCode.INVALID_ARGUMENT)


async def test_a_replayed_proof_or_one_made_for_another_server_is_refused(server: Running, tmp_path: Path) -> None:
    ana = create(tmp_path / "ana.pem")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        lobby = stub(ch)
        hello = await lobby.Hello(players_pb2.HelloRequest(name="ana", public_key=ana.public_key))
        request = players_pb2.ProveRequest(name="ana", public_key=ana.public_key, nonce=hello.nonce,
                                           signature=ana.sign(hello.server_id, hello.nonce, "ana"))
        assert (await lobby.Prove(request)).session
        details = await refused(lobby.Prove(request))  # seen on the wire and sent again
        assert "stale or was used already" in details
        hello = await lobby.Hello(players_pb2.HelloRequest(name="ana", public_key=ana.public_key))
        elsewhere = ana.key.sign(challenge("another-server", hello.nonce, "ana"))
        await refused(lobby.Prove(players_pb2.ProveRequest(name="ana", public_key=ana.public_key, nonce=hello.nonce,
                                                           signature=elsewhere)))


async def test_a_name_sent_with_stray_spaces_proves_the_plain_name(server: Running, tmp_path: Path) -> None:
    """Hello makes the name plain; Prove with the same name as sent, signed as sent, proves it."""
    ana = create(tmp_path / "ana.pem")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        proved = await prove(stub(ch), ana, "  ana   maria ")
        assert proved.name == "ana maria" and proved.session
        other = create(tmp_path / "other.pem")
        await refused(prove(stub(ch), other, "ana maria"))


async def test_the_same_key_is_recognised_from_a_new_connection_and_after_a_restart(tmp_path: Path) -> None:
    ana, other = create(tmp_path / "ana.pem"), create(tmp_path / "other.pem")
    db = tmp_path / "store.db"
    running = await start("127.0.0.1", 0, db, bot_delay=0.01, next_hand_delay=0.05)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            first = await prove(stub(ch), ana, "ana")
            server_id = (await stub(ch).Hello(players_pb2.HelloRequest(name="zed"))).server_id
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            hello = await stub(ch).Hello(players_pb2.HelloRequest(name="ana", public_key=ana.public_key))
            assert hello.known
            again = await prove(stub(ch), ana, "ana")
            assert not again.first and again.session != first.session
    finally:
        await running.stop(grace=0.1)
    running = await start("127.0.0.1", 0, db, bot_delay=0.01, next_hand_delay=0.05)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            lobby = stub(ch)
            hello = await lobby.Hello(players_pb2.HelloRequest(name="ana", public_key=ana.public_key))
            assert hello.known and hello.server_id == server_id
            await refused(lobby.Hello(players_pb2.HelloRequest(name="ana", public_key=other.public_key)))
            table_id = await create_table(running, game="cacho", seats=2, bots=1)
            joined = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, session=first.session))
            assert [s.name for s in joined.table.seats if s.seat == joined.seat] == ["ana"]
            card = await lobby.PlayerCard(players_pb2.PlayerCardRequest(name="ANA"))
            assert card.kind == players_pb2.PLAYER_KIND_PERSON and card.fingerprint == ana.fingerprint
            assert card.since_unix > 0
    finally:
        await running.stop(grace=0.1)


REFUSALS = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.NOT_FOUND,
            grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.RESOURCE_EXHAUSTED}
names = st.one_of(st.sampled_from(["ana", "ANA", "Ana ", "bot", "bot (easy)", "", "\x1b[31m", "a" * 30]),
                  st.text(max_size=30))
blobs = st.one_of(st.binary(max_size=80), st.binary(min_size=32, max_size=32), st.binary(min_size=64, max_size=64))


@pytest_asyncio.fixture
async def unlimited(tmp_path: Path) -> AsyncIterator[Running]:
    """A server without rate limits: the fuzz is about what the handlers do with what they are given."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          limits=Limits(tables_per_minute=1e9))
    try:
        yield running
    finally:
        await running.stop(grace=0.1)


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_any_identity_request_succeeds_or_is_refused_with_a_sentence_and_the_name_stays_its_owners(
    unlimited: Running, tmp_path: Path, data: st.DataObject
) -> None:
    server = unlimited
    ana = load_or_create(tmp_path / "ana.pem")
    if not server.room.tables:  # the server lives across examples: one table, ana's name proved once
        await create_table(server, game="cacho", seats=2, bots=1)
    table_id = next(iter(server.room.tables))
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as ch:
        lobby = stub(ch)
        if not await server_knows(lobby, ana):
            await prove(lobby, ana, "ana")
        hello = await lobby.Hello(players_pb2.HelloRequest(name="ana", public_key=ana.public_key))
        kind = data.draw(st.sampled_from(["hello", "prove", "join", "spectate", "card", "board"]))
        key = data.draw(st.one_of(blobs, st.just(ana.public_key)))
        try:
            if kind == "hello":
                await lobby.Hello(players_pb2.HelloRequest(name=data.draw(names), public_key=key))
            elif kind == "prove":
                nonce = data.draw(st.one_of(blobs, st.just(hello.nonce)))
                await lobby.Prove(players_pb2.ProveRequest(name=data.draw(names), public_key=key, nonce=nonce,
                                                           signature=data.draw(blobs)))
            elif kind == "join":
                await lobby.JoinTable(lobby_pb2.JoinTableRequest(
                    table_id=table_id, name=data.draw(names), session=data.draw(st.text(max_size=40))))
            elif kind == "spectate":
                await lobby.Spectate(lobby_pb2.SpectateRequest(
                    table_id=table_id, name=data.draw(names), session=data.draw(st.text(max_size=40))))
            elif kind == "card":
                request = players_pb2.PlayerCardRequest(name=data.draw(names),
                                                        table_id=data.draw(st.sampled_from([table_id, "", "x"])))
                if data.draw(st.booleans()):
                    request.seat = data.draw(st.integers(-(2**31), 2**31 - 1))
                await lobby.PlayerCard(request)
            else:
                await lobby.Leaderboard(players_pb2.LeaderboardRequest(
                    game=data.draw(st.one_of(st.just("cacho"), names)), limit=data.draw(st.integers(-5, 2**31 - 1))))
        except grpc.aio.AioRpcError as e:
            details = e.details() or ""
            assert e.code() in REFUSALS, (kind, e.code(), details)
            assert details.endswith(".") and all(ch.isprintable() for ch in details), details
        guest = lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name="Ana"))
        await refused(guest)
        assert (await lobby.Hello(players_pb2.HelloRequest(name="ana", public_key=ana.public_key))).known


async def server_knows(lobby: lobby_pb2_grpc.LobbyStub, me: Identity) -> bool:
    return bool((await lobby.Hello(players_pb2.HelloRequest(name="ana", public_key=me.public_key))).known)


async def test_the_client_proves_its_name_again_when_the_server_forgot_the_session(
    server: Running, tmp_path: Path
) -> None:
    from cardtui.client.connection import Connection

    table_id = await create_table(server, game="cacho", seats=3, bots=1)
    conn = Connection.open(f"127.0.0.1:{server.port}")
    conn.identity = create(tmp_path / "ana.pem")
    try:
        proved = await conn.sign_in("ana")
        assert proved is not None and proved.first
        server.store.db.execute("DELETE FROM sessions")  # an old session, forgotten
        joined = await conn.join(table_id, "ana")
        assert [s.name for s in joined.table.seats if s.seat == joined.seat] == ["ana"]
        assert conn.session != proved.session
        guest = Connection.open(f"127.0.0.1:{server.port}")
        try:
            await refused(guest.join(table_id, "ana"))
        finally:
            await guest.close()
    finally:
        await conn.close()


async def test_a_player_who_sits_again_from_another_client_gets_their_own_seat_back(
    server: Running, tmp_path: Path
) -> None:
    from tests.conftest import Player, started

    ana = create(tmp_path / "ana.pem")
    table_id = await create_table(server, game="cacho", seats=2, bots=1)  # the match starts once ana sits
    address = f"127.0.0.1:{server.port}"
    first, second = Player(address), Player(address)
    joined = await first.lobby.JoinTable(lobby_pb2.JoinTableRequest(
        table_id=table_id, session=(await prove(first.lobby, ana, "ana")).session))
    first.token, first.seat = joined.token, joined.seat
    first.subscribe()
    await first.wait_for(lambda p: p.last_view is not None)
    await started(server, table_id)
    # The first client is gone (a crash, another machine): the same key sits down again.
    again = await second.lobby.JoinTable(lobby_pb2.JoinTableRequest(
        table_id=table_id, session=(await prove(second.lobby, ana, "ana")).session))
    assert again.seat == joined.seat and again.token != joined.token
    assert sum(1 for s in again.table.seats if s.name == "ana") == 1
    await first.wait_for(lambda p: any(m.HasField("closing") for m in p.messages))
    await refused(first.lobby.Leave(lobby_pb2.LeaveRequest(token=joined.token)))
    elsewhere = lobby_pb2.JoinTableRequest(table_id=table_id, seat=1 - joined.seat,
                                           session=(await prove(second.lobby, ana, "ana")).session)
    assert "already sit at this table" in await refused(second.lobby.JoinTable(elsewhere),
                                                        grpc.StatusCode.FAILED_PRECONDITION)
    # Left mid-match, the seat is still theirs to take back from the bot.
    await second.lobby.Leave(lobby_pb2.LeaveRequest(token=again.token))
    left = await second.lobby.ListTables(lobby_pb2.ListTablesRequest())
    seat = next(s for t in left.tables if t.id == table_id for s in t.seats if s.seat == joined.seat)
    assert seat.away and seat.name == "ana"
    back = await second.lobby.JoinTable(lobby_pb2.JoinTableRequest(
        table_id=table_id, session=(await prove(second.lobby, ana, "ana")).session))
    assert back.seat == joined.seat
    assert not next(s for s in back.table.seats if s.seat == back.seat).away, "no bot plays for ana now"
    await first.close()
    await second.close()


async def test_two_names_one_key_are_two_players_with_their_own_seats(server: Running, tmp_path: Path) -> None:
    """People who share a machine share its key: each name they prove is its own player."""
    from tests.conftest import Player

    shared = create(tmp_path / "shared.pem")
    table_id = await create_table(server, game="cacho", seats=3, bots=1)
    address = f"127.0.0.1:{server.port}"
    ana, bia = Player(address), Player(address)
    sat_ana = await ana.lobby.JoinTable(lobby_pb2.JoinTableRequest(
        table_id=table_id, session=(await prove(ana.lobby, shared, "ana")).session))
    sat_bia = await bia.lobby.JoinTable(lobby_pb2.JoinTableRequest(
        table_id=table_id, session=(await prove(bia.lobby, shared, "bia")).session))
    assert sat_bia.seat != sat_ana.seat, "bia does not take ana's seat back"
    names = {s.seat: s.name for s in sat_bia.table.seats if s.taken}
    assert names[sat_ana.seat] == "ana" and names[sat_bia.seat] == "bia"
    cards = [await ana.lobby.PlayerCard(players_pb2.PlayerCardRequest(name=n)) for n in ("ana", "bia")]
    assert cards[0].name == "ana" and cards[1].name == "bia"
    await ana.close()
    await bia.close()
