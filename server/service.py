"""The gRPC servicers: thin translations between the wire and the room."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import DecodeError
from google.protobuf.message_factory import GetMessageClass

from cardtui import __version__
from cardtui.engine.games import GAMES
from cardtui.fair import MAX_PLAYER_SEED
from cardtui.i18n import N_
from cardtui.server import replays, wire
from cardtui.server.analysis import Analyses
from cardtui.server.analysis_pool import AnalysisPool
from cardtui.server.errors import FailedPrecondition, InvalidArgument, Refusal, ResourceExhausted
from cardtui.server.limits import RateLimiter, RefusalLog, StreamCounter
from cardtui.server.room import Room, TableRequest
from cardtui.server.text import BadText, clean_chat
from cardtui.server.tournaments import Tournaments
from cardtui.v1 import (
    analysis_pb2,
    lobby_pb2,
    lobby_pb2_grpc,
    players_pb2,
    replay_pb2,
    table_pb2,
    table_pb2_grpc,
    tournament_pb2,
    tournament_pb2_grpc,
)

log = logging.getLogger("cardtui.service")
FELL_BEHIND = N_("This stream fell behind; resubscribe.")


def limit(limiter: RateLimiter, context: grpc.aio.ServicerContext[Any, Any], kind: str, sentence: str) -> None:
    if not limiter.allow(context.peer(), kind):
        raise ResourceExhausted(sentence)


def trying(limiter: RateLimiter, context: grpc.aio.ServicerContext[Any, Any], password: str, locked: bool) -> None:
    """A password tried where one is asked costs the host a slow hash: so many a second per address."""
    if password and locked:
        limit(limiter, context, "password", N_("This address has tried passwords too fast; wait a little."))


def game_info(name: str) -> lobby_pb2.GameInfo:
    rules = GAMES[name]
    return lobby_pb2.GameInfo(
        name=name, title=rules.title, min_players=rules.min_players, max_players=rules.max_players,
        player_counts=rules.player_counts, options=[wire.option_spec(s) for s in rules.option_specs],
        teams=rules.teams, bot_levels=rules.bot_levels,
    )


class LobbyService(lobby_pb2_grpc.LobbyServicer):
    def __init__(self, room: Room, limiter: RateLimiter, analyst: AnalysisPool | None = None) -> None:
        self.room = room
        self.limiter = limiter
        self.info = [game_info(name) for name in GAMES]
        self.replays = replays.Replays(room)
        self.analyses = Analyses(room, self.replays, analyst)

    async def GetInfo(self, request: lobby_pb2.GetInfoRequest, context: Any) -> lobby_pb2.ServerInfo:
        return lobby_pb2.ServerInfo(version=__version__, games=self.info, tables=len(self.room.tables),
                                    no_cuts=self.room.cut_window <= 0)

    async def ListTables(self, request: lobby_pb2.ListTablesRequest, context: Any) -> lobby_pb2.ListTablesResponse:
        tables = [t.summary() for t in self.room.tables.values()]
        if request.include_finished:
            tables += reversed(self.room.finished.values())
        return lobby_pb2.ListTablesResponse(tables=tables)

    async def CreateTable(self, request: lobby_pb2.CreateTableRequest, context: Any) -> lobby_pb2.CreatedTable:
        limit(self.limiter, context, "table", N_("This connection has opened tables too fast; wait a little."))
        options = raw_options(request.options)
        table, owner = self.room.create(TableRequest.of(request, options))
        return lobby_pb2.CreatedTable(table=table.summary(), owner_token=owner)

    async def JoinTable(self, request: lobby_pb2.JoinTableRequest, context: Any) -> lobby_pb2.JoinResponse:
        seat = request.seat if request.HasField("seat") else -1
        first = self.room.table(request.table_id).seq + 1 if request.table_id in self.room.tables else 0
        trying(self.limiter, context, request.password, self.room.locked(request.table_id))
        token, grant = await self.room.join(request.table_id, request.name, seat, request.password,
                                            request.session)
        assert grant.seat is not None
        return lobby_pb2.JoinResponse(token=token, seat=grant.seat, table=grant.table.summary(), first_seq=first)

    async def Spectate(self, request: lobby_pb2.SpectateRequest, context: Any) -> lobby_pb2.JoinResponse:
        trying(self.limiter, context, request.password, self.room.locked(request.table_id))
        token, grant = await self.room.spectate(request.table_id, request.name, request.password, request.session)
        return lobby_pb2.JoinResponse(token=token, seat=-1, table=grant.table.summary(),
                                      first_seq=grant.table.seq + 1)

    async def Leave(self, request: lobby_pb2.LeaveRequest, context: Any) -> lobby_pb2.LeaveResponse:
        self.room.leave(request.token)
        return lobby_pb2.LeaveResponse()

    async def CloseTable(self, request: lobby_pb2.CloseTableRequest, context: Any) -> lobby_pb2.CloseTableResponse:
        self.room.close_table(request.table_id, request.owner_token)
        return lobby_pb2.CloseTableResponse()

    # -- players who are remembered (players.proto) ------------------------------------------
    async def Hello(self, request: players_pb2.HelloRequest, context: Any) -> players_pb2.HelloResponse:
        limit(self.limiter, context, "hello", N_("This connection has asked for names too fast; wait a little."))
        players = self.room.players
        nonce, known = players.hello(request.name, request.public_key)
        return players_pb2.HelloResponse(server_id=players.server_id, nonce=nonce, known=known)

    async def Prove(self, request: players_pb2.ProveRequest, context: Any) -> players_pb2.ProveResponse:
        session, proved, first = self.room.players.prove(request.name, request.public_key, request.nonce,
                                                         request.signature)
        return players_pb2.ProveResponse(session=session, name=proved.name, first=first,
                                         fingerprint=self.room.players.fingerprint(request.public_key))

    async def Leaderboard(
        self, request: players_pb2.LeaderboardRequest, context: Any
    ) -> players_pb2.LeaderboardResponse:
        return self.room.records.leaderboard(request.game, request.limit)

    async def PlayerCard(
        self, request: players_pb2.PlayerCardRequest, context: Any
    ) -> players_pb2.PlayerCardResponse:
        if request.table_id:
            if not request.HasField("seat"):
                raise InvalidArgument("A player card at a table needs the seat.")
            return self.room.records.seat_card(self.room.table(request.table_id), request.seat)
        if not request.name.strip():
            raise InvalidArgument("Whose card? Give a name, or a table and a seat.")
        return self.room.records.card(request.name)

    async def ListHands(self, request: replay_pb2.ListHandsRequest, context: Any) -> replay_pb2.ListHandsResponse:
        trying(self.limiter, context, request.password, self.room.locked(request.table_id))
        return await self.replays.hands(request.table_id, request.token, request.password)

    async def Replay(
        self, request: replay_pb2.ReplayRequest, context: Any
    ) -> AsyncIterator[replay_pb2.ReplayStep]:
        limit(self.limiter, context, "replay", N_("This connection has asked for replays too fast; wait a little."))
        trying(self.limiter, context, request.password, self.room.locked(request.table_id))
        record = await self.replays.record(request.table_id, request.hand, request.token, request.password)
        try:  # the engine rebuilds the hand: off the loop, so the tables keep moving meanwhile
            steps = await asyncio.to_thread(replays.steps, record)
        except ValueError as e:
            log.error("table %s hand %d does not replay: %s", request.table_id, request.hand, e)
            raise FailedPrecondition("That hand's history does not replay on this server.") from None
        for step in steps:
            yield step

    async def Analyze(
        self, request: analysis_pb2.AnalyzeRequest, context: Any
    ) -> AsyncIterator[analysis_pb2.AnalyzeUpdate]:
        limit(self.limiter, context, "replay", N_("This connection has asked for replays too fast; wait a little."))
        trying(self.limiter, context, request.password, self.room.locked(request.table_id))
        seat = request.seat if request.HasField("seat") else None
        async for update in self.analyses.analyze(request.table_id, request.hand, request.token, request.password,
                                                  seat, request.when_idle, request.match):
            yield update


class TableService(table_pb2_grpc.TableServicer):
    def __init__(self, room: Room, limiter: RateLimiter) -> None:
        self.room = room
        self.limiter = limiter
        self.streams = StreamCounter(limiter.limits)

    async def Subscribe(  # type: ignore[override]  # yields messages already serialized
        self, request: table_pb2.SubscribeRequest, context: Any
    ) -> AsyncIterator[bytes]:
        grant = self.room.grant(request.token)
        table = grant.table
        peer = context.peer()
        refused = self.streams.open(peer)
        if refused is not None:
            raise ResourceExhausted(refused[0], n=refused[1])
        if grant.seat is not None:
            table.back(grant.seat)
        sub, opening = table.subscribe(grant.key, grant.seat, request.after_seq)
        try:
            for msg in opening:
                yield msg
            while True:
                got = await sub.queue.get()
                if got is None:  # dropped for falling behind
                    yield table_pb2.TableMessage(
                        seq=table.seq,
                        closing=table_pb2.Closing(reason=FELL_BEHIND, resubscribe=True,
                                                  problem=wire.problem(FELL_BEHIND)),
                    ).SerializeToString()
                    return
                yield got
                if sub.closed and sub.queue.empty():
                    return
        finally:
            table.fanout.unsubscribe(sub)
            self.streams.close(peer)

    async def Act(self, request: table_pb2.ActRequest, context: Any) -> table_pb2.ActResponse:
        limit(self.limiter, context, "act", N_("Too many actions from this connection; slow down."))
        table, seat = self.room.seat_grant(request.token)
        if not request.HasField("action"):
            raise InvalidArgument("An Act request needs an action.")
        if request.seen_seq > table.seq:
            raise InvalidArgument("That sequence number is in the future.")
        try:
            action = wire.action_of(request.action)
        except wire.BadAction as e:
            raise InvalidArgument(str(e)) from None
        return table_pb2.ActResponse(seq=table.act(seat, action, request.seen_seq))

    async def Cut(self, request: table_pb2.CutRequest, context: Any) -> table_pb2.CutResponse:
        limit(self.limiter, context, "act", N_("Too many actions from this connection; slow down."))
        table, seat = self.room.seat_grant(request.token)
        if not 1 <= len(request.seed) <= MAX_PLAYER_SEED:
            raise InvalidArgument("A seed is 1 to {most} bytes (clients send 32 random ones).", most=MAX_PLAYER_SEED)
        return table_pb2.CutResponse(taken=table.take_cut(seat, request.hand, bytes(request.seed)))

    async def Chat(self, request: table_pb2.ChatRequest, context: Any) -> table_pb2.ChatResponse:
        limit(self.limiter, context, "chat", N_("Too many chat lines from this connection; slow down."))
        grant = self.room.grant(request.token)
        try:
            text = clean_chat(request.text)
        except BadText as e:
            raise InvalidArgument(e.template, **e.args_) from None
        grant.table.chat(grant.seat, grant.name, text)
        return table_pb2.ChatResponse()


def raw_options(options: Any) -> dict[str, Any]:
    """A request's options map as the engine reads them; a value left empty is refused."""
    out = {}
    for key, value in options.items():
        raw = wire.raw_option(value)
        if raw is None:
            raise InvalidArgument("The option {option} has no value.", option=repr(key[:40]))
        out[key] = raw
    return out


class TournamentService(tournament_pb2_grpc.TournamentsServicer):
    """Tournaments (tournament.proto): thin, as the lobby is; ``server.tournaments`` runs them."""

    def __init__(self, tournaments: Tournaments, limiter: RateLimiter, streams: StreamCounter) -> None:
        self.tournaments = tournaments
        self.limiter = limiter
        self.streams = streams
        """Counted with the tables' streams: one limit per connection and per address for both."""

    async def CreateTournament(
        self, request: tournament_pb2.CreateTournamentRequest, context: Any
    ) -> tournament_pb2.CreatedTournament:
        limit(self.limiter, context, "table", N_("This connection has opened tables too fast; wait a little."))
        t, owner = self.tournaments.create(request, raw_options(request.options))
        return tournament_pb2.CreatedTournament(tournament=self.tournaments.summary(t), owner_token=owner)

    async def ListTournaments(
        self, request: tournament_pb2.ListTournamentsRequest, context: Any
    ) -> tournament_pb2.ListTournamentsResponse:
        return tournament_pb2.ListTournamentsResponse(tournaments=self.tournaments.listing(request.include_finished))

    async def Register(self, request: tournament_pb2.RegisterRequest, context: Any) -> tournament_pb2.RegisterResponse:
        t = self.tournaments.all.get(request.tournament_id)
        trying(self.limiter, context, request.password, t is None or bool(t.settings.password))
        entry = await self.tournaments.register(request.tournament_id, request.session, request.password,
                                                request.team)
        t = self.tournaments.get(request.tournament_id)
        return tournament_pb2.RegisterResponse(entry=entry, tournament=self.tournaments.summary(t))

    async def Unregister(
        self, request: tournament_pb2.UnregisterRequest, context: Any
    ) -> tournament_pb2.UnregisterResponse:
        self.tournaments.unregister(request.tournament_id, request.session)
        return tournament_pb2.UnregisterResponse()

    async def StartTournament(
        self, request: tournament_pb2.OwnerRequest, context: Any
    ) -> tournament_pb2.TournamentState:
        return self.tournaments.state(self.tournaments.start_now(request.tournament_id, request.owner_token))

    async def CancelTournament(
        self, request: tournament_pb2.OwnerRequest, context: Any
    ) -> tournament_pb2.TournamentState:
        return self.tournaments.state(self.tournaments.cancel(request.tournament_id, request.owner_token))

    async def GetTournament(
        self, request: tournament_pb2.TournamentRequest, context: Any
    ) -> tournament_pb2.TournamentState:
        return self.tournaments.state(self.tournaments.get(request.tournament_id))

    async def WatchTournament(
        self, request: tournament_pb2.TournamentRequest, context: Any
    ) -> AsyncIterator[tournament_pb2.TournamentState]:
        self.tournaments.get(request.tournament_id)
        peer = context.peer()
        refused = self.streams.open(peer)
        if refused is not None:
            raise ResourceExhausted(refused[0], n=refused[1])
        try:
            async for state in self.tournaments.watch(request.tournament_id):
                yield state
        finally:
            self.streams.close(peer)


def register(server: grpc.aio.Server, servicer: object, service: ServiceDescriptor, refusals: RefusalLog) -> None:
    """Add a servicer whose requests are decoded here, and whose refusals become statuses here.

    The generated ``add_*Servicer_to_server`` decode in grpc's own code, which answers a
    broken request with a bare UNKNOWN; decoding inside the handler lets us say what is wrong.
    Every ``Refusal`` a servicer raises is answered with its status code and sentence: the one
    place errors map to codes. Streams may yield messages already serialized (``bytes``).
    """
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
    for method in service.methods:
        request_type = GetMessageClass(method.input_type)
        reply_type = GetMessageClass(method.output_type)
        behaviour = getattr(servicer, method.name)
        if method.server_streaming:
            handlers[method.name] = grpc.unary_stream_rpc_method_handler(_streaming(behaviour, request_type, refusals))
        else:
            handlers[method.name] = grpc.unary_unary_rpc_method_handler(
                _unary(behaviour, request_type, refusals), response_serializer=reply_type.SerializeToString
            )
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, handlers),))


async def _decode(raw: bytes, request_type: Any, context: Any) -> Any:
    try:
        return request_type.FromString(raw)
    except DecodeError:
        await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"That is not a {request_type.__name__} message.")


async def _refuse(context: Any, error: Refusal, refusals: RefusalLog) -> None:
    """The status code and the English sentence, and the sentence as an id with its arguments
    (``cardtui-problem-bin``) for clients that say it in their reader's language. The log says
    it at a bounded rate (``RefusalLog``)."""
    refusals.refused(error.code.name, error.template, str(error))
    await context.abort(error.code, str(error), trailing_metadata=wire.problem_metadata(error.template, error.args_))


def _unary(behaviour: Callable[..., Any], request_type: Any, refusals: RefusalLog) -> Callable[..., Any]:
    async def handle(raw: bytes, context: Any) -> Any:
        request = await _decode(raw, request_type, context)
        try:
            return await behaviour(request, context)
        except Refusal as e:
            await _refuse(context, e, refusals)

    return handle


def _streaming(behaviour: Callable[..., Any], request_type: Any, refusals: RefusalLog) -> Callable[..., Any]:
    """A stream's handler: a coroutine that writes each reply itself (``context.write``), so a
    message passes through one generator (the servicer's) on its way out, not two; replies are
    serialized here, so grpc is given bytes and calls no serializer of ours."""

    async def handle(raw: bytes, context: Any) -> None:
        request = await _decode(raw, request_type, context)
        write = context.write
        try:
            async with contextlib.aclosing(behaviour(request, context)) as replies:
                # closed here even when a write is cancelled (the client went): its ``finally`` runs now
                async for reply in replies:
                    await write(reply if type(reply) is bytes else reply.SerializeToString())
        except Refusal as e:
            await _refuse(context, e, refusals)

    return handle
