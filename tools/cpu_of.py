"""The CPU a command takes with every process it starts, those it never waits for included.

``python -m tools.cpu_of .venv/bin/pytest -n 0 -p no:randomly -q tests/test_web_taps.py`` prints the user and
system seconds of the command and of all its descendants, then the wall seconds, on its last line (stderr).
``/usr/bin/time`` counts only the children each process waited for: a browser's renderers, a server's forked
workers whose parent ended first, are left out (Chromium's are most of a browser test's). This process makes
itself their subreaper (Linux's ``PR_SET_CHILD_SUBREAPER``), so every orphan is handed to it and waited here.
On a shared machine compare this CPU, never the wall time; and run with ``PYTHONDONTWRITEBYTECODE`` unset, as
``make test`` does (else every process compiles again the modules it imports).
"""

from __future__ import annotations

import ctypes
import os
import resource
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main(command: list[str]) -> int:
    if not command:
        sys.exit("usage: python -m tools.cpu_of COMMAND [ARG ...]")
    if sys.platform != "linux" or ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("cpu_of: needs Linux (a subreaper, to count every descendant)")
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    code = 1
    while True:
        try:
            ended, status = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if ended == pid:
            code = os.waitstatus_to_exitcode(status)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"cpu_of: user {used.ru_utime:.2f} s, system {used.ru_stime:.2f} s, "
          f"wall {time.monotonic() - started:.1f} s, exit {code}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
