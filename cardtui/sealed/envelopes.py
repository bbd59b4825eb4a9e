"""Envelopes: card keys sent from one seat to another through the host, which can neither read nor forge them.

Each seated client has a *box key* for its stay at a table: a scalar ``b`` and its point ``B = b·G`` (the
same group as the deck, ``group``). Two seats share the point ``Z = b_from·B_to = b_to·B_from``; an
envelope's cipher key is HMAC-SHA-256 (key ``Z``'s 33 bytes) of ``tag("box") ‖ framed(hand digest) ‖
u32 from ‖ u32 to ‖ framed(label)``, and its bytes are ChaCha20-Poly1305 (RFC 8439) of the contents
under that key, with a nonce of twelve zero bytes (each key seals one envelope: the label names which)
and no associated data. The contents are ``u32 count`` and then, for each key by increasing seat and then
place, ``u32 seat ‖ u32 place ‖ card key (32 bytes)``: the seat whose key it is (the sender's own, or
another's that the sender holds and passes on with its cards) and the card's place (docs/deal.md §S8).

Only the two seats can open an envelope, and only the sender (or the recipient) can make one that
opens: the host that relays it, and keeps it in the hand's record, can do neither. Should a recipient
say that an envelope did not open, or held a wrong key, it shows why to everyone by disclosing ``Z``
with a proof that ``Z`` is its own box key times the sender's point (``disclose``): anyone can then open
that one envelope and see. Disclosing ``Z`` tells the sender's keys for the discloser's cards and
nothing else: the discloser's own keys, without which its cards never open, stay with it.

A person compares the *seal code* with the others at the table once (said aloud, read off a screen):
it is made from every seat's box key, so a host that handed one client a box key of its own making in
place of another seat's, to read what is sealed for it, shows that client a different code. Box keys
are pledged (their hash sent) before any is shown, so a host cannot search for a key of its own whose
code matches.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from cardtui.hashes import sha256
from cardtui.sealed.faults import Cheat, Fault
from cardtui.sealed.group import (
    SCALAR_BYTES,
    G,
    Point,
    base,
    derive_scalar,
    encode,
    framed,
    mul,
    scalar_bytes,
    scalar_from,
    tag,
    u32,
)
from cardtui.sealed.proofs import Proof, prove, verify

NONCE = bytes(12)
ENTRY_BYTES = 8 + SCALAR_BYTES
Keys = dict[tuple[int, int], int]
"""Card keys by (the seat whose key it is, the card's place)."""
CODE_DIGITS = 6


@dataclass(frozen=True)
class BoxKey:
    """A client's box key for its stay at a table, derived from 32 bytes it keeps on its disk."""

    secret: bytes

    @property
    def scalar(self) -> int:
        """``b`` = derive_scalar(secret, framed("box"))."""
        return derive_scalar(self.secret, framed(b"box"))

    @property
    def point(self) -> Point:
        """``B = b·G``, what the others are told."""
        return base(self.scalar)

    def shared(self, other: Point) -> Point:
        """``Z``, the point this seat shares with the seat whose box point is ``other``."""
        return mul(other, self.scalar)


def pledge(point: Point) -> bytes:
    """What a seat sends before its box point: SHA-256 of ``tag("pledge") ‖ B``."""
    return sha256(tag("pledge") + encode(point)).digest()


def seal_code(points: Mapping[int, Point]) -> str:
    """The code everyone at the table compares: SHA-256 of ``tag("code") ‖ u32 count ‖ (u32 seat ‖ B)`` by
    increasing seat, its first 8 bytes read big-endian, mod 10⁶, six digits in two groups of three."""
    data = tag("code") + u32(len(points)) + b"".join(u32(seat) + encode(points[seat]) for seat in sorted(points))
    number = int.from_bytes(sha256(data).digest()[:8], "big") % 10**CODE_DIGITS
    digits = f"{number:0{CODE_DIGITS}d}"
    return f"{digits[:3]} {digits[3:]}"


def envelope_key(shared: Point, digest: bytes, sender: int, recipient: int, label: str) -> bytes:
    """The ChaCha20-Poly1305 key of one envelope: HMAC-SHA-256 (key ``Z``'s 33 bytes) of ``tag("box") ‖
    framed(digest) ‖ u32 sender ‖ u32 recipient ‖ framed(label)``."""
    return hmac.new(encode(shared), tag("box") + framed(digest) + u32(sender) + u32(recipient)
                    + framed(label.encode()), "sha256").digest()


def contents(card_keys: Mapping[tuple[int, int], int]) -> bytes:
    """What an envelope seals (§S8): ``u32 count`` and each ``u32 seat ‖ u32 place ‖ key`` by (seat, place)."""
    return _contents(card_keys)


def _cipher(shared: Point, digest: bytes, sender: int, recipient: int, label: str) -> ChaCha20Poly1305:
    return ChaCha20Poly1305(envelope_key(shared, digest, sender, recipient, label))


def _contents(card_keys: Mapping[tuple[int, int], int]) -> bytes:
    return u32(len(card_keys)) + b"".join(u32(seat) + u32(place) + scalar_bytes(card_keys[seat, place])
                                          for seat, place in sorted(card_keys))


def _read(contents: bytes) -> Keys:
    if len(contents) < 4:
        raise ValueError("no count")
    count = int.from_bytes(contents[:4], "big")
    if len(contents) != 4 + count * ENTRY_BYTES:
        raise ValueError("the count does not fit the length")
    found: Keys = {}
    last: tuple[int, int] | None = None
    for at in range(4, len(contents), ENTRY_BYTES):
        key = (int.from_bytes(contents[at:at + 4], "big"), int.from_bytes(contents[at + 4:at + 8], "big"))
        if last is not None and key <= last:
            raise ValueError("keys out of order")
        found[key] = scalar_from(contents[at + 8:at + ENTRY_BYTES])
        last = key
    return found


@dataclass(frozen=True)
class Envelope:
    """Card keys from ``sender`` for ``recipient``, sealed; ``label`` says which of the hand's envelopes
    between the two it is (``deal``, ``block 2``, ``passed``…): a label seals at most one envelope."""

    sender: int
    recipient: int
    label: str
    sealed: bytes


def seal(box: BoxKey, sender: int, recipient: int, recipient_point: Point, digest: bytes, label: str,
         card_keys: Mapping[tuple[int, int], int]) -> Envelope:
    """``card_keys`` ((seat, place) → card key) sealed by ``sender`` for ``recipient`` in the hand ``digest``."""
    cipher = _cipher(box.shared(recipient_point), digest, sender, recipient, label)
    return Envelope(sender, recipient, label, cipher.encrypt(NONCE, _contents(card_keys), None))


def open_with(shared: Point, envelope: Envelope, digest: bytes) -> Keys:
    """The card keys in ``envelope``, opened with the shared point; ``Cheat`` (bad envelope) naming its
    sender if it does not open or its contents are not card keys."""
    cipher = _cipher(shared, digest, envelope.sender, envelope.recipient, envelope.label)
    try:
        return _read(cipher.decrypt(NONCE, envelope.sealed, None))
    except (InvalidTag, ValueError) as error:
        raise Cheat(envelope.sender, Fault.BAD_ENVELOPE, f"for seat {envelope.recipient + 1}: {error or 'no seal'}"
                    ) from None


def open_envelope(box: BoxKey, sender_point: Point, envelope: Envelope, digest: bytes) -> Keys:
    """The recipient opens ``envelope`` with its box key."""
    return open_with(box.shared(sender_point), envelope, digest)


@dataclass(frozen=True)
class Disclosure:
    """A recipient's shared point with a sender, shown to everyone with its proof, to settle a dispute."""

    recipient: int
    sender: int
    shared: Point
    proof: Proof


def _disclosure_context(digest: bytes, recipient: int, sender: int) -> bytes:
    return digest + framed(b"disclose") + u32(recipient) + u32(sender)


def disclose(box: BoxKey, recipient: int, sender: int, sender_point: Point, digest: bytes) -> Disclosure:
    """``recipient`` shows its shared point with ``sender`` and proves it: ``Z = b·B_sender`` where ``b·G`` is
    its own box point."""
    shared = box.shared(sender_point)
    proof = prove(box.scalar, G, box.point, sender_point, shared, _disclosure_context(digest, recipient, sender),
                  b1_log=1)
    return Disclosure(recipient, sender, shared, proof)


def check_disclosure(disclosure: Disclosure, recipient_point: Point, sender_point: Point, digest: bytes) -> bool:
    """Whether ``disclosure`` is the true shared point of the two seats (so anyone may open with it)."""
    return verify(disclosure.proof, G, recipient_point, sender_point, disclosure.shared,
                  _disclosure_context(digest, disclosure.recipient, disclosure.sender))
