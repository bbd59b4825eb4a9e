"""Where a table is served, and the lobby's calls passed on to the process that serves it.

Several processes may drive tables from one store: a server's table workers (``serve
--workers``) and the hosts that share one PostgreSQL database. The process that drives a table
holds its seats and tokens, so a lobby call about a table (join, watch, leave, close, a seat's
player card, its hands) is answered there: a lobby that does not drive the table passes the
call on, unchanged, to that process's own lobby and hands its answer back, with the table's
address filled in (``JoinResponse.address``). Clients then talk to the table's process
directly; nothing of a table's play passes through the lobby.

A passed-on call carries the room's key and the caller's address (metadata), so that the
process that answers counts its limits per address against the caller, not the lobby. The
key is kept in the store: whoever can read the store is one of the room's processes.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

import grpc
from google.protobuf.message import Message

from cardtui.i18n import N_
from cardtui.server.base.errors import Unavailable
from cardtui.server.base.wire import PROBLEM_METADATA
from cardtui.server.store import Place, Store, token_digest
from cardtui.v1 import common_pb2, hosts_pb2, hosts_pb2_grpc, lobby_pb2, lobby_pb2_grpc

log = logging.getLogger("cardtui.routes")

ROOM_KEY = "cardtui-room-key"
PEER = "cardtui-peer"
PASS_ON_SECONDS = 10.0
"""How long a lobby waits at most for the table's process to answer a call it passed on: less when the caller
waits less (``within``)."""
LIST_SECONDS = 2.0
"""How long a lobby waits for each process's tables; one that is slower is left out of that list."""
CHANNEL_OPTIONS = [
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1_000),
]
TABLES_METHOD = "/{}/{}".format(*hosts_pb2.DESCRIPTOR.services_by_name["Hosts"].methods_by_name["Tables"]
                                .full_name.rsplit(".", 1))
"""The path of ``Hosts.Tables``, called without a deserializer: its answer is handed on as bytes."""
AWAY = N_("The table's server cannot be reached just now; try again in a moment.")


def room_key(store: Store) -> str:
    """The secret every process of the room reads from the store, made once."""
    with store.transaction():
        row = store.db.execute("SELECT value FROM meta WHERE key = 'room_key'").fetchone()
        if row is not None:
            return str(row[0])
        store.db.execute("INSERT INTO meta (key, value) VALUES ('room_key', ?) ON CONFLICT DO NOTHING",
                         (secrets.token_urlsafe(32),))
        return str(store.db.execute("SELECT value FROM meta WHERE key = 'room_key'").fetchone()[0])


def _metadata(context: Any) -> dict[str, str]:
    found = {}
    for key, value in context.invocation_metadata() or ():
        if key in (ROOM_KEY, PEER) and isinstance(value, str):
            found[key] = value
    return found


class Router:
    """This process's way to the others of the room: their channels, and the calls passed on."""

    def __init__(self, store: Store, listen_host: str, tls_root: bytes | None = None) -> None:
        self.store = store
        self.key = room_key(store)
        self.listen_host = listen_host
        self.tls_root = tls_root
        self._channels: dict[str, grpc.aio.Channel] = {}

    # -- who is calling --------------------------------------------------------------------
    def trusted(self, context: Any) -> bool:
        """Whether the call comes from another process of the room (it carries the room's key)."""
        given = _metadata(context).get(ROOM_KEY, "")
        return bool(given) and hmac.compare_digest(given, self.key)

    def peer(self, context: Any) -> str:
        """The caller's address: the client's own, for a call another process of the room passed on."""
        if self.trusted(context):
            peer = _metadata(context).get(PEER)
            if peer:
                return peer
        return str(context.peer())

    def _passing(self, context: Any | None) -> tuple[tuple[str, str], ...]:
        peer = self.peer(context) if context is not None else "internal"
        return (ROOM_KEY, self.key), (PEER, peer)

    # -- where things are --------------------------------------------------------------------
    def dialable(self, address: str) -> str:
        """An owner's address as this process dials it: ``:PORT`` is this host."""
        if not address.startswith(":"):
            return address
        host = self.listen_host.strip("[]")
        host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
        return f"[{host}]{address}" if ":" in host else f"{host}{address}"

    def channel(self, address: str) -> grpc.aio.Channel:
        target = self.dialable(address)
        channel = self._channels.get(target)
        if channel is None:
            if self.tls_root is not None:
                creds = grpc.ssl_channel_credentials(root_certificates=self.tls_root)
                channel = grpc.aio.secure_channel(target, creds, options=CHANNEL_OPTIONS)
            else:
                channel = grpc.aio.insecure_channel(target, options=CHANNEL_OPTIONS)
            self._channels[target] = channel
        return channel

    def elsewhere(self, table_id: str) -> Place | None:
        """Where a table another process drives is: None for one this process drives, one that
        has finished (its hands are in the store, for anyone to read), or no such table."""
        place = self.store.owners.place(table_id)
        if place is None or place.finished or place.owner is None or place.owner == self.store.owners.me:
            return None
        return place

    def token_place(self, token: str) -> Place | None:
        """Where the table a token opens is driven, if another process drives it."""
        table_id = self.store.tables.token_table(token_digest(token))
        return None if table_id is None else self.elsewhere(table_id)

    def locate(self, token: str) -> str | None:
        """The address of the table a token opens, as ``JoinResponse.address`` says it; None if the
        store knows no such token. A table whose process is gone, not yet taken over, is nowhere yet:
        ``Unavailable``, and the client asks again (its old address may be a new process's that does not
        drive it: a worker's replacement on the dead one's port)."""
        table_id = self.store.tables.token_table(token_digest(token))
        if table_id is None:
            return None
        place = self.store.owners.place(table_id)
        if place is None or place.owner in (None, self.store.owners.me):
            return ""
        if place.gone:
            raise Unavailable(AWAY)
        return place.address

    def _not_mine(self, address: str) -> None:
        """A call is never passed on to this process's own address: the store names a process there that is gone
        (this one registered there after it: a worker's replacement on the dead one's port), whose tables are not
        taken over yet. Passed on, the call came back here, and again, until its deadline."""
        if address and address == self.store.owners.address:
            raise Unavailable(AWAY)

    # -- calls passed on ---------------------------------------------------------------------
    async def pass_on(self, address: str, method: str, request: Message, context: Any,
                      service: Callable[[grpc.aio.Channel], Any] = lobby_pb2_grpc.LobbyStub) -> Any:
        """``method`` of the Lobby (or of ``service``), asked of the process at ``address`` (the one
        that drives the table); its answer, or its refusal as it gave it. A ``JoinResponse`` is
        given the address."""
        timeout = within(context)
        if timeout <= 0:  # the caller has stopped waiting: what it asked is not done for nobody
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded")
        self._not_mine(address)
        stub = service(self.channel(address))
        call = cast(Callable[..., Awaitable[Any]], getattr(stub, method))
        try:
            reply = await call(request, metadata=self._passing(context), timeout=timeout)
        except grpc.aio.AioRpcError as err:
            await _relay(err, context)
            raise  # not reached: _relay aborts
        if isinstance(reply, lobby_pb2.JoinResponse) and not reply.address:
            reply.address = address
        return reply

    async def pass_on_stream(self, address: str, method: str, request: Message, context: Any,
                             service: Callable[[grpc.aio.Channel], Any] = lobby_pb2_grpc.LobbyStub
                             ) -> AsyncIterator[Any]:
        self._not_mine(address)
        stub = service(self.channel(address))
        try:
            async for reply in getattr(stub, method)(request, metadata=self._passing(context)):
                yield reply
        except grpc.aio.AioRpcError as err:
            await _relay(err, context)

    async def take_over(self, address: str, table_ids: list[str]) -> list[str]:
        """Ask the process at ``address`` to drive these tables; the ids it took."""
        stub = hosts_pb2_grpc.HostsStub(self.channel(address))
        reply = await stub.TakeOver(hosts_pb2.TakeOverRequest(table_ids=table_ids), metadata=self._passing(None),
                                    timeout=PASS_ON_SECONDS * 3)
        return list(reply.taken)

    async def hand_over(self, address: str, table_ids: list[str], most: int, to: str) -> list[str]:
        """Ask the process at ``address`` to let go of at most ``most`` of these tables, between hands, handing
        them to the owner ``to``; the ids it let go (driven by nobody until ``to`` takes them over)."""
        stub = hosts_pb2_grpc.HostsStub(self.channel(address))
        reply = await stub.HandOver(hosts_pb2.HandOverRequest(table_ids=table_ids, most=most, to=to),
                                    metadata=self._passing(None), timeout=PASS_ON_SECONDS)
        return list(reply.released)

    async def tables(self, include_finished: bool) -> list[common_pb2.TableSummary]:
        """Every other process's own tables (those that answer in time): the rest of the room's lobby."""
        return list(lobby_pb2.ListTablesResponse.FromString(await self.listing(include_finished)).tables)

    async def listing(self, include_finished: bool) -> bytes:
        """``tables`` as the processes serialized them (a ``ListTablesResponse``'s bytes, theirs end to end):
        a lobby hands them on as they are, without reading them (``Room.listing``)."""
        others = [o for o in self.store.owners.all() if o.id != self.store.owners.me]
        request = lobby_pb2.ListTablesRequest(include_finished=include_finished)

        async def ask(address: str) -> bytes:
            channel = self.channel(address)
            call: grpc.aio.UnaryUnaryMultiCallable[lobby_pb2.ListTablesRequest, bytes] = channel.unary_unary(
                TABLES_METHOD, request_serializer=lobby_pb2.ListTablesRequest.SerializeToString)
            try:
                reply: bytes = await call(request, metadata=self._passing(None), timeout=LIST_SECONDS)
            except grpc.aio.AioRpcError:
                return b""  # gone, or starting: its tables are listed once it (or whoever takes them) answers
            return reply

        return b"".join(await asyncio.gather(*(ask(o.address) for o in others)))

    async def close(self) -> None:
        for channel in self._channels.values():
            await channel.close()
        self._channels.clear()


def within(context: Any) -> float:
    """How long a call passed on may take: ``PASS_ON_SECONDS``, or what is left of the caller's own deadline if
    that is sooner. A call the lobby gave longer than its caller waits is still answered after the caller has
    given up: a starved host made the tables of CreateTable calls whose callers had stopped waiting, which nobody
    held the owner token of and whose bots played on to nobody."""
    left = context.time_remaining() if context is not None else None
    return PASS_ON_SECONDS if left is None else min(PASS_ON_SECONDS, left)


async def _relay(err: grpc.aio.AioRpcError, context: Any) -> None:
    """The other process's refusal, handed back as it gave it (its status, sentence and typed
    problem); a process that did not answer is said in a sentence of ours."""
    trailing = tuple((k, v) for k, v in (err.trailing_metadata() or ()) if k == PROBLEM_METADATA)
    if trailing:
        await context.abort(err.code(), err.details() or "", trailing_metadata=trailing)
    log.info("a table's process did not answer a call passed on to it (%s: %s)", err.code().name, err.details())
    raise Unavailable(AWAY)
