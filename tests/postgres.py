"""A real PostgreSQL server for the tests: Debian's own binaries, a cluster made for the run.

One cluster per test session, in a temporary folder, listening on 127.0.0.1 at a free port,
with a fresh database per test. ``make test`` installs Debian's ``postgresql`` package where it
is missing; where it still cannot be found the tests that need it are skipped and say why.
PostgreSQL refuses to run as root, so as root the cluster runs as the ``postgres`` user the
package creates.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: Debian's (newest version first), or on the PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]), reverse=True)
    if found:
        return Path(found[0]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    """A running PostgreSQL cluster of the tests' own."""

    folder: Path
    bin: Path
    port: int
    user: str | None
    """The system user it runs as (``postgres`` when the tests run as root), None: this one."""

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)

    @classmethod
    def start(cls) -> Cluster:
        where = binaries()
        if where is None:
            raise RuntimeError("no PostgreSQL server is installed (Debian: apt-get install postgresql)")
        user = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root, and there is no postgres user to run PostgreSQL as") from None
            user = "postgres"
        folder = Path(tempfile.mkdtemp(prefix="cardtui-pg-"))
        if user is not None:
            shutil.chown(folder, user, user)
        cluster = cls(folder, where, _free_port(), user)
        made = cluster._run("initdb", "-D", str(folder / "data"), "-U", "cardtui", "--auth=trust", "-E", "UTF8",
                            "--no-sync")
        if made.returncode:
            raise RuntimeError(f"initdb failed: {made.stderr.strip()[-500:]}")
        cluster.resume()
        return cluster

    def resume(self) -> None:
        """Start the server (again, after ``pause``: the same port, the same databases)."""
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.folder} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        started = self._run("pg_ctl", "-D", str(self.folder / "data"), "-o", options, "-l", str(self.folder / "log"),
                            "-w", "-t", "60", "start")
        if started.returncode:
            log = (self.folder / "log").read_text(errors="replace")[-800:] if (self.folder / "log").exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {started.stderr.strip()[-300:]} {log}")

    def pause(self) -> None:
        """Stop the server, its connections cut at once (``resume`` starts it again): a database gone away."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://cardtui@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"t_{secrets.token_hex(6)}"
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}".encode())
        return self.url(name)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
