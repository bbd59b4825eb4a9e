"""The wire contract: stubs in the tree match the .proto files; the layering holds."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_stubs_in_the_tree_match_what_the_protos_generate(tmp_path: Path) -> None:
    protos = sorted(str(p.relative_to(ROOT / "proto")) for p in (ROOT / "proto").rglob("*.proto"))
    assert protos, "no .proto files found"
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", "-Iproto", f"--python_out={tmp_path}",
         f"--grpc_python_out={tmp_path}",
         f"--plugin=protoc-gen-mypy={bin_dir / 'protoc-gen-mypy'}", f"--mypy_out={tmp_path}",
         f"--plugin=protoc-gen-mypy_grpc={bin_dir / 'protoc-gen-mypy_grpc'}", f"--mypy_grpc_out={tmp_path}",
         *[f"proto/{p}" for p in protos]],
        cwd=ROOT, check=True,
    )
    generated = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.py*"))
    assert generated
    stale = [str(p) for p in generated if (ROOT / p).read_text() != (tmp_path / p).read_text()]
    assert not stale, f"stale stubs (run `make proto`): {stale}"


def test_the_import_contracts_hold() -> None:
    """The layering (the engine imports no server, client, grpc or textual; the client neither the
    server nor the engine; the server's parts in their layers, the table actor apart from the lobby and the
    web) and no circle of imports, over the package as it is installed."""
    out = subprocess.run([sys.executable, "-m", "tools.imports"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"Contracts: \d+ kept, 0 broken", out.stdout), out.stdout
