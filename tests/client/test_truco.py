"""Both truco boards: played by keys against a real server at 80x24, rigged positions on the
real table screen, the words of the log, the hand's result, and snapshots at 80x24 and 120x40."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_asyncio
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot

from cardtui import i18n
from cardtui.client.actionbar import ActionBar
from cardtui.client.app import CardApp
from cardtui.client.boards.truco import TrucoBoard
from cardtui.client.models import TableModel, action_name
from cardtui.client.screens.table import TableScreen
from cardtui.client.table_log import TableLog
from cardtui.client.textual_internals import drawn_lines, notices
from cardtui.client.words import event_words
from cardtui.engine.core import Bound
from cardtui.engine.games import GAMES
from cardtui.i18n import speaking
from cardtui.server.app import Running, start
from cardtui.v1 import common_pb2, table_pb2, truco_pb2
from tests.client.truco_positions import Position, ScreenApp
from tests.client.waiting import at_table, in_lobby, settled, shown, until
from tests.conftest import create

SMALL = (80, 24)
LARGE = (120, 40)
FOUR = ["ana", "bia", "carl", "dora"]
SIX = ["ana", "bia", "carl", "dora", "eva", "fede"]
RAW = re.compile(r"(?<![0-9A-Za-z])(?:(?:10|[2-7AJQK])[SHDC]|(?:1[012]|[1-7])[eboc])(?![0-9A-Za-z])")
"""A card's notation, which a person should never read (the log shows glyphs)."""


@pytest_asyncio.fixture
async def table_server(tmp_path: Path) -> AsyncIterator[Running]:
    """Bots slow enough that a call is seen waiting for its answer, fast enough for a test."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.1, next_hand_delay=0.3)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


# -- reading the screen ------------------------------------------------------------------------
def table(app: CardApp | ScreenApp) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen)
    return screen


def screen_text(app: CardApp | ScreenApp) -> str:
    """What the terminal shows now, as text."""
    return "\n".join(strip.text for strip in drawn_lines(app.screen))


def board_text(app: CardApp | ScreenApp) -> str:
    return drawn(table(app).query_one(TrucoBoard))


def drawn(board: TrucoBoard) -> str:
    console = Console(width=board.content_size.width, record=True, file=io.StringIO())
    console.print(board.render())
    return console.export_text()


def log_text(app: CardApp | ScreenApp) -> str:
    return "\n".join(t.plain for t in table(app).query_one("#log", TableLog).said)


def offered(app: CardApp | ScreenApp) -> dict[str, str]:
    """Each action type in the action bar → its key."""
    bar = table(app).query_one(ActionBar)
    return {action_name(group[0]): key for group, key in zip(bar.choices, bar.keys, strict=True)}


def labels(app: CardApp | ScreenApp) -> list[str]:
    return [str(b.label) for b in table(app).query_one(ActionBar).buttons]


def legal(app: CardApp | ScreenApp) -> set[str]:
    return {action_name(a) for a in table(app).model.legal}


async def open_table(pilot: Pilot[None], app: CardApp, table_id: str) -> TableScreen:
    await in_lobby(pilot)
    await app.open_table(table_id)
    return await at_table(pilot, lambda screen: screen.model.view is not None and screen.model.view.HasField("truco"),
                          "the truco table dealt")


async def check_fits(pilot: Pilot[None], app: CardApp) -> None:
    """The hand and every action's button are on screen, no label cut (once the bar, just
    rebuilt for new actions, has been laid out)."""
    bar = table(app).query_one(ActionBar)
    await settled(pilot)
    drawn = bar.text
    for button in bar.buttons:
        assert button.region.bottom <= SMALL[1] - 1, "the action bar is on screen"
        text = str(button.label)
        assert text in drawn, f"{text!r} is cut: {drawn!r}"
    screen = table(app)
    # (the table may have moved on meanwhile: at a hand's end its summary stands in the board's place)
    if screen.model.view is not None and screen.model.view.truco.cards and not screen.summary_open:
        assert "Your cards" in screen_text(app), "your hand is on screen"


async def my_move(pilot: Pilot[None], app: CardApp, over: Callable[[], bool]) -> bool:
    """Until ana has something to do, the screen drawn for it (its action bar checked whole), or
    the test has seen what it plays for (``over``): False then."""
    def stuck() -> str:
        screen = table(app)
        view = screen.model.view
        log = log_text(app).splitlines()[-12:]
        board = " ".join(board_text(app).split())
        return (f"ana's turn, or the end of the test's hand (at event {screen.model.seq}; to act: "
                f"{list(view.to_act) if view is not None else '?'}; hand over: {view is not None and view.hand_over}; "
                f"match over: {view is not None and view.match_over}; summary open: {screen.summary_open}; "
                f"the board: {board!r}; the log ends: {log})")

    while True:
        await until(pilot, lambda: over() or bool(legal(app)), stuck)
        await settled(pilot)  # the action bar shows what the view offers
        if over():
            return False
        if legal(app):
            await check_fits(pilot, app)
            return True


async def moved(pilot: Pilot[None], screen: TableScreen, seq: int, over: Callable[[], bool]) -> None:
    """Until the table has moved on from ``seq`` (ana's move taken, or another's), or ``over``."""
    def stuck() -> str:
        legal = sorted(action_name(a) for a in screen.model.legal)
        board = " ".join(drawn(screen.query_one(TrucoBoard)).split())
        return f"the table to move on from {seq} (ana may {legal}; the board: {board!r})"

    await until(pilot, lambda: over() or screen.model.seq != seq, stuck)


async def press_card(pilot: Pilot[None], app: CardApp) -> bool:
    """Play the first card on offer by its key (1–3), as shown beside it."""
    board = table(app).query_one(TrucoBoard)
    for n in (1, 2, 3):
        if board._card_action(n) is not None:
            assert f"{n} " in board_text(app)
            await pilot.press(str(n))
            return True
    return False


# -- played by keys ----------------------------------------------------------------------------
async def truco_by_keys(table_server: Running) -> tuple[bool, str, int, bool, list[str]]:
    """One match at a new table, played by keys until ana has called truco and a team has taken that hand:
    whether that happened (False: the match ended first, the bots' raises won it before ana could call), the
    log, where ana's call begins in it, whether ana answered a raise, and the prompts she answered."""
    table_id = await create(table_server, game="truco_paulista", seats=4, bots=3, turn_seconds=600)
    app = CardApp(f"127.0.0.1:{table_server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_table(pilot, app, table_id)
        assert screen.seat == 0
        assert "partner" in board_text(app) or " us" in board_text(app)
        called = answered = False
        prompts: list[str] = []
        mark = 0

        def taken() -> bool:
            after = log_text(app).splitlines()[mark:]
            return called and any("take the hand" in line or "takes the hand" in line for line in after)

        def over() -> bool:
            view = screen.model.view
            return taken() or (view is not None and view.match_over)

        for _ in range(600):
            if not await my_move(pilot, app, over):
                break
            seq = screen.model.seq
            kinds = legal(app)
            keys = offered(app)
            if {"accept", "run"} & kinds and screen.model.view is not None and \
                    screen.model.view.truco.HasField("pending"):
                text = " ".join(board_text(app).split())
                prompts.append(text)
                assert "q Aceito" in text and "n Corro" in text, text
                await pilot.press(keys["accept"])
                answered = True
            elif "accept" in kinds:  # a mão de onze: play it
                await pilot.press(keys["accept"])
            elif "truco" in kinds and not called:
                assert "t Truco!" in labels(app)
                mark = len(log_text(app).splitlines())
                await pilot.press("t")
                called = True
            elif "keep" in kinds:
                await pilot.press("k")
            elif kinds & {"play", "play_blind"}:
                assert await press_card(pilot, app)
            await moved(pilot, screen, seq, over)
        return taken(), log_text(app), mark, answered, prompts


async def test_paulista_hand_by_keys_with_a_truco_answered(table_server: Running) -> None:
    for _ in range(3):  # a match the bots' raises won before ana could call truco is played again
        played, log, mark, answered, prompts = await truco_by_keys(table_server)
        if played:
            break
    assert played, log
    assert "ana: Truco!" in log, log
    assert re.search(r"(Aceito|Corro|Seis!)", log.split("ana: Truco!", 1)[1]), "the call was answered"
    assert any("take the hand" in line for line in log.splitlines()[mark:]), log
    assert not RAW.search(log), "the log shows cards as glyphs"
    if answered:
        assert any("this trick decides it, not best of three" in p for p in prompts), prompts


async def envido_by_keys(table_server: Running) -> tuple[bool, str, list[str]]:
    """One match at a new table, played by keys until ana has called the envido and the round it
    was called in is over: whether that happened (False: the match ended first, the bot's own
    falta envido won at once), the log, and what the screen told ana when a key was refused."""
    table_id = await create(table_server, game="truco_argentino", seats=2, bots=1, turn_seconds=600)
    app = CardApp(f"127.0.0.1:{table_server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_table(pilot, app, table_id)
        assert "malas" in board_text(app)
        called = False
        seen_envido = False
        mark = 0
        view = screen.model.view

        def taken() -> bool:
            log = log_text(app).splitlines()[mark:]
            return called and any("take the round" in line or "takes the round" in line for line in log)

        def ended() -> bool:
            return taken() or (screen.model.view is not None and screen.model.view.match_over)

        for _ in range(600):
            if not await my_move(pilot, app, ended):
                break
            seq = screen.model.seq
            kinds = legal(app)
            keys = offered(app)
            view = screen.model.view
            assert view is not None
            if called and view.truco.argentino.envido_calls:
                seen_envido = seen_envido or "called" in board_text(app)
            if "envido" in kinds and not called:
                assert keys["envido"] == "e" and "e Envido" in labels(app)
                mark = len(log_text(app).splitlines())
                await pilot.press("e")
                await moved(pilot, screen, seq, ended)
                # a key on a screen the table had moved on from is refused (docs/client.md §7): press again
                called = "ana: ¡Envido!" in "\n".join(log_text(app).splitlines()[mark:])
                continue
            if "announce" in kinds:
                assert "a Tengo" in board_text(app)
                await pilot.press("a")
            elif "son_buenas" in kinds:
                await pilot.press("b")
            elif "quiero" in kinds:
                text = " ".join(board_text(app).split())
                assert "q Quiero" in text and "n No quiero" in text, text
                await pilot.press("q")
            elif "play" in kinds:
                assert await press_card(pilot, app)
            await moved(pilot, screen, seq, ended)
        log = log_text(app)
        refused = [str(n.message) for n in notices(app)]
        if not called:
            final = screen.model.view
            assert final is not None and final.match_over, (log, refused)
            return False, log, refused
        assert seen_envido, (log, refused)
        return True, log, refused


async def test_argentino_hand_by_keys_with_an_envido_called_and_settled(table_server: Running) -> None:
    for _ in range(3):  # a match the bot's falta envido won before ana could call is played again
        played, log, refused = await envido_by_keys(table_server)
        if played:
            break
    assert played, log
    after = log.split("ana: ¡Envido!", 1)[1]
    assert re.search(r"wins the envido|No quiero", after), (log, refused)
    assert re.search(r"takes? the round", after), (log, refused)
    assert not RAW.search(log), "the log shows cards as glyphs"


async def test_signals_by_plus_and_minus_then_the_key(table_server: Running) -> None:
    table_id = await create(table_server, game="truco_argentino", seats=4, bots=3, bot_delay_ms=60_000,
                            turn_seconds=600)
    app = CardApp(f"127.0.0.1:{table_server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        await open_table(pilot, app, table_id)
        await until(pilot, lambda: "signal" in offered(app), "a signal on offer")
        assert offered(app)["signal"] == "s"
        first = next(label for label in labels(app) if label.startswith("s "))
        assert first.startswith("s Seña 1⚔"), first  # the first gesture: an eyebrow, the 1 of espadas
        await pilot.press("plus")
        second = next(label for label in labels(app) if label.startswith("s "))
        assert second.startswith("s Seña 1♧"), second  # a wink
        await pilot.press("minus", "minus")
        assert next(label for label in labels(app) if label.startswith("s ")).startswith("s Seña tanto")
        await pilot.press("plus")
        await pilot.press("s")
        await until(pilot, lambda: "You raise an eyebrow" in log_text(app), "the signal in the log")
        assert "You raise an eyebrow — 1⚔." in log_text(app)
        # Said on the signals line, which wraps when a bot has signalled too.
        assert "you raise an eyebrow: 1⚔" in " ".join(board_text(app).split())


async def test_the_prompt_never_offers_a_raise_the_view_forbids(table_server: Running) -> None:
    """We are on 6: we may raise their truco to seis, but not their nove to doze."""
    table_id = await create(table_server, game="truco_paulista", seats=4, bots=3, bot_delay_ms=60_000,
                            turn_seconds=3600)
    app = CardApp(f"127.0.0.1:{table_server.port}", "ana")
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_table(pilot, app, table_id)
        table_ = table_server.room.tables[table_id]
        game = GAMES["truco_paulista"]
        # A new hand from 6–3, bia (seat 1) the mão.
        state, events = game.resume(game.options(table_.options), game.seat_infos(table_.seating.names()),  # type: ignore[attr-defined]
                                    [6, 3, 6, 3], 0, 2, 424242)
        table_.match = Bound(game, state)  # type: ignore[arg-type]
        table_._changed(events)

        def bot(seat: int, kind: str) -> None:
            action = next(a for a in table_.match.legal_actions(seat) if a.type == kind)  # type: ignore[union-attr]
            table_.act(seat, action)

        async def settle() -> None:
            """Until the screen has shown the table's last change."""
            await until(pilot, lambda: screen.model.seq == table_.seq, "the screen to catch up with the table")
            await settled(pilot)  # what arrived together is drawn after the last of it

        bot(1, "keep")
        bot(1, "truco")
        await settle()
        text = board_text(app)
        assert "Them: Truco! — q Aceito / n Corro / t Seis!" in " ".join(text.split()), text
        assert "t Seis!" in labels(app)
        await pilot.press("t")
        await settle()
        assert "ana: Seis!" in log_text(app)
        bot(3, "nove")
        await settle()
        text = " ".join(board_text(app).split())
        assert screen.model.view is not None and not screen.model.view.truco.pending.raises
        prompt = text[text.index("Them: Nove!"):text.index("Corro: them +6")]
        assert prompt.startswith("Them: Nove! — q Aceito / n Corro · Aceito plays the hand for 9"), text
        assert "Doze" not in prompt and "raise" not in prompt, text
        assert "t" not in offered(app) and not any("Doze" in label for label in labels(app))
        await pilot.press("t")  # nothing: no raise on offer
        await settle()
        assert screen.model.view.truco.HasField("pending")
        await pilot.press("q")
        await settle()
        assert "ana: Aceito" in log_text(app)


# -- rigged positions on the real screen ---------------------------------------------------------
def paulista_truco() -> Position:
    """Trick 2 of a hand at 4–7: ana has played a card face down, and bia calls truco."""
    return Position("truco_paulista", FOUR, seed=5, scores=(4, 7)).play([
        (0, "keep", None), (0, "play", "4D"), (1, "play", "KH"), (2, "play", "2C"), (3, "play", "KS"),
        (2, "signal", "wink"), (0, "signal", "kiss"), (1, "signal", "eyebrow"),
        (2, "play", "5C"), (3, "play", "6C"), (0, "play_down", "5S"), (1, "truco", None),
    ])


def argentino_envido() -> Position:
    """Two players at 12–17 (malas and buenas): ana has led, and bia calls real envido."""
    return Position("truco_argentino", ["ana", "bia"], seed=3, scores=(12, 17)).play([
        (0, "play", "6b"), (1, "real_envido", None),
    ])


def announce_or_pass(pos: Position, seat: int) -> tuple[int, str, None] | None:
    kinds = {a.type for a in pos.match.legal_actions(seat)}
    return next(((seat, k, None) for k in ("announce", "son_buenas") if k in kinds), None)


def argentino_six() -> Position:
    """Six players, 3v3: the envido said and won, a truco accepted, eva gone to the deck."""
    pos = Position("truco_argentino", SIX, seed=3, scores=(12, 17))
    pos.play([(0, "play", "7e"), (1, "envido", None), (2, "quiero", None)]).lead(announce_or_pass)
    return pos.play([
        (2, "signal", "eyebrow"), (1, "play", "1e"), (2, "play", "5c"), (3, "truco", None), (4, "quiero", None),
        (3, "play", "7c"), (4, "play", "4o"), (5, "play", "6o"), (1, "play", "3o"), (4, "mazo", None),
    ])


def first_choice(pos: Position, seat: int) -> tuple[int, str, str | int | None] | None:
    actions = pos.match.legal_actions(seat)
    kinds = {a.type: a for a in actions}
    for k in ("announce", "son_buenas", "quiero", "accept", "keep"):
        if k in kinds:
            return seat, k, None
    if "play" in kinds:
        return seat, "play", str(kinds["play"].cards[0])
    return None


async def test_card_keys_stay_with_their_cards_and_d_plays_face_down() -> None:
    pos = Position("truco_paulista", FOUR, seed=5, scores=(4, 7)).play([
        (0, "keep", None), (0, "play", "5D"), (1, "play", "KH"), (2, "play", "2C"), (3, "play", "KS"),
        (2, "play", "5C"), (3, "play", "6C"),
    ])
    app = ScreenApp(pos, 0)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        text = board_text(app)
        assert "Your cards:  1 4♦  3 5♠" in text, text  # 5♦ (key 2) is gone; 5♠ keeps key 3
        assert "d face down" in text
        await pilot.press("2")  # the card played: nothing
        await settled(pilot)
        assert not app.conn.acted
        await pilot.press("d")
        assert "Face down:" in board_text(app)
        await pilot.press("3")
        await until(pilot, lambda: app.conn.acted, "the card sent")
        assert [(action_name(a), list(a.cards)) for a in app.conn.acted] == [("play_down", ["5S"])]
        assert app.conn.seen == [table(app).model.seq], "the press says what the screen had seen"


async def test_a_finger_plays_a_card_by_tapping_it() -> None:
    pos = Position("truco_paulista", FOUR, seed=5, scores=(4, 7)).play([(0, "keep", None)])
    app = ScreenApp(pos, 0)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        rows = screen_text(app).splitlines()
        y = next(i for i, row in enumerate(rows) if "Your cards:" in row)
        x = rows[y].index("5♠")
        assert await pilot.click(offset=(x, y))
        await until(pilot, lambda: app.conn.acted, "the card sent")
        assert [(action_name(a), list(a.cards)) for a in app.conn.acted] == [("play", ["5S"])]


async def test_spectators_see_teams_by_number_and_no_hand() -> None:
    app = ScreenApp(paulista_truco(), None)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        text = " ".join(board_text(app).split())
        assert "Team 1 4 · Team 2 7 tentos" in text, text
        assert "Team 2: Truco! — Team 1 answers Aceito / Corro / Seis" in text, text
        assert "Your cards" not in text and "partner" not in text and " us" not in text
        assert "winks" not in log_text(app), "signals go only to those who saw them"


async def test_the_hand_result_says_tricks_points_and_why() -> None:
    pos = paulista_truco().play([(0, "accept", None), (1, "play", "AD")])
    view = pos.view(0)
    model = TableModel(pos.summary(), 0).with_view(view, 1)
    summary = TrucoBoard().result_summary(model)
    assert summary is not None
    console = Console(width=76, record=True, file=io.StringIO())
    console.print(summary)
    text = console.export_text()
    assert "Hand 1: They take the hand for 3 tentos — won trick 2." in text, text
    assert re.search(r"1\s+4♦\s+K♥\s+2♣\s+K♠\s+carl \(us\)", text), text
    # Ana's own card played face down: she saw it, so her board shows it, marked down.
    assert re.search(r"2\s+5♠ down\s+A♦\s+5♣\s+6♣\s+bia \(them\)", text), text
    assert "Us +0 (4) · Them +3 (7 → 10)" in text, text
    assert max(len(line) for line in text.splitlines()) <= 76
    six = argentino_six().lead(first_choice)
    model = TableModel(six.summary(), 0).with_view(six.view(0), 1)
    console = Console(width=76, record=True, file=io.StringIO())
    console.print(TrucoBoard().result_summary(model))
    text = console.export_text()
    assert "Envido  Envido · said: bia 4, carl 25" in text, text
    assert "Shown   carl 5♡ 11♡ — the envido that won" in text, text
    assert "Points  Us +2 (12 → 14)" in text, text


def test_every_truco_event_in_the_players_words() -> None:
    pos = argentino_six().lead(first_choice)
    model = TableModel(pos.summary(), 0).with_view(pos.view(0), 1)
    said = [event_words(model, ev) for m in pos.messages(0, history=100) if m.HasField("update")
            for ev in m.update.events]
    text = "\n".join(s.text.plain for s in said if s is not None)
    for words in ("bia: ¡Envido!", "carl: Quiero", "carl: Tengo 25.", "carl wins the envido with 25: us +2.",
                  "carl raises an eyebrow — 1⚔.", "dora: ¡Truco!", "eva: Me voy al mazo.", "ana plays 7⚔.",
                  "Trick 1 to bia (them).", "They take the round for 2 points (on tricks).",
                  "carl shows 5♡ 11♡ (envido)."):
        assert words in text, (words, text)
    assert not RAW.search(text)
    paulista = paulista_truco().play([(0, "run", None)])
    model = TableModel(paulista.summary(), 0).with_view(paulista.view(0), 1)
    text = "\n".join(s.text.plain for m in paulista.messages(0, history=100) if m.HasField("update")
                     for ev in m.update.events if (s := event_words(model, ev)) is not None)
    for words in ("ana: Fico — keeps the cards.", "ana plays a card face down.", "bia: Truco!",
                  "You blow a kiss — a 2.", "carl winks — 7♥.", "ana: Corro.",
                  "They take the hand for 1 tento (the call was refused)."):
        assert words in text, (words, text)
    assert "raises an eyebrow" not in text or "(you caught it)" in text


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_the_log_calls_the_mano_what_the_board_calls_it(lang: str) -> None:
    """The argentino board tags the seat that leads "mano"; the log said "mão" in Portuguese."""
    pos = argentino_six().lead(first_choice)
    started = table_pb2.Event(seq=1, truco=truco_pb2.TrucoEvent(
        argentino_round_started=truco_pb2.ArgentinoRoundStarted(round=1, seats=list(range(6)), mano=1)))
    with speaking(lang):
        said = event_words(TableModel(pos.summary(), 0).with_view(pos.view(0), 1), started)
    assert said is not None and said.text.plain.endswith(" mano."), said
    assert "mão" not in said.text.plain


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es"])
def test_the_envido_summary_keeps_its_labels_apart_from_what_follows(lang: str) -> None:
    """Envido, Flor and Shown in one column with room after the longest ("Mostradasbot 4" ran together)."""
    view = truco_pb2.TrucoView(
        seats=[truco_pb2.TrucoSeat(seat=i) for i in range(2)],
        argentino=truco_pb2.ArgentinoPart(
            envido_calls=[truco_pb2.TRUCO_WORD_ENVIDO], flor_sung=[1],
            shown=[truco_pb2.TrucoShown(seat=1, cards=["10S", "12S"], reason=truco_pb2.TRUCO_SHOW_REASON_FLOR)]))
    summary = common_pb2.TableSummary(game="truco_argentino", seats=[
        common_pb2.SeatSummary(seat=0, name="ana", team=0), common_pb2.SeatSummary(seat=1, name="bot 4", team=1)])
    with speaking(lang):
        lines = [r.plain for r in TrucoBoard()._envido_result(TableModel(summary, 0), view) if isinstance(r, Text)]
        labels = ("Envido", "Flor", i18n._("Shown"))
    assert [text.split()[0] for text in lines] == [label.split()[0] for label in labels], lines
    after = {len(text) - len(text[len(label):].lstrip()) for text, label in zip(lines, labels, strict=True)}
    assert len(after) == 1, f"what follows each label starts in one column: {lines}"
    assert all(text[len(label)] == " " for text, label in zip(lines, labels, strict=True)), lines


# -- snapshots -----------------------------------------------------------------------------------
POSITIONS = {
    "paulista-4": (paulista_truco, 0),
    "argentino-2": (argentino_envido, 0),
    "argentino-6": (argentino_six, 0),
}


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
@pytest.mark.parametrize("name", list(POSITIONS))
def test_board_snapshot(snap_compare, name: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    build, seat = POSITIONS[name]
    assert snap_compare(ScreenApp(build(), seat), terminal_size=size, run_before=settle)


async def settle(pilot: Pilot[None]) -> None:
    await shown(pilot)



async def test_the_board_has_its_keys_back_when_a_summary_closes() -> None:
    """A hand's summary is drawn in the board's place: the board keeps its focus and its keys. A
    summary with buttons (a match's end) has a panel that hides the board (and so its focus);
    closing it gives the card keys back at once, not at the next message (a quiet table may send
    none until the player acts)."""
    build, seat = POSITIONS["paulista-4"]
    app = ScreenApp(build(), seat)
    async with app.run_test(size=SMALL) as pilot:
        await shown(pilot)
        screen = table(app)
        board = screen.query_one(TrucoBoard)
        assert screen.focused is board
        screen.summary_open = True
        screen._show_summary()
        await settled(pilot)
        assert board.display and board.account is not None and screen.focused is board
        assert "enter: back to the table" in screen_text(app)
        await pilot.press("enter")
        await settled(pilot)
        assert board.account is None and screen.focused is board
        assert "enter: back to the table" not in screen_text(app)
        screen.ended = (True, True)
        screen.summary_open = True
        screen._show_summary()
        await settled(pilot)
        assert not board.display and screen.focused is not board
        await pilot.press("enter")
        await settled(pilot)
        assert board.display and screen.focused is board, screen.focused
