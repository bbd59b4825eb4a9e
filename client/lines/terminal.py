"""Where the line mode's lines go and come from: a terminal's standard input and output, or the browser
page's terminal (a guest of ``cardtui web``), or memory (tests).

Both a terminal and the browser page's terminal (xterm.js, in its screen reader mode, through textual-serve's
packets) are read a key at a time (``Typing``): this side echoes what is typed, takes a backspace back, hands
on the line at enter, and when a sentence comes while a line is half typed, says the sentence on a line of its
own and writes the half line again after it, so the typing goes on at the end of the input line, where the
cursor is. Nothing else is drawn: no cursor motion, no colour. Standard input that is not a terminal (a pipe,
a file) is read a line at a time.

A password is never echoed: a terminal's own echo is turned off while it is asked (as ``getpass`` does, with
``termios``), and the browser page's terminal is not sent its characters.

``termios`` is POSIX's (Linux, macOS): where Python has none (Windows), standard input is read a line at a
time, as a pipe is, with the console's own echo and editing, and a password typed there shows (the table's
password may come from ``--password-file`` or ``CARDTUI_PASSWORD`` instead). Nothing on the way to
``cardtui connect`` imports a module only POSIX has (a test holds it to that).
"""

from __future__ import annotations

import asyncio
import atexit
import codecs
import contextlib
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, BinaryIO, Protocol

termios: ModuleType | None
try:
    import termios
except ImportError:  # not POSIX (Windows): lines are read as the console gives them (see above)
    termios = None

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
        with contextlib.suppress(RuntimeError):  # the loop is closed: the line mode is over, nobody reads
            self.loop.call_soon_threadsafe(self.queue.put_nowait, line)

    def start(self, reader: Callable[[], None]) -> None:
        threading.Thread(target=reader, name="cardtui-lines", daemon=True).start()

    async def get(self) -> str | None:
        return await self.queue.get()


class Typing:
    """The line being typed, a key at a time: echoed through ``send``, edited, handed on at enter; and each
    sentence written so that a half-typed line comes back after it, where the cursor is."""

    ERASE = "\b \b"
    """How a backspace takes a typed character back on the terminal (the echo is this side's)."""

    def __init__(self, send: Callable[[str], None], newline: str) -> None:
        self.send = send
        self.newline = newline
        """What ends a line on this terminal: ``\\r\\n`` on the page's, ``\\n`` on a tty (which adds the return)."""
        self.typed = ""
        self.secret = False
        """A password is being typed: its characters are not echoed."""
        self._escape = ""
        """The escape sequence begun ("\x1b", then "[" or "O"): not text."""

    def keys(self, keys: str, hand_on: Callable[[str | None], None]) -> None:
        """Keys as they were pressed: echoed, edited, and each line handed on at enter (None: ctrl+d on an
        empty line, the end, as in a terminal)."""
        for ch in keys:
            if self._escape:  # an arrow or a function key's sequence: not text
                if self._escape == "\x1b" and ch in "O[":
                    self._escape = ch  # SS3 ("\x1bOP", F1) ends at its next character; CSI at a letter or "~"
                    continue
                self._escape = "" if self._escape == "O" or ch.isalpha() or ch == "~" else self._escape
                continue
            if ch == "\x1b":
                self._escape = ch
            elif ch in "\r\n":
                line, self.typed, self.secret = self.typed, "", False
                self.send(self.newline)
                hand_on(line)
            elif ch in "\x7f\b":
                if self.typed:
                    self.typed = self.typed[:-1]
                    if not self.secret:
                        self.send(self.ERASE)
            elif ch == "\x04" and not self.typed:
                hand_on(None)
            elif ch.isprintable():
                self.typed += ch
                if not self.secret:
                    self.send(ch)

    def sentence(self, text: str) -> None:
        """``text`` on a line of its own, then the half-typed line again (none of a password's)."""
        shown = "" if self.secret else self.typed
        lead = self.newline if shown else ""
        self.send(lead + text.replace("\n", self.newline) + self.newline + shown)


class TerminalLines:
    """Standard input and output (``cardtui connect --screen-reader`` in a terminal): a terminal is read a key
    at a time (``Typing``, the terminal's own echo and line editing off while the line mode runs, as they were
    at its end); a pipe or a file a line at a time."""

    def __init__(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer
        self.incoming: Incoming | None = None
        self.typing: Typing | None = None
        """The line being typed, where standard input is a terminal (read a key at a time)."""
        self._restore: list[Any] | None = None

    def _keyed(self) -> bool:
        """Standard input is a terminal: its own line editing and echo off (``ISIG`` kept: ctrl+c still
        stops), so that this side echoes and can write a half-typed line again after a sentence."""
        fd = self.stdin.fileno()
        if termios is None or not os.isatty(fd):
            return False
        try:
            before = termios.tcgetattr(fd)
        except (termios.error, OSError):
            return False
        keyed = list(before)
        keyed[3] &= ~(termios.ICANON | termios.ECHO)
        keyed[6] = list(keyed[6])
        keyed[6][termios.VMIN], keyed[6][termios.VTIME] = 1, 0
        termios.tcsetattr(fd, termios.TCSADRAIN, keyed)
        self._restore = before
        atexit.register(self.close)
        self.typing = Typing(self._send, "\n")  # the terminal's own output processing adds the return
        return True

    def close(self) -> None:
        """The terminal as it was before the line mode."""
        if self._restore is not None and termios is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(self.stdin.fileno(), termios.TCSADRAIN, self._restore)
            self._restore = None

    def _send(self, data: str) -> None:
        self.stdout.write(data.encode("utf-8", "replace"))
        self.stdout.flush()

    def _keys_read(self) -> None:
        """Keys from the terminal, handed to the loop's ``Typing`` as they come."""
        assert self.incoming is not None and self.typing is not None
        incoming, typing = self.incoming, self.typing
        fd = self.stdin.fileno()
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while True:
            try:
                raw = os.read(fd, 4096)
            except OSError:
                raw = b""
            if not raw:
                incoming.put(None)
                return
            keys = decoder.decode(raw)
            try:
                incoming.loop.call_soon_threadsafe(typing.keys, keys, incoming.queue.put_nowait)
            except RuntimeError:  # the loop is closed: the line mode is over
                return

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
            self.incoming.start(self._keys_read if self._keyed() else self._reader)
        if self.typing is not None:
            self.typing.secret = secret and not self.typing.typed  # a line begun before is not the password
            try:
                return await self.incoming.get()
            finally:
                self.typing.secret = False
        if not secret:
            return await self.incoming.get()
        with unechoed(self.stdin.fileno()) as hidden:
            line = await self.incoming.get()
        if hidden:
            self.write("")  # the enter that ended it was not echoed either
        return line

    def write(self, text: str) -> None:
        if self.typing is not None:
            self.typing.sentence(text)
            return
        self._send(text + "\n")

    def bell(self) -> None:
        self.stdout.write(BELL.encode())
        self.stdout.flush()


class BrowserLines:
    """The browser page's terminal, through textual-serve's packets (``server.web``): ``D`` data and ``M``
    meta, each a kind byte, a 4-byte length and the payload, after a first line that says the app is one."""

    def __init__(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer
        self.incoming: Incoming | None = None
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.typing = Typing(self._send, "\r\n")
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
        self.typing.keys(keys, self.incoming.queue.put_nowait)

    async def read(self, secret: bool = False) -> str | None:
        if self.incoming is None:
            self.incoming = Incoming()
            self.incoming.start(self._packets)
        self.typing.secret = secret and not self.typing.typed  # a line begun before is not the password
        try:
            return await self.incoming.get()
        finally:
            self.typing.secret = False

    def write(self, text: str) -> None:
        self.typing.sentence(text)
        self._send(said_whole(text))

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
    or a file, read plainly then; or a console without ``termios``), as it was again after it."""
    if termios is None:
        yield False
        return
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


SAID = 7706
"""The private OSC that carries a sentence whole to the browser page's region for a screen reader
(server/web_page/index.html): the terminal wraps a long sentence at its last column, and read row by row a
word was broken in two."""


def said_whole(text: str) -> str:
    """The escape sequence that hands the page ``text`` whole, on one line, with nothing that would end it early."""
    one = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return f"\x1b]{SAID};{one}\x1b\\"


def in_browser() -> bool:
    """This process is a browser guest's (``server.web_guests`` set its driver for the page's packets)."""
    return os.environ.get("TEXTUAL_DRIVER") == GUEST_DRIVER
