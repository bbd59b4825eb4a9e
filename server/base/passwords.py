"""Table and tournament passwords at rest: salted and slow, never a plain digest.

A person chooses a password, so a fast digest of it is nearly the password itself to whoever
reads the store: a word list tried against an unsalted SHA-256 finds it in moments, and one
table's digest is every other table's with the same password. Tokens are another matter (192
random bits nobody chose: a plain SHA-256 is enough, ``store.token_digest``). A password is
kept as scrypt (RFC 7914, ``hashlib.scrypt``) with a salt of its own, at N = 2^14, r = 8, p = 1
(what Django uses: 16 MiB and a few tens of milliseconds a check), and checked off the event
loop (``check``), so the tables keep moving while it runs.

What scrypt is given is the password's SHA-256 in hex, which is what stores of earlier versions
kept: such a store is brought up to scrypt the first time a server opens it (``Store``), with
nobody typing a password again, and no old digest is left in its files.

Kept as ``scrypt$N$r$p$SALT$HASH`` (salt and hash in hex), so the cost can grow later while the
passwords kept before still check.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets

SCHEME = "scrypt"
COST = (2**14, 8, 1)
"""scrypt's N (CPU and memory), r (block size) and p (parallelism) for passwords kept from now on."""
MOST_MEMORY = 2**27
"""The most memory one check may take (128 MiB): a kept password asking for more does not match."""
SALT_BYTES = 16
HASH_BYTES = 32
_OLD = re.compile(r"[0-9a-f]{64}")


def _sha256(password: str) -> str:
    return hashlib.sha256(password.encode()).hexdigest()


def _scrypt(sha: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(sha.encode(), salt=salt, n=n, r=r, p=p, maxmem=MOST_MEMORY, dklen=HASH_BYTES)


def _wrapped(sha: str) -> str:
    salt = secrets.token_bytes(SALT_BYTES)
    n, r, p = COST
    return "$".join((SCHEME, str(n), str(r), str(p), salt.hex(), _scrypt(sha, salt, n, r, p).hex()))


def kept(password: str) -> str:
    """What the store keeps of a password: its salted scrypt (slow on purpose)."""
    return _wrapped(_sha256(password))


def is_old(stored: str) -> bool:
    """Whether ``stored`` is an earlier version's unsalted SHA-256 of a password."""
    return _OLD.fullmatch(stored) is not None


def upgraded(stored: str) -> str:
    """An earlier version's SHA-256 of a password, as this version keeps the same password."""
    return _wrapped(stored)


def matches(stored: str, password: str) -> bool:
    """Whether ``password`` is the one kept as ``stored`` (an old SHA-256 too). Slow: see ``check``."""
    if is_old(stored):
        return secrets.compare_digest(stored, _sha256(password))
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != SCHEME or not password:
        return False
    try:
        n, r, p = (int(x) for x in parts[1:4])
        salt, hashed = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
        return secrets.compare_digest(_scrypt(_sha256(password), salt, n, r, p), hashed)
    except ValueError:  # not hex, or a cost scrypt refuses or past MOST_MEMORY
        return False


async def check(stored: str, password: str) -> bool:
    """``matches``, in a worker thread (``hashlib.scrypt`` lets go of the GIL while it works)."""
    return await asyncio.to_thread(matches, stored, password)
