"""From the host's page to a friend's lobby: the client installed into a clean venv from a real page on
127.0.0.1, then ``cardtui connect`` run from there, in a real terminal, to the lobby of a real server.

The venv has no access to the checkout (its own interpreter, ``-I`` where Python runs, no ``PYTHONPATH``,
a folder of its own as the working one) and no index but the page's: pip is given the page's simple index
alone (``--index-url http://127.0.0.1:PORT/simple/``), no configuration file, no cache, so every wheel it
installs is one the host itself installed and the page packed (server.wheels), and none comes from the
internet: what a friend at a venue with no internet does, on the host's platform. Then the wheel ``python -m
build`` makes from the package (tests/test_packaging.py checks its metadata) is installed over it, the
dependencies staying, and connects as well."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pexpect
import pyte
import pytest
import pytest_asyncio

from cardtui import __version__
from cardtui.server.app import Running
from cardtui.server.web import WebServer, local_target, open_socket
from tests.test_packaging import built_package

INSTALL_SECONDS = 300
"""A bound on pip's run (it takes seconds: bench/marks.md, "The client from the host's page"), so that a
broken index ends the test with pip's own words rather than at the suite's timeout."""


@pytest_asyncio.fixture
async def page(server: Running) -> AsyncIterator[WebServer]:
    web = WebServer(local_target("127.0.0.1", server.port), warm=False)
    await web.start(open_socket("127.0.0.1", 0))
    try:
        yield web
    finally:
        await web.stop()


def clean_env(home: Path) -> dict[str, str]:
    """A friend's environment: nothing of this suite's Python, pip's settings or this person's files."""
    kept = {k: v for k, v in os.environ.items()
            if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV", "CARDTUI_", "XDG_"))}
    return kept | {"HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
                   "PIP_CONFIG_FILE": os.devnull, "PIP_NO_CACHE_DIR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
                   "CARDTUI_LANG": "en", "TERM": "xterm-256color"}


async def run(*command: str | Path, env: dict[str, str], cwd: Path) -> str:
    """A command of the friend's, waited for off the event loop (the server and the page run on it)."""
    import asyncio

    process = await asyncio.create_subprocess_exec(*map(str, command), cwd=cwd, env=env, stdout=subprocess.PIPE,
                                                   stderr=subprocess.STDOUT)
    said = (await asyncio.wait_for(process.communicate(), INSTALL_SECONDS))[0].decode(errors="replace")
    assert process.returncode == 0, f"{' '.join(map(str, command))} failed:\n{said}"
    return said


def in_the_lobby(cardtui: Path, target: str, env: dict[str, str], cwd: Path) -> str:
    """``cardtui connect TARGET --name bia`` in a real terminal of 80x24, read back as a person sees it
    (pyte), until the lobby shows; then ctrl+q. What the screen showed."""
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    child = pexpect.spawn(str(cardtui), ["connect", target, "--name", "bia"], env=env, cwd=str(cwd),
                          dimensions=(24, 80), timeout=60)
    try:
        deadline = time.monotonic() + 120
        while "No tables yet" not in "\n".join(screen.display):
            assert time.monotonic() < deadline, "\n".join(screen.display)
            try:
                stream.feed(child.read_nonblocking(65536, timeout=1))
            except pexpect.TIMEOUT:
                continue
        shown = "\n".join(screen.display)
        child.sendcontrol("q")
        child.expect(pexpect.EOF)
        return shown
    finally:
        child.close(force=True)


@pytest.mark.xdist_group("built-package")
async def test_a_friend_installs_from_the_page_alone_and_reaches_the_lobby(
        page: WebServer, server: Running, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    import asyncio

    friend = tmp_path / "friend"
    friend.mkdir()
    env = clean_env(friend)
    venv = friend / "cardtui"
    index = f"http://127.0.0.1:{page.port}/simple/"
    await run(sys.executable, "-m", "venv", venv, env=env, cwd=friend)
    await run(venv / "bin" / "python", "-I", "-m", "pip", "install", "--quiet", "--index-url", index, "cardtui",
              env=env, cwd=friend)
    said = "import cardtui; print(cardtui.__version__, cardtui.__file__)"
    where = await run(venv / "bin" / "python", "-I", "-c", said, env=env, cwd=friend)
    assert where.split()[0] == __version__ and where.split()[1].startswith(str(venv)), where
    target = f"127.0.0.1:{server.port}"
    shown = await asyncio.to_thread(in_the_lobby, venv / "bin" / "cardtui", target, env, friend)
    assert f"{target} · cardtui {__version__}" in shown, shown

    # The package as it would be published: its wheel over the page's, the dependencies kept.
    wheel = built_package(tmp_path_factory).wheel
    await run(venv / "bin" / "python", "-I", "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
              "--force-reinstall", wheel, env=env, cwd=friend)
    shown = await asyncio.to_thread(in_the_lobby, venv / "bin" / "cardtui", target, env, friend)
    assert "No tables yet" in shown, shown
