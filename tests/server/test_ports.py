"""A port clash is said with the port and whoever holds it: two parts of one ``serve`` asking for one port are
refused before anything starts, naming both; a port another program holds names that program.

The command itself as a subprocess (``tests.test_cli.run``); a real socket held by the test for the holder.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

from cardtui.server.ops.ports import claims, clash, holder, in_use
from tests.test_cli import run


def test_the_page_on_a_table_workers_port_is_refused_naming_the_port_and_both_parts(tmp_path: Path) -> None:
    """``serve --port 53010 --web --web-port 53011`` with two workers: 53011 is the first worker's."""
    bad = run("serve", "--port", "53010", "--web", "--web-port", "53011", "--workers", "2", "--db",
              str(tmp_path / "s.db"), "--no-announce")
    assert bad.returncode == 2, bad.stderr
    said = bad.stderr.strip().splitlines()[-1]
    assert "Port 53011" in said and "table worker 1" in said and "--web-port 53011" in said, said
    assert "another cardtui server" not in said
    assert not (tmp_path / "s.db").exists(), "a refused start leaves nothing behind"


def test_every_pair_of_parts_that_share_a_port_is_found() -> None:
    assert clash(claims("127.0.0.1", 50051, 4, 8080, ("127.0.0.1", 9100))) is None
    assert clash(claims("127.0.0.1", 0, 4, 8080, None)) is None, "port 0: the workers take any free port"
    assert "the table server (--port 8080)" in (clash(claims("0.0.0.0", 8080, 1, 8080, None)) or "")
    assert "table worker 3" in (clash(claims("127.0.0.1", 50051, 4, 50054, None)) or "")
    assert clash(claims("127.0.0.1", 50051, 1, 50052, None)) is None, "one process: no worker takes 50052"
    metrics = clash(claims("127.0.0.1", 50051, 1, 8080, ("0.0.0.0", 8080)))
    assert metrics is not None and "--metrics-port 8080" in metrics and "--web-port 8080" in metrics
    assert clash(claims("127.0.0.1", 50051, 1, 8080, ("192.0.2.1", 8080))) is None, "two addresses, two ports"


def test_a_port_another_program_holds_names_that_program(tmp_path: Path) -> None:
    held = socket.create_server(("127.0.0.1", 0))
    try:
        port = held.getsockname()[1]
        found = holder(port)
        assert found is not None and f"process {os.getpid()}" in found, found
        said = in_use("127.0.0.1", port, "the table server")
        assert f"Port {port}" in said and f"process {os.getpid()}" in said
        bad = run("serve", "--port", str(port), "--workers", "1", "--db", str(tmp_path / "s.db"), "--no-announce")
        assert bad.returncode == 1, bad.stderr
        assert f"Port {port} on 127.0.0.1 is in use by process {os.getpid()}" in bad.stderr, bad.stderr
    finally:
        held.close()
    free = socket.create_server(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    assert holder(port) is None
