"""The client's own check of fair deals (issue 14): ✔ on honest hands, a warning on altered ones.

The engine deals real hands (bots play them); each event reaches every seat and a spectator
as the server's converter makes it for that audience, framed by the table's commitment and
reveal. Every seat's checker cuts, and must find every honest hand sound and every altered
one wrong. Then the real client, on a real server, marks a hand it played ✔.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import pytest

from cardtui.client import fairness
from cardtui.client.app import CardApp
from cardtui.client.fairness import GREY, FairDeals, Standing, Verdict
from cardtui.client.screens.table import TableScreen
from cardtui.engine.core import Event, Match, Rules
from cardtui.engine.games import GAMES
from cardtui.fair import SCHEME, SCHEMES, Chain, DealSeed
from cardtui.server.actor.events import DealCommitted, DealRevealed, MatchStarted, PlayerPledge, PlayerSeed
from cardtui.server.app import Running
from cardtui.server.base import wire
from cardtui.v1 import common_pb2, lobby_pb2, rummy_pb2, table_pb2
from tests.client.waiting import at_table, in_lobby, play_by_keys, until
from tests.conftest import PATIENT_CUTS, create, end_cut_window
from tests.per_game import Hands, declared

TABLE = "t-fair"


@dataclass
class Table:
    """A table as the clients see it: every event numbered, each audience its own version."""

    game: str
    players: int
    viewers: list[int | None]
    checkers: dict[int | None, FairDeals] = field(default_factory=dict)
    seq: int = 0
    matches: int = 0
    now: float = 0.0
    """The checkers' clock, in seconds: a test moves it to say when an answer came."""
    numbers: dict[str, int] = field(default_factory=dict)
    """The table's options that are numbers, as its summary gives them (Chinchón's pack is chosen by two)."""

    def __post_init__(self) -> None:
        summary = common_pb2.TableSummary(id=TABLE, game=self.game,
                                          seats=[common_pb2.SeatSummary(seat=s) for s in range(self.players)])
        for name, number in self.numbers.items():
            summary.options[name].number = number
        for v in self.viewers:
            snap = table_pb2.Snapshot(table=summary, view=table_pb2.View())
            if v is not None:
                snap.seat = v
            self.checkers[v] = FairDeals(clock=lambda: self.now)
            self.checkers[v].feed(table_pb2.TableMessage(seq=0, snapshot=snap))

    def send(self, events: list[Event], match: Match | None = None) -> dict[int | None, list[tuple[int, bytes]]]:
        """One batch to every audience, with its view of ``match`` after it, as the server sends it; the cuts each
        checker asks for."""
        first = self.seq + 1
        self.seq += len(events)
        cuts = {}
        for v, checker in self.checkers.items():
            update = table_pb2.Update(events=[wire.event_message(first + i, ev, v) for i, ev in enumerate(events)])
            if match is not None:
                update.view.CopyFrom(wire.view_message(match.view(v)))
            cuts[v] = checker.feed(table_pb2.TableMessage(seq=self.seq, update=update))
        return cuts


Tamper = Callable[[DealSeed, DealSeed], tuple[DealSeed, DealSeed]]
"""(the seed the deal uses, the seed the reveal shows) → altered ones."""


def play(game: str, players: int, hands: int, seed: int, tamper: Tamper | None = None,
         late: frozenset[int] = frozenset(), options: dict[str, object] | None = None) -> Table:
    """``hands`` hands of bots, dealt fairly from the server's seed and the checkers' cuts."""
    rules = GAMES[game]
    rng = random.Random(seed)
    with mock.patch.object(fairness, "secrets", SimpleNamespace(token_bytes=rng.randbytes)):  # the cuts repeat too
        numbers = {k: v for k, v in (options or {}).items() if isinstance(v, int) and not isinstance(v, bool)}
        table = Table(game, players, [*range(players), None], numbers=numbers)
        _play(table, rules, rng, hands, tamper, late, options)
    return table


def _play(table: Table, rules: Rules, rng: random.Random, hands: int, tamper: Tamper | None, late: frozenset[int],
          options: dict[str, object] | None) -> None:
    players = table.players
    seats = rules.seat_infos([f"p{i}" for i in range(players)])
    match: Match | None = None
    follows: dict[int, bytes] = {}  # where each seat's chain stands (docs/deal.md §3a)
    for v, checker in table.checkers.items():
        if v is not None:
            checker.chain = Chain.make(rng.randbytes(32), length=hands + 1)
            follows[v] = checker.chain.pledge
    for hand in range(1, hands + 1):
        server = rng.randbytes(32)
        named = dict(follows)
        pledges = tuple(PlayerPledge(s, b) for s, b in sorted(named.items()))
        commit = DealCommitted(hand, hashlib.sha256(server).hexdigest(), 1000, SCHEME, pledges)
        cuts = table.send([Event(commit)], match)
        sent = {v: c[0][1] for v, c in cuts.items() if c}
        assert set(sent) == set(range(players)), "every seated checker cuts, the spectator does not"
        used = {s: b for s, b in sent.items() if s not in late}
        follows.update(sent)  # a link the server has seen, late or not, is never asked for again
        for v, checker in table.checkers.items():
            if v is not None and v in used:
                checker.taken(hand, True)
        table.now += 0.8  # the late seeds' answers come 800 ms into the 1000 ms wait
        for v, checker in table.checkers.items():
            if v is not None and v not in used:
                checker.taken(hand, False)
        deal = reveal = DealSeed(server, tuple(sorted(used.items())), TABLE, hand, SCHEME, tuple(named.items()))
        if tamper is not None:
            deal, reveal = tamper(deal, reveal)
        if match is None or match.match_over():
            match, events = rules.open(options or {}, seats, deal)
            events = [Event(MatchStarted(table.matches + 1)), *events]
            table.matches += 1
        else:
            events = match.next_hand(deal)
        table.send(events, match)
        while not match.hand_over():
            seat = next(s for s in match.to_act() if match.legal_actions(s))
            table.send(match.apply(seat, match.bot_action(seat, rng, "easy")), match)
        shown = tuple(PlayerSeed(s, b) for s, b in reveal.player_seeds)
        table.send([Event(DealRevealed(hand, reveal.scheme, reveal.table, reveal.server_seed, shown,
                                       tuple(range(players)), tuple(PlayerPledge(s, b) for s, b in reveal.pledges)))],
                   match)


def seeds_said(said: object) -> str:
    """The summary's words on the deal's seeds, on one line ("": none yet). Its last part but one when a
    match is over (the rematch's lines come first and last: a Cacho match may end with its first hand)."""
    def parts(said: object) -> list[str]:
        inner = getattr(said, "renderables", None)
        return [text for part in inner for text in parts(part)] if inner is not None else [" ".join(str(said).split())]

    return next((text for text in reversed(parts(said)) if "Seeds used" in text), "")


def verdicts(table: Table) -> Iterator[tuple[int | None, Verdict]]:
    for v, checker in table.checkers.items():
        for verdict in checker.verdicts:
            yield v, verdict


CASES = [(game, table) for game, tests in declared().items() for table in tests.fair]
"""Each game's tables (``GameTests.fair``, in its own test module), some with options of their own (truco
argentino's duels at six, a pack chosen by the options)."""


@pytest.mark.parametrize("late", [False, True], ids=["", "a-late-seed"])
@pytest.mark.parametrize(("game", "case"), CASES, ids=[g + (t.label and "-" + t.label) for g, t in CASES])
def test_every_seat_and_a_spectator_find_every_honest_hand_sound(game: str, case: Hands, late: bool) -> None:
    """Every seat cuts with its pledged chain's links; with ``late``, seat 2's link comes too late every hand: its
    client says its seed was not used, and everyone else's, the spectator's too, that seat 2's pledged link is not
    in the deal (whoever held it back could choose between two decks), never ✔."""
    players, hands = case.players, case.hands
    table = play(game, players, hands, seed=14, late=frozenset({1}) if late else frozenset(),
                 options=dict(case.options) or None)
    found = list(verdicts(table))
    assert len(found) == hands * (players + 1)
    assert [(v, x) for v, x in found if x.problems or not x.checked] == []
    withheld = " Seat 2 was seated and connected, but its seed was not used." if late else ""
    for v, x in found:
        said = x.said().text.plain
        where = f"Hand {x.hand_no} (table deal {x.hand})"
        assert x.hand_no is not None and 1 <= x.hand_no <= x.hand
        if late and v != 1:
            assert x.standing is Standing.WITHHELD and x.said().style == "bold red" and x.withheld == ("seat 2",)
            cards = "the cards shown match" if v is None else "your cards match"
            assert said == (f"⚠ {where}: seat 2 pledged a seed and it is not in this deal: whoever held it back (that"
                            " seat, or the host) could choose between two decks; the rest checks out (the commitment"
                            f" matches; {cards}).{withheld}")
        elif v is None:  # a spectator adds no seed: its check proves less than a fair deal, and says so
            assert x.standing is Standing.WATCHED and x.said().style == GREY
            assert said == (f"○ {where}: the deal checks out (the commitment matches; the cards shown match), but you"
                            " are watching: no seed of yours went in, so this does not show that the host did not"
                            " choose the deck.")
        elif late and v == 1:  # its seed came late: not ✔, in words, though the rest checks out
            assert x.standing is Standing.UNUSED and x.said().style == "bold red"
            assert said == (f"⚠ {where}: your seed was not used in this deal (the server's answer came 800 ms "
                            "into its 1000 ms wait: too late): the host could have chosen this deck; the rest checks"
                            " out (the commitment matches; your cards match).")
        else:
            assert x.ok
            assert said == f"✔ {where}: fair deal (committed before the cut; your seed in; your cards match)."


def _drop_mine(seat: int) -> Tamper:
    def tamper(deal: DealSeed, reveal: DealSeed) -> tuple[DealSeed, DealSeed]:
        """The server took the seat's seed, then dealt (and revealed) without it."""
        gone = dataclasses.replace(deal, player_seeds=tuple(p for p in deal.player_seeds if p[0] != seat))
        return gone, gone
    return tamper


def _swap_mine(seat: int) -> Tamper:
    def tamper(deal: DealSeed, reveal: DealSeed) -> tuple[DealSeed, DealSeed]:
        """The server dealt from a seed of its own choosing for the seat, and revealed it."""
        other = tuple((s, b"chosen" if s == seat else b) for s, b in deal.player_seeds)
        chosen = dataclasses.replace(deal, player_seeds=other)
        return chosen, chosen
    return tamper


def _other_server_seed(deal: DealSeed, reveal: DealSeed) -> tuple[DealSeed, DealSeed]:
    """After the cuts, the server changes its own seed, deals from it and reveals it."""
    changed = dataclasses.replace(deal, server_seed=hashlib.sha256(deal.server_seed).digest())
    return changed, changed


def _deal_another_deck(deal: DealSeed, reveal: DealSeed) -> tuple[DealSeed, DealSeed]:
    """The server deals another deck but reveals the honest seeds."""
    return dataclasses.replace(deal, hand=deal.hand + 1000), reveal


def _another_table(deal: DealSeed, reveal: DealSeed) -> tuple[DealSeed, DealSeed]:
    other = dataclasses.replace(deal, table="elsewhere")
    return other, other


TAMPERS: dict[str, tuple[Tamper, str, frozenset[int | None]]] = {
    "seed dropped": (_drop_mine(0), "the server took your seed but dealt without it", frozenset({0})),
    # (and to everyone else: not the link its pledge named)
    "seed replaced": (_swap_mine(0), "seed for", frozenset({0, 1, 2, 3, None})),
    "server seed changed": (_other_server_seed, "does not match the commitment", frozenset({0, 1, 2, 3, None})),
    "another deck": (_deal_another_deck, "the deck", frozenset({0, 1, 2, 3, None})),
    "another table": (_another_table, "keyed to another table", frozenset({0, 1, 2, 3, None})),
}


@pytest.mark.parametrize("game", [game for game, tests in declared().items() if tests.tampered])
@pytest.mark.parametrize("kind", sorted(TAMPERS))
def test_an_altered_deal_or_reveal_is_flagged_in_words(game: str, kind: str) -> None:
    tamper, words, flagged = TAMPERS[kind]
    table = play(game, 4, 3, seed=5, tamper=tamper)
    caught: dict[int | None, list[bool]] = {}
    for v, x in verdicts(table):
        caught.setdefault(v, []).append(bool(x.problems))
        if x.problems:
            assert v in flagged and any(words in p for p in x.problems), (v, x)
            said = x.said()
            assert said.text.plain.startswith(f"⚠ Hand {x.hand_no} (table deal {x.hand}): this deal does not"
                                              " check out: ")
            assert said.style == "bold red"
    # Seeds and the commitment are checked whole, every hand. Another deck shows in the cards a
    # seat holds (a seat dealt a single card can, by chance, get the same one from both decks),
    # and to a spectator only when cards are shown.
    if kind == "another deck":
        assert all(any(caught[v]) for v in flagged - {None}), caught
    else:
        assert all(all(caught[v]) for v in flagged), caught


def test_a_bad_reveal_fed_by_hand_is_flagged() -> None:
    """The unit case: a commitment, my cut, then a reveal whose seed is not the committed one."""
    checker = FairDeals()
    summary = common_pb2.TableSummary(id=TABLE, game="cacho", seats=[common_pb2.SeatSummary()] * 2)
    checker.feed(table_pb2.TableMessage(seq=3, snapshot=table_pb2.Snapshot(table=summary, seat=0)))
    server = bytes(range(32))
    commit = table_pb2.Event(seq=4, deal_committed=table_pb2.DealCommitted(
        hand=9, commitment=hashlib.sha256(server).hexdigest(), cut_ms=1000))
    [(hand, mine)] = checker.feed(table_pb2.TableMessage(seq=4, update=table_pb2.Update(events=[commit])))
    assert hand == 9 and len(mine) == 32
    checker.taken(9, True)
    bad = table_pb2.Event(seq=5, deal_revealed=table_pb2.DealRevealed(
        hand=9, scheme=SCHEMES[0], table=TABLE, server_seed=bytes(32), seeds=[table_pb2.PlayerSeed(seat=0, seed=mine)]))
    msg = table_pb2.TableMessage(seq=5, update=table_pb2.Update(events=[bad]))
    checker.feed(msg)
    [said] = checker.said(msg)
    assert said.text.plain.startswith("⚠ Table deal 9: this deal does not check out: ")
    assert ("the revealed server seed does not match the commitment published before the deal" in
            said.text.plain), said.text.plain
    assert "no hand was dealt from them" in said.text.plain, "and a reveal with no hand before it is one too"
    assert checker.said(msg) == [], "each line is given once"
    # A reveal for a hand this client never saw committed is said to be unchecked, not passed.
    other = table_pb2.Event(seq=6, deal_revealed=table_pb2.DealRevealed(hand=10, scheme=SCHEMES[0], table=TABLE,
                                                                        server_seed=server))
    checker.feed(table_pb2.TableMessage(seq=6, update=table_pb2.Update(events=[other])))
    assert not checker.verdicts[-1].checked and "not checked" in checker.verdicts[-1].said().text.plain


def test_a_gap_in_the_stream_skips_the_card_comparison_and_says_so() -> None:
    table = play("cacho", 3, 1, seed=2)
    assert all(x.ok for v, x in verdicts(table) if v is not None)
    checker = FairDeals()
    summary = common_pb2.TableSummary(id=TABLE, game="cacho", seats=[common_pb2.SeatSummary()] * 3)
    checker.feed(table_pb2.TableMessage(seq=1, snapshot=table_pb2.Snapshot(table=summary, seat=0)))
    server = b"\x05" * 32
    commit = table_pb2.Event(seq=2, deal_committed=table_pb2.DealCommitted(
        hand=1, commitment=hashlib.sha256(server).hexdigest(), cut_ms=0))
    assert checker.feed(table_pb2.TableMessage(seq=2, update=table_pb2.Update(events=[commit]))) == [], (
        "nobody waits for a cut (cut_ms 0): none is sent")
    reveal = table_pb2.Event(seq=9, deal_revealed=table_pb2.DealRevealed(hand=1, scheme=SCHEMES[0], table=TABLE,
                                                                         server_seed=server))
    checker.feed(table_pb2.TableMessage(seq=9, update=table_pb2.Update(events=[reveal])))
    [x] = checker.verdicts
    assert not x.problems and "its cards were not compared" in " ".join(x.notes)
    assert x.standing is Standing.UNASKED and not x.ok, "no seed was asked for: the host alone chose this deck"
    assert "the host alone chose this deck: your seed was not asked for (the server said it would not wait for" \
           " seeds)" in x.said().text.plain


def test_a_hand_begun_unseen_then_a_hole_is_no_evidence_of_a_late_commitment() -> None:
    """A client that opened the table mid-hand sees that hand's last card come, then loses part of
    the stream (a resync past the buffer): the next commitment it sees is a new hand's, not one
    that came after the cards it saw."""
    checker = FairDeals()
    summary = common_pb2.TableSummary(id=TABLE, game="cacho", seats=[common_pb2.SeatSummary()] * 2)
    checker.feed(table_pb2.TableMessage(seq=5, snapshot=table_pb2.Snapshot(table=summary, seat=0)))
    card = table_pb2.Event(seq=6, cards_dealt=table_pb2.CardsDealt(seat=0, cards=["AS"]))
    checker.feed(table_pb2.TableMessage(seq=6, update=table_pb2.Update(events=[card])))
    server = b"\x03" * 32
    commit = table_pb2.Event(seq=40, deal_committed=table_pb2.DealCommitted(
        hand=3, commitment=hashlib.sha256(server).hexdigest(), cut_ms=1000))
    [(hand, _seed)] = checker.feed(table_pb2.TableMessage(seq=40, update=table_pb2.Update(events=[commit])))
    assert hand == 3 and checker.watch is not None and not checker.watch.after_cards


# -- the real client on a real server ----------------------------------------------------------
async def test_the_client_cuts_and_marks_a_real_hand_it_played_fair(patient_server: Running) -> None:
    """Each deal waits for ana's seed, however long her client takes to send it."""
    from tests.client.test_app import SIZE, log_text

    server = patient_server
    table_id = await create(server, game="cacho", seats=2, bots=1, turn_seconds=60)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        screen = await at_table(pilot)
        await play_by_keys(pilot, lambda: "✔ Hand 2" in log_text(app))
        text = " ".join(log_text(app).split())  # the log wraps its lines
        # Ana's sitting down filled the table: the first hand waited for her stream, so she cut
        # and checked it like the next.
        for hand in (1, 2):
            assert (f"✔ Hand {hand} (table deal {hand}): fair deal (committed before the cut; your seed in; your cards"
                    " match).") in text, text
        assert "not checked" not in text and "⚠" not in text
        checked = [v for v in screen.fair.verdicts if v.checked]
        assert [v.hand for v in checked][:2] == [1, 2] and all(v.ok for v in checked)
        assert not any("too late" in n for v in checked for n in v.notes)
        assert server.store.hands.count_hands(table_id) >= 2


async def test_a_table_without_cuts_says_so_before_anyone_sits_and_never_shows_a_tick(tmp_path: Path) -> None:
    """A stock server started with ``--cut-ms 0``: the lobby's line for the table and the table's
    log, before the first hand, say that the host alone chooses every deck; every hand is said in
    grey in those words, never ✔; and ``cardtui verify`` gives none a ✔ either."""
    import json

    from textual.widgets import Static

    from cardtui.engine.fairness import verify
    from cardtui.engine.games import GAMES
    from cardtui.server.app import start
    from tests.client.test_app import SIZE, log_text

    server = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05, cut_window=0)
    try:
        table_id = await create(server, game="cacho", seats=2, bots=1, turn_seconds=60)
        app = CardApp(f"127.0.0.1:{server.port}", "ana")
        async with app.run_test(size=SIZE) as pilot:
            lobby = await in_lobby(pilot)
            await until(pilot, lambda: table_id in str(lobby.query_one("#table-line", Static).render()),
                        "the table's line in the lobby")
            line = str(lobby.query_one("#table-line", Static).render())
            heading = str(lobby.query_one("#server-line", Static).render())
            assert "⚠ no cuts: the host alone chooses every deck" in line, line
            assert heading.endswith("· ⚠ no cuts: the host alone chooses every deck"), heading
            await app.open_table(table_id)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            first = log_text(app).splitlines()[0]
            assert first == ("This table deals without cuts: no player's seed is asked for, so the host alone chooses"
                             " every deck, and no hand here can be a fair deal ✔.")
            # (with no wait, the first hand may be dealt before the stream opens)
            await play_by_keys(pilot, lambda: sum(v.checked for v in screen.fair.verdicts) >= 2)
            text = log_text(app)
            verdicts = [v for v in screen.fair.verdicts if v.checked]
            assert len(verdicts) >= 2 and not any(v.ok for v in verdicts) and "✔ Hand" not in text
            for v in verdicts:
                assert v.standing is Standing.UNASKED and v.said().style == GREY and v.awaited == (0,)
                assert (f"○ Hand {v.hand_no} (table deal {v.hand}): the host alone chose this deck: your seed was not"
                        " asked for (the server said it would not wait for seeds); the rest checks out (the commitment"
                        " matches; your cards match).") in text
        records = [json.loads(line) for line in server.store.hands.all(table_id)]
    finally:
        await server.stop(grace=0.2)
    checks = verify(records, GAMES)
    assert checks and all(c.ok and not c.full and "✔" not in c.line() for c in checks)


async def test_a_seed_the_server_drops_in_time_shows_a_warning_in_the_log_the_summary_and_verify(
        patient_server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that answers a seat's seed "too late" at once, and deals without it (a test double
    of the server's fairness step): the real client shows ⚠ in words, its hand summary flags the
    seat, and the stored history says whose seeds the deal waited for, which ``verify`` flags."""
    import json

    from cardtui.engine.fairness import verify
    from cardtui.engine.games import GAMES
    from cardtui.server.actor.table import Table as ServerTable
    from tests.client.test_app import SIZE, log_text
    from tests.client.test_table_flow import summary_of

    dropped: list[int] = []

    def drop(self: ServerTable, seat: int, hand: int, seed: bytes) -> bool:
        """Refuse every seed as late, in time or not, and deal without it: the first hand's window ends
        now; the second's once the test has read the first's summary (its deal would close it)."""
        dropped.append(hand)
        self.seating[seat].pledge = seed  # seen: the next deal asks for the link after it
        if hand == 1:
            end_cut_window(self)
        return False

    monkeypatch.setattr(ServerTable, "take_cut", drop)
    server = patient_server  # a new match waits for ana's stream, however long her client takes to open it
    table_id = await create(server, game="cacho", seats=2, bots=1, turn_seconds=60)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        screen = await at_table(pilot)
        summary = ""
        show_summary = screen._show_summary

        def shown() -> None:  # read as it shows
            nonlocal summary
            show_summary()
            if not summary and screen.summary_open and screen.verdict is not None and screen.verdict.hand == 1:
                summary = " ".join(summary_of(screen).split())

        screen._show_summary = shown  # type: ignore[method-assign]
        await play_by_keys(pilot, lambda: bool(summary))
        await until(pilot, lambda: dropped[1:] == [2], "the client's seed for the second hand")
        end_cut_window(server.room.tables[table_id])
        await play_by_keys(pilot, lambda: "Hand 2 (table deal 2)" in log_text(app))
        text = " ".join(log_text(app).split())
        assert dropped[:2] == [1, 2], "the client sent its seed for each hand"
        assert "⚠ Hand 1 (table deal 1): this deal does not check out: your seed was not used in this deal, though" \
               " the server had it within" in text, text
        assert "✔ Hand 1" not in text
        [first, *_] = [v for v in screen.fair.verdicts if v.checked]
        assert not first.ok and first.used == () and first.awaited == (0,) and first.missing == (0,)
        assert "Seeds used in table deal 1: nobody's (the host alone fixed this deck)." in summary, summary
        assert "(table deal 1))" not in summary, "no hand number nested in another's brackets"
        assert "Seated and connected, but their seed was not used: ana." in summary, summary
    records = [json.loads(line) for line in server.store.hands.all(table_id)]
    assert records[0]["awaited"] == [0] and records[0]["fair"]["player_seeds"] == {}
    check = verify(records[:1], GAMES)[0]
    assert check.ok and check.dropped == ("seat 1 ana",) and not check.full
    assert check.withheld == ("seat 1 ana",)
    assert check.line() == (f"table {table_id} deal 1, match 1 (cacho): ⚠ commitment, deal and chain check, but"
                            " seat 1 ana pledged a link that is not in the deal: whoever held it back could choose"
                            " between two decks (seeds used: none; seated, not in it: seat 1 ana)")


async def test_every_seed_in_time_is_used_and_the_history_says_whose(patient_server: Running) -> None:
    """An honest server: the seated person's seed is awaited and used; verify lists it and flags nothing.
    (Its deal waits for that seed however long it takes to come.)"""
    import asyncio
    import json

    from cardtui.engine.fairness import verify
    from cardtui.engine.games import GAMES
    from tests.conftest import Player

    server = patient_server
    table_id = await create(server, game="cacho", seats=2, bots=1, turn_seconds=60)
    ana = await Player(f"127.0.0.1:{server.port}", cuts=False).join(table_id, "ana")
    fair = FairDeals()
    fair.chain = ana.chain
    stream = ana.table.Subscribe(table_pb2.SubscribeRequest(token=ana.token))

    async def play() -> None:
        async for msg in stream:
            for hand, seed in fair.feed(msg):
                answer = await ana.table.Cut(table_pb2.CutRequest(token=ana.token, hand=hand, seed=seed))
                fair.taken(hand, answer.taken)
            if fair.verdicts:
                return
            if msg.WhichOneof("body") == "update" and ana.seat in msg.update.view.to_act and msg.update.view.legal:
                await ana.act(msg.update.view.legal[0])

    await asyncio.wait_for(play(), 60)
    stream.cancel()
    [verdict] = fair.verdicts
    assert verdict.ok and verdict.cut and verdict.used == (0,) and verdict.awaited == (0,) and not verdict.missing
    await ana.close()
    records = [json.loads(line) for line in server.store.hands.all(table_id)]
    assert records[0]["awaited"] == [0] and list(records[0]["fair"]["player_seeds"]) == ["0"]
    check = verify(records[:1], GAMES)[0]
    assert check.ok and not check.dropped and check.full
    assert check.line().endswith("✔ commitment, deal and chain (seeds used: seat 1 ana; seated, not in it: nobody)")


async def test_the_summarys_seeds_name_who_held_the_seats_at_the_deal(tmp_path: Path) -> None:
    """bia is dealt in (her stream open, no seed sent), leaves mid-hand, and dan takes her seat: the
    summary's seeds line flags bia, whose seed the deal lacked, not dan, who sat down after it. The
    first deal waits for ana's seed (and her stream) however long her client takes, then its window
    ends without bia's; the next hand waits a minute, so the summary stays until the test has read it."""
    from cardtui.server.app import start

    server = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=60,
                         cut_window=PATIENT_CUTS)
    try:
        await seeds_named_as_held(server)
    finally:
        await server.stop(grace=0.2)


async def seeds_named_as_held(server: Running) -> None:
    from tests.client.test_app import SIZE
    from tests.conftest import Player

    table_id = await create(server, game="cacho", seats=2, bots=0, turn_seconds=600)
    bia = await Player(f"127.0.0.1:{server.port}", cuts=False).join(table_id, "bia")
    bia.subscribe()
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SIZE) as pilot:
        await in_lobby(pilot)
        await app.open_table(table_id)
        screen = await at_table(pilot)
        table = server.room.tables[table_id]
        await until(pilot, lambda: table.cut is not None and screen.seat in table.cut.seeds, "ana's seed for the deal")
        assert table.cut is not None and bia.seat in table.cut.waiting, "bia's stream is open: her seed is awaited"
        end_cut_window(table)  # dealt without bia's seed
        await until(pilot, lambda: table.match is not None, "the first hand dealt")
        assert table.hands_played == 0, "still the first hand"
        # From her leaving on, the hand plays itself out: a bot in her seat, the turn timer for the others.
        table.config.turn_seconds = 1.5  # shorter than any table may ask for, set in the server's memory
        await bia.lobby.Leave(lobby_pb2.LeaveRequest(token=bia.token))
        await bia.close()
        summary = ""
        show_summary = screen._show_summary

        def shown() -> None:  # read as it shows
            nonlocal summary
            show_summary()
            if not summary and screen.summary_open and screen.verdict is not None and screen.verdict.hand == 1:
                summary = seeds_said(screen.summary_text())

        screen._show_summary = shown  # type: ignore[method-assign]
        dan = await Player(f"127.0.0.1:{server.port}", cuts=False).join(table_id, "dan")
        await until(pilot, lambda: bool(summary), "the first hand's summary with its seeds")
        await dan.close()
    assert "Seeds used in table deal 1: ana." in summary, (
        f"{summary!r}; verdict {screen.verdict}, hands played {table.hands_played}")
    assert "their seed was not used: bia." in summary, summary
    assert "dan" not in summary


async def test_a_client_that_opens_the_table_while_a_deal_waits_for_seeds_is_not_told_it_was_cheated(
        patient_server: Running) -> None:
    """ana is seated and her first stream is open, but it sends no seed: each deal waits its whole
    window. Meanwhile a spectator and a second stream of ana's open the table afresh. During the
    first hand's window the server has no hand to replay: they see the hand start with no
    commitment before it, and say it was not checked (they came too late to tell), not that the
    host dealt without one. During the second hand's, the commitment reaches them in the replay of
    the table so far, before any card: they may not cut now, and the seated one hears the host
    alone chose the deck as far as it knows; the spectator, that ana's seat pledged a link that is not in
    the deal (her first stream never sent it). (Each window lasts until both have opened the table: then
    the test ends it.)"""
    import asyncio

    from tests.conftest import Player

    server = patient_server
    table_id = await create(server, game="cacho", seats=2, bots=1, short_turns=0.2)
    table = server.room.tables[table_id]
    address = f"127.0.0.1:{server.port}"
    ana = await Player(address, cuts=False).join(table_id, "ana")
    watcher = await Player(address).spectate(table_id)
    ana.subscribe()

    def committed(n: int) -> Callable[[Player], bool]:
        return lambda p: sum(e.WhichOneof("body") == "deal_committed" for m in p.messages
                             for e in m.update.events) >= n

    async def first_verdict(token: str, opened: asyncio.Event) -> Verdict:
        fair = FairDeals()
        call = ana.table.Subscribe(table_pb2.SubscribeRequest(token=token))
        try:
            async for msg in call:
                opened.set()  # the server has this stream: it hears the deal being cut go on
                assert fair.feed(msg) == [], "a commitment that came as a replay, or none, is not cut"
                if fair.verdicts:
                    return fair.verdicts[0]
        finally:
            call.cancel()
        raise AssertionError("the stream ended before any hand did")

    async def opened_now() -> tuple[Verdict, Verdict]:
        opened = asyncio.Event(), asyncio.Event()
        both = asyncio.gather(first_verdict(ana.token, opened[0]), first_verdict(watcher.token, opened[1]))
        try:
            await asyncio.wait_for(asyncio.gather(*(o.wait() for o in opened)), 60)
            assert table.cut is not None, "the deal is still being cut"
            end_cut_window(table)
            seated, watching = await asyncio.wait_for(both, 60)
        finally:
            both.cancel()
        return seated, watching

    await ana.wait_for(committed(1), 60)
    for v in await opened_now():
        assert v.hand == 1 and v.standing is Standing.UNCHECKED and not v.problems, v
        assert v.said().text.plain == "Hand 1 (table deal 1): joined mid-deal, not checked."
    await ana.wait_for(committed(2), 60)
    seated, watching = await opened_now()
    assert seated.hand == watching.hand == 2 and not seated.problems and not watching.problems
    assert seated.standing is Standing.UNASKED
    assert "your seed was not asked for (the commitment came marked as a replay, after the cut)" in \
        seated.said().text.plain
    # ana's first stream held her pledged link back: to the watcher, whoever did could choose between two decks
    assert watching.standing is Standing.WITHHELD and watching.withheld == ("seat 1 (ana)",), watching
    await ana.close()
    await watcher.close()


def test_a_seat_nobody_sees_knocking_with_cards_the_deck_never_gave_it_gets_no_tick() -> None:
    """A host's friend at Pif Paf, whose hand nobody sees, goes out at once with melds and a discard the deck never
    gave it (the host knows every hand): every client, the spectator's too, holds each card a seat shows to what
    the deck gave it, and not one of the forged hands is ✔; an honest knock checks out."""
    rules = GAMES["pifpaf"]
    rng = random.Random(8)
    players, hands = 3, 30
    table = Table("pifpaf", players, [*range(players), None])
    follows: dict[int, bytes] = {}
    for v, checker in table.checkers.items():
        if v is not None:
            checker.chain = Chain.make(rng.randbytes(32), length=hands + 1)
            follows[v] = checker.chain.pledge
    forged = 0
    for hand in range(1, hands + 1):
        server = rng.randbytes(32)
        named = dict(follows)
        commit = DealCommitted(hand, hashlib.sha256(server).hexdigest(), 1000, SCHEME,
                               tuple(PlayerPledge(s, b) for s, b in sorted(named.items())))
        cuts = table.send([Event(commit)])
        sent = {v: c[0][1] for v, c in cuts.items() if c}
        follows.update(sent)
        for v, checker in table.checkers.items():
            if v is not None:
                checker.taken(hand, True)
        deal = DealSeed(server, tuple(sorted(sent.items())), TABLE, hand, SCHEME, tuple(named.items()))
        match, events = rules.open({}, rules.seat_infos([f"p{i}" for i in range(players)]), deal)
        table.send([Event(MatchStarted(hand)), *events], match)
        honest = hand % 3 == 0
        if honest:  # played out: whoever knocks knocks with its own cards
            while not match.hand_over():
                seat = next(s for s in match.to_act() if match.legal_actions(s))
                table.send(match.apply(seat, match.bot_action(seat, rng, "easy")), match)
            ended: list[table_pb2.Event] = []
        else:  # seat 3 "goes out" at once with seat 1's cards, which it never held
            forged += 1
            theirs = [str(c) for c in match.state.hands[0]]  # type: ignore[attr-defined]
            knock = rummy_pb2.RummyKnocked(seat=2, melds=[rummy_pb2.RummyMeld(cards=theirs[i:i + 3])
                                                          for i in (0, 3, 6)], discard=theirs[8])
            ended = [table_pb2.Event(rummy=rummy_pb2.RummyEvent(knocked=knock)),
                     table_pb2.Event(hand_ended=table_pb2.HandEnded(winner=2))]
        if ended:
            first = table.seq + 1
            table.seq += len(ended)
            for i, ev in enumerate(ended):
                ev.seq = first + i
            for checker in table.checkers.values():
                checker.feed(table_pb2.TableMessage(seq=table.seq, update=table_pb2.Update(events=ended)))
        shown = tuple(PlayerSeed(s, b) for s, b in deal.player_seeds)
        table.send([Event(DealRevealed(hand, SCHEME, TABLE, server, shown, tuple(range(players)),
                                       tuple(PlayerPledge(s, b) for s, b in deal.pledges)))])
    found = list(verdicts(table))
    assert len(found) == hands * (players + 1)
    for v, x in found:
        if x.hand % 3 == 0:
            assert not x.problems, (v, x)
            assert x.ok or v is None, (v, x)
        else:
            assert not x.ok and x.standing is Standing.BROKEN, (v, x)
            assert any("seat 3 knocked with" in p and "a card the deck never gave it" in p for p in x.problems), x
    assert forged == 20 and not [x for _v, x in found if x.ok and x.hand % 3], "a forged knock got ✔"


def test_a_dealer_named_after_the_cut_to_give_a_friend_the_best_card_gets_no_tick() -> None:
    """Truco argentino for two: after the links are in, the host names whichever dealer gives its friend (seat 2)
    the 1 of swords. Each client works out the dealer from the rotation the rules fix (seat 1 deals the first hand,
    then the deal passes on), so every hand dealt by the wrong seat is flagged; the rules' dealer's is ✔ until the
    first hand out of turn, and after it grey: once a table deals out of turn, a dealer its commitment did not fix
    is never taken on the rotation's word again in that match."""
    from typing import Any, cast

    from cardtui.engine.core import Bound, Game

    rules = cast(Game[Any, Any, Any], GAMES["truco_argentino"])
    rng = random.Random(11)
    players, hands = 2, 40
    seats = rules.seat_infos(["p0", "p1"])
    table = Table("truco_argentino", players, [*range(players), None])
    follows: dict[int, bytes] = {}
    for v, checker in table.checkers.items():
        if v is not None:
            checker.chain = Chain.make(rng.randbytes(32), length=hands + 1)
            follows[v] = checker.chain.pledge
    dealer, named_wrong = 0, set()
    table.send([Event(MatchStarted(1))])
    for hand in range(1, hands + 1):
        server = rng.randbytes(32)
        named = dict(follows)
        commit = DealCommitted(hand, hashlib.sha256(server).hexdigest(), 1000, SCHEME,
                               tuple(PlayerPledge(s, b) for s, b in sorted(named.items())))
        cuts = table.send([Event(commit)])
        sent = {v: c[0][1] for v, c in cuts.items() if c}
        follows.update(sent)
        for v, checker in table.checkers.items():
            if v is not None:
                checker.taken(hand, True)
        deal = DealSeed(server, tuple(sorted(sent.items())), TABLE, hand, SCHEME, tuple(named.items()))

        state, events = rules.resume(rules.options({}), seats, [0, 0], dealer, hand, deal)
        if "1e" not in [str(c) for c in state.hands[1]]:
            other, other_events = rules.resume(rules.options({}), seats, [0, 0], 1 - dealer, hand, deal)
            if "1e" in [str(c) for c in other.hands[1]]:  # the friend's 1 of swords, by naming the other dealer
                state, events = other, other_events
                named_wrong.add(hand)
        match = Bound(rules, state)
        table.send(events, match)
        while not match.hand_over():
            seat = next(s for s in match.to_act() if match.legal_actions(s))
            table.send(match.apply(seat, match.bot_action(seat, rng, "easy")), match)
        shown = tuple(PlayerSeed(s, b) for s, b in deal.player_seeds)
        table.send([Event(DealRevealed(hand, SCHEME, TABLE, server, shown, (0, 1),
                                       tuple(PlayerPledge(s, b) for s, b in deal.pledges)))], match)
        dealer = 1 - dealer  # the rules' rotation, whoever the host named
    found = list(verdicts(table))
    assert len(found) == hands * (players + 1) and named_wrong
    first = min(named_wrong)
    for v, x in found:
        if x.hand in named_wrong:
            assert x.standing is Standing.BROKEN and any("to deal, but by the rules it was seat" in p
                                                         for p in x.problems), (v, x)
        elif x.hand < first:
            assert not x.problems and (x.ok or v is None), (v, x)
        else:
            assert not x.problems and not x.ok and (v is None or "table's word" in x.doubt), (v, x)
