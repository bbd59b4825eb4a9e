"""A phone's guest plays by touch alone: headless Chromium with touch emulation joins a real server's
page, names the guest (typed on the phone's keyboard, sent by the page's own Enter key), opens a
table of each game with bots by tapping the lobby's footer and the form's lists and button, and
plays a whole hand by tapping its cards, the board's keys and the action bar, held upright (and on
its side for one game). Every tap is at a cell found by reading what the terminal shows (the page's
websocket output replayed into a screen), never at a fixed place. A screenshot of each table is
saved in the test's directory.

Chromium is Debian's; without one the test says so and is skipped (the ``chromium`` fixture). The hands held one
way run on one worker (an xdist group, with ``test_web_phone``'s upright phone), which keeps one browser for them,
each test playing in a context of its own (``tests/browsers.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TypeVar

import aiohttp
import pytest
import pytest_asyncio

from cardtui.client import gamebook
from cardtui.server.app import Running
from cardtui.server.web.site import WebLimits, WebServer, local_target, open_socket
from tests.browsers import Browsers
from tests.client.rummy_rig import short_hands
from tests.per_game import Taps, declared
from tools.web_shots import STARTING, Device, Page, fresh_context, open_page

UPRIGHT = Device("upright", 390, 844, 2.0, True, "Ana")
ON_ITS_SIDE = Device("on-its-side", 844, 390, 2.0, True, "Caio")
"""Phones of two device pixels to a CSS pixel (most Androids, the smaller iPhones). A headless browser
paints every frame in software: at three, the bigger iPhones', it painted 2.3 times as much for a hand of
Pif Paf (22 s of the browser's CPU against 9.6 s), and the page lays itself out in CSS pixels alike. Its
layout at three is tests/test_web_page.py's."""
FIELD = "[▊█]"
"""What a number's field begins with: its own tall edge, or (on a phone's side, 24 rows, where a field has no
edge) the dialog's."""
FORM = "New table"
"""The create form's title, shown however far the form is scrolled (on a phone's side, 24 rows, its first fields
go off the top once it is swiped down to the claim window's)."""
TAPS = {game: tests.taps for game, tests in declared().items() if tests.taps is not None}
PLAYS = [(game, device) for device in (UPRIGHT, ON_ITS_SIDE) for game, taps in TAPS.items()
         if device is UPRIGHT or taps.on_its_side]
"""Each game held upright, and on its side unless its board is one the others already play on their side (a hand
of taps is among the slowest tests): what the game's tests say of it (``GameTests.taps``), the phone. A field
(``Taps.fields``) is typed on the phone's keyboard, below the fold: the form is swiped up to it."""
BUTTONS = ("Check", "Call", "Pass", "Keep", "Aceito", "Quiero", "Tengo", "Son buenas", "Bet", "Raise", "Stock")
"""The action bar's buttons tapped when the board offers nothing of its own, the first shown first;
else the bar's first button."""
T = TypeVar("T")

EDGES = "▊▎█▌▐│ "
"""What a list's row has around its words."""


@pytest_asyncio.fixture
async def web(server: Running) -> AsyncIterator[WebServer]:
    guests = WebServer(local_target("127.0.0.1", server.port), limits=WebLimits(per_address=4, total=8))
    await guests.start(open_socket("127.0.0.1", 0))
    try:
        yield guests
    finally:
        await guests.stop()


def rows(page: Page) -> list[str]:
    return list(page.lines())


def entry(row: str, column: int) -> str:
    """The words a list shows on this row, from ``column`` (where the list's words begin) to its edge."""
    return row[column:].strip(EDGES + "▼▲")


RESPONSE = 20.0
"""Seconds the page may take to show a tap's answer: the tap goes through the browser, the page, the guest's
client (a process of its own) and back, each slow on a host busy with other work (at a load of 18 on two cores,
ten seconds were not always enough for a focused field's cursor). A tap that missed is found out only by this
wait, so it is a wait for an answer that comes, not a pause."""


async def shows(page: Page, found: Callable[[], T | None], timeout: float = RESPONSE) -> T:
    """Until ``found()`` finds something on the screen (looked at whenever the page's terminal changes):
    what it found, at once (``Page.wait_for`` lets the frame finish drawing first: a turn of a rummy
    hand is a few of these, and a hand some thirty turns)."""
    deadline = time.monotonic() + timeout
    while (row := found()) is None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"not on the screen:\n{page.text()}")
        page.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(page.changed.wait(), left)
    return row


async def until(page: Page, ok: Callable[[], bool], timeout: float) -> None:
    """Until ``ok()`` holds, looked at whenever the page's terminal changes."""
    await shows(page, lambda: 0 if ok() else None, timeout)


def field(page: Page, label: str) -> tuple[int, int] | None:
    """The row of the form's field beside ``label``, and the column its words begin at (None: not on the
    screen). The form's, right of the lobby's columns (on its side, the form is beside them), and its
    last row that says it (the lobby's header says "Game" too)."""
    lines = rows(page)
    y = max((y for y, row in enumerate(lines) if label in row), default=None)
    if y is None:
        return None
    x = lines[y].rfind(label)
    column = next((i for i in range(x + len(label), len(lines[y])) if lines[y][i] not in EDGES), None)
    return None if column is None else (y, column)


def chosen(page: Page, label: str) -> str | None:
    """What the form's field beside ``label`` shows now, wherever the form has moved it."""
    at = field(page, label)
    return None if at is None else entry(rows(page)[at[0]], at[1])


async def pick(page: Page, label: str, values: tuple[str, ...]) -> None:
    """Open the form's list beside ``label`` by a tap, and tap the first of ``values`` it shows (a long
    list shows the part around its choice now). The form lays itself out again when its game
    changes (taller or shorter, so it moves up or down the screen): a tap that came as it did is
    tapped again (on a busy machine, a few times)."""
    missed: list[str] = []
    for _ in range(8):
        if "Dismiss menu" in page.text() and any("▲" in row for row in rows(page)):
            # a list left open (another's: a tap that landed as the form moved). Its arrow says so, not the
            # footer alone: the footer offers its Escape a frame after the list has closed, and an Escape then
            # goes to the form, which it cancels.
            with contextlib.suppress(LookupError, TimeoutError):
                await tap_first(page, "Dismiss menu")  # the footer's key, tapped
                await page.wait_for(lambda t: "Dismiss menu" not in t, timeout=RESPONSE)
        # the label's row, once the page shows it (a tap that landed on Cancel closed the form: the caller
        # opens it again)
        y, column = await shows(page, lambda: field(page, label))
        if entry(rows(page)[y], column) in values:
            return
        await page.tap_cell(y, column + 1)  # the list's choice now, beside its label
        try:  # open: its arrow turned up (until then the rows below are the form's other fields, whose
            # values may be the very words looked for: the Bots under the Players)
            await shows(page, lambda y=y: 0 if "▲" in rows(page)[y] else None)
        except TimeoutError:
            missed.append(f"row {y}: no list opened")
            continue  # the tap landed elsewhere as the form moved: another list, open, is dismissed above

        def offered(y: int = y, column: int = column) -> int | None:
            return next((row for v in values for row in range(y + 1, page.screen.lines)
                         if entry(rows(page)[row], column) == v), None)

        try:
            row = await shows(page, offered)  # tapped at once: an opened list may scroll to its choice
            value = entry(rows(page)[row], column)
            await page.tap_cell(row, column + len(value) / 2)
            # taken: the field shows it (a new game's form is taller, and higher up the screen)
            await page.wait_for(lambda _t, value=value: chosen(page, label) == value, timeout=RESPONSE)
            return
        except TimeoutError:
            missed.append(f"row {y}: opened, {chosen(page, label)!r} shown after the tap")
            continue
    raise AssertionError(f"none of {values} picked for {label!r} ({'; '.join(missed)}):\n{page.text()}")


async def fill(page: Page, label: str, value: str) -> None:
    """Swipe the form up until the field under ``label`` shows, tap it, and type ``value`` over what it
    holds (the phone keyboard's backspace, then the letters)."""
    for _ in range(12):
        found = page.found(label)
        if found:
            y = page.find(label)[0]
            field = next((row for row in range(y + 1, min(page.screen.lines - 3, y + 6))
                          if re.search(FIELD + r"\s+\d+\s", rows(page)[row])), None)
            if field is not None:
                break
        middle = page.screen.lines // 2
        before = page.text()
        await page.swipe(middle + 8, middle - 8, page.screen.columns / 2)  # up the screen: the form scrolls on
        await page.wait_for(lambda t, before=before: t != before, timeout=RESPONSE)  # scrolled (the field is below)
    else:
        raise AssertionError(f"{label!r} never came into sight:\n{page.text()}")
    line = rows(page)[field]
    now = re.search(FIELD + r"\s+(\d+)", line)
    assert now is not None, line
    await page.tap_cell(field, now.start(1) + len(now.group(1)))  # at the end of its digits
    # Focused once its cursor shows after the digits (a key sent sooner goes where the focus was).
    at = now.end(1)
    await until(page, lambda: (page.screen.buffer[field][at].reverse
                               or page.screen.buffer[field][at].bg != page.screen.buffer[field][at + 2].bg), RESPONSE)

    def digits() -> str:
        """The field's digits ("" while it shows its placeholder, "0 to 60000")."""
        held = re.search(FIELD + r"\s+(\d+)(\s+to\s)?", rows(page)[field])
        return "" if held is None or held.group(2) else held.group(1)

    # A key at a time, each seen taken before the next, as a finger types.
    for n in range(len(now.group(1)) - 1, -1, -1):
        await page.key("Backspace", "Backspace", 8)
        await until(page, lambda n=n: digits() == now.group(1)[:n], RESPONSE)
    for n in range(1, len(value) + 1):
        await page.call("Input.insertText", text=value[n - 1])
        await until(page, lambda n=n: digits() == value[:n], RESPONSE)


async def tap_first(page: Page, words: str, anchor: str | None = None) -> None:
    """Tap ``words`` where the screen first shows them (on the first row that shows ``anchor`` too): the
    board is above the log on a phone held upright, left of it on its side, and the log may say the
    same words."""
    y = next((y for y, row in enumerate(rows(page)) if words in row and (anchor is None or anchor in row)), None)
    if y is None:
        raise LookupError(f"{words!r} is not on the screen:\n{page.text()}")
    await page.tap_cell(y, rows(page)[y].index(words) + len(words) / 2)


def bar_rows(page: Page) -> range:
    """The action bar's rows: under the line that says whose turn it is."""
    y = page.find("Your turn")[0]
    return range(y + 1, min(page.screen.lines - 1, y + 5))


async def gone(page: Page, words: str) -> None:
    """Until the board no longer offers ``words`` (the tap taken): a busy machine takes a while, and a
    second tap meanwhile would be refused."""
    with contextlib.suppress(TimeoutError):
        await until(page, lambda: words not in page.text(), 20)


async def step(page: Page) -> str | None:
    """Ana's turn, taken by taps: what was tapped (None: the screen has moved on since the turn was seen,
    a claim window closed or a bar redrawn, and there is nothing of hers to tap now)."""
    if not her_turn(page):
        return None
    try:
        return await _step(page)
    except LookupError:  # the words to tap went from the screen between the look and the tap
        return None


async def _step(page: Page) -> str | None:
    text = page.text()
    for words in ("k knocks", "k closes with"):  # a knock, or a close
        if words in text:
            await tap_first(page, words)
            await gone(page, words)
            return "knock"
    if "Draw: s from the stock" in text:  # the prompt's (the log says "bot 2 draws from the stock")
        await tap_first(page, "s from the stock", "Draw:")
        await gone(page, "Draw: s from the stock")
        return "draw"
    if "d discards" in text:
        hand = page.find("Your hand")[0]
        cards = rows(page)[hand + 1]
        first = len(cards) - len(cards.lstrip())
        await page.tap_cell(hand + 1, first + 1)  # the hand's first card, picked
        try:
            await until(page, lambda: any("▲" in row[first: first + 5] for row in rows(page)[hand + 2: hand + 6]),
                        RESPONSE)  # the cursor's mark under it
        except TimeoutError:
            return None  # the tap came as the hand was drawn again (or the discard was taken already): again
        await tap_first(page, "d discards")
        await gone(page, "d discards")
        return "card, discard"
    for words in ("· x pass", "x let it go"):  # the window's keys (the log says "You let it go.")
        if words in text:
            await tap_first(page, words)
            await gone(page, words)
            return words
    if cards_to_play(text):
        y = page.find("Your cards:")[0]
        match = re.search(r"\b[1-3] (\S+)", rows(page)[y].split(":", 1)[1])
        assert match is not None, rows(page)[y]
        x = rows(page)[y].index(match.group(1), len(rows(page)[y].split(":", 1)[0]))
        await page.tap_cell(y, x + 0.5)
        return "card"
    try:
        bar = bar_rows(page)
    except LookupError:
        return None  # no longer her turn
    shown = "\n".join(rows(page)[y] for y in bar)
    word = next((w for w in BUTTONS if re.search(rf"\b{w}\b", shown)), None)
    if word is None:  # a button's words follow its key: "f Flor"
        first = re.search(r"\b[a-z0-9] (\w[\w!¡ ]*?)(?:  |$)", shown)
        if first is None and not her_turn(page):
            return None  # the bar was redrawn between the two looks: a signal alone is left
        assert first is not None, f"nothing to tap:\n{text}"
        word = first.group(1)
    await page.tap(word, touch=True, rows=bar)
    return word


ATTEMPTS = 5
"""Times the form is opened and filled before the test gives up: on a busy machine its relayouts are slow,
and a tap that comes during one may land on another field or on Cancel."""


async def create(page: Page, server: Running, game: str, title: str, taps: Taps) -> None:
    """The lobby's New, the form filled by taps, and Create. A tap that lands as the form lays itself
    out again may close it (a finger on Cancel), or open a list beside another label than the one meant:
    the form is opened again (cancelled first) and filled again, as a player would."""
    def shown() -> bool:
        return at_a_table(page.text())

    tried: list[str] = []
    """What each attempt met, for the message if none makes the table."""
    for attempt in range(ATTEMPTS):
        if shown():
            # a tap meant for a field landed on Create as the form laid itself out again: the table is made
            # (its game picked, a count perhaps not), and a hand of it is what the test plays
            assert title in page.text().splitlines()[0], f"a table of another game was made:\n{page.text()}"
            return
        if FORM not in page.text():
            await page.tap("New", touch=True, rows=range(page.screen.lines - 1, page.screen.lines))
            await page.wait_for(FORM)
        try:
            await pick(page, "Game", (title,))
            if taps.players is not None:
                await pick(page, "Players", taps.players)
            for field, typed in taps.fields:  # a short claim window; a target the short hand leaves her past
                await fill(page, field, typed)
        except (AssertionError, TimeoutError) as error:
            tried.append(f"{attempt}: a pick failed ({str(error).splitlines()[0]}), the form "
                         + ("open" if FORM in page.text() else "closed"))
            if FORM in page.text():
                if attempt == ATTEMPTS - 1:
                    raise AssertionError("\n".join(tried)) from error
                # a list the form's relayout put under a tap stays open, and taps meant for another field
                # land in it: the form cancelled (the second tap on Cancel, if the first only closed the
                # list) and opened again, as a player would
                for _tap in range(3):
                    with contextlib.suppress(LookupError, TimeoutError):
                        await tap_first(page, "Cancel")
                        await page.wait_for(lambda t: FORM not in t, timeout=RESPONSE)
                        break
            continue  # the form closed under a tap: opened again
        for _tap in range(3):
            if shown():
                return  # made by the tap before, shown since
            try:
                await page.tap("Create", touch=True, rows=range(0, page.screen.lines - 2))
                await page.wait_for(lambda _t: shown(), timeout=30)  # a busy machine is slow
                return
            except (LookupError, TimeoutError):  # (no Create: the form has closed as the tap came)
                if server.room.tables and not shown():
                    # made, and Caio back in the lobby: a tap meant for Create landed on the table's screen
                    # as it opened (on a key that leaves a table whose match has not begun); he taps its row
                    # to sit again, as a player would
                    await sit_at_the_one_table(page, title)
                    return
                if FORM not in page.text():
                    if shown():
                        return
                    tried.append(f"{attempt}: the form closed as Create was tapped")
                    break  # the form closed without its table (the tap landed on Cancel): opened again
                # the tap landed on another of the form's fields as it laid itself out again: Create again
        else:
            raise AssertionError(f"Create tapped three times, the form still open:\n{page.text()}")
    raise AssertionError(f"no table after {ATTEMPTS} attempts:\n" + "\n".join(tried) + f"\n{page.text()}")


async def sit_at_the_one_table(page: Page, title: str) -> None:
    """From the lobby, its one table (of the game ``title``, nobody at it) tapped, and the page's Enter, until
    the client sits there (a busy machine may take its time to open the table's screen)."""
    for _tap in range(3):
        if at_a_table(page.text()):
            return
        with contextlib.suppress(LookupError, TimeoutError):
            heading, _x = page.find("People")  # the list's heading: the table's row is the next
            await page.tap(title, touch=True, rows=range(heading + 1, heading + 2))
            await page.tap_element('#keys button[data-key="enter"]')  # the page's own Enter key
            await page.wait_for(at_a_table, timeout=30)
            return
    assert at_a_table(page.text()), f"the table made, and not sat at:\n{page.text()}"


def at_a_table(text: str) -> bool:
    """Whether the screen is a table's (its title names it: "<name> · <id> — seat n")."""
    return "table ·" in text.splitlines()[0]


SIGNS = re.compile(r"\b[a-z] (Sinal|Seña)\b[^▔▁]*?±")
"""A truco signal's button: a partner may signal at any time, which is not a turn to play."""


def her_turn(page: Page) -> bool:
    """Whether the table waits on ana for more than a signal to her partner (the turn line says it is her
    turn while the bar offers her a signal alone)."""
    if "Your turn" not in page.text():
        return False
    try:
        shown = "\n".join(rows(page)[y] for y in bar_rows(page))
    except LookupError:  # gone between the two looks
        return False
    return re.sub(r"[\s▔▁─]+", "", SIGNS.sub("", shown)) != "" or cards_to_play(page.text())


def cards_to_play(text: str) -> bool:
    """Whether the truco board offers her cards to play: "← your card", or from the second trick "· d face
    down" in its place."""
    return "Your cards:" in text and ("your card" in text or "face down" in text)


async def play(page: Page, server: Running, device: Device, game: str, out: Path) -> list[str]:
    """Until a hand in which ana had a turn is stored (at four, truco's bots may end the first without
    her: one calls, the other side runs): each of her turns taken by taps. What was tapped."""
    match = re.search(r"table · ([0-9a-f]+)", rows(page)[0])
    assert match is not None, rows(page)[0]
    table = match.group(1)
    tapped: list[str] = []
    shot = False
    deadline = time.monotonic() + 420
    before_her_turn = 0
    """The hands stored before her first turn."""

    def stored() -> int:
        return sum(1 for _ in server.store.hands.all(table))

    def over() -> bool:
        return stored() > before_her_turn

    while True:
        assert time.monotonic() < deadline, f"no hand ended; tapped {tapped}:\n{page.text()}"
        try:
            await until(page, lambda: her_turn(page) or over(), 15)
        except TimeoutError:
            continue
        if over():
            if tapped:
                break
            before_her_turn = stored()  # a hand without her turn (stored before she looked, perhaps): the next
            continue
        if not shot:
            await page.shot(out / f"table-{game}-{device.name}.png")
            shot = True
            for keys in ("←/→", "⇧←", "←→"):  # at her turn too: the board and its key row name no arrows
                assert keys not in page.text(), f"{keys!r} on a touch board:\n{page.text()}"
        before = page.text()
        took = await step(page)
        if took is not None:
            tapped.append(took)
            await moved(page, before)
    return tapped


def timeless(text: str) -> str:
    """The screen's text without its countdowns (the turn's, a claim window's): they tick on their own."""
    return re.sub(r"\d+ s\b", "", text)


async def moved(page: Page, before: str) -> None:
    """Until the screen shows more than a countdown's tick since ``before`` (the tap's action taken, or
    the table moved on as it came: the next turn looks again either way). A moment for the rest of
    the frame: the next step reads the screen again, and a tap it makes at a place that moved meanwhile
    is looked at again (``gone``, the cursor's mark)."""
    with contextlib.suppress(TimeoutError):
        await page.wait_for(lambda t: timeless(t) != timeless(before), timeout=15, settle=0.15)


@pytest.mark.timeout(600)  # a hand of taps on a machine that may be busy
@pytest.mark.parametrize(("game", "device"), [
    pytest.param(game, device, id=f"{game}-{device.name}", marks=pytest.mark.xdist_group(f"phone-{device.name}"))
    for game, device in PLAYS])
async def test_a_hand_of_each_game_by_taps_alone(browsers: Browsers, server: Running, web: WebServer, game: str,
                                                 device: Device, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    taps, title, tests = TAPS[game], gamebook.get(game).title, declared()[game]
    if tests.short_hand is not None:
        short_hands(game, monkeypatch)
    devtools = browsers.devtools(device)
    async with aiohttp.ClientSession() as http, fresh_context(http, devtools) as context:
        page = await open_page(http, devtools, device, context)
        await page.call("Page.navigate", url=f"http://127.0.0.1:{web.port}/")
        await page.wait_for("Your name at the tables", timeout=STARTING)
        await page.tap("type it here", touch=True)
        await page.call("Input.insertText", text=device.guest)
        await page.tap_element('#keys button[data-key="enter"]')  # the page's own Enter key
        await page.wait_for(lambda t: "Watching" in t and f"{device.guest} @" in t, timeout=STARTING)
        await create(page, server, game, title, taps)
        tapped = await play(page, server, device, game, tmp_path)
        await page.shot(tmp_path / f"after-{game}-{device.name}.png")
        for hint in ("←/→", "enter sends", "enter: back", "esc back"):  # a touch board names no keys
            assert hint not in page.text(), f"{hint!r} on a touch board:\n{page.text()}"
        assert tapped, "ana had a turn"
        if "discard" in tests.offered:
            assert "card, discard" in tapped, tapped
        if taps.match_in_one:  # the match is over, and the page says who won it
            await page.wait_for("wins the match", timeout=RESPONSE)
        if game.startswith("truco"):  # a card tapped, unless the hand ended as the bots ran from ana's truco
            assert "card" in tapped or tapped[-1] == "Truco", tapped
        await page.ws.close()
