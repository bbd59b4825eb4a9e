"""The baseline: a gRPC server that only fans each Act out to its table's subscribers.

Same wire contract as the real server's Table service; no engine, no store, no lobby.
A token is ``TABLE/SEAT``; every Act becomes one numbered event for everyone at the table.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

import grpc

from cardtui.server.app import SERVER_OPTIONS
from cardtui.v1 import table_pb2, table_pb2_grpc


class BareTable(table_pb2_grpc.TableServicer):
    def __init__(self) -> None:
        self.subs: dict[str, set[asyncio.Queue[table_pb2.TableMessage]]] = defaultdict(set)
        self.seq: dict[str, int] = defaultdict(int)

    async def Subscribe(self, request: table_pb2.SubscribeRequest, context: Any) -> AsyncIterator[
            table_pb2.TableMessage]:
        table = request.token.split("/")[0]
        queue: asyncio.Queue[table_pb2.TableMessage] = asyncio.Queue(1024)
        self.subs[table].add(queue)
        try:
            yield table_pb2.TableMessage(seq=self.seq[table], snapshot=table_pb2.Snapshot())
            while True:
                yield await queue.get()
        finally:
            self.subs[table].discard(queue)

    async def Act(self, request: table_pb2.ActRequest, context: Any) -> table_pb2.ActResponse:
        table = request.token.split("/")[0]
        self.seq[table] += 1
        seq = self.seq[table]
        seat = int(request.token.split("/")[1]) if request.token.split("/")[1].isdigit() else 0
        event = table_pb2.Event(seq=seq, acted=table_pb2.Acted(seat=seat, action=request.action))
        msg = table_pb2.TableMessage(seq=seq, update=table_pb2.Update(events=[event]))
        for q in list(self.subs[table]):
            if not q.full():
                q.put_nowait(msg)
        return table_pb2.ActResponse(seq=seq)


async def main(port: int) -> None:
    server = grpc.aio.server(options=SERVER_OPTIONS)
    table_pb2_grpc.add_TableServicer_to_server(BareTable(), server)
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    print(f"port {bound}", flush=True)
    await server.wait_for_termination()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=0)
    asyncio.run(main(p.parse_args().port))
