"""A person plays a sealed truco hand on the real table screen (``cardtui connect``'s Textual app): the screen shows
the three cards their own client opened (the server's view holds none), a card's key plays it with its keys, and
the hand goes to its end. A browser guest (a client the host runs) is refused a seat at a sealed table."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest

import cardtui.client.boards.truco_words  # noqa: F401  (the sealed events' words)
from cardtui.client.app import CardApp
from cardtui.client.connection import Connection
from cardtui.client.models import TableModel, action_name
from cardtui.client.words import event_words
from cardtui.sealed import shuffle
from cardtui.sealed.envelopes import BoxKey, seal_code
from cardtui.sealed.group import encode
from cardtui.sealed.ledger import Ledger
from cardtui.server.app import Running
from cardtui.v1 import common_pb2, lobby_pb2, sealed_pb2, table_pb2
from tests.client.test_truco import SMALL, board_text, legal, log_text, offered, open_table, press_card
from tests.client.waiting import until
from tests.conftest import create
from tests.sealed_play import choose, follow
from tests.server.test_sealed_table import SEALED, sit


@pytest.fixture(autouse=True)
def few_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shuffle, "ROUNDS", 4)


async def test_a_sealed_hand_played_by_keys_shows_the_cards_its_own_client_opened(
    server: Running, tmp_path: Path,
) -> None:
    table_id = await create(server, game="truco_argentino", seats=2, bots=0, turn_seconds=600, options=SEALED)
    app = CardApp(f"127.0.0.1:{server.port}", "ana", own_config=True)
    async with app.run_test(size=SMALL) as pilot:
        reader = None
        bia = await sit(server, table_id, "bia", tmp_path)
        try:
            reader = asyncio.create_task(follow(bia))
            screen = await open_table(pilot, app, table_id)
            assert app.conn is not None
            seat = app.conn.sealed_seats[screen.token]
            await until(pilot, lambda: len(screen.model.view.truco.cards) == 3 if screen.model.view else False,
                        "ana's three cards on screen, opened by her client")
            shown = list(screen.model.view.truco.cards)  # type: ignore[union-attr]
            await until(pilot, lambda: "Your cards" in board_text(app), "the hand on the board")
            assert sorted(shown) == sorted(seat.dealt())
            code = seal_code(bia.sealed.boxes)  # the code bia's own client makes of the box points it was given
            await until(pilot, lambda: f"Seal code: {code}." in log_text(app), lambda: log_text(app))
            assert seal_code(seat.boxes) == code
            assert not server.room.tables[table_id].sealed.hand.ledger.opened  # type: ignore[union-attr]
            called = [True]  # bia calls nothing: the hand is its cards
            plays = 0
            while not bia.ended:
                view = screen.model.view
                mine = view is not None and screen.seat in view.to_act and \
                    "play" in {action_name(a) for a in screen.model.legal}
                if mine:
                    assert seat.ready, "a card offered on screen while the deal is still being made"
                    seq = screen.model.seq
                    assert await press_card(pilot, app)
                    plays += 1
                    await until(pilot, lambda s=seq: screen.model.seq != s or bia.ended, "ana's card taken")
                    continue
                if bia.view is not None and bia.seat in bia.view.to_act and bia.view.legal:
                    _, step = choose(bia, called)
                    if step is not None:
                        seq = bia.seq
                        await bia.conn.seal(bia.token, step)
                        await until(pilot, lambda s=seq: bia.seq != s, "bia's card taken")
                        continue
                at = (screen.model.seq, bia.seq)
                await until(pilot, lambda at=at: bia.ended or (screen.model.seq, bia.seq) != at,  # type: ignore[misc]
                            lambda: f"the table to move on (ana may {[action_name(a) for a in screen.model.legal]}, "
                                    f"to act {list(screen.model.view.to_act) if screen.model.view else None}; "
                                    f"bia's view {list(bia.view.to_act) if bia.view else None})")
            assert plays >= 2
            opened = server.store.hands.last_hand(table_id)
            assert opened is not None
            played = {s["card"] for s in opened["sealed"]["steps"] if s["step"] == "play" and s["seat"] == screen.seat}
            assert played and played <= set(shown)  # the cards on screen are the cards played, checked by the host
        finally:
            if reader is not None:
                reader.cancel()
            await bia.conn.close()


async def test_at_a_sealed_table_with_a_bot_the_log_says_whose_cards_the_host_knows(server: Running) -> None:
    """One person and a bot: the server makes the bot's part of the deal; the log says the bot's seat is the
    host's (so the host knows its cards, and no other hand), and ana plays her card by its key, opened with her
    keys, against the bot's."""
    table_id = await create(server, game="truco_argentino", seats=2, bots=1, turn_seconds=600, options=SEALED)
    app = CardApp(f"127.0.0.1:{server.port}", "ana", own_config=True)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_table(pilot, app, table_id)
        await until(pilot, lambda: len(screen.model.view.truco.cards) == 3 if screen.model.view else False,
                    "ana's three cards on screen, opened by her client")
        await until(pilot, lambda: "Sealed deal: the bot bot 2 plays the host's seat, so the host knows its cards; "
                                   "every other hand stays closed to everyone, the host included, until it is played "
                                   "or shown." in " ".join(log_text(app).split()), lambda: log_text(app))
        sealing = server.room.tables[table_id].sealed
        assert sealing is not None and sealing.hand is not None and sealing.hand.hosts == (1 - screen.seat,)
        ledgers: list[tuple[Ledger, set[str]]] = []
        assert app.conn is not None
        own = app.conn.sealed_seats[screen.token]

        def played() -> bool:
            """ana played a card in the hand in play (one she refused a call in may end first: then the next)."""
            held = sealing.hand
            if not ledgers and held is not None and held.ledger is not None and \
                    screen.seat in held.ledger.played.values() and own.number == held.number:
                ledgers.append((held.ledger, set(own.dealt())))
            return bool(ledgers)

        while not played():
            await until(pilot, lambda: played() or bool(legal(app)), "ana's move")
            if played():
                break
            seq = screen.model.seq
            if not await press_card(pilot, app):  # the bot called: refused (nobody announces a count here)
                keys = offered(app)
                await pilot.press(next((keys[k] for k in ("no_quiero", "son_buenas") if k in keys),
                                       next(k for a, k in keys.items() if a != "mazo")))
            await until(pilot, lambda s=seq: played() or screen.model.seq != s, "ana's move taken")
        ledger, dealt = ledgers[0]
        mine = {card for place, card in ledger.opened.items() if ledger.played.get(place) == screen.seat}
        assert mine and mine <= dealt  # the card her client opened, played with her keys and checked by the host


async def test_a_browser_guest_is_refused_a_seat_at_a_sealed_table(server: Running) -> None:
    table_id = await create(server, game="truco_argentino", seats=2, bots=0, options=SEALED)
    conn = Connection.open(f"127.0.0.1:{server.port}")
    conn.on_host = True
    try:
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await conn.join(table_id, "guest")
        assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
        assert refused.value.details() == (
            "A browser guest cannot sit at a sealed table: its client runs on the host's machine, which could read "
            "its cards. Sit from your own terminal (cardtui connect), or watch.")
        listed = await conn.lobby.ListTables(lobby_pb2.ListTablesRequest())
        (entry,) = [t for t in listed.tables if t.id == table_id]
        assert not any(s.name for s in entry.seats)  # nobody sat
    finally:
        await conn.close()


def test_the_seal_code_said_is_the_box_points_given_and_a_swapped_one_says_another() -> None:
    """The log's seal code is made of the box points this client was given (docs/deal.md §S8): a host that hands
    it one of its own making, to read what is sealed for it, makes it say another code than the others'."""
    boxes = {seat: BoxKey(bytes([seat + 1]) * 32).point for seat in range(4)}
    honest = sealed_pb2.SealedBoxes(hand=1, boxes=[sealed_pb2.SealedPoint(seat=s, point=encode(p))
                                                   for s, p in boxes.items()])
    swapped = sealed_pb2.SealedBoxes()
    swapped.CopyFrom(honest)
    swapped.boxes[2].point = encode(BoxKey(bytes([9]) * 32).point)
    model = TableModel(common_pb2.TableSummary(id="t", game="truco_argentino"), 0)
    said = [event_words(model, table_pb2.Event(seq=1, sealed=sealed_pb2.SealedEvent(boxes=b)))
            for b in (honest, swapped)]
    assert said[0] is not None and said[1] is not None
    assert said[0].text.plain.startswith(f"Seal code: {seal_code(boxes)}. Compare it aloud with everyone")
    assert said[1].text.plain != said[0].text.plain
