"""The group the sealed scheme locks in: secp256k1, through libsecp256k1 (``coincurve``).

Why this group and this library (measured on the project's 2-core machine, ``make bench-sealed``'s
first lines, bench/marks.md): a lock is one scalar multiplication of a point not known in advance,
and a four-seat deal makes some 800 of them on the way to the first card. libsecp256k1 does one in
about 57 µs; libsodium's ed25519 (PyNaCl, ``crypto_scalarmult_ed25519_noclamp``) in 174 µs; OpenSSL's
P-256 through ``cryptography``'s ECDH (the x coordinate only) in 153 µs and its secp256k1 in 780 µs.
ristretto255, the prime-order group one would choose to avoid ed25519's cofactor, is in libsodium but
not in PyNaCl 1.6's bindings. secp256k1 has prime order (cofactor 1): every point but the identity
generates the whole group, so a lock by any non-zero scalar is a permutation of the points and can
be undone by the inverse scalar, with no small subgroup for a cheat to hide in.

A point travels as its 33-byte SEC 1 compressed form (``02``/``03`` ‖ x), and only so: a point has
one encoding, so points are compared by their bytes. The identity has no encoding: a message that
would need it is refused. A scalar is an integer in [1, n − 1] and travels as 32 bytes, big-endian.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Sequence

from coincurve import PublicKey

from cardtui.hashes import sha256
from cardtui.sealed import SCHEME

N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
"""The order of secp256k1's group (prime)."""
P = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F
"""The field's prime."""
POINT_BYTES = 33
SCALAR_BYTES = 32
G = PublicKey(bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"))
"""The group's standard generator."""

Point = PublicKey
"""A point of the group other than the identity (coincurve's ``PublicKey``)."""


def u32(value: int) -> bytes:
    """``value`` as 4 bytes, big-endian (docs/deal.md's conventions)."""
    return value.to_bytes(4, "big")


def u64(value: int) -> bytes:
    """``value`` as 8 bytes, big-endian."""
    return value.to_bytes(8, "big")


def tag(what: str) -> bytes:
    """The domain tag every hash of the scheme starts with: ``cardtui-sealed/1 <what>`` and a zero byte."""
    return f"{SCHEME} {what}".encode() + b"\x00"


def framed(data: bytes) -> bytes:
    """``data`` after its length (u32), so that joined fields cannot be read two ways."""
    return u32(len(data)) + data


def encode(point: Point) -> bytes:
    """The 33 bytes a point travels as."""
    return point.format(compressed=True)


def decode(data: bytes) -> Point:
    """The point ``data`` encodes (33 bytes, ``02``/``03`` ‖ x, x on the curve), or ``ValueError``."""
    if len(data) != POINT_BYTES or data[0] not in (2, 3):
        raise ValueError("a point is 33 bytes, 02 or 03 and then its x")
    return PublicKey(data)


def scalar_bytes(value: int) -> bytes:
    """The 32 bytes a scalar travels as."""
    return value.to_bytes(SCALAR_BYTES, "big")


def scalar_from(data: bytes) -> int:
    """The scalar ``data`` holds (32 bytes, a value in [1, n − 1]), or ``ValueError``."""
    if len(data) != SCALAR_BYTES:
        raise ValueError("a scalar is 32 bytes")
    value = int.from_bytes(data, "big")
    if not 0 < value < N:
        raise ValueError("a scalar lies between 1 and n - 1")
    return value


def derive_scalar(secret: bytes, label: bytes) -> int:
    """A scalar in [1, n − 1] that ``secret`` and ``label`` fix: HMAC-SHA-512 (key ``secret``) of
    ``tag("scalar") ‖ label``, read big-endian, reduced mod n − 1, plus 1 (512 bits, so the bias is
    below 2⁻²⁵⁰)."""
    digest = hmac.new(secret, tag("scalar") + label, "sha512").digest()
    return int.from_bytes(digest, "big") % (N - 1) + 1


def mul(point: Point, scalar: int) -> Point:
    """``scalar · point``."""
    return point.multiply(scalar_bytes(scalar % N))


def base(scalar: int) -> Point:
    """``scalar · G``."""
    return PublicKey.from_secret(scalar_bytes(scalar % N))


def add(points: Sequence[Point]) -> Point:
    """The sum of ``points`` (``ValueError`` if it is the identity, which a proof never needs)."""
    return points[0] if len(points) == 1 else PublicKey.combine_keys(list(points))


def sub(left: Point, right: Point) -> Point:
    """``left − right``."""
    return add([left, mul(right, N - 1)])


def inverse(scalar: int) -> int:
    """The scalar that undoes ``scalar``: its inverse mod n."""
    return pow(scalar, -1, N)


def product(scalars: Iterable[int]) -> int:
    """The product of ``scalars`` mod n: applying it once is applying each in turn."""
    result = 1
    for value in scalars:
        result = result * value % N
    return result


def hash_to_point(name: bytes) -> Point:
    """A point no one knows the discrete logarithm of, fixed by ``name`` (try and increment): for
    ``i`` = 0, 1, …, x = SHA-256(``tag("point") ‖ framed(name) ‖ u32(i)``); the first x below p that
    is the x of a point gives the point ``02 ‖ x`` (its y even)."""
    counter = 0
    while True:
        x = sha256(tag("point") + framed(name) + u32(counter)).digest()
        counter += 1
        if int.from_bytes(x, "big") >= P:
            continue
        try:
            return PublicKey(b"\x02" + x)
        except ValueError:
            continue


def card_point(card: str) -> Point:
    """The point that stands for ``card`` (its name as docs/deal.md §2 writes it, UTF-8)."""
    return hash_to_point(b"card " + card.encode())
