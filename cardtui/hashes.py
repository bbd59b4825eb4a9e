"""SHA-256 as the package computes it: CPython's own implementation where it has one, else hashlib's.

Everything hashed while tables play is small: a token, a seed, a hand's record, a 40-byte block of the deal
stream. For inputs that small CPython's built-in SHA-256 is no slower than OpenSSL's (0.6 against 0.9 µs a
hash of 40 bytes here), and it is a few pages of code, where the first hash through OpenSSL 3's EVP layer
brings some 770 KB of libcrypto into the process that makes it: every table worker, forked before it had
hashed anything, did so at its first act, and ran that code cold at every act after a pause.

The digests are SHA-256's whichever implementation makes them (``tests/test_hashes.py`` holds them to
hashlib's). Large inputs (a file's bytes) are left to hashlib, whose OpenSSL uses the processor's
SHA instructions.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _hashlib import _HashObject as Hash  # what a hash object offers, whichever module made it (typeshed)


def _builtin() -> Callable[..., Hash]:
    for module in ("_sha2", "_sha256"):  # CPython 3.12 and later; 3.11
        try:
            found: Callable[..., Hash] = importlib.import_module(module).sha256
        except (ImportError, AttributeError):
            continue
        return found
    return hashlib.sha256  # a Python built without its own hashes: OpenSSL's


sha256: Callable[..., Hash] = _builtin()
"""``sha256(data=b"")``: a new SHA-256 object, as ``hashlib.sha256``; also ``hmac.new``'s ``digestmod``."""


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hex."""
    return sha256(data).hexdigest()
