"""The client's side of the wire: one channel, the stubs, and a table stream that resumes.

Channels are made inside the running loop (grpc.aio binds them to it).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import grpc

from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, replay_pb2, table_pb2, table_pb2_grpc

DEFAULT_PORT = 50051
CHANNEL_OPTIONS = [
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
]
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED, grpc.StatusCode.UNKNOWN,
             grpc.StatusCode.INTERNAL, grpc.StatusCode.DEADLINE_EXCEEDED}


def address(target: str) -> str:
    """``HOST``, ``HOST:PORT`` or ``:PORT`` as a dialable address (default port 50051)."""
    target = target.strip()
    if target.startswith("["):  # [::1] or [::1]:50051
        return target if "]:" in target else f"{target}:{DEFAULT_PORT}"
    if target.count(":") > 1:  # a bare IPv6 address
        return f"[{target}]:{DEFAULT_PORT}"
    host, _, port = target.partition(":")
    return f"{host or '127.0.0.1'}:{port or DEFAULT_PORT}"


def error_text(err: BaseException) -> str:
    """A refusal as the sentence the server sent, or a plain word on what went wrong."""
    if isinstance(err, grpc.aio.AioRpcError):
        if err.code() == grpc.StatusCode.UNAVAILABLE:
            return "The server cannot be reached."
        return err.details() or err.code().name
    return str(err)


@dataclass
class Connection:
    target: str
    channel: grpc.aio.Channel
    lobby: lobby_pb2_grpc.LobbyAsyncStub
    table: table_pb2_grpc.TableAsyncStub
    owned: dict[str, str] = field(default_factory=dict)
    """Owner tokens of the tables this client created: they close them."""

    @classmethod
    def open(cls, target: str, tls_ca: bytes | None = None) -> Connection:
        """A channel to ``target``; with ``tls_ca`` (PEM) it is TLS and trusts that certificate only."""
        addr = address(target)
        if tls_ca is not None:
            creds = grpc.ssl_channel_credentials(root_certificates=tls_ca)
            channel = grpc.aio.secure_channel(addr, creds, options=CHANNEL_OPTIONS)
        else:
            channel = grpc.aio.insecure_channel(addr, options=CHANNEL_OPTIONS)
        return cls(addr, channel, lobby_pb2_grpc.LobbyStub(channel), table_pb2_grpc.TableStub(channel))

    async def close(self) -> None:
        await self.channel.close()

    async def info(self) -> lobby_pb2.ServerInfo:
        return await self.lobby.GetInfo(lobby_pb2.GetInfoRequest(), timeout=5)

    async def tables(self, include_finished: bool = False) -> list[common_pb2.TableSummary]:
        request = lobby_pb2.ListTablesRequest(include_finished=include_finished)
        return list((await self.lobby.ListTables(request, timeout=5)).tables)

    async def create(self, request: lobby_pb2.CreateTableRequest) -> common_pb2.TableSummary:
        created = await self.lobby.CreateTable(request, timeout=5)
        self.owned[created.table.id] = created.owner_token
        return created.table

    async def close_table(self, table_id: str) -> None:
        request = lobby_pb2.CloseTableRequest(table_id=table_id, owner_token=self.owned.get(table_id, ""))
        await self.lobby.CloseTable(request, timeout=5)

    async def join(self, table_id: str, name: str, password: str = "") -> lobby_pb2.JoinResponse:
        return await self.lobby.JoinTable(
            lobby_pb2.JoinTableRequest(table_id=table_id, name=name, password=password), timeout=5
        )

    async def spectate(self, table_id: str, name: str, password: str = "") -> lobby_pb2.JoinResponse:
        return await self.lobby.Spectate(
            lobby_pb2.SpectateRequest(table_id=table_id, name=name, password=password), timeout=5
        )

    async def leave(self, token: str) -> None:
        await self.lobby.Leave(lobby_pb2.LeaveRequest(token=token), timeout=5)

    async def act(self, token: str, action: common_pb2.Action, seen_seq: int = 0) -> int:
        request = table_pb2.ActRequest(token=token, action=action, seen_seq=seen_seq)
        return (await self.table.Act(request, timeout=5)).seq

    async def list_hands(self, table_id: str, token: str = "", password: str = "") -> replay_pb2.ListHandsResponse:
        request = replay_pb2.ListHandsRequest(table_id=table_id, token=token, password=password)
        return await self.lobby.ListHands(request, timeout=10)

    async def replay(
        self, table_id: str, hand: int, token: str = "", password: str = ""
    ) -> list[replay_pb2.ReplayStep]:
        """A finished hand's steps, every card face up (refused for a hand in play)."""
        request = replay_pb2.ReplayRequest(table_id=table_id, hand=hand, token=token, password=password)
        return [step async for step in self.lobby.Replay(request, timeout=30)]

    async def chat(self, token: str, text: str) -> None:
        await self.table.Chat(table_pb2.ChatRequest(token=token, text=text), timeout=5)

    async def follow(
        self, token: str, on_retry: Callable[[float], None] | None = None, max_backoff: float = 5.0
    ) -> AsyncIterator[table_pb2.TableMessage]:
        """The table's messages for ever, resubscribing after drops from the last seq seen."""
        last = 0
        backoff = 0.2
        while True:
            try:
                stream = self.table.Subscribe(table_pb2.SubscribeRequest(token=token, after_seq=last))
                async for msg in stream:
                    backoff = 0.2
                    if msg.HasField("closing"):
                        yield msg
                        if not msg.closing.resubscribe:
                            return
                        break
                    events = msg.update.events
                    fresh = [e for e in events if e.replay or e.seq > last]
                    if len(fresh) != len(events):  # already seen: never show an event twice
                        del events[:]
                        events.extend(fresh)
                    last = max(last, msg.seq)
                    yield msg
            except grpc.aio.AioRpcError as err:
                if err.code() not in RETRYABLE:
                    raise
            if on_retry is not None:
                on_retry(backoff)
            await asyncio.sleep(backoff)
            backoff = min(max_backoff, backoff * 2)

