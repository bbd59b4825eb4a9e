"""The gRPC servicers: thin translations between the wire and the room."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import grpc
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import DecodeError
from google.protobuf.message_factory import GetMessageClass

from cardtui import __version__
from cardtui.engine.games import GAMES
from cardtui.server.limits import RateLimiter
from cardtui.server.room import Room
from cardtui.server.table import Refused
from cardtui.server.text import clean_chat
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc

log = logging.getLogger("cardtui.service")

T = TypeVar("T")


async def refuse(context: grpc.aio.ServicerContext[Any, Any], error: Refused) -> None:
    log.info("refused (%s): %s", error.code, error)
    await context.abort(getattr(grpc.StatusCode, error.code), str(error))


async def guarded(context: grpc.aio.ServicerContext[Any, Any], call: Callable[[], T]) -> T:
    try:
        return call()
    except Refused as e:
        await refuse(context, e)
        raise AssertionError("unreachable") from None


def limit(limiter: RateLimiter, context: Any, kind: str, sentence: str) -> None:
    if not limiter.allow(context.peer(), kind):
        raise Refused("RESOURCE_EXHAUSTED", sentence)


class LobbyService(lobby_pb2_grpc.LobbyServicer):
    def __init__(self, room: Room, limiter: RateLimiter) -> None:
        self.room = room
        self.limiter = limiter

    async def GetInfo(self, request: lobby_pb2.GetInfoRequest, context: Any) -> lobby_pb2.ServerInfo:
        games = []
        for name, entry in GAMES.items():
            g = entry.game
            games.append(
                lobby_pb2.GameInfo(
                    name=name,
                    title=g.title,
                    min_players=g.min_players,
                    max_players=g.max_players,
                    options_json=json.dumps(g.options({}).as_dict()),
                )
            )
        return lobby_pb2.ServerInfo(version=__version__, games=games, tables=len(self.room.tables))

    async def ListTables(self, request: lobby_pb2.ListTablesRequest, context: Any) -> lobby_pb2.ListTablesResponse:
        return lobby_pb2.ListTablesResponse(tables=[t.summary() for t in self.room.tables.values()])

    async def CreateTable(self, request: lobby_pb2.CreateTableRequest, context: Any) -> common_pb2.TableSummary:
        def create() -> Any:
            limit(self.limiter, context, "table", "This connection has opened tables too fast; wait a little.")
            return self.room.create(
                request.game,
                request.name,
                request.seats,
                request.bots,
                request.options_json,
                request.turn_seconds,
                request.bot_delay_ms if request.HasField("bot_delay_ms") else -1,
                request.password,
                request.private,
                request.away_after,
            )

        table = await guarded(context, create)
        return table.summary()

    async def JoinTable(self, request: lobby_pb2.JoinTableRequest, context: Any) -> lobby_pb2.JoinResponse:
        seat = request.seat if request.HasField("seat") else -1
        token, grant = await guarded(
            context, lambda: self.room.join(request.table_id, request.name, seat, request.password)
        )
        return lobby_pb2.JoinResponse(token=token, seat=grant.seat if grant.seat is not None else -1,
                                      table=grant.table.summary())

    async def Spectate(self, request: lobby_pb2.SpectateRequest, context: Any) -> lobby_pb2.JoinResponse:
        token, grant = await guarded(
            context, lambda: self.room.spectate(request.table_id, request.name, request.password)
        )
        return lobby_pb2.JoinResponse(token=token, seat=-1, table=grant.table.summary())

    async def Leave(self, request: lobby_pb2.LeaveRequest, context: Any) -> lobby_pb2.LeaveResponse:
        await guarded(context, lambda: self.room.leave(request.token))
        return lobby_pb2.LeaveResponse()


class TableService(table_pb2_grpc.TableServicer):
    def __init__(self, room: Room, limiter: RateLimiter) -> None:
        self.room = room
        self.limiter = limiter

    async def Subscribe(
        self, request: table_pb2.SubscribeRequest, context: Any
    ) -> AsyncIterator[table_pb2.TableMessage]:
        grant = await guarded(context, lambda: self.room.grant(request.token))
        table = grant.table
        if grant.seat is not None:
            table.back(grant.seat)
        sub, opening = table.subscribe(grant.seat, request.after_seq)
        try:
            for msg in opening:
                yield msg
            while True:
                msg = await sub.queue.get()
                if msg is None:  # dropped for falling behind
                    yield table_pb2.TableMessage(
                        seq=table.seq,
                        closing=table_pb2.Closing(reason="This stream fell behind; resubscribe.", resubscribe=True),
                    )
                    return
                yield msg
                if msg.HasField("closing"):
                    return
        finally:
            table.subscribers.discard(sub)

    async def Act(self, request: table_pb2.ActRequest, context: Any) -> table_pb2.ActResponse:
        def act() -> int:
            limit(self.limiter, context, "act", "Too many actions from this connection; slow down.")
            grant = self.room.seat_grant(request.token)
            if not request.HasField("action"):
                raise Refused("INVALID_ARGUMENT", "An Act request needs an action.")
            if request.seen_seq and request.seen_seq > grant.table.seq:
                raise Refused("INVALID_ARGUMENT", "That sequence number is in the future.")
            assert grant.seat is not None
            return grant.table.act(grant.seat, request.action)

        return table_pb2.ActResponse(seq=await guarded(context, act))

    async def Chat(self, request: table_pb2.ChatRequest, context: Any) -> table_pb2.ChatResponse:
        def chat() -> None:
            limit(self.limiter, context, "chat", "Too many chat lines from this connection; slow down.")
            grant = self.room.grant(request.token)
            try:
                text = clean_chat(request.text)
            except ValueError as e:
                raise Refused("INVALID_ARGUMENT", str(e)) from None
            grant.table.chat(grant.seat, grant.name, text)

        await guarded(context, chat)
        return table_pb2.ChatResponse()


def register(server: grpc.aio.Server, servicer: object, service: ServiceDescriptor) -> None:
    """Add a servicer whose requests are decoded here, so undecodable bytes get INVALID_ARGUMENT.

    The generated ``add_*Servicer_to_server`` decode in grpc's own code, which answers a
    broken request with a bare UNKNOWN; decoding inside the handler lets us say what is wrong.
    """
    handlers = {}
    for method in service.methods:
        request_type = GetMessageClass(method.input_type)
        reply_type = GetMessageClass(method.output_type)
        behaviour = getattr(servicer, method.name)
        if method.server_streaming:
            handlers[method.name] = grpc.unary_stream_rpc_method_handler(
                _streaming(behaviour, request_type), response_serializer=reply_type.SerializeToString
            )
        else:
            handlers[method.name] = grpc.unary_unary_rpc_method_handler(
                _unary(behaviour, request_type), response_serializer=reply_type.SerializeToString
            )
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, handlers),))


async def _decode(raw: bytes, request_type: Any, context: Any) -> Any:
    try:
        return request_type.FromString(raw)
    except DecodeError:
        await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"That is not a {request_type.__name__} message.")


def _unary(behaviour: Callable[..., Any], request_type: Any) -> Callable[..., Any]:
    async def handle(raw: bytes, context: Any) -> Any:
        return await behaviour(await _decode(raw, request_type, context), context)

    return handle


def _streaming(behaviour: Callable[..., Any], request_type: Any) -> Callable[..., Any]:
    async def handle(raw: bytes, context: Any) -> AsyncIterator[Any]:
        async for reply in behaviour(await _decode(raw, request_type, context), context):
            yield reply

    return handle
