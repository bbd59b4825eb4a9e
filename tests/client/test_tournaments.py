"""The tournaments screens, the real app against a real server: from the lobby, create a tournament,
register, start it and sit at one's table; the standings at 80x24 in three languages."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import grpc
import pytest
import pytest_asyncio
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select, Static

from cardtui import i18n
from cardtui.client.app import CardApp
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.client.screens.table import TableScreen
from cardtui.client.screens.tournaments import (
    CreateTournamentScreen,
    TeamScreen,
    TournamentPasswordScreen,
    TournamentScreen,
    TournamentsScreen,
)
from cardtui.client.table_summary import summary_foot
from cardtui.i18n import speaking
from cardtui.identity import create
from cardtui.server.app import Running, start
from cardtui.v1 import common_pb2, lobby_pb2_grpc, players_pb2, tournament_pb2, tournament_pb2_grpc
from tests.client import waiting
from tests.client.footer_check import cut_off, footer_items

SMALL = (80, 24)


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use("en")


@pytest_asyncio.fixture
async def quick(tmp_path: Path) -> AsyncIterator[Running]:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.0, next_hand_delay=0.0, cut_window=0.0,
                          bot_workers=0)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


async def until(pilot: Pilot[None], check: Callable[[], object], what: str | Callable[[], str],
                seconds: float = waiting.PATIENCE) -> None:
    """Until ``check()`` holds, and the screen has drawn what made it so."""
    await waiting.until(pilot, check, what, seconds)
    await waiting.settled(pilot)


def rows(app: CardApp, grid: str) -> list[list[str]]:
    table = app.screen.query_one(grid, DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_from_the_lobby_create_register_start_and_sit_at_ones_table(tmp_path: Path) -> None:
    quick = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.1, next_hand_delay=0.0, cut_window=0.0,
                        bot_workers=0)  # bots slow enough that ana reaches her table before they finish
    try:
        await from_the_lobby(quick, tmp_path)
    finally:
        await quick.stop(grace=0.2)


async def from_the_lobby(quick: Running, tmp_path: Path) -> None:
    app = CardApp(f"127.0.0.1:{quick.port}", "ana", identity=create(tmp_path / "ana.pem"))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TournamentsScreen), "the tournaments")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, CreateTournamentScreen), "the form")
        form = app.screen
        form.query_one("#game", Select).value = "cacheta"
        await until(pilot, lambda: bool(form.query("#opt-start_points")), "cacheta's options in the form")
        form.query_one("#seats", Select).value = 4
        form.query_one("#entries", Input).value = "1"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: str(form.query_one("#err-entries", Static).render()), "the places' field's error")
        assert "2 to 64" in str(form.query_one("#err-entries", Static).render()), "said beside the field"
        form.query_one("#entries", Input).value = "4"
        form.query_one("#opt-start_points", Input).value = "2"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the new tournament's screen")
        screen = app.screen
        assert isinstance(screen, TournamentScreen)
        await until(pilot, lambda: screen.state is not None, "its state")
        assert "0/4" in str(screen.query_one("#tournament-line", Static).render())
        keys = {words for _s, _e, words in footer_items(screen)}
        assert {"Register", "Start now"} <= keys, "registering: its owner may register and start it"
        await pilot.press("r")  # ana registers (her key proves her)
        await until(pilot, lambda: screen.state is not None and len(screen.state.entries) == 1, "ana registered")
        assert rows(app, "#standings")[0][1] == "ana"
        await pilot.press("s")  # the owner starts it now: bots take the three places left
        await until(pilot, lambda: screen.state is not None and screen.state.summary.round >= 1, "round 1")
        assert screen.query_one("#standings", DataTable).row_count == 4
        assert screen.query_one("#round-tables", DataTable).row_count == 1
        assert "Round 1 of 3" in str(screen.query_one("#round-line", Static).render())
        # the round opens: to her table, where her seat waits for her (its match starts once she sits)
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "her table")
        table_id = screen.state.tables[0].table_id if screen.state else ""
        table = quick.room.tables.get(table_id)
        if table is not None:  # (the round may be over already, with bots this quick)
            seat = next(s for s in table.seating.seats if s.name == "ana")
            assert seat.token is not None and not seat.away


async def bots_tournament(running: Running) -> str:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
        stub = tournament_pb2_grpc.TournamentsStub(ch)
        created = await stub.CreateTournament(tournament_pb2.CreateTournamentRequest(
            game="cacheta", name="Copa da noite", rounds=3, table_size=4, max_entries=8, bots_fill=True,
            bot_delay_ms=0, bot_level="easy", options={"start_points": common_pb2.OptionValue(number=2)}))
        tid = created.tournament.id
        await stub.StartTournament(tournament_pb2.OwnerRequest(tournament_id=tid, owner_token=created.owner_token))
        async for state in stub.WatchTournament(tournament_pb2.TournamentRequest(tournament_id=tid)):
            if state.summary.status == tournament_pb2.TOURNAMENT_STATUS_FINISHED:
                break
    return tid


@pytest.mark.parametrize(("lang", "words", "heading"), [
    ("en", "Round 3 of 3: 2 of 2 tables done", "Played"),
    ("pt_BR", "Rodada 3 de 3: 2 de 2 mesas encerradas", "Jogadas"),
    ("es", "Ronda 3 de 3: 2 de 2 mesas terminadas", "Jugadas"),
])
async def test_the_standings_at_80x24_in_three_languages(quick: Running, lang: str, words: str, heading: str) -> None:
    await asyncio.wait_for(bots_tournament(quick), 60)
    with speaking(lang):
        app = CardApp(f"127.0.0.1:{quick.port}", "ana")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await until(pilot, lambda: footer_items(app.screen), "the lobby's footer")
            assert cut_off(app.screen, SMALL[0]) == [], "the lobby's keys, Tournaments among them, fit"
            await until(pilot, lambda: app.screen.query_one("#finished", DataTable).row_count == 6, "its tables")
            assert all(row[2].startswith("🏆 Copa da n") for row in rows(app, "#finished")), "marked as a tournament's"
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, TournamentsScreen) and rows(app, "#tournaments"),
                        "the list")
            assert "Copa da noite" in rows(app, "#tournaments")[0][0]
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TournamentScreen) and app.screen.state is not None,
                        "the standings")
            screen = app.screen
            await until(pilot, lambda: footer_items(screen), "its footer")
            assert cut_off(screen, SMALL[0]) == []
            said = {words for _s, _e, words in footer_items(screen)}
            assert not said & {i18n._("Register"), i18n._("Start now")}, "over: nothing to register for or start"
            standings = screen.query_one("#standings", DataTable)
            assert standings.row_count == 8
            assert heading in [str(c.label) for c in standings.columns.values()]
            assert sum(c.get_render_width(standings) for c in standings.columns.values()) <= SMALL[0]
            assert standings.region.bottom <= SMALL[1] - 1 and standings.region.height >= 9, "every row in view"
            assert words in str(screen.query_one("#round-line", Static).render())
            vp = [int(r[2]) for r in rows(app, "#standings")]
            assert vp == sorted(vp, reverse=True) and vp[0] > 0


async def test_registering_for_a_tournament_with_a_password_asks_it(quick: Running, tmp_path: Path) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
        created = await tournament_pb2_grpc.TournamentsStub(ch).CreateTournament(tournament_pb2.CreateTournamentRequest(
            game="cacho", name="Fechado", rounds=1, table_size=2, max_entries=4, password="segredo"))
    app = CardApp(f"127.0.0.1:{quick.port}", "bia", identity=create(tmp_path / "bia.pem"))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TournamentsScreen) and rows(app, "#tournaments"), "the list")
        assert rows(app, "#tournaments")[0][0] == "🔒 Fechado"
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, TournamentPasswordScreen), "the password asked")
        await pilot.press(*"errado", "enter")
        await until(pilot, lambda: isinstance(app.screen, TournamentPasswordScreen)
                    and "wrong" in str(app.screen.query_one("#password-error", Static).render()), "asked again")
        app.screen.query_one("#password-input", Input).value = "segredo"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TournamentsScreen)
                    and "1/4" in rows(app, "#tournaments")[0][2], "registered")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
        got = await tournament_pb2_grpc.TournamentsStub(ch).GetTournament(
            tournament_pb2.TournamentRequest(tournament_id=created.tournament.id))
    assert [list(e.names) for e in got.entries] == [["bia"]]


async def register_in_team(quick: Running, tmp_path: Path, name: str, team: str) -> None:
    app = CardApp(f"127.0.0.1:{quick.port}", name, identity=create(tmp_path / f"{name}.pem"))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TournamentsScreen) and rows(app, "#tournaments"), "the list")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, TeamScreen), "the team asked")
        await pilot.press(*team, "enter")
        await until(pilot, lambda: isinstance(app.screen, TournamentsScreen)
                    and "1/4" in rows(app, "#tournaments")[0][2], "registered, one team")


async def test_in_truco_partners_name_their_team_when_they_register(quick: Running, tmp_path: Path) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
        created = await tournament_pb2_grpc.TournamentsStub(ch).CreateTournament(tournament_pb2.CreateTournamentRequest(
            game="truco_paulista", name="Truco da firma", rounds=1, table_size=4, max_entries=4))
    for name in ("ana", "bia"):
        await register_in_team(quick, tmp_path, name, "Rio")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
        got = await tournament_pb2_grpc.TournamentsStub(ch).GetTournament(
            tournament_pb2.TournamentRequest(tournament_id=created.tournament.id))
    assert [(e.team, list(e.names)) for e in got.entries] == [("Rio", ["ana", "bia"])]


async def test_at_a_tournament_table_the_end_of_its_match_offers_no_next_one(quick: Running, tmp_path: Path) -> None:
    me = create(tmp_path / "ana.pem")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        hello = await lobby.Hello(players_pb2.HelloRequest(name="ana", public_key=me.public_key))
        proved = await lobby.Prove(players_pb2.ProveRequest(name="ana", public_key=me.public_key, nonce=hello.nonce,
                                                            signature=me.sign(hello.server_id, hello.nonce, "ana")))
        stub = tournament_pb2_grpc.TournamentsStub(ch)
        created = await stub.CreateTournament(tournament_pb2.CreateTournamentRequest(
            game="cacheta", rounds=1, table_size=2, max_entries=2, bots_fill=True, bot_level="easy", away_after=1,
            options={"start_points": common_pb2.OptionValue(number=1)}))
        tid = created.tournament.id
        await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=proved.session))
        state = await stub.StartTournament(tournament_pb2.OwnerRequest(tournament_id=tid,
                                                                        owner_token=created.owner_token))
    table_id = state.tables[0].table_id
    quick.room.tables[table_id].config.turn_seconds = 0.3  # her turn lapses at once: a bot plays for her
    app = CardApp(f"127.0.0.1:{quick.port}", "ana", identity=me)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await app.open_table(table_id)
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "her table")
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await until(pilot, lambda: screen.ended[1] and screen.query_one("#summary").display, "the match's end")

        def foot_drawn() -> bool:  # how many rounds come in a call of their own; the countdown's tick draws them
            drawn = str(screen.query_one("#summary-foot", Static).render())
            return screen.rounds is not None and drawn == summary_foot(screen.model, screen.rounds,
                                                                       screen.spectating).plain

        await until(pilot, foot_drawn, lambda: f"the foot drawn once the screen knows how many rounds the tournament "
                    f"plays (rounds: {screen.rounds}; foot: {screen.query_one('#summary-foot', Static).render()})")
        foot = str(screen.query_one("#summary-foot", Static).render())
        # one round: no next one to speak of; and one way back, the Leave button's (escape), not two
        assert "the tournament ends when every table's is" in foot and "new game" not in foot, foot
        assert "next round" not in foot and "escape" not in foot, foot
        assert not screen.query_one("#summary-again").display, "no next match to stay for"
        assert screen.query_one("#summary-leave").display


async def test_when_a_round_opens_each_entrant_is_taken_to_their_table_wherever_they_are(quick: Running,
                                                                                          tmp_path: Path) -> None:
    """eva registers from the list of tournaments and stays there; bia, entered from another
    machine, waits in the lobby. The owner starts it: both are taken to their tables (only a
    tournament's own screen did, and only while in front)."""
    me = create(tmp_path / "bia.pem")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        hello = await lobby.Hello(players_pb2.HelloRequest(name="bia", public_key=me.public_key))
        proved = await lobby.Prove(players_pb2.ProveRequest(name="bia", public_key=me.public_key, nonce=hello.nonce,
                                                            signature=me.sign(hello.server_id, hello.nonce, "bia")))
        stub = tournament_pb2_grpc.TournamentsStub(ch)
        created = await stub.CreateTournament(tournament_pb2.CreateTournamentRequest(
            game="cacho", name="Noite", rounds=1, table_size=2, max_entries=4, bots_fill=True, bot_level="easy",
            options={}))
        tid = created.tournament.id
        await stub.Register(tournament_pb2.RegisterRequest(tournament_id=tid, session=proved.session))
    eva = CardApp(f"127.0.0.1:{quick.port}", "eva", identity=create(tmp_path / "eva.pem"))
    bia = CardApp(f"127.0.0.1:{quick.port}", "bia", identity=me)
    async with eva.run_test(size=SMALL) as pilot, bia.run_test(size=SMALL) as bia_pilot:
        await until(pilot, lambda: isinstance(eva.screen, LobbyScreen), "eva's lobby")
        await until(bia_pilot, lambda: isinstance(bia.screen, LobbyScreen), "bia's lobby")
        await until(bia_pilot, lambda: bia.rounds is not None and tid in bia.rounds.followed, "bia's entry found")
        await pilot.press("t")
        await until(pilot, lambda: isinstance(eva.screen, TournamentsScreen) and rows(eva, "#tournaments"),
                    "the list")
        await pilot.press("r")
        await until(pilot, lambda: eva.rounds is not None and tid in eva.rounds.followed, "eva registered")
        async with grpc.aio.insecure_channel(f"127.0.0.1:{quick.port}") as ch:
            await tournament_pb2_grpc.TournamentsStub(ch).StartTournament(
                tournament_pb2.OwnerRequest(tournament_id=tid, owner_token=created.owner_token))
        for app, app_pilot, name in ((eva, pilot, "eva"), (bia, bia_pilot, "bia")):
            # (not settled: a bot may play a seat whose person is slow to come, at full speed)
            await waiting.until(app_pilot, lambda app=app: isinstance(app.screen, TableScreen), f"{name}'s table")
            screen = app.screen
            assert isinstance(screen, TableScreen) and screen.model.summary.tournament_id == tid
            assert screen.seat is not None, f"{name} sits at it"


@pytest.mark.parametrize(("lang", "tournament", "table"), [
    ("en", "finished", "finished"), ("pt_BR", "terminado", "terminada"), ("es", "terminado", "terminada")])
def test_a_tournament_is_said_finished_in_its_own_gender(lang: str, tournament: str, table: str) -> None:
    """A tournament is "terminado", a table "terminada" (the tournament was said "terminada")."""
    from cardtui.client.screens.lobby import STATUS as TABLE_STATUS
    from cardtui.client.screens.tournaments import status_text

    with speaking(lang):
        said = status_text(tournament_pb2.TournamentSummary(status=tournament_pb2.TOURNAMENT_STATUS_FINISHED))
        assert said == tournament
        assert i18n._(TABLE_STATUS[common_pb2.TABLE_STATUS_FINISHED]) == table


def states_handled(app: CardApp) -> list[int]:
    """The round of each tournament state the app's rounds' follower has handled (a list that grows
    as it handles more): what the follower would take the player to a table on."""
    rounds = app.rounds
    assert rounds is not None, "the app follows rounds once it has reached the lobby"
    handled: list[int] = []
    handle = rounds.arrived

    async def counted(state: tournament_pb2.TournamentState) -> None:
        await handle(state)
        handled.append(state.summary.round)

    rounds.arrived = counted  # type: ignore[method-assign]
    return handled


async def test_the_standings_keep_following_after_one_leaves_ones_table(tmp_path: Path) -> None:
    """Leaving a round's table goes back to the tournament's screen, which goes on counting its hands
    (leaving once stopped every worker of the app, and the standings froze where they were)."""
    from cardtui.client.screens.confirm import ConfirmScreen

    quick = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.2, next_hand_delay=0.0, cut_window=0.0,
                        bot_workers=0)
    try:
        app = CardApp(f"127.0.0.1:{quick.port}", "ana", identity=create(tmp_path / "ana.pem"))
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            handled = states_handled(app)
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, TournamentsScreen), "the tournaments")
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, CreateTournamentScreen), "the form")
            form = app.screen
            assert isinstance(form, CreateTournamentScreen)
            form.query_one("#game", Select).value = "cacho"
            await until(pilot, lambda: form.game.name == "cacho", "cacho's options in the form")
            form.query_one("#seats", Select).value = 4
            form.query_one("#entries", Input).value = "4"
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the tournament's screen")
            screen = app.screen
            assert isinstance(screen, TournamentScreen)
            await until(pilot, lambda: screen.state is not None, "its state")
            await pilot.press("r")
            await until(pilot, lambda: screen.state is not None and len(screen.state.entries) == 1, "registered")
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "her table")
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen) or app.screen is screen,
                        "the question before leaving, or the standings")
            if isinstance(app.screen, ConfirmScreen):
                await pilot.press("y")
            await until(pilot, lambda: app.screen is screen, "back at the standings")

            def shown() -> int:
                return int(rows(app, "#round-tables")[0][2]) if rows(app, "#round-tables") else 0

            def played() -> int:
                assert screen.state is not None
                table = quick.room.tables.get(screen.state.tables[0].table_id)
                return table.hands_played if table is not None else 10**6

            later = shown() + 2
            await until(pilot, lambda: shown() >= later or played() >= 10**6, "the hands counted on", 30)
            # opened again mid-round, the standings stay in front: she left that table on purpose (p takes her)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, TournamentsScreen), "the list")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TournamentScreen) and app.screen.state is not None,
                        "the standings again")
            again = app.screen
            # the rounds' follower takes a player to their table when a state of the round comes: once it
            # has handled one that came after the standings opened again, she would have been taken
            mark = len(handled)
            await until(pilot, lambda: len(handled) > mark or played() >= 10**6,
                        "the rounds' follower to handle a later state of the round")
            assert app.screen is again, "not taken back to the table she left"
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) or played() >= 10**6, "p: her table")
    finally:
        await quick.stop(grace=0.2)
