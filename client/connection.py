"""The client's side of the wire: the lobby's channel, the stubs, and a table stream that resumes.

A table may be served elsewhere than the lobby (a server's table worker, another host of the
same card room): joining or watching says where (``JoinResponse.address``), and the table's
calls go there, on a channel of their own. Every call of the ``Table`` service goes one way,
``Connection._at_table``: it finds the stub of the process that serves the token's table now, and
when that process stops answering, or says the table moved, asks the lobby where the table is now
(``Locate``) and follows it. There is no other stub a feature could reach a table by.

Channels are made inside the running loop (grpc.aio binds them to it).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import secrets
import socket
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

import grpc

from cardtui import __version__
from cardtui.client import versions
from cardtui.client.sealed_seat import SealedSeat
from cardtui.client.stay import Stay
from cardtui.fair import Chain
from cardtui.i18n import _, render
from cardtui.identity import Identity
from cardtui.installing import Offer, best
from cardtui.v1 import (
    analysis_pb2,
    common_pb2,
    lobby_pb2,
    lobby_pb2_grpc,
    players_pb2,
    replay_pb2,
    sealed_pb2,
    table_pb2,
    table_pb2_grpc,
)

if TYPE_CHECKING:
    from cardtui.client.fairness import FairDeals

Reply = TypeVar("Reply")
DEFAULT_PORT = 50051
BACKOFF_MS = 1_000
"""How long the channel and the table stream wait between tries while the server is gone, at most:
a server that comes back is found within about that long (grpc's own default grows to two minutes)."""
CHANNEL_OPTIONS = [
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.initial_reconnect_backoff_ms", 250),
    ("grpc.min_reconnect_backoff_ms", 250),
    ("grpc.max_reconnect_backoff_ms", BACKOFF_MS),
]
MOVES = 3
"""How many times a table call follows its table to another process before it gives up (a
failover moves a table once; a second move in one call is a host going down as it is retried)."""
ACT_PATIENCE = 60.0
"""How long a move answered ``UNAVAILABLE`` (its table's process away, or its store: the table is let go and comes
back from its journal by itself) is sent again before the client gives up on it. The move was not made; sent again
once the table is back, with the same ``seen_seq``, it is made if nothing the seat can see moved meanwhile, and
refused (``FAILED_PRECONDITION``) if something did: so a store's outage of seconds never leaves a seat's move
unmade and its table waiting out the whole turn (docs/client.md §8)."""
RETRY_ACT_SECONDS = 0.5
SEAL_RETRIES = (0.25, 0.5, 1.0, 2.0, 0.0)
"""Waits before a sealed step is sent again when the table asks this connection to slow down (its card's keys,
say, right after the person's own move): the last try's refusal is kept (``SealedSeat.refused``)."""
SEAL_AGAIN = {grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.DEADLINE_EXCEEDED}
"""A sealed step is sent again when the table asks to slow down, or when its answer did not come in time (a busy
host): a step sent again that was taken already is answered as taken (``Table.seal``), so asking again is safe."""
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED, grpc.StatusCode.UNKNOWN,
             grpc.StatusCode.INTERNAL, grpc.StatusCode.DEADLINE_EXCEEDED}


def replay_follows(msg: table_pb2.TableMessage, last: int) -> bool:
    """Whether ``msg`` is a resumed stream's snapshot that the events missed since ``last`` follow (the
    server replays them when it still holds them): until they come, the stream has not seen up to the
    snapshot's number. Counted as seen at the snapshot, a stream dropped between the two resumed after
    them, and the log never said them."""
    return (msg.HasField("snapshot") and 0 < last < msg.seq
            and msg.snapshot.first_seq <= last + 1)


class Unoffered(grpc.aio.UnaryUnaryClientInterceptor):
    """A call the server does not have (``UNIMPLEMENTED``: an older cardtui, or a program that is not one)
    ends with a sentence that says so and how to get the server's own client (``client.versions``), where
    gRPC says "Method not found!". The code stays ``UNIMPLEMENTED``; every refusal's reader shows the
    sentence as it shows any other (``problem_text``)."""

    def __init__(self, sentence: Callable[[], str]) -> None:
        self.sentence = sentence

    async def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        call = await continuation(details, request)
        try:
            await call
        except grpc.aio.AioRpcError as err:
            if err.code() != grpc.StatusCode.UNIMPLEMENTED:
                raise
            raise grpc.aio.AioRpcError(err.code(), err.initial_metadata(), err.trailing_metadata(),
                                       details=self.sentence(), debug_error_string=err.debug_error_string()) from None
        return call


def _channel(target: str, tls_ca: bytes | None, unoffered: Unoffered | None = None) -> grpc.aio.Channel:
    interceptors = [unoffered] if unoffered is not None else None
    if tls_ca is not None:
        return grpc.aio.secure_channel(target, grpc.ssl_channel_credentials(root_certificates=tls_ca),
                                       options=CHANNEL_OPTIONS, interceptors=interceptors)
    return grpc.aio.insecure_channel(target, options=CHANNEL_OPTIONS, interceptors=interceptors)


class BadAddress(ValueError):
    """An address that cannot be dialled, with the sentence saying why."""


def _port(text: str, target: str) -> str:
    if not text:
        return str(DEFAULT_PORT)
    if not text.isdigit():
        raise BadAddress(_("{target}: {port} is not a port; a port is a number from 1 to 65535.").format(
            target=repr(target), port=repr(text)))
    if not 1 <= int(text) <= 65535:
        raise BadAddress(_("{target}: there is no port {port}; ports go from 1 to 65535.").format(
            target=repr(target), port=int(text)))
    return str(int(text))


def address(target: str) -> str:
    """``HOST``, ``HOST:PORT`` or ``:PORT`` (this machine) as a dialable address (default port 50051).

    Raises ``BadAddress`` with a sentence for what no server can be at: no host and no port,
    a port that is not a number from 1 to 65535, a host with spaces in it.
    """
    target = target.strip()
    if target in ("", ":"):
        raise BadAddress(_("No server address was given: type HOST or HOST:PORT (port 50051 if left out)."))
    if target.startswith("["):  # [::1] or [::1]:50051
        host, close, rest = target[1:].partition("]")
        if not close or not host or (rest and not rest.startswith(":")):
            raise BadAddress(_("{target} is not an address: an IPv6 one is written [::1] or [::1]:50051.").format(
                target=repr(target)))
        return f"[{host}]:{_port(rest[1:], target)}"
    if target.count(":") > 1:  # a bare IPv6 address
        return f"[{target}]:{DEFAULT_PORT}"
    host, colon, port = target.partition(":")
    if colon and not port:
        raise BadAddress(_("{target} has no port after the colon: give one, or leave the colon out for 50051.").format(
            target=repr(target)))
    if any(ch.isspace() or ch in "/@?#" for ch in host):
        raise BadAddress(_("{host} is not a host name or an IP address.").format(host=repr(host)))
    return f"{host or '127.0.0.1'}:{_port(port, target)}"


class Trouble(StrEnum):
    """What happened when a call did not get its answer, as the sentences for it tell it apart."""

    REFUSED = "refused"
    """The host is there, and nothing listens on the port (the connection was refused)."""
    NO_HOST = "no host"
    """The name resolves to no address."""
    UNREACHABLE = "unreachable"
    """No route to the host or its network, from this machine."""
    FORBIDDEN = "forbidden"
    """This machine's own rules refuse the connection (a route that prohibits it, a firewall that rejects)."""
    SILENT = "silent"
    """Nothing comes back at all: the host is down or off this network, or a firewall drops the connection."""
    STARTING = "starting"
    """Something accepts connections on the port but does not answer as a card server (yet): a server still
    starting, which binds its port before it serves, or another program."""
    SLOW = "slow"
    """The server is connected and answers, but not this call in time: it is busy."""
    TLS = "tls"
    BAD_PORT = "bad port"
    OTHER = "other"


PROBE_SECONDS = 2.0
"""How long a plain TCP connection to the server's port is given, to tell a host that never answers from one
where something accepts connections but gRPC gets no answer."""
PATIENCE = 5.0
"""How long a call waits for its answer (a busy server answers most within a second)."""
PATIENT_AGAIN = 3.0
"""A call that only asks (the tables, the server's info) and timed out is asked once more, this many times as
patiently, before the person is told the server is slow."""


def trouble_of(err: grpc.aio.AioRpcError, ready: bool = False) -> Trouble:
    """What a failed call's status and details say happened; ``ready``: the channel was connected (so a deadline
    is a slow answer, not a connection that never came)."""
    if err.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
        return Trouble.SLOW if ready else Trouble.SILENT
    low = (err.details() or "").lower()
    if "settings frame" in low:  # connected, and the server never spoke HTTP/2: not serving (yet)
        return Trouble.STARTING
    if "connection refused" in low:
        return Trouble.REFUSED
    if "tcp handshake" in low or "connect() timed out" in low:  # the TCP connection itself never came
        return Trouble.SILENT
    if "tls" in low or "ssl" in low or "handshake" in low or "certificate" in low:
        return Trouble.TLS
    if "parse port" in low:
        return Trouble.BAD_PORT
    if "resolv" in low or "not found" in low or "lookup" in low or "name or service" in low:
        return Trouble.NO_HOST
    if "unreachable" in low or "no route" in low:
        return Trouble.UNREACHABLE
    if "permission denied" in low or "invalid argument" in low:  # a prohibit or blackhole route, a rejecting rule
        return Trouble.FORBIDDEN
    if "timed out" in low or "timeout" in low or "deadline" in low:
        return Trouble.SILENT
    return Trouble.OTHER


async def probe(target: str, seconds: float = PROBE_SECONDS) -> Trouble | None:
    """A plain TCP connection to ``target`` (``HOST:PORT``), closed at once: None if it connects (something
    listens there), else what stopped it."""
    host, _colon, port = target.rpartition(":")
    try:
        _reader, writer = await asyncio.wait_for(asyncio.open_connection(host.strip("[]"), int(port)), seconds)
    except TimeoutError:
        return Trouble.SILENT
    except ConnectionRefusedError:
        return Trouble.REFUSED
    except OSError as err:
        if err.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
            return Trouble.UNREACHABLE
        if err.errno in (errno.EACCES, errno.EPERM, errno.EINVAL):
            return Trouble.FORBIDDEN
        if isinstance(err, socket.gaierror):
            return Trouble.NO_HOST
        return Trouble.OTHER
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return None


async def diagnosed(conn: Connection, err: BaseException) -> tuple[Trouble, str]:
    """What happened when the server at ``conn`` did not answer, and its sentence: a deadline on a connected
    channel is a slow server; on one that never connected, a plain TCP connection tells a host that never answers
    from a port where something accepts connections but does not answer (yet) as a card server."""
    if not isinstance(err, grpc.aio.AioRpcError):
        return Trouble.OTHER, unreachable(err, conn.target)
    trouble = trouble_of(err, conn.ready())
    if trouble is not Trouble.SILENT:
        return trouble, unreachable(err, conn.target) if trouble is not Trouble.SLOW else said(trouble, conn.target)
    found = await probe(conn.target, conn.probe_seconds)
    trouble = Trouble.STARTING if found is None else found
    return trouble, said(trouble, conn.target)


WAIT = frozenset({Trouble.STARTING, Trouble.SLOW})
"""What a person waits out: the server is there, and answers in a while."""


def unreachable(err: BaseException, target: str = "") -> str:
    """Why a server cannot be reached, in words: refused, no such host, TLS, no answer, … (``diagnosed`` tells a
    deadline's causes apart, where it can wait for a connection of its own)."""
    if isinstance(err, BadAddress):
        return str(err)
    if not isinstance(err, grpc.aio.AioRpcError):
        return _("Something went wrong talking to {where}: {error}").format(where=target or _("the server"), error=err)
    trouble = trouble_of(err)
    if trouble is Trouble.OTHER:
        if err.code() == grpc.StatusCode.UNAVAILABLE and problem_of(err) is None:
            return _("{where} cannot be reached ({why}).").format(where=target or _("the server"),
                                                                  why=err.details() or _("no reason given"))
        return problem_text(err) or err.code().name
    return said(trouble, target)


def said(trouble: Trouble, target: str = "") -> str:
    """The sentence for what happened, naming the address where there is one."""
    where = target or _("the server")
    host = where.rpartition(":")[0].strip("[]") or where
    if trouble is Trouble.REFUSED:
        return _("Nothing is listening at {where}: the connection was refused. Is the server running, on this "
                 "port?").format(where=where)
    if trouble is Trouble.NO_HOST:
        return _("There is no such host: {host} cannot be found. Check the spelling of the address.").format(host=host)
    if trouble is Trouble.UNREACHABLE:
        return _("The network cannot reach {host}: there is no route to it from this machine. Is this machine on "
                 "the same network?").format(host=host)
    if trouble is Trouble.FORBIDDEN:
        return _("This machine's network rules refuse connections to {host} (a firewall or a route that forbids "
                 "it).").format(host=host)
    if trouble is Trouble.SILENT:
        return _("{host} does not answer at all: the machine may be off or on another network, or a firewall drops "
                 "the connection.").format(host=host)
    if trouble is Trouble.STARTING:
        return _("Something accepts connections at {where} but does not answer as a card server yet: the server "
                 "may still be starting.").format(where=where)
    if trouble is Trouble.SLOW:
        return _("{where} is connected but slow to answer: the server is busy.").format(where=where)
    if trouble is Trouble.TLS:
        return _("The secure connection to {where} failed (TLS): the server may not use TLS, or its certificate is "
                 "not the one given with --tls-ca.").format(where=where)
    if trouble is Trouble.BAD_PORT:
        return _("{where}: that is not a port; a port is a number from 1 to 65535.").format(where=where)
    return _("{where} cannot be reached.").format(where=where)


PROBLEM_METADATA = "cardtui-problem-bin"
"""Where a refusal carries its ``Problem`` (the sentence as a message id and its arguments)."""


def problem_of(err: grpc.aio.AioRpcError) -> common_pb2.Problem | None:
    """The refusal's sentence as the server typed it, if it sent one."""
    for key, value in err.trailing_metadata() or ():
        if key == PROBLEM_METADATA and isinstance(value, bytes):
            try:
                return common_pb2.Problem.FromString(value)
            except Exception:
                return None
    return None


def problem_text(err: grpc.aio.AioRpcError) -> str:
    """The refusal in the reader's language: the typed ``Problem`` looked up in the catalog (the
    English sentence if it has no translation), else the details as the server wrote them."""
    problem = problem_of(err)
    if problem is not None and problem.id:
        return render(problem.id, dict(problem.args))
    return err.details() or ""


def closing_text(closing: table_pb2.Closing) -> str:
    """Why a table's stream closed, in the reader's language."""
    if closing.HasField("problem") and closing.problem.id:
        return render(closing.problem.id, dict(closing.problem.args))
    return _(closing.reason)


def error_text(err: BaseException) -> str:
    """A refusal as the sentence the server sent (in the reader's language), or what happened to the call in
    words: a deadline is a busy server (what was asked may still be done), a connection refused or a host out of
    reach is said as such."""
    if isinstance(err, grpc.aio.AioRpcError):
        if problem_of(err) is not None:
            return problem_text(err)
        if err.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
            return _("The server is busy and did not answer in time. Wait a moment, then look again before you "
                     "ask again: what you asked may still be done.")
        if err.code() == grpc.StatusCode.UNAVAILABLE:
            trouble = trouble_of(err)
            if trouble is Trouble.REFUSED:
                return _("The server refused the connection: it is not running now. The client tries again "
                         "by itself.")
            if trouble in (Trouble.UNREACHABLE, Trouble.FORBIDDEN, Trouble.SILENT, Trouble.NO_HOST):
                return _("The server's host is out of reach from here just now: the network, or the host, is "
                         "down.")
            return problem_text(err) or _("The server cannot be reached just now.")
        return problem_text(err) or err.code().name
    return str(err)


def slow(err: BaseException) -> bool:
    """The call timed out: the server may still do what it was asked."""
    return isinstance(err, grpc.aio.AioRpcError) and err.code() == grpc.StatusCode.DEADLINE_EXCEEDED


def refused(err: BaseException) -> bool:
    """The server answered the call and refused it (a sentence of its own), as opposed to a call that met no
    answer (a deadline, a server out of reach): only a refusal is "not allowed"."""
    if not isinstance(err, grpc.aio.AioRpcError):
        return False
    return problem_of(err) is not None or err.code() not in (grpc.StatusCode.DEADLINE_EXCEEDED,
                                                              grpc.StatusCode.UNAVAILABLE)


@dataclass
class Connection:
    target: str
    channel: grpc.aio.Channel
    lobby: lobby_pb2_grpc.LobbyAsyncStub
    owned: dict[str, str] = field(default_factory=dict)
    """Owner tokens of the tables this client created: they close them."""
    passwords: dict[str, str] = field(default_factory=dict)
    """Passwords this client typed (creating a table or at a prompt) that a table took: not asked again."""
    cuts: set[asyncio.Task[None]] = field(default_factory=set, repr=False)
    """Seeds on their way to a table (fair deals), and sealed steps, held until they are answered."""
    seals: dict[str, asyncio.Task[None]] = field(default_factory=dict, repr=False)
    on_host: bool = False
    """This client runs on the host's machine (a browser guest's): it says so when it sits (a sealed table refuses
    it, since the host could read its cards)."""
    sealed_seats: dict[str, SealedSeat] = field(default_factory=dict, repr=False)
    """Each seat token's part of its sealed table (``follow``'s ``sealed``): its cards move with their keys."""
    """Each seat token's last sealed steps on their way: the next wait for them, so steps go in order."""
    identity: Identity | None = None
    """The player's key: with it the name is proved (and remembered); without, a guest."""
    session: str = ""
    """What the last proof earned, for the name ``proved``."""
    proved: str = ""
    tls_ca: bytes | None = None
    routes: dict[str, str] = field(default_factory=dict)
    """Where each token's table is served, as the lobby said it ("": the lobby's own server)."""
    elsewhere: dict[str, grpc.aio.Channel] = field(default_factory=dict, repr=False)
    """The channels to tables served elsewhere than the lobby, by address."""
    stay: Stay | None = field(default=None, repr=False)
    """What this client remembers of the links it gave this host (``client.stay``), shared by every table it
    follows here: made on first use, keyed by the address dialled."""
    joining: dict[tuple[str, str], tuple[str, Chain]] = field(default_factory=dict, repr=False)
    """A join whose answer never came (a deadline passed, the server busy), by table and name: the seat token it
    made and the chain it pledged. The next join to that table under that name sends them again, so the seat the
    first one took is the one given (``JoinTableRequest.token``), not a second seat or none."""
    chains: dict[str, Chain] = field(default_factory=dict, repr=False)
    """Each seat token's chain (``cardtui-deal/2``): pledged when sitting down, its links are the seeds this
    client sends for that seat's deals."""
    _tables: dict[str, table_pb2_grpc.TableAsyncStub] = field(default_factory=dict, repr=False)
    """The ``Table`` stub of each address a table is served at (the lobby's own among them): reached
    only through ``_at_table`` and ``follow``."""
    server: lobby_pb2.ServerInfo | None = None
    """What the server said of itself when last asked (``info``): its version, its own client's URLs."""
    unoffered: Unoffered | None = field(default=None, repr=False)
    """Every channel's words for a call its server does not have (``client.versions``)."""
    patience: float = field(default_factory=lambda: PATIENCE)
    """How long a call waits for its answer (read when the connection is made: the tests make it shorter)."""
    probe_seconds: float = field(default_factory=lambda: PROBE_SECONDS)

    @classmethod
    def open(cls, target: str, tls_ca: bytes | None = None) -> Connection:
        """A channel to ``target``; with ``tls_ca`` (PEM) it is TLS and trusts that certificate only."""
        addr = address(target)
        unoffered = Unoffered(lambda: "")
        channel = _channel(addr, tls_ca, unoffered)
        conn = cls(addr, channel, lobby_pb2_grpc.LobbyStub(channel), tls_ca=tls_ca, unoffered=unoffered)
        unoffered.sentence = lambda: versions.missing(conn.server.version if conn.server else "", conn.offer())
        return conn

    def offer(self) -> Offer | None:
        """The server's own client as its page offers it, at the host this client dialled if it can; None
        if it offers none (no page), or has not said (not asked yet, or older than the offer)."""
        return best(list(self.server.client_wheels), self.target) if self.server is not None else None

    def ready(self) -> bool:
        """The channel to the lobby is connected now (a call that timed out met a busy server, not no server)."""
        return self.channel.get_state(try_to_connect=False) == grpc.ChannelConnectivity.READY

    def unreached(self, err: BaseException) -> str:
        """Why a call to this server failed, in words, without waiting: a deadline on a connected channel is a
        busy server, else what the status says (``diagnosed`` looks further, where it can wait)."""
        if isinstance(err, grpc.aio.AioRpcError) and err.code() == grpc.StatusCode.DEADLINE_EXCEEDED and self.ready():
            return said(Trouble.SLOW, self.target)
        return unreachable(err, self.target)

    async def asking(self, call: Callable[[float], Awaitable[Reply]]) -> Reply:
        """A call that only asks (it changes nothing), given ``patience``; if the answer is late, asked once more,
        more patiently: a busy server answers it then, and the person is not told of a server that is there."""
        try:
            return await call(self.patience)
        except grpc.aio.AioRpcError as err:
            if err.code() != grpc.StatusCode.DEADLINE_EXCEEDED or not self.ready():
                raise
        return await call(self.patience * PATIENT_AGAIN)

    async def close(self) -> None:
        for channel in self.elsewhere.values():
            await channel.close()
        self.elsewhere.clear()
        self._tables.clear()
        await self.channel.close()

    # -- where a table is served ------------------------------------------------------------
    def dialable(self, where: str) -> str:
        """A table's address as the lobby says it, as this client dials it: "" is the lobby's own
        server, ":PORT" the lobby's host on another port."""
        if not where:
            return self.target
        if where.startswith(":"):
            host = self.target.rpartition(":")[0]
            return f"{host}{where}"
        return address(where)

    def _table_stub(self, token: str) -> table_pb2_grpc.TableAsyncStub:
        """The stub of the process that serves the table ``token`` opens, as last heard."""
        target = self.dialable(self.routes.get(token, ""))
        stub = self._tables.get(target)
        if stub is None:
            if target == self.target:
                channel = self.channel
            else:
                channel = self.elsewhere[target] = _channel(target, self.tls_ca, self.unoffered)
            stub = self._tables[target] = table_pb2_grpc.TableStub(channel)
        return stub

    async def _at_table(self, token: str, call: Callable[[table_pb2_grpc.TableAsyncStub], Awaitable[Reply]]) -> Reply:
        """The one way a call reaches the table ``token`` opens: at the process that serves it now.

        A process that does not answer, or answers that the table is served elsewhere now
        (``UNAVAILABLE``), sends the call after the table: the lobby is asked where it is
        (``Locate``) and the call goes there, up to ``MOVES`` times. Any other answer is the table's.
        """
        for attempt in range(MOVES):
            try:
                return await call(self._table_stub(token))
            except grpc.aio.AioRpcError as err:
                if err.code() != grpc.StatusCode.UNAVAILABLE or attempt == MOVES - 1:
                    raise
            where = self.routes.get(token)
            await self.locate(token)
            if self.routes.get(token) == where:  # not moved (yet): its process may be coming back
                await asyncio.sleep(0.25 * (attempt + 1))
        raise AssertionError("unreachable")  # the loop returns or raises

    def _route(self, joined: lobby_pb2.JoinResponse) -> lobby_pb2.JoinResponse:
        self.routes[joined.token] = joined.address
        return joined

    async def locate(self, token: str) -> None:
        """Ask the lobby where the table ``token`` opens is served now (it moves when the process
        that served it stops); kept as it was if the lobby cannot say."""
        try:
            found = await self.lobby.Locate(lobby_pb2.LocateRequest(token=token), timeout=self.patience)
        except grpc.aio.AioRpcError:  # the lobby is away too, or older than tables served elsewhere
            return
        self.routes[token] = found.address

    async def info(self) -> lobby_pb2.ServerInfo:
        """The server's info; this client says its version as it asks (docs/client.md §13)."""
        request = lobby_pb2.GetInfoRequest(client_version=__version__)
        self.server = await self.asking(lambda patience: self.lobby.GetInfo(request, timeout=patience))
        return self.server

    async def tables(self, include_finished: bool = False) -> list[common_pb2.TableSummary]:
        request = lobby_pb2.ListTablesRequest(include_finished=include_finished)
        return list((await self.asking(lambda patience: self.lobby.ListTables(request, timeout=patience))).tables)

    async def watch_tables(self, include_finished: bool = False) -> AsyncIterator[lobby_pb2.TablesUpdate]:
        """The room's list as it changes (``Lobby.WatchTables``, docs/client.md §2): a snapshot, then each change.
        A server older than the stream refuses it (``UNIMPLEMENTED``): ask ``tables`` on a timer there instead."""
        request = lobby_pb2.WatchTablesRequest(include_finished=include_finished)
        async for update in self.lobby.WatchTables(request):
            yield update

    async def create(self, request: lobby_pb2.CreateTableRequest) -> common_pb2.TableSummary:
        created = await self.lobby.CreateTable(request, timeout=self.patience)
        self.owned[created.table.id] = created.owner_token
        return created.table

    async def close_table(self, table_id: str) -> None:
        request = lobby_pb2.CloseTableRequest(table_id=table_id, owner_token=self.owned.get(table_id, ""))
        await self.lobby.CloseTable(request, timeout=self.patience)

    async def join(self, table_id: str, name: str, password: str = "", invite: str = "") -> lobby_pb2.JoinResponse:
        """A seat, with a new chain pledged for its fair deals (``cardtui.fair.Chain``): every seed this client
        will send for it is fixed now, before it sees anyone else's. A join that got no answer is sent again with
        the same token and chain (once at once, more patiently, as ``asking`` does; then at the next join to the
        same table under the same name): the server answers it with the seat the first one took."""
        key = (table_id, name)
        token, chain = self.joining.setdefault(key, (secrets.token_urlsafe(24), Chain.make()))

        async def once(session: str) -> lobby_pb2.JoinResponse:
            request = lobby_pb2.JoinTableRequest(table_id=table_id, name=name, password=password, session=session,
                                                 invite=invite, pledge=chain.pledge, on_host=self.on_host,
                                                 token=token)
            return self._route(await self.asking(lambda patience: self.lobby.JoinTable(request, timeout=patience)))

        try:
            joined = await self._as_player(name, once)
        except grpc.aio.AioRpcError as err:
            if err.code() not in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE):
                self.joining.pop(key, None)  # refused: the next join is a new one
            raise
        self.joining.pop(key, None)
        self.chains[joined.token] = chain
        return joined

    async def spectate(self, table_id: str, name: str, password: str = "", invite: str = "") -> lobby_pb2.JoinResponse:
        async def once(session: str) -> lobby_pb2.JoinResponse:
            request = lobby_pb2.SpectateRequest(table_id=table_id, name=name, password=password, session=session,
                                                invite=invite)
            return self._route(await self.lobby.Spectate(request, timeout=self.patience))

        return await self._as_player(name, once)

    async def invite(self, table_id: str = "", with_password: bool = False) -> lobby_pb2.InviteResponse:
        """A table's invite (the room's own, with no table); one that opens its password takes the
        owner token this client was given."""
        request = lobby_pb2.InviteRequest(table_id=table_id, with_password=with_password,
                                          owner_token=self.owned.get(table_id, "") if with_password else "")
        return await self.lobby.Invite(request, timeout=self.patience)

    async def open_invite(self, code: str) -> lobby_pb2.InviteResponse:
        """The table an invite's code opens (refused with a sentence if this server did not make it)."""
        return await self.lobby.OpenInvite(lobby_pb2.OpenInviteRequest(code=code), timeout=self.patience)

    # -- players who are remembered ----------------------------------------------------------
    async def sign_in(self, name: str) -> players_pb2.ProveResponse | None:
        """Prove the key for ``name``; with no key, ask whether a guest may use it. Refusals raise.

        A server that does not know identities yet (UNIMPLEMENTED) is played on as a guest.
        """
        try:
            if self.identity is None:
                await self.lobby.Hello(players_pb2.HelloRequest(name=name), timeout=self.patience)
                return None
            me = self.identity
            hello = await self.lobby.Hello(players_pb2.HelloRequest(name=name, public_key=me.public_key),
                                           timeout=self.patience)
            proved = await self.lobby.Prove(players_pb2.ProveRequest(
                name=name, public_key=me.public_key, nonce=hello.nonce,
                signature=me.sign(hello.server_id, hello.nonce, name)), timeout=self.patience)
        except grpc.aio.AioRpcError as err:
            if err.code() == grpc.StatusCode.UNIMPLEMENTED:
                self.identity = None
                return None
            raise
        self.session, self.proved = proved.session, name
        return proved

    async def with_session(self, name: str, call: Callable[[str], Awaitable[Reply]]) -> Reply:
        """A call that needs the player proved (registering for a tournament): given the session."""
        return await self._as_player(name, call)

    async def _as_player(self, name: str, call: Callable[[str], Awaitable[Reply]]) -> Reply:
        """A call that carries the session for ``name`` (proved first if need be; once more if forgotten)."""
        if self.identity is None:
            return await call("")
        if not self.session or self.proved != name:
            await self.sign_in(name)
        try:
            return await call(self.session)
        except grpc.aio.AioRpcError as err:
            if err.code() != grpc.StatusCode.UNAUTHENTICATED:
                raise
        self.session = ""
        await self.sign_in(name)
        return await call(self.session)

    async def leaderboard(self, game: str) -> players_pb2.LeaderboardResponse:
        request = players_pb2.LeaderboardRequest(game=game)
        return await self.asking(lambda patience: self.lobby.Leaderboard(request, timeout=patience))

    async def player_card(self, name: str = "", table_id: str = "", seat: int | None = None
                          ) -> players_pb2.PlayerCardResponse:
        request = players_pb2.PlayerCardRequest(name=name, table_id=table_id, seat=seat)
        return await self.asking(lambda patience: self.lobby.PlayerCard(request, timeout=patience))

    async def leave(self, token: str) -> None:
        await self.lobby.Leave(lobby_pb2.LeaveRequest(token=token), timeout=self.patience)

    async def act(self, token: str, action: common_pb2.Action, seen_seq: int = 0) -> int:
        """The move, made; its event's number. Sent again while its table is away (``ACT_PATIENCE``)."""
        sealed = self.sealed_seats.get(token)
        step = sealed.step_for(action) if sealed is not None else None
        if step is not None:  # a sealed table's card: played or shown with its keys
            return await self.seal(token, step)
        request = table_pb2.ActRequest(token=token, action=action, seen_seq=seen_seq)
        loop = asyncio.get_running_loop()
        give_up = loop.time() + ACT_PATIENCE
        while True:
            try:
                return (await self._at_table(token, lambda table: table.Act(request, timeout=self.patience))).seq
            except grpc.aio.AioRpcError as err:
                if err.code() != grpc.StatusCode.UNAVAILABLE or loop.time() > give_up:
                    raise
            await asyncio.sleep(RETRY_ACT_SECONDS)

    async def cut(self, token: str, hand: int, seed: bytes) -> bool:
        """This seat's seed for the hand being dealt; whether it went into the deal."""
        request = table_pb2.CutRequest(token=token, hand=hand, seed=seed)
        return (await self._at_table(token, lambda table: table.Cut(request, timeout=self.patience))).taken

    def _cut_soon(self, token: str, hand: int, seed: bytes, fair: FairDeals) -> None:
        async def send() -> None:
            backoff = 0.2
            while True:
                try:
                    fair.taken(hand, await self.cut(token, hand, seed))
                    return
                except grpc.aio.AioRpcError as err:  # refused: the hand's check says so
                    watch = fair.watch
                    again = err.code() in RETRYABLE or err.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
                    if not again or watch is None or watch.seed != seed or watch.started:
                        return
                # The table's process went away before it answered (a restart, a takeover), or this connection
                # was asked to slow down: the same link goes again to the same commitment, which the deal being
                # cut on is. It tells the host nothing new (it committed before it saw this link), and a link
                # never reaches another commitment.
                await asyncio.sleep(backoff)
                backoff = min(BACKOFF_MS / 1000, backoff * 2)

        task = asyncio.create_task(send())
        self.cuts.add(task)
        task.add_done_callback(self.cuts.discard)

    async def seal(self, token: str, request: sealed_pb2.SealRequest) -> int:
        """A sealed table's step for this seat (``client.sealed_seat``); the last event's number it made."""
        sent = sealed_pb2.SealRequest()
        sent.CopyFrom(request)
        sent.token = token
        return (await self._at_table(token, lambda table: table.Seal(sent, timeout=self.patience))).seq

    def _seal_soon(self, token: str, requests: list[sealed_pb2.SealRequest], sealed: SealedSeat,
                   proofs: bool = False) -> None:
        """The steps a sealed hand asks of this seat, sent in order (after any still on their way): a step the
        table refuses (made already, before a drop) changes nothing there, and is said to ``sealed``. ``proofs``:
        then the deal's proofs, made in a thread (``SealedSeat.proofs_due``)."""
        before = self.seals.get(token)

        async def one(request: sealed_pb2.SealRequest) -> None:
            for wait in SEAL_RETRIES:  # asked to slow down (the person acting on the same connection): again
                try:
                    await self.seal(token, request)
                except grpc.aio.AioRpcError as err:
                    if err.code() in SEAL_AGAIN and wait:
                        await asyncio.sleep(wait)
                        continue
                    sealed.refused.append(err.details() or "")
                break

        async def send() -> None:
            if before is not None:
                with contextlib.suppress(Exception):
                    await before
            for request in requests:
                await one(request)
            if proofs:  # the deal's proofs, once this seat's keys are on their way and its own cards open
                for request in await asyncio.to_thread(sealed.behind):
                    await one(request)

        task = asyncio.create_task(send())
        self.seals[token] = task
        self.cuts.add(task)
        task.add_done_callback(self.cuts.discard)

    async def list_hands(self, table_id: str, token: str = "", password: str = "") -> replay_pb2.ListHandsResponse:
        request = replay_pb2.ListHandsRequest(table_id=table_id, token=token, password=password)
        return await self.asking(lambda patience: self.lobby.ListHands(request, timeout=2 * patience))

    async def replay(
        self, table_id: str, hand: int, token: str = "", password: str = ""
    ) -> list[replay_pb2.ReplayStep]:
        """A finished hand's steps, every card face up (refused for a hand in play)."""
        request = replay_pb2.ReplayRequest(table_id=table_id, hand=hand, token=token, password=password)
        return [step async for step in self.lobby.Replay(request, timeout=30)]

    def analyze(self, table_id: str, hand: int, token: str = "", password: str = "", seat: int | None = None,
                when_idle: bool = False, match: bool = False) -> AsyncIterator[analysis_pb2.AnalyzeUpdate]:
        """A finished hand's analysis as it comes: where it waits, its progress, then the analysis
        (``hand`` 0: the table's last finished hand); ``match``: its whole match's, summed up. ``when_idle``:
        only if the server analyses it now without anyone asking (else the answer is ``deferred``)."""
        request = analysis_pb2.AnalyzeRequest(table_id=table_id, hand=hand, token=token, password=password,
                                              when_idle=when_idle, match=match)
        if seat is not None:
            request.seat = seat
        return aiter(self.lobby.Analyze(request, timeout=600))

    async def chat(self, token: str, text: str) -> None:
        request = table_pb2.ChatRequest(token=token, text=text)
        await self._at_table(token, lambda table: table.Chat(request, timeout=self.patience))

    async def phrase(self, token: str, phrase: int) -> None:
        """A quick phrase (``Phrase``): each reader sees it in their own language."""
        request = table_pb2.ChatRequest(token=token, phrase=phrase)  # type: ignore[arg-type]
        await self._at_table(token, lambda table: table.Chat(request, timeout=self.patience))

    async def rematch(self, token: str, choice: table_pb2.RematchChoice.ValueType) -> None:
        """At a match's end: play again, the same seats or the seats swapped."""
        request = table_pb2.RematchRequest(token=token, choice=choice)
        await self._at_table(token, lambda table: table.Rematch(request, timeout=self.patience))

    async def hint(self, token: str, card: str) -> table_pb2.HintResponse:
        """The melds a card of this seat's hand joins or would complete (Pif Paf, Cacheta)."""
        request = table_pb2.HintRequest(token=token, card=card)
        return await self._at_table(token, lambda table: table.Hint(request, timeout=self.patience))

    async def follow(
        self, token: str, on_retry: Callable[[float], None] | None = None, max_backoff: float = BACKOFF_MS / 1000,
        fair: FairDeals | None = None, after_seq: int = 0, sealed: SealedSeat | None = None,
    ) -> AsyncIterator[table_pb2.TableMessage]:
        """The table's messages for ever, resubscribing after drops from the last seq seen (at first
        ``after_seq``: a client that saw the table up to there before gets what it missed since).

        Tries again soon (at most ``max_backoff`` apart), so a server that comes back is found
        within a second or two; ``on_retry`` hears of each wait. With ``fair``, every message
        goes through it first, and the seeds it asks for (a fair deal's cut, for a seated
        token) are sent at once, without waiting for a reader.

        Each time the stream drops, the lobby is asked where the table is now (``locate``) before
        the stream opens again there: a table whose process stopped comes back on another.
        """
        last = after_seq
        if sealed is not None:
            self.sealed_seats[token] = sealed
        if fair is not None:
            fair.chain = self.chains.get(token)
            if self.stay is None:
                self.stay = Stay(self.target)
            fair.stay = self.stay
        try:
            async with contextlib.aclosing(self._follow(token, on_retry, max_backoff, fair, last, sealed)) as messages:
                async for msg in messages:
                    yield msg
        finally:
            if fair is not None:
                fair.close()

    async def _follow(self, token: str, on_retry: Callable[[float], None] | None, max_backoff: float,
                      fair: FairDeals | None, last: int, sealed: SealedSeat | None = None,
                      ) -> AsyncGenerator[table_pb2.TableMessage, None]:
        backoff = 0.2
        dropped = False
        while True:
            if dropped:
                await self.locate(token)
            dropped = True
            try:
                stream = self._table_stub(token).Subscribe(table_pb2.SubscribeRequest(token=token, after_seq=last))
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
                    if not replay_follows(msg, last):
                        last = max(last, msg.seq)
                    if fair is not None:
                        for hand, seed in fair.feed(msg):
                            self._cut_soon(token, hand, seed, fair)
                    if sealed is not None:
                        due = sealed.feed(msg)
                        proofs = sealed.proofs_due()
                        if due or proofs:
                            self._seal_soon(token, due, sealed, proofs)
                    yield msg
            except grpc.aio.AioRpcError as err:
                if err.code() not in RETRYABLE:
                    raise
            if on_retry is not None:
                on_retry(backoff)
            await asyncio.sleep(backoff)
            backoff = min(max_backoff, backoff * 2)

