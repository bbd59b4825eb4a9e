"""A person's client at a sealed truco table, played the way the tests play it (``tests/server/test_sealed_table.py``,
the matrix's sealed hand): a real ``Connection`` with its ``SealedSeat`` and its keys in a folder of its own, following
the table and acting when the table waits on it by one fixed way of playing (``choose``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from google.protobuf import text_format

from cardtui.client.connection import Connection
from cardtui.client.fairness import FairDeals
from cardtui.client.models import action_name
from cardtui.client.sealed_keys import SealedKeys
from cardtui.client.sealed_seat import SealedSeat
from cardtui.engine.cards import Card
from cardtui.engine.core import Action
from cardtui.engine.truco.envido import Unsuited, envido
from cardtui.server.base import wire
from cardtui.v1 import sealed_pb2, table_pb2
from tests.waiting import LOOK, eventually_async


@dataclass
class Player:
    """A person at the table: a real connection, their sealed seat, what they last saw and what they did."""

    name: str
    conn: Connection
    token: str
    seat: int
    sealed: SealedSeat
    view: table_pb2.View | None = None
    seq: int = 0
    ended: bool = False
    snapshots: int = 0
    """How many snapshots the stream brought: one more each time it opened again (a drop, a kill)."""
    events: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    """The stream in lines (a snapshot's number; each event, its start, a sealed one by name): what a failure shows."""
    early: list[int] = field(default_factory=list)
    """Each update whose view offered this seat a move while its deal was still being made (before ``ready``): a
    turn said then could not be taken, and would not be said again when play began."""


async def sit_at(address: str, table_id: str, name: str, root: Path) -> Player:
    """``name`` seated at ``table_id`` through the lobby at ``address``, the sealed keys in ``root / name``."""
    conn = Connection.open(address)
    joined = await conn.join(table_id, name)  # (the client's own call: it keeps where the table is served)
    return Player(name, conn, joined.token, joined.seat, SealedSeat(conn.target, SealedKeys(root / name)))


def dealt(player: Player) -> bool:
    """The deal is done for ``player``: every proof of it in (play may begin) and their three cards open (which they
    are, and shown, as soon as the others' keys came, before the proofs)."""
    return player.sealed.ready and len(player.sealed.own_cards()) == 3


async def follow(player: Player) -> None:
    async for msg in player.conn.follow(player.token, fair=FairDeals(), sealed=player.sealed):  # (it cuts too)
        if msg.HasField("snapshot"):
            player.told.append(f"@{msg.seq} snapshot")
            player.view = msg.snapshot.view
            player.snapshots += 1
        elif msg.HasField("update"):
            for event in msg.update.events:
                name = event.WhichOneof("body") or ""
                player.events.append(name if name != "sealed" else event.sealed.WhichOneof("body") or "")
                player.told.append(f"@{event.seq} sealed {player.events[-1]}" if name == "sealed" else
                                   text_format.MessageToString(event, as_one_line=True)[:120])
                player.ended = player.ended or name == "hand_ended"
            if msg.update.HasField("view"):
                player.view = msg.update.view
                if player.view.legal and not player.sealed.ready:
                    player.early.append(msg.seq)
        player.seq = max(player.seq, msg.seq)


Choice = tuple[int, Action]


def choose(player: Player, called: list[bool]) -> tuple[Action | None, sealed_pb2.SealRequest | None]:
    """A fixed way to play: the first seat to speak calls envido once, it is wanted, each says its count, every
    card is played in the order dealt, the claim is shown; nothing else is said. In truco paulista the mão rejects
    its first block, passes the next to its partner and keeps the third; a mão de onze is played."""
    assert player.view is not None
    legal = {action_name(a): wire.action_of(a) for a in player.view.legal}
    offers = {action_name(a): a for a in player.view.legal}
    own = player.sealed.own_cards()
    paulista = player.view.truco.paulista
    if player.sealed.seat in player.sealed.hosts:  # a host's seat this hand (sat down at during it): by name
        named = next((a for a in player.view.legal if action_name(a) in ("show", "play") and a.cards), None)
        if named is not None:
            return wire.action_of(named), None
        return next((legal[n] for n in ("keep", "accept", "quiero", "son_buenas", "announce", "show") if n in legal),
                    None), None
    for name in ("reject", "pass_cards", "play_blind"):  # truco paulista: the mão rejects once, then passes, then keeps
        if name in offers and (name != "reject" or paulista.rejects_left == 3):
            return legal[name], player.sealed.step_for(offers[name])
    if "keep" in legal or "accept" in legal:  # (no truco is called here: an accept is a mão de onze played)
        return legal.get("keep") or legal["accept"], None
    if "envido" in legal and not called[0]:
        called[0] = True
        return legal["envido"], None
    if "quiero" in legal:
        return legal["quiero"], None
    if "announce" in legal or "son_buenas" in legal:  # one's true count if it takes the lead, else son buenas
        count, _ = envido([Card.parse(c) for c in player.sealed.dealt()], Unsuited(player.sealed.unsuited))
        offered = [wire.action_of(a) for a in player.view.legal if action_name(a) == "announce"]
        return next((a for a in offered if a.amount == count), None) or legal["son_buenas"], None
    if "show" in legal:
        dealt = [Card.parse(c) for c in player.sealed.dealt()]
        _, cards = envido(dealt, Unsuited(player.sealed.unsuited))
        return Action("show", cards=cards), player.sealed.showing([str(c) for c in cards])
    if "play" in legal and own:
        card = own[min(own)]
        return Action("play", cards=(Card.parse(card),)), player.sealed.opening(card)
    return None, None


async def play_hand(players: list[Player], done: Callable[[], bool], called: list[bool] | None = None) -> list[Choice]:
    """Each seat acts when the table waits on it, until ``done``; every choice, as the open table would take it.
    ``called``: whether envido was called already (a hand played on in parts shares one)."""
    said: list[Choice] = []
    called = [False] if called is None else called
    acted: set[tuple[int, int]] = set()
    stale: list[str] = []
    """Each move the table refused as out of its time (a view already stale): said if the hand never ends."""

    async def turn() -> bool:
        for p in players:
            view = p.view
            if view is None or p.seat not in view.to_act or not view.legal or (p.seat, p.seq) in acted:
                continue
            was = called[0]
            action, step = choose(p, called)
            if action is None:
                continue
            acted.add((p.seat, p.seq))
            try:
                if step is not None:
                    await p.conn.seal(p.token, step)
                else:
                    await p.conn.act(p.token, wire.action_message(action), p.seq)
            except grpc.aio.AioRpcError as err:
                if err.code() is grpc.StatusCode.RESOURCE_EXHAUSTED:  # every seat here shares 127.0.0.1's allowance:
                    acted.discard((p.seat, p.seq))  # asked to slow down, the person makes the same move again
                    called[0] = was
                    continue
                assert err.code() is grpc.StatusCode.FAILED_PRECONDITION, err.details()
                stale.append(f"{p.name} at {p.seq}: {err.details()}")
                continue  # a stale view: look again
            said.append((p.seat, action))
            return True
        return False

    async def moved() -> bool:
        if not await turn():
            await asyncio.sleep(LOOK)  # nothing to do until the stream says more
        return done()

    try:
        await eventually_async(moved, "the hand's end")  # (the default patience: a busy host plays slowly)
    except AssertionError as err:
        raise AssertionError(f"the hand never ended ({err}): " + "; ".join(
            f"{p.name} to act {list(p.view.to_act) if p.view else None}, may "
            f"{[action_name(a) for a in p.view.legal] if p.view else None}, holds {p.sealed.own_cards()}, "
            f"refused {p.sealed.refused}, named {p.sealed.named}" for p in players) + f"; said {said}; stale {stale}"
        ) from None
    return said
