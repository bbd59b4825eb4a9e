"""Who is who on this server: names bound to public keys, the nonces they sign, and sessions.

A name belongs to the first key that proves it here (``cardtui.identity`` says how a proof is
made). Names are compared case-folded, so "Ana" is not a way round "ana". The store keeps the
public key, the names it owns and digests of its sessions, never anything secret of the player.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from cardtui.identity import KEY_BYTES, challenge, fingerprint, verify
from cardtui.server.errors import InvalidArgument, PermissionDenied, Unauthenticated, quote
from cardtui.server.store import Store
from cardtui.server.text import BadText, clean_name

NONCE_BYTES = 32
NONCE_SECONDS = 60.0
MAX_NONCES = 10_000
"""Nonces waiting for their proof; past this the oldest are dropped."""
BOT_NAME = "bot"
"""The start of every bot's name: bot levels ("bot", "bot (easy)") and bot seats ("bot 3")."""


def folded(name: str) -> str:
    return name.casefold()


def person_id(public_key: bytes, name: str) -> str:
    """A player is a name a key proves: one key may own several names (people who share a
    machine), and each is its own player, with its own seat and record."""
    return "key:" + hashlib.sha256(public_key + b"\0" + folded(name).encode()).hexdigest()[:32]


def session_digest(session: str) -> str:
    return hashlib.sha256(session.encode()).hexdigest()


def bots_name(name: str) -> bool:
    """Names that would pass for a bot's: nobody may prove them."""
    f = folded(name)
    return f == BOT_NAME or f.startswith(BOT_NAME + " ")


@dataclass(frozen=True, slots=True)
class Proved:
    """A session's worth: the player and the name they proved."""

    player: str
    name: str


@dataclass(frozen=True, slots=True)
class Pending:
    public_key: bytes
    name: str
    until: float


class Players:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.server_id = store.server_id()
        self.nonces: dict[bytes, Pending] = {}

    def _name(self, name: str) -> str:
        try:
            return clean_name(name)
        except BadText as e:
            raise InvalidArgument(e.template, **e.args_) from None

    def _refuse_taken(self, name: str) -> None:
        raise PermissionDenied(
            "The name {name} belongs to another player on this server; choose another name.", name=quote(name)
        )

    def check_guest(self, name: str) -> None:
        """A guest (no key) may use any name nobody owns."""
        if self.store.owner(folded(name)) is not None:
            raise PermissionDenied(
                "The name {name} belongs to a player on this server who proves it with their key; "
                "choose another name.", name=quote(name)
            )

    def hello(self, name: str, public_key: bytes) -> tuple[bytes, bool]:
        """A nonce for this key to sign with this name, and whether the name is already the key's."""
        name = self._name(name)
        if not public_key:
            self.check_guest(name)
            return b"", False
        if len(public_key) != KEY_BYTES:
            raise InvalidArgument("A public key is {size} bytes (raw Ed25519), not {got}.", size=KEY_BYTES,
                                  got=len(public_key))
        owner = self.store.owner(folded(name))
        player = person_id(public_key, name)
        if owner is not None and owner != player:
            self._refuse_taken(name)
        if owner is None and bots_name(name):
            raise InvalidArgument("Names starting with {bot} are the bots'; choose another name.", bot=repr(BOT_NAME))
        self._sweep()
        nonce = secrets.token_bytes(NONCE_BYTES)
        self.nonces[nonce] = Pending(public_key, name, time.monotonic() + NONCE_SECONDS)
        return nonce, owner == player

    def _sweep(self) -> None:
        now = time.monotonic()
        for nonce in [n for n, p in self.nonces.items() if p.until < now]:
            del self.nonces[nonce]
        while len(self.nonces) >= MAX_NONCES:
            del self.nonces[next(iter(self.nonces))]

    def prove(self, name: str, public_key: bytes, nonce: bytes, signature: bytes) -> tuple[str, Proved, bool]:
        """Check the signed nonce; a new session, the player, and whether the name became theirs just now."""
        pending = self.nonces.pop(nonce, None)
        if pending is None or pending.until < time.monotonic():
            raise PermissionDenied("That proof is stale or was used already: ask for a new nonce (Hello) and sign it.")
        if pending.public_key != public_key or pending.name != name:
            raise PermissionDenied("That nonce was given for another key or name: ask for a new one (Hello).")
        if not verify(public_key, signature, challenge(self.server_id, nonce, name)):
            raise PermissionDenied("The signature does not match that key: the name is not proved.")
        player = person_id(public_key, name)
        with self.store.transaction():
            first = self.store.owner(folded(name)) is None
            if not self.store.bind_name(folded(name), name, player):
                self._refuse_taken(name)
            self.store.add_player(player, name, public_key)
            session = secrets.token_urlsafe(24)
            self.store.add_session(session_digest(session), player, name)
        return session, Proved(player, name), first

    def session(self, session: str) -> Proved:
        found = self.store.session(session_digest(session))
        if found is None:
            raise Unauthenticated("That session is not known on this server; prove your key again (Hello, Prove).")
        return Proved(*found)

    def who(self, session: str, name: str) -> tuple[str, str | None]:
        """The name to sit under and the remembered player, for a join with or without a session."""
        if not session:
            name = self._name(name)
            self.check_guest(name)
            return name, None
        proved = self.session(session)
        if name and folded(self._name(name)) != folded(proved.name):
            raise InvalidArgument(
                "That session proves the name {proved}, not {name}; leave the name out or use it.",
                proved=quote(proved.name), name=quote(name),
            )
        return proved.name, proved.player

    @staticmethod
    def fingerprint(public_key: bytes | None) -> str:
        return fingerprint(public_key) if public_key else ""
