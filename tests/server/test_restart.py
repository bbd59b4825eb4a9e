"""Nothing lost: kill -9 a real server mid-hand, start it on the same store, play on."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import grpc
import pytest

from cardtui.engine.games import GAMES, get
from cardtui.server.store import Store
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc
from tests import forked
from tests.forked import Served
from tests.waiting import eventually, eventually_async


def serve(db: Path, workers: int = 1) -> tuple[Served, int]:
    return forked.serve(["--port", "0", "--db", str(db), "--next-hand-delay", "100", "--log-level", "warning",
                         "--no-announce", "--max-actions", "1e6", "--bot-delay", "5", "--workers", str(workers),
                         "--analysis-workers", "0"])  # nobody asks for one: no pool's processes to start each time


def exported(db: Path) -> list[dict[str, object]]:
    """The store's hand histories, as ``cardtui history export`` reads them (``Store.hands.all``; the command
    itself is tests/test_cli.py's), without an interpreter started for each test."""
    reader = Store(db, read_only=True)
    try:
        return [json.loads(line) for line in reader.hands.all()]
    finally:
        reader.close()


def stored(db: Path) -> int:
    """Hands in the store, read beside the server that writes it (cheaper to ask again and again than an
    export, which starts an interpreter)."""
    reader = Store(db, read_only=True)
    try:
        return reader.hands.count_hands()
    finally:
        reader.close()


async def snapshot(stub: table_pb2_grpc.TableStub, token: str) -> table_pb2.TableMessage:
    stream = stub.Subscribe(table_pb2.SubscribeRequest(token=token))
    try:
        async for msg in stream:
            return msg
    finally:
        stream.cancel()
    raise AssertionError("no snapshot")


def comparable(msg: table_pb2.TableMessage) -> tuple[int, bytes]:
    view = table_pb2.View()
    view.CopyFrom(msg.snapshot.view)
    view.deadline_ms = 0
    return msg.seq, view.SerializeToString()


def at(port: int, address: str) -> str:
    """Where a table is served, as a client dials it (``JoinResponse.address``)."""
    return f"127.0.0.1{address}" if address.startswith(":") else f"127.0.0.1:{port}"


async def served(lobby: lobby_pb2_grpc.LobbyStub, table_id: str) -> None:
    """Wait until the lobby lists the table again: a restarted server brings it back on a table
    worker once the old server's workers have ended too."""

    async def listed() -> bool:
        return table_id in [x.id for x in (await lobby.ListTables(lobby_pb2.ListTablesRequest())).tables]

    await eventually_async(listed, f"table {table_id} listed again after the restart")


# Every other game on a server with two table workers (the whole server killed: the lobby's
# process and its workers), the rest on a server of one process.
@pytest.mark.parametrize(("game", "workers"), [(g, 2 if n % 2 == 0 else 1) for n, g in enumerate(sorted(GAMES))])
async def test_kill_9_mid_hand_and_every_table_comes_back(game: str, workers: int, tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    n = get(game).player_counts[0]
    proc, port = serve(db, workers)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as lobby_ch:
            lobby = lobby_pb2_grpc.LobbyStub(lobby_ch)
            # No claim windows: one closes by its clock 2.5 s after a discard, on either side of the kill or between
            # two snapshots taken in turn, so "the same table after the restart" would hang on the machine's speed.
            # (A kill -9 as a claim window lapses: tests/server/test_unsaid.py, at every kind of event.)
            windowed = any(spec.name == "claim_ms" for spec in get(game).option_specs)
            windows = {"claim_ms": common_pb2.OptionValue(number=0)} if windowed else {}
            request = lobby_pb2.CreateTableRequest(game=game, seats=n, bots=0, turn_seconds=3600, options=windows)
            t = (await lobby.CreateTable(request)).table
            joined = [await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=t.id, name=f"p{i}")) for i in range(n)]
            tokens = [j.token for j in joined]
            assert joined[0].address.startswith(":") == (workers > 1)
            ch = grpc.aio.insecure_channel(at(port, joined[0].address))
            table = table_pb2_grpc.TableStub(ch)
            # Play a few actions, always the first legal one of a seat that may act (between
            # hands, nobody may: the next deal waits up to a second for the players' seeds).
            async def act_once() -> bool:
                for token in tokens:
                    legal = (await snapshot(table, token)).snapshot.view.legal
                    if legal:
                        await table.Act(table_pb2.ActRequest(token=token, action=legal[0]))
                        return True
                return False

            acted = 0
            while acted < 5:
                await eventually_async(act_once, "a seat that may act")
                acted += 1
            assert acted >= 5

            # Mid-hand: the last action may have ended the hand, and the next deal would then be cut in
            # the second after (on either side of the kill, or after the restart, which resumes it).
            async def in_play() -> bool:
                for token in tokens:
                    if (await snapshot(table, token)).snapshot.view.legal:
                        return True
                return False

            await eventually_async(in_play, "a hand in play, not a deal being cut")
            # Talk is numbered too (a spectator's, so that every game allows it mid-hand).
            watch = (await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=t.id, name="w"))).token
            await table.Chat(table_pb2.ChatRequest(token=watch, text="before the crash"))
            before = [comparable(await snapshot(table, tok)) for tok in tokens]
            last_seen = before[0][0]
            await ch.close()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        proc, port = serve(db, workers)  # a port of its own: the old one may have gone to another test's server
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as lobby_ch:
            lobby = lobby_pb2_grpc.LobbyStub(lobby_ch)
            await served(lobby, t.id)
            listed = (await lobby.ListTables(lobby_pb2.ListTablesRequest())).tables
            assert [x.id for x in listed] == [t.id]
            where = (await lobby.Locate(lobby_pb2.LocateRequest(token=tokens[0]))).address
            ch = grpc.aio.insecure_channel(at(port, where))
            table = table_pb2_grpc.TableStub(ch)
            after = [comparable(await snapshot(table, tok)) for tok in tokens]
            assert after == before, "same cards, same turn, same numbering after the restart"
            # No number is handed out twice: the next event comes after every one seen before.
            await table.Chat(table_pb2.ChatRequest(token=watch, text="after the crash"))
            assert (await snapshot(table, watch)).seq == last_seen + 1
            # The same tokens still act: one more action each where legal.
            for token in tokens:
                legal = [a for a in (await snapshot(table, token)).snapshot.view.legal
                         if a.type != common_pb2.ACTION_TYPE_SIGNAL]
                if legal:
                    await table.Act(table_pb2.ActRequest(token=token, action=legal[0]))
                    break
            # Then everyone leaves and bots finish the hand; its history is stored.
            for token in tokens:
                await lobby.Leave(lobby_pb2.LeaveRequest(token=token))
            await eventually(lambda: stored(db), "the hand the bots finished, in the store")
            await ch.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)
    assert proc.returncode == 0, "SIGTERM shuts down cleanly"
    records = exported(db)
    assert records, "the hand finished after the restart is in the store"
    assert get(game).replay_match(records[0]).history() is not None
