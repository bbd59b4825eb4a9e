"""Words a player understands: option values named by their rule, a table's help saying what its
options make the game, the keys the players' guide gives, and what the screens say when things go wrong.

A real server on 127.0.0.1 and the real app under Pilot where a screen is concerned; the catalogs
as shipped for the words themselves.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Markdown, Select

from cardtui import i18n
from cardtui.client import gamebook
from cardtui.client.app import CardApp
from cardtui.client.option_words import option_label, value_label
from cardtui.client.screens.help import HelpScreen
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.client.screens.table import TableScreen
from cardtui.engine.games import GAMES
from cardtui.engine.options import OptionKind
from cardtui.i18n import speaking
from cardtui.server.app import Running
from tests.client.test_table_flow import SMALL, create_form, until
from tests.client.waiting import settled
from tests.conftest import create
from tools.catalogs import LANGUAGES, read


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use("en")


def test_every_option_and_value_of_every_game_has_a_label_in_every_language() -> None:
    catalogs = {lang: read(lang) for lang in LANGUAGES}
    for game, rules in GAMES.items():
        assert set(gamebook.get(game).options) == {s.name for s in rules.option_specs}, game
        for spec in rules.option_specs:
            words = gamebook.get(game).options[spec.name]
            labels = [words.label]
            if spec.kind is OptionKind.CHOICE:
                assert set(words.values) == set(spec.choices), f"{game}.{spec.name}: a label for each value"
            elif spec.kind is OptionKind.FLAG:
                assert set(words.values) == {"on", "off"}, f"{game}.{spec.name}: what on and off play"
            labels += words.values.values()
            for label in labels:
                for lang, catalog in catalogs.items():
                    said = catalog.get(label)
                    assert said is not None and said.string, f"{lang}: {label!r} ({game}.{spec.name})"


def test_values_are_named_by_the_rule_never_by_a_source() -> None:
    assert value_label("truco_argentino", "envido_unsuited", "sum_two") == "two best cards, even of different suits"
    assert value_label("truco_argentino", "envido_unsuited", "highest") == "the single best card"
    with speaking("es"):
        assert value_label("truco_argentino", "envido_unsuited", "sum_two") == (
            "las dos mejores cartas, aunque sean de distinto palo")
        assert option_label("truco_argentino", "ties") == "Pardas"
    for lang in ("en", *LANGUAGES):
        with speaking(lang):
            said = " ".join(value_label(g, o, v) for g, known in gamebook.known().items()
                            for o, w in known.options.items()
                            for v in w.values).lower()
            for source in ("seed", "semilla", "semente", "traditional", "tradicional"):
                assert source not in said, (lang, source)
    # An option this client does not know (a newer server) still reads as words.
    assert value_label("truco_argentino", "ties", "house_rule") == "house rule"


async def test_the_create_form_offers_values_by_their_rule(server: Running) -> None:
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        dialog.query_one("#game", Select).value = "truco_argentino"
        await until(pilot, lambda: bool(dialog.query("#opt-ties")))
        ties = dialog.query_one("#opt-ties", Select)
        offered = {label.plain if hasattr(label, "plain") else str(label): v
                   for label, v in ties._options}  # type: ignore[attr-defined]
        assert offered == {"play on: a tie makes the next trick take all": "play_on",
                           "the winner of the first trick wins a later tie": "first_trick"}
        unsuited = dialog.query_one("#opt-envido_unsuited", Select)
        assert "two best cards, even of different suits" in {
            str(label) for label, _v in unsuited._options}  # type: ignore[attr-defined]


async def test_a_tables_help_says_what_its_options_make_the_game(server: Running) -> None:
    table_id = await create(server, game="truco_paulista", seats=4, bots=3, bot_delay_ms=60_000,
                            turn_seconds=3600)
    with speaking("pt_BR"):
        app = CardApp(f"127.0.0.1:{server.port}", "ana")
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await app.open_table(table_id)
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.model.view is not None)
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, HelpScreen))
            text = app.screen.query_one(Markdown).source
    assert "As opções desta mesa" in text
    assert "| Depois do truco aceito | a vaza em jogo decide a mão (padrão) |" in text
    assert "melhor de três" not in text.split("As opções desta mesa")[1], "the default is the trick"
    assert "| Sinais pegos pelos adversários | 0,25 (padrão) |" in text, "a fraction as Portuguese writes it"


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_rules_pages_name_options_as_the_form_does(lang: str) -> None:
    """A page refers to an option by the label the create form shows, never by its identifier."""
    from cardtui.client.screens.help import rules_page

    for game, rules in GAMES.items():
        page = rules_page(game, lang) or ""
        for spec in rules.option_specs:
            for ident in (spec.name, *spec.choices):
                if "_" in ident or ident in ("trick", "hand", "traditional", "seed", "winner", "rotate", "ante",
                                             "rebuy", "tournament", "flor", "chips", "chat", "target"):
                    assert f"`{ident}" not in page and f"*{ident}*" not in page, (game, lang, ident)


# -- the keys: the players' guide's table, the help's, and the bindings ------------------------
GLYPHS = {"←": "left", "→": "right", "+": "plus", "-": "minus", "/": "slash", "?": "question_mark",
          "!": "exclamation_mark", "pgup": "pageup", "pgdn": "pagedown", "shift+←": "shift+left",
          "shift+→": "shift+right"}


def guide_key_rows() -> list[tuple[str, str, str]]:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "players.md").read_text(encoding="utf-8")
    section = text.split("\n## Keys\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split(" | ") for line in section.splitlines() if line.startswith("| ")]
    return [(w.strip(), k.strip(), x.strip()) for w, k, x in rows[1:]]  # the first is the header


def test_the_guides_key_table_is_the_helps() -> None:
    from cardtui.client.screens.help import KEY_ROWS, place

    assert guide_key_rows() == [(place(r), r.keys, r.what) for r in KEY_ROWS]


def test_every_key_the_help_gives_does_what_it_says() -> None:
    """Each backticked key of a row runs the action the row names, where the row says."""
    import re

    from textual.binding import Binding

    from cardtui.client.boards.rummy import RummyBoard
    from cardtui.client.gamebook import get, known
    from cardtui.client.screens.connect import ConnectScreen
    from cardtui.client.screens.help import KEY_ROWS, games_binding, place
    from cardtui.client.screens.replay import ReplayScreen
    from cardtui.client.screens.tournaments import TournamentScreen

    def bound(*owners: type) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for owner in owners:
            for b in owner.BINDINGS:  # type: ignore[attr-defined]
                assert isinstance(b, Binding)
                for key in b.key.split(","):
                    out.setdefault(key.strip(), set()).add(b.action)
        return out

    screens = {"lobby": bound(LobbyScreen), "table": bound(TableScreen), "watching": bound(TableScreen),
               "Pif Paf, Cacheta": bound(RummyBoard),
               "replay": bound(ReplayScreen), "no server": bound(ConnectScreen),
               "anywhere": bound(CardApp, LobbyScreen, TableScreen), "tournament": bound(TournamentScreen)}
    games = {"Pif Paf, Cacheta": ("pifpaf", "cacheta"), "Cacheta; Pif Paf": ("cacheta", "pifpaf")}
    checked = 0
    for row in KEY_ROWS:
        # a row naming the games that have its action (found by that action, never by a title): each game's board
        named = [g for g in known().values() if g.title in games_binding(row.games_binding)]
        assert not row.games_binding or (named and place(row) == ", ".join(g.title for g in named)), row
        owners = [bound(g.board()) for g in named] if row.games_binding else [screens.get(row.where, {})]
        keys = [GLYPHS.get(k, k) for k in re.findall(r"`([^`]+)`", row.keys)]
        assert len(keys) == len(row.actions), row
        for key, action in zip(keys, row.actions, strict=True):
            if action.startswith("game:"):
                kind = action.removeprefix("game:")
                assert any(get(g).keys.get(kind) == key or get(g).keys.get(kind.replace("claim", "cut")) == key
                           for g in games[row.where]), (row.where, key, kind)
            else:
                assert all(action in owner.get(key, set()) for owner in owners), (place(row), key, action)
            checked += 1
    assert checked > 30
    # The rummy hand sorts with o; s draws from the stock (the keys' table once said s sorts).
    assert "sort" in screens["Pif Paf, Cacheta"]["o"] and get("pifpaf").keys["draw:stock"] == "s"


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_the_meld_hint_row_names_every_game_with_hints_in_every_language(lang: str) -> None:
    """The keys table's hint row names the games whose board has a meld hint, each by its title, in every
    language: the rummy family's, as the registry holds them, so a game taken away leaves it."""
    from cardtui.client.boards.rummy import RummyBoard
    from cardtui.client.gamebook import known
    from cardtui.client.screens.help import KEY_ROWS, keys_text

    row = next(r for r in KEY_ROWS if r.games_binding == "hint")
    rummy = [g.title for g in known().values() if g.board() is RummyBoard]
    with speaking(lang):
        text = keys_text()
        said = next(line for line in text.splitlines() if line.endswith(f"| {i18n._(row.what)} |"))
    assert rummy and said.startswith(f"| {', '.join(rummy)} | {row.keys} |"), said


# -- closing a table you created -----------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_closing_a_table_you_created_asks_first_and_its_key_shows_on_your_table(server: Running,
                                                                                     lang: str) -> None:

    other = await create(server, game="cacho", seats=2, bots=1, bot_delay_ms=60_000, name="alheia")
    with speaking(lang):
        await closing(server, other)


async def closing(server: Running, other: str) -> None:
    from cardtui.client.screens.confirm import ConfirmScreen
    from tests.client.footer_check import cut_off, footer_items

    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        dialog.query_one("#game", Select).value = "cacho"
        await settled(pilot)
        from textual.widgets import Input
        dialog.query_one("#name", Input).value = "minha"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.model.view is not None)
        await pilot.press("escape")  # not in a match yet with a bot to come? leave, asked or not
        if not isinstance(app.screen, LobbyScreen):
            await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: len(lobby.rows) == 2)
        mine = next(t for t in lobby.rows if t != other)

        def close_shown() -> bool:
            return i18n._("Close") in {words for _s, _e, words in footer_items(lobby)}

        lobby.query_one("#tables").move_cursor(row=lobby.rows.index(other))  # type: ignore[attr-defined]
        await settled(pilot)
        assert not close_shown(), "someone else's table: no key to close it"
        assert i18n._("Quit") in {words for _s, _e, words in footer_items(lobby)}, "elsewhere Quit shows"
        lobby.query_one("#tables").move_cursor(row=lobby.rows.index(mine))  # type: ignore[attr-defined]
        await until(pilot, close_shown)
        assert cut_off(lobby, SMALL[0]) == []
        shown = {words for _s, _e, words in footer_items(lobby)}
        assert i18n._("Language") in shown and i18n._("Quit") not in shown, "Close takes Quit's room"
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "minha" in str(app.screen.query_one("#confirm-title").render())
        await pilot.press("escape")  # keep it
        await until(pilot, lambda: app.screen is lobby)
        await settled(pilot)
        assert mine in server.room.tables, "asked, and kept"
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: mine not in server.room.tables)
        assert other in server.room.tables
        await until(pilot, lambda: i18n._("Quit") in {words for _s, _e, words in footer_items(lobby)})
        await pilot.press("ctrl+q")  # the key works whether or not the footer shows it
        await until(pilot, lambda: app.return_code is not None)
        assert app.return_code == 0, "ctrl+q quits"


def test_leaving_mid_match_speaks_of_what_the_game_plays_for() -> None:
    from cardtui.client.screens.leaving import LeaveScreen

    with speaking("pt_BR"):
        cacheta, pifpaf = LeaveScreen("cacheta").detail, LeaveScreen("pifpaf").detail
    assert "pontos" in cacheta and "fichas" not in cacheta, "Cacheta plays for points"
    assert "fichas" in pifpaf
    with speaking("es"):
        assert "equipo" in LeaveScreen("truco_argentino").detail
        assert "equipo" not in LeaveScreen("truco_argentino", seats=2).detail, "one against one: no team"
        tourney = LeaveScreen("cacho", seats=4, tournament=True).detail
    assert "alguien" not in tourney and "vuelvas" in tourney, "a tournament's seat waits for its player alone"


# -- the away tag fits -----------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_the_away_tag_stays_on_the_name_line_at_80x24(lang: str) -> None:
    import io

    from rich.console import Console

    from tests.client.test_table_layout import TableApp, stream

    conn = stream("cacho")
    for msg in conn.messages:
        view = msg.snapshot.view if msg.HasField("snapshot") else msg.update.view
        duda = view.seats[3]
        duda.bot, duda.away, duda.bot_level = True, True, "normal"
    with speaking(lang):
        app = TableApp(conn, "cacho")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            await settled(pilot)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            board = screen.board
            console = Console(width=board.content_region.width, file=io.StringIO(), record=True)
            console.print(board.render())
            lines = console.export_text().splitlines()
            tag = i18n._("[away: bot {level}]").format(level="normal")
    at = next(i for i, line in enumerate(lines) if "duda" in line)
    col = lines[at].index("duda") - 2  # the column starts with the turn mark's room
    two = " ".join(" ".join(line[col:].split()) for line in lines[at:at + 2])
    assert f"duda {tag}" in two, (tag, lines[at:at + 3])


# -- an outage says what keys do, and its timers stop ----------------------------------------------
async def test_in_an_outage_the_banner_says_keys_do_nothing_and_the_turn_timer_stops(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.widgets import Static

    from cardtui.server.app import start
    from tests.client.test_reconnect import free_port

    ticks: list[float] = []
    """When the table screen's timer (the one that counts the turn down on screen) has ticked."""
    tick = TableScreen._tick

    def counted(self: TableScreen) -> None:
        tick(self)
        ticks.append(time.monotonic())

    monkeypatch.setattr(TableScreen, "_tick", counted)
    port, db = free_port(), tmp_path / "store.db"
    running = await start("127.0.0.1", port, db)
    table_id = await create(running, game="cacho", seats=2, bots=1, bot_delay_ms=60_000, turn_seconds=600)
    app = CardApp(f"127.0.0.1:{port}", "ana")
    try:
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await app.open_table(table_id)
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.online
                        and app.screen.model.deadline is not None)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            turn = screen.query_one("#turn-line", Static)
            assert " s" in str(turn.render()), "a turn timer counts while the server is there"
            banner = screen.query_one("#conn-banner", Static)
            await running.stop(grace=0.1)
            await until(pilot, lambda: bool(banner.display))
            assert "keys do nothing until we are back" in str(banner.render())
            assert "actions wait" not in str(banner.render())
            # the next try, counted down in whole seconds to "now" (it said "1.0 s" all along)
            assert screen.retry_at is not None
            said = str(banner.render())
            assert ".0 s" not in said and " s · " in said, said
            screen.retry_at = time.monotonic() + 2.4
            screen._tick()
            assert "trying again in 3 s" in str(banner.render())
            screen.retry_at = time.monotonic() + 0.6
            screen._tick()
            assert "trying again in 1 s" in str(banner.render())
            screen.retry_at = time.monotonic() - 0.1
            screen._tick()
            assert "trying again now" in str(banner.render())
            before = str(turn.render())
            # a second without the server, and the screen's timer ticked after it: nothing may change
            since = time.monotonic()
            await until(pilot, lambda: any(t > since + 1.0 for t in ticks), "the screen's timer a second on")
            assert str(turn.render()) == before, "the timer does not count on screen while the server is gone"
            assert "the timer waits for the server" in before and screen.model.deadline is None
            running = await start("127.0.0.1", port, db)
            await until(pilot, lambda: screen.online and screen.model.deadline is not None)
            assert not banner.display
    finally:
        await running.stop(grace=0.1)


# -- chat: enter sends, escape goes back, and the line says so ----------------------------------------
async def test_escape_after_sending_a_chat_line_goes_back_to_the_table_not_out_of_it(server: Running) -> None:
    from textual.widgets import Input

    from cardtui.client.screens.leaving import LeaveScreen

    table_id = await create(server, game="cacho", seats=2, bots=1, bot_delay_ms=60_000, turn_seconds=3600)
    app = CardApp(f"127.0.0.1:{server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await app.open_table(table_id)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.in_match())
        table = app.screen
        chat = table.query_one("#chat", Input)
        await pilot.press("slash")
        await until(pilot, lambda: chat.has_focus)
        await pilot.press("o", "i", "enter")
        await until(pilot, lambda: any("ana: oi" in t.plain for t in table.query_one("#log").said))  # type: ignore[attr-defined]
        assert chat.has_focus and chat.value == "", "sent; the line is ready for the next one"
        await pilot.press("escape")
        await settled(pilot)
        assert app.screen is table and not chat.has_focus, "escape went back to the table, asking nothing"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LeaveScreen))


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
async def test_the_players_chat_line_says_how_to_go_back_in_full_at_80x24(lang: str) -> None:
    from textual.widgets import Input

    from tests.client.test_table_layout import TableApp, stream

    with speaking(lang):
        app = TableApp(stream("cacho"), "cacho")
        async with app.run_test(size=SMALL) as pilot:
            await until(pilot, lambda: bool(app.screen.query("#chat")))
            await settled(pilot)
            chat = app.screen.query_one("#chat", Input)
            assert len(chat.placeholder) <= chat.content_region.width, chat.placeholder
            await pilot.press("slash")
            await settled(pilot)
            typing = chat.placeholder
            assert "esc" in typing and len(typing) <= chat.content_region.width, (typing, chat.content_region.width)


# -- the create form remembers ---------------------------------------------------------------------
async def test_the_create_form_starts_from_the_last_choices_at_that_server(server: Running) -> None:
    from textual.widgets import Checkbox, Input

    from cardtui.client import choices
    from cardtui.client.screens.lobby import CreateTableScreen

    app = CardApp(f"127.0.0.1:{server.port}", "ana", own_config=True)
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        assert dialog.query_one("#game", Select).value == "cacho", "nothing remembered yet: the first game"
        dialog.query_one("#game", Select).value = "truco_argentino"
        await until(pilot, lambda: bool(dialog.query("#opt-ties")))
        await settled(pilot)  # the form settles its own chain of changes (game, seats, bots) first
        dialog.query_one("#seats", Select).value = 4
        await settled(pilot)
        dialog.query_one("#bots", Select).value = 2
        await until(pilot, lambda: len(dialog.levels()) == 2 and "Select.NULL" not in dialog.levels()
                    and bool(dialog.query("#level-3")))
        await settled(pilot)
        dialog.query_one("#level-3", Select).value = "hard"
        dialog.query_one("#opt-ties", Select).value = "first_trick"
        dialog.query_one("#opt-target", Select).value = 15
        dialog.query_one("#opt-flor", Checkbox).value = True
        dialog.query_one("#opt-signals_seen", Input).value = "0.5"
        dialog.query_one("#turn", Input).value = "45"
        dialog.query_one("#private", Checkbox).value = True
        dialog.query_one("#password", Input).value = "segredo"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, CreateTableScreen))
    assert choices.path().exists() and "segredo" not in choices.path().read_text(), "never the password"

    app = CardApp(f"127.0.0.1:{server.port}", "ana", own_config=True)  # a new run of the client, the same server
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        await until(pilot, lambda: len(dialog.levels()) == 2 and "Select.NULL" not in dialog.levels()
                    and bool(dialog.query("#opt-ties")))
        await settled(pilot)  # the form's own changes settle (seats, then bots, then levels)
        assert dialog.query_one("#game", Select).value == "truco_argentino"
        assert dialog.query_one("#seats", Select).value == 4 and dialog.query_one("#bots", Select).value == 2
        assert dialog.levels() == ["normal", "hard"]
        assert dialog.query_one("#opt-ties", Select).value == "first_trick"
        assert dialog.query_one("#opt-target", Select).value == 15
        assert dialog.query_one("#opt-flor", Checkbox).value is True
        assert dialog.query_one("#opt-signals_seen", Input).value == "0.5"
        assert dialog.query_one("#turn", Input).value == "45"
        assert dialog.query_one("#private", Checkbox).value is True
        assert dialog.query_one("#password", Input).value == ""

    app = CardApp(f"localhost:{server.port}", "ana")  # another address: its own choices (none yet)
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        await settled(pilot)
        assert dialog.query_one("#game", Select).value == "cacho"


def test_remembered_choices_that_no_longer_fit_are_left_out(tmp_path: Path) -> None:
    from cardtui.client import choices
    from cardtui.v1 import lobby_pb2

    file = tmp_path / "create-form.json"
    file.write_text("{not json", encoding="utf-8")
    assert choices.load("h:1", file) is None, "an unreadable file is as if there were none"
    choices.save("h:1", choices.Choices("cacho", 3, 1, options={"chips": 99999, "ghost": 1}), file)
    last = choices.load("h:1", file)
    assert last is not None and last.seats == 3
    spec = lobby_pb2.OptionSpec(name="chips", type=lobby_pb2.OPTION_TYPE_NUMBER, min=1, max=1000)
    spec.default.number = 20
    assert last.option(spec).number == 20, "out of the option's range now: its default"
    for n in range(choices.KEPT + 3):
        choices.save(f"h:{n + 2}", choices.Choices("cacho", 2, 1), file)
    assert choices.load("h:1", file) is None and choices.load(f"h:{choices.KEPT + 4}", file) is not None


# -- Portuguese and Spanish as players say them ------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])

async def test_the_create_forms_labels_stand_apart_from_their_values(server: Running, lang: str) -> None:
    from rich.cells import cell_len
    from textual.widgets import Label

    with speaking(lang):
        app = CardApp(f"127.0.0.1:{server.port}", "ana")
        async with app.run_test(size=SMALL) as pilot:
            dialog = await create_form(pilot, app)
            await settled(pilot)
            cells = list(dialog.query_one("#create-grid").children)
            said = {}
            for label, value in zip(cells[::2], cells[1::2], strict=True):
                assert isinstance(label, Label)
                text = str(label.render())
                said[text] = label
                assert label.region.height == 1, f"{text!r} wraps"
                gap = value.region.x - (label.region.x + cell_len(text))
                assert gap >= 2, f"{text!r} runs into its value"
            if lang == "pt_BR":
                assert "Mesa privada" in said and "Privada" not in said, "Privada alone reads as a toilet"


def test_lists_name_games_as_the_server_does() -> None:
    from cardtui.client.screens.replay import game_title

    assert game_title("pifpaf") == "Pif Paf"
    assert {name: rules.title for name, rules in GAMES.items()} == {n: g.title for n, g in gamebook.known().items()}
    assert game_title("nova_game") == "Nova game"


async def test_a_browser_guests_create_form_reads_and_writes_nothing_of_the_hosts(server: Running) -> None:
    """A browser guest runs in the host's account: its create form starts from the defaults, not from the host's
    (or another guest's) last choices, and leaves the host's config directory as it was."""
    from cardtui.client import choices
    from cardtui.client.screens.lobby import CreateTableScreen

    target = f"127.0.0.1:{server.port}"
    choices.save(target, choices.Choices("truco_argentino", 4, 2, ["normal", "hard"], 45, True, {"target": 15}))
    kept = choices.path().read_bytes()
    app = CardApp(target, "guest", own_config=False)
    async with app.run_test(size=SMALL) as pilot:
        dialog = await create_form(pilot, app)
        await settled(pilot)
        assert dialog.query_one("#game", Select).value == "cacho", "the host's last choices are not the guest's"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, CreateTableScreen))
    assert choices.path().read_bytes() == kept, "the guest's choices were written to the host's config directory"
