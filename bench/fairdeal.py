"""The fair deal against a dishonest host: for each of the harness's tricks (``tests/client/dishonest.py``), a
hundred hands of Cacho where the host plays the trick wherever it gives the client a six for its first card, and
what the real client's check said of each. The mark: no steered hand under ✔. The honest host is the baseline
for how often the six comes by itself."""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import grpc

from cardtui.client.connection import Connection
from cardtui.client.fairness import FairDeals
from cardtui.v1 import common_pb2, lobby_pb2, table_pb2
from tests.client.dishonest import CHOOSING, HOST_TRICKS, STEERING, TABLE, Dishonest, Trick, serving

HANDS = 100


@dataclass(frozen=True)
class Figures:
    trick: Trick
    hands: int
    six: float
    """How often the client's first card was a six (the host's target)."""
    steered: int
    """Hands whose deck the host's choice made."""
    ticked: int
    """Steered hands the client gave a ✔: the mark is 0."""
    ok: int
    """Hands with a ✔ in all."""


async def measure(trick: Trick, hands: int) -> Figures:
    """``hands`` hands of ``trick`` against the real client's connection and check."""
    cheat = Dishonest(plan=lambda _hand: trick, hands=hands, always=False, hosted=trick in HOST_TRICKS)
    fair = FairDeals()
    async with serving(cheat) as port:
        conn = Connection.open(f"127.0.0.1:{port}")
        try:
            joined = await conn.join(TABLE, "ana")

            async def follow() -> None:
                async for _msg in conn.follow(joined.token, fair=fair):
                    pass

            reading = asyncio.create_task(follow())
            # (looked at on a timer too: the last message may come before the host says it is done)
            while not (cheat.finished.is_set() and fair.verdicts and fair.verdicts[-1].hand == cheat.dealt[-1].hand):
                await asyncio.sleep(0.05)
            reading.cancel()
            await asyncio.gather(reading, return_exceptions=True)
        finally:
            await conn.close()
    by = {v.hand: v for v in fair.verdicts}
    steered = [d for d in cheat.dealt if d.steered]
    return Figures(trick, len(cheat.dealt), sum(d.six for d in cheat.dealt) / len(cheat.dealt), len(steered),
                   sum(by[d.hand].ok for d in steered if d.hand in by), sum(v.ok for v in by.values()))


def model(hands: int, seed: int = 73) -> tuple[int, int, int, int, int, int]:
    """The randomised dishonest host (``tests/client/host_model.py``) for about ``hands`` hands over every game, half
    its moves honest: (hands, hands the host chose, ✔ in all, ✔ on a chosen deck, honest hands, alarms on them)."""
    from tests.client.host_model import TABLES, check, random_move
    from tests.client.host_model import run as play

    rng = random.Random(seed)
    dealt = chose = ticks = bad = honest = alarms = 0
    while dealt < hands:
        game, players = rng.choice(TABLES)
        k = 3 if game in ("pifpaf", "cacheta") else 12
        host = play(game, players, [random_move(rng) for _ in range(k)], rng.randrange(2**31), rng.random() < 0.7)
        findings = list(check(host))
        dealt += len(host.dealt)
        chose += sum(d.chose for d in host.dealt)
        ticks += sum(v.ok for v in host.fair.verdicts)
        bad += sum(f.verdict.ok for f in findings)
        honest += sum(d.move.honest for d in host.dealt)
        alarms += sum(not f.verdict.ok for f in findings)
    return dealt, chose, ticks, bad, honest, alarms


def run(print: Callable[[str], None], hands: int = HANDS, model_hands: int = 3000) -> None:
    async def every() -> None:
        for trick in [Trick.HONEST, *sorted(STEERING | CHOOSING)]:
            f = await measure(trick, hands)
            print(f"  {f.trick.value:14s} six {f.six:.3f}  steered {f.steered:3d}/{f.hands}"
                  f"  steered under ✔ {f.ticked}  ✔ {f.ok}/{f.hands}")

    asyncio.run(every())
    dealt, chose, ticks, bad, honest, alarms = model(model_hands)
    print(f"  the randomised host, every game: {dealt} hands, {chose} of them the host chose; ✔ {ticks}, of them on a"
          f" chosen deck {bad} (mark 0); honest hands {honest}, red on them {alarms} (mark 0)")


async def _seat(conn: Connection, token: str, lag: float, marks: dict[int, list[float]] | None,
                fair: FairDeals) -> None:
    """One person at a two-seat truco argentino table: reads every message ``lag`` seconds after it came, cuts as
    the client does, and goes to the deck (or plays a card) whenever it is their turn; ``marks``: when each
    deal's commitment and its first cards reached them, by table deal."""
    loop = asyncio.get_running_loop()
    came: asyncio.Queue[tuple[float, table_pb2.TableMessage]] = asyncio.Queue()

    async def read() -> None:
        async for msg in conn.follow(token):
            came.put_nowait((loop.time(), msg))

    reader = asyncio.create_task(read())
    acted = 0
    try:
        while True:
            at, msg = await came.get()
            await asyncio.sleep(max(0.0, at + lag - loop.time()))
            for hand, seed in fair.feed(msg):
                conn._cut_soon(token, hand, seed, fair)
            if not msg.HasField("update"):
                continue
            for ev in msg.update.events:
                if marks is not None and ev.HasField("deal_committed"):
                    marks[ev.deal_committed.hand] = [loop.time()]
                elif marks is not None and ev.HasField("cards_dealt") and fair.watch is not None:
                    got = marks.get(fair.watch.hand)
                    if got is not None and len(got) == 1:
                        got.append(loop.time())
            view = msg.update.view if msg.update.HasField("view") else None
            if view is not None and view.HasField("you") and view.you in view.to_act and view.legal and (
                    msg.seq > acted):
                action = next((a for a in view.legal if a.type == common_pb2.ACTION_TYPE_MAZO),
                              next((a for a in view.legal if a.type == common_pb2.ACTION_TYPE_PLAY), view.legal[0]))
                with contextlib.suppress(grpc.aio.AioRpcError):
                    acted = await conn.act(token, action, msg.seq)  # (once for what it saw: a person's pace)
    finally:
        reader.cancel()


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def waited(hands: int, lag: float) -> tuple[list[float], int]:
    """Commitment to first card, seconds, as the prompt player sees it, at a table of two people (the other one's
    client ``lag`` seconds late), served as ``cardtui serve`` is by default for seeds; and the false alarms."""
    from cardtui.server.app import start

    with tempfile.TemporaryDirectory() as folder:
        running = await start("127.0.0.1", 0, Path(folder) / "store.db", bot_delay=0.01, next_hand_delay=0.05)
        try:
            maker = Connection.open(f"127.0.0.1:{running.port}")
            table = await maker.create(lobby_pb2.CreateTableRequest(game="truco_argentino", seats=2, bots=0))
            marks: dict[int, list[float]] = {}
            people = []
            tasks = []
            for name, delay in (("ana", 0.0), ("bia", lag)):
                conn = Connection.open(f"127.0.0.1:{running.port}")
                joined = await conn.join(table.id, name)
                fair = FairDeals()
                fair.chain = conn.chains.get(joined.token)
                people.append((conn, fair))
                tasks.append(asyncio.create_task(_seat(conn, joined.token, delay, marks if delay == 0 else None,
                                                       fair)))
            while sum(len(v) == 2 for v in marks.values()) < hands:
                await asyncio.sleep(0.05)
            alarms = sum(v.standing.value in ("broken", "unused", "withheld") for _c, f in people for v in f.verdicts)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for conn, _f in people:
                await conn.close()
            await maker.close()
        finally:
            await running.stop(grace=0.2)
    return [v[1] - v[0] for v in marks.values() if len(v) == 2][:hands], alarms


def wait_report(print: Callable[[str], None], hands: int = 40) -> None:
    """What the wait for people's links adds to a deal: commitment to first card, p50 and p99, with both clients
    prompt and with one reading its stream 1.3 s late."""
    for lag in (0.0, 1.3):
        times, alarms = asyncio.run(waited(hands, lag))
        print(f"  commitment to first card, {'both clients prompt' if not lag else f'one client {lag} s late'}:"
              f" p50 {quantile(times, 0.5) * 1000:.0f} ms, p99 {quantile(times, 0.99) * 1000:.0f} ms"
              f" over {len(times)} hands; alarms {alarms}")


# -- the re-roll by closing tables, on a real server ----------------------------------------------
@dataclass(frozen=True)
class Reroll:
    rounds: int
    closed: int
    """Tables the host closed mid-cut, the deck not giving its seat a six."""
    played: int
    six: int
    """Hands played in which the host's seat had its six first."""
    steered: int
    """Played hands the host dealt after closing a table on a deck it did not like: a re-rolled deck."""
    ticked: int
    """Steered hands the honest person's client gave ✔ (the mark: 0)."""
    ok: int
    """Played hands with a ✔ in all (the first table's, had it the six at once, is no re-roll)."""
    said: str
    """The honest person's line on the last hand played."""


def _steps(db: Path, table: str) -> list[tuple[str, int | None, dict[str, object]]]:
    """The host reads its own store: a table's journal steps (the commitment's server seed, each link taken)."""
    import json
    import sqlite3

    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)) as con:
        rows = con.execute("SELECT kind, seat, data FROM log WHERE table_id = ? ORDER BY n", (table,)).fetchall()
    return [(str(k), s, json.loads(d)) for k, s, d in rows]


async def _plays(conn: Connection, token: str, fair: FairDeals | None, done: Callable[[], bool]) -> None:
    """A person's client: its stream (with the fair check, if ``fair``), acting whenever it is their turn."""
    acted = 0
    async for msg in conn.follow(token, fair=fair):
        if done():
            return
        view = msg.update.view if msg.HasField("update") and msg.update.HasField("view") else None
        if view is not None and view.HasField("you") and view.you in view.to_act and view.legal and msg.seq > acted:
            prefer = (common_pb2.ACTION_TYPE_MAZO, common_pb2.ACTION_TYPE_CHECK, common_pb2.ACTION_TYPE_CALL,
                      common_pb2.ACTION_TYPE_BET)
            action = next((a for t in prefer for a in view.legal if a.type == t), view.legal[0])
            with contextlib.suppress(grpc.aio.AioRpcError):  # (not everyone passes: a hand that ends)
                acted = await conn.act(token, action, msg.seq)


async def reroll(rounds: int, folder: Path) -> Reroll:
    """The host of a real ``cardtui serve`` (table workers, as it starts by default) owns two-person Cacho tables and
    plays seat 2 itself. At each, once the other person's link is in, it reads its store for the commitment's
    server seed and that link, works out the deck with its own link, and puts its link in only if the deck gives
    its seat a six; else it closes the table (the deal is revealed undealt) and opens another with the same
    person. The person's client (its memory on disk in ``folder``) must give none of those hands ✔."""
    from cardtui.client.stay import Stay
    from cardtui.engine.games import GAMES
    from cardtui.fair import SCHEME, DealSeed
    from cardtui.server.base import wire
    from tests.arrangements import Arrangement

    served = Arrangement.start("workers", folder / "serve")
    closed = played = six = steered = ticked = ok = 0
    rerolled = False
    said = ""
    try:
        ana, host = Connection.open(served.lobby), Connection.open(served.lobby)
        ana.stay = Stay(served.lobby, folder / "links.json")
        rules = GAMES["cacho"]
        for _round in range(rounds):
            table = await host.create(lobby_pb2.CreateTableRequest(game="cacho", seats=2, bots=0))
            mine = await ana.join(table.id, "ana")
            theirs = await host.join(table.id, "bia")
            fair = FairDeals()
            over = asyncio.Event()
            tasks = [asyncio.create_task(_plays(ana, mine.token, fair, over.is_set)),
                     asyncio.create_task(_plays(host, theirs.token, None, over.is_set))]
            commit: dict[str, object] = {}
            link = b""
            while not link:  # the commitment, then the person's link, journaled before the deal
                await asyncio.sleep(0.02)
                for kind, seat, data in _steps(folder / "serve" / "store.db", table.id):
                    if kind == "commit":
                        commit = data
                    elif kind == "seed" and seat == 0 and commit:
                        link = bytes.fromhex(str(data["seed"]))
            follows = {int(s): bytes.fromhex(str(v)) for s, v in dict(commit["follows"]).items()}  # type: ignore[call-overload]
            own = host.chains[theirs.token].link(1)
            deal = DealSeed(bytes.fromhex(str(commit["server_seed"])), ((0, link), (1, own)), table.id,
                            int(str(commit["hand"])), SCHEME, tuple(sorted(follows.items())))
            _match, events = rules.open({}, rules.seat_infos(["ana", "bia"]), deal)
            first = next(wire.note(ev.body.cards[0]) for ev in events if ev.kind == "CardsDealt" and ev.body.seat == 1)
            if first.startswith("6"):
                await host.cut(theirs.token, deal.hand, own)
                while not any(v.hand == deal.hand and not v.void for v in fair.verdicts):
                    await asyncio.sleep(0.02)
                verdict = next(v for v in fair.verdicts if v.hand == deal.hand and not v.void)
                played, six, ok = played + 1, six + 1, ok + verdict.ok
                steered, ticked = steered + rerolled, ticked + (rerolled and verdict.ok)
                rerolled = False
                said = verdict.said().text.plain
            else:
                closed, rerolled = closed + 1, True
            await host.close_table(table.id)
            while not any(t.done() for t in tasks[:1]):  # the person's stream ends with the table
                await asyncio.sleep(0.02)
            over.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        await ana.close()
        await host.close()
    finally:
        served.stop()
    return Reroll(rounds, closed, played, six, steered, ticked, ok, said)


def reroll_report(print: Callable[[str], None], rounds: int = 60) -> None:
    with tempfile.TemporaryDirectory() as folder:
        r = asyncio.run(reroll(rounds, Path(folder)))
    print(f"  re-roll by closing tables (real cardtui serve, workers): {r.rounds} rounds, {r.closed} tables closed"
          f" mid-cut, {r.played} hands played (the host's six in {r.six}), {r.steered} of them re-rolled; steered hands"
          f" under ✔ {r.ticked} (mark 0); ✔ in all {r.ok}")
    if r.said:
        print(f"    the person's line on the last: {r.said}")


# -- the dealer on the table's word, the randomised host over a stay --------------------------------
def table_word(hands: int = 120, seed: int = 86) -> tuple[int, int, int]:
    """Truco argentino at two and four, the host playing a seat: before each hand a snapshot that lies about the
    last dealer, or a gap mid-hand, and a commitment that names the dealer the host picked (the seat before its own,
    so that its seat is mano). (hands dealt, hands whose dealer the host picked, ✔ on those: the mark is 0.)"""
    from tests.client.host_model import Dealer, Move, Snap
    from tests.client.host_model import run as play

    rng = random.Random(seed)
    dealt = chosen = ticked = 0
    while chosen < hands:
        players = rng.choice([2, 4])
        moves = [Move(dealer=Dealer.CHOSEN, snap=rng.choice([Snap.LYING, Snap.GAP, Snap.GAP])) for _ in range(12)]
        host = play("truco_argentino", players, moves, rng.randrange(2**31))
        by = {v.hand: v for v in host.fair.verdicts}
        for d in host.dealt:
            dealt += 1
            if d.chose:
                chosen += 1
                ticked += bool(by.get(d.deal) and by[d.deal].ok)
    return dealt, chosen, ticked


def stay_model(hands: int = 2000, seed: int = 87) -> tuple[int, int, int, int, int, int]:
    """The randomised host over a person's stay (``tests.client.host_model.run_stay``): tables closed mid-cut and
    opened again, a second table, the client started again, leaving, and every trick at each table, half the moves
    honest, in Cacho and both trucos. (hands, hands the host chose, ✔, ✔ on a chosen deck, honest stays' hands, red
    on them.)"""
    from tests.client.host_model import HONEST, TABLES, Visit, check_stay, random_move, run_stay

    rng = random.Random(seed)
    games = [t for t in TABLES if t[0] not in ("pifpaf", "cacheta")]
    dealt = chose = ticks = bad = honest = alarms = 0
    with tempfile.TemporaryDirectory() as folder:
        n = 0
        while dealt < hands:
            n += 1
            game, players = rng.choice(games)
            fair = rng.random() < 0.3  # an honest stay: every visit one an honest host or the person makes
            visits = [(rng.choice(list(Visit)), HONEST if fair else random_move(rng)) for _ in range(10)]
            stay = run_stay(game, players, visits, rng.randrange(2**31), Path(folder) / f"links-{n}.json",
                            rng.random() < 0.7)
            findings = list(check_stay(stay, honest=fair))
            dealt += len(stay.dealt)
            chose += sum(d.chose for _t, d in stay.dealt)
            ticks += sum(v.ok for t in stay.tables for v in t.fair.verdicts)
            bad += sum(f.verdict.ok for f in findings)
            if fair:
                honest += len(stay.dealt)
                alarms += sum(not f.verdict.ok for f in findings)
    return dealt, chose, ticks, bad, honest, alarms


# -- one seat that never cuts; honest tables in every arrangement ------------------------------------
async def lapse(hands: int = 8, turn: int = 10) -> tuple[float, list[float]]:
    """A truco paulista table of one person and three bots, served as ``cardtui serve`` serves it (a deal waits the
    turn clock, ``turn`` seconds here): the person keeps the table open and plays, and never cuts. Seconds from
    each commitment to its hand's start: the first (the whole clock), and each after it."""
    from cardtui.server.app import start

    with tempfile.TemporaryDirectory() as folder:
        running = await start("127.0.0.1", 0, Path(folder) / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                              cut_window=turn)
        try:
            conn = Connection.open(f"127.0.0.1:{running.port}")
            table = await conn.create(lobby_pb2.CreateTableRequest(game="truco_paulista", seats=4, bots=3,
                                                                   turn_seconds=turn))
            joined = await conn.join(table.id, "ana")
            loop = asyncio.get_running_loop()
            marks: dict[int, list[float]] = {}
            current = [0]

            async def note() -> None:
                acted = 0
                async for msg in conn.follow(joined.token):  # no ``fair``: this client never cuts
                    for ev in msg.update.events if msg.HasField("update") else ():
                        if ev.HasField("deal_committed"):
                            current[0] = ev.deal_committed.hand
                            marks[current[0]] = [loop.time()]
                        elif ev.HasField("hand_started") and len(marks.get(current[0], [])) == 1:
                            marks[current[0]].append(loop.time())
                    view = msg.update.view if msg.HasField("update") and msg.update.HasField("view") else None
                    if view is not None and view.HasField("you") and view.you in view.to_act and view.legal and (
                            msg.seq > acted):
                        action = next((a for a in view.legal if a.type == common_pb2.ACTION_TYPE_PLAY),
                                      view.legal[0])
                        with contextlib.suppress(grpc.aio.AioRpcError):
                            acted = await conn.act(joined.token, action, msg.seq)

            task = asyncio.create_task(note())
            while sum(len(v) == 2 for v in marks.values()) < hands + 1:
                await asyncio.sleep(0.1)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await conn.close()
        finally:
            await running.stop(grace=0.2)
    waits = [v[1] - v[0] for _k, v in sorted(marks.items()) if len(v) == 2]
    return waits[0], waits[1:hands + 1]


async def honest(name: str, folder: Path, hands: int = 60, pg_url: str = "") -> tuple[int, int, int]:
    """Two people at truco argentino tables of an arrangement (``tests.arrangements``: one process, table workers,
    two hosts on PostgreSQL), each through the client's own connection and check (its memory on a disk of the
    bench's), a new table every ten hands: (verdicts, ✔, red: the mark is 0)."""
    from cardtui.client.stay import Stay
    from tests.arrangements import Arrangement

    served = Arrangement.start(name, folder / name, pg_url)
    checks: list[FairDeals] = []
    try:
        people = [Connection.open(served.lobby) for _ in range(2)]
        for i, conn in enumerate(people):
            conn.stay = Stay(served.lobby, folder / f"{name}-links-{i}.json")
        maker = Connection.open(served.maker)
        while len([v for f in checks for v in f.verdicts]) < 2 * hands:
            table = await maker.create(lobby_pb2.CreateTableRequest(game="truco_argentino", seats=2, bots=0))
            fairs = [FairDeals(), FairDeals()]
            checks += fairs
            over = asyncio.Event()
            tasks = []
            for conn, fair, who in zip(people, fairs, ("ana", "bia"), strict=True):
                joined = await conn.join(table.id, who)
                tasks.append(asyncio.create_task(_plays(conn, joined.token, fair, over.is_set)))
            while min(len(f.verdicts) for f in fairs) < 10:
                await asyncio.sleep(0.05)
            await maker.close_table(table.id)
            over.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        for conn in [*people, maker]:
            await conn.close()
    finally:
        served.stop()
    verdicts = [v for f in checks for v in f.verdicts if v.checked]
    red = sum(v.standing.value in ("broken", "unused", "withheld") for v in verdicts)
    return len(verdicts), sum(v.ok for v in verdicts), red


def issue86_report(print: Callable[[str], None], quick: bool = False) -> None:
    """The marks of a deck no host can re-roll (issue 86)."""
    reroll_report(print, rounds=12 if quick else 60)
    dealt, chosen, ticked = table_word(24 if quick else 120)
    print(f"  the dealer on the table's word (truco argentino, lying snapshots and gaps, the host naming its own seat"
          f" mano): {dealt} hands, {chosen} of them with the host's dealer; under ✔ {ticked} (mark 0)")
    dealt, chose, ticks, bad, honest_hands, alarms = stay_model(300 if quick else 2000)
    print(f"  the randomised host over a person's stay (Cacho, both trucos; closes, second tables, restarts): {dealt}"
          f" hands, {chose} the host chose; ✔ {ticks}, on a chosen deck {bad} (mark 0); honest stays' hands"
          f" {honest_hands}, red on them {alarms} (mark 0)")
    first, later = asyncio.run(lapse(3 if quick else 8))
    print(f"  a seat that never cuts (turn clock 10 s): the first deal waited {first:.2f} s, each after it"
          f" {quantile(later, 0.5):.2f} s median, {max(later):.2f} s at most over {len(later)} hands (mark ≤ 5 s)")
    with tempfile.TemporaryDirectory() as folder:
        for name in ("one", "workers", "hosts"):
            url = ""
            cluster = None
            if name == "hosts":
                from tests.postgres import Cluster

                try:
                    cluster = Cluster.start()
                except RuntimeError as e:
                    print(f"  honest tables, hosts: not run ({e})")
                    continue
                url = cluster.new_database()
            try:
                n, ok, red = asyncio.run(honest(name, Path(folder), 20 if quick else 60, url))
            finally:
                if cluster is not None:
                    cluster.stop()
            print(f"  honest tables, {name}: {n} verdicts (two people), ✔ {ok}, red {red} (mark 0)")
