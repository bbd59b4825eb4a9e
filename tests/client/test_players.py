"""The leaderboard and a player's card: what the server keeps, shown at 80x24; names plain text."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable

from cardtui import i18n
from cardtui.client.app import CardApp
from cardtui.client.screens.name import NameScreen
from cardtui.client.screens.players import LeaderboardScreen, PlayerCardScreen, SeatsScreen
from cardtui.client.textual_internals import drawn_lines
from cardtui.identity import create
from cardtui.server.app import Running
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, players_pb2
from tests.client.waiting import at_table, in_lobby, loaded, settled, until
from tests.server.test_records import play_out_the_match, sit

SMALL = (80, 24)
GAMES = [lobby_pb2.GameInfo(name="cacho", title="Cacho"), lobby_pb2.GameInfo(name="truco_paulista",
                                                                             title="Truco paulista"),
         lobby_pb2.GameInfo(name="truco_argentino", title="Truco argentino"),
         lobby_pb2.GameInfo(name="pifpaf", title="Pif Paf"), lobby_pb2.GameInfo(name="cacheta", title="Cacheta")]


def rating(mu: float, sigma: float, ordinal: float) -> players_pb2.Rating:
    return players_pb2.Rating(mu=mu, sigma=sigma, ordinal=ordinal)


BOARD = players_pb2.LeaderboardResponse(game="cacho", players=4, standings=[
    players_pb2.Standing(place=1, name="dora", rating=rating(31.2, 5.1, 15.9),
                         stats=players_pb2.Stats(matches=12, wins=7, hands=96, biggest_pot=64)),
    players_pb2.Standing(place=2, name="bot", bot=True, rating=rating(27.0, 3.0, 18.0 - 9.4),
                         stats=players_pb2.Stats(matches=40, wins=11, hands=410, biggest_pot=80)),
    players_pb2.Standing(place=3, name="[red]ana", rating=rating(24.1, 6.0, 6.1),
                         stats=players_pb2.Stats(matches=5, wins=1, hands=33, biggest_pot=20)),
    players_pb2.Standing(place=4, name="caio", rating=rating(20.5, 7.0, -0.5),
                         stats=players_pb2.Stats(matches=3, wins=0, hands=14, biggest_pot=0)),
])
TRUCO_BOARD = players_pb2.LeaderboardResponse(game="truco_argentino", players=2, standings=[
    players_pb2.Standing(place=1, name="Maria Eduarda dos Santos", rating=rating(30.1, 4.0, 18.1),  # 24: the longest
                         stats=players_pb2.Stats(matches=104, wins=61, hands=2210, truco_calls_won=388)),
    players_pb2.Standing(place=2, name="hard", bot=True, rating=rating(26.0, 3.0, 17.0),
                         stats=players_pb2.Stats(matches=98, wins=40, hands=2001, truco_calls_won=301)),
])
CARD = players_pb2.PlayerCardResponse(
    name="dora", kind=players_pb2.PLAYER_KIND_PERSON, fingerprint="7d2a 86c9 bb3b faaa 8079",
    since_unix=1_767_268_800, games=[
        players_pb2.GameRecord(game="cacho", place=1, rating=rating(31.2, 5.1, 15.9),
                               stats=players_pb2.Stats(matches=12, wins=7, hands=96, biggest_pot=64)),
        players_pb2.GameRecord(game="truco_paulista", place=3, rating=rating(26.0, 6.2, 7.4),
                               stats=players_pb2.Stats(matches=4, wins=2, hands=51, truco_calls_won=9)),
        players_pb2.GameRecord(game="cacheta", place=2, rating=rating(25.3, 7.9, 1.6),
                               stats=players_pb2.Stats(matches=1, wins=0, hands=12)),
    ])


class Fixed:
    """Fixed answers, as a server would give them."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str, int | None]] = []

    async def leaderboard(self, game: str) -> players_pb2.LeaderboardResponse:
        return {"cacho": BOARD, "truco_argentino": TRUCO_BOARD}.get(game, players_pb2.LeaderboardResponse(game=game))

    async def player_card(self, name: str = "", table_id: str = "", seat: int | None = None
                          ) -> players_pb2.PlayerCardResponse:
        self.asked.append((name, table_id, seat))
        return CARD

    async def info(self) -> lobby_pb2.ServerInfo:
        return lobby_pb2.ServerInfo(games=GAMES)


class BoardApp(App[None]):
    CSS_PATH = "../../client/app.tcss"

    def __init__(self, card: bool = False) -> None:
        super().__init__()
        self.source = Fixed()
        self.card = card

    def on_mount(self) -> None:
        self.push_screen(LeaderboardScreen(self.source, GAMES))
        if self.card:
            self.push_screen(PlayerCardScreen(self.source, name="dora"))


async def settle(pilot: Pilot[None]) -> None:
    """Until the screen on top (the leaderboard, or the card over it) has what it asked for, drawn."""
    app = pilot.app
    assert isinstance(app, BoardApp)
    await until(pilot, lambda: isinstance(app.screen, PlayerCardScreen if app.card else LeaderboardScreen))
    await loaded(pilot)


def test_leaderboard_snapshot(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(BoardApp(), terminal_size=SMALL, run_before=settle)


def test_player_card_snapshot(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(BoardApp(card=True), terminal_size=SMALL, run_before=settle)


def screen_words(app: App[None]) -> list[str]:
    return " ".join(strip.text for strip in drawn_lines(app.screen)).split()


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_the_card_and_the_leaderboard_show_every_column_whole_at_80_columns(lang: str) -> None:
    """Every heading and every figure on screen, nothing to scroll sideways to (the card's last
    column was cut to `Tru`)."""
    i18n.use(lang)
    headings = ["Rating", "Matches", "Won", "Hands"]
    app = BoardApp(card=True)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        card = app.screen.query_one("#card-games", DataTable)
        assert card.max_scroll_x == 0, "the card's columns fit"
        words = screen_words(app)
        for heading in [*headings, "Best pot", "Trucos won"]:
            assert set(i18n._(heading).split()) <= set(words), heading
        assert [str(c) for c in card.get_row_at(1)][-2:] == ["—", "9"]
        assert "9" in words
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        await loaded(pilot)
        screen = app.screen
        assert isinstance(screen, LeaderboardScreen)
        for game, figure, longest in (("cacho", "Best pot", "[red]ana"), ("truco_argentino", "Trucos won",
                                                                         "Maria Eduarda dos Santos")):
            while screen.game != game:
                await pilot.press("right")
            await loaded(pilot)
            board = app.screen.query_one("#leaderboard", DataTable)
            assert board.max_scroll_x == 0, f"the {game} leaderboard's columns fit"
            text = " ".join(strip.text for strip in drawn_lines(app.screen))
            assert longest in text
            for heading in [*headings, figure]:
                assert set(i18n._(heading).split()) <= set(text.split()), (game, heading)
    i18n.use("en")


async def test_leaderboard_keys_change_the_game_and_open_a_card() -> None:
    app = BoardApp()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        grid = app.screen.query_one("#leaderboard", DataTable)
        assert [str(c) for c in grid.get_row_at(2)][:3] == ["3", "[red]ana", "6.1"], "a name is plain text"
        assert "Best pot" in [c.label.plain.replace("\n", " ") for c in grid.columns.values()]
        await pilot.press("right")
        await loaded(pilot)
        assert app.screen.query_one("#leaderboard", DataTable).row_count == 0
        assert "Nobody is rated at Truco paulista yet" in str(app.screen.query_one("#leaderboard-note").render())
        await pilot.press("left")
        await loaded(pilot)  # cacho's board back, its rows listed
        await pilot.press("down", "i")
        await until(pilot, lambda: isinstance(app.screen, PlayerCardScreen))
        await loaded(pilot)
        assert isinstance(app.screen, PlayerCardScreen)
        assert app.source.asked == [("bot", "", None)]
        card = app.screen.query_one("#card-games", DataTable)
        assert [str(card.get_row_at(i)[0]) for i in range(card.row_count)] == ["Cacho", "Truco paulista", "Cacheta"]
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))


async def test_a_player_sees_the_ranks_and_cards_the_server_keeps(server: Running, tmp_path: Path) -> None:
    address = f"127.0.0.1:{server.port}"
    ana, bia = create(tmp_path / "ana.pem"), create(tmp_path / "bia.pem")
    async with grpc.aio.insecure_channel(address) as ch:
        lobby = lobby_pb2_grpc.LobbyStub(ch)
        made = await lobby.CreateTable(lobby_pb2.CreateTableRequest(
            game="cacho", seats=2, options={"chips": common_pb2.OptionValue(number=3)}))
        players = [await sit(address, made.table.id, ana, "ana"), await sit(address, made.table.id, bia, "bia")]
        await play_out_the_match(players)
        await lobby.CloseTable(lobby_pb2.CloseTableRequest(table_id=made.table.id, owner_token=made.owner_token))
        board = await lobby.Leaderboard(players_pb2.LeaderboardRequest(game="cacho"))
        for p in players:
            await p.close()
        table_id = (await lobby.CreateTable(lobby_pb2.CreateTableRequest(game="cacho", seats=3, bots=2))).table.id
    app = CardApp(address, "ana", identity=ana)
    async with app.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        await loaded(pilot)
        grid = app.screen.query_one("#leaderboard", DataTable)
        shown = [[str(c) for c in grid.get_row_at(i)] for i in range(grid.row_count)]
        assert shown == [[str(s.place), s.name, f"{s.rating.ordinal:.1f}", str(s.stats.matches), str(s.stats.wins),
                          str(s.stats.hands), str(s.stats.biggest_pot)] for s in board.standings]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlayerCardScreen))
        await loaded(pilot)
        first = {"ana": ana, "bia": bia}[board.standings[0].name]  # the row the cursor starts on
        assert first.fingerprint in str(app.screen.query_one("#card-line").render())
        await pilot.press("escape", "escape")
        await in_lobby(pilot)
        await app.open_table(table_id)
        await at_table(pilot)
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, SeatsScreen))
        await settled(pilot)
        await pilot.press("enter")  # the first seat: ana's own
        await until(pilot, lambda: isinstance(app.screen, PlayerCardScreen))
        await loaded(pilot)
        assert ana.fingerprint in str(app.screen.query_one("#card-line").render())
        card = app.screen.query_one("#card-games", DataTable)
        mine = next(s for s in board.standings if s.name == "ana")
        assert [str(c) for c in card.get_row_at(0)][:3] == ["Cacho", str(mine.place), f"{mine.rating.ordinal:.1f}"]


async def test_a_name_another_key_owns_is_refused_and_another_asked_for(server: Running, tmp_path: Path) -> None:
    address = f"127.0.0.1:{server.port}"
    owner = CardApp(address, "ana", identity=create(tmp_path / "ana.pem"))
    async with owner.run_test(size=SMALL) as pilot:
        await in_lobby(pilot)
    app = CardApp(address, "ana", identity=create(tmp_path / "other.pem"))
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NameScreen))
        await settled(pilot)
        assert "belongs to another player" in str(app.screen.query_one("#name-error").render())
        await pilot.press(*"bea", "enter")
        await in_lobby(pilot)
        assert app.player == "bea"
    guest = CardApp(address, "Ana")  # no key: a guest may not use it either
    async with guest.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(guest.screen, NameScreen))
        await settled(pilot)
