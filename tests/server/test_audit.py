"""Leak audit: every card each audience receives over gRPC, checked against what it may see.

Bots play real tables; every seat and a spectator are subscribed over real gRPC and all
they receive is recorded. The table's event log (with the audiences the engine gave each
event) says what became public and what was told to one seat, and when; the stored hand
histories say independently which cards each seat was dealt. A card is a leak when it
reaches an audience before that audience may know it in that hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from cardtui.engine.cards import Card
from cardtui.engine.core import Bound, Event, Game
from cardtui.engine.games import GAMES
from cardtui.engine.rummy.melds import wild_cards
from cardtui.server.actor.fanout import Fanout, Holders, Numbered
from cardtui.server.actor.table import Table
from cardtui.server.app import Running
from cardtui.server.base import wire
from cardtui.server.lobby.room import Pass, new_token
from cardtui.server.store import token_digest
from cardtui.v1 import table_pb2
from tests.conftest import Player, create
from tests.held import cards_in as held_cards
from tests.waiting import eventually

HANDS = 6
RUMMY_HANDS = 2
"""Finished hands per table: enough for a showdown, a new deal and often a new match.
Rummy hands run to dozens of draws and a claim window after each discard."""

CASES = [(name, n) for name, rules in GAMES.items() for n in rules.player_counts]

# Whole tokens only: "AS" in "PASS" or "7e" in "17e3" are not cards.
CARD = re.compile(r"(?<![0-9A-Za-z])(?:(?:10|[2-9AJQK])[SHDC]|(?:1[012]|[1-7])[eboc])(?![0-9A-Za-z])")
BETWEEN_HANDS = {"HandEnded", "MatchEnded", "DealRevealed", "DealCommitted"}
"""Events between two hands' cards: a fair deal's reveal closes a hand, and the next one's
commitment comes with the view of the hand before (no cards of its own)."""


NAMES_NOT_PLACES = ("outs", "wilds")
"""Fields that name cards without saying where any copy is: the cards that would complete
your hand, the wild ranks the public flip makes. They reveal nothing hidden."""


def strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            if not any(word in str(k) for word in NAMES_NOT_PLACES):
                yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def message_strings(msg: Message) -> Iterator[str]:
    """Every string a protobuf message carries, however deep (card-naming fields aside)."""
    for fd, value in msg.ListFields():
        if any(word in fd.name for word in NAMES_NOT_PLACES):
            continue
        values = value if fd.is_repeated else [value]
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            values = [v for _, v in value.items()]
            if fd.message_type.fields_by_name["value"].message_type is None:
                yield from (str(v) for v in values)
                continue
        for v in values:
            if fd.type == FieldDescriptor.TYPE_MESSAGE:
                yield from message_strings(v)
            elif fd.type == FieldDescriptor.TYPE_STRING:
                yield v


def cards_in(texts: Iterable[str]) -> set[str]:
    return {c for t in texts for c in CARD.findall(t)}


def record_cards(record: object) -> set[str]:
    """The cards an engine record names, however deep (``tests.held``)."""
    return {str(c) for c in held_cards(record, NAMES_NOT_PLACES)}


def event_cards(ev: Event) -> set[str]:
    return record_cards(ev.body)


def message_cards(msg: table_pb2.TableMessage) -> set[str]:
    return cards_in(message_strings(msg))


@dataclass
class Log:
    """A table's whole event log, cut into hands, with what each audience knew when."""

    events: dict[int, Event]
    hand_of: dict[int, int] = field(default_factory=dict)
    cards_of: dict[int, set[str]] = field(default_factory=dict)
    """The cards each event names, by its number (``allowed`` reads the hand so far at every message)."""

    def __post_init__(self) -> None:
        hand, ended = 0, False
        for seq in sorted(self.events):
            kind = self.events[seq].kind
            if ended and kind not in BETWEEN_HANDS:
                hand, ended = hand + 1, False
            ended = ended or kind == "HandEnded"
            self.hand_of[seq] = hand
        assert sorted(self.events) == list(range(1, len(self.events) + 1)), "the log has no holes"

    def allowed(self, seat: int | None, upto: int) -> set[str]:
        """Cards ``seat`` (None: a spectator) may know at event ``upto``: this hand's, public or its own."""
        hand = self.hand_of.get(upto, 0)
        out: set[str] = set()
        for seq in range(1, upto + 1):
            ev = self.events[seq]
            if self.hand_of[seq] == hand and ev.audience.sees(seat):
                cards = self.cards_of.get(seq)
                if cards is None:
                    cards = self.cards_of[seq] = event_cards(ev)
                out |= cards
        return out

    def hands(self) -> int:
        return max(self.hand_of.values(), default=0) + 1


def check_stream(log: Log, seat: int | None, messages: list[table_pb2.TableMessage]) -> int:
    """One subscriber's stream: numbering, placeholders, and no card before its time.

    Returns how many cards the stream carried, so a test can tell it saw something.
    """
    who = "the spectator" if seat is None else f"seat {seat}"
    assert messages and messages[0].HasField("snapshot"), f"{who}: a subscription opens with a snapshot"
    snap = messages[0].snapshot
    assert (snap.seat if snap.HasField("seat") else None) == seat
    expected = messages[0].seq
    seen = 0
    cache: dict[int, set[str]] = {}
    for i, msg in enumerate(messages):
        if msg.HasField("closing"):
            continue
        if i == 1 and msg.update.events and all(e.replay for e in msg.update.events):
            # A newcomer's opening replay: the hand so far, up to the snapshot, with no view.
            got = [e.seq for e in msg.update.events]
            assert got == list(range(got[0], expected + 1)), f"{who}: the hand so far, up to the snapshot"
            assert msg.seq == expected and not msg.update.HasField("view")
        elif msg is not messages[0]:
            got = [e.seq for e in msg.update.events]
            assert got == list(range(expected + 1, expected + 1 + len(got))), f"{who}: no holes, none twice"
            assert got and msg.seq == got[-1], f"{who}: a message's seq is its last event's"
            assert msg.update.HasField("view"), f"{who}: each batch carries the view after it"
            expected = msg.seq
        for e in msg.update.events:
            ev = log.events[e.seq]
            hidden = table_pb2.Event(seq=e.seq, replay=e.replay, hidden={})
            if e.replay and not ev.audience.public and e == hidden:
                pass  # a replay gives a token only what was private to that token (these are granted, not sat)
            elif ev.audience.sees(seat):
                assert e == wire.event_message(e.seq, ev, seat, replay=e.replay), f"{who}: event {e.seq} arrives whole"
            else:
                assert e == table_pb2.Event(seq=e.seq, replay=e.replay, hidden={}), (
                    f"{who}: event {e.seq} ({ev.kind}) is not for it and must arrive empty, got {e}"
                )
        found = message_cards(msg)
        seen += len(found)
        if msg.seq not in cache:
            cache[msg.seq] = log.allowed(seat, msg.seq)
        leaked = found - cache[msg.seq]
        assert not leaked, f"{who} received {sorted(leaked)} before it may see them, in message {msg.seq}: {msg}"
    return seen


def check_audiences(log: Log, records: list[dict[str, Any]]) -> None:
    """The engine's audiences against the hand histories: a seat is told only cards it holds.

    A seat holds what it was dealt or moved itself (draws); in a mão de onze the team on 11
    also sees the partner's hand; in a mão de ferro nobody is told any card.
    """
    for seq, ev in log.events.items():
        hand = log.hand_of[seq]
        if hand >= len(records):
            continue
        record = records[hand]
        named = event_cards(ev)
        result = record.get("result", {})
        if ev.audience.public:
            # Public cards are the ones the history records as moved or shown, never a held hand.
            shown = cards_in(strings(result)) | cards_in(strings(record.get("actions", [])))
            flip = record.get("flip")
            if flip:  # the flip is shown, and names the wild cards (their whereabouts stay hidden)
                shown |= {flip, *(str(c) for c in wild_cards(Card.parse(flip)))}
            if record.get("up"):  # Chinchón's card turned up to start the pile: shown to all, as the history says
                shown.add(str(record["up"]))
            assert named <= shown, f"everyone is told {sorted(named - shown)}, which no one showed: {ev}"
            continue
        if result.get("ferro"):
            assert not named, f"in a mão de ferro nobody is told a card: {ev}"
            continue
        deal = {int(s): set(cs) for s, cs in record["deal"].items()}
        moved: dict[int, set[str]] = {}
        for a in record.get("actions", []):
            if a.get("seat") is not None:
                moved.setdefault(int(a["seat"]), set()).update(cards_in(strings(a)))
        onze = result.get("onze")
        teams = {int(s["seat"]): int(s.get("team", s["seat"])) for s in record["seats"]}
        for s in ev.audience.seats or ():
            mine = deal.get(s, set()) | moved.get(s, set())
            if onze is not None and teams[s] == onze:
                mine |= {c for p, cs in deal.items() if teams[p] == onze for c in cs}
            assert named <= mine, f"seat {s} is told {sorted(named - mine)}, which it does not hold: {ev}"


LOGS: dict[Fanout, dict[int, Event]] = {}
"""Every event each table has numbered, as the engine made it: what the streams are checked against."""


@pytest.fixture(autouse=True)
def log_every_event(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    number = Fanout.number

    def logged(self: Fanout, events: Sequence[Event], holders: Holders) -> list[Numbered]:
        batch = number(self, events, holders)
        LOGS.setdefault(self, {}).update(zip((seq for seq, *_ in batch), events, strict=True))
        return batch

    monkeypatch.setattr(Fanout, "number", logged)
    yield
    LOGS.clear()


@dataclass
class Audit:
    table: Table
    watcher: Player
    seats: list[Player]

    @property
    def players(self) -> list[Player]:
        return [self.watcher, *self.seats]


async def watch(server: Running, table_id: str) -> Audit:
    """Subscribe a spectator and every seat over gRPC; the table keeps its whole log."""
    address = f"127.0.0.1:{server.port}"
    table = server.room.tables[table_id]
    watcher = await Player(address).spectate(table_id)
    seats = []
    for s in range(len(table.seating)):
        # Bots fill every seat, so no JoinTable can reach one: grant each seat's view directly.
        token = new_token()
        key = token_digest(token)  # the room knows a token by its digest only
        server.room.tokens[key] = Pass(table, s, table.seating[s].name, key)
        table.seating[s].token = key  # what the seat's private events are addressed to
        seats.append(Player(address, token=token, seat=s))
    audit = Audit(table, watcher, seats)
    for p in audit.players:
        p.subscribe()
    return audit


async def finish(server: Running, audit: Audit, hands: int) -> tuple[Log, list[dict[str, Any]]]:
    """Let ``hands`` hands finish, drain every stream up to then, and return the log and histories."""
    table = audit.table
    await eventually(lambda: server.store.hands.count_hands(table.id) >= hands, f"{hands} hands stored")
    final = table.seq
    for p in audit.players:
        await p.wait_for(lambda q: bool(q.messages) and q.messages[-1].seq >= final)
    for p in audit.players:
        await p.close()
    table.shutdown("The audit is over.")
    log = Log(dict(LOGS[table.fanout]))
    records = [json.loads(line) for line in server.store.hands.all(table.id)]
    return log, records


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
async def test_no_audience_receives_a_card_before_it_may_see_it(server: Running, game: str, players: int) -> None:
    # Bots fast, but not so fast that they starve the streams they are watched on.
    table_id = await create(server, game=game, seats=players, bots=players, bot_delay_ms=5)
    audit = await watch(server, table_id)
    hands = RUMMY_HANDS if game in ("pifpaf", "cacheta") else HANDS
    log, records = await finish(server, audit, hands)
    assert len(records) >= hands and log.hands() >= hands
    check_audiences(log, records)
    check_stream(log, None, audit.watcher.messages)
    for p in audit.seats:
        assert check_stream(log, p.seat, p.messages) > 0, f"seat {p.seat} saw its own cards"
        told = {c for ev in log.events.values() if ev.audience.seats and p.seat in ev.audience.seats
                for c in event_cards(ev)}
        assert told, f"seat {p.seat} was dealt cards in private"
        # The audit has teeth: this seat's stream, checked as its neighbour's, holds secrets.
        other = (p.seat + 1) % players
        assert any(message_cards(m) - log.allowed(other, m.seq) for m in p.messages), (
            f"seat {p.seat} holds something seat {other} may not see"
        )


@pytest.mark.parametrize("scores", [(11, 4), (7, 11), (11, 11)], ids=["onze-0", "onze-1", "ferro"])
async def test_truco_paulista_at_eleven_shows_the_partners_hand_and_blinds_the_iron_hand(
    server: Running, scores: tuple[int, int]
) -> None:
    """A mão de onze lets the team on 11 see both its hands; a mão de ferro shows no one a card."""
    if "truco_paulista" not in GAMES:
        pytest.skip("truco paulista is not offered")
    game = GAMES["truco_paulista"]
    table_id = await create(server, game="truco_paulista", seats=4, bots=4, bot_delay_ms=60_000)
    table = server.room.tables[table_id]
    # Deal a hand at the wanted score before anyone watches; the log starts with it.
    table.fanout.buffer.clear()
    LOGS.pop(table.fanout, None)
    table.config.bot_delay = 0.001
    seats = game.seat_infos(table.seating.names())
    assert isinstance(game, Game)
    state, events = game.resume(game.options(table.options), seats, scores, 0, 1, 20240601)
    table.match = Bound(game, state)
    table.fanout.seq = 0
    table._changed(events)
    audit = await watch(server, table_id)
    log, records = await finish(server, audit, 2)
    first = records[0]["result"]
    onze = 0 if scores == (11, 4) else 1 if scores == (7, 11) else None
    assert first.get("ferro") is (scores == (11, 11)) and first.get("onze") == onze
    check_audiences(log, records)
    check_stream(log, None, audit.watcher.messages)
    for p in audit.seats:
        check_stream(log, p.seat, p.messages)
    deal = {int(s): set(cs) for s, cs in records[0]["deal"].items()}
    for p in audit.seats:
        first_hand = [m for m in p.messages if log.hand_of.get(m.seq, 0) == 0]
        got = set().union(*(message_cards(m) for m in first_hand))
        partner = (p.seat + 2) % 4
        if onze is not None and p.seat % 2 == onze:
            assert deal[partner] <= got, "the team on 11 sees the partner's hand"
        if scores == (11, 11):
            played = {c for t in first.get("tricks", []) for c in t["cards"].values()}
            assert not (deal[p.seat] - played) & got, "in a mão de ferro a seat never sees its unplayed cards"
