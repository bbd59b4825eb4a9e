"""A player's identity: an Ed25519 key pair kept on their machine, and the proof a server asks for.

The private key never leaves the file it lives in (mode 0600, in the user's config directory
unless ``--identity`` names another). A server learns only the public key: the first key to
prove a name there owns it, so nobody who knows just the name can sit down as that person.

The proof is a challenge and response: the server hands out a fresh nonce (``Lobby.Hello``),
the client signs ``challenge(server_id, nonce, name)`` and sends it back (``Lobby.Prove``).
A nonce is good once and for a minute, and the server's id is signed too, so a signature seen
once is worth nothing later or at another server. Client and server both use this module.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from cardtui.hashes import sha256_hex

FILE_NAME = "identity.pem"
KEY_BYTES = 32
"""A raw Ed25519 public key."""
SIGNATURE_BYTES = 64
PREFIX = b"cardtui-identity/1\n"


class IdentityError(ValueError):
    """The identity file cannot be used; the message is a sentence saying why and what to do."""


def default_path() -> Path:
    """Where a player's key lives unless ``--identity`` says otherwise."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("cardtui")) / FILE_NAME


def challenge(server_id: str, nonce: bytes, name: str) -> bytes:
    """What the client signs: the server, its one-time nonce and the name being proved, byte by
    byte as docs/client.md §3 writes it out."""
    return PREFIX + server_id.encode() + b"\n" + nonce + b"\n" + name.encode("utf-8")


def verify(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s over ``message``."""
    if len(public_key) != KEY_BYTES or len(signature) != SIGNATURE_BYTES:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def fingerprint(public_key: bytes) -> str:
    """A short, readable digest of a public key, for people to compare ("3f2a 9c01 …")."""
    digest = sha256_hex(public_key)[:20]
    return " ".join(digest[i:i + 4] for i in range(0, len(digest), 4))


@dataclass(frozen=True)
class Identity:
    key: Ed25519PrivateKey
    path: Path

    @property
    def public_key(self) -> bytes:
        return self.key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def sign(self, server_id: str, nonce: bytes, name: str) -> bytes:
        return self.key.sign(challenge(server_id, nonce, name))


def load(path: Path) -> Identity:
    """The identity kept in ``path``; ``IdentityError`` with a sentence if it cannot be used."""
    try:
        if os.name == "posix":
            mode = path.stat().st_mode & 0o777
            if mode & 0o077:
                raise IdentityError(
                    f"The identity file {path} can be read by other users (mode {mode:o}); "
                    f"make it yours alone with: chmod 600 {path}"
                )
        data = path.read_bytes()
    except OSError as e:
        raise IdentityError(f"The identity file {path} cannot be read: {e.strerror or e}.") from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise IdentityError(f"The identity file {path} does not hold a cardtui key (an Ed25519 private key).") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise IdentityError(f"The identity file {path} holds a key of another kind; cardtui keys are Ed25519.")
    return Identity(key, path)


def create(path: Path) -> Identity:
    """A new key pair written to ``path`` (mode 0600; its folder 0700 if made here)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return load(path)  # made meanwhile by another cardtui on this machine
    except OSError as e:
        raise IdentityError(f"The identity file {path} cannot be written: {e.strerror or e}.") from None
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    return Identity(key, path)


def load_or_create(path: Path | None = None) -> Identity:
    """The player's identity, made on first use."""
    path = path if path is not None else default_path()
    return load(path) if path.exists() else create(path)
