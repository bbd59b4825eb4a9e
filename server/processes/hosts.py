"""What the processes of one card room ask of each other (hosts.proto): never a client's call."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from cardtui.server.base.errors import PermissionDenied
from cardtui.server.lobby.room import Room
from cardtui.server.lobby.routes import Router
from cardtui.v1 import hosts_pb2, hosts_pb2_grpc, lobby_pb2


class HostsService(hosts_pb2_grpc.HostsServicer):
    """Answers only calls that carry the room's key (``routes.Router.trusted``)."""

    def __init__(self, room: Room, router: Router) -> None:
        self.room = room
        self.router = router

    def _check(self, context: Any) -> None:
        if not self.router.trusted(context):
            raise PermissionDenied("Only the card room's own processes may ask this.")

    async def TakeOver(self, request: hosts_pb2.TakeOverRequest, context: Any) -> hosts_pb2.TakeOverResponse:
        self._check(context)
        store = self.room.store
        places = [p for p in (store.owners.place(table_id) for table_id in request.table_ids)
                  if p is not None and (p.owner != store.owners.me or p.table_id not in self.room.tables)]
        return hosts_pb2.TakeOverResponse(taken=self.room.take_over(places))

    async def HandOver(self, request: hosts_pb2.HandOverRequest, context: Any) -> hosts_pb2.HandOverResponse:
        self._check(context)
        released = await self.room.hand_over_soon(list(request.table_ids), request.most, request.to)
        return hosts_pb2.HandOverResponse(released=released)

    async def Tables(  # type: ignore[override]  # answers a ListTablesResponse already serialized
        self, request: lobby_pb2.ListTablesRequest, context: Any
    ) -> bytes:
        self._check(context)
        return self.room.listing(request.include_finished)

    async def WatchTables(  # type: ignore[override]  # yields TablesUpdate messages already serialized
        self, request: lobby_pb2.WatchTablesRequest, context: Any
    ) -> AsyncIterator[bytes]:
        self._check(context)
        async for update in self.room.listings.watch(request.include_finished):
            yield update
