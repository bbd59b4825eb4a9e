"""What the store keeps about itself (its ``meta`` table): its id, its secrets, and the room's notes."""

from __future__ import annotations

import secrets

from cardtui.server.store.base import Part


class Meta(Part):
    """Keys and values about the store as a whole, each made or written once for every process of the room."""

    def get(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set(self, key: str, value: str) -> None:
        self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    def server_id(self) -> str:
        """This store's id, made once: what identity proofs sign, so they are worth nothing elsewhere."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'server_id'").fetchone()
        if row is not None:
            return str(row[0])
        made = secrets.token_hex(16)
        self.db.execute("INSERT INTO meta (key, value) VALUES ('server_id', ?) ON CONFLICT DO NOTHING", (made,))
        return str(self.db.execute("SELECT value FROM meta WHERE key = 'server_id'").fetchone()[0])

    def secret(self, key: str) -> bytes:
        """A random secret of this store's, made once and kept in ``meta`` (an invite's code is keyed
        with one, so nobody works a code out from a table's id)."""
        name = f"secret:{key}"
        self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING",
                        (name, secrets.token_hex(32)))
        return bytes.fromhex(str(self.db.execute("SELECT value FROM meta WHERE key = ?", (name,)).fetchone()[0]))
