"""Who is who on this server: names bound to public keys, the nonces they sign, and sessions.

A name belongs to the first key that proves it here (``cardtui.identity`` says how a proof is
made). Names are compared as PRECIS says (RFC 8265, ``cardtui.server.base.names``), so "Ana", a
fullwidth "Ａｎａ" or a decomposed accent is not a way round "ana"; a name that only looks like an
owned one (UTS #39: a Cyrillic "а" in "аna") is refused too. One key may own a bounded number of
names. The store keeps the public key, the names it owns and digests of its sessions, never
anything secret of the player.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from cardtui.hashes import sha256_hex
from cardtui.identity import KEY_BYTES, challenge, fingerprint, verify
from cardtui.server.base.clock import REAL, Clock
from cardtui.server.base.errors import InvalidArgument, PermissionDenied, ResourceExhausted, Unauthenticated, quote
from cardtui.server.base.limits import Limits
from cardtui.server.base.names import Name, key_of, read_name
from cardtui.server.base.text import BadText
from cardtui.server.store import Store

NONCE_BYTES = 32
NONCE_SECONDS = 60.0
MAX_NONCES = 10_000
"""Nonces waiting for their proof; past this the oldest are dropped."""
BOT_NAME = "bot"
"""The start of every bot's name: bot levels ("bot", "bot (easy)") and bot seats ("bot 3")."""
NAMES_PER_KEY = Limits().names_per_key
"""Names one key may own on a server, unless ``cardtui serve --max-names-per-key`` says otherwise."""


BOT_LOOKS = read_name(BOT_NAME).looks
"""What a bot's name looks like (its skeletons). Read at import, with the confusables' table it needs (a few
ms since the table is written out, ``cardtui.server.base.prototypes``): a server's table workers are forked with
it, and share it, rather than each loading its own at its first name."""


def folded(name: str) -> str:
    """A name's comparison key (``cardtui.server.base.names.key_of``): equal keys, one name."""
    return key_of(name)


def person_id(public_key: bytes, key: str) -> str:
    """A player is a name a key proves: one key may own several names (people who share a
    machine), and each is its own player, with its own seat and record. ``key``: the name's
    comparison key. (A name owned already keeps the player it was first proved as: see
    ``Players._player``.)"""
    return "key:" + sha256_hex(public_key + b"\0" + key.encode())[:32]


def session_digest(session: str) -> str:
    return sha256_hex(session.encode())


def bots_name(name: Name) -> bool:
    """Names that would pass for a bot's, in any case: nobody may prove them."""
    return any(looks == bot or looks.startswith(bot + " ") for looks in name.looks for bot in BOT_LOOKS)


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
    def __init__(self, store: Store, names_per_key: int = NAMES_PER_KEY, clock: Clock = REAL) -> None:
        self.clock = clock
        self.store = store
        self.server_id = store.meta.server_id()
        self.nonces: dict[bytes, Pending] = {}
        self.names_per_key = names_per_key

    def _name(self, typed: str) -> Name:
        try:
            return read_name(typed)
        except BadText as e:
            raise InvalidArgument(e.template, **e.args_) from None

    def _refuse_taken(self, name: Name) -> None:
        raise PermissionDenied(
            "The name {name} belongs to another player on this server; choose another name.", name=quote(name.shown)
        )

    @staticmethod
    def _refuse_bots(name: Name) -> None:
        if bots_name(name):
            raise InvalidArgument("Names starting with {bot} are the bots'; choose another name.", bot=repr(BOT_NAME))

    def _refuse_lookalike(self, name: Name, public_key: bytes | None) -> None:
        """A name that looks like one another player owns (UTS #39), though it is spelled otherwise."""
        for owned, player in self.store.identity.lookalikes(name.looks):
            known = self.store.identity.player(player)
            if public_key and known is not None and known.public_key == public_key:
                continue  # the same key's own names may look alike
            raise PermissionDenied("That name looks like {owned}, which belongs to another player.",
                                   owned=quote(owned))

    def _player(self, name: Name, public_key: bytes) -> tuple[str, bool]:
        """The player this key is under this name, and whether the name is the key's already;
        refused if it is another's. A name owned already is the player it was first proved as."""
        owner = self.store.identity.owner(name.key)
        if owner is None:
            return person_id(public_key, name.key), False
        known = self.store.identity.player(owner)
        if known is None or known.public_key != public_key:
            self._refuse_taken(name)
        return owner, True

    def _check_new(self, name: Name, public_key: bytes) -> None:
        """What a key must meet to own one more name: not a bot's, not like another's, within the bound."""
        self._refuse_bots(name)
        self._refuse_lookalike(name, public_key)
        owned = self.store.identity.names_of_key(public_key)
        if owned >= self.names_per_key:
            raise ResourceExhausted("This key owns {n} names on this server, the most one key may own; play under "
                                    "one of them.", n=owned)

    def check_team(self, name: Name, player: str) -> None:
        """A new team's name (tournaments), named by ``player``: not a bot's, nor a name another key
        owns or one like it, so no team passes for a person it is not (the names of the
        player's own key are theirs to use)."""
        self._refuse_bots(name)
        known = self.store.identity.player(player)
        public_key = known.public_key if known is not None else None
        owner = self.store.identity.owner(name.key)
        if owner is not None:
            owned = self.store.identity.player(owner)
            if owned is None or owned.public_key != public_key:
                self._refuse_taken(name)
        self._refuse_lookalike(name, public_key)

    def check_guest(self, name: Name) -> None:
        """A guest (no key) may use any name nobody owns, nor looks like one somebody owns, nor a bot's."""
        self._refuse_bots(name)
        if self.store.identity.owner(name.key) is not None:
            raise PermissionDenied(
                "The name {name} belongs to a player on this server who proves it with their key; "
                "choose another name.", name=quote(name.shown)
            )
        self._refuse_lookalike(name, None)

    def hello(self, typed: str, public_key: bytes) -> tuple[bytes, bool]:
        """A nonce for this key to sign with this name, and whether the name is already the key's
        (docs/client.md §3)."""
        name = self._name(typed)
        if not public_key:
            self.check_guest(name)
            return b"", False
        if len(public_key) != KEY_BYTES:
            raise InvalidArgument("A public key is {size} bytes (raw Ed25519), not {got}.", size=KEY_BYTES,
                                  got=len(public_key))
        _, owned = self._player(name, public_key)
        if not owned:
            self._check_new(name, public_key)
        self._sweep()
        nonce = secrets.token_bytes(NONCE_BYTES)
        self.nonces[nonce] = Pending(public_key, name.shown, self.clock.now() + NONCE_SECONDS)
        return nonce, owned

    def _sweep(self) -> None:
        now = self.clock.now()
        for nonce in [n for n, p in self.nonces.items() if p.until < now]:
            del self.nonces[nonce]
        while len(self.nonces) >= MAX_NONCES:
            del self.nonces[next(iter(self.nonces))]

    def prove(self, typed: str, public_key: bytes, nonce: bytes, signature: bytes) -> tuple[str, Proved, bool]:
        """Check the signed nonce; a new session, the player, and whether the name became theirs just now.

        The signature is over the name exactly as sent (docs/client.md §3); the name proved is
        that name made plain, as ``hello`` made it, so a name sent with stray spaces proves too.
        """
        pending = self.nonces.pop(nonce, None)
        if pending is None or pending.until < self.clock.now():
            raise PermissionDenied("That proof is stale or was used already: ask for a new nonce (Hello) and sign it.")
        name = self._name(typed)
        if pending.public_key != public_key or pending.name != name.shown:
            raise PermissionDenied("That nonce was given for another key or name: ask for a new one (Hello).")
        if not verify(public_key, signature, challenge(self.server_id, nonce, typed)):
            raise PermissionDenied("The signature does not match that key: the name is not proved.")
        with self.store.transaction():
            player, owned = self._player(name, public_key)
            if not owned:
                self._check_new(name, public_key)
                if not self.store.identity.bind_name(name.key, name.shown, player, name.looks):
                    self._refuse_taken(name)
            self.store.identity.add_player(player, name.shown, public_key)
            session = secrets.token_urlsafe(24)
            self.store.identity.add_session(session_digest(session), player, name.shown)
        return session, Proved(player, name.shown), not owned

    def session(self, session: str) -> Proved:
        found = self.store.identity.session(session_digest(session))
        if found is None:
            raise Unauthenticated("That session is not known on this server; prove your key again (Hello, Prove).")
        return Proved(*found)

    def who(self, session: str, typed: str) -> tuple[str, str | None]:
        """The name to sit under and the remembered player, for a join with or without a session."""
        if not session:
            name = self._name(typed)
            self.check_guest(name)
            return name.shown, None
        proved = self.session(session)
        if typed and self._name(typed).key != key_of(proved.name):
            raise InvalidArgument(
                "That session proves the name {proved}, not {name}; leave the name out or use it.",
                proved=quote(proved.name), name=quote(typed),
            )
        return proved.name, proved.player

    @staticmethod
    def fingerprint(public_key: bytes | None) -> str:
        return fingerprint(public_key) if public_key else ""
