"""A person's stay at a host (``client.stay``, docs/fairness.md "Your stay at a host"): the re-roll by closing a
table, on a real server, through the client's own connection and check; what the client keeps on its disk; and
the void's line in the history, which ``cardtui verify`` fails."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import stat
from pathlib import Path

import grpc
import pytest

from cardtui.cli import main as cardtui
from cardtui.client.connection import Connection
from cardtui.client.fairness import FairDeals, Standing
from cardtui.client.stay import Fate, Kind, Stay, path
from cardtui.server.app import Running
from cardtui.v1 import common_pb2, lobby_pb2, table_pb2
from tests.waiting import eventually


async def _follow(conn: Connection, token: str, fair: FairDeals | None, kept: list[table_pb2.TableMessage]) -> None:
    """A person's client: every message kept; at each of their turns they go to the deck (truco argentino)."""
    async for msg in conn.follow(token, fair=fair):
        kept.append(msg)
        view = msg.update.view if msg.HasField("update") and msg.update.HasField("view") else None
        if view is not None and view.HasField("you") and view.you in view.to_act:
            mazo = next((a for a in view.legal if a.type == common_pb2.ACTION_TYPE_MAZO), None)
            if mazo is not None:
                with contextlib.suppress(grpc.aio.AioRpcError):
                    await conn.act(token, mazo, msg.seq)


async def test_a_table_closed_on_a_deck_taints_the_next_deal_at_another_table(patient_server: Running,
                                                                               tmp_path: Path) -> None:
    """The host plays seat 2 and holds its link; once ana's is in, it closes the table (the deal is revealed
    undealt) and opens another with her, where it cuts. Her client says the void in grey, then gives the deal at
    the new table no ✔, naming the closed table's deal; the store holds the void's line, and ``cardtui verify``
    fails the night's file on it."""
    address = f"127.0.0.1:{patient_server.port}"
    ana, host = Connection.open(address), Connection.open(address)
    tasks: list[asyncio.Task[None]] = []
    try:
        tables, checks = [], []
        for round_ in range(2):
            table = await host.create(lobby_pb2.CreateTableRequest(game="truco_argentino", seats=2, bots=0))
            mine, theirs = await ana.join(table.id, "ana"), await host.join(table.id, "bia")
            fair, kept = FairDeals(), []
            tasks += [asyncio.create_task(_follow(ana, mine.token, fair, [])),
                      asyncio.create_task(_follow(host, theirs.token, None, kept))]
            await eventually(lambda fair=fair: fair.watch is not None and fair.watch.taken, "ana's link taken")
            tables.append(table.id)
            checks.append(fair)
            if round_ == 0:
                await host.close_table(table.id)
                await eventually(lambda fair=fair: fair.verdicts, "the void said")
            else:
                assert await host.cut(theirs.token, 1, host.chains[theirs.token].link(1))
                await eventually(lambda fair=fair: fair.verdicts, "the deal at the new table checked")
        [void], [dealt] = checks[0].verdicts, checks[1].verdicts
        assert void.standing is Standing.VOIDED and void.said().style == "grey62"
        assert not dealt.ok and not dealt.problems and dealt.cut, dealt
        said = dealt.said().text.plain
        assert (f"your seed for table deal 1 at table {tables[0][:8]} went to a deal you did not see played out (the"
                " table closed before this deal was dealt)") in said, said
        # on the person's own disk (the test's folder), readable by them only, and nothing secret in it
        kept_file = path()
        assert kept_file.exists() and stat.S_IMODE(kept_file.stat().st_mode) == 0o600
        entries = Stay(address).entries()
        assert [(e.table, e.fate, e.kind) for e in entries] == [(tables[0], Fate.UNDEALT, Kind.VOID),
                                                                 (tables[1], Fate.DEALT, "")]
        assert entries[0].told, "said once, on the deal after it"
        links = {ana.chains[t].link(1).hex() for t in ana.chains}
        assert not any(link in kept_file.read_text() for link in links), "a link kept on disk"
        # the void's line in the history: cardtui verify fails the file on it
        lines = list(patient_server.store.hands.all(tables[0]))
        [record] = [json.loads(line) for line in lines]
        assert record["void"] == "the table closed before this deal was dealt" and record["fair"]["player_seeds"]
        night = tmp_path / "night.jsonl"
        night.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        assert cardtui(["verify", str(night)]) == 1
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await ana.close()
        await host.close()


def test_a_link_left_by_a_client_that_stopped_counts_as_unseen(tmp_path: Path) -> None:
    """A client that gave a link and stopped (its process gone) before it saw the hand: the next deal checked at
    the host, by a client started again, says it; the same client opening that table again and seeing the reveal
    settles it instead."""
    file = tmp_path / "links.json"
    stay = Stay("host:1", file)
    stay.gave("t1", 4, "c" * 64, b"\x01" * 32)
    data = json.loads(file.read_text())
    data["host:1"][0]["pid"] = 2**22 + 12_345  # no process has it
    file.write_text(json.dumps(data))
    [taint] = Stay("host:1", file).taints("t2")
    assert (taint.table, taint.deal, taint.kind) == ("t1", 4, Kind.UNSEEN) and taint.honest
    assert Stay("host:1", file).taints("t2") == [], "said once"
    again = Stay("host:2", file)
    again.gave("t9", 1, "d" * 64, b"\x02" * 32)
    data = json.loads(file.read_text())
    data["host:2"][0]["pid"] = 2**22 + 12_345
    file.write_text(json.dumps(data))
    again.follow("t9")  # started again at that table: its entry is this process's to settle
    from cardtui.fair import Chain

    chain = Chain.make(length=2)
    again.gave("t9", 2, "e" * 64, chain.pledge)
    again.revealed("t9", 2, [chain.link(1)], void=False)
    assert [e.fate for e in again.entries() if e.deal == 2] == [Fate.DEALT]
    assert os.getpid() in {e.pid for e in again.entries()}


@pytest.mark.parametrize("kind", [Kind.DROPPED, Kind.MISDEALT])
def test_a_commitment_no_honest_server_leaves_undealt_taints_in_red_elsewhere(tmp_path: Path, kind: Kind) -> None:
    stay = Stay("host:1", tmp_path / "links.json")
    stay.gave("t1", 3, "a" * 64, b"\x03" * 32)
    stay.settle("t1", "a" * 64, Fate.UNDEALT, kind)
    [taint] = stay.taints("t2")
    assert taint.kind is kind and not taint.honest
