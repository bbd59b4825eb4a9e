"""``cardtui play`` and ``make play``, run as a host would: in a terminal of their own, and quit."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def read_until(fd: int, wanted: bytes | None, out: bytearray, timeout: float = 60.0) -> bool:
    """Read the terminal into ``out`` until ``wanted`` shows (True), or the program has ended (False)."""
    deadline = time.monotonic() + timeout
    while wanted is None or wanted not in out:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{wanted!r} never showed; the terminal said:\n{out.decode(errors='replace')[-3000:]}")
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the program ended: its terminal is gone
            return False
        if not chunk:
            return False
        out += chunk
    return True


def in_a_terminal(*args: str) -> tuple[int, int]:
    """``cardtui ARGS`` started in a terminal of its own, 80x24: its process and the terminal's end to read and type."""
    env = dict(os.environ, TERM="xterm-256color", CARDTUI_PURE=os.environ.get("CARDTUI_PURE", "1"))
    pid, fd = pty.fork()
    if pid == 0:  # the child: cardtui in this terminal
        os.execve(sys.executable, [sys.executable, "-m", "cardtui.cli", *args], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    return pid, fd


def test_quitting_play_says_nothing_more(tmp_path: Path) -> None:
    """ctrl+q in ``cardtui play`` ends the client, the server and the browser page's processes, with
    no traceback: the browser guests' parent used to print one (a reset of the socket its page
    closed before any guest came). Without ``--name`` the client asks the host's name (it took the
    login name: "root" on many a host)."""
    pid, fd = in_a_terminal("play", "--port", "0", "--web-port", "0", "--db", str(tmp_path / "store.db"))
    try:
        out = bytearray()
        assert read_until(fd, b"Your name at the tables", out), "asked, not taken from the login"
        os.write(fd, b"zoe\r")
        assert read_until(fd, b"Invite friends to this room", out), "the host's first screen: the room's invite"
        os.write(fd, b"\x1b")  # escape: the lobby under it
        assert read_until(fd, b"Tournaments", out), "the lobby, with its keys"
        assert read_until(fd, b"zoe @", out)
        os.write(fd, b"\x11")  # ctrl+q
        read_until(fd, None, out)
        _, status = os.waitpid(pid, 0)
        pid = 0
    finally:
        if pid:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
    said = out.decode(errors="replace")
    assert os.waitstatus_to_exitcode(status) == 0, said[-2000:]
    assert "Traceback" not in said and "Error" not in said, said[said.find("Traceback") - 200:][:3000]


def test_a_second_room_on_the_same_store_says_so(tmp_path: Path) -> None:
    """``cardtui play`` on a store another server holds (a second ``make play`` in the same clone) ends with the
    store's sentence and a failing status, not a traceback, and leaves the first server's store alone."""
    from cardtui.server.ops.stores import open_store

    db = tmp_path / "store.db"
    held = open_store(str(db))  # the first room's server
    pid, fd = in_a_terminal("play", "--port", "0", "--no-web", "--name", "zoe", "--db", str(db))
    try:
        out = bytearray()
        read_until(fd, None, out)
        _, status = os.waitpid(pid, 0)
        pid = 0
    finally:
        if pid:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
        held.close()
    said = " ".join(out.decode(errors="replace").split())  # the sentence wrapped at the terminal's width
    assert os.waitstatus_to_exitcode(status) == 1, said[-2000:]
    assert "is in use by another cardtui server" in said and "Traceback" not in said, said[-3000:]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make here")
def test_make_play_takes_the_ports() -> None:
    # Run from inside another make (as CI does), make prints "Entering/Leaving directory" lines
    # around the recipe: the line that starts the room is looked for, not assumed last.
    said = subprocess.run(["make", "--no-print-directory", "-n", "play", "HOST=127.0.0.1", "PORT=50999",
                           "WEB_PORT=8999"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert said.returncode == 0, said.stderr
    plays = [line for line in said.stdout.splitlines() if "cardtui play" in line]
    assert len(plays) == 1, said.stdout
    play = plays[0]
    assert "cardtui play" in play and "--host 127.0.0.1" in play, play
    assert "--port 50999" in play and "--web-port 8999" in play, play
