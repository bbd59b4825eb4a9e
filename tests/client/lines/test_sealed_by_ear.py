"""A sealed truco hand by ear: the line mode, on a real server, at a sealed table of one person and a bot.

The player hears whose seat is the host's (the bot's, whose cards the host knows) and the seal code to compare,
and plays by the sentences alone until a hand in which they played a card: each went out opened with their own
client's keys, as the hand's record, replayed, checks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardtui.sealed import shuffle
from cardtui.sealed.envelopes import seal_code
from cardtui.sealed.record import replay
from cardtui.server.app import Running
from tests.client.lines.listener import Listener
from tests.client.lines.test_by_ear import markers
from tests.conftest import create
from tests.server.test_sealed_table import SEALED
from tests.waiting import eventually


@pytest.fixture(autouse=True)
def few_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four cut-and-choose rounds, not 24: nothing here rests on the shuffle proof's strength (tests/sealed)."""
    monkeypatch.setattr(shuffle, "ROUNDS", 4)


async def test_a_sealed_hand_by_ear_says_the_host_s_seat_and_the_seal_code(server: Running) -> None:
    table_id = await create(server, game="truco_argentino", seats=2, bots=1, turn_seconds=600, options=SEALED)
    turn, second, over, _fair = markers("en")
    player = Listener(f"127.0.0.1:{server.port}")
    player.room.start = replace(player.room.start, own_config=True)  # a person's own cardtui connect, not a guest's
    player.start()
    heard = player.heard
    await heard.until(lambda s: "127.0.0.1" in s, "the welcome")
    heard.type(f"sit {table_id}")
    n = await heard.until(lambda s: s.startswith("You sit at"), "the seat taken")
    await heard.until(lambda s: s.startswith("Sealed deal: the bot bot 2 plays the host's seat, so the host knows "
                                             "its cards; every other hand stays closed to everyone"),
                      "whose seat is the host's", n)
    code = await heard.until(lambda s: s.startswith("Seal code: "), "the seal code", n)
    conn = player.room.conn
    assert conn is not None
    (own,) = conn.sealed_seats.values()  # the line mode's own part of the sealed hand: its keys at home
    assert heard.said[code].startswith(f"Seal code: {seal_code(own.boxes)}. Compare it aloud"), heard.said[code]
    after, played, hands = n, 0, 0
    while not played:  # (a hand may end before her first card: a call refused, the deck gone to)
        result = await player.play_until(lambda s: second(s) or over(s), turn, "a hand's result", after=after)
        hands += 1

        def recorded(_said: str, hands: int = hands) -> bool:
            return server.store.hands.count_hands(table_id) >= hands

        # The round's result ("We take 1; we 2, they 0.") is not the hand's end: an envido's winner still shows
        # its cards, a turn of hers at a sealed table (their keys are hers alone). She plays on until the hand's
        # record is written; the sentence heard then (a turn of the next hand's, maybe) is looked at again.
        end = result if over(heard.said[result]) else await player.play_until(
            recorded, turn, f"the record of hand {hands}", after=result + 1)
        await eventually(lambda hands=hands: server.store.hands.count_hands(table_id) >= hands,
                         f"the record of hand {hands} (heard: {heard.said[n:]})")
        history = server.store.hands.last_hand(table_id)
        assert history is not None
        replayed = replay(history["sealed"])  # every card opened checked to be its seat's: hers by her keys
        assert replayed.cheat is None and not replayed.problem, replayed
        played = sum(s["step"] == "play" and s["seat"] == own.seat for s in history["sealed"]["steps"])
        after = end + 1 if end == result else end  # (the sentence the record was found at: a turn, maybe)
    # her first turn of a hand says her cards, opened by her own keys, as at an open table ("With 4 swords, …: …")
    assert any(s.startswith("With ") and ": " in s for s in heard.said[n:]), heard.said[n:]
    assert await player.stop() == 0
