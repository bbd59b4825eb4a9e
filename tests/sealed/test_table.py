"""Sealed hands played message by message (tests/sealed/table.py): honest hands name no one at every size and in
every kind of paulista deal, and each cheat is named by the referee and by every honest client."""

from __future__ import annotations

import json
import random

import pytest

from cardtui.sealed import shuffle
from cardtui.sealed.record import replay
from tests.sealed.conftest import FEW
from tests.sealed.host import Tally, attack
from tests.sealed.table import ARGENTINO, EXPECTED, MAO_TRICKS, PAULISTA, SimTable, Trick, judge


@pytest.mark.usefixtures("few_rounds")
@pytest.mark.parametrize(("game", "seats"), [(PAULISTA, 4), (ARGENTINO, 2), (ARGENTINO, 6)])
def test_honest_hands_name_no_one_and_deal_every_seat_three_cards(game: str, seats: int) -> None:
    table = SimTable(random.Random(seats), seats, game)
    for _ in range(1):
        played = table.play()
        assert replay(json.loads(json.dumps(played.record)), judge).cheat is None
        assert not played.stopped
        assert all(not named for named in played.named.values()), played.named
        assert all(len(cards) == 3 for cards in played.cards.values())
        dealt = [c for cards in played.cards.values() for c in cards]
        assert len(set(dealt)) == len(dealt)


@pytest.mark.usefixtures("few_rounds")
@pytest.mark.parametrize("kind", [{"onze": 0}, {"onze": 1}, {"ferro": True}])
def test_a_mao_de_onze_and_de_ferro_play_through(kind: dict[str, object]) -> None:
    played = SimTable(random.Random(11), 4, PAULISTA).play(**kind)  # type: ignore[arg-type]
    assert not played.stopped and all(not named for named in played.named.values())


@pytest.mark.parametrize("trick", list(Trick))
def test_each_cheat_is_named_by_the_referee_and_every_honest_client(trick: Trick, monkeypatch: pytest.MonkeyPatch
                                                                     ) -> None:
    if trick is not Trick.LOCK_BENT:  # only a bent lock is caught by the shuffle's proof alone: at its full count
        monkeypatch.setattr(shuffle, "ROUNDS", FEW)
    game, seats = (PAULISTA, 4) if trick in (Trick.SUBSTITUTE, Trick.WRONG_SEALED_KEY, *MAO_TRICKS) else (ARGENTINO, 2)
    rng = random.Random(sum(map(ord, trick.value)))
    for attempt in range(20):
        table = SimTable(rng, seats, game)
        cheater = rng.randrange(seats)
        played = table.play(cheater, trick)
        if played.trick is None:  # a false flor needs a hand that is no flor
            continue
        assert played.stopped, (trick, attempt)
        again = replay(json.loads(json.dumps(played.record)), judge)  # what cardtui verify reads in its history
        assert not again.problem and again.cheat is not None
        assert (again.cheat.seat, again.cheat.fault) in played.named[-1]
        for observer, named in played.named.items():
            assert named, (trick, observer)
            assert all(seat == cheater for seat, _ in named), (trick, observer, named)
            assert {fault for _, fault in named} <= EXPECTED[trick], (trick, observer, named)
        return
    raise AssertionError("no hand to cheat in")


@pytest.mark.usefixtures("few_rounds")
@pytest.mark.parametrize(("game", "seats"), [(PAULISTA, 4), (ARGENTINO, 2)])
def test_a_host_with_everything_it_holds_opens_no_unplayed_card(game: str, seats: int) -> None:
    """The harness of ``make bench --only sealed``, on a hand or two: the host plays every seat but the victim's."""
    rng = random.Random(90 + seats)
    table = SimTable(rng, seats, game, clients_check=False)
    tally = Tally()
    while tally.cards == 0 and tally.hands < 5:
        victim = rng.randrange(seats)
        attack(rng, table, {s for s in range(seats) if s != victim}, victim, tally)
    assert tally.cards > 0
    assert tally.opened_by_attack == 0 and tally.secrets_found == 0


@pytest.mark.usefixtures("few_rounds")
def test_the_host_harness_opens_every_card_once_it_holds_the_victims_secrets_too() -> None:
    """The harness is not blind: given the victim's own secrets as well, it opens each of its hidden cards."""
    rng = random.Random(7)
    table = SimTable(rng, 2, ARGENTINO, clients_check=False)
    tally = Tally()
    while tally.cards == 0:
        attack(rng, table, {0, 1}, 1, tally)
    assert tally.opened_by_attack == tally.cards == tally.right_with
