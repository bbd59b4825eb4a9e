"""A table's password given to ``cardtui connect`` stays off its command line.

Any user of the machine reads a process's command line (``ps``, ``/proc/PID/cmdline``); only its
own user reads its environment. So the real client, started as a browser session starts it (the
web driver, on pipes), is given the password in a file or in ``CARDTUI_PASSWORD``, watches a
locked table with it, and its ``/proc/PID/cmdline`` is read while it does; ``--password PW`` is
refused before anything reaches the server.
"""

from __future__ import annotations

import asyncio
import stat
import sys
from pathlib import Path

import pytest

from cardtui import cli
from cardtui.cli.flags import PASSWORD_ENV, table_password
from cardtui.server.app import Running
from cardtui.server.web.guests import guest_environment
from tests.conftest import create
from tests.waiting import eventually

SECRET = "pão-de-queijo 42"
CARDTUI = [sys.executable, "-m", "cardtui.cli"]
pytestmark = pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc")


async def watching(server: Running, table_id: str, name: str, process: asyncio.subprocess.Process) -> None:
    """Until ``name`` watches the table (the client got in with the password), or the client ends."""
    table = server.room.tables[table_id]

    def there() -> bool:
        assert process.returncode is None, "the client ended before it got in"
        return name in table.spectators.values()

    await eventually(there, f"{name} watching the table")


async def client(*args: str, env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(*CARDTUI, *args, env=env, stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)


async def ended(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.kill()
    await process.wait()


async def test_the_password_from_a_file_or_the_environment_is_not_on_the_command_line(
    server: Running, tmp_path: Path
) -> None:
    table_id = await create(server, game="cacho", seats=3, bots=3, password=SECRET, bot_delay_ms=60_000)
    target = f"127.0.0.1:{server.port}"
    secret_file = tmp_path / "password"
    secret_file.write_text(SECRET + "\n", encoding="utf-8")
    env = guest_environment(80, 24)
    from_file = await client("connect", target, "--guest", "--name", "eve", "--spectate", table_id,
                             "--password-file", str(secret_file), env=env)
    from_env = await client("connect", target, "--guest", "--name", "fay", "--spectate", table_id,
                            env={**env, PASSWORD_ENV: SECRET})
    try:
        await asyncio.wait_for(asyncio.gather(watching(server, table_id, "eve", from_file),
                                              watching(server, table_id, "fay", from_env)), 90)
        for process in (from_file, from_env):
            cmdline = Path(f"/proc/{process.pid}/cmdline").read_bytes()
            assert b"connect" in cmdline and SECRET.encode() not in cmdline, cmdline
        assert b"--password-file" in Path(f"/proc/{from_file.pid}/cmdline").read_bytes()
        environ = Path(f"/proc/{from_env.pid}/environ")
        assert stat.S_IMODE(environ.stat().st_mode) == 0o400, "the environment is its user's alone"
    finally:
        await ended(from_file)
        await ended(from_env)


async def test_a_password_on_the_command_line_is_refused_before_anything_is_sent(server: Running) -> None:
    table_id = await create(server, game="cacho", seats=3, bots=3, password=SECRET)
    process = await client("connect", f"127.0.0.1:{server.port}", "--guest", "--name", "eve", "--spectate",
                           table_id, "--password", SECRET, env=guest_environment(80, 24))
    try:
        _, err = await asyncio.wait_for(process.communicate(), 60)
    finally:
        await ended(process)
    assert process.returncode == 2
    assert err.decode().strip() == (
        "cardtui: --password is not taken on the command line, where every user of this machine can read it (ps); "
        "put the password in a file (--password-file FILE) or in CARDTUI_PASSWORD, or leave it out and you are "
        "asked.")
    assert not server.room.tables[table_id].spectators


def test_a_browser_guest_never_gets_the_hosts_password(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host who keeps ``CARDTUI_PASSWORD`` set and serves browsers hands it to no guest."""
    monkeypatch.setenv(PASSWORD_ENV, SECRET)
    assert PASSWORD_ENV not in guest_environment(80, 24)
    args = cli.parser().parse_args(["connect", "host", "--ask-name"])
    assert table_password(args) == ("", None), "a browser session is a guest's, whatever its environment"
    args = cli.parser().parse_args(["connect", "host"])
    assert table_password(args) == (SECRET, None)
    replay = cli.parser().parse_args(["replay", "--table", "t1", "--password", SECRET])
    password, problem = table_password(replay)
    assert password == "" and problem is not None and "--password-file" in problem, "replay refuses it too"
