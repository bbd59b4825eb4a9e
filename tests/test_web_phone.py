"""A phone's guest in a real browser: on its side, loaded so or turned, the terminal fits the window at the new
side's font, its first row at the window's top, whether the phone's pixel ratio is the browser's own or only
emulated (as a browser's phone emulation does); the page's row of keys answers every tap, a chat line having
the focus or not; a touch board names no keys; and the line mode's sentences reach the page's region for a
screen reader whole, never broken where the terminal's rows end.

Headless Chromium (Debian's) over the DevTools protocol joins a real server's page; what the page shows is
read back from its websocket's terminal output (``tools.web_shots.Page``) and from its screenshots
(``tests.test_web_page.whole``), each left in the test's directory.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from cardtui.server.app import Running
from cardtui.server.web.site import WebServer
from tests.browsers import Browsers
from tests.test_web_page import near, pixel_rows, reader_tab, row_color, web, whole  # noqa: F401  (the fixture)
from tools.web_shots import STARTING, Device, Page, fit_of, fresh_context, launch, open_page, set_size

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here (make test installs Debian's chromium)")

SIDES = [(844, 390), (932, 430)]
"""Two phones on their side (an iPhone 12 to 14, a Pro Max), in CSS pixels."""


async def emulated(page: Page, width: int, height: int, ratio: float) -> None:
    """A phone as a browser's phone emulation makes one: its pixel ratio only emulated, its orientation said."""
    angle, kind = (0, "portraitPrimary") if height >= width else (90, "landscapePrimary")
    await page.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=ratio,
                    mobile=True, screenOrientation={"type": kind, "angle": angle})


async def named(page: Page, url: str, guest: str) -> None:
    await page.call("Page.navigate", url=url)
    await page.wait_for("Your name at the tables", timeout=STARTING)
    await page.tap("type it here", touch=True)
    await page.call("Input.insertText", text=guest)
    await page.tap_element('#keys button[data-key="enter"]')
    await page.wait_for(lambda t: "Watching" in t and f"{guest} @" in t)


async def fits(page: Page, width: int, height: int) -> dict[str, float]:
    """The terminal is at least 80x24 and covers the window at ``width``x``height``, once the page has fitted it."""
    for _ in range(50):
        fit = await fit_of(page)
        box = await page.call("Runtime.evaluate", returnByValue=True,
                              expression="[window.innerWidth, window.innerHeight]")
        if box["result"]["value"] == [width, height] and fit["cols"] >= 80 and fit["rows"] >= 24 \
                and fit["covers"] >= 0.85:
            return fit
        page.changed.clear()
        try:
            import asyncio

            await asyncio.wait_for(page.changed.wait(), 0.5)
        except TimeoutError:
            pass
    raise AssertionError(f"at {width}x{height} the terminal never fitted: {await fit_of(page)}")


@pytest.mark.parametrize("ratio", ["own", "emulated"])
@pytest.mark.parametrize(("width", "height"), SIDES, ids=[f"{w}x{h}" for w, h in SIDES])
async def test_a_phone_on_its_side_fits_loaded_so_or_turned(web: WebServer, width: int, height: int,  # noqa: F811
                                                            ratio: str, tmp_path: Path) -> None:
    assert CHROMIUM is not None
    emulate = ratio == "emulated"
    for how in ("loaded", "turned"):
        first = (width, height) if how == "loaded" else (height, width)
        device = Device(f"{how}-{width}x{height}-{ratio}", *first, 1.0 if emulate else 3.0, True, "Ana")
        browser, devtools = await launch(CHROMIUM, device, tmp_path / f"profile-{how}")
        try:
            async with aiohttp.ClientSession() as http:
                page = await open_page(http, devtools, device)
                reader = await reader_tab(http, devtools)
                if emulate:
                    await emulated(page, *first, 3.0)
                await page.call("Page.bringToFront")
                await named(page, f"http://127.0.0.1:{web.port}/", device.guest)
                if how == "turned":
                    upright = await fits(page, *first)
                    await (emulated(page, width, height, 3.0) if emulate else set_size(page, width, height, True))
                fit = await fits(page, width, height)
                await whole(page, reader, f"lobby-{device.name}", tmp_path)
                await rows_in_place(page, reader, device.name)
                if how == "turned":
                    assert fit["cell_w"] > upright["cell_w"] * 1.2, (
                        f"the font stayed the upright one: {upright} then {fit}")
                await page.ws.close()
                await reader.ws.close()
        finally:
            browser.terminate()
            browser.wait(10)


async def rows_in_place(page: Page, reader: Page, where: str) -> None:
    """Each of the terminal's rows is drawn where its cells are: the second row's colour at the middle of the
    second row of cells, the second to last's at the middle of its own (text drawn at another pixel ratio than
    its grid came out three times too large, the window showing its first eight rows)."""
    pixels, _shot = await pixel_rows(page, reader)
    box = await page.call("Runtime.evaluate", returnByValue=True, expression=(
        "(() => { const r = document.querySelector('.xterm-screen').getBoundingClientRect();"
        " return [r.top, r.height, window.innerHeight]; })()"))
    top, height, window = box["result"]["value"]
    scale = len(pixels) / window
    for row in (1, page.screen.lines - 2):
        y = int((top + (row + 0.5) * height / page.screen.lines) * scale)
        assert near(pixels[y], row_color(page, row)), f"{where}: row {row} is not drawn where its cells are"


async def at_a_table(page: Page) -> None:
    """A table of the form's usual choices (Cacho, bots in the other seats), made by taps."""
    await page.tap("New", touch=True, rows=range(page.screen.lines - 1, page.screen.lines))
    await page.wait_for("Turn timer")
    await page.tap("Create", touch=True, rows=range(0, page.screen.lines - 2))
    await page.wait_for(lambda t: "/ Chat" in t and "seat 1" in t.splitlines()[0], timeout=40)


async def taps_taken(page: Page) -> int:
    reply: dict[str, Any] = await page.call("Runtime.evaluate", returnByValue=True,
                                            expression="window.cardtuiTaps || 0")
    return int(reply["result"]["value"])


@pytest.mark.xdist_group("phone-upright")  # one browser for the upright phone (test_web_taps)
async def test_the_key_row_answers_every_tap_even_with_the_chat_line_focused(
        web: WebServer, server: Running, browsers: Browsers, tmp_path: Path) -> None:  # noqa: F811
    """At a table, after a line of chat (the chat line keeps the focus, for the next line): help opens at each
    tap of its key and closes at Back, five times; nothing of it lands in the chat line."""
    assert CHROMIUM is not None
    device = Device("upright", 390, 844, 2.0, True, "Bia")
    devtools = browsers.devtools(device)
    async with aiohttp.ClientSession() as http, fresh_context(http, devtools) as context:
        page = await open_page(http, devtools, device, context)
        await named(page, f"http://127.0.0.1:{web.port}/", device.guest)
        await at_a_table(page)
        await page.tap_element('#keys button[data-key="chat"]')
        await page.wait_for("Enter sends it")  # the chat line's words on a touch screen: no key named
        await page.call("Input.insertText", text="hi")
        await page.tap_element('#keys button[data-key="enter"]')
        await page.wait_for(lambda t: "Bia: hi" in t)
        for tap in range(5):
            await page.tap_element('#keys button[data-key="help"]')
            await page.wait_for(lambda t: "high to low" in t.lower() or "best first" in t.lower(), timeout=15,
                                settle=0.2)
            if tap == 0:
                await page.shot(tmp_path / "help-by-tap.png")
            await page.tap_element('#keys button[data-key="escape"]')
            await page.wait_for(lambda t: "/ Chat" in t.splitlines()[-1], timeout=15, settle=0.2)
        assert await taps_taken(page) == 13, "every tap of the row was taken (its Enter twice, chat once, ten more)"
        assert "?" not in page.text().splitlines()[-3], "nothing typed into the chat line"
        await page.ws.close()


@pytest.mark.xdist_group("phone-upright")  # one browser for the upright phone (test_web_taps)
async def test_the_line_modes_sentences_reach_the_pages_region_whole(web: WebServer, browsers: Browsers,  # noqa: F811
                                                                    tmp_path: Path) -> None:
    """?screen-reader=1 on a phone: each sentence is one paragraph of the page's region, however many of the
    terminal's rows it takes; xterm.js's own reading of the rows is off."""
    assert CHROMIUM is not None
    device = Device("upright", 390, 844, 2.0, True, "Caio")
    devtools = browsers.devtools(device)
    async with aiohttp.ClientSession() as http, fresh_context(http, devtools) as context:
        page = await open_page(http, devtools, device, context)
        await page.call("Page.navigate", url=f"http://127.0.0.1:{web.port}/?screen-reader=1")
        await page.wait_for("Your name at the tables?")
        await page.tap_element("#terminal")
        await page.call("Input.insertText", text="Caio")
        await page.tap_element('#keys button[data-key="enter"]')
        await page.wait_for("No tables yet")
        await page.tap_element('#keys button[data-key="help"]')  # the line mode's own help command
        await page.wait_for("these commands")
        reply = await page.call("Runtime.evaluate", returnByValue=True, expression=(
            "JSON.stringify({said: [...document.querySelectorAll('#reader p')].map(p => p.textContent),"
            " live: document.getElementById('reader').getAttribute('aria-live'),"
            " xterm: !!document.querySelector('.xterm-accessibility')})"))
        region = json.loads(reply["result"]["value"])
        await page.ws.close()
    said: list[str] = region["said"]
    welcome = next(s for s in said if s.startswith("Welcome, Caio."))
    assert welcome.endswith("Type help for the commands, at any time."), welcome
    assert len(welcome) > 86, "a sentence longer than the terminal's row, said in one piece"
    assert any(s.startswith("help: ") and s.endswith("these commands.") for s in said), said
    assert region["live"] == "polite" and not region["xterm"], region
    assert all(s.strip() == s and s for s in said)
