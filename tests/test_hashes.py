"""The package's SHA-256 (``cardtui.hashes``): hashlib's digests, from code that a forked table worker does
not have to bring in from OpenSSL's library for every act it plays."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import os
import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtui import hashes
from cardtui.engine.cards import french_deck
from cardtui.engine.fairness import chain_link, hand_hash, hand_rng
from cardtui.fair import DealSeed, commitment
from cardtui.server.store import token_digest


@given(st.binary(max_size=300), st.lists(st.binary(max_size=80), max_size=4))
def test_every_digest_is_hashlibs(data: bytes, more: list[bytes]) -> None:
    ours, theirs = hashes.sha256(data), hashlib.sha256(data)
    assert (ours.digest(), ours.hexdigest()) == (theirs.digest(), theirs.hexdigest())
    copied = ours.copy()
    for chunk in more:
        copied.update(chunk)
        theirs.update(chunk)
    assert copied.digest() == theirs.digest()
    assert ours.digest() == hashlib.sha256(data).digest()  # the copy left the original as it was
    assert hashes.sha256_hex(data) == hashlib.sha256(data).hexdigest()
    assert (ours.digest_size, ours.block_size, ours.name) == (32, 64, "sha256")


@given(st.binary(max_size=100), st.binary(max_size=200))
def test_an_hmac_over_it_is_hashlibs(key: bytes, message: bytes) -> None:
    ours = hmac.new(key, message, hashes.sha256)
    theirs = hmac.new(key, message, hashlib.sha256)
    assert ours.digest() == theirs.digest()
    block = ours.copy()
    block.update(b"\0" * 8)
    assert block.digest() == hmac.new(key, message + b"\0" * 8, "sha256").digest()


def test_a_large_input_is_hashed_alike() -> None:
    data = random.Random(3).randbytes(3_000_000)
    assert hashes.sha256(data).digest() == hashlib.sha256(data).digest()


def test_cpythons_own_sha256_is_the_one_used_where_it_has_one() -> None:
    own = importlib.util.find_spec("_sha2") or importlib.util.find_spec("_sha256")
    if own is None:
        pytest.skip("this Python was built without its own hashes: hashlib's OpenSSL is used")
    assert hashes.sha256 is not hashlib.sha256
    assert type(hashes.sha256(b"")).__module__ in ("_sha2", "_sha256")


def _libcrypto_kb() -> int | None:
    """KB of OpenSSL's libcrypto resident in this process, None where it is not a library of its own here."""
    total, inside = None, False
    with open("/proc/self/smaps") as f:
        for line in f:
            parts = line.split()
            if "-" in parts[0] and len(parts) >= 5:
                inside = len(parts) >= 6 and "libcrypto" in parts[5]
            elif inside and parts[0] == "Rss:":
                total = (total or 0) + int(parts[1])
    return total


def _brought_in(work: Callable[[], object]) -> int | None:
    """KB of libcrypto that ``work`` brings in, run in a process forked from this one (a fork shares no page of
    a library's code with its parent until it runs it, as a table worker forked before its first act)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child's)
        try:
            os.close(read)
            before = _libcrypto_kb()
            work()
            after = _libcrypto_kb()
            os.write(write, json.dumps(None if before is None or after is None else after - before).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        said = f.read()
    os.waitpid(pid, 0)
    result: int | None = json.loads(said)
    return result


def _a_tables_hashes() -> None:
    """What a table's process hashes as it plays: tokens, a fair deal's commitment, its stream, the hand's record
    and its link in the chain."""
    for i in range(50):
        token_digest(f"seat-token-{i}")
    seed = DealSeed(b"s" * 32, ((0, b"p" * 32), (1, b"q" * 32)), "t1", 1)
    commitment(seed.server_seed)
    rng = hand_rng(seed)
    deck = french_deck()
    rng.shuffle(deck)
    record = {"cards": [str(c) for c in deck], "fair": {"server_seed": seed.server_seed.hex()}}
    hand_hash(record)
    chain_link(record)


@pytest.mark.skipif(not os.path.exists("/proc/self/smaps"), reason="reads /proc/self/smaps (Linux)")
def test_a_forked_process_plays_its_hashes_without_bringing_in_openssls_code() -> None:
    # Lay the package's own code in before the fork, as the fork server does before it starts the workers.
    _a_tables_hashes()
    hashlib.sha256(b"the parent has used OpenSSL's: the child still has to bring its pages in").digest()
    ours = _brought_in(_a_tables_hashes)
    if ours is None:
        pytest.skip("OpenSSL's libcrypto is not a library of its own in this Python")
    # The check can tell: the same hashes through hashlib's OpenSSL bring its code in.
    openssls = _brought_in(lambda: [hmac.new(b"k" * 32, bytes([i]), hashlib.sha256).digest() for i in range(50)])
    assert openssls is not None and openssls >= 256, openssls
    assert ours < 64, f"{ours} KB of libcrypto brought in by a table's hashes"
