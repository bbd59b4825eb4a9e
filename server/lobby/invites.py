"""Invites: a table's short code, and where friends reach this server (lobby.proto's ``Invite``).

A code is 8 symbols of an alphabet with no look-alikes (no 0/O, no 1/I), shown ``XXXX-XXXX``: six
that name the table (an HMAC of the table's id, keyed with a secret of this store's, so nobody
works a code out from the table's id that the lobby lists), and two that name this server (an
HMAC of its public id over the six). So a code typed at another server is told apart from one
that is mistyped or whose table has closed, and each is refused with its own sentence; a code
stays the same for the table's life and lapses with it, and nothing needs keeping but the secret.

A table with a password has two codes: the plain one, which leads to the password prompt, and one
that opens the password instead, which only the owner's token gets. The password itself never
travels in an invite, nor does any seat token: whoever opens an invite sits like anyone else.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardtui.hashes import sha256
from cardtui.server.base.errors import InvalidArgument, NotFound, PermissionDenied, quote

if TYPE_CHECKING:
    from cardtui.server.actor.table import Table
    from cardtui.server.lobby.room import Room

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
"""32 symbols, none a look-alike of another (0 and O, 1 and I are left out)."""
BODY = 6
"""Symbols that name the table: 30 bits, so a guess finds one of a few hundred tables once in millions."""
CHECK = 2
"""Symbols that name the server: a code from another server passes them once in 1,024."""
LENGTH = BODY + CHECK


@dataclass(frozen=True, slots=True)
class Where:
    """Where friends reach this server: ``HOST:PORT`` for the terminal, the page's URLs for browsers."""

    servers: tuple[str, ...] = ()
    pages: tuple[str, ...] = ()
    local: bool = True
    """Reachable from this machine only (it listens on a loopback address)."""


def symbols(digest: bytes, n: int) -> str:
    """``n`` symbols of ``ALPHABET`` from the first bits of ``digest``."""
    bits = int.from_bytes(digest[:8], "big")
    return "".join(ALPHABET[(bits >> (5 * i)) & 31] for i in range(n))


def shown(code: str) -> str:
    """A code as people read and type it: ``K7M2-QX9P``."""
    return f"{code[:4]}-{code[4:]}" if len(code) == LENGTH else code


def typed(text: str) -> str:
    """A code as typed, read: case, spaces and dashes do not matter. Refused with a sentence when
    it cannot be a code at all."""
    code = "".join(ch for ch in text.upper() if ch not in " -_\t")
    if len(code) != LENGTH or any(ch not in ALPHABET for ch in code):
        raise InvalidArgument("An invite code is 8 letters and digits, like K7M2-QX9P; {code} is not one.",
                              code=quote(text))
    return code


class Invites:
    """The codes of this server's tables, made and read."""

    def __init__(self, room: Room, secret: bytes, server_id: str, where: Where | None = None) -> None:
        self.room = room
        self.secret = secret
        self.tag = server_id.encode()
        self.where = where or Where()
        self.known: dict[str, tuple[str, bool]] = {}
        """Codes already made or looked up: the table's id, and whether the code opens its password."""

    def code(self, table_id: str, opens_lock: bool) -> str:
        body = symbols(hmac.new(self.secret, f"{table_id}|{int(opens_lock)}".encode(), sha256).digest(),
                       BODY)
        code = body + symbols(hmac.new(self.tag, body.encode(), sha256).digest(), CHECK)
        self.known[code] = (table_id, opens_lock)
        return code

    def ours(self, code: str) -> bool:
        """Whether this server made a code like it (its last two symbols are this server's)."""
        body = code[:BODY]
        return hmac.compare_digest(code[BODY:], symbols(hmac.new(self.tag, body.encode(), sha256).digest(),
                                                        CHECK))

    def invite(self, table_id: str, with_password: bool, owner_token: str) -> tuple[Table, str, bool]:
        """A table's code (the one that opens its password only for its owner, if it has one)."""
        table = self.room.table(table_id)
        locked = bool(table.config.password)
        if with_password and locked and not self.room.owns(table, owner_token):
            raise PermissionDenied("Only the table's owner (who created it) may give its password away in an "
                                   "invite.")
        opens = with_password and locked
        return table, self.code(table.id, opens), opens

    def open(self, text: str) -> tuple[Table, bool]:
        """The table a code opens, and whether it opens its password; refused with a sentence for a
        code that is not one, another server's (or mistyped), or a closed table's."""
        code = typed(text)
        if not self.ours(code):
            raise NotFound("{code} is not an invite of this server: check it, or connect to the server that "
                           "gave it (the invite says its address).", code=shown(code))
        found = self.known.get(code)
        if found is None or found[0] not in self.room.tables:
            for table_id in list(self.room.tables):
                self.code(table_id, False)
                self.code(table_id, True)
            found = self.known.get(code)
        if found is None or found[0] not in self.room.tables:
            raise NotFound("The table of invite {code} has closed, or the code is mistyped.", code=shown(code))
        table = self.room.tables[found[0]]
        return table, found[1] and bool(table.config.password)

    def find(self, text: str, table_ids: list[str]) -> str | None:
        """Which of ``table_ids`` (tables another process drives) a code names, if any; the code is
        refused with a sentence only when it cannot be a code at all."""
        code = typed(text)
        for table_id in table_ids:
            if code in (self.code(table_id, False), self.code(table_id, True)):
                return table_id
        return None

    def opens(self, table_id: str, text: str) -> bool:
        """Whether ``text`` is the code that opens this table's password (a wrong code opens nothing)."""
        if not text:
            return False
        try:
            code = typed(text)
        except InvalidArgument:
            return False
        return hmac.compare_digest(code, self.code(table_id, True))
