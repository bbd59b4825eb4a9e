"""A client written from the .proto files alone plays a hand of every game.

Its stubs are generated here, into a package of another name, and it imports nothing of the
project: what it can tell, any client in any language can tell. It sits at a table of bots,
acts from the legal actions its view carries, and reads every message: each view says its
game's family, each event says what it is.

A second one (``outside_client.py``) follows docs/client.md: it signs in with a key as §3
says, byte by byte, plays the guide's Cacho hand, checks its deal as docs/deal.md says, and
resumes its stream.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from cardtui.engine.games import BUILT_IN
from cardtui.server.app import start
from cardtui.server.base.limits import Limits

ROOT = Path(__file__).resolve().parent.parent

CLIENT = '''
import asyncio, random, sys
import grpc
from outside.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc


async def one_hand(channel, game, rng):
    lobby = lobby_pb2_grpc.LobbyStub(channel)
    tables = table_pb2_grpc.TableStub(channel)
    # A claim window stays its whole claim_ms at a table with a person: the shortest there is.
    windows = {"claim_ms": common_pb2.OptionValue(number=500)} if game.name in ("pifpaf", "cacheta") else {}
    made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(
        game=game.name, seats=game.player_counts[0], bots=game.player_counts[0] - 1, turn_seconds=600,
        bot_delay_ms=1, options=windows))
    joined = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=made.table.id, name="outsider"))
    families, kinds, acted = set(), set(), 0
    stream = tables.Subscribe(table_pb2.SubscribeRequest(token=joined.token))
    async for msg in stream:
        which = msg.WhichOneof("body")
        assert which in ("snapshot", "update"), which
        view = msg.snapshot.view if which == "snapshot" else msg.update.view
        for event in msg.update.events:
            body = event.WhichOneof("body")
            assert body, event
            kinds.add(body)
        if which == "update" and not msg.update.HasField("view"):
            continue  # the hand so far, told after a snapshot
        family = view.WhichOneof("game")
        assert family, view
        families.add(family)
        if view.hand_over:
            if acted:
                break
            continue  # the bots ended it before our turn came (a truco run from): play the next one
        if view.legal and joined.seat in view.to_act:
            action = common_pb2.Action()
            staying = [a for a in view.legal if a.type != common_pb2.ACTION_TYPE_FOLD]  # play the hand out
            action.CopyFrom(rng.choice(staying or list(view.legal)))
            if action.max_chips:  # a range: any amount in it
                action.chips = rng.randint(action.chips, action.max_chips)
                action.max_chips = 0
            try:
                await tables.Act(table_pb2.ActRequest(token=joined.token, action=action))
                acted += 1
            except grpc.aio.AioRpcError as err:  # the table moved on meanwhile: read on
                assert err.code() == grpc.StatusCode.FAILED_PRECONDITION, err
    stream.cancel()
    return families, kinds, acted


async def main(address):
    async with grpc.aio.insecure_channel(address) as channel:
        info = await lobby_pb2_grpc.LobbyStub(channel).GetInfo(lobby_pb2.GetInfoRequest())

        async def play(game):
            rng = random.Random(f"5 {game.name}")
            families, kinds, acted = await asyncio.wait_for(one_hand(channel, game, rng), 60)
            print(game.name, sorted(families), len(kinds), acted, "ended" if "hand_ended" in kinds else "")

        # Each game at a table of its own, all at once: a rummy hand waits out every claim window (half a second
        # each, a person being at the table), some twenty of them, and one game's windows need not wait for another's.
        await asyncio.gather(*map(play, info.games))
    print("imported project:", any(m == "cardtui" or m.startswith("cardtui.") for m in sys.modules))


asyncio.run(main(sys.argv[1]))
'''


def generate(into: Path) -> None:
    """The stubs, from copies of the .proto files that name their package ``outside``."""
    protos = into / "protos" / "outside" / "v1"
    protos.mkdir(parents=True)
    for proto in (ROOT / "proto" / "cardtui" / "v1").glob("*.proto"):
        (protos / proto.name).write_text(proto.read_text().replace('import "cardtui/v1/', 'import "outside/v1/'))
    out = into / "gen"
    out.mkdir()
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{into / 'protos'}", f"--python_out={out}",
                    f"--grpc_python_out={out}", *map(str, sorted(protos.glob("*.proto")))], check=True)


async def test_a_client_from_the_proto_alone_plays_a_hand_of_every_game(tmp_path: Path) -> None:
    generate(tmp_path)
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.001, next_hand_delay=5.0,
                          cut_window=0.05, limits=Limits(acts_per_second=1e6))  # the client acts as fast as it reads
    try:
        client = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CLIENT, f"127.0.0.1:{running.port}", cwd=tmp_path / "gen",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(client.communicate(), 240)
    finally:
        await running.stop(grace=0.1)
    said = out.decode()
    assert client.returncode == 0, err.decode()[-3000:]
    lines = dict(line.split(" ", 1) for line in said.splitlines())
    assert lines.pop("imported") == "project: False"
    families = {e.name: e.rules.family_name for e in BUILT_IN}
    assert set(lines) == set(families), said
    for game, line in lines.items():
        seen, acted = line.split("] ")[1].split()[:2]
        assert f"'{families[game]}'" in line and line.endswith("ended"), (game, line)
        assert int(seen) >= 5 and int(acted) >= 1, (game, line)  # kinds of event read; actions taken


async def test_a_client_from_the_proto_and_the_docs_signs_in_with_a_key_and_plays_the_guides_hand(
    tmp_path: Path,
) -> None:
    generate(tmp_path)
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.001, next_hand_delay=5.0,
                          cut_window=2.0, workers=2)  # the table is served by a worker: §4a
    try:
        client = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "tests" / "outside_client.py"), f"127.0.0.1:{running.port}",
            cwd=tmp_path / "gen", env={**os.environ, "PYTHONPATH": str(tmp_path / "gen")},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(client.communicate(), 120)
    finally:
        await running.stop(grace=0.1)
    said = out.decode()
    assert client.returncode == 0, said + err.decode()[-3000:]
    lines = said.splitlines()
    assert lines[-1] == "imported project: False"
    steps = [line.split(" ", 1)[0] for line in lines]
    assert steps[:4] == ["info", "proved", "refused", "refused"], said
    assert "PERMISSION_DENIED" in lines[2] and "PERMISSION_DENIED" in lines[3]
    assert "cut taken" in lines, said  # the seed went into the deal...
    assert any(line.startswith("verified hand 1 with my seed") for line in lines), said  # ...and the deal checks
    assert any(line.startswith("refused stale FAILED_PRECONDITION") for line in lines), said
    assert steps.index("snapshot") < steps.index("event") < steps.index("act") < steps.index("verified"), said
    events = [line.split()[2] for line in lines if line.startswith("event ")]
    assert events.index("deal_committed") < events.index("hand_started") < events.index("hand_ended") < \
        events.index("deal_revealed"), events
    assert "cards_dealt" in events and "hidden" in events and "cacho.round_dealt" in events, events
    assert any(line.startswith("resumed after") for line in lines) and steps[-2] == "closed", said
