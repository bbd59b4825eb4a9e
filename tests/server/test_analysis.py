"""Lobby.Analyze on a real server: who may have which seat's analysis, a hand analysed once and kept,
the queue told to whoever waits, and a table that keeps playing while the pool works flat out."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
import pytest_asyncio

from cardtui.engine import analysis, match_chart
from cardtui.engine.bots.estimates import Unit
from cardtui.engine.games import get
from cardtui.server.app import Running, start
from cardtui.server.base import wire
from cardtui.server.base.limits import Limits
from cardtui.server.hands.analysis import seed_of as analysis_seed
from cardtui.server.processes import analysis_pool
from cardtui.v1 import analysis_pb2, lobby_pb2, lobby_pb2_grpc
from tests.conftest import Player, started
from tests.server.test_replays import refused, store_finished
from tests.waiting import eventually, eventually_sync


@pytest_asyncio.fixture
async def lobby(server: Running) -> AsyncIterator[lobby_pb2_grpc.LobbyStub]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        yield lobby_pb2_grpc.LobbyStub(channel)


def played(game: str, names: list[str], seed: int = 4) -> dict[str, Any]:
    """A real hand of ``game`` played by the easy bots, its seats named ``names``."""
    rules = get(game)
    rng = random.Random(seed)
    match, _ = rules.open({}, rules.seat_infos(names), seed)
    while not match.hand_over():
        seat = next(s for s in match.to_act() if match.legal_actions(s))
        match.apply(seat, match.bot_action(seat, rng, "easy"))
    record = match.history()
    assert record is not None
    return record


async def analyze(lobby: lobby_pb2_grpc.LobbyStub, table_id: str, hand: int, token: str = "", password: str = "",
                  seat: int | None = None) -> list[analysis_pb2.AnalyzeUpdate]:
    request = analysis_pb2.AnalyzeRequest(table_id=table_id, hand=hand, token=token, password=password)
    if seat is not None:
        request.seat = seat
    return [u async for u in lobby.Analyze(request)]


def strings(msg: Any) -> set[str]:
    """Every string anywhere in a message (a card is one: "6b")."""
    out: set[str] = set()
    for fd, value in msg.ListFields():
        for v in value if fd.is_repeated else [value]:
            if fd.type == fd.TYPE_MESSAGE:
                out |= strings(v)
            elif fd.type == fd.TYPE_STRING:
                out.add(v)
    return out


def unplayed(record: dict[str, Any], seat: int, step: int) -> set[str]:
    """The cards the other seats were dealt and had not yet played just before the replay's ``step``."""
    held = {c for s, cards in record["deal"].items() if int(s) != seat for c in cards}
    n = 0
    for entry in record["actions"]:
        if entry.get("seat") is not None:
            n += 1
            if n >= step:
                break
            held -= set(entry.get("cards", ()))
    return held


async def test_a_live_tables_analysis_goes_only_to_the_seats_holder(server: Running,
                                                                   lobby: lobby_pb2_grpc.LobbyStub) -> None:
    created = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="truco_argentino", seats=2, bots=0,
                                                                   bot_delay_ms=0))
    table_id = created.table.id
    address = f"127.0.0.1:{server.port}"
    ana = await Player(address).join(table_id, "ana")
    bob = await Player(address).join(table_id, "bob")
    watcher = await Player(address).spectate(table_id)
    table = await started(server, table_id)
    # A finished hand of this table, as the store keeps it (the table plays its hand in play meanwhile).
    names = ["", ""]
    names[ana.seat], names[bob.seat] = "ana", "bob"
    record = dict(played("truco_argentino", names), table=table_id, hand=900)
    server.store.hands.add_hand(table_id, record)
    ask = analysis_pb2.AnalyzeRequest
    said = await refused(lobby.Analyze(ask(table_id=table_id, hand=900)).read(), grpc.StatusCode.PERMISSION_DENIED)
    assert "holder" in said
    said = await refused(lobby.Analyze(ask(table_id=table_id, hand=900, token=watcher.token)).read(),
                         grpc.StatusCode.PERMISSION_DENIED)
    assert "Spectators" in said
    said = await refused(lobby.Analyze(ask(table_id=table_id, hand=900, token=bob.token, seat=ana.seat)).read(),
                         grpc.StatusCode.PERMISSION_DENIED)
    assert "holder" in said
    # A seat the table does not have is a request malformed, whoever asks (analysis.proto): not a refusal.
    for nowhere in (2, 7, -1):
        said = await refused(lobby.Analyze(ask(table_id=table_id, hand=900, token=bob.token, seat=nowhere)).read(),
                             grpc.StatusCode.INVALID_ARGUMENT)
        assert f"no seat {nowhere}" in said
    said = await refused(lobby.Analyze(ask(table_id=table_id, hand=table.in_play, token=ana.token)).read(),
                         grpc.StatusCode.FAILED_PRECONDITION)
    assert "still being played" in said
    await refused(lobby.Analyze(ask(table_id=table_id, hand=901, token=ana.token)).read(), grpc.StatusCode.NOT_FOUND)
    assert server.store.hands.analyses(table_id, table.in_play) == {}, "nothing computed for the hand in play"
    # Ana gets her own decisions, judged; nothing of bob's, and bob's seat is not analysed for her.
    updates = await analyze(lobby, table_id, 900, ana.token)
    assert updates[-1].WhichOneof("update") == "analysis"
    assert any(u.WhichOneof("update") == "progress" for u in updates[:-1])
    mine = updates[-1].analysis
    assert list(mine.seats) == [ana.seat] and mine.unit == analysis_pb2.ANALYSIS_UNIT_MATCH
    expected = analysis.analyse(record, seed=0, seats=[ana.seat], budget=analysis.SCREEN)
    assert [m.step for m in mine.moments] == [m.step for m in expected.moments] and mine.moments
    assert all(m.seat == ana.seat and len(m.choices) > 1 for m in mine.moments)
    assert [a.seat for a in mine.accuracy] == [ana.seat]
    assert set(server.store.hands.analyses(table_id, 900)) == {ana.seat}
    # Each decision comes with the table as ana saw it then (the drill draws it): her own view, the very one the
    # engine gives her seat at that step, so never a card of bob's she could not see.
    seen = {p.step: p.view for p in analysis.positions(record) if p.seat == ana.seat}
    for m in mine.moments:
        assert m.view.you == ana.seat and not m.view.legal and not m.view.deadline_ms
        assert m.view == wire.view_message(seen[m.step], seats=m.view.seats)
        assert [s.name for s in m.view.seats] == names  # each seat named as it was held then
        leaked = strings(m.view) & unplayed(record, ana.seat, m.step)
        assert not leaked, f"step {m.step}: bob's {sorted(leaked)} in ana's view"
    # Analysed once: asked again, it comes from the store at once.
    again = await analyze(lobby, table_id, 900, ana.token)
    assert [u.WhichOneof("update") for u in again] == ["analysis"] and again[0].analysis == mine
    # Her match: her seat alone, from what is kept; bob's asked for with her token is refused.
    request = analysis_pb2.AnalyzeRequest(table_id=table_id, hand=900, token=ana.token, match=True)
    summed = [u async for u in lobby.Analyze(request)][-1].match
    assert list(summed.hands) == [900] and [a.seat for a in summed.accuracy] == [ana.seat]
    assert all(w.moment.seat == ana.seat for w in summed.worst)
    assert all(w.moment.view == next(m.view for m in mine.moments if m.step == w.moment.step)
               for w in summed.worst), "each worst moment on the board as ana saw it"
    request = analysis_pb2.AnalyzeRequest(table_id=table_id, hand=900, token=ana.token, seat=bob.seat, match=True)
    await refused(lobby.Analyze(request).read(), grpc.StatusCode.PERMISSION_DENIED)
    assert set(server.store.hands.analyses(table_id, 900)) == {ana.seat}
    for p in (ana, bob, watcher):
        await p.close()


async def test_a_finished_tables_hands_are_analysed_for_anyone_who_may_replay_them(
        server: Running, lobby: lobby_pb2_grpc.LobbyStub) -> None:
    record = played("cacho", ["ana", "bob", "cy"])
    store_finished(server, "done", record)
    store_finished(server, "secret", record, private=True)
    updates = await analyze(lobby, "done", 1)
    whole = updates[-1].analysis
    assert list(whole.seats) == [0, 1, 2] and whole.unit == analysis_pb2.ANALYSIS_UNIT_CHIPS
    assert {m.seat for m in whole.moments} <= {0, 1, 2} and whole.moments
    assert [m.step for m in whole.moments] == sorted(m.step for m in whole.moments)
    for m in whole.moments:  # each choice says what it would have been called (the drill reads it)
        labels = {c.action.SerializeToString(): c.label for c in m.choices}
        assert labels[m.chosen.SerializeToString()] == m.label
        assert labels[m.best.SerializeToString()] == analysis_pb2.ANALYSIS_LABEL_BEST
    assert all(m.view.you == m.seat and m.view.WhichOneof("game") == "cacho" for m in whole.moments)
    one = (await analyze(lobby, "done", 1, seat=1))[-1].analysis
    assert list(one.seats) == [1] and [m for m in whole.moments if m.seat == 1] == list(one.moments)
    said = await refused(lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="secret", hand=1)).read(),
                         grpc.StatusCode.PERMISSION_DENIED)
    assert "private" in said
    await refused(lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="done", hand=1, seat=7)).read(),
                  grpc.StatusCode.INVALID_ARGUMENT)
    await refused(lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="nope", hand=1)).read(),
                  grpc.StatusCode.NOT_FOUND)


# -- the pool never slows a table ------------------------------------------------------------------
def slow(record: str, seed: int, seats: tuple[int, ...], part: int, parts: int,
         progress: Callable[[int, int], None]) -> str:
    """A fake analysis that keeps its core busy until the test lets it go (a file appears)."""
    data = json.loads(record)
    progress(0, 1)
    spins = 0
    while not os.path.exists(data["release"]):
        spins += sum(i * i for i in range(2000)) & 1
    progress(1, 1)
    return json.dumps(analysis.to_json(analysis.HandAnalysis(
        data["game"], data["table"], int(data["hand"]), 0, Unit.CHIPS, 3.0, seed, 8.0, seats, ())))


async def rest(call: Any) -> list[analysis_pb2.AnalyzeUpdate]:
    out = []
    while (update := await call.read()) is not grpc.aio.EOF:
        out.append(update)
    return out


@pytest_asyncio.fixture
async def slow_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Running]:
    monkeypatch.setattr(analysis_pool, "pool", lambda workers: analysis_pool.AnalysisPool(1, job=slow))
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


async def test_tables_play_on_while_the_pool_analyses_and_a_second_job_is_told_it_waits(
        slow_server: Running, tmp_path: Path) -> None:
    release = tmp_path / "release"
    record = played("cacho", ["ana", "bob", "cy"])
    for table_id in ("one", "two"):
        store_finished(slow_server, table_id, dict(record, release=str(release)))
    created_tables = []
    async with grpc.aio.insecure_channel(f"127.0.0.1:{slow_server.port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        first = lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="one", hand=1))
        assert (await first.read()).WhichOneof("update") == "progress"  # working: its core is busy now
        second = lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="two", hand=1))
        queued = await second.read()
        assert queued.WhichOneof("update") == "queued" and queued.queued == 0
        # Meanwhile a table of bots plays hand after hand: the work is not on the loop.
        created = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=3, bots=3,
                                                                       bot_delay_ms=0))
        created_tables.append(created.table.id)
        await started(slow_server, created.table.id)
        await eventually(lambda: slow_server.store.hands.count_hands(created.table.id) >= 3,
                         "three hands of bots while the pool works")
        assert slow_server.store.hands.analyses("one", 1) == {}, "the job is still at work"
        release.write_text("go")
        assert (await rest(first))[-1].WhichOneof("update") == "analysis"
        assert (await rest(second))[-1].WhichOneof("update") == "analysis"
        assert set(slow_server.store.hands.analyses("two", 1)) == {0, 1, 2}


# -- asked with nobody asking: only what is cheap, only while a worker is free -----------------------
async def test_a_summarys_request_analyses_a_cheap_game_when_a_worker_is_free_and_defers_the_rest(
        server: Running, lobby: lobby_pb2_grpc.LobbyStub) -> None:
    store_finished(server, "cacho", played("cacho", ["ana", "bob", "cy"]))
    store_finished(server, "pifpaf", played("pifpaf", ["ana", "bob", "cy"]))
    ask = analysis_pb2.AnalyzeRequest
    cheap = [u async for u in lobby.Analyze(ask(table_id="cacho", hand=1, seat=0, when_idle=True))]
    assert cheap[-1].WhichOneof("update") == "analysis" and list(cheap[-1].analysis.seats) == [0]
    dear = [u async for u in lobby.Analyze(ask(table_id="pifpaf", hand=1, seat=0, when_idle=True))]
    assert [u.WhichOneof("update") for u in dear] == ["deferred"]
    assert server.store.hands.analyses("pifpaf", 1) == {}, "nothing analysed, nothing queued"
    assert server.analyst is not None and server.analyst.idle
    # Kept analyses are given either way: asked for, then asked for again with nobody asking.
    asked = [u async for u in lobby.Analyze(ask(table_id="pifpaf", hand=1, seat=0))]
    assert asked[-1].WhichOneof("update") == "analysis"
    again = [u async for u in lobby.Analyze(ask(table_id="pifpaf", hand=1, seat=0, when_idle=True))]
    assert [u.WhichOneof("update") for u in again] == ["analysis"] and again[0].analysis == asked[-1].analysis


async def test_a_summarys_request_waits_for_nobody(slow_server: Running, tmp_path: Path) -> None:
    """With the pool's one worker at work, a summary's request is deferred at once (a request someone
    makes is queued)."""
    release = tmp_path / "release"
    record = dict(played("cacho", ["ana", "bob", "cy"]), release=str(release))
    for table_id in ("one", "two"):
        store_finished(slow_server, table_id, record)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{slow_server.port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        first = lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="one", hand=1))
        assert (await first.read()).WhichOneof("update") == "progress"
        idle = [u async for u in lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="two", hand=1, when_idle=True))]
        assert [u.WhichOneof("update") for u in idle] == ["deferred"]
        assert slow_server.analyst is not None and slow_server.analyst.waiting == 0
        release.write_text("go")
        assert (await rest(first))[-1].WhichOneof("update") == "analysis"


# -- a match summed up ---------------------------------------------------------------------------
async def test_a_match_is_summed_up_over_its_hands_for_whoever_may_have_them(
        server: Running, lobby: lobby_pb2_grpc.LobbyStub) -> None:
    hands = [(1, 1, 4), (2, 1, 5), (3, 1, 6), (4, 2, 7)]  # (hand, match, seed): the fourth begins match 2
    server.store.tables.add_table("m", "truco_argentino", "rigged", {"game": "truco_argentino", "name": "rigged"})
    records = {}
    for hand, match, seed in hands:
        records[hand] = dict(played("truco_argentino", ["ana", "bob"], seed), table="m", hand=hand, match=match)
        server.store.hands.add_hand("m", records[hand])
    server.store.tables.finish("m")
    updates = [u async for u in lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="m", hand=2, match=True))]
    summed = updates[-1].match
    assert updates[-1].WhichOneof("update") == "match" and list(summed.hands) == [1, 2, 3] and summed.match == 1
    places = [(u.progress.hand, u.progress.hands) for u in updates if u.WhichOneof("update") == "progress"]
    assert places and {h for _, h in places} == {3} and sorted({p for p, _ in places}) == [1, 2, 3]
    # The same figures as the engine gives the same three hands, each seat's and the worst moments.
    seats, worst = analysis.summary([analysis.analyse(records[h], seed=analysis_seed("m", h)) for h in (1, 2, 3)])
    assert [(a.seat, a.decisions) for a in summed.accuracy] == [(s.seat, s.decisions) for s in seats]
    assert [a.accuracy for a in summed.accuracy] == pytest.approx([s.accuracy for s in seats])
    assert [(w.hand, w.moment.step) for w in summed.worst] == [(w.hand, w.moment.step) for w in worst]
    assert [w.moment.points for w in summed.worst] == sorted((w.moment.points for w in summed.worst), reverse=True)
    for w in summed.worst:  # each on the board as its seat saw it then, in its own hand
        seen = next(p.view for p in analysis.positions(records[w.hand]) if p.step == w.moment.step)
        assert w.moment.view == wire.view_message(seen, seats=w.moment.view.seats)
        assert w.moment.view.you == w.moment.seat
    # Each seat's match drawn hand by hand, the engine's figures: before the first hand, then after each.
    chart = match_chart.chart([records[h] for h in (1, 2, 3)], [0, 1])
    assert chart is not None and [c.seat for c in summed.charts] == [0, 1]
    for sent, made in zip(summed.charts, chart.seats, strict=True):
        assert sent.unit == analysis_pb2.ANALYSIS_UNIT_MATCH and sent.even == 0.5
        assert [(p.hand, p.held) for p in sent.points] == [(p.hand, p.held) for p in made.points]
        assert [p.hand for p in sent.points] == [0, 1, 2, 3]
        assert [p.value for p in sent.points] == pytest.approx([p.value for p in made.points])
    # One seat only; and the last match by hand 0.
    one = [u async for u in lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="m", hand=1, seat=1, match=True))]
    assert [a.seat for a in one[-1].match.accuracy] == [1] and all(w.moment.seat == 1 for w in one[-1].match.worst)
    assert [c.seat for c in one[-1].match.charts] == [1]
    last = [u async for u in lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="m", match=True))]
    assert list(last[-1].match.hands) == [4] and last[-1].match.match == 2


async def test_a_caller_who_leaves_mid_analysis_leaves_nothing_waiting_behind(
        slow_server: Running, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    release = tmp_path / "release"
    store_finished(slow_server, "one", dict(played("cacho", ["ana", "bob", "cy"]), release=str(release)))
    pool = slow_server.analyst
    assert pool is not None
    async with grpc.aio.insecure_channel(f"127.0.0.1:{slow_server.port}") as channel:
        call = lobby_pb2_grpc.LobbyStub(channel).Analyze(analysis_pb2.AnalyzeRequest(table_id="one", hand=1))
        assert (await call.read()).WhichOneof("update") == "progress"
        call.cancel()
        await eventually(lambda: not any(job.listeners for job in pool._running.values()),
                         "the server has let the caller go")
    gc.collect()
    await asyncio.sleep(0)
    assert "Task was destroyed" not in caplog.text
    release.write_text("go")


async def test_a_worker_that_dies_mid_analysis_is_told_and_the_hand_asked_again_is_analysed(
        slow_server: Running, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A worker killed under an analysis (the system's memory killer, a host's stray kill): the one waiting is
    told so in a sentence (UNAVAILABLE: ask again), nothing is stored, nothing unread is logged, and the same
    hand asked again starts new workers and is analysed."""
    import signal

    release = tmp_path / "release"
    store_finished(slow_server, "one", dict(played("cacho", ["ana", "bob", "cy"]), release=str(release)))
    pool = slow_server.analyst
    assert pool is not None
    async with grpc.aio.insecure_channel(f"127.0.0.1:{slow_server.port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        call = lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="one", hand=1))
        assert (await call.read()).WhichOneof("update") == "progress"
        for pid in list(pool._pool._processes):
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(grpc.aio.AioRpcError) as err:
            while await call.read() is not grpc.aio.EOF:
                pass
        assert err.value.code() == grpc.StatusCode.UNAVAILABLE
        assert err.value.details() == "The analysis stopped before it was done; ask for it again."
        assert slow_server.store.hands.analyses("one", 1) == {}
        release.write_text("go")
        again = await rest(lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="one", hand=1)))
        assert again[-1].WhichOneof("update") == "analysis"
        assert set(slow_server.store.hands.analyses("one", 1)) == {0, 1, 2}
    gc.collect()
    await asyncio.sleep(0)
    assert "never retrieved" not in caplog.text


def slow_bytes(kept: Any) -> bytes:
    """The wire message of an analysis, made only once the test lets it go (a file appears; at most the tests'
    patience)."""
    import dataclasses

    from cardtui.server.hands.analysis import message

    try:
        eventually_sync(lambda: os.path.exists(kept.record["built"]), "the test lets the message be made")
    except AssertionError:  # never let go: as if made before the tables could play on
        return message(dataclasses.replace(kept.judged(), table="never let go"), kept.record).SerializeToString()
    return message(kept.judged(), kept.record).SerializeToString()


async def test_an_analysis_is_put_in_its_message_off_the_tables_loop(
        slow_server: Running, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its message (each decision's view, the hand replayed: 10 to 20 ms for a Pif Paf hand) is made by the
    pool's builder process: while it is being made, a table of bots plays on."""
    from cardtui.server.hands import analysis as server_analysis

    monkeypatch.setattr(server_analysis, "message_bytes", slow_bytes)
    built, release = tmp_path / "built", tmp_path / "release"
    release.write_text("go")
    store_finished(slow_server, "one", dict(played("cacho", ["ana", "bob", "cy"]), release=str(release),
                                            built=str(built)))
    async with grpc.aio.insecure_channel(f"127.0.0.1:{slow_server.port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        call = lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="one", hand=1))
        await eventually(lambda: slow_server.store.hands.analyses("one", 1) != {},
                         "analysed and kept: its message is being made")
        created = await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=3, bots=3,
                                                                       bot_delay_ms=0))
        await started(slow_server, created.table.id)

        await eventually(lambda: slow_server.store.hands.count_hands(created.table.id) >= 3,
                         "three hands of bots while the message is made")
        built.write_text("go")
        last = (await rest(call))[-1]
        assert last.WhichOneof("update") == "analysis" and last.analysis.table_id == "one"
        assert list(last.analysis.seats) == [0, 1, 2]


# -- one guest cannot fill the pool ---------------------------------------------------------------------
async def test_an_address_has_at_most_its_share_of_the_pool_and_asking_and_leaving_fills_nothing(
        slow_server: Running, tmp_path: Path) -> None:
    """Finished tables' hands are anyone's to analyse: one address asking for hand after hand, or asking and
    leaving again and again, must not fill the pool's queue and leave everyone else told it is full."""
    release = tmp_path / "release"
    record = dict(played("cacho", ["ana", "bob", "cy"]), release=str(release))
    for n in range(12):
        store_finished(slow_server, f"t{n}", record)
    pool = slow_server.analyst
    assert pool is not None
    share = Limits().analyses_per_address
    async with grpc.aio.insecure_channel(f"127.0.0.1:{slow_server.port}") as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        # Asking and leaving: each leaves the queue as its asker does.
        for n in range(8):
            call = lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id=f"t{n}", hand=1))
            assert (await call.read()).WhichOneof("update") in ("progress", "queued")
            call.cancel()
        await eventually(lambda: not pool.waiting, "the queue drained of the askers who left")
        assert pool.running == 1, "the first is at work and goes on; the seven queued were dropped"
        # Asking and staying: a share, then a sentence.
        calls = []
        for n in range(8, 8 + share - 1):
            calls.append(lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id=f"t{n}", hand=1)))
            assert (await calls[-1].read()).WhichOneof("update") == "queued"
        over = lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="t11", hand=1))
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await over.read()
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert err.value.details() == (f"This address has {share} hands being analysed already; "
                                       "wait for one of them.")
        assert pool.waiting == share - 1, "the refused one queued nothing"
        again = lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="t8", hand=1))  # one it has asked for: joins it
        assert (await again.read()).WhichOneof("update") == "queued"
        release.write_text("go")
        for call in (*calls, again):
            assert (await rest(call))[-1].WhichOneof("update") == "analysis"
        assert (await rest(lobby.Analyze(analysis_pb2.AnalyzeRequest(table_id="t11", hand=1))))[-1].WhichOneof(
            "update") == "analysis"


async def test_a_summarys_request_from_an_address_at_its_share_is_deferred_not_refused(server: Running) -> None:
    """A hand's summary asks with nobody asking: where its address has its share of the pool already, the
    summary is told to wait for an ``a`` (deferred), not given a refusal; a request made by a person is refused
    with the sentence."""
    from cardtui.server.base.errors import ResourceExhausted
    from cardtui.server.hands.analysis import Analyses
    from cardtui.server.hands.replays import Replays

    store_finished(server, "cacho", played("cacho", ["ana", "bob", "cy"]))
    assert server.analyst is not None and server.analyst.idle
    full = Analyses(server.room, Replays(server.room), server.analyst, per_address=0)
    said = [u async for u in full.analyze("cacho", 1, "", "", 0, when_idle=True, address="10.0.0.5")]
    assert [u.WhichOneof("update") for u in said] == ["deferred"]
    with pytest.raises(ResourceExhausted, match="hands being analysed already"):
        _ = [u async for u in full.analyze("cacho", 1, "", "", 0, address="10.0.0.5")]
    assert server.store.hands.analyses("cacho", 1) == {}, "nothing analysed, nothing queued"
    room = Analyses(server.room, Replays(server.room), server.analyst, per_address=1)
    said = [u async for u in room.analyze("cacho", 1, "", "", 0, when_idle=True, address="10.0.0.5")]
    assert said[-1].WhichOneof("update") == "analysis"
