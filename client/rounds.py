"""A player's tournament rounds, followed from anywhere in the client.

When a round opens with a table for the player, they are taken to it, wherever they are: the
lobby, the tournaments' list, a leaderboard, another table (which stays open under it). A
tournament's own screen used to do this only while it was in front, so an entrant looking at the
list missed their round. Each table is taken to once: one the player leaves stays left (``p`` on
the tournament's screen sits them again).

The tournaments followed are those the player is entered in: found when the client reaches the
lobby, then every ``LOOK_SECONDS`` (an entry made from another machine), and at once when this
client registers them (``Entered``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import grpc
from textual.message import Message

from cardtui.client.connection import Connection
from cardtui.i18n import _
from cardtui.v1 import tournament_pb2, tournament_pb2_grpc

LOOK_SECONDS = 30.0
"""How often the server's tournaments are looked through for an entry made elsewhere."""
RETRY_SECONDS = 2.0
"""After a tournament's stream drops (the server gone a moment), when it is followed again."""
OVER = (tournament_pb2.TOURNAMENT_STATUS_FINISHED, tournament_pb2.TOURNAMENT_STATUS_CANCELLED)


async def states(stub: tournament_pb2_grpc.TournamentsAsyncStub,
                 tournament_id: str) -> AsyncIterator[tournament_pb2.TournamentState]:
    """A tournament's state at every change, until it is over (its last state too); followed again after a drop,
    ``RETRY_SECONDS`` later; none once the server no longer has it."""
    while True:
        try:
            async for state in stub.WatchTournament(tournament_pb2.TournamentRequest(tournament_id=tournament_id)):
                yield state
                if state.summary.status in OVER:
                    return
            return
        except grpc.aio.AioRpcError as err:
            if err.code() == grpc.StatusCode.NOT_FOUND:
                return
        await asyncio.sleep(RETRY_SECONDS)


class Entered(Message):
    """This client registered the player for a tournament: follow its rounds from now."""

    def __init__(self, tournament_id: str) -> None:
        super().__init__()
        self.tournament_id = tournament_id


def entered(state: tournament_pb2.TournamentState, player: str) -> bool:
    return any(player in e.names for e in state.entries)


def my_table(state: tournament_pb2.TournamentState, player: str) -> tournament_pb2.TournamentTable | None:
    """The player's table of the round in play, while its match goes on."""
    entries = {e.entry for e in state.entries if player in e.names}
    return next((t for t in state.tables if t.round == state.summary.round and not t.done
                 and entries & set(t.entries)), None)


class Rounds:
    """Follows the tournaments one player is in, and takes them to each new table of theirs.

    ``take(table_id, round)`` takes the player to a table (the app opens it, unless it is open
    already); ``run(coroutine)`` runs a follower as the app's worker."""

    def __init__(self, conn: Connection, player: str, take: Callable[[str, int], Awaitable[None]],
                 run: Callable[[Awaitable[None]], object]) -> None:
        self.conn = conn
        self.player = player
        self.take = take
        self.run = run
        self.followed: set[str] = set()
        self.taken: set[str] = set()
        """Tables the player was taken to (each once)."""

    def stub(self) -> tournament_pb2_grpc.TournamentsAsyncStub:
        return tournament_pb2_grpc.TournamentsStub(self.conn.channel)

    async def look(self) -> None:
        """Follow every tournament not over that the player is entered in (those followed already stay)."""
        listed = await self.stub().ListTournaments(tournament_pb2.ListTournamentsRequest(), timeout=5)
        for summary in listed.tournaments:
            if summary.id in self.followed or summary.status in OVER:
                continue
            state = await self.stub().GetTournament(tournament_pb2.TournamentRequest(tournament_id=summary.id),
                                                    timeout=5)
            if entered(state, self.player):
                self.follow(summary.id)

    async def keep_looking(self) -> None:
        """``look`` now and every ``LOOK_SECONDS``, for as long as the client runs (a failed look waits)."""
        while True:
            with contextlib.suppress(grpc.aio.AioRpcError):
                await self.look()
            await asyncio.sleep(LOOK_SECONDS)

    def follow(self, tournament_id: str) -> None:
        if tournament_id not in self.followed:
            self.followed.add(tournament_id)
            self.run(self._watch(tournament_id))

    async def _watch(self, tournament_id: str) -> None:
        async for state in states(self.stub(), tournament_id):
            await self.arrived(state)

    async def arrived(self, state: tournament_pb2.TournamentState) -> None:
        mine = my_table(state, self.player)
        if mine is not None and mine.table_id not in self.taken:
            self.taken.add(mine.table_id)
            await self.take(mine.table_id, mine.round)


async def rounds_of(conn: Connection, tournament_id: str) -> int | None:
    """How many rounds a tournament plays (None if the server cannot say now)."""
    try:
        state = await tournament_pb2_grpc.TournamentsStub(conn.channel).GetTournament(
            tournament_pb2.TournamentRequest(tournament_id=tournament_id), timeout=5)
    except (grpc.aio.AioRpcError, AttributeError):
        return None
    return state.summary.rounds or None


def ready(round_number: int) -> str:
    return _("Round {round}: your table is ready.").format(round=round_number)
