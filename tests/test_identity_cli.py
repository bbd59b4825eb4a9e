"""The command line's identity: made on first use, private, and left out for guests and browser sessions."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from cardtui.cli import main, parser
from cardtui.cli.flags import identity_of


def test_cardtui_identity_makes_a_private_key_once_and_shows_its_fingerprint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "me" / "identity.pem"
    assert main(["identity", "--identity", str(path)]) == 0
    first = capsys.readouterr().out
    assert "(made now)" in first and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert main(["identity", "--identity", str(path)]) == 0
    again = capsys.readouterr().out
    assert "(made now)" not in again
    assert first.splitlines()[1] == again.splitlines()[1], "the same fingerprint"
    path.chmod(0o644)
    assert main(["identity", "--identity", str(path)]) == 2
    assert "chmod 600" in capsys.readouterr().err


def test_guests_and_browser_sessions_play_without_a_key(tmp_path: Path) -> None:
    key = str(tmp_path / "k.pem")
    args = parser().parse_args(["connect", "h", "--identity", key])
    me, problem = identity_of(args)
    assert me is not None and problem is None and Path(key).exists()
    assert identity_of(parser().parse_args(["connect", "h", "--guest", "--identity", key])) == (None, None)
    assert identity_of(parser().parse_args(["connect", "h", "--ask-name"])) == (None, None), "a browser session"
    me, _ = identity_of(parser().parse_args(["connect", "h", "--ask-name", "--identity", key]))
    assert me is not None
    me, _ = identity_of(parser().parse_args(["play", "--identity", key]))
    assert me is not None
