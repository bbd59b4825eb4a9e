"""One conformance suite over both stores: SQLite (the default) and PostgreSQL (a real server).

Every test takes ``stores``: a pair of stores open on one database as two processes would open
it (a server's process and its worker on SQLite; two hosts on PostgreSQL), and runs the same
lines against each backend. What one writes the other reads; what the interface promises
(upserts, order, transactions, ownership, the fence) holds on both.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cardtui.server.store import Fenced, Record, SavedSeat, Store, token_digest
from cardtui.server.stores import open_store
from tests.postgres import Cluster
from tests.waiting import eventually_sync

BACKENDS = ["sqlite", pytest.param("postgresql", marks=[pytest.mark.postgresql, pytest.mark.xdist_group("postgresql")])]


@pytest.fixture(params=BACKENDS)
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Store, Store]]:
    if request.param == "sqlite":
        path = tmp_path / "store.db"
        first, second = Store(path), Store(path, shared=True)
        first.owners.shared = True  # the server's process, once it has workers
    else:
        cluster: Cluster = request.getfixturevalue("postgres")
        url = cluster.new_database()
        first, second = open_store(url), open_store(url)
    try:
        yield first, second
    finally:
        for store in (first, second):
            with contextlib.suppress(Exception):  # closed already by the test
                store.close()


def hand(table_id: str, n: int, seats: list[dict[str, object]], **more: object) -> dict[str, object]:
    return {"format": "cardtui-hand/1", "game": "cacho", "table": table_id, "hand": n, "seats": seats,
            "actions": [], "result": {"deltas": {}}, **more}


def test_a_table_written_by_one_is_read_whole_by_the_other(stores: tuple[Store, Store]) -> None:
    a, b = stores
    a.owners.register(":1")
    a.tables.add_table("t1", "cacho", "Mesa", {"seats": 2, "tournament": {}})
    a.tables.save_seats("t1", [SavedSeat(0, "ana", False, False), SavedSeat(1, "", True, False, open=True)])
    a.tables.save_seats("t1", [SavedSeat(0, "ana", False, True)])  # the same seat again: replaced, not doubled
    a.tables.add_token(token_digest("tok"), "t1", 0, "ana")
    a.tables.add_token(token_digest("watch"), "t1", None, "bia")
    a.tables.log("t1", 0, "start", None, {"seed": 1}, 3)
    a.tables.log("t1", 1, "act", 0, {"type": "call"}, 5)
    a.tables.log("t1", 1, "act", 1, {"type": "fold"}, 6)  # the same step again: replaced
    a.tables.mark("t1", 9)
    a.tables.save_seat_players("t1", [(0, "p-ana"), (1, None)])
    [saved] = b.tables.saved_tables()
    assert (saved.id, saved.game, saved.name, saved.seq, saved.finished) == ("t1", "cacho", "Mesa", 9, False)
    assert saved.config == {"seats": 2, "tournament": {}}
    assert saved.seats == [SavedSeat(0, "ana", False, True), SavedSeat(1, "", True, False, open=True)]
    assert saved.log == [(0, "start", None, {"seed": 1}, 3), (1, "act", 1, {"type": "fold"}, 6)]
    assert sorted(saved.tokens) == sorted([(token_digest("tok"), 0, "ana"), (token_digest("watch"), None, "bia")])
    assert saved.players == {0: "p-ana"}
    assert b.tables.token_table(token_digest("tok")) == "t1" and b.tables.token_table(token_digest("nope")) is None
    b.tables.drop_token(token_digest("watch"))
    assert a.tables.saved_tables(only=["t1"])[0].tokens == [(token_digest("tok"), 0, "ana")]
    assert a.tables.saved_tables(only=["t2"]) == []
    a.tables.trim_log("t1", 1)
    assert [step[0] for step in b.tables.saved_tables()[0].log] == [1]
    assert b.tables.table_config("t1") == ({"seats": 2, "tournament": {}}, False)
    assert b.tables.open_tables() == 1
    a.tables.finish("t1")
    assert b.tables.open_tables() == 0
    [done] = b.tables.saved_tables()
    assert done.finished and done.log == [] and done.tokens == []
    b.tables.set_aside("t1", "broken")
    assert a.tables.saved_tables() == [] and a.tables.table_config("nope") is None


def test_hands_in_order_with_who_played_them(stores: tuple[Store, Store]) -> None:
    a, b = stores
    a.owners.register(":1")
    a.tables.add_table("t1", "cacho", "One", {"tournament": {"id": "tour"}})
    a.tables.add_table("t2", "cacho", "Two", {})
    a.hands.add_hand("t1", hand("t1", 2, [{"seat": 0, "name": "ana"}, {"seat": 1, "name": "", "bot": "hard"}],
                          holders=[{"seat": 0, "from": 4, "name": "caio"}]))
    a.hands.add_hand("t1", hand("t1", 1, [{"seat": 0, "name": "bia"}, {"seat": 1, "name": "ana", "bot": False}]))
    a.hands.add_hand("t2", hand("t2", 1, [{"seat": 0, "name": "dan"}]))
    assert [json.loads(r)["hand"] for r in b.hands.all("t1")] == [1, 2]
    assert [json.loads(r)["table"] for r in b.hands.all(tournament="tour")] == ["t1", "t1"]
    assert len(list(b.hands.all())) == 3 and b.hands.count_hands() == 3 and b.hands.count_hands("t1") == 2
    assert json.loads(b.hands.hand("t1", 2) or "")["hand"] == 2 and b.hands.hand("t1", 3) is None
    assert [json.loads(r)["hand"] for r in b.hands.last_hands("t1", 1)] == [2]
    assert (b.hands.last_hand("t1") or {})["hand"] == 2 and b.hands.last_hand("t9") is None
    played = b.hands.played("t1")
    assert played.people == ("bia", "ana", "caio") and played.bots == ("hard",)
    b.tables.finish("t1")
    assert a.hands.played("t1") == played  # kept beside the finished table, read back the same


def test_each_seats_analysis_kept_once_and_a_token_read_where_it_was_given(stores: tuple[Store, Store]) -> None:
    """What the lobby's analysis reads of a table another process drives: its analyses, and who a token
    was given to (``Tables.token_grant``)."""
    a, b = stores
    a.owners.register(":1")
    a.tables.add_table("t1", "cacho", "One", {})
    a.hands.add_analysis("t1", 1, 0, '{"seat": 0}')
    a.hands.add_analysis("t1", 1, 0, '{"seat": 0, "again": true}')  # the same analysis again: one row
    b.hands.add_analysis("t1", 1, 1, '{"seat": 1}')
    assert a.hands.analyses("t1", 1) == {0: '{"seat": 0, "again": true}', 1: '{"seat": 1}'}
    assert b.hands.analyses("t1", 2) == {}
    a.tables.add_token(token_digest("seat-token"), "t1", 0, "ana")
    a.tables.add_token(token_digest("watch-token"), "t1", None, "dora")
    assert b.tables.token_grant(token_digest("seat-token")) == ("t1", 0, "ana")
    assert b.tables.token_grant(token_digest("watch-token")) == ("t1", None, "dora")
    assert b.tables.token_grant(token_digest("nobody")) is None
    assert b.tables.token_table(token_digest("seat-token")) == "t1"


def test_players_names_sessions_and_records(stores: tuple[Store, Store]) -> None:
    a, b = stores
    assert a.meta.server_id() == b.meta.server_id() != ""
    a.identity.add_player("p1", "Ana", b"k" * 32)
    b.identity.add_player("p1", "Aninha", b"k" * 32)  # known already: only the name changes
    a.identity.add_player("p2", "Bia", None)
    assert b.identity.player("p1") is not None and b.identity.player("p1").name == "Aninha"  # type: ignore[union-attr]
    assert a.identity.player("p1").public_key == b"k" * 32  # type: ignore[union-attr]
    assert a.identity.bind_name("ana", "Ana", "p1", ["ana", "aua"])
    assert not b.identity.bind_name("ana", "ANA", "p2", ["ana"])  # someone's already
    assert b.identity.bind_name("bia", "Bia", "p2", ["bia", "ana"])
    assert a.identity.owner("ana") == "p1" and a.identity.owner("nobody") is None
    assert b.identity.lookalikes(["ana"]) == [("Ana", "p1"), ("Bia", "p2")]  # in the order they were bound
    assert a.identity.names_of_key(b"k" * 32) == 1
    a.identity.add_session("d1", "p1", "Ana")
    assert b.identity.session("d1") == ("p1", "Ana") and b.identity.session("d2") is None
    a.ratings.save_record(Record("p1", "cacho", 25.0, 8.0, matches=1, wins=1, hands=3))
    b.ratings.save_record(Record("p1", "cacho", 26.5, 7.5, matches=2, wins=1, hands=9, biggest_pot=12))
    assert a.ratings.record("p1", "cacho") == Record("p1", "cacho", 26.5, 7.5, 2, 1, 9, 12, 0)
    b.ratings.save_record(Record("p2", "truco_paulista", 20.0, 8.0))
    assert {r.player for r, _ in a.ratings.records()} == {"p1", "p2"}
    assert [(r.game, p.name) for r, p in a.ratings.records(game="cacho")] == [("cacho", "Aninha")]
    assert [r.game for r, _ in a.ratings.records(player_id="p2")] == ["truco_paulista"]


def test_tournaments_and_transactions(stores: tuple[Store, Store]) -> None:
    a, b = stores
    a.tournaments.save("x", {"id": "x", "round": 1})
    a.tournaments.save("x", {"id": "x", "round": 2})
    b.tournaments.save("y", {"id": "y"})
    assert b.tournaments.all() == [{"id": "x", "round": 2}, {"id": "y"}]
    with pytest.raises(RuntimeError), a.transaction():
        a.identity.add_player("p9", "Gone", None)
        raise RuntimeError("undone")
    assert b.identity.player("p9") is None
    with a.transaction(), a.transaction():  # inside another: part of it
        a.identity.add_player("p8", "Kept", None)
    assert b.identity.player("p8") is not None


def test_an_owner_is_alive_while_its_process_is_and_its_tables_go_to_one_claimer(
        stores: tuple[Store, Store], tmp_path: Path) -> None:
    a, b = stores
    first = a.owners.register("127.0.0.1:7001")
    a.tables.add_table("t1", "cacho", "One", {})
    a.tables.add_table("t2", "cacho", "Two", {"tournament": {"id": "x"}})
    b.owners.register(":7002")
    assert {o.id: o.address for o in b.owners.all()}[first] == "127.0.0.1:7001"
    assert not b.owners.dead(first) and b.owners.orphans() == []  # a's lock is held: alive
    place = b.owners.place("t1")
    assert place is not None and (place.owner, place.address, place.epoch, place.tournament) == (
        first, "127.0.0.1:7001", 1, False)
    assert b.owners.place("t2").tournament  # type: ignore[union-attr]
    a.owners.fence("t1", 1)  # a drives it at epoch 1
    with pytest.raises(Fenced):
        b.owners.fence("t1", 1)  # b never drove it
    die(a)  # a's process ends: its lock is free (PostgreSQL's server lets it go as its session ends)
    orphans = eventually_sync(b.owners.orphans, "a's tables orphaned once its lock is free")
    assert sorted(p.table_id for p in orphans) == ["t1", "t2"] and b.owners.dead(first)
    claimed = [b.owners.claim(p) for p in orphans]
    assert claimed == [2, 2]
    assert all(b.owners.claim(p) is None for p in orphans)  # already taken: the old epoch no longer matches
    b.owners.fence("t1", 2)
    b.owners.let_go_owner(first)
    assert first not in {o.id for o in b.owners.all()} and b.owners.place("t1").owner == b.owners.me  # type: ignore[union-attr]


def die(store: Store) -> None:
    """A store's process ends without a word (killed): its locks go with it, nothing is written."""
    store.owners.close()
    store.db.close()


def test_a_clean_close_hands_every_table_to_nobody_and_leaves_no_owner(
        stores: tuple[Store, Store], tmp_path: Path) -> None:
    a, b = stores
    first = a.owners.register(":7001")
    a.tables.add_table("t1", "cacho", "One", {})
    a.tables.add_table("t2", "cacho", "Two", {"tournament": {"id": "x"}})
    a.tables.finish("t2")
    b.owners.register(":7002")
    a.close()  # a clean stop: its tables to nobody, at a raised epoch; its row (and lock file) gone
    assert first not in {o.id for o in b.owners.all()}
    assert not list(tmp_path.glob(f"*.owner-{first}"))
    places = b.owners.orphans()
    assert sorted((p.table_id, p.owner, p.epoch) for p in places) == [("t1", None, 2), ("t2", None, 2)]
    assert [b.owners.claim(p) for p in places] == [3, 3]  # whoever sweeps next takes them, once
    assert b.owners.orphans() == []


def test_a_stopping_server_forgets_every_owner_that_is_gone_with_its_tables(
        stores: tuple[Store, Store], tmp_path: Path) -> None:
    a, b = stores
    gone = a.owners.register(":7001")
    a.tables.add_table("t1", "cacho", "One", {})
    b.owners.register(":7002")
    die(a)  # a worker killed (or stopped before it said it served): its row and file stay, its tables named for it
    assert eventually_sync(lambda: b.owners.forget_gone() == 1, "the dead owner forgotten")
    assert gone not in {o.id for o in b.owners.all()} and not list(tmp_path.glob(f"*.owner-{gone}"))
    assert [(p.table_id, p.owner, p.epoch) for p in b.owners.orphans()] == [("t1", None, 2)]
    assert b.owners.forget_gone() == 0  # the living are left alone: b itself


def test_a_process_that_lost_a_table_can_never_write_it_again(stores: tuple[Store, Store]) -> None:
    a, b = stores
    a.owners.register(":1")
    a.tables.add_table("t1", "cacho", "One", {})
    b.owners.register(":2")
    place = b.owners.place("t1")
    assert place is not None
    # b takes the table as if a were dead (a's lock is not asked here): from now on a is fenced
    assert b.owners.claim(place) == 2
    with pytest.raises(Fenced), a.transaction():
        a.owners.fence("t1", 1)
        a.tables.log("t1", 0, "act", 0, {"type": "call"}, 7)
    assert b.tables.saved_tables()[0].log == []  # a's write went nowhere
    with b.transaction():
        b.owners.fence("t1", 2)
        b.tables.log("t1", 0, "act", 0, {"type": "call"}, 7)
    assert a.tables.saved_tables()[0].log == [(0, "act", 0, {"type": "call"}, 7)]


def test_two_processes_claiming_the_same_tables_at_once_take_each_exactly_once(stores: tuple[Store, Store]) -> None:
    a, b = stores
    gone = a.owners.register(":1")
    for n in range(40):
        a.tables.add_table(f"t{n}", "cacho", f"T{n}", {})
    a.owners.register(":2")  # a is another process now (a new owner); the tables' owner is gone
    b.owners.register(":3")
    places = [p for p in (a.owners.place(f"t{n}") for n in range(40)) if p is not None]
    assert all(p.owner == gone for p in places)
    start = threading.Barrier(2)

    def claim_all(store: Store) -> list[str]:
        start.wait()
        return [p.table_id for p in places if store.owners.claim(p) is not None]

    with ThreadPoolExecutor(2) as pool:
        won_a, won_b = pool.map(claim_all, (a, b))
    assert not set(won_a) & set(won_b) and set(won_a) | set(won_b) == {p.table_id for p in places}
    for table_id in won_a:
        assert b.owners.place(table_id).owner == a.owners.me  # type: ignore[union-attr]
    for table_id in won_b:
        assert a.owners.place(table_id).owner == b.owners.me  # type: ignore[union-attr]
