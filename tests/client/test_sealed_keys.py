"""A client's sealed secrets on its disk (client/sealed_keys.py): kept, private, and enough for a client that
restarted mid-hand to make the same steps and open the same cards."""

from __future__ import annotations

import random
import stat
from pathlib import Path

from cardtui.client.sealed_keys import KEPT_HANDS, SealedKeys, default_root
from cardtui.fair import PACKS
from cardtui.sealed.deck import Hand, SeatSecrets, deal
from cardtui.sealed.envelopes import BoxKey
from cardtui.sealed.group import encode


def test_the_file_lives_in_the_state_folder_and_is_the_persons_alone(tmp_path: Path) -> None:
    assert default_root().is_relative_to(tmp_path)  # the suite's own folders (conftest), never the person's
    keys = SealedKeys.at_home()
    keys.box("host-a", "t1")
    files = list(default_root().iterdir())
    assert len(files) == 1
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(default_root().stat().st_mode) == 0o700


def test_a_restarted_client_makes_the_same_steps_and_opens_the_same_cards(tmp_path: Path) -> None:
    before = SealedKeys(tmp_path / "sealed")
    box = before.box("host-a", "t1")
    secret = before.hand_secret("host-a", "t1", 7)
    hand = Hand("t1", 7, "truco_paulista", (0, 1, 2, 3), PACKS["french40"])
    rng = random.Random(1)
    others = [SeatSecrets(rng.randbytes(32), seat, hand) for seat in (1, 2, 3)]
    mine = SeatSecrets(secret, 0, hand)
    sealed = deal([mine, *others]).sealed(hand)
    received = {(s.seat, p): s.card_key(p) for s in others for p in (0, 1, 2)}
    before.keep("host-a", "t1", 7, received)
    cards = [sealed.open(p, {0: mine.card_key(p), **{s.seat: s.card_key(p) for s in others}}) for p in (0, 1, 2)]

    after = SealedKeys(tmp_path / "sealed")  # a new process: everything from the disk
    assert after.box("host-a", "t1") == box
    assert encode(BoxKey(after.box("host-a", "t1")).point) == encode(BoxKey(box).point)
    again = SeatSecrets(after.hand_secret("host-a", "t1", 7), 0, hand)
    assert again.order == mine.order and again.keys == mine.keys
    kept = after.keys("host-a", "t1", 7)
    assert kept == received
    opened = [sealed.open(p, {0: again.card_key(p), **{s: kept[s, p] for s in (1, 2, 3)}}) for p in (0, 1, 2)]
    assert opened == cards and None not in opened


def test_hands_are_forgotten_at_their_end_and_never_pile_up(tmp_path: Path) -> None:
    keys = SealedKeys(tmp_path)
    first = keys.hand_secret("h", "t", 1)
    keys.forget("h", "t", 1)
    assert keys.hand_secret("h", "t", 1) != first
    for hand in range(2, KEPT_HANDS + 10):
        keys.hand_secret("h", "t", hand)
    data = (next(tmp_path.glob("*.json"))).read_text()
    assert data.count("secret") == KEPT_HANDS
    assert keys.box("h", "t") == keys.box("h", "t") and keys.box("h", "t") != keys.box("other-host", "t")


def test_a_damaged_file_is_as_if_there_were_none(tmp_path: Path) -> None:
    keys = SealedKeys(tmp_path)
    keys.box("h", "t")
    next(tmp_path.glob("*.json")).write_text("{not json")
    assert len(keys.box("h", "t")) == 32
