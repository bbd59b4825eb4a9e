"""The fair deal's promise as a property, hunted by a randomised dishonest host (``tests.client.host_model``).

hypothesis draws a table of any game and a run of hands, each dealt by a ``Move``: honest, or any mix of the
tricks a host can play (aborts, misdeals, resyncs and lying snapshots, votes after the links, a dealer named
after them, its own seat's link held back or drawn, the client's link refused or ignored, commitments late, in
one message with the deal, as replays or under the old scheme, reveals of another deck). The real client's check
reads every message; the property: no ✔ on a deck the host chose, and no red on an honest hand.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.client.host_model import (
    HONEST,
    TABLES,
    Answer,
    Commit,
    Dealer,
    Drop,
    HostSeat,
    Move,
    Reveal,
    Snap,
    Swap,
    Visit,
    check,
    check_stay,
    random_move,
    run,
    run_stay,
)

MOVES = st.builds(
    Move, commit=st.sampled_from(list(Commit)), dealer=st.sampled_from(list(Dealer)),
    drops=st.lists(st.sampled_from(list(Drop)), max_size=2).map(tuple), snap=st.sampled_from(list(Snap)),
    swap=st.sampled_from(list(Swap)), host=st.sampled_from(list(HostSeat)), answer=st.sampled_from(list(Answer)),
    reveal=st.sampled_from(list(Reveal)), resend=st.booleans())
"""Any move, every part of it drawn."""
HONEST_MOVES = st.builds(
    Move, dealer=st.sampled_from([Dealer.NAMED, Dealer.UNNAMED]), snap=st.sampled_from([Snap.NONE, Snap.BEFORE,
                                                                                       Snap.GAP]),
    swap=st.sampled_from([Swap.NONE, Swap.NAMED]), host=st.sampled_from([HostSeat.CUTS, HostSeat.GONE]),
    reveal=st.sampled_from([Reveal.HONEST, Reveal.AWAITED_EMPTY]), resend=st.booleans())
"""What an honest server does, and what its stream may do: each of these a client must never call red."""


def hands(game: str) -> int:
    """How many hands a run plays: the rummy games' hands are long to play out."""
    return 3 if game in ("pifpaf", "cacheta") else 10


@st.composite
def runs(draw: st.DrawFn, moves: st.SearchStrategy[Move]) -> tuple[str, int, list[Move], int, bool]:
    game, players = draw(st.sampled_from(TABLES))
    mix = draw(st.lists(st.one_of(moves, st.just(HONEST)), min_size=1, max_size=hands(game)))
    return game, players, mix, draw(st.integers(0, 2**31)), draw(st.booleans())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(runs(MOVES))
def test_no_tick_on_a_deck_the_host_chose(drawn: tuple[str, int, list[Move], int, bool]) -> None:
    game, players, moves, seed, hosted = drawn
    host = run(game, players, moves, seed, hosted)
    assert not [str(f) for f in check(host)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(runs(HONEST_MOVES))
def test_an_honest_host_raises_no_alarm(drawn: tuple[str, int, list[Move], int, bool]) -> None:
    """Snapshots, gaps, events sent twice, swaps the commitment named, a person's seat dealt without as away: grey
    at worst, and a ✔ wherever the client saw the whole hand from a commitment that named its dealer."""
    game, players, moves, seed, hosted = drawn
    host = run(game, players, moves, seed, hosted)
    assert not [str(f) for f in check(host)]
    word = False
    """A gap since the match began: who deals is the table's word until the next match (never ✔)."""
    for dealt, verdict in zip(host.dealt, host.fair.verdicts, strict=False):
        word = (word and not dealt.opens_match) or dealt.move.snap is Snap.GAP
        plain = (not word and dealt.move.host is HostSeat.CUTS and dealt.move.dealer is Dealer.NAMED)
        if plain and verdict.hand == dealt.deal:
            assert verdict.ok, verdict.said().text.plain


def test_the_tricks_known_before_each_fail_alone_in_every_game() -> None:
    """Each trick the outside harness found (an abort, an abort with the number moving on, a misdeal, a lying
    resync naming no dealer, a swap after the links), alone in a run of honest hands, in every game: never ✔ on the
    trick's hand, ✔ on the honest hands before it."""
    tricks = [Move(drops=(Drop.ABORT,)), Move(drops=(Drop.ABORT_SKIP,)), Move(drops=(Drop.MISDEAL,)),
              Move(snap=Snap.LYING, dealer=Dealer.UNNAMED_OTHER), Move(swap=Swap.LATE)]
    for game, players in TABLES:
        for trick in tricks:
            host = run(game, players, [HONEST, HONEST, trick], seed=7)
            assert not [str(f) for f in check(host)], (game, players, trick)
            first, second = host.fair.verdicts[:2]
            assert first.ok and second.ok, (game, trick, first.said().text.plain, second.said().text.plain)
            if host.dealt[-1].chose:
                assert not host.fair.verdicts[-1].ok


def test_a_long_random_night() -> None:
    """Plain random moves, hand after hand, the way the bench runs thousands (``python -m bench --only fair``)."""
    rng = random.Random(73)
    ticked = chosen = 0
    for _ in range(12):
        game, players = rng.choice(TABLES)
        host = run(game, players, [random_move(rng) for _ in range(hands(game))], rng.randrange(2**31),
                   rng.random() < 0.7)
        assert not [str(f) for f in check(host)]
        ticked += sum(v.ok for v in host.fair.verdicts)
        chosen += sum(d.chose for d in host.dealt)
    assert ticked and chosen, "both kinds of hand came up"


VISITS = st.sampled_from(list(Visit))


@st.composite
def stays(draw: st.DrawFn, moves: st.SearchStrategy[Move]) -> tuple[str, int, list[tuple[Visit, Move]], int, bool]:
    game, players = draw(st.sampled_from([t for t in TABLES if t[0] not in ("pifpaf", "cacheta")]))
    visits = draw(st.lists(st.tuples(VISITS, st.one_of(moves, st.just(HONEST))), min_size=2, max_size=8))
    return game, players, visits, draw(st.integers(0, 2**31)), draw(st.booleans())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(stays(MOVES))
def test_no_tick_on_a_deck_the_host_chose_over_the_whole_stay(
        drawn: tuple[str, int, list[tuple[Visit, Move]], int, bool]) -> None:
    """Tables closed mid-cut and opened again with the same person, a second table at once, the client stopped
    mid-cut and started again: no ✔ on a hand dealt after a link went to a deal that dealt nothing, at any
    table of the host (the client's memory on a temporary disk of the test's own)."""
    game, players, visits, seed, hosted = drawn
    with tempfile.TemporaryDirectory() as folder:
        stay = run_stay(game, players, visits, seed, Path(folder) / "links.json", hosted)
        assert not [str(f) for f in check_stay(stay, honest=False)]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(stays(st.just(HONEST)))
def test_an_honest_stay_raises_no_alarm(drawn: tuple[str, int, list[tuple[Visit, Move]], int, bool]) -> None:
    """Closing a table mid-cut, leaving, a second table, a client started again: grey where a link's fate is
    not known, never red."""
    game, players, visits, seed, hosted = drawn
    with tempfile.TemporaryDirectory() as folder:
        stay = run_stay(game, players, visits, seed, Path(folder) / "links.json", hosted)
        assert not [str(f) for f in check_stay(stay, honest=True)]
        rerolled = [d for _t, d in stay.dealt if d.chose]
        assert all(not {x.hand: x for x in t.fair.verdicts}[d.deal].ok for t, d in stay.dealt if d in rerolled)
