"""A phone's guest plays by touch alone: headless Chromium with touch emulation joins a real server's
page, names the guest (typed on the phone's keyboard, sent by the page's own Enter key), opens a
table of each game with bots by tapping the lobby's footer and the form's lists and button, and
plays a whole hand by tapping its cards, the board's keys and the action bar, held upright (and on
its side for one game). Every tap is at a cell found by reading what the terminal shows (the page's
websocket output replayed into a screen), never at a fixed place. A screenshot of each table is
saved in the test's directory.

Chromium is Debian's; without one the test says so and is skipped (the ``chromium`` fixture).
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio

from cardtui.server.app import Running
from cardtui.server.web import WebLimits, WebServer, local_target, open_socket
from tools.web_shots import Device, Page, launch, open_page

UPRIGHT = Device("upright", 390, 844, 3.0, True, "Ana")
ON_ITS_SIDE = Device("on-its-side", 844, 390, 3.0, True, "Caio")
PLAYS = [("cacho", "Cacho", "2", UPRIGHT), ("truco_paulista", "Truco paulista", None, UPRIGHT),
         ("truco_argentino", "Truco argentino", "2", UPRIGHT), ("pifpaf", "Pif Paf", "2", UPRIGHT),
         ("cacheta", "Cacheta", "2", UPRIGHT), ("truco_argentino", "Truco argentino", "2", ON_ITS_SIDE)]
"""Each game: its name in the form's list, the players picked (None: the only count), the phone."""
BUTTONS = ("Check", "Call", "Pass", "Keep", "Aceito", "Quiero", "Bet", "Raise", "Stock")
"""The action bar's buttons tapped when the board offers nothing of its own, the first shown first."""
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
    return list(page.screen.display)


def entry(row: str) -> str:
    """The words of a list's entry on this row (between its edges), if the row is one."""
    found = re.search(r"▊ *([^▊▎▼▲]*?) *▎", row)
    return found.group(1) if found else ""


async def tap_row(page: Page, words: str, after: int) -> None:
    """Tap a row (below row ``after``) that says ``words`` and nothing else: a list's entry."""
    found = next((y for y, row in enumerate(rows(page)) if y > after and entry(row) == words), None)
    assert found is not None, f"no row {words!r} under row {after}:\n{page.text()}"
    await page.tap_cell(found, rows(page)[found].index(words) + len(words) / 2)


async def pick(page: Page, label: str, value: str) -> None:
    """Open the form's list beside ``label`` by a tap, and tap ``value`` in it."""
    y, x = page.find(label)
    line = rows(page)[y]
    shown = next(i for i in range(x + len(label), len(line)) if line[i] not in EDGES)
    await page.tap_cell(y, shown + 1)  # the list's choice now, beside its label
    await page.wait_for(lambda _t: any(entry(row) == value for row in rows(page)[y + 1:]), timeout=10)
    await tap_row(page, value, y)
    await page.wait_for(lambda _t: value in rows(page)[y], timeout=10)


async def tap_last(page: Page, words: str) -> None:
    """Tap ``words`` where the screen last shows them (the board's prompt is under the seats and piles)."""
    await page.tap(words, touch=True)


def bar_rows(page: Page) -> range:
    """The action bar's rows: under the line that says whose turn it is."""
    y = page.find("Your turn")[0]
    return range(y + 1, min(page.screen.lines - 1, y + 5))


async def step(page: Page) -> str:
    """Ana's turn, taken by taps: what was tapped."""
    text = page.text()
    if "k knocks" in text:
        await tap_last(page, "k knocks")
        return "knock"
    if "s from the stock" in text:
        await tap_last(page, "s from the stock")
        return "draw"
    if "d discards" in text:
        hand = page.find("Your hand")[0]
        cards = rows(page)[hand + 1]
        first = len(cards) - len(cards.lstrip())
        await page.tap_cell(hand + 1, first + 1)  # the hand's first card, picked
        await page.wait_for(lambda _t: "▲" in rows(page)[hand + 2][: first + 4], timeout=10)
        await tap_last(page, "d discards")
        return "card, discard"
    for words in ("x pass", "let it go"):
        if words in text:
            await tap_last(page, words)
            return words
    if "Your cards:" in text and "your card" in text:
        y = page.find("Your cards:")[0]
        match = re.search(r"\b[1-3] (\S+)", rows(page)[y].split(":", 1)[1])
        assert match is not None, rows(page)[y]
        x = rows(page)[y].index(match.group(1), len(rows(page)[y].split(":", 1)[0]))
        await page.tap_cell(y, x + 0.5)
        return "card"
    bar = bar_rows(page)
    shown = "\n".join(rows(page)[y] for y in bar)
    word = next((w for w in BUTTONS if re.search(rf"\b{w}\b", shown)), None)
    assert word is not None, f"nothing to tap:\n{text}"
    await page.tap(word, touch=True, rows=bar)
    return word


async def play(page: Page, server: Running, device: Device, game: str, out: Path) -> list[str]:
    """Until the table's first hand is stored: each of ana's turns taken by taps. What was tapped."""
    await page.wait_for(lambda t: "table ·" in t.splitlines()[0], timeout=20)
    match = re.search(r"table · ([0-9a-f]+)", rows(page)[0])
    assert match is not None, rows(page)[0]
    table = match.group(1)
    tapped: list[str] = []
    shot = False
    deadline = time.monotonic() + 240
    while not any(True for _ in server.store.hands.all(table)):
        assert time.monotonic() < deadline, f"no hand ended; tapped {tapped}:\n{page.text()}"
        try:
            await page.wait_for(lambda t: "Your turn" in t or any(True for _ in server.store.hands.all(table)),
                                timeout=15)
        except TimeoutError:
            continue
        if any(True for _ in server.store.hands.all(table)):
            break
        if not shot:
            await page.shot(out / f"table-{game}-{device.name}.png")
            shot = True
        before = page.text()
        tapped.append(await step(page))
        try:
            await page.wait_for(lambda t: t != before, timeout=15)
        except TimeoutError:
            pass  # the table had moved on as the tap came (a bot's turn): the next turn looks again
    return tapped


@pytest.mark.parametrize(("game", "title", "players", "device"), PLAYS,
                         ids=[f"{game}-{device.name}" for game, _t, _p, device in PLAYS])
async def test_a_hand_of_each_game_by_taps_alone(chromium: str, server: Running, web: WebServer, game: str,
                                                 title: str, players: str | None, device: Device,
                                                 tmp_path: Path) -> None:
    browser, devtools = await launch(chromium, device, tmp_path / "profile")
    try:
        async with aiohttp.ClientSession() as http:
            page = await open_page(http, devtools, device)
            await page.call("Page.navigate", url=f"http://127.0.0.1:{web.port}/")
            await page.wait_for("Your name at the tables")
            await page.tap("type it here", touch=True)
            await page.call("Input.insertText", text=device.guest)
            await page.tap_element('#keys button[data-key="enter"]')  # the page's own Enter key
            await page.wait_for(lambda t: "Watching" in t and f"{device.guest} @" in t)
            await page.tap("New", touch=True, rows=range(page.screen.lines - 1, page.screen.lines))
            await page.wait_for("Turn timer")
            await pick(page, "Game", title)
            if players is not None:
                await pick(page, "Players", players)
            await page.tap("Create", touch=True, rows=range(0, page.screen.lines - 2))
            tapped = await play(page, server, device, game, tmp_path)
            await page.shot(tmp_path / f"after-{game}-{device.name}.png")
            assert tapped, "ana had a turn"
            if game in ("cacheta", "pifpaf"):
                assert "card, discard" in tapped, tapped
            if game.startswith("truco"):
                assert "card" in tapped, tapped
            await page.ws.close()
    finally:
        browser.terminate()
        browser.wait(10)
