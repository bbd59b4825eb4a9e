"""The suite never reads or writes a person's files: every test, and every process it starts, keeps cardtui's
files (keys, choices, the language, the default store) in folders of its own (``tests/conftest.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardtui import i18n, identity
from cardtui.client import choices
from cardtui.server.ops.stores import default_db
from tests.conftest import OWN_FOLDERS


def persons(kind: str) -> Path:
    """Where a person's folder of that kind is when nothing redirects it (platformdirs' Linux default)."""
    return Path(os.path.expanduser("~")) / {"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share",
                                             "XDG_STATE_HOME": ".local/state"}[kind]


def test_every_file_cardtui_keeps_resolves_inside_the_tests_own_folder(tmp_path: Path) -> None:
    for name in OWN_FOLDERS:
        assert Path(os.environ[name]).is_relative_to(tmp_path), name
    for where in (default_db(), identity.default_path(), i18n.language_file(), choices.path()):
        assert where.is_relative_to(tmp_path), where
        assert not any(where.is_relative_to(persons(kind)) for kind in OWN_FOLDERS), where


def test_a_server_started_with_no_store_named_uses_the_tests_own(tmp_path: Path) -> None:
    """``cardtui serve`` with no ``--db``, as a person starts it: in the suite it opens a store in the test's own
    data folder, so a server on the person's default store (``make play``) never meets the suite's."""
    done = subprocess.run([sys.executable, "-c",
                           "from cardtui.server.ops.stores import default_db; print(default_db())"],
                          capture_output=True, text=True, timeout=60, check=True, env=dict(os.environ))
    store = Path(done.stdout.strip())
    assert store.is_relative_to(tmp_path) and store != persons("XDG_DATA_HOME") / "cardtui" / "cardtui.db"


@pytest.mark.parametrize("name", OWN_FOLDERS)
def test_the_session_itself_never_had_the_persons_folders(name: str) -> None:
    """Before any test's own folder, the session's: set when pytest starts, so an import or a fixture that looks
    up a folder early finds the suite's (the person's default is never what the session holds)."""
    session = os.environ.get(f"CARDTUI_SUITE_{name}")
    assert session is not None and not Path(session).is_relative_to(persons(name)), session
