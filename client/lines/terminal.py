"""Where the line mode's lines go and come from: a terminal's standard input and output, or the browser
page's terminal (a guest of ``cardtui web``), or memory (tests).

A terminal keeps the line being typed itself (the tty's own line editing), so this side only reads whole
lines and writes whole sentences: no cursor motion, no colour, nothing redrawn. The browser page's terminal
(xterm.js, in its screen reader mode) sends each key as it is pressed, in textual-serve's packets: there this
side echoes what is typed, takes a backspace back, hands on the line at enter, and when a sentence comes
while a line is half typed, says the sentence on a line of its own and writes the half line again after it,
so the typing goes on at the end, where the cursor is.

A password is never echoed: a terminal's own echo is turned off while it is asked (as ``getpass`` does, with
``termios``), and the browser page's terminal is not sent its characters.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import json
import os
import sys
import termios
import threading
from collections.abc import Callable, Iterator
from typing import BinaryIO, Protocol

BELL = "\a"
"""The terminal's bell: the one control character the line mode writes, once at the start of a turn."""
GUEST_DRIVER = "cardtui.client.textual_internals:GuestDriver"
"""What ``server.web_guests`` sets ``TEXTUAL_DRIVER`` to for a browser guest: its stdin and stdout are the
page's packets, not a terminal."""


class Lines(Protocol):
    """Lines in and out."""

    async def read(self, secret: bool = False) -> str | None:
        """The next line the player typed, without its end; None when input has ended (they quit).
        ``secret``: a password, not echoed as it is typed."""

    def write(self, text: str) -> None:
        """One sentence, on a line of its own."""

    def bell(self) -> None:
        """The bell, once."""


class Incoming:
    """Lines handed over from a reading thread to the event loop: a blocked read must never hold the loop,
    and a daemon thread never holds the process at its exit."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.loop = asyncio.get_running_loop()

    def put(self, line: str | None) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, line)

    def start(self, reader: Callable[[], None]) -> None:
        threading.Thread(target=reader, name="cardtui-lines", daemon=True).start()

    async def get(self) -> str | None:
        return await self.queue.get()


class TerminalLines:
    """Standard input and output, a line at a time (``cardtui connect --screen-reader`` in a terminal)."""

    def __init__(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer
        self.incoming: Incoming | None = None

    def _reader(self) -> None:
        """Lines read from the file descriptor itself: a thread blocked in a buffered reader holds its lock, and
        the interpreter's exit, flushing standard input, would wait on it for ever."""
        assert self.incoming is not None
        fd = self.stdin.fileno()
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        pending = ""
        while True:
            try:
                raw = os.read(fd, 4096)
            except OSError:
                raw = b""
            if not raw:
                if pending:
                    self.incoming.put(pending)
                self.incoming.put(None)
                return
            pending += decoder.decode(raw)
            *lines, pending = pending.split("\n")
            for line in lines:
                self.incoming.put(line.rstrip("\r"))

    async def read(self, secret: bool = False) -> str | None:
        if self.incoming is None:
            self.incoming = Incoming()
            self.incoming.start(self._reader)
        if not secret:
            return await self.incoming.get()
        with unechoed(self.stdin.fileno()) as hidden:
            line = await self.incoming.get()
        if hidden:
            self.write("")  # the enter that ended it was not echoed either
        return line

    def write(self, text: str) -> None:
        self.stdout.write((text + "\n").encode("utf-8", "replace"))
        self.stdout.flush()

    def bell(self) -> None:
        self.stdout.write(BELL.encode())
        self.stdout.flush()


class BrowserLines:
    """The browser page's terminal, through textual-serve's packets (``server.web``): ``D`` data and ``M``
    meta, each a kind byte, a 4-byte length and the payload, after a first line that says the app is one."""

    ERASE = "\b \b"
    """How a backspace takes a typed character back on the page's terminal (its own echo)."""

    def __init__(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer
        self.incoming: Incoming | None = None
        self.typed = ""
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._escape = False
        self.secret = False
        """A password is being typed: its characters are not sent back to the page."""
        self.stdout.write(b"__GANGLION__\n")
        self.stdout.flush()

    def _packets(self) -> None:
        assert self.incoming is not None
        try:
            while True:
                kind = self._exactly(1)
                payload = self._exactly(int.from_bytes(self._exactly(4), "big"))
                if kind == b"D":
                    self.incoming.loop.call_soon_threadsafe(self._keys, self.decoder.decode(payload))
                elif kind == b"M" and json.loads(payload).get("type") == "quit":
                    break
        except (EOFError, OSError, ValueError):
            pass
        self.incoming.put(None)

    def _exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = os.read(self.stdin.fileno(), n - len(data))  # unbuffered: see TerminalLines._reader
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def _keys(self, keys: str) -> None:
        """Keys as the page sent them: echoed, edited, and each line handed on at enter."""
        assert self.incoming is not None
        for ch in keys:
            if self._escape:  # an arrow or a function key's sequence: not text
                self._escape = not (ch.isalpha() or ch == "~")
                continue
            if ch == "\x1b":
                self._escape = True
            elif ch in "\r\n":
                line, self.typed, self.secret = self.typed, "", False
                self._send("\r\n")
                self.incoming.queue.put_nowait(line)
            elif ch in "\x7f\b":
                if self.typed:
                    self.typed = self.typed[:-1]
                    if not self.secret:
                        self._send(self.ERASE)
            elif ch == "\x04" and not self.typed:  # ctrl+d on an empty line: the end, as in a terminal
                self.incoming.queue.put_nowait(None)
            elif ch.isprintable():
                self.typed += ch
                if not self.secret:
                    self._send(ch)

    async def read(self, secret: bool = False) -> str | None:
        if self.incoming is None:
            self.incoming = Incoming()
            self.incoming.start(self._packets)
        self.secret = secret and not self.typed  # a line begun before the question is not the password
        try:
            return await self.incoming.get()
        finally:
            self.secret = False

    def write(self, text: str) -> None:
        shown = "" if self.secret else self.typed
        lead = "\r\n" if shown else ""
        self._send(lead + text.replace("\n", "\r\n") + "\r\n" + shown)

    def bell(self) -> None:
        self._send(BELL)

    def _send(self, data: str) -> None:
        payload = data.encode("utf-8", "replace")
        self.stdout.write(b"D" + len(payload).to_bytes(4, "big") + payload)
        self.stdout.flush()

    def close(self) -> None:
        """Tell the page the session is over (as Textual's web driver does when an app exits)."""
        payload = json.dumps({"type": "exit"}).encode()
        self.stdout.write(b"M" + len(payload).to_bytes(4, "big") + payload)
        self.stdout.flush()


@contextlib.contextmanager
def unechoed(fd: int) -> Iterator[bool]:
    """The terminal on ``fd`` without its echo for the block (whether it was one: standard input may be a pipe
    or a file, read plainly then), as it was again after it."""
    try:
        before = termios.tcgetattr(fd)
    except (termios.error, OSError):
        yield False
        return
    quiet = list(before)
    quiet[3] &= ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSADRAIN, quiet)
    try:
        yield True
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, before)


def in_browser() -> bool:
    """This process is a browser guest's (``server.web_guests`` set its driver for the page's packets)."""
    return os.environ.get("TEXTUAL_DRIVER") == GUEST_DRIVER
