"""The ports one ``cardtui serve`` listens on, and who holds a port it could not have.

A server takes its own port, each table worker the port after it (``--port`` plus the worker's number), the
page for browsers ``--web-port`` and the figures ``--metrics-port``. Two of them asking for one port is a
mistake in the flags, said before anything starts: the sentence names the port and both parts that asked for
it. A port that another program holds is said with that program when this system tells (Linux's ``/proc``: the
listening socket, and the process with it open, if this user may see it).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]", "*"})
"""Hosts that mean every address: a port taken there is taken on every address of the machine."""


@dataclass(frozen=True)
class Claim:
    """A port a part of the server asks for, on a host, and the part in words ("table worker 1")."""

    port: int
    host: str
    who: str


def claims(host: str, port: int, workers: int, web_port: int | None = None,
           metrics: tuple[str, int] | None = None) -> list[Claim]:
    """Every fixed port this server will ask for (0, any free port, asks for none)."""
    out = []
    if port:
        out.append(Claim(port, host, f"the table server (--port {port})"))
        if workers > 1:
            out += [Claim(port + 1 + i, host, f"table worker {i + 1} (--port {port} plus {i + 1})")
                    for i in range(workers)]
    if web_port:
        out.append(Claim(web_port, host, f"the page for browsers (--web-port {web_port})"))
    if metrics is not None and metrics[1]:
        out.append(Claim(metrics[1], metrics[0], f"the figures (--metrics-port {metrics[1]})"))
    return out


def _same_place(a: str, b: str) -> bool:
    return a.strip("[]") == b.strip("[]") or a in WILDCARDS or b in WILDCARDS


def clash(asked: Sequence[Claim]) -> str | None:
    """The first port two parts of the server ask for, in a sentence naming it and both parts; None if none."""
    for i, later in enumerate(asked):
        for earlier in asked[:i]:
            if earlier.port == later.port and _same_place(earlier.host, later.host):
                advice = ("choose another --web-port" if "--web-port" in later.who else
                          "choose another --metrics-port" if "--metrics-port" in later.who else "choose another port")
                if "worker" in earlier.who or "worker" in later.who:
                    advice += ", another --port, or fewer --workers"
                return (f"Port {later.port} is asked for twice: by {earlier.who} and by {later.who}; {advice}.")
    return None


def holder(port: int) -> str | None:
    """Who listens on TCP ``port`` on this machine, in words ("process 4242, python3 -m http.server"), as far as
    this system tells this user; None when it does not (another system, another user's process)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for row in Path(table).read_text().splitlines()[1:]:
                fields = row.split()
                if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(fields[9])
    if not inodes:
        return None
    wanted = {f"socket:[{inode}]" for inode in inodes}
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        with contextlib.suppress(OSError):
            fds = Path("/proc", pid, "fd")
            if any(os.readlink(fds / fd) in wanted for fd in os.listdir(fds)):
                command = Path("/proc", pid, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                return f"process {pid} ({command.strip()[:80] or 'no command line'})"
    return None


def in_use(host: str, port: int, who: str) -> str:
    """A port ``who`` could not listen on, said with what holds it where the system tells."""
    held = holder(port)
    by = f"in use by {held}" if held else "in use by another program"
    return f"Port {port} on {host} is {by}: {who} cannot listen there."
