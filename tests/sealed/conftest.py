"""The sealed tests' shared fixture: fewer cut-and-choose rounds where what a test shows does not rest on them.

A shuffle's proof of ``ROUNDS`` (24) rounds costs each seat 24 shadow decks to make and each checker 24 to remake:
most of a sealed hand's CPU in these tests. Its soundness (a lock that is no shuffle is caught) rests on the count
and is tested at the full count (tests/sealed/test_scheme.py, the bent lock of test_table.py, the vectors); a test
of dealing, keys, envelopes, claims or the host's view is the same at 4 rounds, as prover and checkers agree on it.
"""

from __future__ import annotations

import pytest

from cardtui.sealed import shuffle

FEW = 4
"""Rounds of a shuffle's proof where the test does not rest on them: a cheat still passes at 1 in 16, so no test
here checks a bent lock at this count."""


@pytest.fixture
def few_rounds(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(shuffle, "ROUNDS", FEW)
    return FEW
