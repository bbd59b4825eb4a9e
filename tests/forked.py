"""``cardtui serve`` for the tests that kill and restart it many times, forked from a process that has loaded
the package once rather than started afresh: a start then costs a fork and the server's own start-up (about
0.1 s of a core) rather than an interpreter's imports as well (about 0.5 s). What runs is the real server, the
command line's ``serve`` in a process of its own: its own pid, killed with -9 like any, its store on disk.

A process that has opened a gRPC channel must not fork, and the tests' processes have, so the forking is done
by a helper of its own (``python -m tests.forked``), one per test process, which loads the package and grpc but
opens nothing. It answers on its stdin and stdout, a JSON line each way: ``{"serve": [ARGS], "env": {...}}`` gives
``{"pid": N, "line": "the server's first line"}`` (``env``: variables set in the server's process, as a shell's
``NAME=value cardtui serve`` would); ``{"wait": N, "timeout": S}`` gives ``{"status": its exit
code as ``subprocess.Popen.returncode`` says it, or null while it runs}``. When the test process ends, the
helper's stdin closes and it kills whatever it started that still runs.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent


class Served:
    """A forked server: as much of ``subprocess.Popen`` as the tests use (its parent is the helper, which
    alone may wait for it, so waiting is asked of the helper)."""

    def __init__(self, pid: int, line: str) -> None:
        self.pid = pid
        self.line = line
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = _ask({"wait": self.pid, "timeout": 0})["status"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = _ask({"wait": self.pid, "timeout": 3600.0 if timeout is None else timeout})["status"]
            if self.returncode is None:
                raise subprocess.TimeoutExpired(f"cardtui serve (pid {self.pid})", timeout or 0.0)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


_helper: subprocess.Popen[str] | None = None
_lock = threading.Lock()


def _ask(request: dict[str, Any]) -> dict[str, Any]:
    global _helper
    with _lock:  # one question at a time: a test may wait for a server in a thread of its own
        if _helper is None or _helper.poll() is not None:
            _helper = subprocess.Popen([sys.executable, "-m", "tests.forked"], cwd=ROOT, stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True)
        assert _helper.stdin is not None and _helper.stdout is not None
        _helper.stdin.write(json.dumps(request) + "\n")
        _helper.stdin.flush()
        answer = _helper.stdout.readline()
    if not answer:
        raise RuntimeError("the helper that forks servers is gone")
    said: dict[str, Any] = json.loads(answer)
    return said


def serve(args: list[str], log: Path | None = None, env: dict[str, str] | None = None,
          timing: dict[str, float] | None = None) -> tuple[Served, int]:
    """``cardtui serve ARGS`` forked, once it listens: the process and its port (``log``: a file its standard
    error, where it logs, goes to, added to; ``env``: variables set in its environment; ``timing``: module
    constants, ``"module:NAME"``, set in it before it starts, for an interval no test waits out on purpose)."""
    said = _ask({"serve": ["serve", *args], "log": str(log) if log is not None else "", "env": env or {},
                 "timing": timing or {}})
    line = str(said["line"])
    assert "server on" in line, line
    return Served(int(said["pid"]), line), int(line.split()[3].rsplit(":", 1)[1])


# -- the helper ------------------------------------------------------------------------------------
def _first_line(fd: int) -> str:
    got = b""
    while not got.endswith(b"\n"):
        chunk = os.read(fd, 1)
        if not chunk:
            break
        got += chunk
    return got.decode(errors="replace")


def _drain(fd: int) -> None:
    """What a server prints after its first line, read and dropped: a full pipe would stop it."""
    while os.read(fd, 65536):
        pass
    os.close(fd)


def _start(args: list[str], answers: IO[str], log: str = "", env: dict[str, str] | None = None,
           timing: dict[str, float] | None = None) -> dict[str, Any]:
    import importlib

    import cardtui.cli

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the server: its stdout the pipe, nothing of the helper's conversation
        code = 1
        try:
            os.close(read)
            os.close(answers.fileno())
            os.dup2(write, 1)
            os.close(write)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.close(null)
            if log:
                err = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
                os.dup2(err, 2)
                os.close(err)
            sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115  the server's own stdout
            os.environ.update(env or {})  # read by the server as it starts, and by the processes it starts
            for name, value in (timing or {}).items():
                where, constant = name.split(":")
                setattr(importlib.import_module(where), constant, value)
            code = cardtui.cli.main(args)
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            sys.stdout.flush()
            os._exit(code)
    os.close(write)
    line = _first_line(read)
    threading.Thread(target=_drain, args=(read,), daemon=True).start()
    return {"pid": pid, "line": line}


def _wait(pid: int, timeout: float, done: dict[int, int]) -> dict[str, Any]:
    """The child's exit, waited for on its pidfd (readable once it has exited), at most ``timeout`` seconds."""
    if pid not in done:
        fd = os.pidfd_open(pid)
        try:
            exited, _, _ = select.select([fd], [], [], timeout)
        finally:
            os.close(fd)
        if not exited:
            return {"status": None}
        _, status = os.waitpid(pid, 0)
        done[pid] = os.waitstatus_to_exitcode(status)
    return {"status": done[pid]}


def main() -> None:
    import gc

    import platformdirs  # noqa: F401  (what a start imports: the store's folder, its ports, where it is)

    import cardtui.cli  # the package, loaded once for every server forked from here
    import cardtui.server.app
    import cardtui.server.ops.announce
    import cardtui.server.ops.ports  # noqa: F401

    # What every server shares, moved out of the collector's sight before the first fork, as the browser guests'
    # parent does: a server's start collects (``server.app.start``), and walking the whole inherited heap would
    # cost each start tens of milliseconds of a core and a copy of every page it touched.
    gc.freeze()

    answers = open(os.dup(1), "w", buffering=1)  # noqa: SIM115  fd 1 itself goes to each server
    started: list[int] = []
    done: dict[int, int] = {}
    for line in sys.stdin:
        request = json.loads(line)
        if "serve" in request:
            said = _start([str(a) for a in request["serve"]], answers, str(request.get("log") or ""),
                          {str(k): str(v) for k, v in (request.get("env") or {}).items()},
                          {str(k): float(v) for k, v in (request.get("timing") or {}).items()})
            started.append(int(said["pid"]))
        else:
            said = _wait(int(request["wait"]), float(request["timeout"]), done)
        answers.write(json.dumps(said) + "\n")
    for pid in started:  # the tests are over: nothing they started outlives them
        if pid not in done:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


if __name__ == "__main__":
    main()
