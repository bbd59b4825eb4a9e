"""Every table feature, wherever the table lives, whenever a person sits: the matrix.

Each test runs in each arrangement a room has (``tests.arrangements``: one process, ``cardtui serve``'s table
workers, two hosts sharing PostgreSQL), with people who reach the table as the real client does (its one path,
``Connection``) and whose client checks every deal (``FairDeals``). The moments a person may sit are a dimension of
their own: before the first deal, filling the last seat (which starts the match), between hands, mid-hand, and
after the process that drove the table was killed and another took it over. At each, the first snapshot holds
nothing of an earlier holder's, and the fair-deal check says what is true: ✔ where this client's seed went in, a
grey ○ where it was not asked for, never a false alarm.

``test_every_rpc_a_table_uses_is_in_the_matrix`` holds the matrix to the ``.proto``: every method of the Table and
Lobby services is called here, so one added later fails it until a test here calls it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from cardtui import i18n, identity
from cardtui.client import connection
from cardtui.client.fairness import Standing
from cardtui.client.sealed_keys import SealedKeys
from cardtui.client.sealed_seat import SealedSeat
from cardtui.sealed.group import scalar_bytes
from cardtui.v1 import common_pb2, lobby_pb2, sealed_pb2, table_pb2
from tests.arrangements import (
    Arrangement,
    Calls,
    Person,
    close_tables,
    listening,
    make_table,
    stopped_between_writes,
)
from tests.conftest import passed
from tests.per_game import declared
from tests.postgres import Cluster
from tests.sealed_play import Player, dealt, follow, play_hand, sit_at
from tests.waiting import PATIENCE, eventually, eventually_async

A = common_pb2.ActionType
COVERED = ("Lobby", "Table")
"""The services whose every method a test here calls (``test_every_rpc_a_table_uses_is_in_the_matrix``)."""


@pytest.fixture(autouse=True)
def calls(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[set[str]]:
    """Every channel the client opens in the test records the methods it calls; once the test has passed, each
    method its ``rpcs`` mark names was called (the mark is this module's account of what it covers)."""
    recorded = Calls()

    def channel(target: str, tls_ca: bytes | None, unoffered: connection.Unoffered | None = None) -> grpc.aio.Channel:
        assert tls_ca is None
        own = [unoffered] if unoffered is not None else []  # the client's own (a call the server lacks, said)
        return grpc.aio.insecure_channel(target, options=connection.CHANNEL_OPTIONS,
                                         interceptors=[*own, *recorded.interceptors])

    monkeypatch.setattr(connection, "_channel", channel)
    yield recorded.called
    mark = request.node.get_closest_marker("rpcs")
    if mark is not None and passed(request.node):
        assert set(mark.args) <= recorded.called, f"named but never called: {set(mark.args) - recorded.called}"


@pytest_asyncio.fixture(autouse=True)
async def quiet_servers(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """No process of the arrangement logs an error or an exception while the test runs; the tables it made are
    closed after it."""
    name = next((n for n in ("arrangement", "hosts") if n in request.fixturenames), None)
    if name is None:
        yield
        return
    arrangement: Arrangement = request.getfixturevalue(name)
    since = arrangement.log_size()
    try:
        yield
    finally:
        await close_tables(arrangement)
    if passed(request.node) and name == "arrangement":
        assert not arrangement.troubles(since), "\n".join(arrangement.troubles(since)[:20])


def no_false_alarm(*people: Person) -> None:
    """Nobody's client found a deal that does not check out, or a seed of theirs left out."""
    for person in people:
        for verdict in person.verdicts:
            assert verdict.standing not in (Standing.BROKEN, Standing.UNUSED), (person.name, verdict)


def fair_hand(person: Person, deal: int) -> None:
    """``person``'s client checked table deal ``deal`` and found it fair: committed first, their seed in, cards
    matching (✔)."""
    [verdict] = [v for v in person.verdicts if v.hand == deal]
    assert verdict.ok, (person.name, verdict)


def word_hand(person: Person, deal: int) -> None:
    """``person``'s client checked table deal ``deal``: their seed in, everything checked, but who deals rests on
    the table's word (they sat down during the match, so they did not see the rotation themselves): grey, never ✔
    (docs/fairness.md)."""
    [verdict] = [v for v in person.verdicts if v.hand == deal]
    assert verdict.cut and not verdict.problems and not verdict.ok, (person.name, verdict)
    assert "rests on the table's word" in verdict.doubt, (person.name, verdict)


def without_me(view: table_pb2.View) -> bytes:
    """A view less what is only the viewer's own: their seat, their actions and the clock."""
    copy = table_pb2.View()
    copy.CopyFrom(view)
    copy.ClearField("you")
    del copy.legal[:]
    copy.deadline_ms = 0
    return copy.SerializeToString(deterministic=True)


def contiguous(person: Person) -> None:
    """Every event reached ``person`` once, numbered without a hole from the first after their first snapshot."""
    seen: list[int] = []
    start = person.snapshots[0].first_seq if person.snapshots else 1
    for event in person.events:
        if event.seq not in seen:
            seen.append(event.seq)
    numbers = sorted(n for n in seen if n >= start)
    assert numbers, (person.name, start, [(m.WhichOneof("body"), m.seq) for m in person.messages])
    assert numbers == list(range(numbers[0], numbers[-1] + 1)), f"{person.name}: a hole in {numbers}"
    live = [e.seq for e in person.events if not e.replay]
    assert len(live) == len(set(live)), f"{person.name}: an event twice"


async def go_to_the_deck(person: Person) -> None:
    """The hand ends: ``person`` goes to the deck (truco argentino), once the hand lets them."""
    await person.until(lambda p: p.legal(A.ACTION_TYPE_MAZO) is not None, "may go to the deck")
    await person.act(A.ACTION_TYPE_MAZO)


async def end_the_hand(people: list[Person]) -> None:
    """The hand in play ends: whoever may go to the deck does (truco argentino), until it is over."""
    def over_or_mazo(p: Person) -> object:
        return hand_over(p) or next((q for q in people if q.legal(A.ACTION_TYPE_MAZO)), None)

    while not hand_over(people[0]):
        found = await people[0].until(over_or_mazo, "the hand's end, or someone who may go to the deck")
        mazo = found.legal(A.ACTION_TYPE_MAZO) if isinstance(found, Person) else None
        if isinstance(found, Person) and mazo is not None:  # (still: the table may have moved since)
            with contextlib.suppress(grpc.aio.AioRpcError):  # the table moved first: look again
                await found.conn.act(found.token, mazo, found.last_seq)


def hand_over(person: Person) -> bool:
    view = person.view
    return view is not None and view.hand_over


def deals_seen(person: Person) -> list[int]:
    return [e.deal_committed.hand for e in person.events if e.HasField("deal_committed")]


async def closing(people: Iterable[Person]) -> None:
    await asyncio.gather(*(p.close() for p in people))


@pytest.mark.rpcs("Lobby/CreateTable", "Lobby/JoinTable", "Table/Subscribe", "Table/Cut", "Table/Act")
async def test_sitting_before_the_first_deal_and_filling_the_last_seat(arrangement: Arrangement) -> None:
    """ana sits at an empty table (before the first deal), bia fills the last seat and so starts the match: both
    see the first hand's commitment before its cards, cut it, and their clients call the deal fair. bia's join sent
    again with its token (as after an answer lost to a deadline) is given the same seat wherever the table is
    driven; cris finds the table full."""
    table_id = await make_table(arrangement, game="truco_argentino", seats=2, bots=0)
    ana, bia = Person.at(arrangement, "ana"), Person.at(arrangement, "bia")
    cris = Person.at(arrangement, "cris")
    try:
        await ana.sit(table_id)
        ana.follow()
        await ana.until(lambda p: p.snapshots, "the table opens")
        assert ana.snapshots[0].view.HasField("waiting")
        await bia.sit(table_id)
        again = await bia.conn.lobby.JoinTable(lobby_pb2.JoinTableRequest(
            table_id=table_id, name="bia", token=bia.token, pledge=bia.conn.chains[bia.token].pledge,
            session=bia.conn.session), timeout=PATIENCE)
        assert (again.token, again.seat) == (bia.token, bia.seat), again
        with pytest.raises(grpc.aio.AioRpcError) as full:
            await cris.sit(table_id)
        assert full.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, full.value.details()
        bia.follow()
        for p in (ana, bia):
            await p.until(lambda p: any(e.HasField("cards_dealt") for e in p.events), "cards")
        await go_to_the_deck(ana)
        for p in (ana, bia):
            await p.until(lambda p: p.verdicts, "the first deal checked")
            fair_hand(p, 1)
        no_false_alarm(ana, bia)
    finally:
        await closing([ana, bia, cris])


@pytest.mark.rpcs("Lobby/CreateTable", "Lobby/JoinTable", "Table/Subscribe", "Table/Cut", "Table/Act")
async def test_a_game_that_plugs_in_from_one_folder_plays_a_hand_to_its_end(arrangement: Arrangement,
                                                                            test_game: str) -> None:
    """The tests' own game (``tests/games/highcard``), which the servers know only because ``CARDTUI_GAMES``
    names it (their table workers and bot workers too): ana sits with two bots, bets or calls at each of her
    turns, and the hand plays to its end; her client checks the deal fair and tells the hand in words."""
    table_id = await make_table(arrangement, game=test_game, seats=3, bots=2)
    ana = Person.at(arrangement, "ana")
    try:
        await ana.sit(table_id)
        ana.follow()

        def turn_or_end(p: Person) -> str | None:
            if any(e.HasField("hand_ended") for e in p.events):
                return "end"
            view = p.view
            return "turn" if view is not None and p.seat in view.to_act and view.legal else None

        while await ana.until(turn_or_end, "ana's turn, or the hand's end") == "turn":
            action = ana.legal(A.ACTION_TYPE_BET) or ana.legal(A.ACTION_TYPE_RAISE) or ana.legal(A.ACTION_TYPE_CALL) \
                or ana.legal(A.ACTION_TYPE_CHECK)
            assert action is not None, ana.view
            seen = ana.last_seq
            await ana.conn.act(ana.token, action, seen)
            await ana.until(lambda p, seen=seen: p.last_seq > seen, "her move seen")
        ended = next(e.hand_ended for e in ana.events if e.HasField("hand_ended"))
        assert sum(ended.deltas) == 0 and ended.deltas[ana.seat] != 0, ended  # she put her ante in, at least
        won = next(e.cacho.pot_won for e in ana.events if e.HasField("cacho") and e.cacho.HasField("pot_won"))
        assert won.seat == ended.winner and ended.deltas[won.seat] > 0, (won, ended)
        assert any(" wins " in line for line in ana.log()), ana.log()
        await ana.until(lambda p: any(v.hand == 1 for v in p.verdicts), "the first deal checked")
        fair_hand(ana, 1)
        no_false_alarm(ana)
    finally:
        await closing([ana])


LAG = 1.3
"""How late a busy client reads its stream, in seconds (as an outside test found a slow machine's)."""
HANDS = 6
"""Hands a test of an honest room plays with each cast (so 12 an arrangement, 36 over the matrix;
``bench.fairdeal.wait_report`` plays more)."""
ALARMS = (Standing.BROKEN, Standing.UNUSED, Standing.WITHHELD)
MOVES = 60
"""Moves ``play_hands`` makes in one deal before it is taken to be broken (a deal checked by nobody, a wait that
would never end), where going to the deck ends a hand in one or two."""


def verdicts(people: list[Person]) -> dict[str, list[tuple[int, str]]]:
    """Each one's checks so far (hand and standing), for a failure to show."""
    return {p.name: [(v.hand, str(v.standing)) for v in p.verdicts] for p in people}


async def play_hands(people: list[Person], hands: int) -> None:
    """``hands`` more hands at a two-seat truco argentino table: whoever's turn it is goes to the deck (or, where
    the rules do not let them yet, plays a card), and each hand's reveal reaches every one of ``people``."""
    start = max((v.hand for v in people[0].verdicts), default=0)
    for deal in range(start + 1, start + hands + 1):
        await people[0].until(lambda p, deal=deal: deal in deals_seen(p), f"the commitment of table deal {deal}")

        def mover(_: Person, deal: int = deal) -> Person | bool | None:
            # Each has checked this deal, or one after it: one who sat after its commitment came checks none of it
            # (they see the next), and the next deal's check ends this one's wait as well as its own.
            if all(any(v.hand >= deal for v in p.verdicts) for p in people):
                return True
            # (one who sat mid-hand has seen no commitment yet: the hand its snapshot shows is the one dealt)
            return next((p for p in people if p.view is not None and p.seat in p.view.to_act and p.view.legal
                         and not p.view.hand_over and (deal in deals_seen(p) or not deals_seen(p))), None)

        moves = 0
        while (found := await people[0].until(mover, f"a move in table deal {deal}, or its check")) is not True:
            assert isinstance(found, Person)
            moves += 1  # a hand where each goes to the deck takes a few: many more is a table that never checks
            assert moves < MOVES, f"{moves} moves and table deal {deal} not checked by all: {verdicts(people)}"
            action = found.legal(A.ACTION_TYPE_MAZO) or found.legal(A.ACTION_TYPE_PLAY)
            if action is None:
                action = found.view.legal[0] if found.view is not None else None
            seen = found.last_seq
            with contextlib.suppress(grpc.aio.AioRpcError):  # the table moved first: look again
                await found.conn.act(found.token, action, seen)
            await found.until(lambda p, seen=seen: p.last_seq > seen, "the move, or another, seen")


MATRIX = {game: tests.matrix for game, tests in declared().items() if tests.matrix is not None}
"""What the matrix plays at each game's tables (``GameTests.matrix``, in the game's own tests)."""
SLOW_TABLES = {game: m.slow for game, m in MATRIX.items() if m.slow is not None}
"""The slow client's tables: seats, bots, hands each cast plays, options."""
CLOSING = [game for game, m in MATRIX.items() if m.plays == "close"]
"""The games whose hands the matrix plays by closing (``rummy_move``): its rummy tables are the first's."""


@pytest.mark.parametrize("game", list(SLOW_TABLES))
async def test_an_honest_room_raises_no_false_alarm_for_a_slow_client_at_any_moment(arrangement: Arrangement,
                                                                                     game: str) -> None:
    """ana sits before the first deal, bia fills the last seat from a client that reads everything 1.3 s late, and
    wes watches as late. The deal waits for bia's late link (as long as a turn), so every hand is ✔ for both, from
    the first. Then bia leaves between hands and cris, as slow, takes her seat: nobody's client raises an alarm, and
    every hand cris was seated for from its commitment checks out for him, grey while who deals rests on the
    table's word (he sat down during the match), ✔ from a match he saw begin. At each game's table its tests
    declare (truco argentino: six hands a cast; a game that closes: one, beside a bot)."""
    seats, bots, hands, options = SLOW_TABLES[game]
    table_id = await make_table(arrangement, game=game, seats=seats, bots=bots, turn_seconds=60,
                                options={k: common_pb2.OptionValue(number=v) for k, v in options.items()})
    closes = MATRIX[game].plays == "close"
    ana, wes = Person.at(arrangement, "ana"), Person.at(arrangement, "wes", lag=LAG)
    bia, cris = Person.at(arrangement, "bia", lag=LAG), Person.at(arrangement, "cris", lag=LAG)

    async def play(people: list[Person]) -> None:
        if closes:
            deal = max((v.hand for v in people[0].verdicts), default=0) + 1
            await people[0].until(lambda p: deal in deals_seen(p), f"the commitment of table deal {deal}")
            await play_rummy_hand(people, deal)
        else:
            await play_hands(people, hands)

    try:
        await ana.sit(table_id)
        ana.follow()
        await wes.watch(table_id)
        wes.follow()
        await ana.until(lambda p: p.snapshots, "the table opens")
        await bia.sit(table_id)
        bia.follow()
        await play([ana, bia])
        for p in (ana, bia):
            assert [v.ok for v in p.verdicts] == [True] * hands, [v.said().text.plain for v in p.verdicts]
        await bia.leave()
        await cris.sit(table_id)
        assert cris.seat == bia.seat
        cris.follow()
        await play([ana, cris])
        for p in (ana, bia, cris, wes):
            alarms = [v.said().text.plain for v in p.verdicts if v.standing in ALARMS]
            assert not alarms, (p.name, alarms)
        first = min(v.hand for v in cris.verdicts)
        assert all(v.ok or (v.cut and not v.problems and "rests on the table's word" in v.doubt)
                   for v in cris.verdicts if v.hand > first + 1), [v.said().text.plain for v in cris.verdicts]
        assert all(v.standing in (Standing.WATCHED, Standing.AWAY) for v in wes.verdicts), [
            v.said().text.plain for v in wes.verdicts if v.standing is not Standing.WATCHED]
    finally:
        await closing([ana, bia, cris, wes])


@pytest.mark.rpcs("Lobby/Spectate", "Lobby/Leave")
@pytest.mark.parametrize("taken_over", [False, True], ids=["", "after-a-takeover"])
async def test_a_seat_taken_between_hands_shows_nothing_of_its_earlier_holder(arrangement: Arrangement,
                                                                               taken_over: bool) -> None:
    """bia goes to the deck (her cards never shown) and leaves before the next deal; cris sits in her seat (and,
    ``taken_over``, the process driving the table is then killed -9 and the table comes back from its journal
    before cris opens it). His first view is the ended hand as a watcher sees it: none of bia's cards. The deal
    he came too late to cut is grey, and so is the next: his seed in and every card checked, but who deals rests on
    the table's word, since he sat down during the match."""
    table_id = await make_table(arrangement, game="truco_argentino", seats=2, bots=0)
    ana = Person.at(arrangement, "ana", cuts=False)  # holds the table between hands by keeping her seed back
    bia, cris, wes = Person.at(arrangement, "bia"), Person.at(arrangement, "cris"), Person.at(arrangement, "wes")
    try:
        await ana.sit(table_id)
        ana.follow()
        await bia.sit(table_id)
        bia.follow()
        await wes.watch(table_id)
        wes.follow()
        await ana.until(lambda p: p.fair.watch is not None and p.fair.watch.hand == 1, "the first commitment")
        await ana.cut()
        await go_to_the_deck(bia)
        await ana.until(lambda p: 2 in deals_seen(p), "the second deal's commitment")
        await bia.until(lambda p: p.fair.watch is not None and p.fair.watch.hand == 2, "the second commitment")
        await bia.leave()
        await cris.sit(table_id)
        assert cris.seat == bia.seat
        if taken_over:
            arrangement.kill(arrangement.pid_at(cris.conn.routes[cris.token]))
            await wes.until(lambda p: len(p.snapshots) >= 2, "the table back")
        cris.follow()
        await cris.until(lambda p: p.snapshots, "the table opens")
        first = cris.snapshots[0].view
        assert first.hand_over and first.you == cris.seat
        assert not first.truco.cards and not first.truco.argentino.your_envido_cards, first
        await wes.until(lambda p: any(e.HasField("joined") and e.joined.name == "cris" for e in p.events),
                        "cris sits")
        assert wes.view is not None
        assert without_me(first) == without_me(wes.view), "cris's first view is more than a watcher's"
        await ana.cut()
        await cris.until(lambda p: any(e.HasField("cards_dealt") and e.cards_dealt.seat == p.seat
                                       for e in p.events), "cris's cards")
        await go_to_the_deck(cris)
        await cris.until(lambda p: p.verdicts, "the deal cris came to checked")
        [late] = cris.verdicts
        assert late.standing is Standing.UNASKED, late
        await ana.until(lambda p: 3 in deals_seen(p), "the third deal's commitment")
        await ana.cut()
        await go_to_the_deck(cris)
        await cris.until(lambda p: len(p.verdicts) == 2, "the third deal checked")
        word_hand(cris, 3)
        no_false_alarm(ana, bia, cris, wes)
    finally:
        await closing([ana, bia, cris, wes])


async def test_a_seat_taken_mid_hand_gets_the_hand_so_far_and_nothing_private(arrangement: Arrangement) -> None:
    """bia plays a card and leaves mid-hand, a bot plays her seat on, and cris sits there: he holds the seat's
    cards (the hand is his to play now) and the hand so far as a replay, none of what was private to bia, each
    move told in his log for whoever made it (bia's own, then "bia (bot)"), in each language; his client says it
    joined the deal mid-way, no alarm."""
    for _table in range(8):
        ana, bia, cris, left, bot_moved, table_id = await bia_leaves_and_a_bot_plays_her_seat(arrangement)
        if not ana.view or not ana.view.hand_over:
            break
        # the bot's move ended the hand (it took the deciding trick, or went to the deck): the next is dealt
        # within the arrangement's 50 ms, and a seat taken then is taken between hands. Another table.
        await closing([ana, bia, cris])
    else:
        raise AssertionError("in eight hands the bot's first move for bia ended the hand every time")
    try:
        await cris.sit(table_id)
        assert cris.seat == bia.seat
        cris.follow()
        await cris.until(lambda p: any(e.HasField("joined") and e.joined.name == "cris" for e in p.events),
                         "the hand so far")
        first = cris.snapshots[0]
        if not first.view.hand_over:  # every card the seat still holds is cris's to play, and he sees them
            assert len(first.view.truco.cards) == first.view.truco.seats[cris.seat].card_count, first.view
        replayed = [e for e in cris.events if e.replay]
        assert not [e for e in replayed if e.HasField("cards_dealt")], "cris got bia's cards as they were dealt"
        for lang in ("en", "pt_BR", "es"):
            i18n.use(lang)
            told = cris.told()
            before = [text for e, text in told if e.seq < left and "bia" in text]
            after = [text for e, text in told if left < e.seq <= bot_moved(ana) and "bia" in text]
            assert before and all("(bot)" not in text for text in before), (lang, told)
            assert after and all("bia (bot)" in text for text in after), (lang, told)
        i18n.use("en")
        await end_the_hand([ana, cris])
        if not first.view.hand_over:  # (a hand over before he came is not his to check)
            await cris.until(lambda p: p.verdicts, "the deal checked")
            assert cris.verdicts[0].standing in (Standing.UNCHECKED, Standing.UNASKED), cris.verdicts[0]
        no_false_alarm(ana, bia, cris)
    finally:
        i18n.use("en")
        await closing([ana, bia, cris])


async def bia_leaves_and_a_bot_plays_her_seat(
        arrangement: Arrangement) -> tuple[Person, Person, Person, int, Callable[[Person], int], str]:
    """ana and bia at a new table of truco argentino; bia plays a card and leaves, and ana plays on until the bot
    has moved for bia: the three people, the left event's number, where the bot moved (as ``p`` saw it), the
    table."""
    table_id = await make_table(arrangement, game="truco_argentino", seats=2, bots=0, turn_seconds=3600)
    ana, bia, cris = Person.at(arrangement, "ana"), Person.at(arrangement, "bia"), Person.at(arrangement, "cris")
    try:
        await ana.sit(table_id)
        ana.follow()
        await bia.sit(table_id)
        bia.follow()
        await bia.until(lambda p: any(e.HasField("cards_dealt") for e in p.events), "bia's cards")
        mover = await ana.until(lambda _: next((p for p in (ana, bia) if p.legal(A.ACTION_TYPE_PLAY)), None),
                                "someone's card")
        if mover is ana:
            await ana.conn.act(ana.token, the(ana, A.ACTION_TYPE_PLAY), ana.last_seq)
            await bia.until(lambda p: p.legal(A.ACTION_TYPE_PLAY) is not None, "bia's card")
        await bia.conn.act(bia.token, the(bia, A.ACTION_TYPE_PLAY), bia.last_seq)
        await bia.leave()
        left = await ana.until(lambda p: max((e.seq for e in p.events if e.HasField("left")), default=0), "bia left")

        def bot_moved(p: Person) -> int:
            return max((e.seq for e in p.events if e.seq > left and e.HasField("truco")
                        and getattr(getattr(e.truco, e.truco.WhichOneof("body") or ""), "seat", -1) == bia.seat),
                       default=0)

        while not bot_moved(ana):  # ana plays on until the bot has played for bia
            await ana.until(lambda p: bot_moved(p) or (p.view is not None and p.view.legal), "a move")
            action = ana.legal(A.ACTION_TYPE_PLAY) or ana.legal(A.ACTION_TYPE_QUIERO)
            if not bot_moved(ana) and action is not None:
                with contextlib.suppress(grpc.aio.AioRpcError):  # the bot moved first: look again
                    await ana.conn.act(ana.token, action, ana.last_seq)
    except BaseException:
        await closing([ana, bia, cris])
        raise
    return ana, bia, cris, left, bot_moved, table_id


def the(person: Person, kind: int) -> common_pb2.Action:
    action = person.legal(kind)
    assert action is not None, f"{person.name} may not {common_pb2.ActionType.Name(kind)}"
    return action


@pytest.mark.rpcs("Lobby/GetInfo", "Lobby/ListTables", "Lobby/Hello", "Lobby/Prove", "Table/Chat", "Table/Hint",
                  "Lobby/PlayerCard", "Lobby/Invite", "Lobby/OpenInvite", "Lobby/Leaderboard", "Lobby/CloseTable")
async def test_talk_hints_cards_and_invites_reach_the_table_where_it_is_served(arrangement: Arrangement,
                                                                               tmp_path: Path) -> None:
    """vera (with her key) and wes (watching) at a Pif Paf table made on another process than their lobby: chat, a
    quick phrase, a meld hint, a seat's card, an invite and its code, the lists; she closes the table she owns."""
    ana, wes = Person.at(arrangement, "vera"), Person.at(arrangement, "wes")
    ana.conn.identity = identity.create(tmp_path / "vera.pem")  # a name a key owns: no other test uses it
    try:
        info = await ana.conn.info()
        assert "pifpaf" in {g.name for g in info.games}
        table_id = await make_table(arrangement, ana, game="pifpaf", seats=3, bots=2)
        await ana.sit(table_id)
        ana.follow()
        await wes.watch(table_id)
        wes.follow()
        await ana.until(lambda p: p.view is not None and p.view.rummy.cards, "vera's cards")
        assert ana.view is not None
        card = ana.view.rummy.cards[0]
        hint = await ana.conn.hint(ana.token, card)
        assert all(card in meld.cards for meld in hint.melds), hint
        with pytest.raises(grpc.aio.AioRpcError) as not_hers:
            await ana.conn.hint(ana.token, next(c for c in ("AS", "2H", "3D", "4C", "5S") if c not in
                                                 ana.view.rummy.cards))
        assert not_hers.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        await ana.conn.chat(ana.token, "boa sorte")
        await wes.until(lambda p: any(e.chatted.text == "boa sorte" for e in p.events if e.HasField("chatted")),
                        "vera's line")
        await wes.conn.phrase(wes.token, table_pb2.PHRASE_GOOD_GAME)
        await ana.until(lambda p: any(e.chatted.phrase == table_pb2.PHRASE_GOOD_GAME and e.chatted.name == "wes"
                                      for e in p.events if e.HasField("chatted")), "wes's phrase")
        card_of_ana = await ana.conn.player_card(table_id=table_id, seat=ana.seat)
        assert card_of_ana.name == "vera" and card_of_ana.fingerprint, card_of_ana
        invite = await ana.conn.invite(table_id)
        assert invite.code and invite.table.id == table_id
        opened = await wes.conn.open_invite(invite.code)
        assert opened.table.id == table_id
        assert table_id in {t.id for t in await wes.conn.tables()}
        await ana.conn.leaderboard("pifpaf")
        await wes.leave()
        await ana.conn.close_table(table_id)
        await ana.until(lambda p: any(m.HasField("closing") and not m.closing.resubscribe for m in p.messages),
                        "the table closes")
        finished = {t.id: t for t in await ana.conn.tables(include_finished=True)}
        assert finished[table_id].status == common_pb2.TABLE_STATUS_FINISHED
    finally:
        await closing([ana, wes])


@pytest.mark.rpcs("Lobby/ListTables")
async def test_the_lobby_lists_each_table_as_it_is_when_asked(arrangement: Arrangement) -> None:
    """wes's lobby lists a table of ana's, whichever process drives it, as it is at the moment he asks: her seat
    taken, himself watching and gone, the match begun once bia fills the last seat, the table closed. Each
    table's entry is kept serialized between two lists (``Table.listed``): a change must make it again."""
    ana, bia, wes = Person.at(arrangement, "ana"), Person.at(arrangement, "bia"), Person.at(arrangement, "wes")
    table_id = await make_table(arrangement, ana, game="truco_argentino", seats=2, bots=0)

    async def entry(include_finished: bool = False) -> common_pb2.TableSummary:
        [found] = [t for t in await wes.conn.tables(include_finished=include_finished) if t.id == table_id]
        return found

    async def listed(check: Callable[[common_pb2.TableSummary], bool], what: str) -> common_pb2.TableSummary:
        async def look() -> common_pb2.TableSummary | None:
            found = await entry()
            return found if check(found) else None

        return await eventually_async(look, f"the lobby lists {what}")

    try:
        empty = await entry()
        assert empty.status == common_pb2.TABLE_STATUS_WAITING and empty.spectators == 0, empty
        assert not any(s.taken for s in empty.seats) and await entry() == empty
        await ana.sit(table_id)  # through the lobby: listed at once
        assert [s.name for s in (await entry()).seats if s.taken] == ["ana"]
        await wes.watch(table_id)
        wes.follow()
        await wes.until(lambda p: p.snapshots, "the table opens")
        assert (await entry()).spectators == 1
        await bia.sit(table_id)
        ana.follow()
        bia.follow()
        playing = await listed(lambda t: t.status == common_pb2.TABLE_STATUS_PLAYING, "the match begun")
        assert [s.name for s in playing.seats if s.taken] == ["ana", "bia"] and playing.spectators == 1
        await wes.leave()
        await listed(lambda t: t.spectators == 0, "wes gone")
        await ana.conn.close_table(table_id)
        assert table_id not in {t.id for t in await wes.conn.tables()}
        closed = await entry(include_finished=True)
        assert closed.status == common_pb2.TABLE_STATUS_FINISHED and set(closed.played_people) <= {"ana", "bia"}
    finally:
        await closing([ana, bia, wes])


class ListFollower:
    """The room's list as a client keeps it from ``WatchTables``: a snapshot, then each change; a stream that breaks
    (its process killed) is asked for again, from a snapshot, as the lobby's screen does."""

    def __init__(self, conn: connection.Connection, include_finished: bool) -> None:
        self.tables: dict[str, common_pb2.TableSummary] = {}
        self.snapshots = 0
        self.conn, self.include_finished = conn, include_finished
        self.task = asyncio.get_running_loop().create_task(self._follow())

    async def _follow(self) -> None:
        while True:
            with contextlib.suppress(grpc.aio.AioRpcError):
                async for update in self.conn.watch_tables(self.include_finished):
                    if update.snapshot:
                        self.tables, self.snapshots = {}, self.snapshots + 1
                    for table_id in update.removed:
                        self.tables.pop(table_id, None)
                    for table in update.tables:
                        self.tables[table.id] = table
            await asyncio.sleep(0.1)

    async def until(self, check: Callable[[common_pb2.TableSummary | None], bool], table_id: str, what: str) -> None:
        await eventually(lambda: check(self.tables.get(table_id)), f"the lobby's stream shows {what}")

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


@pytest.mark.rpcs("Lobby/WatchTables")
async def test_the_lobby_s_stream_shows_each_table_as_it_changes(arrangement: Arrangement) -> None:
    """wes keeps the room's list open as a stream (and, beside it, one with the finished tables): ana's table shows
    up as she makes it, whichever process drives it, then her seat taken, wes watching and gone, the match begun
    once bia fills the last seat; the process that drives it killed -9, it stays listed and comes back where it
    is driven now; closed, it leaves the open list and is listed as finished in the other."""
    ana, bia, wes = Person.at(arrangement, "ana"), Person.at(arrangement, "bia"), Person.at(arrangement, "wes")
    open_list = ListFollower(wes.conn, include_finished=False)
    every = ListFollower(wes.conn, include_finished=True)
    try:
        await eventually(lambda: open_list.snapshots and every.snapshots, "both streams' snapshots")
        table_id = await make_table(arrangement, ana, game="truco_argentino", seats=2, bots=0)
        await open_list.until(lambda t: t is not None and t.status == common_pb2.TABLE_STATUS_WAITING, table_id,
                              "the new table")
        await ana.sit(table_id)
        await open_list.until(lambda t: t is not None and [s.name for s in t.seats if s.taken] == ["ana"], table_id,
                              "ana's seat taken")
        await wes.watch(table_id)
        wes.follow()
        await open_list.until(lambda t: t is not None and t.spectators == 1, table_id, "wes watching")
        await bia.sit(table_id)
        ana.follow()
        bia.follow()
        await open_list.until(lambda t: t is not None and t.status == common_pb2.TABLE_STATUS_PLAYING
                              and [s.name for s in t.seats if s.taken] == ["ana", "bia"], table_id, "the match begun")
        await wes.leave()
        await open_list.until(lambda t: t is not None and t.spectators == 0, table_id, "wes gone")
        before = open_list.snapshots
        arrangement.kill(arrangement.pid_at(ana.conn.routes[ana.token]))
        await ana.until(lambda p: len(p.snapshots) >= 2, "the table back after the kill")
        await open_list.until(lambda t: t is not None and t.status == common_pb2.TABLE_STATUS_PLAYING, table_id,
                              "the table, still listed, where it is driven now")
        assert open_list.snapshots >= before
        await ana.conn.close_table(table_id)
        await open_list.until(lambda t: t is None, table_id, "the closed table gone from the open list")
        await every.until(lambda t: t is not None and t.status == common_pb2.TABLE_STATUS_FINISHED, table_id,
                          "the closed table as finished")
    finally:
        await open_list.close()
        await every.close()
        await closing([ana, bia, wes])



async def falta_envido_to_the_end(people: list[Person]) -> None:
    """A match to 15 ended in one round: a falta envido called and accepted, then the deck."""
    ana, bia = people
    for p in people:
        await p.until(lambda p: p.view is not None and p.view.truco.cards, "cards")
    caller = await ana.until(lambda _: next((p for p in people if p.legal(A.ACTION_TYPE_FALTA_ENVIDO)), None),
                             "someone may call falta envido")
    await caller.conn.act(caller.token, the(caller, A.ACTION_TYPE_FALTA_ENVIDO), caller.last_seq)
    other = bia if caller is ana else ana
    await other.until(lambda p: p.legal(A.ACTION_TYPE_QUIERO) is not None, "the call")
    await settle_the_envido(people)
    for p in people:  # the envido is settled; the round ends as soon as someone goes to the deck
        if p.legal(A.ACTION_TYPE_MAZO) is not None:
            await p.act(A.ACTION_TYPE_MAZO)
            break
    for p in people:
        await p.until(lambda p: p.view is not None and p.view.match_over, "the match's end")

async def settle_the_envido(people: list[Person]) -> None:
    """Whoever is asked about the envido answers it (accepts, then says their points) until nobody is."""
    asked = (A.ACTION_TYPE_QUIERO, A.ACTION_TYPE_ANNOUNCE, A.ACTION_TYPE_SON_BUENAS)
    while True:
        found = next(((p, a) for p in people for a in (p.view.legal if p.view else []) if a.type in asked), None)
        if found is None:
            return
        person, action = found
        seq = await person.conn.act(person.token, action, person.last_seq)
        for p in people:
            await p.until(lambda q, seq=seq: q.last_seq >= seq, f"event {seq}")


@pytest.mark.rpcs("Table/Rematch")
async def test_again_after_a_match_in_each_arrangement(arrangement: Arrangement) -> None:
    """A match to 15 decided in one hand (a falta envido accepted), then again with the same seats: the next match
    starts at once, its first deal fair for both, and nothing on any server's log (no stale timer)."""
    table_id = await make_table(arrangement, game="truco_argentino", seats=2, bots=0,
                                options={"target": common_pb2.OptionValue(number=15)})
    ana, bia = Person.at(arrangement, "ana"), Person.at(arrangement, "bia")
    people = [ana, bia]
    try:
        for p in people:
            await p.sit(table_id)
            p.follow()
        await falta_envido_to_the_end(people)
        await asyncio.gather(*(p.conn.rematch(p.token, table_pb2.REMATCH_CHOICE_SAME) for p in people))
        for p in people:
            await p.until(lambda p: any(e.HasField("match_started") and e.match_started.match == 2
                                        for e in p.events), "game 2")
        await go_to_the_deck(ana)
        for p in people:
            await p.until(lambda p: len(p.verdicts) == 2, "game 2's first deal checked")
            assert all(v.ok for v in p.verdicts), p.verdicts
        no_false_alarm(*people)
    finally:
        await closing(people)


async def closed_to_the_end(people: list[Person]) -> None:
    """A match (of a game that closes, to a low target) played hand after hand (``rummy_move``: a close as soon
    as one may) until a close puts a player past the target."""
    deal = 1
    while not all(p.view is not None and p.view.match_over for p in people):
        # a guard against a match that never ends, not a length the rules promise: how many deals a match takes is
        # the cards' luck (a whole run once saw a Chinchón match to 10 points not over after 12 deals)
        assert deal <= 30, f"no match's end in {deal - 1} deals: {verdicts(people)}"
        await play_rummy_hand(people, deal)
        deal += 1


TO_THE_END: dict[str, Callable[[list[Person]], Awaitable[None]]] = {
    "deck": falta_envido_to_the_end, "close": closed_to_the_end}
"""How two people play a match to its end, by how the game's tests say the matrix plays it (``Matrix.plays``)."""
MATCHES_ENDED = {game: (m.quick_match, TO_THE_END[m.plays]) for game, m in MATRIX.items() if m.quick_match}
"""A game's match ended quickly by two people: the table's options, and how they play it to its end."""


@pytest.mark.parametrize("game", MATCHES_ENDED)
async def test_a_vote_to_play_again_survives_a_kill_and_a_late_one_is_refused(arrangement: Arrangement,
                                                                              game: str) -> None:
    """At a match's end ana asks for the seats swapped; the process driving the table is killed -9 before bia
    answers. The table comes back with ana's answer kept: bia's swap agrees with it, and the next match starts at
    once, swapped, as its commitment said. Once that commitment is out, a vote is refused (FAILED_PRECONDITION)."""
    options, to_the_end = MATCHES_ENDED[game]
    table_id = await make_table(arrangement, game=game, seats=2, bots=0, turn_seconds=3600,
                                options={k: common_pb2.OptionValue(number=v) for k, v in options.items()})
    ana, bia, wes = Person.at(arrangement, "ana"), Person.at(arrangement, "bia"), Person.at(arrangement, "wes")
    people = [ana, bia]
    try:
        for p in people:
            await p.sit(table_id)
            p.follow()
        await wes.watch(table_id)
        wes.follow()
        await to_the_end(people)
        await ana.conn.rematch(ana.token, table_pb2.REMATCH_CHOICE_SWAP)
        await wes.until(lambda p: any(e.HasField("rematch_voted") for e in p.events), "ana's answer")
        snapshots = len(wes.snapshots)
        arrangement.kill(arrangement.pid_at(ana.conn.routes[ana.token]))
        await wes.until(lambda p: len(p.snapshots) > snapshots, "the table back")
        await bia.conn.rematch(bia.token, table_pb2.REMATCH_CHOICE_SWAP)
        # wes, who was following the table again before bia answered, sees the next match start; a player whose
        # stream came back after it started sees it in the snapshot she was sent (the match no longer over)
        for p in (wes, *people):
            await p.until(lambda p: any(e.HasField("match_started") and e.match_started.match == 2
                                        for e in p.events) or (p is not wes and p.view is not None
                                                               and not p.view.match_over), "game 2")
        started = next(e.match_started for e in wes.events
                       if e.HasField("match_started") and e.match_started.match == 2)
        committed = [e.deal_committed for e in wes.events
                     if e.HasField("deal_committed") and e.deal_committed.opens_match]
        assert list(started.seats_from) == [1, 0] and started.swap_votes == 2 and started.agreed, started
        assert committed and list(committed[-1].seats_from) == [1, 0], "the commitment fixed the seats first"
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await ana.conn.rematch(ana.token, table_pb2.REMATCH_CHOICE_SAME)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        no_false_alarm(*people, wes)
    finally:
        await closing([*people, wes])


def rummy_move(person: Person) -> common_pb2.Action | None:
    """What a plain player of a game that closes does on its turn: close as soon as it may, else draw from the stock
    and throw the card drawn, and stay out when put out (a hand so played ends by a close, or void once the rebuilt
    stock runs out)."""
    view = person.view
    if view is None or person.seat not in view.to_act or view.hand_over:
        return None
    legal = list(view.legal)
    drawn = view.rummy.drawn if view.rummy.HasField("drawn") else None
    for wanted in (lambda a: a.type == A.ACTION_TYPE_KNOCK,
                   lambda a: a.type == A.ACTION_TYPE_DRAW and a.source == common_pb2.DRAW_SOURCE_STOCK,
                   lambda a: a.type == A.ACTION_TYPE_DISCARD and list(a.cards) == [drawn],
                   lambda a: a.type == A.ACTION_TYPE_PASS):
        found = next((a for a in legal if wanted(a)), None)
        if found is not None:
            return found
    return legal[0] if legal else None


async def play_rummy_hand(people: list[Person], deal: int, checkers: list[Person] | None = None) -> None:
    """Table deal ``deal`` played to its end by ``people`` (``rummy_move``; the table's bots play their own seats),
    until each of ``checkers`` (by default ``people``) has checked it."""
    waited = people if checkers is None else checkers
    made: dict[str, int] = {}
    """The event each one's last move made (or, refused, the one after the view it was made on): nobody moves
    again until their own stream has brought it, as a client acts only on what it has read. The others play on
    meanwhile: a slow reader's move waits for it to read its turn and its drawn card, not its own throw too."""

    def mover(_: Person) -> Person | bool | None:
        if all(any(v.hand >= deal for v in p.verdicts) for p in waited):
            return True
        return next((p for p in people if p.last_seq >= made.get(p.name, 0) and rummy_move(p) is not None), None)

    moves = 0
    while (found := await people[0].until(mover, f"a move in table deal {deal}, or its check")) is not True:
        assert isinstance(found, Person)
        moves += 1
        assert moves < 4 * MOVES, f"{moves} moves and table deal {deal} not checked by all: {verdicts(people)}"
        seen = found.last_seq
        try:
            made[found.name] = await found.conn.act(found.token, rummy_move(found), seen)
        except grpc.aio.AioRpcError:  # the table moved first: look again once the stream has brought more
            made[found.name] = seen + 1


@pytest.mark.rpcs("Lobby/ListHands", "Lobby/Replay", "Lobby/Analyze")
async def test_a_finished_hand_is_listed_replayed_and_analysed_wherever_its_table_is(arrangement: Arrangement) -> None:
    """ana plays a hand of Cacho against a bot and closes her table: its hand is listed, replayed and analysed
    through her lobby, whichever process drove the table."""
    ana = Person.at(arrangement, "ana")
    table_id = await make_table(arrangement, ana, game="cacho", seats=2, bots=1)
    try:
        await ana.sit(table_id)
        ana.follow()
        while not any(e.HasField("hand_ended") for e in ana.events):
            await ana.until(lambda p: any(e.HasField("hand_ended") for e in p.events) or (
                p.view is not None and not p.view.hand_over and p.view.legal), "ana's turn or the hand's end")
            choice = next((a for a in (ana.view.legal if ana.view else []) if a.type in (
                A.ACTION_TYPE_PASS, A.ACTION_TYPE_CHECK, A.ACTION_TYPE_FOLD)), None)
            if choice is not None and not any(e.HasField("hand_ended") for e in ana.events):
                try:
                    await ana.conn.act(ana.token, choice, ana.last_seq)
                except grpc.aio.AioRpcError as e:  # the bot moved first: look again
                    assert e.code() == grpc.StatusCode.FAILED_PRECONDITION, e
        await ana.conn.close_table(table_id)  # its hands are anyone's now: listed, replayed face up, analysed
        listed = await ana.conn.list_hands(table_id)
        assert listed.hands and listed.table.id == table_id
        steps = await ana.conn.replay(table_id, listed.hands[0].hand)
        assert steps and steps[0].hand.hand == listed.hands[0].hand
        analysis = None
        async for update in ana.conn.analyze(table_id, listed.hands[0].hand):
            if update.HasField("analysis"):
                analysis = update.analysis
        assert analysis is not None
    finally:
        await ana.close()


@pytest.mark.parametrize("killed", [pytest.param("driver", marks=pytest.mark.rpcs("Lobby/Locate")), "front"])
@pytest.mark.parametrize("last", ["act", "chat", "bot move", "seat"])
async def test_a_killed_process_loses_no_event_and_says_none_twice(arrangement: Arrangement, killed: str,
                                                                  last: str) -> None:
    """Which process is killed: the one that drives the table, or the one whose lobby the people use (in one process
    the same). wes (watching) stops reading; the table moves on (its last event of a given kind: a move of ana's, a chat
    line, a bot's move, a person sitting down); the process is killed -9 the moment that event is journaled. When
    the table is back (the same process again, or another), wes resumes from the last event he read and gets every
    event since, once, as does ana, who never stopped reading."""
    if killed == "front" and arrangement.name == "one":
        pytest.skip("one process is both: its kill is the driver's")
    # A move of ana's and a person sitting down are killed at a rummy table (of the first game that closes), a chat
    # line and a bot's move at Cacho's (whose passes keep its bots moving): both families' journals, in every
    # arrangement, at no extra cases.
    if last in ("act", "seat") and not CLOSING:
        pytest.skip("no game's tests declare a table the matrix plays by closing (GameTests.matrix)")
    game = CLOSING[0] if last in ("act", "seat") else "cacho"
    table_id = await make_table(arrangement, game=game, seats=4, bots=2, turn_seconds=3600)
    ana, cris, wes = Person.at(arrangement, "ana"), Person.at(arrangement, "cris"), Person.at(arrangement, "wes")
    try:
        for p in (ana, cris):
            await p.sit(table_id)
            p.follow()
        await wes.watch(table_id)
        wes.follow()
        await wes.until(lambda p: p.view is not None and bool(p.view.cacho.seats or p.view.rummy.seats),
                        "the first deal")
        where = ana.conn.routes[ana.token]  # where the table is served, as joining said
        await wes.unfollow()
        read = wes.last_seq
        await cris.leave()  # a bot plays his seat on, and it is open to a newcomer
        if last == "act":
            action = await ana.until(lambda p: next(iter(p.view.legal), None) if p.view else None, "ana's turn")
            journaled = await ana.conn.act(ana.token, action)
        elif last == "chat":
            await ana.conn.chat(ana.token, "already?")
            journaled = await ana.until(lambda p: max((e.seq for e in p.events if e.HasField("chatted")), default=0),
                                        "the chat line")
        elif last == "bot move":
            def bot_moved(p: Person) -> int:
                return max((e.seq for e in p.events if e.seq > read and e.HasField("acted") and e.acted.seat != p.seat),
                           default=0)

            while not bot_moved(ana):  # ana passes whenever the bots wait for her
                await ana.until(lambda p: bot_moved(p) or (p.view is not None and p.view.legal), "a move")
                action = next((a for a in ana.view.legal if a.type == A.ACTION_TYPE_PASS), None) if ana.view else None
                if not bot_moved(ana) and action is not None:
                    try:
                        await ana.conn.act(ana.token, action, ana.last_seq)
                    except grpc.aio.AioRpcError as e:  # a bot moved first: look again
                        assert e.code() == grpc.StatusCode.FAILED_PRECONDITION, e
            journaled = bot_moved(ana)
        else:
            dan = Person.at(arrangement, "dan")
            await dan.sit(table_id)
            journaled = await ana.until(lambda p: max((e.seq for e in p.events if e.HasField("joined")
                                                       and e.joined.name == "dan"), default=0), "dan sits")
            await dan.close()
        arrangement.kill(arrangement.pid_at(where if killed == "driver" else ""))
        wes.follow(after_seq=read)
        if killed == "driver" or arrangement.name == "workers":  # (a host's front killed: the table is the other's)
            await ana.until(lambda p: len(p.snapshots) >= 2, "ana's stream back after the kill")
        for p in (ana, wes):  # (the events come after the snapshot, in a message of their own)
            await p.until(lambda p, n=journaled: max((e.seq for e in p.events), default=0) >= n,
                          f"event {journaled} again")
            contiguous(p)
        missed = [e.seq for e in wes.events if e.seq > read]
        assert missed[: journaled - read] == list(range(read + 1, journaled + 1)), (read, journaled, missed)
    finally:
        await closing([ana, cris, wes])


def lock_holders(store: Path) -> dict[str, int]:
    """Each table owner's lock, by the process that holds it (``Owners.register``: a lock file's ``flock`` beside the
    store, held for as long as its process lives; a dead owner's is held by the process handing its tables out)."""
    owners: dict[int, str] = {}
    for lock in store.parent.glob(f"{store.name}.owner-*"):
        with contextlib.suppress(FileNotFoundError):
            owners[lock.stat().st_ino] = lock.name.rsplit(".owner-", 1)[1]
    held: dict[str, int] = {}
    for line in Path("/proc/locks").read_text().splitlines():
        kind, _, _, pid, device_inode = line.split()[1:6]
        if kind == "FLOCK" and (owner := owners.get(int(device_inode.rsplit(":", 1)[1]))) is not None:
            held[owner] = int(pid)
    return held


def tables_by_worker(arrangement: Arrangement) -> dict[int, set[str]]:
    """The open tables each live table worker drives, as the store says (by the port it serves them at).

    A table counts for the worker process that holds its owner's lock, which is that worker's own. A worker killed
    -9 leaves its owner's row, its address and its tables naming it until a survivor claims them, and its replacement
    serves at the same address: read by the address alone, the dead one's tables looked like the replacement's, so
    the workers read even before any table had moved, and a watcher's ``Locate`` then named the survivor that claimed
    the table a moment later."""
    store = arrangement.folder / "store.db"
    with contextlib.closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT id, owner FROM tables WHERE finished IS NULL AND damaged IS NULL").fetchall()
    holders = lock_holders(store)
    ports = {pid: listening(pid) - {arrangement.ports[0]} for pid, front in arrangement.processes() if front is None}
    by: dict[int, set[str]] = {port: set() for served in ports.values() for port in served}
    for table_id, owner in rows:
        for port in ports.get(holders.get(str(owner), 0), ()):
            by[port].add(str(table_id))
    return by


def even(by: dict[int, set[str]]) -> bool:
    counts = [len(ids) for ids in by.values()]
    return len(counts) == 2 and max(counts) - min(counts) <= 1


def moves(arrangement: Arrangement, since: int) -> list[str]:
    """What the room's processes logged since ``since`` (a ``log_size``) of tables taken over, let go and moved, and
    who the store says drives each open table now: for a failure to say where the moving stopped."""
    words = ("placement", "takeover", "moves", "moved", "take", "let go", "worker", "WARNING", "ERROR")
    logged = [line for line in arrangement.logged(since) if any(w in line for w in words)][-80:]
    with contextlib.closing(sqlite3.connect(f"file:{arrangement.folder / 'store.db'}?mode=ro", uri=True)) as db:
        owners = db.execute("SELECT id, address, started FROM owners ORDER BY started").fetchall()
        tables = db.execute("SELECT id, owner, epoch FROM tables WHERE finished IS NULL AND damaged IS NULL").fetchall()
    return [*logged, f"owners (id, address, started): {owners}", f"open tables (id, owner, epoch): {tables}"]


EVEN_WITHIN = 300.0
"""Seconds after a worker's kill within which its replacement and the survivor are even again (issue 92's mark)."""


@pytest.mark.timeout(EVEN_WITHIN + 240)
@pytest.mark.parametrize("arrangement", [pytest.param("workers", marks=pytest.mark.rpcs("Lobby/Spectate"))],
                         indirect=True)
async def test_after_a_workers_kill_tables_move_back_between_hands_and_new_ones_go_to_the_emptier(
        arrangement: Arrangement) -> None:
    """Four tables of bots (two of Cacho, two of the first game that closes), two on each table worker by their
    work; the worker that drives two of them is killed -9.
    The survivor takes them over, the dead one's replacement serves with none, and tables move back to it between
    hands until the two are even within one; whoever watches a table that moved follows it there, every event once.
    Then each new table goes to the worker with fewer."""
    since = arrangement.log_size()
    games = ("cacho", *CLOSING[:1])
    ids = [await make_table(arrangement, game=games[n % len(games)], seats=2, bots=2) for n in range(4)]
    await eventually(lambda: even(tables_by_worker(arrangement)), "the four tables shared out evenly")
    watchers = [await Person.at(arrangement, f"w{n}").watch(table_id) for n, table_id in enumerate(ids)]
    try:
        for w in watchers:
            w.follow()
        for w in watchers:
            await w.until(lambda p: p.view is not None and bool(p.view.cacho.seats or p.view.rummy.seats),
                          "the first deal")
        before = tables_by_worker(arrangement)
        victim = max(before, key=lambda port: len(before[port] & set(ids)))
        survivor = next(port for port in before if port != victim)
        had = set(before[survivor])
        # the adversary: the survivor stalls as the other dies, so the replacement serves at the dead one's address
        # while the dead one's tables are nobody's yet; whatever the lobby says of a table then is what the store says
        stalled, dead = arrangement.pid_at(f":{survivor}"), arrangement.pid_at(f":{victim}")
        await stopped_between_writes(stalled)
        try:
            arrangement.kill(dead)
            await eventually(lambda: any(victim in listening(pid) for pid, front in arrangement.processes()
                                         if front is None and pid != dead), "the replacement serving at the dead one's")
            window = tables_by_worker(arrangement)
            for w in watchers:
                assert w.joined is not None
                try:
                    said = (await w.conn.lobby.Locate(lobby_pb2.LocateRequest(token=w.token), timeout=PATIENCE)).address
                except grpc.aio.AioRpcError as err:
                    assert err.code() == grpc.StatusCode.UNAVAILABLE, err
                    said = ""
                driving = [port for port, held in window.items() if w.joined.table.id in held]
                assert [int(said.rsplit(":", 1)[1])] == driving if said else not driving, (w.name, said, window)
        finally:
            os.kill(stalled, signal.SIGCONT)
        # the survivor's tables move to the replacement until they are even: within the five minutes of hands ending
        # the room promises (issue 92's mark; in two whole runs of the suite, on a host busy with the rest of it, this
        # took over the two minutes the test once allowed)
        try:
            after = await eventually(lambda: (by := tables_by_worker(arrangement)) and survivor in by and len(by) == 2
                                     and even(by) and set(ids) <= set().union(*by.values()) and by,
                                     "the workers even within one again, every table driven by one of them",
                                     patience=EVEN_WITHIN)
        except AssertionError as never:
            raise AssertionError(f"{never}: tables by worker's port {tables_by_worker(arrangement)}, the survivor "
                                 f":{survivor}, the one killed :{victim}, the listening processes "
                                 f"{[(pid, listening(pid)) for pid, front in arrangement.processes()]}; the room's "
                                 "log of placement and moves:\n" + "\n".join(moves(arrangement, since))) from never
        replacement = next(port for port in after if port != survivor)
        assert after[replacement], after
        assert after[replacement] <= had | before[victim], "only tables the survivor drove moved"
        assert set(ids) <= after[survivor] | after[replacement]
        for w in watchers:  # each watcher of a table that moved followed it, and saw every event once
            where = await w.conn.lobby.Locate(lobby_pb2.LocateRequest(token=w.token))
            now = tables_by_worker(arrangement)  # read just after: no table moves once the workers are even
            port = int(where.address.rsplit(":", 1)[1])
            assert w.joined is not None and w.joined.table.id in after.get(port, set()), (
                w.name, where.address, after, now, moves(arrangement, since))
            assert now == after, (now, after, moves(arrangement, since))
            if port == replacement:
                await w.until(lambda p: len(p.snapshots) >= 2, "the table's snapshot where it moved")
                await w.until(lambda p: max((e.seq for e in p.events), default=0) > p.snapshots[-1].first_seq,
                              "play going on where the table moved")
            contiguous(w)
        # new tables: each to the worker with fewer (of equals, either; the next to the other)
        for _ in range(3):
            now = tables_by_worker(arrangement)
            fewer = min(now, key=lambda port: len(now[port]))
            tied = len({len(t) for t in now.values()}) == 1
            made = await make_table(arrangement, game="cacho", seats=2, bots=2)
            then = tables_by_worker(arrangement)
            went = next(port for port in then if made in then[port])
            assert tied or went == fewer, (now, went)
            assert even(then), then
    finally:
        await closing(watchers)


@pytest.mark.rpcs("Lobby/JoinTable", "Lobby/Invite")
async def test_a_code_that_opens_a_lock_is_guessed_no_faster_than_a_password(arrangement: Arrangement) -> None:
    """The owner's invite that opens the table's password is a code of 8 symbols: it opens the table to a friend;
    tried as a JoinTable's ``invite``, wrong codes from one address run out as wrong passwords do (a burst of ten,
    then RESOURCE_EXHAUSTED with a sentence)."""
    owner = Person.at(arrangement, "ana")
    guesser = Person.at(arrangement, "mallory")
    try:
        table_id = await make_table(arrangement, owner, game="cacho", seats=3, bots=1, password="s3cret-pw")
        opening = await owner.conn.invite(table_id, with_password=True)
        assert opening.opens_lock and opening.code
        friend = Person.at(arrangement, "bia")
        try:
            await friend.sit(table_id, invite=opening.code)  # (first: all the tests' clients share one address)
            assert friend.seat is not None
        finally:
            await friend.close()
        guesses = [f"{n:04d}ZZZZ"[-8:].replace("0", "A").replace("1", "B") for n in range(14)]
        tries = await asyncio.gather(*(guesser.conn.join(table_id, "mallory", invite=g) for g in guesses),
                                     return_exceptions=True)
        codes = {t.code() for t in tries if isinstance(t, grpc.aio.AioRpcError)}
        assert not [t for t in tries if not isinstance(t, grpc.aio.AioRpcError)], "a guess opened the table"
        assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes, codes
        assert codes <= {grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.PERMISSION_DENIED,
                         grpc.StatusCode.INVALID_ARGUMENT}, codes
    finally:
        await closing([owner, guesser])


class Health:
    """A host's health as its gRPC health service streams it (``Health.Watch``): each status as it comes."""

    def __init__(self, address: str) -> None:
        self.channel = grpc.aio.insecure_channel(address)
        self.said: list[int] = []
        self.task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        stream = health_pb2_grpc.HealthStub(self.channel).Watch(health_pb2.HealthCheckRequest(service=""))
        async for reply in stream:
            self.said.append(reply.status)

    async def says(self, status: int, what: str) -> None:
        await eventually(lambda: self.said and self.said[-1] == status, what)

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        await self.channel.close()


@pytest.mark.postgresql
@pytest.mark.xdist_group("postgresql")
async def test_the_store_out_of_reach_is_unavailable_said_once_and_over_by_itself(hosts: Arrangement,
                                                                                    postgres: Cluster) -> None:
    """PostgreSQL stops under two hosts mid-hand: their calls answer UNAVAILABLE with a sentence (never UNKNOWN),
    their health says NOT_SERVING, their logs say it without a traceback and at most once per kind every 10 s;
    when it is back they say SERVING again and ana's Cacho table and bia's rummy table come back by themselves,
    where each plays on the move she made as the store went."""
    cacho = await make_table(hosts, game="cacho", seats=2, bots=1, turn_seconds=3600)
    rummy = await make_table(hosts, game=(*CLOSING, "cacho")[0], seats=2, bots=1, turn_seconds=3600)
    ana, bia = Person.at(hosts, "ana"), Person.at(hosts, "bia")
    people = {ana: cacho, bia: rummy}
    health = [Health(f"127.0.0.1:{port}") for port in hosts.ports]
    since = hosts.log_size()
    try:
        for person, table_id in people.items():
            await person.sit(table_id)
            person.follow()
        for person in people:
            await person.until(lambda p: p.view is not None and p.view.legal, f"{person.name}'s turn")
        for h in health:
            await h.says(health_pb2.HealthCheckResponse.SERVING, "serving")
        postgres.pause()
        before = {p: p.last_seq for p in people}
        # each one's move as the store goes: refused (UNAVAILABLE), her table let go; her client sends it again, and
        # it is made once the table is back, not left for her turn's timer (an hour here) to run out
        acting = {p: asyncio.create_task(p.conn.act(p.token, p.view.legal[0], p.last_seq))  # type: ignore[union-attr]
                  for p in people}
        try:
            with pytest.raises(grpc.aio.AioRpcError) as listing:
                await ana.conn.tables()
            assert listing.value.code() == grpc.StatusCode.UNAVAILABLE, listing.value
            assert "store" in (listing.value.details() or ""), listing.value.details()
            with pytest.raises(grpc.aio.AioRpcError) as talking:  # a change at her table: it cannot be written
                await ana.conn.chat(ana.token, "hello?")
            assert talking.value.code() == grpc.StatusCode.UNAVAILABLE, talking.value
            with pytest.raises(grpc.aio.AioRpcError) as joining:
                await Person.at(hosts, "cris").conn.join(cacho, "cris")
            assert joining.value.code() == grpc.StatusCode.UNAVAILABLE, joining.value
            for h in health:
                await h.says(health_pb2.HealthCheckResponse.NOT_SERVING, "not serving while the store is away")
        finally:
            # Counted before the store is back: a table may come back (a new snapshot) while the
            # hosts' health is being asked.
            snapshots = {p: len(p.snapshots) for p in people}
            postgres.resume()
        for h in health:
            await h.says(health_pb2.HealthCheckResponse.SERVING, "serving again")
        for person, task in acting.items():
            assert not task.done() or task.exception() is None, f"{person.name}'s move given up on during the outage"
            made = await task
            assert made > before[person]
            await person.until(lambda p, made=made: len(p.snapshots) > snapshots[p]
                               and max((e.seq for e in p.events), default=0) >= made,
                               f"{person.name}'s table back, her move made there")
        logged = hosts.log.read_bytes()[since:].decode(errors="replace").splitlines()
        assert not [line for line in logged if "Traceback" in line or "Unexpected" in line], logged[:30]
        outage = [line for line in logged if "out of reach" in line]
        assert 0 < len(outage) <= 12, outage
    finally:
        await asyncio.gather(*(h.close() for h in health))
        await closing(list(people))


SEALED = {"sealed": common_pb2.OptionValue(flag=True)}


def stored_text(arrangement: Arrangement) -> str:
    """Every value of every row of the arrangement's store (its SQLite file, or the hosts' PostgreSQL database),
    as text: what whoever runs the room can read."""
    out: list[str] = []
    if arrangement.name == "hosts":
        import psycopg

        with psycopg.connect(arrangement.db) as db:
            names = [r[0] for r in db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
            rows = [row for name in names for row in db.execute(f'SELECT * FROM "{name}"'.encode())]
    else:
        with contextlib.closing(sqlite3.connect(f"file:{arrangement.folder / 'store.db'}?mode=ro", uri=True)) as db:
            names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            rows = [row for name in names for row in db.execute(f'SELECT * FROM "{name}"')]
    for row in rows:
        out.extend(bytes(v).hex() if isinstance(v, bytes | memoryview) else str(v) for v in row)
    return "\n".join(out)


def journal_of(arrangement: Arrangement, table_id: str) -> list[str]:
    """The table's journal as the store holds it now, one line a step (n, seq, kind, seat, the step's words)."""
    query = "SELECT n, seq, kind, seat, data FROM log WHERE table_id = {} ORDER BY n"
    if arrangement.name == "hosts":
        import psycopg

        with psycopg.connect(arrangement.db) as db:
            rows = list(db.execute(query.format("%s").encode(), (table_id,)))
    else:
        with contextlib.closing(sqlite3.connect(f"file:{arrangement.folder / 'store.db'}?mode=ro", uri=True)) as db:
            rows = list(db.execute(query.format("?"), (table_id,)))
    return [f"{n}@{seq} {kind} {seat} {str(data)[:90]}" for n, seq, kind, seat, data in rows]


def nothing_stored_opens(arrangement: Arrangement, players: list[Player]) -> None:
    """No seat's hand secret, nor the key of any card it holds unplayed, is in the store."""
    text = stored_text(arrangement)
    for p in players:
        mine = p.sealed.mine
        assert mine is not None
        assert mine.secrets.secret.hex() not in text, p.name
        for place in mine.ledger.holdings[p.seat]:
            if place not in mine.ledger.played:
                assert scalar_bytes(mine.secrets.card_key(place)).hex() not in text, (p.name, place)


@pytest.mark.rpcs("Lobby/CreateTable", "Lobby/JoinTable", "Table/Subscribe", "Table/Seal")
async def test_a_sealed_hand_plays_on_through_a_drop_and_a_kill_with_the_same_locked_cards(
    arrangement: Arrangement, tmp_path: Path,
) -> None:
    """Two people at a sealed truco table, wherever it is served: their own clients make the deal (Table.Seal) and
    open their own cards; a card is played. bia's client goes away mid-hand (its memory with it) and a new one, with
    her keys from her disk, follows the table again: the same cards. The process that drives the table is killed
    -9; the table comes back (the same process again, another worker, the other host) with the same locked cards,
    from a store that holds nothing that opens them, and the hand plays to its end with no cheat named. bia leaves,
    and carla sits down at her seat during the next hand, the host's that hand: she plays its cards by name without a
    stall, and deals in with her own client from the hand after. A step of a sealed deal sent to an open table is
    refused with a sentence."""
    table_id = await make_table(arrangement, game="truco_argentino", seats=2, bots=0, turn_seconds=3600,
                                options=SEALED)
    players = [await sit_at(arrangement.lobby, table_id, name, tmp_path) for name in ("ana", "bia")]
    readers = [asyncio.create_task(follow(p)) for p in players]
    try:
        await eventually(lambda: all(dealt(p) for p in players) or None,
                         "each seat's three cards, opened by its own client")
        cards = {p.seat: p.sealed.dealt() for p in players}
        assert len({c for hand in cards.values() for c in hand}) == 6
        for p in players:
            for other in players:
                if other is not p:  # nobody opens another's cards
                    assert all(p.sealed.mine.card(place) is None  # type: ignore[union-attr]
                               for place in p.sealed.mine.ledger.holdings[other.seat])  # type: ignore[union-attr]
        called = [False]
        said = await play_hand(players, lambda: any("played" in p.events for p in players), called)

        # bia's client goes away mid-hand; a new one, with the same folder, plays on with her cards
        readers[1].cancel()
        await players[1].conn.close()
        bia = players[1]
        conn = connection.Connection.open(arrangement.lobby)
        players[1] = Player("bia", conn, bia.token, bia.seat, SealedSeat(conn.target, SealedKeys(tmp_path / "bia")))
        readers[1] = asyncio.create_task(follow(players[1]))
        await eventually(lambda: (players[1].sealed.ready and players[1].sealed.dealt() == cards[bia.seat]) or None,
                         "bia's same cards, opened again from the replay and her disk")

        # the table's process killed -9 mid-hand: it comes back from the store with the same locked cards
        nothing_stored_opens(arrangement, players)
        snapshots = [p.snapshots for p in players]
        where = players[0].conn.routes[players[0].token]
        killed = arrangement.pid_at(where)
        assert not any(p.ended for p in players)
        arrangement.kill(killed)
        await eventually(lambda: all(p.snapshots > n and p.sealed.ready for p, n in zip(players, snapshots,
                                                                                       strict=True)) or None,
                         "both streams back after the kill, the hand ready again")
        assert {p.seat: p.sealed.dealt() for p in players} == cards
        said += await play_hand(players, lambda: all(p.ended for p in players), called)
        assert {s for s, a in said if a.type == "play"} == {0, 1}, said
        assert all(not p.sealed.named and not p.sealed.refused for p in players), [
            (p.sealed.named, p.sealed.refused) for p in players]

        # bia leaves: her seat is the host's from the next hand. carla sits down there during that hand: its cards
        # stay the host's until the hand's end, she plays them by name (the host opens each with its keys), and from
        # the hand after it the seat is hers, dealt by her own client
        ana = players[0]
        await players[1].conn.leave(players[1].token)
        readers[1].cancel()
        await eventually(lambda: (ana.sealed.number == 2 and ana.sealed.ready and ana.sealed.hosts == (bia.seat,))
                         or None, "hand 2 dealt, bia's seat the host's")
        carla = await sit_at(arrangement.lobby, table_id, "carla", tmp_path)
        assert carla.seat == bia.seat
        players.append(carla)
        readers.append(asyncio.create_task(follow(carla)))
        ana.ended = False
        said = await play_hand([ana, carla], lambda: ana.ended)
        assert any(seat == carla.seat and a.type == "play" for seat, a in said), said  # by name: the host's keys
        await eventually(lambda: (carla.sealed.number == 3 and carla.sealed.ready
                                  and len(carla.sealed.own_cards()) == 3) or None, "carla's own cards in hand 3")
        assert carla.seat not in carla.sealed.hosts and carla.seat in carla.sealed.pledging
        assert all(not p.sealed.named and not p.sealed.refused for p in (ana, carla)), [
            (p.sealed.named, p.sealed.refused) for p in (ana, carla)]
        open_id = await make_table(arrangement, game="truco_argentino", seats=2, bots=0)
        joined = await players[0].conn.join(open_id, "ana")
        with pytest.raises(grpc.aio.AioRpcError) as step:  # a step of a sealed deal at a table that is not one
            await players[0].conn.seal(joined.token, sealed_pb2.SealRequest(hand=1, pledge=sealed_pb2.SealPledge(
                pledge=bytes(32))))
        assert step.value.code() is grpc.StatusCode.FAILED_PRECONDITION
        assert step.value.details() == "This table is not sealed: its cards are dealt by the server."
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*(p.conn.close() for p in players))


@pytest.mark.rpcs("Lobby/CreateTable", "Lobby/JoinTable", "Table/Subscribe", "Table/Seal")
@pytest.mark.parametrize(("game", "seats"), [("truco_argentino", 2), ("truco_paulista", 4)])
async def test_a_bot_s_sealed_hand_plays_on_after_a_kill_with_the_host_s_secrets_from_the_store(
    arrangement: Arrangement, tmp_path: Path, game: str, seats: int,
) -> None:
    """ana and bots at a sealed table, wherever it is served: the server makes the bots' part of the deal with
    secrets of the host's, kept in the table's journal. The table's process is killed -9 once ana's cards are hers
    and the table waits on her alone (her turn, or a call to her team, which her bot partner leaves to her; until
    then the bots may end a hand among themselves, a truco called and run from, and the kill waits for the next); the
    table comes back with the bots' secrets from the store (their cards the same, opened again by the host) and ana's
    cards still closed to it: the same hand, her same cards. The hand plays to its end with the bots' cards opened by
    their keys. At truco paulista the mão's keep, pass or reject (a bot's, or ana's, her turn then) goes through the
    same store and kill."""
    table_id = await make_table(arrangement, game=game, seats=seats, bots=seats - 1, turn_seconds=3600,
                                options=SEALED)
    ana = await sit_at(arrangement.lobby, table_id, "ana", tmp_path)
    reader = asyncio.create_task(follow(ana))

    def hers() -> bool | None:  # (a bot partner answering a call with her never answers before her)
        view = ana.view
        return (view is not None and ana.seat in view.to_act and len(view.legal) > 0
                and all(s % 2 == ana.seat % 2 for s in view.to_act) and len(ana.sealed.own_cards()) == 3) or None

    try:
        await eventually(hers, "ana's three cards, and her turn with the table waiting on her alone")
        number, cards = ana.sealed.number, ana.sealed.dealt()
        nothing_stored_opens(arrangement, [ana])
        snapshots, ana.ended = ana.snapshots, False
        arrangement.kill(arrangement.pid_at(ana.conn.routes[ana.token]))
        killed, seen = journal_of(arrangement, table_id), len(ana.told)
        # Her cards open again once the hand's steps are read again: the deal's "ready" can come before the
        # envelopes that open a block the mão passed her, so the wait is for her cards, the check that they are hers.
        await eventually(lambda: (ana.snapshots > snapshots and ana.sealed.ready and (
            ana.sealed.number != number or len(ana.sealed.dealt()) >= len(cards))) or None,
            "ana's stream back after the kill, her cards open again")
        assert (ana.sealed.number, ana.sealed.dealt()) == (number, cards), "\n".join([
            f"ana (seat {ana.seat}) holds {ana.sealed.dealt()} in hand {ana.sealed.number}, had {cards} in {number}",
            "the journal at the kill, its end:", *killed[-24:], "the journal now, its end:",
            *journal_of(arrangement, table_id)[-24:], "ana's stream, from the kill on:", *ana.told[seen - 8:]])
        await play_hand([ana], lambda: ana.ended)
        # The bots' cards played after the kill went out with keys from the store, each checked by her client: a key
        # that did not fit would be named. (Her card can end the hand: a truco accepted, or the last trick.)
        assert not ana.sealed.named and not ana.sealed.refused, (ana.sealed.named, ana.sealed.refused)
    finally:
        reader.cancel()
        await ana.conn.close()


def test_every_rpc_a_table_uses_is_in_the_matrix() -> None:
    """Every method of the Lobby and Table services is named by a test here (and the test checks it called it):
    one added to the ``.proto`` fails this until the matrix calls it."""
    methods = {f"{s.name}/{m.name}" for module in (lobby_pb2, table_pb2)
               for s in module.DESCRIPTOR.services_by_name.values() for m in s.methods if s.name in COVERED}
    named: set[str] = set()
    for name, test in vars(sys.modules[__name__]).items():
        if name.startswith("test_"):
            for mark in getattr(test, "pytestmark", []):
                if mark.name == "rpcs":
                    named.update(mark.args)
                for param in mark.args[1] if mark.name == "parametrize" else ():  # a mark on one case of it
                    for inner in getattr(param, "marks", ()):
                        if inner.name == "rpcs":
                            named.update(inner.args)
    assert methods - named == set(), f"no test of the matrix calls {sorted(methods - named)}"
    assert named - methods == set(), f"the matrix names methods the .proto has not: {sorted(named - methods)}"
