"""Tournaments over a real server: bots through three rounds on several tables, standings that the
stored hand histories alone give again, refusals, a person who drops mid-round, kill -9 mid-round."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import pytest_asyncio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from cardtui.engine.games import standing
from cardtui.engine.tournament import recompute
from cardtui.identity import challenge
from cardtui.server.app import Running, start
from cardtui.server.base.clock import ManualClock
from cardtui.server.base.limits import Limits
from cardtui.server.hands.tournaments import Tournaments
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, players_pb2, tournament_pb2, tournament_pb2_grpc
from tests import forked
from tests.conftest import Player
from tests.forked import Served
from tests.per_game import declared
from tests.waiting import eventually

FINISHED = tournament_pb2.TOURNAMENT_STATUS_FINISHED


async def sign_in(lobby: lobby_pb2_grpc.LobbyStub, name: str) -> players_pb2.ProveResponse:
    """A person with a key of their own, proved under ``name``: what registering needs."""
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    hello = await lobby.Hello(players_pb2.HelloRequest(name=name, public_key=public))
    signature = key.sign(challenge(hello.server_id, hello.nonce, name))
    return await lobby.Prove(players_pb2.ProveRequest(name=name, public_key=public, nonce=hello.nonce,
                                                      signature=signature))


@pytest_asyncio.fixture
async def quick(tmp_path: Path) -> AsyncIterator[Running]:
    """A server whose hands follow each other at once and whose deals wait for nobody."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.0, next_hand_delay=0.0, cut_window=0.0,
                          bot_workers=0)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


def request(**fields: Any) -> tournament_pb2.CreateTournamentRequest:
    fields.setdefault("game", "cacheta")
    fields.setdefault("rounds", 3)
    fields.setdefault("table_size", 4)
    fields.setdefault("max_entries", 8)
    fields.setdefault("bot_delay_ms", 0)
    fields.setdefault("bot_level", "easy")
    if fields["game"] == "cacheta":
        fields.setdefault("options", {"start_points": common_pb2.OptionValue(number=2)})
    return tournament_pb2.CreateTournamentRequest(**fields)


async def finished(
    stub: tournament_pb2_grpc.TournamentsStub, tid: str, timeout: float = 60
) -> tournament_pb2.TournamentState:
    last = None

    async def follow() -> None:
        nonlocal last
        async for state in stub.WatchTournament(tournament_pb2.TournamentRequest(tournament_id=tid)):
            last = state
    await asyncio.wait_for(follow(), timeout)
    assert last is not None
    return last


def rows(state: tournament_pb2.TournamentState) -> list[tuple[int, int, int, int, int]]:
    return [(r.place, r.entry, r.vp, r.gp, r.head_to_head) for r in state.standings]


def recomputed_rows(records: list[dict[str, Any]], tid: str) -> list[tuple[int, int, int, int, int]]:
    [again] = [r for r in recompute(records, standing) if r.id == tid]
    return [(s.place, s.entry, s.vp, s.gp, s.head_to_head) for s in again.standings]


DECLARED = declared()
"""Each game's rows, as its own tests declare them (tests/per_game.py)."""


@pytest.mark.parametrize(("game", "size", "entries"), [
    (game, tests.tournament.players, tests.entries) for game, tests in DECLARED.items()
])
async def test_a_whole_tournament_of_bots_whose_standings_the_histories_give_again(
    quick: Running, game: str, size: int, entries: int
) -> None:
    """Each game as its own tests declare it (tests/per_game.py): its tables, its entries, and the options that keep
    a match short, so that three rounds of bots take a second or two."""
    fields: dict[str, Any] = {"options": DECLARED[game].tournament.wire()}
    async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
        stub = tournament_pb2_grpc.TournamentsStub(ch)
        created = await stub.CreateTournament(request(game=game, table_size=size, max_entries=entries, bots_fill=True,
                                                      **fields))
        tid = created.tournament.id
        await stub.StartTournament(tournament_pb2.OwnerRequest(tournament_id=tid, owner_token=created.owner_token))
        state = await finished(stub, tid, timeout=120)
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        listed = await lobby.ListTables(lobby_pb2.ListTablesRequest(include_finished=True))
    assert state.summary.status == FINISHED and state.summary.round == 3
    per_table = {"truco_paulista": 2, "truco_argentino": 2}.get(game, size)
    assert len(state.tables) == 3 * (entries // per_table) and all(t.done for t in state.tables)
    assert sum(r.byes for r in state.standings) == 3 * (entries % per_table)
    if game == "truco_paulista":
        assert all(len(e.names) == 2 for e in state.entries), "pairs"
        assert sum(r.byes for r in state.standings) == 3, "one pair sits out each round"
        byes = {e for r in state.standings if r.byes for e in [r.entry]}
        assert len(byes) == 3, "never the same pair twice"
    ours = {t.table_id for t in state.tables}
    tables = [t for t in listed.tables if t.id in ours]
    assert len(tables) == len(ours) and all(t.tournament_id == tid for t in tables)
    assert {t.tournament_round for t in tables} == {1, 2, 3}
    # standings from the stored histories alone, worked out apart from the server's own reckoning
    records = [json.loads(line) for line in quick.store.hands.all(tournament=tid)]
    assert {r["table"] for r in records} == ours
    assert recomputed_rows(records, tid) == rows(state)
    assert sum(r.vp for r in state.standings) > 0
    assert [r.place for r in state.standings] == list(range(1, len(state.entries) + 1))
    meetings = [frozenset(p) for t in state.tables for p in [tuple(t.entries)]]
    if game == "cacheta":  # eight players, tables of four: round 2 and 3 still meet some again, fewest first
        assert len(meetings) == 6


async def test_refusals_say_why_and_change_nothing(quick: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
        stub = tournament_pb2_grpc.TournamentsStub(ch)
        for bad, words in [
            (request(rounds=0), "1 to 10 rounds"),
            (request(max_entries=200), "2 to 64 entries"),
            (request(game="poker"), "no game called"),
            (request(table_size=9), "played by"),
            (request(game="truco_paulista", table_size=4, max_entries=1), "2 to 64"),
            (request(options={"start_points": common_pb2.OptionValue(number=1000)}), "start_points"),
        ]:
            with pytest.raises(grpc.aio.AioRpcError) as e:
                await stub.CreateTournament(bad)
            assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert words in (e.value.details() or ""), e.value.details()
        listed = await stub.ListTournaments(tournament_pb2.ListTournamentsRequest(include_finished=True))
        assert not listed.tournaments
        created = await stub.CreateTournament(request(password="pw"))
        tid = created.tournament.id
        with pytest.raises(grpc.aio.AioRpcError) as e:
            await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, password="pw"))
        assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED and "key" in (e.value.details() or "")
        with pytest.raises(grpc.aio.AioRpcError) as e:
            await stub.StartTournament(tournament_pb2.OwnerRequest(tournament_id=tid, owner_token="nope"))
        assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED
        with pytest.raises(grpc.aio.AioRpcError) as e:
            await stub.StartTournament(tournament_pb2.OwnerRequest(tournament_id=tid, owner_token=created.owner_token))
        assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "Too few" in (e.value.details() or "")
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        me = await sign_in(lobby, "ana")
        with pytest.raises(grpc.aio.AioRpcError) as e:
            await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=me.session, password="x"))
        assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED
        await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=me.session, password="pw"))
        with pytest.raises(grpc.aio.AioRpcError) as e:
            await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=me.session, password="pw"))
        assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        got = await stub.GetTournament(tournament_pb2.TournamentRequest(tournament_id=tid))
        assert [list(e.names) for e in got.entries] == [["ana"]]
        await stub.Unregister(tournament_pb2.UnregisterRequest(tournament_id=tid, session=me.session))
        got = await stub.GetTournament(tournament_pb2.TournamentRequest(tournament_id=tid))
        assert not got.entries


async def test_a_person_who_drops_mid_round_is_played_by_a_bot_marked_and_scored(quick: Running) -> None:
    address = f"127.0.0.1:{quick.port}"
    async with grpc.aio.insecure_channel(address) as ch:
        stub = tournament_pb2_grpc.TournamentsStub(ch)
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        people = [await sign_in(lobby, name) for name in ("ana", "bia")]
        created = await stub.CreateTournament(request(rounds=1, max_entries=4, table_size=4, bots_fill=True,
                                                      bot_delay_ms=5, turn_seconds=3600))
        tid = created.tournament.id
        for p in people:
            await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=p.session))
        state = await stub.StartTournament(tournament_pb2.OwnerRequest(tournament_id=tid,
                                                                        owner_token=created.owner_token))
        [table] = state.tables
        live = quick.room.tables[table.table_id]
        assert live.match is None, "the match waits for its players to sit down (at most the turn timer)"
        # both sit down (their sessions hold their seats): the match starts; then they drop out
        joined = [await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table.table_id, session=p.session))
                  for p in people]
        streams = [Player(address, token=j.token, seat=j.seat) for j in joined]
        for stream in streams:  # at the table when the match is dealt: it is theirs
            stream.subscribe()
        assert joined[0].table.tournament_id == tid
        seat = live.seating[joined[0].seat]
        assert seat.player is not None and not seat.away
        await eventually(lambda: live.match is not None, "the match dealt once both sat down")
        assert live.match is not None and not live.match.match_over()
        for stream in streams:  # each has the table open, the hand dealt to them in play
            await stream.wait_for(lambda q: q.last_view is not None and q.last_view.hand >= 1)
        for j in joined:
            await lobby.Leave(lobby_pb2.LeaveRequest(token=j.token))
        for stream in streams:
            await stream.close()
        assert seat.away and seat.name == "ana", "her seat, played by a bot"
        listed = next(t for t in (await lobby.ListTables(lobby_pb2.ListTablesRequest())).tables
                      if t.id == table.table_id)
        held = listed.seats[joined[0].seat]
        assert held.taken and held.away and held.bot, "the lobby says it is hers, not open to a newcomer"
        # a stranger may watch but not sit
        with pytest.raises(grpc.aio.AioRpcError) as e:
            await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table.table_id, name="eve"))
        assert e.value.code() == grpc.StatusCode.PERMISSION_DENIED
        await lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table.table_id, name="eve"))
        state = await finished(stub, tid)
    names = {e.entry: list(e.names) for e in state.entries}
    marked = {names[r.entry][0]: r.bot_played for r in state.standings}
    assert marked["ana"] and marked["bia"], "both were played by a bot for part of the match"
    assert not any(marked[n] for n in marked if n.startswith("bot"))
    records = [json.loads(line) for line in quick.store.hands.all(tournament=tid)]
    assert recomputed_rows(records, tid) == rows(state)
    ana = quick.store.ratings.record(quick.room.players.session(people[0].session).player, "cacheta")
    assert ana is not None and ana.matches == 1, "the match counts for her rating as an ordinary one"


def serve(db: Path) -> tuple[Served, int]:
    """``cardtui serve`` as it starts by default (its table workers too), forked from a process that has loaded the
    package (``tests.forked``) rather than started afresh."""
    return forked.serve(["--port", "0", "--db", str(db), "--next-hand-delay", "0", "--log-level", "warning",
                         "--no-announce", "--bot-delay", "50", "--cut-ms", "0"])


async def test_kill_9_mid_round_resumes_with_nothing_lost_or_scored_twice(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    proc, port = serve(db)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
            stub = tournament_pb2_grpc.TournamentsStub(ch)
            created = await stub.CreateTournament(request(rounds=2, max_entries=8, bots_fill=True, bot_delay_ms=10,
                                                          options={"start_points": common_pb2.OptionValue(number=3)}))
            tid = created.tournament.id
            await stub.StartTournament(tournament_pb2.OwnerRequest(tournament_id=tid, owner_token=created.owner_token))
            before = None
            async for state in stub.WatchTournament(tournament_pb2.TournamentRequest(tournament_id=tid)):
                if any(t.hands >= 1 for t in state.tables) and not all(t.done for t in state.tables):
                    before = state
                    break
        assert before is not None
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    proc, port = serve(db)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
            stub = tournament_pb2_grpc.TournamentsStub(ch)
            back = await stub.GetTournament(tournament_pb2.TournamentRequest(tournament_id=tid))
            assert back.summary.status == tournament_pb2.TOURNAMENT_STATUS_PLAYING
            assert [t.table_id for t in back.tables][:2] == [t.table_id for t in before.tables][:2]
            assert all(a.hands >= b.hands for a, b in zip(back.tables, before.tables, strict=False))
            state = await finished(stub, tid, timeout=120)
    finally:
        proc.terminate()
        proc.wait()
    assert state.summary.round == 2 and len(state.tables) == 4 and all(t.done for t in state.tables)
    out = subprocess.run([sys.executable, "-m", "cardtui.cli", "history", "export", "--db", str(db),
                          "--tournament", tid], capture_output=True, text=True, check=True)
    records = [json.loads(line) for line in out.stdout.splitlines()]
    hands = [(r["table"], r["hand"]) for r in records]
    assert len(hands) == len(set(hands)), "no hand stored twice"
    assert sum(t.hands for t in state.tables) == len(records), "no hand lost"
    assert recomputed_rows(records, tid) == rows(state)
    assert sum(r.played for r in state.standings) == 8 * 2, "each entry scored once a round"
    # cardtui verify checks every deal of the tournament and prints the standings the histories give
    exported = tmp_path / "tournament.jsonl"
    exported.write_text(out.stdout, encoding="utf-8")
    verified = subprocess.run([sys.executable, "-m", "cardtui.cli", "verify", str(exported)], capture_output=True,
                              text=True)
    assert verified.returncode == 0, "\n".join(  # the hands that failed, not the many fair deals without a seed
        line for line in verified.stdout.splitlines() if "no player's seed went in" not in line)[-3000:]
    assert f"tournament {tid}, after round 2:" in verified.stdout
    names = {e.entry: " + ".join(e.names) for e in state.entries}
    printed = [line.split() for line in verified.stdout.splitlines()[-8:]]
    assert [(int(p[0]), " ".join(p[1:-3]), int(p[-3]), int(p[-2])) for p in printed] == [
        (r.place, names[r.entry], r.vp, r.gp) for r in state.standings]


async def test_partners_register_as_a_team_and_sit_facing_each_other(quick: Running) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
        stub = tournament_pb2_grpc.TournamentsStub(ch)
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        ana, bia, carl = [await sign_in(lobby, name) for name in ("ana", "bia", "carl")]
        created = await stub.CreateTournament(request(game="truco_paulista", rounds=1, table_size=4, max_entries=2,
                                                      turn_seconds=5))
        tid = created.tournament.id
        assert created.tournament.team_size == 2
        await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=ana.session, team="Rio"))
        await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=bia.session, team="rio"))
        with pytest.raises(grpc.aio.AioRpcError) as e:
            await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=carl.session,
                                                               team="\u200b\u200b"))
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=carl.session))
        got = await stub.GetTournament(tournament_pb2.TournamentRequest(tournament_id=tid))
        assert [(e.team, list(e.names)) for e in got.entries] == [("Rio", ["ana", "bia"]), ("carl", ["carl"])]
        assert got.summary.status == tournament_pb2.TOURNAMENT_STATUS_REGISTERING, "carl's partner is missing"
        state = await stub.StartTournament(tournament_pb2.OwnerRequest(tournament_id=tid,
                                                                        owner_token=created.owner_token))
        [table] = state.tables
        seating = quick.room.tables[table.table_id].seating
        teams = {s.name: seating.team(s.index) for s in seating.seats}
        assert teams["ana"] == teams["bia"] != teams["carl"] == teams["bot 1"], teams
        assert [s.bot for s in seating.seats].count(True) == 1


async def test_it_starts_when_full_or_at_its_time_and_is_cancelled_at_its_time_with_too_few(tmp_path: Path) -> None:
    clock = ManualClock()  # the time the tournaments start at is one the test moves past
    quick = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.0, next_hand_delay=0.0, cut_window=0.0,
                        bot_workers=0, clock=clock)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
            stub = tournament_pb2_grpc.TournamentsStub(ch)
            lobby = lobby_pb2_grpc.LobbyStub(ch)
            ana, bia = [await sign_in(lobby, name) for name in ("ana", "bia")]
            full = await stub.CreateTournament(request(game="cacho", table_size=2, max_entries=2, rounds=1))
            fid = full.tournament.id
            await stub.Register(tournament_pb2.RegisterRequest(tournament_id=fid, session=ana.session))
            got = await stub.GetTournament(tournament_pb2.TournamentRequest(tournament_id=fid))
            assert got.summary.status == tournament_pb2.TOURNAMENT_STATUS_REGISTERING
            await stub.Register(tournament_pb2.RegisterRequest(tournament_id=fid, session=bia.session))
            got = await stub.GetTournament(tournament_pb2.TournamentRequest(tournament_id=fid))
            assert got.summary.status == tournament_pb2.TOURNAMENT_STATUS_PLAYING and len(got.tables) == 1
            assert got.draw_seed and sorted(r.entry for r in got.standings) == [0, 1]
            soon = int(clock.wall()) + 1
            timed = await stub.CreateTournament(request(start_unix=soon, max_entries=4, bots_fill=True, rounds=1))
            empty = await stub.CreateTournament(request(start_unix=soon, max_entries=4, rounds=1))
            assert timed.tournament.start_unix == soon

            async def status_of() -> dict[str, int]:
                out = {}
                for created in (timed, empty):
                    asked = tournament_pb2.TournamentRequest(tournament_id=created.tournament.id)
                    out[created.tournament.id] = (await stub.GetTournament(asked)).summary.status
                return out

            await clock.advance(soon - clock.wall() - 0.01)  # not yet its time: both still take entries
            assert set((await status_of()).values()) == {tournament_pb2.TOURNAMENT_STATUS_REGISTERING}
            await clock.advance(0.02)  # its time
            statuses = await status_of()
            playing = (tournament_pb2.TOURNAMENT_STATUS_PLAYING, FINISHED)
            assert statuses[timed.tournament.id] in playing, "bots filled it"
            assert statuses[empty.tournament.id] == tournament_pb2.TOURNAMENT_STATUS_CANCELLED
            listed = await stub.ListTournaments(tournament_pb2.ListTournamentsRequest())
            assert empty.tournament.id not in {t.id for t in listed.tournaments}, "over: listed only when asked"
    finally:
        await quick.stop(grace=0.2)


async def test_watching_tournaments_counts_against_the_stream_limits(tmp_path: Path) -> None:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", limits=Limits(streams_per_connection=2))
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
            stub = tournament_pb2_grpc.TournamentsStub(ch)
            tid = (await stub.CreateTournament(request())).tournament.id
            watches = [stub.WatchTournament(tournament_pb2.TournamentRequest(tournament_id=tid)) for _ in range(2)]
            for w in watches:
                assert (await w.read()).summary.id == tid
            third = stub.WatchTournament(tournament_pb2.TournamentRequest(tournament_id=tid))
            with pytest.raises(grpc.aio.AioRpcError) as e:
                await third.read()
            assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            watches[0].cancel()
            tournaments = running.room.tournaments
            assert isinstance(tournaments, Tournaments)
            await eventually(lambda: len(tournaments._watchers[tid]) < 2, "the cancelled watch let go at the server")
            again = stub.WatchTournament(tournament_pb2.TournamentRequest(tournament_id=tid))
            assert (await again.read()).summary.id == tid, "a closed stream frees its place"
            with pytest.raises(grpc.aio.AioRpcError) as e:
                await stub.WatchTournament(tournament_pb2.TournamentRequest(tournament_id="nope")).read()
            assert e.value.code() == grpc.StatusCode.NOT_FOUND
    finally:
        await running.stop(grace=0.2)
