"""The line mode for a browser guest: the page's ``?screen-reader=1`` asks for it (its websocket on
``/ws/reader``), the page's terminal is put in xterm.js's screen reader mode, and the guest's client speaks in
lines, echoing what is typed, through textual-serve's packets.

A real table server and the real web endpoint on 127.0.0.1; the websocket driven as the page drives it.
"""

from __future__ import annotations

from pathlib import Path

import aiohttp

from cardtui.client.lines.terminal import SAID
from cardtui.server.app import Running
from cardtui.server.web.site import WebServer
from tests.client.lines.test_by_ear import EYE_ONLY
from tests.test_web import http, open_guest, web  # noqa: F401  (the fixtures)

PAGE = Path(__file__).resolve().parents[3] / "server" / "web" / "page" / "index.html"


async def test_a_browser_guest_asks_for_lines_and_hears_the_lobby(
    web: WebServer, server: Running, http: aiohttp.ClientSession  # noqa: F811
) -> None:
    guest = await open_guest(http, f"ws://127.0.0.1:{web.port}/ws/reader")
    try:
        await guest.until("Your name at the tables?")
        await guest.type("bea\r")
        await guest.until("Welcome, bea.")
        await guest.until("No tables yet")
        await guest.type("helx")
        await guest.type("\x7fp\r")  # a backspace takes a typed letter back: "help"
        await guest.until("these commands")
        said = guest.text
    finally:
        await guest.ws.close()
    assert "bea" in said and not any(EYE_ONLY.findall(row) for row in said.splitlines())


def test_the_page_asks_for_lines_and_reads_them_from_a_region_of_its_own() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert 'get("screen-reader") === "1"' in page
    assert '"/reader"' in page
    assert 'id="reader" role="log" aria-live="polite"' in page
    assert f"registerOscHandler({SAID}," in page
    assert "screenReaderMode = true" not in page, "xterm.js's own reading breaks a sentence where a row ends"


def test_each_sentence_goes_to_the_page_whole_beside_the_terminal() -> None:
    """A browser guest's sentence reaches the page's region in one piece, however the terminal wraps it."""
    import io

    from cardtui.client.lines.terminal import BrowserLines

    out = io.BytesIO()
    lines = BrowserLines(stdin=io.BytesIO(), stdout=out)
    long = "Regras: " + "costume " * 20 + "fim."
    lines.write(long)
    sent = out.getvalue().split(b"__GANGLION__\n", 1)[1]
    payloads = b""
    while sent:
        size = int.from_bytes(sent[1:5], "big")
        payloads += sent[5:5 + size]
        sent = sent[5 + size:]
    text = payloads.decode()
    assert f"\x1b]{SAID};{long}\x1b\\" in text, text
