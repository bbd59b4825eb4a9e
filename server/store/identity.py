"""Who the server remembers: players (a person by public key, or a bot level), the names they own and
what those look like, and the sessions a client proved its key for."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardtui.server.store.base import Part


@dataclass(frozen=True, slots=True)
class Player:
    """Someone the server remembers: a person (by public key) or a bot level."""

    id: str
    name: str
    public_key: bytes | None
    """A person's raw Ed25519 public key; None for a bot level."""
    created: float


class Identity(Part):
    """Players, their names and their sessions (``server.players`` says how they are proved)."""

    _ROWID = "rowid"
    """The order rows of ``names`` were written in."""

    def player(self, player_id: str) -> Player | None:
        row = self.db.execute("SELECT id, name, public_key, created FROM players WHERE id = ?", (player_id,)).fetchone()
        return None if row is None else Player(str(row[0]), str(row[1]), row[2], float(row[3]))

    def add_player(self, player_id: str, name: str, public_key: bytes | None) -> None:
        """Remember a player (a no-op for one already known, but for the name they go by now)."""
        self.db.execute(
            "INSERT INTO players (id, name, public_key, created) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET name = excluded.name",
            (player_id, name, public_key, time.time()),
        )

    def owner(self, key: str) -> str | None:
        """The player who owns a name (by its comparison key), if anyone does."""
        row = self.db.execute("SELECT player FROM names WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def lookalikes(self, looks: Sequence[str]) -> list[tuple[str, str]]:
        """The owned names (as their owners spell them) that share one of the skeletons ``looks``,
        with their players."""
        marks = ", ".join("?" * len(looks))
        rows = self.db.execute(
            f"SELECT name, player FROM names WHERE key IN (SELECT key FROM name_looks WHERE looks IN ({marks})) "
            f"ORDER BY {self._ROWID}", tuple(looks))
        return [(str(name), str(player)) for name, player in rows]

    def bind_name(self, key: str, name: str, player_id: str, looks: Iterable[str]) -> bool:
        """The name becomes the player's unless it is already someone's; whether it is the player's now."""
        self.db.execute("INSERT INTO names (key, name, player) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                        (key, name, player_id))
        if self.owner(key) != player_id:
            return False
        self.db.executemany("INSERT INTO name_looks (looks, key) VALUES (?, ?) ON CONFLICT DO NOTHING",
                            [(skeleton, key) for skeleton in looks])
        return True

    def names_of_key(self, public_key: bytes) -> int:
        """How many names the players of one public key own here."""
        row = self.db.execute(
            "SELECT count(*) FROM names n JOIN players p ON p.id = n.player WHERE p.public_key = ?", (public_key,)
        ).fetchone()
        return int(row[0])

    def add_session(self, digest: str, player_id: str, name: str) -> None:
        self.db.execute("INSERT INTO sessions (digest, player, name, created) VALUES (?, ?, ?, ?)",
                        (digest, player_id, name, time.time()))

    def session(self, digest: str) -> tuple[str, str] | None:
        """The player and the name a session proved."""
        row = self.db.execute("SELECT player, name FROM sessions WHERE digest = ?", (digest,)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))
