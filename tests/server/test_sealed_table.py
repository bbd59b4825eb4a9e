"""A sealed truco table on a real server of one process (docs/deal.md, "Sealed tables"): two real clients
(``Connection`` objects, each with its ``SealedSeat`` and its keys in its own folder) make the deal, play a hand
to its end with an envido called and shown, and it scores exactly as the open table with the same cards and the
same choices. Before any card is played, nothing the host holds (its store, the table's memory) opens one."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
import pytest_asyncio

from cardtui.client.connection import Connection
from cardtui.client.sealed_keys import SealedKeys
from cardtui.client.sealed_seat import SealedSeat
from cardtui.engine.cards import Card
from cardtui.engine.core import SeatInfo
from cardtui.engine.truco.argentino.game import GAME as ARGENTINO
from cardtui.sealed import shuffle
from cardtui.sealed.deck import SeatSecrets
from cardtui.sealed.envelopes import open_envelope
from cardtui.sealed.group import mul, product, scalar_bytes
from cardtui.sealed.ledger import Ledger
from cardtui.sealed.plan import Release
from cardtui.sealed.record import replay
from cardtui.sealed.seat import SeatHand
from cardtui.server.app import Running, start
from cardtui.v1 import common_pb2, sealed_pb2, table_pb2
from tests.conftest import create
from tests.sealed_play import Choice, Player, dealt, follow, play_hand, sit_at
from tests.waiting import eventually

SEALED = {"sealed": common_pb2.OptionValue(flag=True)}


@pytest.fixture(autouse=True)
def few_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four cut-and-choose rounds, not 24: nothing here rests on the shuffle proof's strength (tests/sealed)."""
    monkeypatch.setattr(shuffle, "ROUNDS", 4)


@pytest_asyncio.fixture
async def one_process(tmp_path: Path) -> AsyncIterator[Running]:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=60.0,
                          cut_window=1.0)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


async def sit(running: Running, table_id: str, name: str, root: Path) -> Player:
    return await sit_at(f"127.0.0.1:{running.port}", table_id, name, root)


def open_table(dealer: int, dealt: dict[int, list[str]], said: list[Choice]) -> list[int]:
    """The open table with the same cards and the same choices: its scores (a show is the engine's own there)."""
    n = len(dealt)
    st, _ = ARGENTINO.resume(ARGENTINO.options({}), [SeatInfo(i, f"p{i}", i % 2) for i in range(n)], [0] * n, dealer,
                             1, 7)
    for seat, cards in dealt.items():
        st.give(seat, [Card.parse(c) for c in cards])
    for seat, action in said:
        if action.type == "show":
            continue
        ARGENTINO.apply(st, seat, action)
    assert st.result is not None
    return list(st.scores)


def store_text(path: Path) -> str:
    """Every value of every row of the store, as text."""
    out = []
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for t in tables:
            for row in db.execute(f'SELECT * FROM "{t}"'):
                out.extend(v.hex() if isinstance(v, bytes) else str(v) for v in row)
    return "\n".join(out)


@pytest.mark.parametrize(("game", "seats"), [("truco_argentino", 2), ("truco_argentino", 4), ("truco_paulista", 4)])
async def test_a_sealed_hand_at_one_process_plays_to_its_end_as_the_open_table_scores_it(
    one_process: Running, tmp_path: Path, game: str, seats: int,
) -> None:
    """Truco paulista: the mão rejects its first block (face up to everyone), passes the next to its partner (who
    alone opens it, and plays it) and keeps the third; the partner's own block is never handed to it."""
    running = one_process
    table_id = await create(running, game=game, seats=seats, bots=0, turn_seconds=600, options=SEALED)
    players = [await sit(running, table_id, name, tmp_path) for name in ("ana", "bia", "cris", "davi")[:seats]]
    readers = [asyncio.create_task(follow(p)) for p in players]
    paulista = game == "truco_paulista"
    try:
        await eventually(lambda: (players[0].sealed.layout is not None and all(p.sealed.ready and (
            len(p.sealed.own_cards()) == (0 if paulista and p.seat == players[0].sealed.layout.partner else 3))
            for p in players)) or None, "each seat's three cards, opened by its own client (the mão's partner's: "
                                        "once the mão keeps)")
        table = running.room.tables[table_id]
        # the host holds nothing that opens a card: not its store, not the table's memory
        assert table.sealed is not None and table.sealed.hand is not None and table.sealed.hand.ready
        ledger = table.sealed.hand.ledger
        assert ledger is not None and not ledger.opened and not ledger.played
        state = table.match.state  # type: ignore[union-attr]
        assert not any(state.known) and not any(getattr(state, "dealt", ())) and not any(state.hands)
        text = store_text(tmp_path / "store.db")
        for p in players:
            mine = p.sealed.mine
            assert mine is not None
            for place in ledger.holdings[p.seat]:
                assert scalar_bytes(mine.secrets.card_key(place)).hex() not in text  # its own key never left
            assert mine.secrets.secret.hex() not in text
        cards = {p.seat: p.sealed.dealt() for p in players}
        assert len({c for hand in cards.values() for c in hand}) == 3 * seats - 3 * paulista  # all different
        for p in players:
            for other in players:
                if other is not p:  # nobody opens another's cards
                    assert all(p.sealed.mine.card(place) is None  # type: ignore[union-attr]
                               for place in ledger.holdings[other.seat])

        if paulista:
            await paulista_hand(players, ledger, cards)
        else:
            said = await play_hand(players, lambda: all(p.ended for p in players))
            assert any(a.type == "announce" for _, a in said) and any(a.type == "play" for _, a in said)
            dealer = table.sealed and players[0].sealed.layout.dealer  # type: ignore[union-attr]
            assert open_table(int(dealer), cards, said) == list(table.match.state.scores)  # type: ignore[union-attr]
        assert all(not p.sealed.named and not p.sealed.refused for p in players), [p.sealed.named for p in players]
        assert not any(p.early for p in players), [(p.name, p.early, p.told) for p in players]  # no turn before play
        history = running.store.hands.last_hand(table_id)
        assert history is not None and history["sealed"]["steps"][-1] == {"step": "end"}
        if paulista:
            assert [s["step"] for s in history["sealed"]["steps"] if s["step"] in ("reject", "pass", "keep")] == [
                "reject", "pass", "keep"]
        replayed = replay(history["sealed"])  # what `cardtui verify` checks: every step, no seat named
        assert replayed.cheat is None and not replayed.problem and replayed.steps == len(history["sealed"]["steps"])
        steps = history["sealed"]["steps"]
        proven = {s["seat"]: n for n, s in enumerate(steps) if s["step"] == "shuffle"}
        dealt_now = {(g.label, g.recipient) for g in ledger.grants() if g.release is Release.DEALT}
        for n, s in enumerate(steps):  # a client's proofs wait for its own keys to go out and for its cards' to come
            if s["step"] == "envelope" and s["label"] != "passed":
                assert n < proven[s["sender"]] and (n < proven[s["recipient"]] or (
                    s["label"], s["recipient"]) not in dealt_now), (n, s["sender"], s["recipient"], proven)
    finally:
        for r in readers:
            r.cancel()
        for p in players:
            await p.conn.close()


async def paulista_hand(players: list[Player], ledger: Ledger, cards: dict[int, list[str]]) -> None:
    """A sealed paulista hand from its deal to its end (``tests.sealed_play.choose``: the mão rejects, passes,
    keeps): what each seat may open at each step is what the rules show it, and nothing else."""
    layout = ledger.layout
    mao, partner = layout.first, layout.partner
    by_seat = {p.seat: p for p in players}
    first_block = cards[mao]
    said = await play_hand(players, lambda: all(p.ended for p in players))
    kinds = [a.type for _, a in said]
    assert kinds[:3] == ["reject", "pass_cards", "keep"] and "play" in kinds, kinds
    rejected = next(a for _, a in said if a.type == "reject")
    assert sorted(map(str, rejected.cards)) == sorted(first_block)  # the block shown face up is the one dealt
    passed = [c for p, c in ledger.opened.items() if p in layout.spare(0)]
    assert ledger.holdings[partner] == list(layout.spare(0)) and ledger.passed and ledger.spares_taken == 2
    assert set(by_seat[partner].sealed.dealt()) >= set(passed)  # the partner opened the passed block, and played it
    own = layout.hands()[partner]  # the partner's own block, never handed to it: nobody opened it
    assert all(p.sealed.mine.card(place) is None for p in players for place in own)  # type: ignore[union-attr]
    for seat, p in by_seat.items():  # the mão's kept block: its own alone (every card of it unplayed stays closed)
        if seat != mao:
            assert all(p.sealed.mine.card(place) is None  # type: ignore[union-attr]
                       for place in layout.spare(1) if place not in ledger.opened)
    assert all(not p.sealed.named and not p.sealed.refused for p in players), [
        (p.sealed.named, p.sealed.refused) for p in players]


async def test_a_client_that_restarts_mid_hand_plays_on_with_its_keys_from_its_disk(
    one_process: Running, tmp_path: Path,
) -> None:
    """A person's client goes away after the deal (its process gone, its memory with it) and a new one, with the
    same folder, follows the table again: the hand's replay and the secrets on its disk give it the same cards, and
    the hand plays to its end. The secrets' file is the person's alone (0600)."""
    running = one_process
    table_id = await create(running, game="truco_argentino", seats=2, bots=0, turn_seconds=600, options=SEALED)
    players = [await sit(running, table_id, name, tmp_path) for name in ("ana", "bia")]
    readers = [asyncio.create_task(follow(p)) for p in players]
    try:
        await eventually(lambda: all(dealt(p) for p in players) or None, "the cards")
        before = players[1].sealed.dealt()
        files = list((tmp_path / "bia").iterdir())
        assert files and all(f.stat().st_mode & 0o777 == 0o600 for f in files)
        readers[1].cancel()
        await players[1].conn.close()
        conn = Connection.open(f"127.0.0.1:{running.port}")
        keys = SealedKeys(tmp_path / "bia")
        again = Player("bia", conn, players[1].token, players[1].seat, SealedSeat(conn.target, keys))
        players[1] = again
        readers[1] = asyncio.create_task(follow(again))
        await eventually(lambda: (again.sealed.dealt() == before and again.sealed.ready) or None,
                         "the same cards, opened again from the replay and the disk")
        said = await play_hand(players, lambda: all(p.ended for p in players))
        assert any(a.type == "play" and seat == again.seat for seat, a in said)
        dealer = players[0].sealed.layout.dealer  # type: ignore[union-attr]
        cards = {p.seat: p.sealed.dealt() for p in players}
        table = running.room.tables[table_id]
        assert open_table(dealer, cards, said) == list(table.match.state.scores)  # type: ignore[union-attr]
        assert not again.sealed.named
    finally:
        for r in readers:
            r.cancel()
        for p in players:
            await p.conn.close()


async def test_a_sealed_hand_resumes_after_its_server_restarts_from_a_journal_opening_no_card(tmp_path: Path) -> None:
    """The server stops mid-hand, after the deal, and starts again on the same store: the table
    deals on from its journal (the same locked cards; nothing in it opens one), the clients follow it again, and the
    hand plays to its end as the open table scores it. A step a client made before the stop and sends again after it
    (its answer lost in the crash) is answered as taken: the journal keeps each step's digest with it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    db = tmp_path / "store.db"
    running = await start("127.0.0.1", port, db, bot_delay=0.01, next_hand_delay=60.0, cut_window=1.0)
    players: list[Player] = []
    readers: list[asyncio.Task[None]] = []
    try:
        table_id = await create(running, game="truco_argentino", seats=2, bots=0, turn_seconds=600, options=SEALED)
        players = [await sit(running, table_id, name, tmp_path) for name in ("ana", "bia")]
        made: list[sealed_pb2.SealRequest] = []  # ana's client's steps, as it sent them
        plain = players[0].conn.seal

        async def recorded(token: str, request: sealed_pb2.SealRequest) -> int:
            made.append(request)
            return await plain(token, request)

        players[0].conn.seal = recorded  # type: ignore[method-assign]
        readers = [asyncio.create_task(follow(p)) for p in players]
        await eventually(lambda: all(dealt(p) for p in players) or None, "the cards")
        cards = {p.seat: p.sealed.dealt() for p in players}
        text = store_text(db)
        for p in players:
            assert p.sealed.mine is not None and p.sealed.mine.secrets.secret.hex() not in text
        await running.stop(grace=0.1)
        running = await start("127.0.0.1", port, db, bot_delay=0.01, next_hand_delay=60.0, cut_window=1.0)
        table = running.room.tables[table_id]
        assert table.sealed is not None and table.sealed.hand is not None and table.sealed.hand.ready
        assert table.sealed.hand.ledger is not None and not table.sealed.hand.ledger.opened
        recorder = table.sealed.hand.recorder
        assert recorder is not None and made
        kept = len(recorder.steps)
        for step in made:  # each answered as taken already (a step out of its turn would be refused), none made again
            await plain(players[0].token, step)
        assert len(recorder.steps) == kept
        said = await play_hand(players, lambda: all(p.ended for p in players))
        assert {p.seat: p.sealed.dealt() for p in players} == cards
        dealer = players[0].sealed.layout.dealer  # type: ignore[union-attr]
        assert open_table(dealer, cards, said) == list(table.match.state.scores)  # type: ignore[union-attr]
        history = running.store.hands.last_hand(table_id)
        assert history is not None and replay(history["sealed"]).cheat is None
    finally:
        for r in readers:
            r.cancel()
        for p in players:
            await p.conn.close()
        await running.stop(grace=0.1)


@pytest.mark.parametrize(("game", "seats"), [("truco_argentino", 2), ("truco_paulista", 4)])
async def test_the_turn_clock_plays_a_gone_seats_card_face_down_and_never_opens_it(
    one_process: Running, tmp_path: Path, game: str, seats: int,
) -> None:
    """A seat whose client went away after the deal: its turn clock plays its first unplayed place face down
    (``play_unopened``), which the server's ledger records and never opens, and the hand goes on to its end. At truco
    paulista a gone mão keeps its block (the clock's keep hands the others theirs)."""
    running = one_process
    table_id = await create(running, game=game, seats=seats, bots=0, turn_seconds=600, options=SEALED)
    players = [await sit(running, table_id, name, tmp_path) for name in ("ana", "bia", "cris", "davi")[:seats]]
    readers = [asyncio.create_task(follow(p)) for p in players]
    try:
        await eventually(lambda: all(p.sealed.ready for p in players) or None, "the deal done")
        table = running.room.tables[table_id]
        for reader, p in zip(readers[1:], players[1:], strict=True):
            reader.cancel()
            await p.conn.close()
        table.config.turn_seconds = 0.2  # the others are gone: their clock runs out at once, each time
        table.turns.schedule()
        ana = players[0]
        said = await play_hand([ana], lambda: ana.ended)
        assert all(seat == ana.seat for seat, _ in said)  # (ana's own clock may play for her too on a busy machine)
        history = running.store.hands.last_hand(table_id)
        assert history is not None
        downs = [s for s in history["sealed"]["steps"] if s["step"] == "down"]
        assert {s["seat"] for s in downs} >= {p.seat for p in players[1:]}  # each gone seat played face down
        assert not {s["place"] for s in downs} & {s["place"] for s in history["sealed"]["steps"] if s["step"] == "play"}
        assert "down" in ana.events  # told to the table
        assert replay(history["sealed"]).cheat is None
    finally:
        for r in readers:
            r.cancel()
        for p in players:
            await p.conn.close()


async def test_the_next_hand_is_sealed_again_with_the_boxes_already_shown(tmp_path: Path) -> None:
    """After a sealed hand the next is named with every seat's box point (nobody pledges again), dealt afresh by
    the seats' new secrets, and each client forgets the last hand's."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=1.0)
    players: list[Player] = []
    readers: list[asyncio.Task[None]] = []
    try:
        table_id = await create(running, game="truco_argentino", seats=2, bots=0, turn_seconds=600, options=SEALED)
        players = [await sit(running, table_id, name, tmp_path) for name in ("ana", "bia")]
        readers = [asyncio.create_task(follow(p)) for p in players]
        await eventually(lambda: all(dealt(p) for p in players) or None, "the first cards")
        first = players[0].sealed.number
        await play_hand(players, lambda: all(p.ended for p in players))
        await eventually(lambda: all(p.sealed.number > first and dealt(p) for p in players)
                         or None, "the next hand's cards")
        assert players[0].events.count("pledges") == 1 and players[0].events.count("hand_named") == 2
        assert all(not p.sealed.named for p in players)
        assert SealedKeys(tmp_path / "ana").keys(players[0].conn.target, table_id, first) == {}  # forgotten
    finally:
        for r in readers:
            r.cancel()
        for p in players:
            await p.conn.close()
        await running.stop(grace=0.1)


def shown_to_host(ledger: Ledger, hosts: Sequence[int]) -> set[int]:
    """The places whose keys the rules hand the host's seats (``hosts``), every seat sealing its own for them: the
    host is shown those cards, whoever holds them later. Truco paulista: a mão's first block, which it may pass to
    its partner (the person, then); at a mão de onze, the hand the partner on 11 shows it."""
    return {place for grant in ledger.grants() if grant.recipient in hosts for place in grant.places}


def host_opens(running: Running, table_id: str, db: Path, person: Player) -> dict[int, str]:
    """The host's attack on the unplayed cards with everything it holds: its store (every row), the table's
    ledger, the secrets of its own seats (the bots'), every key sealed for them. Returns what it opened, by place
    (the mark: none of ``person``'s but those the rules showed a seat of the host's, ``shown_to_host``, and, as a
    check of the attack itself, every card of the host's own seats and those), having checked that none of the
    person's secrets is in its bytes."""
    table = running.room.tables[table_id]
    sealing = table.sealed
    assert sealing is not None and sealing.hand is not None and sealing.hand.ledger is not None
    ledger, hand = sealing.hand.ledger, sealing.hand.hand
    mine = person.sealed.mine
    assert mine is not None
    unplayed = [p for p in ledger.holdings[person.seat] if p not in ledger.played]
    held = (store_text(db) + repr(ledger.envelopes) + repr(ledger.locks) + repr(ledger.relocks)
            + repr(sealing.hosts.seats)).lower()
    for secret in (mine.secrets.secret, mine.box.secret, *(scalar_bytes(mine.secrets.card_key(p)) for p in unplayed)):
        assert secret.hex() not in held
    keys: dict[tuple[int, int], int] = {}
    for seat, host_seat in sealing.hosts.seats.items():
        bot = SeatHand(SeatSecrets(host_seat.secret, seat, hand), host_seat.box, ledger)
        keys.update({(seat, p): bot.secrets.card_key(p) for p in range(len(hand.cards))})
        for (sender, recipient, _), envelope in ledger.envelopes.items():  # every envelope a host's box opens
            other = ledger.boxes[sender if recipient == seat else recipient]
            if seat in (sender, recipient):
                keys.update(open_envelope(host_seat.box, other, envelope, hand.digest))
    shown = shown_to_host(ledger, sealing.hand.hosts)
    assert not any((person.seat, p) in keys for p in unplayed if p not in shown)
    opened = {}
    for seat in range(ledger.layout.seats):
        for place in ledger.holdings[seat]:
            if place in ledger.played:
                continue
            point = mul(ledger.sealed.cards[place], product(keys[s, place] for s in hand.order if (s, place) in keys))
            card = hand.card(point)
            if card is not None:
                opened[place] = card
    return opened


HANDS = 3


@pytest.mark.parametrize(("game", "seats"), [("truco_argentino", 2), ("truco_paulista", 4)])
async def test_a_person_and_bots_play_whole_sealed_hands_and_the_host_opens_none_of_the_person_s_cards(
    tmp_path: Path, game: str, seats: int,
) -> None:
    """A sealed table of one person and bots: the server makes the bots' part of every deal (their seats are the
    host's, and each hand's first event says whose), the bots play their cards as at any table, and whole hands are
    played. At each deal, the host's attack on the person's unplayed cards with everything it holds opens none."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=1.0)
    table_id = await create(running, game=game, seats=seats, bots=seats - 1, turn_seconds=600, options=SEALED)
    ana = await sit(running, table_id, "ana", tmp_path)
    reader = asyncio.create_task(follow(ana))
    attacked: set[int] = set()
    bots = sorted(set(range(seats)) - {ana.seat})

    def attack_then_done() -> bool:
        """At each hand the host and ana's client both hold ready: the host's attack (before its end)."""
        sealing = running.room.tables[table_id].sealed
        assert sealing is not None
        held = sealing.hand
        if (held is not None and held.ready and held.ledger is not None and held.number not in attacked
                and ana.sealed.ready and ana.sealed.number == held.number):
            attacked.add(held.number)
            assert sorted(held.hosts) == bots
            opened = host_opens(running, table_id, tmp_path / "store.db", ana)
            holdings, played = held.ledger.holdings, held.ledger.played
            shown = {p for p in holdings[ana.seat] if p not in played} & shown_to_host(held.ledger, held.hosts)
            assert not set(opened) & set(holdings[ana.seat]) - shown  # none of ana's the rules kept from it: the mark
            assert set(opened) == {p for s in bots for p in holdings[s] if p not in played} | shown  # every bot's
        return ana.events.count("hand_ended") >= HANDS or ana.events.count("match_ended") > len(again)

    again: list[int] = []

    try:
        while ana.events.count("hand_ended") < HANDS:
            await play_hand([ana], attack_then_done)
            if ana.events.count("match_ended") > len(again):  # (a falta envido wanted ends a match at once)
                again.append(ana.events.count("hand_ended"))
                await ana.conn.rematch(ana.token, table_pb2.REMATCH_CHOICE_SAME)
        assert len(attacked) >= HANDS - 1, attacked
        assert not ana.sealed.named and not ana.sealed.refused, (ana.sealed.named, ana.sealed.refused)
        assert not ana.early, (ana.early, ana.told)  # no hand offered her a move before its deal was made
        records = [json.loads(r) for (r,) in sqlite3.connect(tmp_path / "store.db").execute(
            "SELECT record FROM hands WHERE table_id = ?", (table_id,))]
        assert len(records) >= HANDS and all(replay(r["sealed"]).cheat is None for r in records)
        for r in records:  # every bot's keys out before any bot's proof: a person's cards wait for no proof
            steps = r["sealed"]["steps"]
            proof = next(n for n, s in enumerate(steps) if s["step"] == "shuffle" and s["seat"] in bots)
            assert {s["sender"] for s in steps[:proof] if s["step"] == "envelope"} >= set(bots), steps[:proof]
        plays = {s["seat"] for r in records for s in r["sealed"]["steps"] if s["step"] == "play"}
        assert plays == set(range(seats))  # every bot played its cards, opened with their keys
    finally:
        reader.cancel()
        await ana.conn.close()
        await running.stop(grace=0.1)


async def test_a_bot_s_sealed_hand_resumes_after_the_server_restarts_with_the_host_s_secrets_from_its_journal(
    tmp_path: Path,
) -> None:
    """A person and a bot, the server stopped mid-hand and started again on the same store: the bot's secrets come
    back from the table's journal (they are the host's), the engine knows the bot's same cards again, and the hand
    plays to its end with no cheat named."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    db = tmp_path / "store.db"
    running = await start("127.0.0.1", port, db, bot_delay=0.01, next_hand_delay=60.0, cut_window=1.0)
    ana: Player | None = None
    reader: asyncio.Task[None] | None = None
    try:
        table_id = await create(running, game="truco_argentino", seats=2, bots=1, turn_seconds=600, options=SEALED)
        ana = await sit(running, table_id, "ana", tmp_path)
        reader = asyncio.create_task(follow(ana))
        await eventually(lambda: (ana.sealed.ready and len(ana.sealed.own_cards()) == 3) or None, "ana's cards")  # type: ignore[union-attr]
        bot = 1 - ana.seat
        before = running.room.tables[table_id].match.state.dealt[bot]  # type: ignore[union-attr]
        assert len(before) == 3
        await running.stop(grace=0.1)
        running = await start("127.0.0.1", port, db, bot_delay=0.01, next_hand_delay=60.0, cut_window=1.0)
        table = running.room.tables[table_id]
        assert table.sealed is not None and table.sealed.hand is not None and table.sealed.hand.ready
        state = table.match.state  # type: ignore[union-attr]
        assert state.dealt[bot] == before and not state.known[ana.seat]  # the bot's cards known again, ana's not
        await play_hand([ana], lambda: ana.ended)  # type: ignore[union-attr]
        history = running.store.hands.last_hand(table_id)
        assert history is not None and replay(history["sealed"]).cheat is None
        assert not ana.sealed.named and not ana.sealed.refused
    finally:
        if reader is not None:
            reader.cancel()
        if ana is not None:
            await ana.conn.close()
        await running.stop(grace=0.1)


@pytest.mark.parametrize("scores", [(11, 4), (11, 11)])
async def test_a_sealed_mao_de_onze_shows_each_partner_the_other_s_hand_and_a_mao_de_ferro_plays_blind(
    one_process: Running, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scores: tuple[int, int],
) -> None:
    """Truco paulista at 11 (a rigged score): at a mão de onze each seat of the team on 11 opens its partner's hand
    (its keys sealed for it alone at the deal) and nobody else's, the team plays the hand, and it ends with no one
    named. At a mão de ferro (both on 11) nobody opens a card before it is played: a seat chooses a place, the
    others' keys for it are handed to it alone, and its client plays it face up."""
    from cardtui.engine.truco.paulista.game import GAME as PAULISTA

    made = PAULISTA.new_state

    def at_eleven(options: object, seats: object) -> object:
        state = made(options, seats)  # type: ignore[arg-type]
        state.scores = list(scores)
        return state

    monkeypatch.setattr(PAULISTA, "new_state", at_eleven)
    running = one_process
    table_id = await create(running, game="truco_paulista", seats=4, bots=0, turn_seconds=600, options=SEALED)
    players = [await sit(running, table_id, name, tmp_path) for name in ("ana", "bia", "cris", "davi")]
    readers = [asyncio.create_task(follow(p)) for p in players]
    ferro = scores == (11, 11)
    try:
        await eventually(lambda: all(p.sealed.ready for p in players) or None, "the deal done")
        layout = players[0].sealed.layout
        assert layout is not None and layout.ferro == ferro and layout.onze == (None if ferro else 0)
        for p in players:
            assert len(p.sealed.own_cards()) == (0 if ferro else 3)
            seen = p.sealed.seen()
            if ferro or p.seat % 2:
                assert not seen, (p.name, seen)  # the team not on 11 sees no other hand; at ferro nobody any
            else:
                partner = next(o for o in players if o.seat == (p.seat + 2) % 4)
                assert seen == {partner.seat: partner.sealed.dealt()}  # its partner's hand, and only that
                assert list(p.view.truco.seats[partner.seat].cards) == partner.sealed.dealt()  # type: ignore[union-attr]
        said = await play_hand(players, lambda: all(p.ended for p in players))
        assert any(a.type == ("play_blind" if ferro else "accept") for _, a in said), said
        assert all(not p.sealed.named and not p.sealed.refused for p in players), [
            (p.sealed.named, p.sealed.refused) for p in players]
        history = running.store.hands.last_hand(table_id)
        assert history is not None and replay(history["sealed"]).cheat is None
        steps = [s["step"] for s in history["sealed"]["steps"]]
        assert ("choose" in steps) == ferro and "play" in steps
    finally:
        for r in readers:
            r.cancel()
        for p in players:
            await p.conn.close()



@pytest.mark.parametrize("cheat", ["reject", "pass"])
async def test_a_mao_that_cheats_in_its_choice_is_named(one_process: Running, tmp_path: Path, cheat: str) -> None:
    """A dishonest paulista mão, through the real server: a block rejected with one of its cards named as another
    is named by the table and every client, and the hand is void; a block passed with a wrong key is named by the
    partner's client, the one the keys were sealed for (the host cannot open them)."""
    from cardtui.sealed.envelopes import seal
    from cardtui.sealed.group import N
    from cardtui.sealed.ledger import PASSED
    from cardtui.v1 import sealed_pb2

    running = one_process
    table_id = await create(running, game="truco_paulista", seats=4, bots=0, turn_seconds=600, options=SEALED)
    players = [await sit(running, table_id, name, tmp_path) for name in ("ana", "bia", "cris", "davi")]
    readers = [asyncio.create_task(follow(p)) for p in players]
    try:
        await eventually(lambda: all(p.sealed.ready for p in players) or None, "the deal")
        layout = players[0].sealed.layout
        assert layout is not None
        mao = next(p for p in players if p.seat == layout.first)
        await eventually(lambda: (mao.view is not None and len(mao.view.legal) > 0) or None, "the mão's choice")
        partner = next(p for p in players if p.seat == layout.partner)
        mine = mao.sealed.mine
        assert mine is not None
        block = tuple(mine.ledger.holdings[mao.seat])
        if cheat == "reject":
            step = mao.sealed.choosing(common_pb2.Action(type=common_pb2.ACTION_TYPE_REJECT))
            first = step.reject.cards[0]
            first.card = next(c for c in mine.ledger.hand.cards if c != first.card)
            await mao.conn.seal(mao.token, step)
            await eventually(lambda: all(p.sealed.named for p in players) or None, "the mão named by everyone")
            assert "cheat" in players[0].events and all(f"named {first.card}" in p.sealed.named[0] for p in players)
        else:
            keys = dict(mine._all_keys(block))
            victim = min(keys)
            keys[victim] = keys[victim] * 5 % N
            ledger = mine.ledger
            e = seal(mine.box, mao.seat, partner.seat, ledger.boxes[partner.seat], ledger.hand.digest, PASSED, keys)
            wire = sealed_pb2.SealedEnvelope(sender=e.sender, recipient=e.recipient, label=e.label, sealed=e.sealed)
            step = sealed_pb2.SealRequest(hand=mao.sealed.number, pass_block=sealed_pb2.SealPass(envelope=wire))
            seq = await mao.conn.seal(mao.token, step)
            # sent again (as a client does when the answer came too late): answered as taken, nothing changes
            assert await mao.conn.seal(mao.token, step) == seq == running.room.tables[table_id].seq
            await eventually(lambda: partner.sealed.named or None, "the mão named by its partner")
            assert "wrong key" in partner.sealed.named[0] or "passed" in partner.sealed.named[0], partner.sealed.named
            assert all(not p.sealed.named for p in players if p is not partner)  # (nobody else could open them)
    finally:
        for r in readers:
            r.cancel()
        for p in players:
            await p.conn.close()


@pytest.mark.parametrize("bent", ["shuffle", "proofs"])
async def test_a_seat_whose_proofs_fail_is_named_though_the_server_checks_them_off_its_loop(
    one_process: Running, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bent: str,
) -> None:
    """The server checks a seat's proofs in a thread (``Sealing.check_apart``) and takes them only if they hold: a
    shuffle's proof with one answer bent, or relock proofs two of which changed places, are named (a bad lock, a bad
    relock) by the table and by every client, and play never begins."""
    monkeypatch.setattr(shuffle, "ROUNDS", 24)  # (a bent answer passes a proof of r rounds once in 2^r)
    running = one_process
    table_id = await create(running, game="truco_argentino", seats=2, bots=0, turn_seconds=600, options=SEALED)
    players = [await sit(running, table_id, name, tmp_path) for name in ("ana", "bia")]
    cheater = players[1]
    honest_behind = cheater.sealed.behind

    def bent_behind() -> list[sealed_pb2.SealRequest]:
        made = honest_behind()
        if bent == "shuffle":
            answer = bytearray(made[0].shuffle.answers[0])
            answer[5] ^= 1  # (a byte of its scalar)
            made[0].shuffle.answers[0] = bytes(answer)
        else:
            proofs = made[1].proofs.proofs
            proofs[0], proofs[1] = proofs[1], proofs[0]
        return made

    cheater.sealed.behind = bent_behind  # type: ignore[method-assign]
    readers = [asyncio.create_task(follow(p)) for p in players]
    try:
        await eventually(lambda: all(p.sealed.named for p in players) or None, "the cheat named by everyone")
        said = "lock of the deck" if bent == "shuffle" else "card keys do not fit"
        assert all(p.sealed.named[0].startswith(f"Seat {cheater.seat + 1}: ") and said in p.sealed.named[0]
                   for p in players), [p.sealed.named for p in players]
        assert all("cheat" in p.events and "ready" not in p.events for p in players)  # play never began
    finally:
        for r in readers:
            r.cancel()
        for p in players:
            await p.conn.close()
