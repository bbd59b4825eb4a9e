"""Telling systemd how the server stands (``Type=notify``, docs/operating.md): ready once it listens, stopping as
it stops.

The protocol is a datagram of ``KEY=VALUE`` lines sent to the unix socket named by ``$NOTIFY_SOCKET`` (a path, or
an abstract socket when it starts with ``@``); a few lines of the standard library say it, so no dependency is
needed for it. Outside systemd the variable is unset and nothing is sent.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger("cardtui.systemd")

SOCKET_ENV = "NOTIFY_SOCKET"


def notify(state: str) -> bool:
    """Send ``state`` (e.g. ``READY=1``) to the service manager; whether it was sent (False outside systemd, or
    when the socket cannot be written: the server runs on either way, and says so in the log)."""
    where = os.environ.get(SOCKET_ENV, "")
    if not where:
        return False
    address = "\0" + where[1:] if where.startswith("@") else where
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode())
    except OSError as e:
        log.warning("could not tell the service manager %r at %s: %s", state, where, e)
        return False
    return True


def ready(status: str) -> bool:
    """The server listens and has restored its tables: systemd may start what waits for it."""
    return notify(f"READY=1\nSTATUS={status}\nMAINPID={os.getpid()}")


def stopping() -> bool:
    """The server is shutting down (its streams told, its workers stopping)."""
    return notify("STOPPING=1")
