"""Which places a sealed deck deals to whom, and when each seat's keys reach them (cardtui.sealed.plan)."""

from __future__ import annotations

import pytest

from cardtui.sealed.plan import Dealing, Layout, Release

BLOCKS, ROUND = Dealing.BLOCKS, Dealing.ROUND


@pytest.mark.parametrize("seats", [2, 4, 6])
@pytest.mark.parametrize("dealer", [0, 1])
def test_argentino_deals_one_card_at_a_time_from_the_mano(seats: int, dealer: int) -> None:
    layout = Layout(ROUND, seats, dealer)
    hands = layout.hands()
    mano = (dealer + 1) % seats
    assert hands[mano] == (0, seats, 2 * seats)
    assert sorted(p for places in hands.values() for p in places) == list(range(3 * seats))
    assert all(g.release is Release.DEALT and g.places == hands[g.recipient] for g in layout.grants())


def test_paulista_gives_the_partners_block_only_on_a_keep_and_spares_to_the_mao() -> None:
    layout = Layout(BLOCKS, 4, 3)
    assert layout.first == 0 and layout.partner == 2
    hands = layout.hands()
    assert hands == {0: (0, 1, 2), 1: (3, 4, 5), 2: (6, 7, 8), 3: (9, 10, 11)}
    grants = {(g.label, g.recipient): g for g in layout.grants()}
    assert grants[("deal", 2)].release is Release.KEPT
    assert grants[("deal", 1)].release is Release.DEALT
    assert [grants[(f"spare {b}", 0)].places for b in range(4)] == [(12, 13, 14), (15, 16, 17), (18, 19, 20),
                                                                    (21, 22, 23)]
    with pytest.raises(ValueError):
        layout.spare(4)


def test_a_mao_de_onze_shows_the_partners_and_deals_plainly() -> None:
    layout = Layout(BLOCKS, 4, 0, onze=1)
    assert not layout.choosing
    assert layout.sight() == {1: 3, 3: 1}
    assert all(g.release is Release.DEALT for g in layout.grants())


def test_a_mao_de_ferro_releases_each_card_to_its_holder_only_as_played() -> None:
    layout = Layout(BLOCKS, 4, 0, ferro=True)
    grants = layout.grants()
    assert len(grants) == 12 and all(g.release is Release.PLAYED and len(g.places) == 1 for g in grants)


@pytest.mark.parametrize(("dealing", "seats", "extra"), [(BLOCKS, 2, {}), (ROUND, 3, {}), ("pairs", 4, {}),
                                                          (ROUND, 4, {"onze": 0}), (BLOCKS, 4, {"dealer": 4})])
def test_a_layout_the_rules_do_not_have_is_refused(dealing: Dealing, seats: int, extra: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        Layout(dealing, seats, **{"dealer": 0, **extra})
