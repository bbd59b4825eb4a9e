"""``cardtui replay``: finished hands face up, from a server, a store or a file of hand histories.

From a server the hands come over the wire (``Lobby.ListHands``, ``Lobby.Replay``). From a
file (``cardtui sim --history``, ``cardtui history export``) or a store read directly, there is
no server: this process rebuilds each hand with the engine, as a server would, and hands the
client app the same wire messages (the client itself never touches the engine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from cardtui.client.screens.replay import ReplayApp, ServerHands, Steps
from cardtui.server.hands.replays import hand_summary, steps
from cardtui.v1 import replay_pb2


class RecordHands:
    """Hand histories held in this process, each rebuilt by the engine when it is opened."""

    def __init__(self, records: Iterable[Mapping[str, Any]], title: str) -> None:
        self.records = [r for r in records if "void" not in r]  # (a commitment that dealt no hand: nothing to replay)
        self._title = title

    @property
    def title(self) -> str:
        return self._title

    async def hands(self) -> list[replay_pb2.HandSummary]:
        return [hand_summary(r) for r in self.records]

    async def steps(self, hand: replay_pb2.HandSummary) -> Steps:
        record = next((r for r in self.records if str(r.get("table", "")) == hand.table_id
                       and int(r["hand"]) == hand.hand), None)
        if record is None:
            raise ValueError(f"There is no hand {hand.hand} here.")
        return await asyncio.to_thread(steps, record)


def read_file(path: Path) -> list[dict[str, Any]]:
    """The hand histories of a JSON Lines file; ``ValueError`` with a sentence if it holds none or is broken."""
    records = []
    with path.open(encoding="utf-8") as f:
        for n, text in enumerate(f, start=1):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}, line {n}, is not JSON: {e.msg}.") from None
            if isinstance(record, dict) and "void" in record:
                continue  # a commitment that dealt no hand (docs/history.md §2a): no cards to replay
            if not isinstance(record, dict) or not {"game", "hand", "seats", "actions"} <= record.keys():
                raise ValueError(f"{path}, line {n}, is not a hand history (format cardtui-hand/1).")
            records.append(record)
    if not records:
        raise ValueError(f"{path} holds no hand history.")
    return records


def app(args: argparse.Namespace) -> ReplayApp:
    """The replay app ``args`` ask for (a file, a table in a store, or a table on a server);
    ``ValueError`` with a sentence if they cannot be met."""
    hand: int | None = args.hand
    if args.file:
        if args.table or args.db or args.server:
            raise ValueError("Give a file, or --table (with --server or --db), not both.")
        path = Path(args.file)
        if not path.exists():
            raise ValueError(f"There is no file {path}.")
        source = RecordHands(read_file(path), path.name)
        return ReplayApp(lambda: source, hand)
    if not args.table:
        raise ValueError("Give a file of hand histories, or --table ID (and --hand N).")
    if args.db:
        if args.server:
            raise ValueError("Give --server or --db, not both.")
        from cardtui.server.store import Store

        path = Path(args.db)
        if not path.exists():
            raise ValueError(f"There is no store at {path}.")
        store = Store(path, read_only=True)
        try:
            records = [json.loads(line) for line in store.hands.all(args.table)]
        finally:
            store.close()
        if not records:
            raise ValueError(f"The store {path} holds no finished hand of table {args.table}.")
        db_source = RecordHands(records, f"table {args.table}")
        return ReplayApp(lambda: db_source, hand)
    from cardtui.client.connection import Connection

    tls_ca: bytes | None = None
    if args.tls_ca:
        from cardtui.certs import load_ca

        tls_ca = load_ca(args.tls_ca)
    opened: list[Connection] = []

    def connect() -> ServerHands:
        conn = Connection.open(args.server or "127.0.0.1", tls_ca=tls_ca)
        opened.append(conn)
        return ServerHands(conn, args.table, password=args.password)

    async def close() -> None:
        for conn in opened:
            await conn.close()

    return ReplayApp(connect, hand, close)
