"""The gRPC servicers: thin translations between the wire and the room."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

import grpc
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import DecodeError
from google.protobuf.message_factory import GetMessageClass

from cardtui import __version__
from cardtui.engine.games import GAMES
from cardtui.fair import MAX_PLAYER_SEED, SEED_BYTES
from cardtui.i18n import N_
from cardtui.installing import wheel_url
from cardtui.server.actor import hints
from cardtui.server.actor.rematch import Choice
from cardtui.server.base import sealed_wire, wire
from cardtui.server.base.errors import (
    FailedPrecondition,
    InvalidArgument,
    PermissionDenied,
    Refusal,
    ResourceExhausted,
    Unavailable,
)
from cardtui.server.base.limits import RateLimiter, RefusalLog, StreamCounter, address
from cardtui.server.base.text import BadText, clean_chat
from cardtui.server.hands import replays
from cardtui.server.hands.analysis import Analyses
from cardtui.server.hands.tournaments import Tournaments
from cardtui.server.lobby import invites_wire
from cardtui.server.lobby.listings import Feed
from cardtui.server.lobby.outage import AWAY as STORE_AWAY
from cardtui.server.lobby.outage import Outage
from cardtui.server.lobby.room import Room, TableRequest
from cardtui.server.lobby.routes import Router
from cardtui.server.processes.analysis_pool import AnalysisPool
from cardtui.server.store import StoreDown
from cardtui.server.web.wheels import offline_system
from cardtui.v1 import (
    analysis_pb2,
    lobby_pb2,
    lobby_pb2_grpc,
    players_pb2,
    replay_pb2,
    sealed_pb2,
    table_pb2,
    table_pb2_grpc,
    tournament_pb2,
    tournament_pb2_grpc,
)

if TYPE_CHECKING:
    from cardtui.server.processes.workers import Workers

log = logging.getLogger("cardtui.service")
TOURNAMENTS_AT = "tournaments_at"
"""The store's note of where the room's tournaments run (the address of the process that leads them)."""
FELL_BEHIND = N_("This stream fell behind; resubscribe.")


def peer_of(context: grpc.aio.ServicerContext[Any, Any], router: Router | None = None) -> str:
    """Whose call this is, for the limits per address: the client's own address, also for a call
    another process of the room passed on (``routes``)."""
    return router.peer(context) if router is not None else str(context.peer())


def limit(limiter: RateLimiter, context: grpc.aio.ServicerContext[Any, Any], kind: str, sentence: str,
          router: Router | None = None) -> None:
    if not limiter.allow(peer_of(context, router), kind):
        raise ResourceExhausted(sentence)


def trying(limiter: RateLimiter, context: grpc.aio.ServicerContext[Any, Any], password: str, locked: bool,
           router: Router | None = None, code: str = "") -> None:
    """A password tried where one is asked costs the host a slow hash: so many a second per address.
    An invite's code that opens the lock (``code``) stands for the password, so it is tried at the
    same rate: guessing codes is no quicker than guessing passwords."""
    if (password or code) and locked:
        limit(limiter, context, "password", N_("This address has tried passwords too fast; wait a little."), router)


def game_info(name: str) -> lobby_pb2.GameInfo:
    rules = GAMES[name]
    return lobby_pb2.GameInfo(
        name=name, title=rules.title, min_players=rules.min_players, max_players=rules.max_players,
        player_counts=rules.player_counts, options=[wire.option_spec(s) for s in rules.option_specs],
        teams=rules.teams, bot_levels=rules.bot_levels, usual_players=rules.usual_players,
    )


class LobbyService(lobby_pb2_grpc.LobbyServicer):
    """The lobby. Where other processes drive tables too (``router``: a server's table workers,
    ``workers``; the hosts of one PostgreSQL store), a call about a table another process drives
    is passed on to that process (``routes``), and the lists gather every process's tables.
    Finished hands are analysed here, in the lobby's process (``analyst``), whichever process drove
    their table (``server.analysis``)."""

    def __init__(self, room: Room, limiter: RateLimiter, router: Router | None = None,
                 workers: Workers | None = None, analyst: AnalysisPool | None = None,
                 streams: StreamCounter | None = None) -> None:
        self.room = room
        self.limiter = limiter
        self.router = router
        self.workers = workers
        self.streams = streams or StreamCounter(limiter.limits)
        """Streams open per connection and address: the lobby's lists counted with the tables' (``--max-streams``)."""
        self.feed = Feed(room, router)
        """The room's list, followed while someone watches it (``WatchTables``)."""
        self.info = [game_info(name) for name in GAMES]
        self.replays = replays.Replays(room)
        self.analyses = Analyses(room, self.replays, analyst, router, limiter.limits.analyses_per_address)

    def _elsewhere(self, table_id: str) -> str | None:
        """The address of the process that drives ``table_id``, if that is not this one."""
        if self.router is None or table_id in self.room.tables:
            return None
        place = self.router.elsewhere(table_id)
        return None if place is None else place.address

    async def _listing(self, include_finished: bool) -> bytes:
        """The room's tables as a ``ListTablesResponse``, serialized: this process's, then the others'."""
        listing = self.room.listing(include_finished)
        if self.router is not None:
            listing += await self.router.listing(include_finished)
        return listing

    async def GetInfo(self, request: lobby_pb2.GetInfoRequest, context: Any) -> lobby_pb2.ServerInfo:
        tables = len(self.room.tables) if self.router is None else len(
            lobby_pb2.ListTablesResponse.FromString(await self._listing(False)).tables)
        said = request.client_version[:40]
        if said and said != __version__:  # a client of another version: the log tells the host who may need the page
            log.info("a client of cardtui %r connected from %s; this server runs %s", said, context.peer(), __version__)
        wheels = [wheel_url(page, __version__) for page in self.room.invites.where.pages]  # the page's (server.web)
        return lobby_pb2.ServerInfo(version=__version__, games=self.info, tables=tables,
                                    no_cuts=self.room.cut_window <= 0, client_wheels=wheels,
                                    offline_system=offline_system() if wheels else "")

    async def ListTables(  # type: ignore[override]  # answers a ListTablesResponse already serialized
        self, request: lobby_pb2.ListTablesRequest, context: Any
    ) -> bytes:
        return await self._listing(request.include_finished)

    async def WatchTables(  # type: ignore[override]  # yields TablesUpdate messages already serialized
        self, request: lobby_pb2.WatchTablesRequest, context: Any
    ) -> AsyncIterator[bytes]:
        peer = context.peer()
        refused = self.streams.open(peer)
        if refused is not None:
            raise ResourceExhausted(refused[0], n=refused[1])
        try:
            async for update in self.feed.watch(request.include_finished):
                yield update
        finally:
            self.streams.close(peer)

    async def CreateTable(self, request: lobby_pb2.CreateTableRequest, context: Any) -> lobby_pb2.CreatedTable:
        passed_on = self.router is not None and self.router.trusted(context)
        if not passed_on:  # counted once, by the lobby that took the call
            limit(self.limiter, context, "table", N_("This connection has opened tables too fast; wait a little."),
                  self.router)
        options = raw_options(request.options)
        if self.workers is not None and self.router is not None and not passed_on:
            worker = self.workers.pick()
            if worker is not None:  # a table worker drives it (none serving: this process does)
                created: lobby_pb2.CreatedTable = await self.router.pass_on(worker, "CreateTable", request, context)
                return created
        table, owner = self.room.create(TableRequest.of(request, options))
        return lobby_pb2.CreatedTable(table=wire.table_summary(table.summary()), owner_token=owner)

    async def JoinTable(self, request: lobby_pb2.JoinTableRequest, context: Any) -> lobby_pb2.JoinResponse:
        if (where := self._elsewhere(request.table_id)) is not None:
            joined: lobby_pb2.JoinResponse = await self.router.pass_on(  # type: ignore[union-attr]
                where, "JoinTable", request, context)
            return joined
        seat = request.seat if request.HasField("seat") else -1
        first = self.room.table(request.table_id).seq + 1 if request.table_id in self.room.tables else 0
        trying(self.limiter, context, request.password, self.room.locked(request.table_id), self.router,
               request.invite)
        if request.pledge and len(request.pledge) != SEED_BYTES:
            raise InvalidArgument("A pledge is {n} bytes: the first value of the seat's chain (docs/deal.md).",
                                  n=SEED_BYTES)
        token, grant = await self.room.join(request.table_id, request.name, seat, request.password,
                                            request.session, request.invite, bytes(request.pledge) or None,
                                            on_host=request.on_host, chosen=request.token)
        assert grant.seat is not None
        return lobby_pb2.JoinResponse(token=token, seat=grant.seat, table=wire.table_summary(grant.table.summary()),
                                     first_seq=first)

    async def Spectate(self, request: lobby_pb2.SpectateRequest, context: Any) -> lobby_pb2.JoinResponse:
        if (where := self._elsewhere(request.table_id)) is not None:
            watching: lobby_pb2.JoinResponse = await self.router.pass_on(  # type: ignore[union-attr]
                where, "Spectate", request, context)
            return watching
        trying(self.limiter, context, request.password, self.room.locked(request.table_id), self.router,
               request.invite)
        token, grant = await self.room.spectate(request.table_id, request.name, request.password, request.session,
                                                request.invite)
        return lobby_pb2.JoinResponse(token=token, seat=-1, table=wire.table_summary(grant.table.summary()),
                                      first_seq=grant.table.seq + 1)

    async def Leave(self, request: lobby_pb2.LeaveRequest, context: Any) -> lobby_pb2.LeaveResponse:
        if self.router is not None and self.room.find(request.token) is None:
            place = self.router.token_place(request.token)
            if place is not None:
                left: lobby_pb2.LeaveResponse = await self.router.pass_on(place.address, "Leave", request, context)
                return left
        self.room.leave(request.token)
        return lobby_pb2.LeaveResponse()

    async def Locate(self, request: lobby_pb2.LocateRequest, context: Any) -> lobby_pb2.LocateResponse:
        if self.room.find(request.token) is not None:
            return lobby_pb2.LocateResponse(address="")
        where = self.router.locate(request.token) if self.router is not None else None
        if where is None:
            raise PermissionDenied("That token does not open any seat or table here.")
        return lobby_pb2.LocateResponse(address=where)

    async def CloseTable(self, request: lobby_pb2.CloseTableRequest, context: Any) -> lobby_pb2.CloseTableResponse:
        if (where := self._elsewhere(request.table_id)) is not None:
            closed: lobby_pb2.CloseTableResponse = await self.router.pass_on(  # type: ignore[union-attr]
                where, "CloseTable", request, context)
            return closed
        self.room.close_table(request.table_id, request.owner_token)
        return lobby_pb2.CloseTableResponse()

    # -- invites (server.invites) ---------------------------------------------------------------
    async def Invite(self, request: lobby_pb2.InviteRequest, context: Any) -> lobby_pb2.InviteResponse:
        invites = self.room.invites
        if not request.table_id:
            return invites_wire.response(invites.where)
        if (where := self._elsewhere(request.table_id)) is not None:
            made: lobby_pb2.InviteResponse = await self.router.pass_on(  # type: ignore[union-attr]
                where, "Invite", request, context)
            return invites_wire.response(invites.where, made.code, made.table, made.opens_lock)  # the room's addresses
        table, code, opens = invites.invite(request.table_id, request.with_password, request.owner_token)
        return invites_wire.response(invites.where, code, wire.table_summary(table.summary()), opens)

    async def OpenInvite(self, request: lobby_pb2.OpenInviteRequest, context: Any) -> lobby_pb2.InviteResponse:
        passed_on = self.router is not None and self.router.trusted(context)
        if not passed_on:  # counted once, by the lobby that took the call
            limit(self.limiter, context, "password", N_("This address has tried codes too fast; wait a little."),
                  self.router)
        invites = self.room.invites
        if self.router is not None and not passed_on:  # a table a worker or another host drives
            table_id = invites.find(request.code, [t.id for t in await self.router.tables(False)])
            if table_id is not None and (where := self._elsewhere(table_id)) is not None:
                made: lobby_pb2.InviteResponse = await self.router.pass_on(where, "OpenInvite", request, context)
                return invites_wire.response(invites.where, made.code, made.table, made.opens_lock)
        table, opens = invites.open(request.code)
        return invites_wire.response(invites.where, invites.code(table.id, opens), wire.table_summary(table.summary()),
                                     opens)

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
        if request.table_id and (where := self._elsewhere(request.table_id)) is not None:
            card: players_pb2.PlayerCardResponse = await self.router.pass_on(  # type: ignore[union-attr]
                where, "PlayerCard", request, context)
            return card
        if request.table_id:
            if not request.HasField("seat"):
                raise InvalidArgument("A player card at a table needs the seat.")
            return self.room.records.seat_card(self.room.table(request.table_id), request.seat)
        if not request.name.strip():
            raise InvalidArgument("Whose card? Give a name, or a table and a seat.")
        return self.room.records.card(request.name)

    async def ListHands(self, request: replay_pb2.ListHandsRequest, context: Any) -> replay_pb2.ListHandsResponse:
        if (where := self._elsewhere(request.table_id)) is not None:
            hands: replay_pb2.ListHandsResponse = await self.router.pass_on(  # type: ignore[union-attr]
                where, "ListHands", request, context)
            return hands
        trying(self.limiter, context, request.password, self.room.locked(request.table_id), self.router)
        return await self.replays.hands(request.table_id, request.token, request.password)

    async def Replay(
        self, request: replay_pb2.ReplayRequest, context: Any
    ) -> AsyncIterator[replay_pb2.ReplayStep]:
        if (where := self._elsewhere(request.table_id)) is not None:
            async for passed in self.router.pass_on_stream(  # type: ignore[union-attr]
                    where, "Replay", request, context):
                yield passed
            return
        limit(self.limiter, context, "replay", N_("This connection has asked for replays too fast; wait a little."),
              self.router)
        trying(self.limiter, context, request.password, self.room.locked(request.table_id), self.router)
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
        # Analysed here, in the lobby's process, whichever process drives the table (``server.analysis``).
        limit(self.limiter, context, "replay", N_("This connection has asked for replays too fast; wait a little."),
              self.router)
        trying(self.limiter, context, request.password, self.room.locked(request.table_id), self.router)
        seat = request.seat if request.HasField("seat") else None
        async for update in self.analyses.analyze(request.table_id, request.hand, request.token, request.password,
                                                  seat, request.when_idle, request.match,
                                                  address(peer_of(context, self.router))):
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
            table.unsubscribe(sub)
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

    async def Seal(self, request: sealed_pb2.SealRequest, context: Any) -> sealed_pb2.SealResponse:
        limit(self.limiter, context, "act", N_("Too many actions from this connection; slow down."))
        table, seat = self.room.seat_grant(request.token)
        step, said = sealed_wire.step_of(request, seat), sealed_wire.said(request)
        if table.sealed is not None and step.kind in ("shuffle", "proofs"):  # checked in a thread, the loop free
            return sealed_pb2.SealResponse(seq=await table.sealed.seal_apart(  # to hand the deal's keys on meanwhile
                seat, request.hand, step, said, lambda: self.room.seat_grant(request.token) == (table, seat)))
        return sealed_pb2.SealResponse(seq=table.seal(seat, request.hand, step, said))

    async def Chat(self, request: table_pb2.ChatRequest, context: Any) -> table_pb2.ChatResponse:
        limit(self.limiter, context, "chat", N_("Too many chat lines from this connection; slow down."))
        grant = self.room.grant(request.token)
        if request.phrase:  # a quick phrase: said in each reader's language, under the same rules
            phrase = wire.enum_value(table_pb2.Phrase.DESCRIPTOR, request.phrase)
            if not phrase or request.text:
                raise InvalidArgument("A quick phrase is one of the list, sent without text.")
            grant.table.chat(grant.seat, grant.name, "", phrase)
            return table_pb2.ChatResponse()
        try:
            text = clean_chat(request.text)
        except BadText as e:
            raise InvalidArgument(e.template, **e.args_) from None
        grant.table.chat(grant.seat, grant.name, text)
        return table_pb2.ChatResponse()

    async def Rematch(self, request: table_pb2.RematchRequest, context: Any) -> table_pb2.RematchResponse:
        limit(self.limiter, context, "act", N_("Too many actions from this connection; slow down."))
        table, seat = self.room.seat_grant(request.token)
        choice = wire.enum_value(table_pb2.RematchChoice.DESCRIPTOR, request.choice)
        if not choice:
            raise InvalidArgument("Say the same seats or the seats swapped.")
        table.rematch(seat, Choice(choice))
        return table_pb2.RematchResponse()

    async def Hint(self, request: table_pb2.HintRequest, context: Any) -> table_pb2.HintResponse:
        limit(self.limiter, context, "act", N_("Too many actions from this connection; slow down."))
        table, seat = self.room.seat_grant(request.token)
        return hints.hint(table, seat, request.card)


def raw_options(options: Any) -> dict[str, Any]:
    """A request's options map as the engine reads them; a value left empty is refused."""
    out = {}
    for key, value in options.items():
        raw = wire.raw_option(value)
        if raw is None:
            raise InvalidArgument("The option {option} has no value.", option=repr(key[:40]))
        out[key] = raw
    return out


def led(method: Callable[..., Any]) -> Callable[..., Any]:
    """A tournament call, answered by the process that runs the room's tournaments: passed on, as
    it is, by every other (another host of the room, where several share a database)."""
    name = method.__name__
    if inspect.isasyncgenfunction(method):
        async def stream(self: TournamentService, request: Any, context: Any) -> AsyncIterator[Any]:
            if self.tournaments is None:
                async for reply in self._router().pass_on_stream(self._leader(), name, request, context,
                                                                 tournament_pb2_grpc.TournamentsStub):
                    yield reply
                return
            async for reply in method(self, request, context):
                yield reply

        return stream

    async def unary(self: TournamentService, request: Any, context: Any) -> Any:
        if self.tournaments is None:
            return await self._router().pass_on(self._leader(), name, request, context,
                                                tournament_pb2_grpc.TournamentsStub)
        return await method(self, request, context)

    return unary


class TournamentService(tournament_pb2_grpc.TournamentsServicer):
    """Tournaments (tournament.proto): thin, as the lobby is; ``server.tournaments`` runs them.

    One process runs the room's tournaments (``tournaments``); where several hosts share a
    database, the others pass each call on to it (``led``), and one of them takes them on if it
    goes (``server.takeover``)."""

    def __init__(self, tournaments: Tournaments | None, limiter: RateLimiter, streams: StreamCounter,
                 router: Router | None = None) -> None:
        self.tournaments = tournaments
        self.limiter = limiter
        self.streams = streams
        """Counted with the tables' streams: one limit per connection and per address for both."""
        self.router = router

    def _router(self) -> Router:
        assert self.router is not None
        return self.router

    @property
    def _here(self) -> Tournaments:
        assert self.tournaments is not None  # ``led`` passed the call on otherwise
        return self.tournaments

    def _leader(self) -> str:
        where = self._router().store.meta.get(TOURNAMENTS_AT)
        if where is None or where == self._router().store.owners.address:
            raise Unavailable("The tournaments are being brought back; try again in a moment.")
        return where

    @led
    async def CreateTournament(
        self, request: tournament_pb2.CreateTournamentRequest, context: Any
    ) -> tournament_pb2.CreatedTournament:
        limit(self.limiter, context, "table", N_("This connection has opened tables too fast; wait a little."))
        t, owner = self._here.create(request, raw_options(request.options))
        return tournament_pb2.CreatedTournament(tournament=self._here.summary(t), owner_token=owner)

    @led
    async def ListTournaments(
        self, request: tournament_pb2.ListTournamentsRequest, context: Any
    ) -> tournament_pb2.ListTournamentsResponse:
        return tournament_pb2.ListTournamentsResponse(tournaments=self._here.listing(request.include_finished))

    @led
    async def Register(self, request: tournament_pb2.RegisterRequest, context: Any) -> tournament_pb2.RegisterResponse:
        t = self._here.all.get(request.tournament_id)
        trying(self.limiter, context, request.password, t is None or bool(t.settings.password))
        entry = await self._here.register(request.tournament_id, request.session, request.password,
                                                request.team)
        t = self._here.get(request.tournament_id)
        return tournament_pb2.RegisterResponse(entry=entry, tournament=self._here.summary(t))

    @led
    async def Unregister(
        self, request: tournament_pb2.UnregisterRequest, context: Any
    ) -> tournament_pb2.UnregisterResponse:
        self._here.unregister(request.tournament_id, request.session)
        return tournament_pb2.UnregisterResponse()

    @led
    async def StartTournament(
        self, request: tournament_pb2.OwnerRequest, context: Any
    ) -> tournament_pb2.TournamentState:
        return self._here.state(self._here.start_now(request.tournament_id, request.owner_token))

    @led
    async def CancelTournament(
        self, request: tournament_pb2.OwnerRequest, context: Any
    ) -> tournament_pb2.TournamentState:
        return self._here.state(self._here.cancel(request.tournament_id, request.owner_token))

    @led
    async def GetTournament(
        self, request: tournament_pb2.TournamentRequest, context: Any
    ) -> tournament_pb2.TournamentState:
        return self._here.state(self._here.get(request.tournament_id))

    @led
    async def WatchTournament(
        self, request: tournament_pb2.TournamentRequest, context: Any
    ) -> AsyncIterator[tournament_pb2.TournamentState]:
        self._here.get(request.tournament_id)
        peer = context.peer()
        refused = self.streams.open(peer)
        if refused is not None:
            raise ResourceExhausted(refused[0], n=refused[1])
        try:
            async for state in self._here.watch(request.tournament_id):
                yield state
        finally:
            self.streams.close(peer)


def register(server: grpc.aio.Server, servicer: object, service: ServiceDescriptor, refusals: RefusalLog,
             outage: Outage | None = None) -> None:
    """Add a servicer whose requests are decoded here, and whose refusals become statuses here.

    The generated ``add_*Servicer_to_server`` decode in grpc's own code, which answers a
    broken request with a bare UNKNOWN; decoding inside the handler lets us say what is wrong.
    Every ``Refusal`` a servicer raises is answered with its status code and sentence: the one
    place errors map to codes. The store out of reach (``StoreDown``) is ``UNAVAILABLE``, said once
    (``outage``). Streams may yield, and calls return, messages already serialized (``bytes``).
    """
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
    for method in service.methods:
        request_type = GetMessageClass(method.input_type)
        reply_type = GetMessageClass(method.output_type)
        behaviour = getattr(servicer, method.name)
        if method.server_streaming:
            handlers[method.name] = grpc.unary_stream_rpc_method_handler(
                _streaming(behaviour, request_type, refusals, outage))
        else:
            handlers[method.name] = grpc.unary_unary_rpc_method_handler(
                _unary(behaviour, request_type, refusals, outage), response_serializer=_serializer(reply_type))
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, handlers),))


def _serializer(reply_type: Any) -> Callable[[Any], bytes]:
    """A reply's bytes: a message serialized, or bytes a servicer serialized itself (a lobby's list, made of
    entries kept serialized) as they are."""
    serialize = reply_type.SerializeToString

    def serialized(reply: Any) -> bytes:
        return reply if type(reply) is bytes else serialize(reply)

    return serialized


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


def _away(behaviour: Callable[..., Any], error: StoreDown, outage: Outage | None) -> Refusal:
    """The store out of reach under a call: the refusal it is answered with."""
    if outage is not None:
        outage.down(getattr(behaviour, "__name__", "a call"), error)
    return Unavailable(STORE_AWAY)


def _unary(behaviour: Callable[..., Any], request_type: Any, refusals: RefusalLog,
           outage: Outage | None = None) -> Callable[..., Any]:
    async def handle(raw: bytes, context: Any) -> Any:
        request = await _decode(raw, request_type, context)
        try:
            return await behaviour(request, context)
        except Refusal as e:
            await _refuse(context, e, refusals)
        except StoreDown as e:
            await _refuse(context, _away(behaviour, e, outage), refusals)

    return handle


def _streaming(behaviour: Callable[..., Any], request_type: Any, refusals: RefusalLog,
               outage: Outage | None = None) -> Callable[..., Any]:
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
        except StoreDown as e:
            await _refuse(context, _away(behaviour, e, outage), refusals)

    return handle
