"""A claim window gives nothing away (docs/rules.md §1, issue 25 §5).

After every discard at Pif Paf and Cacheta a window opens to every other player, for the same
time, whether or not anyone can take the card. Real tables on a real server play many hands;
a spectator and every seat are subscribed over gRPC. The stored hand histories say, for each
window, who could have claimed (their answers are there: a claim, a cut, or the pass a window's
end writes for them). Every window nobody took is then compared as each audience saw it: the
messages from the discard to the window's close, their events and their views. A window that
someone could have taken must look exactly like one nobody could, to everyone but that someone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest

from cardtui.server.app import Running
from cardtui.v1 import common_pb2, rummy_pb2, table_pb2
from tests.conftest import Player, create
from tests.server.test_audit import watch
from tests.waiting import PATIENCE, eventually

DISCARDS = 100
"""Windows to see at a table of bots, at least: enough that many could have been taken."""

Look = tuple[Any, ...]
"""What one audience saw of one window, from its discard to its close."""


@dataclass
class Window:
    deal: int
    discard: int
    """Which discard of its deal (1, 2, …)."""
    discarder: int
    card: str
    looks: dict[int | None, Look] = field(default_factory=dict)
    """By audience (a seat, or None for the spectator)."""
    open_ms: dict[int | None, int] = field(default_factory=dict)
    """The time left the view showed as the window opened, by audience."""


def event_kind(ev: table_pb2.Event) -> str:
    body = ev.WhichOneof("body")
    if body == "rummy":
        return str(ev.rummy.WhichOneof("body"))
    return str(body)


def view_look(view: table_pb2.View, discarder: int, n: int) -> Look:
    """The view's window as the public sees it: seats relative to the discarder (which seats
    it is open to is public), and for a seat its own answer and whether it may let the window go
    (what else it may do, Cacheta's na boa, is its own cards' business)."""
    r = view.rummy
    passing = any(a.type == common_pb2.ACTION_TYPE_PASS for a in view.legal)
    return (r.phase, tuple((s - discarder) % n for s in view.to_act), r.HasField("window"), r.answered, passing,
            view.deadline_ms > 0, view.hand_over)


def windows_seen(messages: list[table_pb2.TableMessage], audience: int | None, n: int) -> list[Window]:
    """Each window in one audience's stream, with how it looked to that audience."""
    out: list[Window] = []
    deal = 0
    count = 0
    current: Window | None = None
    look: list[Any] = []
    for msg in messages:
        if msg.WhichOneof("body") != "update":
            continue
        events = list(msg.update.events)
        kinds = [event_kind(e) for e in events]
        for ev in events:
            if ev.WhichOneof("body") == "deal_committed":
                deal, count = ev.deal_committed.hand, 0
        if current is None:
            opened = next((e for e in events if event_kind(e) == "window_opened"), None)
            if opened is None:
                continue
            count += 1
            w = opened.rummy.window_opened
            current = Window(deal, count, w.discarder, w.card)
            start = kinds.index("window_opened")
            look = [tuple(kinds[start - 1:]), view_look(msg.update.view, w.discarder, n)]
            current.open_ms[audience] = msg.update.view.deadline_ms
        else:
            look.append((tuple(kinds), view_look(msg.update.view, current.discarder, n)))
        if "window_closed" in kinds:
            closed = next(e for e in events if event_kind(e) == "window_closed").rummy.window_closed
            look.append(closed.HasField("taken_by"))
            current.looks[audience] = tuple(look)
            out.append(current)
            current = None
    return out


def could_claim(records: list[dict[str, Any]]) -> dict[tuple[int, int], set[int]]:
    """By (deal, discard): the seats that could have taken it, from each window's answers in the
    histories (every seat that could claim answers, or the window's end passes for it)."""
    out: dict[tuple[int, int], set[int]] = {}
    for record in records:
        count = 0
        for entry in record["actions"]:
            kind = entry["type"]
            if kind == "discard":
                count += 1
                out[record["hand"], count] = set()
            elif kind in ("pass", "claim", "cut") and entry.get("card") is not None and count:
                out[record["hand"], count].add(entry["seat"])
    return out


def compare(windows: dict[int | None, list[Window]], records: list[dict[str, Any]]) -> dict[str, int]:
    """Every window nobody took, as each audience saw it: one look per public context."""
    claimers = could_claim(records)
    stored = {r["hand"] for r in records}
    figures = {"windows": 0, "claimable": 0, "compared": 0, "equal": 0}
    by_context: dict[tuple[Any, ...], set[Look]] = defaultdict(set)
    rows = []
    for audience, seen in windows.items():
        for w in seen:
            if w.deal not in stored or (w.deal, w.discard) not in claimers:
                continue  # its hand is not stored yet
            who = claimers[w.deal, w.discard]
            look = w.looks[audience]
            if look[-1]:
                continue  # taken: a claim is news to everyone
            if audience in who:
                continue  # that seat knows it could claim: its own view says so
            # What is public: who discarded, who it is open to, and who is looking.
            context = (audience, w.discarder, look[1][1])
            rows.append((context, w, bool(who), look))
    for context, _, _, look in rows:
        by_context[context].add(look)
    for context, _, claimable, _ in rows:
        figures["compared"] += 1
        figures["claimable"] += claimable
        figures["equal"] += len(by_context[context]) == 1
    figures["windows"] = len({(w.deal, w.discard) for _, w, _, _ in rows})
    figures["claimable windows"] = len({(w.deal, w.discard) for _, w, c, _ in rows if c})
    differ = {k: sorted(map(repr, v)) for k, v in by_context.items() if len(v) > 1}
    assert not differ, "\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in differ.items())
    return figures


async def play_until(server: Running, table_id: str, players: list[Player], discards: int) -> None:
    """Until ``discards`` windows have closed in finished hands, and every stream has caught up."""
    table = server.room.tables[table_id]

    def closed() -> int:
        return sum(a["type"] == "discard" for line in server.store.hands.all(table_id)
                   for a in json.loads(line)["actions"])

    await eventually(lambda: closed() >= discards, f"{discards} discards in stored hands")
    final = table.seq
    for p in players:
        await p.wait_for(lambda q: bool(q.messages) and q.messages[-1].seq >= final, timeout=10)


@pytest.mark.parametrize(("game", "level"), [("pifpaf", "normal"), ("cacheta", "hard")])
async def test_a_window_looks_the_same_whether_or_not_anyone_can_claim(server: Running, game: str, level: str) -> None:
    """Bots only. A Pif Paf bot claims whenever it can, so every window it could take is taken;
    a Cacheta bot on na boa may cut every window and lets most go: those look like any other."""
    options = {"chips": common_pb2.OptionValue(number=200)} if game == "pifpaf" else {
        "start_points": common_pb2.OptionValue(number=30)}
    table_id = await create(server, game=game, seats=4, bots=4, bot_delay_ms=5, bot_levels=[level], options=options)
    audit = await watch(server, table_id)
    target = DISCARDS
    while True:
        await play_until(server, table_id, audit.players, target)
        records = [json.loads(line) for line in server.store.hands.all(table_id)]
        windows = {p.seat if p.seat >= 0 else None: windows_seen(p.messages, p.seat if p.seat >= 0 else None, 4)
                   for p in audit.players}
        figures = compare(windows, records)
        enough = figures["windows"] >= DISCARDS // 2 and (game != "cacheta" or figures["claimable windows"] >= 3)
        if enough or target >= 4 * DISCARDS:
            break
        # deals where the bots took many windows, or (Cacheta) few players reached na boa: play on until enough
        # windows are compared, and some could be cut
        target += DISCARDS
    discards = sum(1 for r in records for a in r["actions"] if a["type"] == "discard")
    print(f"{game}: {discards} discards in {len(records)} hands; {figures}")  # the run's figures, with -s
    assert discards >= DISCARDS
    # Windows taken, and those of the hand in play when the streams opened, are not compared.
    assert figures["windows"] >= DISCARDS // 2, "a window after every discard, most of them compared"
    if game == "cacheta":
        assert figures["claimable windows"] >= 3, "some windows could have been taken and were not"
    assert figures["equal"] == figures["compared"]
    for p in audit.players:
        await p.close()


async def test_with_a_person_at_the_table_every_window_lasts_claim_ms(server: Running,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana sits at Cacheta with two bots and a spectator watches. She declares na boa when she
    can, and never answers a window, though after her na boa she may cut every one: each window
    shows her and the spectator the same claim_ms on opening, and closes the same way."""
    from tests.client.rummy_rig import rigged_deck

    # Every seat is dealt a hand one card from going out, whoever deals: ana declares at once.
    deck = rigged_deck({0: "AS 2S 3S 4H 5H 6H 7C 8C KD", 1: "7S 8S 9S 10D JD QD 4C 5C KH",
                        2: "JS QS KS 5D 6D 7D 9C 10C QH"}, [1, 2, 0], flip="2D")
    monkeypatch.setattr("cardtui.engine.rummy.base.shuffled", lambda cards, rng: list(deck))
    claim_ms = 500
    table_id = await create(server, game="cacheta", seats=3, bots=2, bot_delay_ms=5, turn_seconds=60,
                            bot_levels=["hard"],
                            options={"claim_ms": common_pb2.OptionValue(number=claim_ms),
                                     "start_points": common_pb2.OptionValue(number=30)})
    eve = await Player(f"127.0.0.1:{server.port}").spectate(table_id, "eve")
    eve.subscribe()
    ana = await Player(f"127.0.0.1:{server.port}").join(table_id, "ana")
    ana.subscribe()
    wanted = 16

    def windows() -> int:
        return sum(1 for e in ana.events if event_kind(e) == "window_closed")

    async def play() -> None:
        acted = 0
        while windows() < wanted:
            await ana.wait_for(lambda q, seen=acted: len(q.messages) > seen, timeout=30)
            acted = len(ana.messages)
            view = ana.last_view
            if view is None or ana.seat not in view.to_act or view.rummy.HasField("window"):
                continue  # a window: she lets its time run out
            choice = _ana_plays(view)
            if choice is not None:
                with contextlib.suppress(grpc.aio.AioRpcError):  # the table moved on meanwhile: look again
                    await ana.act(choice)

    await asyncio.wait_for(play(), PATIENCE)
    table = server.room.tables[table_id]
    await eventually(lambda: server.store.hands.count_hands(table_id), "a hand stored")
    final = table.seq
    for p in (ana, eve):
        await p.wait_for(lambda q: q.messages[-1].seq >= final, timeout=10)
    records = [json.loads(line) for line in server.store.hands.all(table_id)]
    seen = {ana.seat: windows_seen(ana.messages, ana.seat, 3), None: windows_seen(eve.messages, None, 3)}
    figures = compare(seen, records)
    stored = {r["hand"] for r in records}
    opened = [ms for who, ws in seen.items() for w in ws if w.deal in stored for ms in [w.open_ms[who]]]
    print(f"a person at the table: {len(opened)} window openings seen, {min(opened)}–{max(opened)} ms left; {figures}")
    assert opened and all(claim_ms - 100 <= ms <= claim_ms for ms in opened), opened
    assert figures["equal"] == figures["compared"] > 0
    assert figures["claimable windows"] >= 1, "ana on na boa could have cut some windows"
    await ana.close()
    await eve.close()


def _ana_plays(view: table_pb2.View) -> common_pb2.Action | None:
    """A plain way to play her turns: check or call, draw from the stock, knock when she can,
    else throw the card she drew (or her first)."""
    by_type: dict[int, list[common_pb2.Action]] = defaultdict(list)
    for a in view.legal:
        by_type[a.type].append(a)
    for kind in (common_pb2.ACTION_TYPE_KNOCK, common_pb2.ACTION_TYPE_DECLARE, common_pb2.ACTION_TYPE_CHECK,
                 common_pb2.ACTION_TYPE_CALL):
        if by_type[kind]:
            return by_type[kind][0]
    stock = [a for a in by_type[common_pb2.ACTION_TYPE_DRAW] if a.source == common_pb2.DRAW_SOURCE_STOCK]
    if stock:
        return stock[0]
    discards = by_type[common_pb2.ACTION_TYPE_DISCARD]
    drawn = view.rummy.drawn if view.rummy.HasField("drawn") else None
    return next((a for a in discards if list(a.cards) == [drawn]), discards[0] if discards else None)


_ = rummy_pb2  # the views read here are rummy views
