"""``make web-shots``: a real browser joins a real server as a guest would, and screenshots what it sees.

It starts ``cardtui serve --web`` on 127.0.0.1 (free ports, a throw-away store), then Debian's
Chromium, headless, driven over the Chrome DevTools protocol. For each device (a phone,
390x844 CSS pixels with touch, upright and on its side; a laptop, 1280x800) it opens the page,
types a name, waits for the lobby (shot; a phone is then turned the other way and back, a shot
each time), opens a table with bots and waits until a hand is dealt and it is the guest's turn
(shot). Loaded and after every turn, the terminal must be at least 80x24 and cover the window,
or the run fails. The phone does it all by taps (the footer's "New table", the dialog's Create
button, then an action button); the laptop by keys. What the page shows is read back by
replaying the websocket's terminal output into a screen (pyte), so each step waits for text,
not for time. A page's ``touch``, ``tap_cell`` and ``tap_element`` tap a point, a cell of the
terminal or an element of the page (the row of keys under the terminal on a touch screen) as a
finger does, and ``swipe`` draws a finger up or down it: ``tests/test_web_taps.py`` plays whole
hands with them.

    .venv/bin/python -m tools.web_shots [--out shots] [--chromium chromium]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import itertools
import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pyte

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
]


@dataclass(frozen=True)
class Device:
    name: str
    width: int
    height: int
    scale: float
    touch: bool
    guest: str


DEVICES = [
    Device("phone", 390, 844, 2.0, True, "Ana"),
    Device("phone-sideways", 844, 390, 2.0, True, "Caio"),
    Device("laptop", 1280, 800, 1.0, False, "Bruno"),
]
STARTING = 120.0
"""Seconds a guest's first screens may take: each guest's client is a process of its own, started as the page
opens (its imports alone are seconds of CPU, and many times that on a host busy with other work)."""
COVERS = 0.9
"""The share of the window the terminal must cover, whichever way the phone is held."""


class CsiStream(pyte.ByteStream):
    """pyte's byte stream, but a control sequence (CSI: ``ESC [``, an optional ``?``, numbers and ``;``, one final
    character) that comes whole in one piece is read by one regular expression and dispatched at once, rather than
    sent a character at a time through pyte's parser, a generator: a Textual app's output is mostly such sequences
    (a colour, a cursor move for every few cells), and reading it was most of a hand by taps's own CPU. The screen
    gets the same calls, in the same order, with the same arguments (``tests/test_web.py`` holds the two streams to
    the same screens); anything else (a sequence cut between two frames, text, other escapes) goes through pyte's
    parser as before."""

    WHOLE = re.compile(r"\x1b\[(\?)?([0-9;]*)([@-~])")
    """A CSI sequence as pyte's parser reads it, when it holds nothing the parser treats on its own (a control
    character inside, ``$``, a space or ``>``): its private mark, its numbers, its final character."""

    def __init__(self, screen: pyte.Screen) -> None:
        super().__init__(screen)
        self.dispatch = {final: getattr(screen, name) for final, name in self.csi.items()}

    def feed(self, data: bytes) -> None:  # type: ignore[override]
        text = self.utf8_decoder.decode(data) if self.use_utf8 else "".join(map(chr, data))
        listener = self.listener
        assert listener is not None
        draw, plain, whole, send = listener.draw, self._text_pattern.match, self.WHOLE.match, self._send_to_parser
        taking_plain_text, offset, length = self._taking_plain_text, 0, len(text)
        while offset < length:
            if taking_plain_text:
                if (match := plain(text, offset)) is not None:
                    start, offset = match.span()
                    draw(text[start:offset])
                elif text[offset] == "\x1b" and (match := whole(text, offset)) is not None:
                    private, numbers, final = match.groups()
                    offset = match.end()
                    params = [min(int(n or 0), 9999) for n in numbers.split(";")]
                    act = self.dispatch.get(final, listener.debug)
                    if private:
                        act(*params, private=True)
                    else:
                        act(*params)
                else:
                    taking_plain_text = False
            else:
                taking_plain_text = bool(send(text[offset:offset + 1]))
                offset += 1
        self._taking_plain_text = taking_plain_text


class Page:
    """One browser tab over CDP, with the terminal its websocket draws, replayed into a screen."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.screen = pyte.Screen(80, 24)
        self.stream = CsiStream(self.screen)
        self.changed = asyncio.Event()
        self.resizes = 0
        self.sizes: list[tuple[int, int]] = []
        """Each size the page sent, in order (columns, rows)."""
        self.closed_reason: str | None = None
        self._drawn: list[str] | None = None
        """The screen's lines as last drawn (pyte renders every cell of every line at each ``display``: the
        hand by taps reads the screen a few hundred times a change), made again after the next change."""
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if "id" in data:
                future = self.waiting.pop(data["id"], None)
                if future is not None and not future.done():
                    future.set_result(data)
            elif data.get("method") == "Network.webSocketFrameReceived":
                frame = data["params"]["response"]
                if frame["opcode"] == 2:  # the app's output: terminal bytes
                    self.stream.feed(base64.b64decode(frame["payloadData"]))
                    self._drawn = None
                    self.changed.set()
            elif data.get("method") == "Network.webSocketFrameSent":
                sent = json.loads(data["params"]["response"]["payloadData"])
                if sent[0] == "resize":
                    self.screen.resize(sent[1]["height"], sent[1]["width"])
                    self._drawn = None
                    self.resizes += 1
                    self.sizes.append((sent[1]["width"], sent[1]["height"]))
                    self.changed.set()
            elif data.get("method") == "Network.webSocketClosed":
                self.closed_reason = "closed"
                self.changed.set()

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        n = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[n] = future
        await self.ws.send_json({"id": n, "method": method, "params": params})
        reply = await asyncio.wait_for(future, 30)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return dict(reply.get("result", {}))

    def lines(self) -> list[str]:
        """The screen's lines as the page shows them now."""
        if self._drawn is None:
            self._drawn = self.screen.display
        return self._drawn

    def text(self) -> str:
        return "\n".join(self.lines())

    async def wait_for(self, what: str | Callable[[str], bool], timeout: float = 20.0, settle: float = 0.6) -> None:
        """Until the screen shows ``what`` (or ``what(text)`` holds), then ``settle`` seconds for the frame
        to finish drawing: a frame may come in more than one piece."""
        test = what if callable(what) else (lambda text: what in text)
        deadline = time.monotonic() + timeout
        while not test(self.text()):
            if self.closed_reason:
                raise RuntimeError(f"the session closed while waiting for {what!r}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{what!r} never showed; the screen:\n{self.text()}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        await asyncio.sleep(settle)

    def found(self, label: str, rows: range | None = None) -> bool:
        """Whether the screen shows ``label`` (within ``rows``)."""
        return any(label in line for y, line in enumerate(self.lines()) if rows is None or y in rows)

    def find(self, label: str, rows: range | None = None) -> tuple[int, int]:
        """Row and column of ``label`` on the screen (the last match within ``rows``)."""
        found = None
        for y, line in enumerate(self.lines()):
            if rows is not None and y not in rows:
                continue
            x = line.find(label)
            if x >= 0:
                found = (y, x)
        if found is None:
            raise LookupError(f"{label!r} is not on the screen:\n{self.text()}")
        return found

    async def tap(self, label: str, touch: bool, rows: range | None = None) -> None:
        """Tap (or click) the middle of ``label`` where the terminal draws it (once it does: a line
        may come in more than one piece)."""
        await self.wait_for(lambda _text: self.found(label, rows))
        y, x = self.find(label, rows)
        box = await self.call("Runtime.evaluate", returnByValue=True, expression=(
            "JSON.stringify(document.querySelector('.xterm-screen').getBoundingClientRect())"))
        rect = json.loads(box["result"]["value"])
        px = rect["left"] + (x + len(label) / 2) * rect["width"] / self.screen.columns
        py = rect["top"] + (y + 0.5) * rect["height"] / self.screen.lines
        if touch:
            await self.touch(px, py)
        else:
            for kind in ("mousePressed", "mouseReleased"):
                await self.call("Input.dispatchMouseEvent", type=kind, x=px, y=py, button="left", clickCount=1)

    async def touch(self, px: float, py: float) -> None:
        """A finger's tap at a point of the window (CSS pixels): the browser makes the click of it."""
        await self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": px, "y": py}])
        await self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    async def cell(self, y: int, x: float) -> tuple[float, float]:
        """The middle of the terminal's cell at row ``y``, column ``x``, in the window's CSS pixels."""
        box = await self.call("Runtime.evaluate", returnByValue=True, expression=(
            "JSON.stringify(document.querySelector('.xterm-screen').getBoundingClientRect())"))
        rect = json.loads(box["result"]["value"])
        return (rect["left"] + (x + 0.5) * rect["width"] / self.screen.columns,
                rect["top"] + (y + 0.5) * rect["height"] / self.screen.lines)

    async def tap_cell(self, y: int, x: float) -> None:
        """Tap the terminal's cell at row ``y``, column ``x``."""
        await self.touch(*await self.cell(y, x))

    async def swipe(self, y: int, to: int, x: float, steps: int = 8) -> None:
        """A finger drawn from the terminal's row ``y`` to row ``to`` at column ``x`` (up the screen when
        ``to`` is above ``y``: what is under it scrolls on, as a phone's content does)."""
        px, start = await self.cell(y, x)
        _px, end = await self.cell(to, x)
        await self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": px, "y": start}])
        for k in range(1, steps + 1):
            await self.call("Input.dispatchTouchEvent", type="touchMove",
                            touchPoints=[{"x": px, "y": start + (end - start) * k / steps}])
        await self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    async def tap_element(self, selector: str) -> None:
        """Tap the middle of the page's element ``selector`` (a key of the row under the terminal)."""
        box = await self.call("Runtime.evaluate", returnByValue=True, expression=(
            f"JSON.stringify(document.querySelector({json.dumps(selector)}).getBoundingClientRect())"))
        rect = json.loads(box["result"]["value"])
        assert rect["width"] > 0 and rect["height"] > 0, f"{selector} is not on the page"
        await self.touch(rect["left"] + rect["width"] / 2, rect["top"] + rect["height"] / 2)

    async def key(self, key: str, code: str, vk: int, text: str = "", ctrl: bool = False) -> None:
        for kind in ("keyDown", "keyUp"):
            params: dict[str, Any] = {"type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk,
                                      "modifiers": 2 if ctrl else 0}
            if kind == "keyDown" and text:
                params["text"] = text
            await self.call("Input.dispatchKeyEvent", **params)

    async def shot(self, path: Path) -> None:
        data = await self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(data["data"]))
        (path.with_suffix(".txt")).write_text(self.text() + "\n", encoding="utf-8")
        print(f"  {path}")


async def set_size(page: Page, width: int, height: int, touch: bool) -> None:
    """The window's size in CSS pixels; a phone held upright or on its side says so too."""
    angle, kind = (0, "portraitPrimary") if height >= width else (90, "landscapePrimary")
    orientation = {"screenOrientation": {"type": kind, "angle": angle}} if touch else {}
    await page.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=0,
                    mobile=touch, **orientation)


async def fit_of(page: Page) -> dict[str, float]:
    """How the terminal sits in the window: its grid, its font, the share of the window it covers."""
    reply = await page.call("Runtime.evaluate", returnByValue=True, expression=(
        "(() => { const r = document.querySelector('.xterm-screen').getBoundingClientRect();"
        " return {w: r.width, h: r.height, vw: window.innerWidth, vh: window.innerHeight}; })()"))
    box = reply["result"]["value"]
    cols, rows = page.screen.columns, page.screen.lines
    return {"cols": cols, "rows": rows, "cell_w": box["w"] / cols, "cell_h": box["h"] / rows,
            "covers": min(1.0, box["w"] / box["vw"]) * min(1.0, box["h"] / box["vh"])}


async def check_fit(page: Page, device: Device, width: int, height: int) -> str:
    """The terminal is at least 80x24 and covers the window; a line that says so, or an error."""
    deadline = time.monotonic() + 10
    while True:
        fit = await fit_of(page)
        if fit["cols"] >= 80 and fit["rows"] >= 24 and fit["covers"] >= COVERS:
            return (f"{width}x{height}: {fit['cols']:.0f}x{fit['rows']:.0f} cells of {fit['cell_w']:.1f}x"
                    f"{fit['cell_h']:.1f} px, {fit['covers']:.0%} of the window")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{device.name} at {width}x{height}: the terminal is {fit['cols']:.0f}x"
                               f"{fit['rows']:.0f} covering {fit['covers']:.0%} of the window")
        await asyncio.sleep(0.2)


async def turn(page: Page, device: Device, width: int, height: int, shot: Path) -> None:
    """Turn the phone (the page already loaded), and check the terminal fits again."""
    sent = page.resizes
    await set_size(page, width, height, device.touch)
    deadline = time.monotonic() + 10
    while page.resizes == sent and time.monotonic() < deadline:
        page.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(page.changed.wait(), 1)
    await asyncio.sleep(1.0)  # the app draws at its new size
    print(f"  turned: {await check_fit(page, device, width, height)}")
    await page.shot(shot)


async def open_page(http: aiohttp.ClientSession, devtools: str, device: Device, context: Context | None = None) -> Page:
    """A new tab the size of ``device``: in the browser's own profile, or in ``context`` (one of its own)."""
    if context is None:
        async with http.put(f"{devtools}/json/new?about:blank") as r:
            target = await r.json(content_type=None)
        ws = await http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
    else:
        made = await context.browser.call("Target.createTarget", url="about:blank", browserContextId=context.id)
        ws = await http.ws_connect(f"ws://{devtools.removeprefix('http://')}/devtools/page/{made['targetId']}",
                                   max_msg_size=0)
    page = Page(ws)
    await page.call("Network.enable")
    await page.call("Page.enable")
    if context is not None:  # a context's tab opens in a window of its own: the one in front, as a phone's is
        await page.call("Page.bringToFront")
    # The pixel ratio comes from the browser's own flag (see ``launch``): xterm.js's canvas renderer
    # misses a ratio that is only emulated, and draws the terminal twice too large.
    await set_size(page, device.width, device.height, device.touch)
    if device.touch:
        await page.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
    return page


async def visit(http: aiohttp.ClientSession, devtools: str, url: str, device: Device, out: Path) -> None:
    print(f"{device.name} ({device.width}x{device.height}):")
    page = await open_page(http, devtools, device)
    await page.call("Page.navigate", url=url)
    await page.wait_for("Your name at the tables")
    if device.touch:  # tapping the terminal focuses it (and brings up a phone's keyboard)
        await page.tap("type it here", touch=True)
    else:
        await page.call("Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()")
    await page.call("Input.insertText", text=device.guest)
    await page.key("Enter", "Enter", 13, "\r")
    await page.wait_for(lambda t: "People" in t and "Watching" in t and f"{device.guest} @" in t)
    print(f"  loaded: {await check_fit(page, device, device.width, device.height)}")
    await page.shot(out / f"lobby-{device.name}.png")
    if device.touch:  # turned after the page loaded, and back
        await turn(page, device, device.height, device.width, out / f"lobby-{device.name}-turned.png")
        await turn(page, device, device.width, device.height, out / f"lobby-{device.name}-turned-back.png")
    if device.touch:
        await page.tap("New", touch=True, rows=range(page.screen.lines - 1, page.screen.lines))
        await page.wait_for("Turn timer")
        await page.tap("Create", touch=True, rows=range(0, page.screen.lines - 2))
    else:
        await page.key("n", "KeyN", 78, "n")
        await page.wait_for("Turn timer")
        await page.key("s", "KeyS", 83, ctrl=True)
    await page.wait_for("Your turn", timeout=40)
    await page.shot(out / f"table-{device.name}.png")
    if device.touch:  # and one action by tapping the action bar
        before = page.text()
        bar = range(page.find("Your turn")[0] + 1, page.screen.lines - 1)  # the action bar's buttons
        await page.tap(next(w for w in ("Check", "Call", "Pass", "Bet") if w in page.text()), touch=True, rows=bar)
        await page.wait_for(lambda t: t != before and "Your turn" not in t, timeout=10)
        await page.shot(out / f"table-{device.name}-after-tap.png")
    await page.ws.close()
    page.reader.cancel()


@dataclass(frozen=True)
class Context:
    """A browser context (Chromium's name for an incognito profile): its own cookies, storage and cache, as a
    new browser's profile would be, in a browser that is already running. ``browser`` is the browser's own
    DevTools connection, which holds it: the context is thrown away with everything in it when that closes."""

    browser: Page
    id: str


@contextlib.asynccontextmanager
async def fresh_context(http: aiohttp.ClientSession, devtools: str) -> AsyncIterator[Context]:
    """A context of its own in the browser at ``devtools``, for one test: nothing a test before it left (a
    cookie, a stored name, a cached page, an open tab) is seen in it, and nothing it leaves outlives it."""
    async with http.get(f"{devtools}/json/version") as r:
        url = (await r.json(content_type=None))["webSocketDebuggerUrl"]
    browser = Page(await http.ws_connect(url, max_msg_size=0))
    try:
        made = await browser.call("Target.createBrowserContext", disposeOnDetach=True)
        yield Context(browser, made["browserContextId"])
    finally:
        await browser.ws.close()
        browser.reader.cancel()


def start(chromium: str, device: Device, profile: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``launch``, for a caller outside an event loop (a fixture that keeps one browser for many tests)."""
    browser = spawn(chromium, device, profile)
    for _ in range(300):
        if address := devtools_address(profile):
            return browser, address
        time.sleep(0.1)
    raise closed(browser, chromium)


def spawn(chromium: str, device: Device, profile: Path) -> subprocess.Popen[bytes]:
    """A headless browser the size of ``device`` starting on ``profile``; its DevTools port is written there."""
    return subprocess.Popen(browser_command(chromium, device, profile),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def devtools_address(profile: Path) -> str | None:
    """The DevTools address the browser on ``profile`` wrote, once it has."""
    port_file = profile / "DevToolsActivePort"
    if port_file.exists() and (text := port_file.read_text().strip()):
        return f"http://127.0.0.1:{text.split()[0]}"
    return None


def closed(browser: subprocess.Popen[bytes], chromium: str) -> RuntimeError:
    """The browser that never opened its port, stopped; the error to raise."""
    browser.terminate()
    return RuntimeError(f"{chromium} did not open its DevTools port")


def browser_command(chromium: str, device: Device, profile: Path) -> list[str]:
    return [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={device.width},{device.height}",
            f"--force-device-scale-factor={device.scale:g}", "about:blank"]


async def launch(chromium: str, device: Device, profile: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A headless browser the size of ``device``; its DevTools address."""
    browser = spawn(chromium, device, profile)
    for _ in range(300):
        if address := devtools_address(profile):
            return browser, address
        await asyncio.sleep(0.1)
    raise closed(browser, chromium)


def chromium_command(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        sys.exit(f"web-shots: {name} is not installed (make web-shots installs Debian's chromium).")
    return found


async def main(out: Path, chromium: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cardtui-shots-") as tmp:
        server = subprocess.Popen(
            [sys.executable, "-m", "cardtui.cli", "serve", "--port", "0", "--web", "--web-port", "0",
             "--db", f"{tmp}/store.db", "--no-announce", "--bot-delay", "300", "--log-level", "warning"],
            stdout=subprocess.PIPE, text=True,
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            match = re.search(r"web: (http://\S+)", line)
            if match is None:
                sys.exit(f"web-shots: the server did not start: {line!r}")
            print(f"server: {line.strip()}")
            async with aiohttp.ClientSession() as http:
                for device in DEVICES:
                    browser, devtools = await launch(chromium, device, Path(tmp) / device.name)
                    try:
                        await visit(http, devtools, match.group(1), device, out)
                    finally:
                        browser.terminate()
                        browser.wait(10)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(20)


if __name__ == "__main__":
    p = argparse.ArgumentParser(prog="web_shots", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="shots", type=Path, help="where the PNGs go (default: shots/)")
    p.add_argument("--chromium", default="chromium", help="the browser to run (default: chromium)")
    args = p.parse_args()
    asyncio.run(main(args.out, chromium_command(args.chromium)))
