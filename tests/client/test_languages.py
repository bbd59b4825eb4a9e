"""The client in three languages: two people at one table read the same typed events each in their
own language, the game's terms stay in the game's language, ctrl+l switches the lobby and the
table (the log is said again), and a board in pt_BR and in es at 80x24 (the English ones are in
test_truco)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from cardtui import i18n
from cardtui.client.app import CardApp, relabel
from cardtui.client.footer import Footer
from cardtui.client.option_words import level_words
from cardtui.client.screens.help import rules_page, rules_text
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.client.screens.table import TableScreen
from cardtui.client.table_log import TableLog
from cardtui.i18n import speaking
from cardtui.server.app import Running
from tests.client.footer_check import cut_off, footer_items
from tests.client.test_truco import argentino_envido, paulista_truco, screen_text
from tests.client.truco_positions import Position, ScreenApp
from tests.client.waiting import at_table, in_lobby, loaded, settled, shown, until
from tests.conftest import create

SMALL = (80, 24)


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use("en")


def log_of(app: ScreenApp) -> str:
    return "\n".join(t.plain for t in app.screen.query_one("#log", TableLog).said)


async def read_in(lang: str, position: Position) -> tuple[str, str]:
    """One person's client, reading in ``lang``: its log and its turn line."""
    with speaking(lang):
        app = ScreenApp(position, 0)
        async with app.run_test(size=SMALL) as pilot:
            await shown(pilot)
            turn = str(app.screen.query_one("#turn-line").render())
            return log_of(app), turn


async def test_two_people_at_one_table_read_the_log_each_in_their_own_language() -> None:
    """Both clients run at once, fed the same typed events: one reads pt_BR, the other es."""
    position = paulista_truco()
    (pt, pt_turn), (es, es_turn) = await asyncio.gather(read_in("pt_BR", position), read_in("es", position))
    assert (pt_turn, es_turn) == ("Sua vez", "Te toca")
    for words in ("ana: Fico — fica com as cartas.",
                  "ana joga 4♦.", "Vaza 1 para carl (nós).", "ana joga uma carta coberta.",
                  "bia: Truco! — valendo 3"):
        assert words in pt, (words, pt)
    for words in ("ana: Fico — se queda con las cartas.",
                  "ana juega 4♦.", "Baza 1 para carl (nosotros).", "ana juega una carta boca abajo.",
                  "bia: Truco! — por 3"):
        assert words in es, (words, es)
    assert "Truco!" in pt and "Truco!" in es  # the paulista's call, in Portuguese at both screens
    assert " plays " not in pt + es and " deals" not in pt + es


async def test_the_argentine_calls_stay_spanish_on_a_portuguese_screen() -> None:
    pt, _turn = await read_in("pt_BR", argentino_envido())
    assert pt.splitlines() == ["ana joga 6♧.", "bia: ¡Real envido! — valendo 3"]


async def test_ctrl_l_switches_the_lobby_and_every_screen_after(server: Running) -> None:
    await create(server, game="cacho", name="noite", seats=4, bots=2)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=(100, 30)) as pilot:
        await in_lobby(pilot)

        def columns() -> list[str]:
            grid = app.screen.query_one("#tables", DataTable)
            return [str(c.label) for c in grid.columns.values()]

        def footer() -> str:
            return " ".join(str(k.description) for k in app.screen.query_one(Footer).keys_shown())

        assert columns()[:3] == ["Table", "Game", "Name"]
        await pilot.press("ctrl+l")
        await settled(pilot)
        assert i18n.current() == "pt_BR"
        assert columns()[:6] == ["Mesa", "Jogo", "Nome", "Pessoas", "Bots", "Vagas"]
        assert "Novo" in footer()
        grid = app.screen.query_one("#tables", DataTable)
        assert [str(c) for c in grid.get_row_at(0)[3:6]] == ["0", "2", "2"]
        await pilot.press("ctrl+l")
        await settled(pilot)
        assert columns()[:6] == ["Mesa", "Juego", "Nombre", "Personas", "Bots", "Libres"]
        assert "Nuevo" in footer()
        await pilot.press("s")  # a screen opened after speaks it from the start
        await at_table(pilot)
        assert isinstance(app.screen, TableScreen)
        assert "MIRANDO" in str(app.screen.query_one("#spectator-banner").render())
        await pilot.press("ctrl+l")
        await settled(pilot)
        assert i18n.current() == "en"
        assert "SPECTATING" in str(app.screen.query_one("#spectator-banner").render())


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_the_lobbys_and_leaderboards_keys_fit_at_80_columns_in_every_language(server: Running, lang: str) -> None:
    with speaking(lang):
        app = CardApp(f"127.0.0.1:{server.port}", "ana")
        async with app.run_test(size=SMALL) as pilot:
            await until_lobby(pilot, app)
            shown = {words for _, _, words in footer_items(app.screen)}
            wanted = {"New", "Watch", "Hands", "Help", "Ranks", "Quit", "Language"}
            assert {i18n._(w) for w in wanted} <= shown, shown
            assert cut_off(app.screen, SMALL[0]) == []
            await pilot.press("l")  # the leaderboard's too
            await until(pilot, lambda: i18n._("Player card") in {words for _, _, words in footer_items(app.screen)},
                        "the leaderboard's keys in the footer")
            await settled(pilot)
            assert cut_off(app.screen, SMALL[0]) == []


async def test_ctrl_l_says_the_leaderboard_and_the_history_again(server: Running) -> None:
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await until_lobby(pilot, app)
        for key, english, portuguese in (("l", "Leaderboard", "Ranking"), ("h", "History", "Histórico")):
            await pilot.press(key)
            await until(pilot, lambda english=english: app.screen.title == english, f"the {english.lower()}")
            await loaded(pilot, f"the {english.lower()} from the server")  # its columns come with its rows
            grid = app.screen.query_one(DataTable)
            assert "Name" in [str(c.label) for c in grid.columns.values()] or key == "h"
            await pilot.press("ctrl+l")
            await until(pilot, lambda portuguese=portuguese: app.screen.title == portuguese, "the title in Portuguese")
            await loaded(pilot, "what the screen asked the server again, said in Portuguese")
            assert app.screen.title == portuguese
            words = " ".join(str(c.label) for c in app.screen.query_one(DataTable).columns.values())
            assert ("Nome" if key == "l" else "Mesa") in words, words
            await pilot.press("ctrl+l", "ctrl+l", "escape")  # back to English, and to the lobby
            await until_lobby(pilot, app)


async def until_lobby(pilot: Pilot[None], app: CardApp) -> None:
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    await settled(pilot)


async def test_switching_says_the_log_again() -> None:
    app = ScreenApp(paulista_truco(), 0)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        assert "ana plays 4♦." in log_of(app)
        i18n.use("es")
        await relabel(app)
        await settled(pilot)
        assert "ana juega 4♦." in log_of(app) and "ana plays 4♦." not in log_of(app)
        assert "bia: Truco! — por 3" in log_of(app)  # the call itself stays as the game says it
        assert str(app.screen.query_one("#turn-line").render()) == "Te toca"


def test_rules_pages_fall_back_to_english() -> None:
    english = rules_page("cacho", "en")
    assert english is not None
    assert rules_page("no_such_game", "pt_BR") is None
    with speaking("pt_BR"):
        page = rules_text("cacho")
        assert "## Teclas" in page or "## Keys" in page
        assert page.startswith(rules_page("cacho", "pt_BR") or english)
    with speaking("es"):
        assert rules_text(None).startswith("# cardtui\nUna sala de cartas")


# -- snapshots: one board in each language at 80x24 ---------------------------------------------
async def settle(pilot: Pilot[None]) -> None:
    await shown(pilot)


@pytest.mark.parametrize("lang", ["pt_BR", "es"])
def test_paulista_board_snapshot(snap_compare: Any, lang: str) -> None:
    i18n.use(lang)
    assert snap_compare(ScreenApp(paulista_truco(), 0), terminal_size=SMALL, run_before=settle)


@pytest.mark.parametrize("lang", ["pt_BR", "es"])
def test_argentino_board_snapshot(snap_compare: Any, lang: str) -> None:
    i18n.use(lang)
    assert snap_compare(ScreenApp(argentino_envido(), 0), terminal_size=SMALL, run_before=settle)



async def test_the_bots_levels_are_named_in_the_readers_language(server: Running) -> None:
    """The server names levels by identifier (``easy``, ``hard``); the board says them in the reader's
    language, as the create form does (``level_words``)."""
    await create(server, game="cacho", name="níveis", seats=3, bots=2, bot_levels=["easy", "hard"])
    with speaking("pt_BR"):
        app = CardApp(f"127.0.0.1:{server.port}", "ana")
        async with app.run_test(size=(120, 40)) as pilot:
            await in_lobby(pilot)
            await pilot.press("s")
            await at_table(pilot)
            await until(pilot, lambda: "difícil" in screen_text(app), "the hard bot named in Portuguese")
            shown_now = screen_text(app)
            assert "fácil" in shown_now and "easy" not in shown_now and "hard" not in shown_now, shown_now
    with speaking("es"):
        assert level_words("hard") == "difícil" and level_words("normal") == "normal"
        assert level_words("genius") == "genius"  # a level a newer server offers: by its identifier
