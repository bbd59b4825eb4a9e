"""The browser page, whole, in a real browser: headless Chromium joins a real server as a guest, and
its screenshots are read back to see that the terminal's first row is at the window's top and its
last at the bottom, held upright, on its side and on a laptop, in the lobby and at a table.

A phone does things to a page that a laptop does not, and the test does them too: it zooms into a
focused field (iOS does when the field's text is under 16 px, and stays zoomed) and scrolls that
field into view. The terminal is the page: nothing of it may go off screen for that.

Chromium is Debian's (``make test`` installs it where it is missing, as ``make web-shots`` does);
without one the test says so and is skipped.
"""

from __future__ import annotations

import base64
import shutil
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from cardtui.server.app import Running
from cardtui.server.web.site import WebLimits, WebServer, local_target, open_socket
from tools.web_shots import STARTING, Device, Page, launch, open_page

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here (make test installs Debian's chromium)")

Color = tuple[int, int, int]


@dataclass(frozen=True)
class Size:
    device: Device
    zooms: bool
    """A phone: it zooms into a focused field and scrolls to it."""


SIZES = [
    Size(Device("upright", 390, 844, 3.0, True, "Ana"), True),
    Size(Device("upright-android", 412, 915, 2.625, True, "Bia"), True),
    Size(Device("on-its-side", 844, 390, 3.0, True, "Caio"), True),
    Size(Device("laptop", 1366, 768, 1.0, False, "Dan"), False),
]

ROWS_OF = """(async (png) => {
  const blob = await (await fetch("data:image/png;base64," + png)).blob();
  const image = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(image.width, image.height);
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, image.height).data;
  const rows = [];
  for (let y = 0; y < image.height; y++) {
    const counts = new Map();
    for (let x = 0; x < image.width; x += 2) {
      const i = (y * image.width + x) * 4;
      const key = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    let best = 0, most = -1;
    for (const [key, n] of counts) { if (n > most) { best = key; most = n; } }
    rows.push(best);
  }
  return rows;
})"""
"""The colour most of each row of pixels of a PNG has, decoded by the browser itself (off screen:
the tab it runs in is behind the page under test)."""


@pytest_asyncio.fixture
async def web(server: Running) -> AsyncIterator[WebServer]:
    guests = WebServer(local_target("127.0.0.1", server.port), limits=WebLimits(per_address=4, total=8))
    await guests.start(open_socket("127.0.0.1", 0))
    try:
        yield guests
    finally:
        await guests.stop()


def background(page: Page, row: int) -> str:
    """The background most cells of a terminal row have, as the app drew it (the screen its bytes
    made): a colour as six hex digits, or "default" where nothing was drawn yet."""
    colors = Counter(page.screen.buffer[row][x].bg for x in range(page.screen.columns))
    return str(colors.most_common(1)[0][0])


def row_color(page: Page, row: int) -> Color:
    said = background(page, row)
    assert len(said) == 6, f"row {row} has no colour of its own: {said!r}"
    return int(said[0:2], 16), int(said[2:4], 16), int(said[4:6], 16)


def near(a: Color, b: Color) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 10


async def pixel_rows(page: Page, reader: Page) -> tuple[list[Color], str]:
    """A screenshot of what the window shows, each row of pixels as its most common colour.

    A screenshot waits for a frame to be drawn: the first one draws what the terminal holds (it
    paints in an animation frame), the second shows it."""
    await page.call("Page.captureScreenshot", format="png")
    shot = await page.call("Page.captureScreenshot", format="png")
    reply = await reader.call("Runtime.evaluate", awaitPromise=True, returnByValue=True,
                              expression=f"{ROWS_OF}({shot['data']!r})")
    rows = [((v >> 16) & 255, (v >> 8) & 255, v & 255) for v in reply["result"]["value"]]
    return rows, str(shot["data"])


def drawn(page: Page) -> bool:
    """The app has drawn every row of the terminal at its size now (a resize may be on its way)."""
    return all(len(background(page, row)) == 6 for row in (0, 1, page.screen.lines - 1))


async def whole(page: Page, reader: Page, where: str, out: Path) -> None:
    """The screenshot shows the terminal's first row at its top and its last at its bottom."""
    try:
        await page.wait_for(lambda _text: drawn(page))
    except TimeoutError as e:
        raise AssertionError(f"{where}: a row never drawn at {page.screen.columns}x{page.screen.lines} after "
                             f"{page.resizes} resizes ({page.sizes}); each row's background: "
                             f"{[background(page, r) for r in range(page.screen.lines)]}") from e
    top, bottom = row_color(page, 0), row_color(page, page.screen.lines - 1)
    under = row_color(page, 1)
    assert not near(top, under), "the first row must look unlike the one under it, or this could not fail"
    pixels, shot = await pixel_rows(page, reader)
    (out / f"{where}.png").write_bytes(base64.b64decode(shot))
    cell = len(pixels) / page.screen.lines  # at most one row's height, in pixels
    first = pixels[1: max(2, int(cell * 0.4))]
    assert all(near(p, top) for p in first), (
        f"{where}: the window's top is not the terminal's first row {top}: {first[:3]}… (screenshot in {out})")
    last = max((y for y, p in enumerate(pixels) if near(p, bottom)), default=-1)
    assert last >= len(pixels) - cell, (
        f"{where}: the terminal's last row ends at pixel row {last} of {len(pixels)}: a band under it "
        f"(screenshot in {out})")


async def zoom_into_the_focused_field(page: Page) -> None:
    """What a phone does when a field takes the focus: zoom in (iOS, for text under 16 px) and bring
    the field into view."""
    await page.call("Emulation.setPageScaleFactor", pageScaleFactor=1.6)
    await page.call("Runtime.evaluate", expression=(
        "document.activeElement && document.activeElement.scrollIntoView({block: 'end'})"))


@pytest.mark.parametrize("size", SIZES, ids=[s.device.name for s in SIZES])
async def test_the_first_row_shows_in_the_lobby_and_at_a_table(web: WebServer, size: Size, tmp_path: Path) -> None:
    assert CHROMIUM is not None
    device = size.device
    browser, devtools = await launch(CHROMIUM, device, tmp_path / "profile")
    try:
        async with aiohttp.ClientSession() as http:
            page = await open_page(http, devtools, device)
            reader = await reader_tab(http, devtools)
            await page.call("Page.bringToFront")  # a tab behind another paints no frames
            await page.call("Page.navigate", url=f"http://127.0.0.1:{web.port}/")
            await page.wait_for("Your name at the tables", timeout=STARTING)
            if device.touch:  # a tap on the terminal focuses it (and brings up a phone's keyboard)
                await page.tap("type it here", touch=True)
            else:
                await page.call("Runtime.evaluate",
                                expression="document.querySelector('.xterm-helper-textarea').focus()")
            if size.zooms:
                await zoom_into_the_focused_field(page)
            await page.call("Input.insertText", text=device.guest)
            await page.key("Enter", "Enter", 13, "\r")
            await page.wait_for(lambda t: "Watching" in t and f"{device.guest} @" in t, timeout=STARTING)
            await whole(page, reader, f"lobby-{device.name}", tmp_path)
            await page.key("n", "KeyN", 78, "n")
            await page.wait_for("Turn timer")
            await page.key("s", "KeyS", 83, ctrl=True)
            await page.wait_for(lambda t: "seat 1" in t.splitlines()[0] and "/ Chat" in t)
            await whole(page, reader, f"table-{device.name}", tmp_path)
            await page.ws.close()
            await reader.ws.close()
    finally:
        browser.terminate()
        browser.wait(10)


async def reader_tab(http: aiohttp.ClientSession, devtools: str) -> Page:
    """A blank tab of the same browser, where screenshots are decoded (the page under test is left alone)."""
    async with http.put(f"{devtools}/json/new?about:blank") as r:
        target: dict[str, Any] = await r.json(content_type=None)
    ws = await http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
    return Page(ws)
