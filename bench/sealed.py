"""Sealed deals (issue 90): what a lock costs, and how long a sealed deal takes from its start to a person's own
cards, on 127.0.0.1.

First the group's operations, each against the alternatives measured in the same run (libsodium's ed25519 where
PyNaCl is installed, OpenSSL's P-256 through ``cryptography``), which is why the scheme is on secp256k1. Then whole
deals: a host process relays every step over TCP on 127.0.0.1 to one process per seat, as a table server relays
them to its people's clients; each seat locks, relocks, seals its card keys for the others, opens its own three
cards and says when. The figure is the time from the deal's start (the last person's cut: everyone is in) to each
person's own cards opened, its p50 and p95 over every seat of every deal; and the CPU a deal costs, every process
added up: the host's (which checks each step, as the referee must) and each seat's, with the seat's check of the
whole deal after its cards are shown (off the way to them).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
import random
import statistics
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass

from cardtui.fair import PACKS
from cardtui.sealed.deck import (
    Hand,
    Lock,
    Relock,
    SealedDeck,
    SeatSecrets,
    check_lock,
    check_relock,
    lock,
    relock_cards,
    relock_proofs,
)
from cardtui.sealed.envelopes import BoxKey, Envelope, open_envelope, seal
from cardtui.sealed.group import G, base, card_point, decode, encode, mul
from cardtui.sealed.proofs import Proof, prove, verify
from cardtui.sealed.shuffle import ShuffleProof, answer_bytes, answer_from, check_shuffle, prove_shuffle
from tests.sealed.table import ARGENTINO, PACK_OF, PAULISTA

GAME = "truco_paulista"


def _per_call(fn: Callable[[], object], n: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n * 1e6


def operations(print: Callable[[str], None], n: int) -> float:
    """Each operation's µs per call, and the alternatives' scalar multiplication beside secp256k1's; returns
    secp256k1's multiplication, the unit the deals are also said in (a busy machine slows both alike)."""
    point, scalar = card_point("AS"), 0x1234567890ABCDEF1234567890ABCDEF
    other = card_point("4C")
    proof = prove(scalar, G, base(scalar), other, mul(other, scalar), b"bench")
    mult = _per_call(lambda: mul(point, scalar), n)
    proving = _per_call(lambda: prove(scalar, G, base(scalar), other, mul(other, scalar), b"b"), n // 4)
    checking = _per_call(lambda: verify(proof, G, base(scalar), other, mul(other, scalar), b"bench"), n // 4)
    print(f"  secp256k1 (coincurve):  multiply {mult:6.1f} µs   base {_per_call(lambda: base(scalar), n):6.1f} µs   "
          f"prove {proving:6.1f} µs   verify {checking:6.1f} µs"
          f"   decode+encode {_per_call(lambda: encode(decode(encode(point))), n):5.1f} µs")
    try:
        import nacl.bindings as sodium

        k = sodium.crypto_core_ed25519_scalar_reduce(os.urandom(64))
        p = sodium.crypto_core_ed25519_from_uniform(os.urandom(32))
        ed = _per_call(lambda: sodium.crypto_scalarmult_ed25519_noclamp(k, p), n)
        print(f"  ed25519 (PyNaCl, noclamp):  multiply {ed:6.1f} µs   ({ed / mult:.2f}× secp256k1's)")
    except ImportError:
        print("  ed25519 (PyNaCl): not installed here, not measured")
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    mine = ec.derive_private_key(scalar, ec.SECP256R1())
    theirs = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(Encoding.X962,
                                                                                 PublicFormat.CompressedPoint)
    p256 = _per_call(lambda: mine.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(),
                                                                                                   theirs)), n)
    print(f"  P-256 (cryptography's ECDH, x only):  multiply {p256:6.1f} µs   ({p256 / mult:.2f}× secp256k1's)")
    return mult


# The relay: frames of a 4-byte length and a pickled tuple (the bench's own wire, both ends ours).
async def _send(writer: asyncio.StreamWriter, message: object) -> None:
    data = pickle.dumps(message)
    writer.write(struct.pack(">I", len(data)) + data)
    await writer.drain()


async def _receive(reader: asyncio.StreamReader) -> object:
    size = struct.unpack(">I", await reader.readexactly(4))[0]
    return pickle.loads(await reader.readexactly(size))


def _hand(seats: int, number: int) -> Hand:
    return Hand("bench-sealed", number, GAME, tuple(range(seats)), PACKS[PACK_OF[GAME]])


def _places(seats: int) -> dict[int, tuple[int, ...]]:
    """Three cards a seat, in blocks from the front (the paulista way, without the mão's choice)."""
    return {seat: (3 * seat, 3 * seat + 1, 3 * seat + 2) for seat in range(seats)}


def _seat_process(port: int, seat: int, seats: int, deals: int, results: multiprocessing.Queue[object]) -> None:
    asyncio.run(_seat(port, seat, seats, deals, results))


async def _seat(port: int, seat: int, seats: int, deals: int, results: multiprocessing.Queue[object]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    box = BoxKey(os.urandom(32))
    await _send(writer, ("hello", seat, encode(box.point)))
    _, points_bytes = await _receive(reader)  # type: ignore[misc]
    box_points = {s: decode(b) for s, b in points_bytes.items()}
    cpu_verify = 0.0
    for number in range(deals):
        hand = _hand(seats, number)
        secrets = SeatSecrets(os.urandom(32), seat, hand)
        cpu0 = time.process_time()
        _, deck_bytes = await _receive(reader)  # type: ignore[misc]
        path0 = time.process_time()
        before_lock = [decode(b) for b in deck_bytes]
        step = lock(secrets, before_lock)
        await _send(writer, ("lock", encode(step.point), [encode(p) for p in step.deck], step.proof.to_bytes()))
        path = time.process_time() - path0
        _, deck_bytes = await _receive(reader)  # type: ignore[misc]
        path0 = time.process_time()
        before = [decode(b) for b in deck_bytes]
        after, commitments_made = relock_cards(secrets, before)
        await _send(writer, ("relock", [encode(p) for p in after], [encode(p) for p in commitments_made]))
        path += time.process_time() - path0
        _, final, commitments_bytes = await _receive(reader)  # type: ignore[misc]
        last0 = time.process_time()
        places = _places(seats)
        envelopes = [seal(box, seat, other, box_points[other], hand.digest, "deal",
                          {(seat, p): secrets.card_key(p) for p in places[other]})
                     for other in range(seats) if other != seat]
        await _send(writer, ("keys", [(e.recipient, e.sealed) for e in envelopes]))
        last = time.process_time() - last0
        _, received = await _receive(reader)  # type: ignore[misc]
        last0 = time.process_time()
        commitments = {s: tuple(decode(b) for b in c) for s, c in commitments_bytes.items()}
        deck = SealedDeck(hand, tuple(decode(b) for b in final), {}, commitments)
        card_keys: dict[int, dict[int, int]] = {seat: {p: secrets.card_key(p) for p in places[seat]}}
        for sender, sealed in received:
            opened = open_envelope(box, box_points[sender], Envelope(sender, seat, "deal", sealed), hand.digest)
            card_keys[sender] = {place: key for (_, place), key in opened.items()}
        own = {place: deck.open(place, {s: keys[place] for s, keys in card_keys.items()}, checked=False)
               for place in places[seat]}
        if None in own.values():  # a wrong key: only now is each key checked, to name its seat
            own = deck.open_own(places[seat], card_keys)
        shown = time.monotonic()
        cpu_deal = time.process_time() - cpu0
        last += time.process_time() - last0
        await _send(writer, ("shown", shown))
        cpu1 = time.process_time()  # the proofs, after the cards are on screen: the shuffle's and the relock's
        shuffle = prove_shuffle(secrets, before_lock, step.deck)
        proofs = relock_proofs(secrets, before, after, commitments_made)
        await _send(writer, ("proofs", [answer_bytes(a) for a in shuffle.answers], [p.to_bytes() for p in proofs]))
        cpu_prove = time.process_time() - cpu1
        _, record = await _receive(reader)  # type: ignore[misc]
        cpu1 = time.process_time()
        _check_all(hand, record)  # every seat's proofs, as a client checks them behind the deal
        cpu_verify = time.process_time() - cpu1
        await _send(writer, ("checked",))
        results.put((seat, number, sorted(own.values()), cpu_deal, cpu_verify, path, last, cpu_prove))
    writer.close()


def _check_all(hand: Hand, record: object) -> None:
    """Every lock with its shuffle's proof, every relock with its proofs, in order."""
    locks_bytes, relocks_bytes = record  # type: ignore[misc]
    deck = hand.pack
    lock_points = {}
    for seat, point, after, proof, answers in locks_bytes:
        step = Lock(seat, decode(point), tuple(decode(b) for b in after), Proof.from_bytes(proof))
        check_lock(hand, deck, step)
        check_shuffle(hand, deck, step.deck, ShuffleProof(seat, tuple(answer_from(a) for a in answers)))
        lock_points[seat], deck = step.point, step.deck
    for seat, after, commits, proofs in relocks_bytes:
        again = Relock(seat, tuple(decode(b) for b in after), tuple(decode(b) for b in commits),
                       tuple(Proof.from_bytes(x) for x in proofs))
        check_relock(hand, lock_points[seat], deck, again)
        deck = again.deck


@dataclass(frozen=True)
class Deals:
    seats: int
    waits_ms: list[float]
    host_cpu_ms: list[float]
    seat_cpu_ms: list[float]
    """Each seat's CPU per deal to its own cards."""
    check_cpu_ms: list[float]
    """Each seat's CPU per deal checking the whole deal afterwards."""
    prove_cpu_ms: list[float]
    """Each seat's CPU per deal making its proofs (the shuffle's, the relock's) after its cards are shown."""
    path_ms: list[float]
    """Per deal, the CPU on the way to the cards, step after step: each seat's lock and relock, the host's check
    of each lock, and the slowest seat's last step (sealing its keys, opening its cards): the wait on an idle
    machine with each person's client on a machine of its own, less the network's."""


async def _host(seats: int, deals: int, check: bool,
                ready: asyncio.Future[int]) -> tuple[list[float], list[float], list[float]]:
    joined: dict[int, tuple[asyncio.StreamReader, asyncio.StreamWriter]] = {}
    points: dict[int, bytes] = {}
    all_in = asyncio.Event()

    async def welcome(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        _, seat, point = await _receive(reader)  # type: ignore[misc]
        joined[seat], points[seat] = (reader, writer), point
        if len(joined) == seats:
            all_in.set()

    server = await asyncio.start_server(welcome, "127.0.0.1", 0)
    ready.set_result(server.sockets[0].getsockname()[1])
    await all_in.wait()
    for _, writer in joined.values():
        await _send(writer, ("points", points))
    waits: list[float] = []
    host_cpu: list[float] = []
    host_path: list[float] = []
    for number in range(deals):
        hand = _hand(seats, number)
        start, cpu0 = time.monotonic(), time.process_time()
        deck = hand.pack
        locks = []
        path = 0.0
        for seat in hand.order:
            reader, writer = joined[seat]
            await _send(writer, ("lock", [encode(p) for p in deck]))
            _, point, after, proof = await _receive(reader)  # type: ignore[misc]
            step = Lock(seat, decode(point), tuple(decode(b) for b in after), Proof.from_bytes(proof))
            if check:
                path0 = time.process_time()
                check_lock(hand, deck, step)
                path += time.process_time() - path0
            locks.append((seat, point, after, proof))
            deck = step.deck
        relocked: list[tuple[int, list[bytes], list[bytes]]] = []
        commitments: dict[int, list[bytes]] = {}
        for seat in hand.order:
            reader, writer = joined[seat]
            await _send(writer, ("relock", [encode(p) for p in deck]))
            _, after, commits = await _receive(reader)  # type: ignore[misc]
            relocked.append((seat, after, commits))
            commitments[seat] = commits
            deck = tuple(decode(b) for b in after)
        final = [encode(p) for p in deck]
        for _, writer in joined.values():
            await _send(writer, ("dealt", final, commitments))
        inbox: dict[int, list[tuple[int, bytes]]] = {seat: [] for seat in joined}
        for seat, (reader, _) in joined.items():
            _, envelopes = await _receive(reader)  # type: ignore[misc]
            for recipient, sealed in envelopes:
                inbox[recipient].append((seat, sealed))
        for seat, (_, writer) in joined.items():
            await _send(writer, ("keys", inbox[seat]))
        shown_at = {}
        for seat, (reader, _) in joined.items():
            _, shown_at[seat] = await _receive(reader)  # type: ignore[misc]
        answers_of, proofs_of = {}, {}
        for seat, (reader, _) in joined.items():  # the proofs come after the cards are on screen
            _, answers_of[seat], proofs_of[seat] = await _receive(reader)  # type: ignore[misc]
        record = ([(s, p, d, pr, answers_of[s]) for s, p, d, pr in locks],
                  [(seat, after, commits, proofs_of[seat]) for seat, after, commits in relocked])
        for _, writer in joined.values():
            await _send(writer, ("record", record))
        if check:  # the referee checks every proof behind the deal, before the first card is played
            _check_all(hand, record)
        host_cpu.append((time.process_time() - cpu0) * 1000)
        host_path.append(path * 1000)
        waits.extend((shown - start) * 1000 for shown in shown_at.values())  # type: ignore[operator]
        for reader, _ in joined.values():
            await _receive(reader)  # each seat has checked the deal: the next one starts
    server.close()
    return waits, host_cpu, host_path


async def _deals(seats: int, deals: int, check: bool) -> Deals:
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[int] = loop.create_future()
    host = asyncio.create_task(_host(seats, deals, check, ready))
    port = await ready
    context = multiprocessing.get_context("fork")
    results: multiprocessing.Queue[object] = context.Queue()
    processes = [context.Process(target=_seat_process, args=(port, seat, seats, deals, results))
                 for seat in range(seats)]
    for process in processes:
        process.start()
    waits, host_cpu, host_path = await host
    gathered = [results.get() for _ in range(seats * deals)]
    for process in processes:
        await loop.run_in_executor(None, process.join)
    paths = []
    for number in range(deals):
        mine = [g for g in gathered if g[1] == number]  # type: ignore[index]
        assert all(len(set(g[2])) == 3 for g in mine)  # type: ignore[index]
        paths.append(host_path[number] + 1000 * (sum(g[5] for g in mine)  # type: ignore[index]
                                                 + max(g[6] for g in mine)))  # type: ignore[index]
    return Deals(seats, waits, host_cpu, [g[3] * 1000 for g in gathered],  # type: ignore[index]
                 [g[4] * 1000 for g in gathered], [g[7] * 1000 for g in gathered], paths)  # type: ignore[index]


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 20 else max(values)


def run(print: Callable[[str], None], deals: int = 40, n: int = 2000) -> None:
    print("== sealed deals: the group's operations (µs a call)")
    mult = operations(print, n)
    for seats, mark in ((2, None), (4, 150), (6, 300)):
        figures = asyncio.run(_deals(seats, deals, check=True))
        w = figures.waits_ms
        said = f" (mark ≤ {mark} ms: {'met' if _p95(w) <= mark else 'NOT met'})" if mark else ""
        seat_cpu = statistics.mean(figures.seat_cpu_ms) * seats
        check_cpu = statistics.mean(figures.check_cpu_ms) * seats
        prove_cpu = statistics.mean(figures.prove_cpu_ms) * seats
        host_cpu = statistics.mean(figures.host_cpu_ms)
        print(f"== {seats} seats, {deals} deals over 127.0.0.1: start to own cards p50 {statistics.median(w):6.1f} ms,"
              f" p95 {_p95(w):6.1f} ms{said}; p95 = {_p95(w) * 1000 / mult:,.0f} multiplications of this run")
        print(f"   the way to the cards, its CPU alone (no waits, one machine a client): p50"
              f" {statistics.median(figures.path_ms):5.1f} ms, p95 {_p95(figures.path_ms):5.1f} ms")
        print(f"   CPU per deal, every process added up: seats to their cards {seat_cpu:6.1f} ms; then, behind the"
              f" deal, seats proving {prove_cpu:6.1f} ms, the host checking everything {host_cpu:6.1f} ms, the seats"
              f" each checking everything {check_cpu:6.1f} ms;"
              f" all {seat_cpu + prove_cpu + host_cpu + check_cpu:6.1f} ms")




SIZES = ((PAULISTA, 4), (ARGENTINO, 2), (ARGENTINO, 4), (ARGENTINO, 6))


FULL_ROUNDS = 24
"""A shuffle's proof at its full count (``cardtui.sealed.shuffle.ROUNDS``)."""


def cheats(print: Callable[[str], None], hands: int = 1200, seed: int = 90) -> None:
    """A randomised cheating client (``tests/sealed/table.py``) against the referee and every honest client: about
    two hands in three with a cheat drawn at random by a seat drawn at random, the rest honest, every size."""
    from cardtui.sealed import shuffle
    from tests.sealed.conftest import FEW
    from tests.sealed.table import EXPECTED, MAO_TRICKS, SimTable, Trick

    rng = random.Random(seed)
    tables = {size: SimTable(random.Random(rng.randrange(2**32)), size[1], size[0]) for size in SIZES}
    made = caught = missed = wrong = false_alarms = honest = 0
    by_trick: dict[Trick, list[int]] = {trick: [0, 0] for trick in Trick}
    start = time.perf_counter()
    for done in range(hands):
        if done and done % 100 == 0:
            print(f"   … {done} hands: {made} cheats, {caught} named rightly, {missed} missed, {wrong} wrongly,"
                  f" {false_alarms} false alarms in {honest} honest hands", flush=True)
            print("     " + ", ".join(f"{t.value} {c}/{m}" for t, (m, c) in by_trick.items()), flush=True)
        game, seats = rng.choice(SIZES)
        trick = rng.choice(list(Trick)) if rng.random() < 2 / 3 else None
        if trick in (Trick.FALSE_ENVIDO, Trick.FALSE_FLOR) and game != ARGENTINO:
            game, seats = ARGENTINO, rng.choice((2, 4, 6))
        if trick in MAO_TRICKS:  # the mão's keep, pass or reject (truco paulista)
            game, seats = PAULISTA, 4
        cheater = rng.randrange(seats) if trick else None
        kind: dict[str, object] = {}
        if game == PAULISTA and trick is None and rng.random() < 0.2:
            kind = rng.choice([{"onze": 0}, {"onze": 1}, {"ferro": True}])
        # the shuffle's proof at its full count where the cheat rests on it (a bent lock), else at a few rounds: the
        # prover and every checker agree on the count, and no other cheat's catching rests on it (tests/sealed)
        shuffle.ROUNDS = FULL_ROUNDS if trick is Trick.LOCK_BENT else FEW
        played = tables[game, seats].play(cheater, trick, **kind)  # type: ignore[arg-type]
        if played.trick is None:
            honest += 1
            false_alarms += sum(bool(named) for named in played.named.values())
            continue
        made += 1
        by_trick[played.trick][0] += 1
        right = all(named and {s for s, _ in named} == {cheater} and {f for _, f in named} <= EXPECTED[played.trick]
                    for named in played.named.values())
        caught += right
        by_trick[played.trick][1] += right
        missed += any(not named for named in played.named.values())
        wrong += any(named and {s for s, _ in named} != {cheater} for named in played.named.values())
    print(f"== sealed cheats: {hands} hands (seed {seed}) in {time.perf_counter() - start:.0f} s: {made} cheats, "
          f"{caught} named rightly by the referee and every honest client, {missed} missed by someone, {wrong} with an"
          f" honest seat named; {honest} honest hands, {false_alarms} false alarms")
    print("   " + ", ".join(f"{trick.value} {c}/{m}" for trick, (m, c) in by_trick.items()))


HOST_SIZES = ((PAULISTA, 4), (ARGENTINO, 2), (ARGENTINO, 4), (ARGENTINO, 6))
"""Every seat count, and paulista's deal with its passes and rejections."""


def host(print: Callable[[str], None], hands: int = 300, seed: int = 91,
         sizes: tuple[tuple[str, int], ...] = HOST_SIZES) -> None:
    """A host that reads cards with everything it holds (``tests/sealed/host.py``), colluding with every seat but
    the victim's, at each size: its guesses of the victim's hidden cards against the same guesses without it."""
    from tests.sealed.host import Tally, attack
    from tests.sealed.table import SimTable

    rng = random.Random(seed)
    for game, seats in sizes:
        table = SimTable(random.Random(rng.randrange(2**32)), seats, game, clients_check=False)
        tally = Tally()
        start = time.perf_counter()
        said = 0
        while tally.hands < hands:
            if tally.hands % 50 == 0 and tally.hands > said:
                said = tally.hands
                print(f"   … {game} at {seats}: {said} hands, {tally.cards} cards, right {tally.right_with} with,"
                      f" {tally.right_without} without, opened {tally.opened_by_attack}, found {tally.secrets_found}",
                      flush=True)
            victim = rng.randrange(seats)
            attack(rng, table, {s for s in range(seats) if s != victim}, victim, tally)
        with_, without = tally.right_with / tally.cards, tally.right_without / tally.cards
        error = (with_ * (1 - with_) / tally.cards) ** 0.5
        print(f"== sealed host, {game} at {seats}: {tally.hands} hands, {tally.cards} hidden cards of a person guessed"
              f" in {time.perf_counter() - start:.0f} s: right {with_:.3f} with everything the host holds,"
              f" {without:.3f} without (± {2 * error:.3f}); cards an attack opened {tally.opened_by_attack},"
              f" secrets found in its bytes {tally.secrets_found}")


if __name__ == "__main__":
    import sys

    what = sys.argv[1] if len(sys.argv) > 1 else "deals"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if what == "cheats":  # python -m bench.sealed cheats N [seed]: runs side by side, each with its seed
        cheats(print, count or 1200, int(sys.argv[3]) if len(sys.argv) > 3 else 90)
    elif what == "host":  # python -m bench.sealed host N [game seats seed [rounds]]: one size alone, side by side
        chosen = ((sys.argv[3], int(sys.argv[4])),) if len(sys.argv) > 4 else HOST_SIZES
        if len(sys.argv) > 6:  # a shuffle's proof at fewer rounds: what the host can read does not rest on its count
            from cardtui.sealed import shuffle

            shuffle.ROUNDS = int(sys.argv[6])
        host(print, count or 300, int(sys.argv[5]) if len(sys.argv) > 5 else 91, chosen)
    else:
        run(print, deals=count or 40)
