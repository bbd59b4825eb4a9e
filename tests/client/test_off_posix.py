"""The client off Linux: nothing on the way of ``cardtui connect`` imports a module only POSIX has.

Windows has no ``termios``, ``tty``, ``pty``, ``fcntl``, ``pwd``, ``grp`` nor ``resource``. A process of
this suite's Python with those made unimportable (a finder first on ``sys.meta_path`` that refuses them)
runs what a friend on Windows runs: the command line, the client under ``run_test()`` to the lobby of a
real server on 127.0.0.1 (Textual's own driver for the terminal is its Linux one here, which is POSIX's: the
headless one is named in its place, as Textual would name its Windows one there), and the line mode on a
real terminal (a pty), which reads plain lines where there is no ``termios`` (client.lines.terminal). It
imports none of them, and each gets to the room."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pexpect

from cardtui.server.app import Running
from tools import layout

POSIX_ONLY = ("termios", "tty", "pty", "fcntl", "pwd", "grp", "resource")

WINDOWS_LIKE = f"""
import importlib.abc, sys
POSIX_ONLY = {POSIX_ONLY!r}

class Unimportable(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in POSIX_ONLY:
            raise ModuleNotFoundError(f"No module named {{name!r}} (not on Windows)", name=name)
        return None

for loaded in [m for m in sys.modules if m.partition(".")[0] in POSIX_ONLY]:
    del sys.modules[loaded]
sys.meta_path.insert(0, Unimportable())

def loaded():
    return sorted(m for m in sys.modules if m.partition(".")[0] in POSIX_ONLY)
"""

TO_THE_LOBBY = WINDOWS_LIKE + """
import asyncio
import cardtui.cli, cardtui.cli.connect, cardtui.client.lines.loop
from cardtui.client.app import CardApp
from cardtui.client.screens.lobby import LobbyScreen

async def main():
    app = CardApp(sys.argv[1], "bia")
    async with app.run_test(size=(80, 24)) as pilot:
        while not (isinstance(app.screen, LobbyScreen) and app.screen.info is not None):
            await pilot.pause()
        print("in the lobby of cardtui", app.screen.info.version, flush=True)
    print("loaded:", loaded(), flush=True)

asyncio.run(main())
"""

LINE_MODE = WINDOWS_LIKE + """
from cardtui.cli import main
code = main(["connect", sys.argv[1], "--name", "bia", "--screen-reader"])
print("loaded:", loaded(), flush=True)
sys.exit(code)
"""


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(layout.ROOT), "TERM": "xterm", "CARDTUI_LANG": "en"}


async def test_the_client_reaches_the_lobby_without_a_posix_only_module(server: Running) -> None:
    headless = {"TEXTUAL_DRIVER": "textual.drivers.headless_driver:HeadlessDriver"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", TO_THE_LOBBY, f"127.0.0.1:{server.port}", stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, env=environment() | headless)
    said = (await asyncio.wait_for(process.communicate(), 120))[0].decode()
    assert process.returncode == 0, said
    assert "in the lobby of cardtui" in said, said
    assert "loaded: []" in said, said


def _line_mode(target: str) -> str:
    """The line mode in a real terminal, as a person types in it: to the lobby's welcome, then ``quit``."""
    child = pexpect.spawn(sys.executable, ["-c", LINE_MODE, target], env=environment(), encoding="utf-8",
                          timeout=60, dimensions=(24, 80))
    try:
        child.expect("Welcome, bia")
        child.expect("Type help")
        child.sendline("quit")
        child.expect(pexpect.EOF)
        return str(child.before)
    finally:
        child.close(force=True)


async def test_the_line_mode_reads_plain_lines_where_there_is_no_termios(server: Running) -> None:
    said = await asyncio.to_thread(_line_mode, f"127.0.0.1:{server.port}")
    assert "loaded: []" in said, said
