"""Start and stop a table server: gRPC with health checking and reflection."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import logging
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2
from grpc_reflection.v1alpha._async import ReflectionServicer as _AioReflection

from cardtui import heap
from cardtui.engine import family, games
from cardtui.i18n import N_
from cardtui.server.base.clock import REAL, Clock
from cardtui.server.base.limits import Limits, RateLimiter, RefusalLog
from cardtui.server.base.metrics import answer, count_in, pool_processes, standing
from cardtui.server.hands.tournaments import Tournaments
from cardtui.server.lobby.invites import Where
from cardtui.server.lobby.room import DEFAULT_CUT, Room
from cardtui.server.lobby.routes import Router
from cardtui.server.ops import logfile, systemd
from cardtui.server.ops.stores import default_db, open_store
from cardtui.server.processes.hosts import HostsService
from cardtui.server.processes.placement import Placement
from cardtui.server.processes.pools import Pools, start_pools
from cardtui.server.processes.takeover import SWEEP_SECONDS, Keeper
from cardtui.server.processes.workers import Workers, WorkerSettings, watch_parent
from cardtui.server.service import TOURNAMENTS_AT, LobbyService, TableService, TournamentService, register
from cardtui.server.service import log as service_log
from cardtui.server.store import Store
from cardtui.v1 import hosts_pb2, lobby_pb2, table_pb2, tournament_pb2

if TYPE_CHECKING:
    from cardtui.server.ops.announce import Announcer
    from cardtui.server.processes.analysis_pool import AnalysisPool
    from cardtui.server.web.site import WebOptions

log = logging.getLogger("cardtui.server")

MAX_MESSAGE = 64 * 1024
SERVER_OPTIONS = [
    # A second server on a port already taken must fail, not share the port (grpc's default).
    ("grpc.so_reuseport", 0),
    ("grpc.max_receive_message_length", MAX_MESSAGE),
    ("grpc.max_concurrent_streams", 10_000),
    # A restart or a reconnect storm opens thousands of streams at once; past these limits
    # grpc answers some with a bare CANCELLED.
    ("grpc.server.max_pending_requests", 20_000),
    ("grpc.server.max_pending_requests_hard_limit", 40_000),
    # Clients ping every 20 s; the server must accept pings at least that often.
    ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.keepalive_timeout_ms", 10_000),
]


GC_THRESHOLDS = (2_000, 50, 100)
"""The collector's thresholds in a server process, once what it holds at its start is frozen.

The server's own code leaves no reference cycles as tables play (``gc.DEBUG_SAVEALL`` over a minute of bots:
nothing); grpc leaves one of five objects for every call it serves (``_find_method_handler``'s closure, with
the call's details and metadata, about 660 bytes), which only the collector frees. The young generation's
threshold bounds how much of that waits for it: at 50,000 it was some 10,000 calls' worth, 6 MB that a
client asking on one connection saw the front grow by; at 2,000 it is 400 calls' worth, a quarter of a
megabyte (``make bench --only front``, bench/marks.md). Collecting the young generation more often costs
no more in all (each collection walks only what is young, and what the tables hold is frozen or old); the
older two keep their ratios (every 50 young collections, every 100 of those), and since the young count
grows only by what survives or is left in cycles, a full collection comes after some two million calls."""


class ClientGone(logging.Filter):
    """A client that vanished mid-stream (killed, or cut off by keepalive) is one line, not a traceback.

    grpc logs each such stream as an ``ExecuteBatchError`` with its traceback; nothing is
    wrong with the server when a laptop sleeps, so it is said in a line at INFO.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if "ExecuteBatchError" in record.getMessage() or (
            record.exc_info and record.exc_info[0] is not None and record.exc_info[0].__name__ == "ExecuteBatchError"
        ):
            method = record.getMessage().rsplit("[", 1)[-1].rstrip("]") if "[" in record.getMessage() else "a stream"
            record.msg, record.args = "a client went away mid-stream (%s)", (method,)
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


logging.getLogger("grpc._cython.cygrpc").addFilter(ClientGone())

REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"


def serve_reflection_v1(server: grpc.aio.Server, names: tuple[str, ...]) -> None:
    """Server reflection as ``grpc.reflection.v1`` too, which current tools ask for first.

    grpcio-reflection ships only ``v1alpha``; the two versions' messages are the same field
    for field, so the ``v1alpha`` servicer answers ``v1`` requests byte for byte.
    """
    servicer = _AioReflection(names)
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(REFLECTION_V1, {"ServerReflectionInfo": handler}),)
    )


@dataclass
class Running:
    server: grpc.aio.Server
    room: Room
    store: Store
    port: int
    health: health.aio.HealthServicer
    announcer: Announcer | None = None
    workers: Workers | None = None
    """This host's table workers (``serve --workers``); None: this process drives every table."""
    keeper: Keeper | None = None
    router: Router | None = None
    pools: Pools | None = None
    """Every pool of processes of this process (``server.pools``): ended last."""

    @property
    def analyst(self) -> AnalysisPool | None:
        """Where this process analyses finished hands (the lobby's process only)."""
        return None if self.pools is None else self.pools.analyst

    async def stop(self, grace: float = 2.0) -> None:
        """Tell every client, stop taking calls, let streams finish, close the store."""
        if self.announcer is not None:  # first, so nobody on the LAN picks a server that is leaving
            await self.announcer.stop()
            self.announcer = None
        await self.health.enter_graceful_shutdown()
        if self.keeper is not None:
            await self.keeper.stop()
        await self.room.outage.stop()
        if self.pools is not None:
            await self.pools.stop_workers(grace)
        self.room.shutdown(N_("The server is shutting down."))
        await self.server.stop(grace)
        if self.router is not None:
            await self.router.close()
        if self.pools is not None:
            await self.pools.close(grace)
        if self.keeper is not None:  # the front, its workers ended: nothing they made stays (``Owners.forget_gone``)
            try:
                if gone := self.store.owners.forget_gone():
                    log.info("%d processes of this server that had gone were forgotten as it stopped", gone)
            except Exception as e:  # the store away: the next start forgets them
                log.warning("the processes of this server that had gone could not be forgotten (%s)", e)
        self.store.close()


async def start(
    host: str = "127.0.0.1",
    port: int = 50051,
    db: str | Path | None = None,
    bot_delay: float = 1.0,
    next_hand_delay: float = 4.0,
    *,
    tls: tuple[bytes, bytes] | None = None,
    announce: bool = False,
    announce_interfaces: list[str] | None = None,
    limits: Limits | None = None,
    idle_minutes: int = 10,
    web_url: str | None = None,
    cut_window: float = DEFAULT_CUT,
    bot_workers: int = 1,
    workers: int = 1,
    advertise: str = "",
    worker: bool = False,
    log_level: int = logging.INFO,
    web_pages: Sequence[str] = (),
    analysis_workers: int = 1,
    clock: Clock = REAL,
) -> Running:
    """Listen on ``host:port`` (TLS with ``tls`` = (cert PEM, key PEM)); announce it on the LAN if asked.

    ``web_url`` (where browsers join, see ``cardtui.server.web.site``) goes into the announcement.
    ``cut_window``: seconds a fair deal waits at most for the seated people's seeds (at most a table's turn
    clock; 0: no cuts).
    ``bot_workers``: processes the bots think in (0: they think on the event loop).
    ``workers``: table workers (``server.workers``): 1, this process drives every table; more,
    each drives a share of them in a process of its own, and this one keeps the lobby.
    ``advertise``: the host name or address clients and the room's other hosts reach this host at
    (empty: the one a client reached the lobby at). ``db``: an SQLite file, or a PostgreSQL
    database (``postgresql://…``) that several hosts share.
    ``worker``: this process is a table worker of a server (``worker_main``).
    ``web_pages``: every URL of the browser page, for invites (``web_url`` alone, if not given).
    ``analysis_workers``: processes finished hands are analysed in, at most one per core (0: none);
    the lobby's process only (a table worker analyses nothing: ``server.pools``).
    ``clock``: what the tables' timers, the rate limits and the room's sweeps read (``server.clock``); a
    test's own moves only when the test says (the table workers' processes keep the real one).
    """
    began = time.perf_counter()
    limits = limits or Limits()
    location = db if db is not None else default_db()
    store = open_store(location, own_folder=db is None, shared=worker)
    table_workers = workers if not worker else 1
    if table_workers > 1:
        store.owners.shared = True
    try:
        # Every process this one will have is made now, before any gRPC server exists here.
        pools = await start_pools(table_workers, WorkerSettings(
            str(location), host, port, advertise, tls, bot_delay, next_hand_delay, limits, idle_minutes, cut_window,
            bot_workers, log_level, logfile.shared()), worker_main, bot_workers, 0 if worker else analysis_workers)
    except BaseException:
        store.close()
        raise
    pooled = time.perf_counter()
    team, bots = pools.workers, pools.bots
    if bots is not None:  # the bots search in their own processes: the tables' own questions are few
        assert games.GAMES, "every family of the games offered is registered"
        for each in family.FAMILIES.values():
            each.rules_only()
    server = grpc.aio.server(options=SERVER_OPTIONS, maximum_concurrent_rpcs=None)
    try:
        if tls is not None:
            cert, key = tls
            bound = server.add_secure_port(f"{host}:{port}", grpc.ssl_server_credentials([(key, cert)]))
        else:
            bound = server.add_insecure_port(f"{host}:{port}")
    except RuntimeError:
        bound = 0
    if bound == 0:
        await pools.close(0)
        store.close()
        from cardtui.server.ops.ports import in_use

        said = (in_use(host, port, "this table worker") + " Choose another --port, or fewer --workers." if worker
                else in_use(host, port, "the table server") + " Choose another with --port.")
        raise OSError(said)
    store.owners.register(f"{advertise}:{bound}")
    room = Room(store, bot_delay=bot_delay, next_hand_delay=next_hand_delay, idle_minutes=idle_minutes,
                cut_window=cut_window, thinker=bots, names_per_key=limits.names_per_key, clock=clock)
    router = Router(store, host, tls[0] if tls else None) if store.owners.shared else None
    limiter = RateLimiter(limits, clock)
    refusals = RefusalLog(service_log, limits.refusal_log_seconds, clock, room.figures.refused)
    tables = TableService(room, limiter)
    register(server, LobbyService(room, limiter, router, team, pools.analyst, tables.streams),
             lobby_pb2.DESCRIPTOR.services_by_name["Lobby"], refusals, room.outage)
    room.figures.watch(lambda: standing(room, tables.streams, pools.analyst, lambda: pools.workers))
    room.figures.helpers = pool_processes(bots.pids if bots is not None else None,
                                          pools.analyst.pids if pools.analyst is not None else None)
    register(server, tables, table_pb2.DESCRIPTOR.services_by_name["Table"], refusals, room.outage)
    keeper = None
    if not worker:
        tournament_service = TournamentService(None, limiter, tables.streams, router)
        register(server, tournament_service, tournament_pb2.DESCRIPTOR.services_by_name["Tournaments"], refusals,
                 room.outage)

        def lead() -> Tournaments | None:
            """Run the room's tournaments here, if no other process does (the first host to ask)."""
            if tournament_service.tournaments is None and store.owners.lead("tournaments"):
                tournament_service.tournaments = Tournaments(room)
                store.meta.set(TOURNAMENTS_AT, store.owners.address)
                return tournament_service.tournaments
            return None

        placement = None
        if team is not None:
            placement = team.placement = Placement(team, store)
        keeper = Keeper(room, router, team, lead, placement)
    if router is not None:
        register(server, HostsService(room, router), hosts_pb2.DESCRIPTOR.services_by_name["Hosts"], refusals,
                 room.outage)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = (
        lobby_pb2.DESCRIPTOR.services_by_name["Lobby"].full_name,
        table_pb2.DESCRIPTOR.services_by_name["Table"].full_name,
        tournament_pb2.DESCRIPTOR.services_by_name["Tournaments"].full_name,
        health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
        reflection.SERVICE_NAME,
        REFLECTION_V1,
    )
    reflection.enable_server_reflection(names, server)
    serve_reflection_v1(server, names)
    room.invites.where = where(host, bound, announce_interfaces, tuple(web_pages) or ((web_url,) if web_url else ()))
    # After a restart, every table: its process is gone. The workers replay their shares' journals while
    # this process collects and starts its server (a restart took that much longer than a first start).
    sweeping = asyncio.create_task(keeper.sweep()) if keeper is not None else None
    await asyncio.sleep(0)  # the sweep's tables of this process taken, its workers' handed out
    # Table state is long-lived: move what exists now out of the collector's sight (``GC_THRESHOLDS``).
    gc.collect()
    collected = time.perf_counter()
    restored = 0
    if keeper is not None and sweeping is not None:
        restored = await sweeping
        if restored:
            log.info("restored %d tables from %s", restored, store.path)
        if team is not None:
            team.on_death = lambda slot: keeper.nudge()
        keeper.start(SWEEP_SECONDS)  # a process still ending as this one started, another host that died
    swept = time.perf_counter()
    heap.freeze("the server")
    gc.set_threshold(*GC_THRESHOLDS)
    room.start_sweeping()
    await server.start()
    if not worker:  # what a start waited for (bench/marks.md, "A restart with 200 tables")
        log.info("started in %.2f s: the store and the pools %.2f s (table workers serving), the server made and the "
                 "collector run %.2f s, %d tables restored %.2f s after that, the server started %.2f s",
                 time.perf_counter() - began, pooled - began, collected - pooled, restored, swept - collected,
                 time.perf_counter() - swept)

    async def serving(ok: bool) -> None:
        """The health service follows the store: NOT_SERVING while it is out of reach (``server.outage``)."""
        status = health_pb2.HealthCheckResponse.SERVING if ok else health_pb2.HealthCheckResponse.NOT_SERVING
        for name in ("", *names[:2]):
            await health_servicer.set(name, status)

    room.outage.serving = serving
    await serving(not room.outage.away)
    log.info("%s on %s:%d%s, store %s", "a table worker serving" if worker else "serving", host, bound,
             " with TLS" if tls else "", store.path)
    announcer = None
    if announce:
        from cardtui.server.ops.announce import start_announcer

        count = (store.tables.open_tables if store.owners.shared  # the room's, its workers' too
                 else lambda: len(room.tables))
        announcer = start_announcer(bound, count, tls is not None, host, announce_interfaces, web=web_url)
    return Running(server, room, store, bound, health_servicer, announcer, team, keeper, router, pools)


def worker_main(settings: WorkerSettings, ready: Connection, alive: Connection, figures: Connection) -> None:
    """A table worker's process (``server.workers``): its own event loop and gRPC server, driving
    the tables the server's process hands it, until the server stops it (or stops itself); it answers the
    front's questions for its figures on ``figures`` (``server.metrics``)."""
    watch_parent(alive)
    if settings.counts:
        count_in(settings.counts)
    logfile.worker(settings.log_level, settings.logs)
    asyncio.run(_serve_worker(settings, ready, figures))


async def _serve_worker(settings: WorkerSettings, ready: Connection, figures: Connection) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        running = await start(settings.host, settings.port, settings.db, settings.bot_delay,
                              settings.next_hand_delay, tls=settings.tls, limits=settings.limits,
                              idle_minutes=settings.idle_minutes, cut_window=settings.cut_window,
                              bot_workers=settings.bot_workers, advertise=settings.advertise, worker=True)
    except Exception as e:
        with contextlib.suppress(OSError):  # the front may have stopped waiting
            ready.send(("failed", str(e)))
        return
    answer(running.room.figures, figures)
    try:
        ready.send(("ready", running.store.owners.me, f"{settings.advertise}:{running.port}"))
        ready.close()
    except OSError:  # the front stopped waiting (it is stopping): stop as cleanly as if told to
        stop.set()
    await stop.wait()
    await running.stop(grace=1.0)


def where(host: str, port: int, interfaces: list[str] | None, pages: tuple[str, ...]) -> Where:
    """Where friends reach this server, as an invite says it: its addresses on the LAN (this
    machine's only, when it listens on a loopback address), and its page's URLs."""
    from cardtui.server.ops.announce import announced_addresses

    try:
        addresses = announced_addresses(host, interfaces)
    except OSError:
        addresses = []
    addresses = addresses or [host.strip("[]") or "127.0.0.1"]
    local = True
    for a in addresses:
        with contextlib.suppress(ValueError):
            local = local and ipaddress.ip_address(a.split("%")[0]).is_loopback
    servers = tuple(f"[{a}]:{port}" if ":" in a else f"{a}:{port}" for a in addresses)
    return Where(servers, pages, local)


async def serve_forever(
    host: str,
    port: int,
    db: str | Path | None,
    bot_delay: float = 1.0,
    next_hand_delay: float = 4.0,
    *,
    tls: tuple[bytes, bytes] | None = None,
    announce: bool = False,
    announce_interfaces: list[str] | None = None,
    limits: Limits | None = None,
    idle_minutes: int = 10,
    web: WebOptions | None = None,
    cut_window: float = DEFAULT_CUT,
    bot_workers: int = 1,
    workers: int = 1,
    advertise: str = "",
    log_level: int = logging.INFO,
    analysis_workers: int = 1,
    metrics: tuple[str, int] | None = None,
) -> None:
    """Run until SIGINT or SIGTERM, then shut down gracefully within seconds.

    With ``web``, browsers join too: the page is served on ``host`` at ``web.port``. With ``metrics`` (a host
    and a port), the figures of every process of the server are served there (``server.metrics``). Under
    systemd (``Type=notify``) the service manager is told when the server is ready, once it listens.
    """
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):  # before anyone is told where we are
        loop.add_signal_handler(sig, stop.set)
    sock = None
    web_url = web_line = None
    web_pages: list[str] = []
    if web is not None:  # bound first, so the announcement can carry its URL
        from cardtui.server.web.site import describe, open_socket, web_urls

        sock = open_socket(host, web.port)
        web_port = int(sock.getsockname()[1])
        web_pages = web_urls(host, web_port, web.tls is not None)[0]
        web_url = web_pages[0]
        web_line = describe(host, web_port, web.tls is not None)
    try:
        running = await start(host, port, db, bot_delay=bot_delay, next_hand_delay=next_hand_delay, tls=tls,
                              announce=announce, announce_interfaces=announce_interfaces, limits=limits,
                              web_url=web_url, idle_minutes=idle_minutes, cut_window=cut_window,
                              bot_workers=bot_workers, workers=workers, advertise=advertise, log_level=log_level,
                              web_pages=web_pages, analysis_workers=analysis_workers)
    except BaseException:
        if sock is not None:
            sock.close()
        raise
    guests = None
    if web is not None and sock is not None:
        from cardtui.server.web.site import WebServer, local_target

        guests = WebServer(local_target(host, running.port), tls=web.tls,
                           tls_ca=web.tls[0] if web.tls else None, limits=web.limits, origins=web.origins)
        try:
            await guests.start(sock)
        except BaseException:
            sock.close()
            await running.stop()
            raise
    page = None
    if metrics is not None:
        from cardtui.server.base.metrics import serve as serve_metrics

        try:
            page = await serve_metrics(metrics[0], metrics[1], running.room.figures, lambda: running.workers)
        except BaseException:
            if guests is not None:
                await guests.stop()
            await running.stop()
            raise
    secure = ", TLS" if tls else ""
    also = f" · web: {web_line}" if web_line else ""
    if page is not None and metrics is not None:
        shown = f"[{metrics[0]}]" if ":" in metrics[0] else metrics[0]
        also += f" · metrics: http://{shown}:{page.port}/metrics"
    spread = f", {workers} table workers" if running.workers is not None else ""
    line = f"cardtui server on {host}:{running.port} (store: {running.store.path}{secure}{spread}){also}"
    print(line, flush=True)
    if web_pages:
        from cardtui.server.web.site import install_line

        print(install_line(web_pages[0]), flush=True)
    systemd.ready(line)
    await stop.wait()
    systemd.stopping()
    if page is not None:
        await page.stop()
    if guests is not None:
        await guests.stop()
    await running.stop()
