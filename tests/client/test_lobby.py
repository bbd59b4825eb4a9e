"""The lobby tells the truth at 80 columns: people, bots and open seats apart (they add up to
the seats), watchers who are there now, every column whole in English, Portuguese and Spanish."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any, cast

import grpc
import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable

from cardtui import i18n
from cardtui.client.app import CardApp
from cardtui.client.connection import Connection
from cardtui.client.screens import lobby as lobby_module
from cardtui.client.screens.confirm import ConfirmScreen
from cardtui.client.screens.lobby import STATUS, LobbyScreen, Seats
from cardtui.client.screens.replay import TablesScreen
from cardtui.client.textual_internals import drawn_lines, notices
from cardtui.server.app import Running
from cardtui.server.lobby.listings import Feed
from cardtui.v1 import common_pb2, lobby_pb2
from tests.client.waiting import at_table, in_lobby, settled, until
from tests.conftest import Player, create
from tests.server.test_played import ana_left_and_dan_took_her_seat
from tests.server.test_trust import address
from tests.waiting import PATIENCE

SMALL = (80, 24)
WIDE = (120, 40)
LANGS = ["en", "pt_BR", "es"]


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use("en")


def seat(n: int, name: str = "", *, bot: bool = False, taken: bool = True, away: bool = False,
         level: str = "") -> common_pb2.SeatSummary:
    return common_pb2.SeatSummary(seat=n, name=name, bot=bot, taken=taken, away=away, bot_level=level)


def bot(n: int, level: str = "normal", *, taken: bool = True) -> common_pb2.SeatSummary:
    return seat(n, f"bot {n + 1}", bot=True, taken=taken, level=level)


PLAYING, WAITING = common_pb2.TABLE_STATUS_PLAYING, common_pb2.TABLE_STATUS_WAITING
TABLES = [
    # ana plays, bia is away (a bot plays for her), a bot's seat, an empty one; cris watches
    common_pb2.TableSummary(id="a1b2c3d4", game="cacho", name="noite", status=PLAYING, spectators=1, seats=[
        seat(0, "ana"), seat(1, "bia", bot=True, away=True, level="normal"), bot(2), seat(3, taken=False)]),
    common_pb2.TableSummary(id="e5f6a7b8", game="truco_argentino", name="Mesa de Truco argentino",
                            status=WAITING, has_password=True, seats=[seat(0, "dan"), bot(1, "hard"), bot(2),
                                                                      bot(3)]),
    # someone left: a bot plays their seat until a person sits (open)
    common_pb2.TableSummary(id="0c0d0e0f", game="pifpaf", name="pif", status=PLAYING, spectators=2,
                            seats=[seat(0, "eva"), *(bot(n) for n in range(1, 7)), bot(7, taken=False)]),
    common_pb2.TableSummary(id="9a8b7c6d", game="truco_paulista", name="Truco paulista table", status=WAITING,
                            seats=[seat(0, "zeca"), *(seat(n, taken=False) for n in range(1, 4))]),
    common_pb2.TableSummary(id="ffee0011", game="cacheta", name="ontem", status=common_pb2.TABLE_STATUS_FINISHED,
                            seats=[seat(0, "ana"), bot(1)]),
]
INFO = lobby_pb2.ServerInfo(version="0.1.0", games=[
    lobby_pb2.GameInfo(name="cacho", title="Cacho"), lobby_pb2.GameInfo(name="truco_paulista", title="Truco paulista"),
    lobby_pb2.GameInfo(name="truco_argentino", title="Truco argentino"),
    lobby_pb2.GameInfo(name="pifpaf", title="Pif Paf"), lobby_pb2.GameInfo(name="cacheta", title="Cacheta")])


class Fixed:
    """A server's answers, fixed (the ids a real one makes are random, and a snapshot is not)."""

    target = "192.168.0.7:50051"
    owned: dict[str, str] = {}
    passwords: dict[str, str] = {}

    async def info(self) -> lobby_pb2.ServerInfo:
        return INFO

    async def tables(self, include_finished: bool = False) -> list[common_pb2.TableSummary]:
        return [t for t in TABLES if include_finished or t.status != common_pb2.TABLE_STATUS_FINISHED]


class LobbyApp(App[None]):
    CSS_PATH = "../../client/app.tcss"
    TITLE = "cardtui — ana @ 192.168.0.7:50051"

    def on_mount(self) -> None:
        self.push_screen(LobbyScreen(cast(Connection, Fixed()), INFO))


async def settle(pilot: Pilot[None]) -> None:
    await in_lobby(pilot)
    await settled(pilot)


def screen_lines(app: App[Any]) -> list[str]:
    return [strip.text for strip in drawn_lines(app.screen)]


def test_seats_add_up_people_bots_and_open() -> None:
    assert [Seats.of(t) for t in TABLES[:4]] == [Seats(2, 1, 1), Seats(1, 3, 0), Seats(1, 6, 1), Seats(1, 0, 3)]
    for t in TABLES:
        s = Seats.of(t)
        assert s.people + s.bots + s.open == len(t.seats)


@pytest.mark.parametrize("lang", LANGS)
async def test_every_column_shows_whole_at_80_columns(lang: str) -> None:
    i18n.use(lang)
    app = LobbyApp()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        lines = screen_lines(app)
        assert all(len(line.rstrip()) <= SMALL[0] for line in lines)
        heading = next(line for line in lines if i18n._("Watching") in line)
        for word in ("Game", "Name", "People", "Bots", "Open", "Watching", "Status"):
            assert i18n._(word) in heading, (word, heading)
        rows = {t.id: next(line for line in lines if line.startswith(f" {title} "))
                for t, title in zip(TABLES[:4], ("Cacho", "Truco argentino", "Pif Paf", "Truco paulista"),
                                    strict=True)}
        for t in TABLES[:4]:
            row = rows[t.id]
            s = Seats.of(t)
            numbers = row.split()[-5:-1]
            assert numbers == [str(s.people), str(s.bots), str(s.open), str(t.spectators)], row
            assert row.rstrip().endswith(" " + i18n._(STATUS[t.status])), row  # the status word, whole
        assert "🔒" in rows["e5f6a7b8"], "a password table shows its lock"
        assert "noite" in rows["a1b2c3d4"] and "pif" in rows["0c0d0e0f"]
        said = "\n".join(lines)
        assert i18n._("Table {id}").format(id="a1b2c3d4") in said, "the highlighted table's id, under the list"
        await pilot.press("down")
        await settled(pilot)
        said = "\n".join(screen_lines(app))
        assert "Mesa de Truco argentino" in said.replace("\n", " "), "its whole name"
        assert "🔒 " + i18n._("asks for a password") in said
        await pilot.press("down")
        await settled(pilot)
        said = " ".join(line.strip() for line in screen_lines(app))
        assert i18n._("open (a bot plays it)") in said, "the seat someone left, which a bot plays meanwhile"


@pytest.mark.parametrize("lang", LANGS)
def test_lobby_snapshot_80x24(snap_compare: Any, lang: str) -> None:
    i18n.use(lang)
    assert snap_compare(LobbyApp(), terminal_size=SMALL, run_before=settle)


async def test_a_wide_lobby_lists_the_ids_too() -> None:
    app = LobbyApp()
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        grid = app.screen.query_one("#tables", DataTable)
        assert [str(c) for c in grid.get_row_at(1)][:3] == ["e5f6a7b8", "Truco argentino",
                                                            "🔒 Mesa de Truco argentino"]
        await pilot.resize_terminal(*SMALL)
        await until(pilot, lambda: app.screen.size.width == SMALL[0], "the lobby at 80 columns")
        await settled(pilot)
        assert [str(c) for c in grid.get_row_at(0)][:2] == ["Cacho", "noite"], "at 80 columns the ids go under"


async def test_the_lobby_counts_people_bots_open_seats_and_watchers_there_now(server: Running) -> None:
    table_id = await create(server, game="cacho", name="noite", seats=4, bots=2)
    ana = await Player(address(server)).join(table_id, "ana")
    cris = await Player(address(server)).spectate(table_id, "cris")
    idle = await Player(address(server)).spectate(table_id, "dora")  # a token, but no stream: not there
    cris.subscribe()
    await cris.wait_for(lambda q: bool(q.messages))
    app = CardApp(address(server), "eva")
    async with app.run_test(size=WIDE) as pilot:
        screen = await in_lobby(pilot)
        grid = screen.query_one("#tables", DataTable)
        assert [str(c) for c in grid.get_row_at(0)][:7] == [table_id, "Cacho", "noite", "1", "2", "1", "1"]
        await cris.unsubscribe()
        # the lobby looks again every 2 s, until the server has seen the stream go
        await until(pilot, lambda: str(grid.get_row_at(0)[6]) == "0", "a watcher who is gone not counted")
    for p in (ana, cris, idle):
        await p.close()


async def test_the_history_names_everyone_who_played_a_table_at_80_columns(server: Running) -> None:
    """ana left (a bot played on for her), dan took her seat: the list names both, and the bots by
    level, where the seats at the end say only dan and a bot; in every language, at 80x24."""
    table_id = await ana_left_and_dan_took_her_seat(server)
    app = CardApp(address(server), "eva")
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, TablesScreen), "the tables' history")
        await settled(pilot)
        for lang in LANGS:
            if lang != "en":
                await pilot.press("ctrl+l")
                await settled(pilot)
            assert i18n.current() == lang
            grid = app.screen.query_one("#history", DataTable)
            row = [str(c) for c in grid.get_row_at(0)]
            bots = i18n._("bots: {levels}").format(levels="hard")
            assert row == [table_id, "Truco argentino", "noite", f"ana, dan · {bots}"]
            assert grid.max_scroll_x == 0, "the list fits at 80 columns"
            text = "\n".join(screen_lines(app))
            assert f"ana, dan · {bots}" in text
            assert i18n._("Played at {name}:").format(name="noite") in text


async def test_where_guests_join_is_a_line_of_the_lobby_not_a_toast_over_it(server: Running) -> None:
    """Hosting (cardtui play), the page's address is said under the server's line: a toast of six
    rows covered half the lobby at 80x24."""
    note = "Guests join from a browser at http://192.168.1.20:8080/"
    app = CardApp(f"127.0.0.1:{server.port}", "ana", note=note)
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await settled(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        line = lobby.query_one("#guests-line")
        assert line.display and note in str(line.render())
        assert not list(app.query("Toast")) and not notices(app), "no toast over the tables"
        tables, said = lobby.query_one("#tables", DataTable).region, line.region
        assert said.bottom <= tables.y, "the line sits above the list, covering none of it"


async def test_the_lobby_follows_the_list_by_its_stream_only_while_it_is_on_show(server: Running,
                                                                                  monkeypatch: pytest.MonkeyPatch
                                                                                  ) -> None:
    """The lobby follows the room's list by one stream (``WatchTables``) and never asks for the whole list on a
    timer: a table someone else makes shows up by the stream alone. At a table the lobby is under the table's
    screen: it holds no stream while nobody sees the list, and follows it again, from a snapshot, when the
    person is back."""
    table_id = await create(server, game="cacho", name="noite", seats=4, bots=3, turn_seconds=600)
    app = CardApp(address(server), "ana")
    async with app.run_test(size=SMALL) as pilot:
        lobby = await in_lobby(pilot)
        asked = opened = 0
        open_now = 0
        listed, watched = lobby.conn.tables, lobby.conn.watch_tables

        async def counted(include_finished: bool = False) -> list[common_pb2.TableSummary]:
            nonlocal asked
            asked += 1
            return await listed(include_finished)

        async def streams(include_finished: bool = False) -> AsyncIterator[lobby_pb2.TablesUpdate]:
            nonlocal opened, open_now
            opened += 1
            open_now += 1
            try:
                async for update in watched(include_finished):
                    yield update
            finally:
                open_now -= 1

        monkeypatch.setattr(lobby.conn, "tables", counted)
        monkeypatch.setattr(lobby.conn, "watch_tables", streams)
        lobby.follow()  # the stream taken up again through the counted one
        await until(pilot, lambda: open_now == 1, "the lobby following the list")
        other = await create(server, game="cacho", name="tarde", seats=2, bots=1, turn_seconds=600)
        await until(pilot, lambda: other in lobby.rows, "a table made elsewhere, shown by the stream")
        assert asked == 0, "nothing asked on a timer"
        await app.open_table(table_id)
        await at_table(pilot)
        await until(pilot, lambda: open_now == 0, "no stream of the list under the table's screen")
        before = opened
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, (ConfirmScreen, LobbyScreen)), "the leave asked")
        if isinstance(app.screen, ConfirmScreen):  # mid-match: leave the seat to a bot?
            await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby")
        await until(pilot, lambda: opened == before + 1 and open_now == 1, "the list followed again, on show")
        assert asked <= 2, f"the lobby asked for the whole list {asked} times"


async def test_a_list_asked_for_again_as_the_last_one_ends_follows_on(server: Running) -> None:
    """A lobby that takes up its stream again (back from a table, ``follow``) ends its old stream as the new one
    begins. The new one waits for the room's first snapshot; the old one's end, the last watcher gone, must not
    stop the following under it: else the new stream is open and dead, a snapshot of nothing and no change ever
    after (seen once in a whole run of the suite). Here the two are made to cross at that very point."""
    feed = Feed(server.room)
    old = feed.watch(include_finished=True)
    await anext(old)  # following: the room's snapshot sent
    new = feed.watch(include_finished=True)
    first = asyncio.ensure_future(anext(new))
    await asyncio.sleep(0)  # the new stream is in its wait for the first snapshot
    assert not first.done()
    await old.aclose()  # the last watcher gone while the new one waits
    await first
    table_id = await create(server, game="cacho", name="tarde", seats=2, bots=1, turn_seconds=600)
    seen: set[str] = set()
    while table_id not in seen:
        update = lobby_pb2.TablesUpdate.FromString(await asyncio.wait_for(anext(new), PATIENCE))
        seen |= {t.id for t in update.tables}
    await new.aclose()
    assert feed._task is None and not feed.entries, "nobody watches: nothing followed"


async def test_the_lobby_asks_on_a_timer_where_the_server_has_no_stream_of_its_list(
        server: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server older than ``WatchTables`` answers it ``UNIMPLEMENTED``: the lobby asks for the list every
    ``REFRESH_SECONDS`` instead, as it did before, and shows a table made meanwhile."""
    monkeypatch.setattr(lobby_module, "REFRESH_SECONDS", 0.05)

    async def unimplemented(include_finished: bool = False) -> AsyncIterator[lobby_pb2.TablesUpdate]:
        raise grpc.aio.AioRpcError(grpc.StatusCode.UNIMPLEMENTED, grpc.aio.Metadata(), grpc.aio.Metadata(),
                                   "Method not found!")
        yield lobby_pb2.TablesUpdate()  # (an async generator, as the stream is)

    monkeypatch.setattr(Connection, "watch_tables", lambda self, include_finished=False: unimplemented())
    app = CardApp(address(server), "ana")
    async with app.run_test(size=SMALL) as pilot:
        lobby = await in_lobby(pilot)
        asked = 0
        listed = lobby.conn.tables

        async def counted(include_finished: bool = False) -> list[common_pb2.TableSummary]:
            nonlocal asked
            asked += 1
            return await listed(include_finished)

        monkeypatch.setattr(lobby.conn, "tables", counted)
        await until(pilot, lambda: asked >= 3, "the lobby asking for the list on its timer")
        made = await create(server, game="cacho", name="tarde", seats=2, bots=1, turn_seconds=600)
        await until(pilot, lambda: made in lobby.rows, "a table made meanwhile, shown by the next ask")
