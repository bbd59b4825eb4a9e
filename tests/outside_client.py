"""docs/client.md's walk-through, as a client written from the .proto files and docs/ alone.

Run by ``tests/test_proto_client.py`` with stubs generated into a package called ``outside``
(never cardtui's): ``python outside_client.py HOST:PORT``. It uses grpc, the generated stubs,
``cryptography`` for Ed25519 and the standard library, nothing of cardtui. It prints one line
per step, which the test reads; docs/client.md §9 shows such a run.

1. Signs in with a key (docs/client.md §3): Hello, the signed challenge, Prove; a second key,
   and a guest, asking for the same name are refused with a ``Problem``.
2. Creates a Cacho table for two, one seat a bot, and sits with its session (§2, §4); talks to the
   table where the join says it is served (§4a: the server runs table workers).
3. Subscribes (§5), cuts the deal (§6), plays the hand from its legal actions (§7): bets or
   stays in whenever it can; once, first, with a stale ``seen_seq``, which is refused (§8).
4. Checks the deal from the reveal as docs/deal.md says (§3–§7, §10.1).
5. Resubscribes from the middle of the hand and from its end (§5), and leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import os
import sys

import grpc
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from outside.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, players_pb2, table_pb2, table_pb2_grpc

NAME = "João Ñandú"
PROBLEM = "cardtui-problem-bin"


def say(*words: object) -> None:
    print(*words, flush=True)


def problem_of(err: grpc.aio.AioRpcError) -> common_pb2.Problem:
    """§8: the refusal's sentence as a message id and its arguments, from the trailing metadata."""
    for key, value in err.trailing_metadata() or ():
        if key == PROBLEM:
            return common_pb2.Problem.FromString(value)
    raise AssertionError(f"no {PROBLEM} in the refusal {err.code().name}: {err.details()}")


# -- §3: the proof of a name --------------------------------------------------------------------
def raw_public_key(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def challenge(server_id: str, nonce: bytes, name: str) -> bytes:
    return b"cardtui-identity/1\n" + server_id.encode("utf-8") + b"\n" + nonce + b"\n" + name.encode("utf-8")


async def sign_in(lobby: lobby_pb2_grpc.LobbyStub, key: Ed25519PrivateKey, name: str) -> players_pb2.ProveResponse:
    public = raw_public_key(key)
    hello = await lobby.Hello(players_pb2.HelloRequest(name=name, public_key=public))
    assert len(hello.nonce) == 32 and hello.server_id, hello
    signature = key.sign(challenge(hello.server_id, hello.nonce, name))
    return await lobby.Prove(players_pb2.ProveRequest(name=name, public_key=public, nonce=hello.nonce,
                                                      signature=signature))


def fingerprint(public: bytes) -> str:
    digest = hashlib.sha256(public).hexdigest()[:20]
    return " ".join(digest[i:i + 4] for i in range(0, 20, 4))


# -- docs/deal.md §3a: the seat's chain, pledged when it sits -----------------------------------
def link_before(link: bytes) -> bytes:
    return hashlib.sha256(b"cardtui-deal/2 link\x00" + link).digest()


def chain(length: int = 64) -> list[bytes]:
    """links[0] is the pledge; each hand takes the link after the one its commitment names."""
    links = [os.urandom(32)]
    for _ in range(length):
        links.append(link_before(links[-1]))
    return links[::-1]


# -- docs/deal.md: the Cacho deal, from the reveal ----------------------------------------------
class Stream:
    """deal.md §4–§6: the message, the HMAC-SHA256 blocks, bits(k) and below(n)."""

    def __init__(self, server_seed: bytes, seeds: dict[int, bytes], table: str, hand: int, scheme: str) -> None:
        t = table.encode("utf-8")
        self.message = scheme.encode() + b"\x00" + len(t).to_bytes(4, "big") + t + hand.to_bytes(8, "big")
        self.message += len(seeds).to_bytes(4, "big")
        for seat in sorted(seeds):
            self.message += seat.to_bytes(4, "big") + len(seeds[seat]).to_bytes(4, "big") + seeds[seat]
        self.key, self.block, self.buffer = server_seed, 0, b""

    def bits(self, k: int) -> int:
        n = (k + 7) // 8
        while len(self.buffer) < n:
            self.buffer += hmac.new(self.key, self.message + self.block.to_bytes(8, "big"), hashlib.sha256).digest()
            self.block += 1
        taken, self.buffer = self.buffer[:n], self.buffer[n:]
        return int.from_bytes(taken, "big") >> (8 * n - k)

    def below(self, n: int) -> int:
        while True:
            r = self.bits(n.bit_length())
            if r < n:
                return r

    def shuffle(self, pack: list[str]) -> list[str]:
        x = list(pack)
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]
        return x


CACHO_PACK = [f"{rank}{suit}" for suit in "SHDC" for rank in ("A", "2", "3", "4", "5", "6")]


def cacho_deal(stream: Stream, rounds: list[list[int]], redeals: list[int]) -> dict[int, list[str]]:
    """deal.md §10.1: a card a round from the end of the pack; a redeal shuffles the pack again."""
    pack = stream.shuffle(CACHO_PACK)
    held: dict[int, list[str]] = {}
    for i, seats in enumerate(rounds):
        if i in redeals:
            pack, held = stream.shuffle(CACHO_PACK), {}
        for seat in seats:
            held.setdefault(seat, []).append(pack.pop())
    return held


# -- the walk-through ----------------------------------------------------------------------------
def body(event: table_pb2.Event) -> tuple[str, object]:
    kind = event.WhichOneof("body")
    inner = getattr(event, kind)
    if kind == "cacho":
        sub = inner.WhichOneof("body")
        return f"cacho.{sub}", getattr(inner, sub)
    return kind, inner


async def main(address: str) -> None:
    async with contextlib.AsyncExitStack() as stack:
        channel = await stack.enter_async_context(grpc.aio.insecure_channel(address))
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        tables = table_pb2_grpc.TableStub(channel)
        info = await lobby.GetInfo(lobby_pb2.GetInfoRequest())
        cacho = next(g for g in info.games if g.name == "cacho")
        say("info", info.version, [g.name for g in info.games], cacho.min_players, cacho.max_players)

        # §3: sign in with a key; the name is then this key's on this server.
        key = Ed25519PrivateKey.generate()
        proved = await sign_in(lobby, key, NAME)
        assert proved.name == NAME and proved.first and proved.session
        assert proved.fingerprint == fingerprint(raw_public_key(key)), proved.fingerprint
        say("proved", proved.name, "first" if proved.first else "again", proved.fingerprint)
        again = await sign_in(lobby, key, NAME)
        assert not again.first and again.session != proved.session
        for who, public in (("another key", raw_public_key(Ed25519PrivateKey.generate())), ("a guest", b"")):
            try:
                await lobby.Hello(players_pb2.HelloRequest(name=NAME, public_key=public))
                raise AssertionError(f"{who} was given {NAME}'s name")
            except grpc.aio.AioRpcError as err:
                p = problem_of(err)
                assert err.code() == grpc.StatusCode.PERMISSION_DENIED and p.args["name"] == repr(NAME), err
                say("refused", who, err.code().name, repr(p.id), dict(p.args))

        # §4: a table for two, the second seat a bot; sit with the session (no name needed).
        made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(
            game="cacho", name="guide", seats=2, bots=1, turn_seconds=600, bot_delay_ms=1))
        links = chain()  # docs/deal.md §3a: every seed this seat will send, fixed as it sits
        joined = await lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=made.table.id, session=proved.session,
                                                                  pledge=links[0]))
        me = joined.seat
        assert joined.table.seats[me].name == NAME
        say("joined", made.table.id, "seat", me, "first_seq", joined.first_seq, "at", joined.address or "the lobby")
        # §4a: the table's calls go where it is served ("": here; ":PORT": this host, that port).
        if joined.address:
            host = address.rpartition(":")[0]
            where = f"{host}{joined.address}" if joined.address.startswith(":") else joined.address
            tables = table_pb2_grpc.TableStub(await stack.enter_async_context(grpc.aio.insecure_channel(where)))
            located = await lobby.Locate(lobby_pb2.LocateRequest(token=joined.token))
            assert located.address == joined.address, located

        # §5–§8: the stream, the cut, the hand.
        last = 0
        seen: list[tuple[int, str, object]] = []
        my_seed = b""
        commitment, taken, stale_tried = "", None, False
        stream = tables.Subscribe(table_pb2.SubscribeRequest(token=joined.token))
        async for msg in stream:
            kind = msg.WhichOneof("body")
            if kind == "snapshot":
                view = msg.snapshot.view
                say("snapshot seq", msg.seq, "seat", msg.snapshot.seat, "game", view.WhichOneof("game"))
                last = msg.seq
                continue
            assert kind == "update", kind
            for event in msg.update.events:
                assert event.seq == (seen[-1][0] + 1 if seen else event.seq), (event.seq, seen[-1:])
                name, inner = body(event)
                seen.append((event.seq, name, inner))
                say("event", event.seq, name, *_detail(name, inner, me))
                if name == "deal_committed":
                    commitment = inner.commitment
                    follows = {p.seat: p.follows for p in inner.pledges}.get(me)
                    if inner.cut_ms and follows in links[:-1]:  # the link after the one it names
                        my_seed = links[links.index(follows) + 1]
                        cut = await tables.Cut(table_pb2.CutRequest(token=joined.token, hand=inner.hand, seed=my_seed))
                        taken = cut.taken
                        say("cut", "taken" if taken else "too late")
            last = msg.seq
            view = msg.update.view
            if view.hand_over:
                break
            if me in view.to_act and view.legal:
                action = choose(view.legal)
                if not stale_tried:  # §8: an action from a stale screen changes nothing
                    stale_tried = True
                    try:
                        await tables.Act(table_pb2.ActRequest(token=joined.token, action=action, seen_seq=1))
                        raise AssertionError("a stale seen_seq was taken")
                    except grpc.aio.AioRpcError as err:
                        assert err.code() == grpc.StatusCode.FAILED_PRECONDITION, err
                        say("refused stale", err.code().name, repr(problem_of(err).id))
                done = await tables.Act(table_pb2.ActRequest(token=joined.token, action=action, seen_seq=last))
                say("act", common_pb2.ActionType.Name(action.type), action.chips, "->", done.seq)

        # docs/deal.md §12: check the hand from its reveal.
        reveal = next(inner for _, name, inner in seen if name == "deal_revealed")
        assert hashlib.sha256(reveal.server_seed).hexdigest() == commitment
        seeds = {s.seat: s.seed for s in reveal.seeds}
        assert (seeds.get(me) == my_seed) == bool(taken), (taken, seeds)
        pledged = {p.seat: p.follows for p in reveal.pledges}  # §3a: every seed follows its seat's pledge
        assert all(link_before(seed) == pledged.get(seat) for seat, seed in seeds.items()), (seeds, pledged)
        hand_events = [(n, i) for _, n, i in seen if n.startswith("cacho.") or n in ("hand_started", "cards_dealt")]
        rounds = [list(i.seats) for n, i in hand_events if n == "cacho.round_dealt"]
        redeals, count = [], 0
        for n, _ in hand_events:
            count += n == "cacho.round_dealt"
            if n == "cacho.redealt":
                redeals.append(count)
        dealt = cacho_deal(Stream(reveal.server_seed, seeds, reveal.table, reveal.hand, reveal.scheme), rounds,
                           redeals)
        mine: list[str] = []
        for n, i in hand_events:  # the cards of the last deal: a redeal voids the ones before
            if n == "cacho.redealt":
                mine = []
            elif n == "cards_dealt" and i.seat == me:
                mine += i.cards
        assert mine == dealt[me], (mine, dealt)
        for n, i in hand_events:
            if n == "cacho.showed":
                assert list(i.cards) == dealt[i.seat], (i, dealt)
        say("verified", "hand", reveal.hand, "with my seed" if me in seeds else "without my seed",
            "seeds", sorted(seeds), "my cards", " ".join(mine))

        # §5: resume from the middle of the hand, then from its end.
        middle = next(s for s, n, _ in seen if n == "hand_started")
        again_stream = tables.Subscribe(table_pb2.SubscribeRequest(token=joined.token, after_seq=middle))
        first = await again_stream.read()
        assert first.WhichOneof("body") == "snapshot"
        replay = await again_stream.read()
        numbers = [e.seq for e in replay.update.events]
        assert numbers == list(range(middle + 1, last + 1)) and all(e.replay for e in replay.update.events), numbers
        assert not replay.update.HasField("view")
        hidden = [e.seq for e in replay.update.events if e.WhichOneof("body") == "hidden"]
        theirs = [s for s, n, _ in seen if n == "hidden"]
        assert hidden == [s for s in theirs if s > middle], (hidden, theirs)
        say("resumed after", middle, "replayed", len(numbers), "hidden", len(hidden))
        again_stream.cancel()
        up_to_date = tables.Subscribe(table_pb2.SubscribeRequest(token=joined.token, after_seq=last))
        first = await up_to_date.read()
        assert first.WhichOneof("body") == "snapshot" and first.seq >= last

        # §4: leaving ends the token's streams with a closing word.
        await lobby.Leave(lobby_pb2.LeaveRequest(token=joined.token))
        closing = None
        while closing is None:
            msg = await up_to_date.read()
            if msg is grpc.aio.EOF:
                break
            if msg.WhichOneof("body") == "closing":
                closing = msg.closing
        assert closing is not None and not closing.resubscribe, closing
        say("closed", repr(closing.reason), closing.problem.id == closing.reason)
    say("imported project:", any(m == "cardtui" or m.startswith("cardtui.") for m in sys.modules))


def choose(legal: list[common_pb2.Action]) -> common_pb2.Action:
    """§7: stay in the hand: bet, call or check; a range of amounts: its smallest."""
    for kind in (common_pb2.ACTION_TYPE_BET, common_pb2.ACTION_TYPE_CALL, common_pb2.ACTION_TYPE_CHECK):
        for a in legal:
            if a.type == kind:
                action = common_pb2.Action()
                action.CopyFrom(a)
                action.max_chips = 0  # one amount: the range's first
                return action
    return legal[0]


def _detail(name: str, inner: object, me: int) -> list[object]:
    if name == "cards_dealt":
        return [f"seat {inner.seat}", " ".join(inner.cards)]
    if name == "acted":
        return [f"seat {inner.seat}", common_pb2.ActionType.Name(inner.action.type), inner.action.chips]
    if name == "cacho.round_dealt":
        return [f"round {inner.round}", list(inner.seats)]
    if name in ("hand_started", "deal_committed", "deal_revealed"):
        return [f"hand {inner.hand}"]
    if name == "cacho.showed":
        return [f"seat {inner.seat}", " ".join(inner.cards)]
    if name == "hand_ended":
        return [list(inner.deltas)]
    return []


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
