"""The baseline: a gRPC server that only fans each Act out to its table's subscribers.

Same wire contract as the real server's Table service; no engine, no store. A token is ``TABLE/SEAT``;
every Act becomes one numbered event for everyone at the table. Its lobby answers the two unary calls a
client makes most on a kept connection (``GetInfo``, ``Locate``) with constants, for ``bench.front``.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

import grpc

from cardtui.server.app import SERVER_OPTIONS
from cardtui.v1 import lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc


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


class BareLobby(lobby_pb2_grpc.LobbyServicer):
    """Constant answers: what gRPC itself keeps per call, with nothing of ours behind it."""

    async def GetInfo(self, request: lobby_pb2.GetInfoRequest, context: Any) -> lobby_pb2.ServerInfo:
        return lobby_pb2.ServerInfo(version="bare")

    async def Locate(self, request: lobby_pb2.LocateRequest, context: Any) -> lobby_pb2.LocateResponse:
        await context.abort(grpc.StatusCode.PERMISSION_DENIED, "That token does not open any seat or table here.")
        raise AssertionError("abort raises")


async def main(port: int) -> None:
    server = grpc.aio.server(options=SERVER_OPTIONS)
    table_pb2_grpc.add_TableServicer_to_server(BareTable(), server)
    lobby_pb2_grpc.add_LobbyServicer_to_server(BareLobby(), server)
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    print(f"port {bound}", flush=True)
    await server.wait_for_termination()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=0)
    asyncio.run(main(p.parse_args().port))
