"""The tables' journal: what a restart needs to bring each table back where it was.

Each table's row (its config, its last event number, whether it finished or was set aside), its
seats and who sits there, the seat and spectator tokens (by digest), the log of seeds and actions
of the match in play, and the ring of its latest events as its streams were sent them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtui.server.store.base import Link, Part
from cardtui.server.store.hands import Hands
from cardtui.server.store.owners import Owners


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """A seat as a restart finds it (``server.seating.Seat`` holds what each field means)."""

    seat: int
    name: str
    bot: bool
    away: bool
    open: bool = False
    pledge: bytes | None = None


Kept = tuple[int, int, tuple[str | None, ...], bytes]
"""An event as a table's stream sends it, kept for a restart: its number, its audience, the digests of
the tokens holding each seat when it happened (None: a bot or nobody) and its body's bytes
(``server.fanout.Numbered``)."""


@dataclass(frozen=True, slots=True)
class SavedTable:
    """Everything stored about one table: enough to bring it back after a crash."""

    id: str
    game: str
    name: str
    config: dict[str, Any]
    seats: list[SavedSeat]
    log: list[tuple[int, str, int | None, dict[str, Any], int]]
    tokens: list[tuple[str, int | None, str]]
    """The digests of the table's seat and spectator tokens, with their seat (None: watching) and name."""
    hands: int
    seq: int
    """The last event number the table handed out."""
    finished: bool
    """The table has closed for good: its hands are kept, nobody plays there."""
    players: dict[int, str] = field(default_factory=dict)
    """The remembered player at each seat that has one (seat -> player id)."""
    sent: list[Kept] = field(default_factory=list)
    """The table's latest events as its streams were sent them (``Tables.keep_sent``), oldest first."""


class Tables(Part):
    """Each table and its journal. A new table is driven by the process that adds it (``owners``);
    a table brought back counts its stored hands (``hands``)."""

    def __init__(self, link: Link, owners: Owners, hands: Hands) -> None:
        super().__init__(link)
        self.owners = owners
        self.hands = hands

    def add_table(self, table_id: str, game: str, name: str, config: Mapping[str, Any], epoch: int = 1) -> None:
        """A new table, driven by this process (``Owners.register``) from ``epoch`` on."""
        self.db.execute(
            "INSERT INTO tables (id, game, name, config, created, owner, epoch) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET game = excluded.game, name = excluded.name, config = excluded.config",
            (table_id, game, name, json.dumps(dict(config)), time.time(), self.owners.me or None, epoch),
        )

    # -- what a restart needs: seats, tokens, and each table's log of seeds and actions --
    def save_seats(self, table_id: str, seats: list[SavedSeat]) -> None:
        self.db.executemany(
            "INSERT INTO seats (table_id, seat, name, bot, away, open, pledge) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, seat) DO UPDATE SET name = excluded.name, bot = excluded.bot, "
            "away = excluded.away, open = excluded.open, pledge = excluded.pledge",
            [(table_id, s.seat, s.name, int(s.bot), int(s.away), int(s.open), (s.pledge or b"").hex()) for s in seats],
        )

    def save_seat_players(self, table_id: str, players: Iterable[tuple[int, str | None]]) -> None:
        for seat, player in players:
            if player is None:
                self.db.execute("DELETE FROM seat_players WHERE table_id = ? AND seat = ?", (table_id, seat))
            else:
                self.db.execute("INSERT INTO seat_players (table_id, seat, player) VALUES (?, ?, ?) "
                                "ON CONFLICT (table_id, seat) DO UPDATE SET player = excluded.player",
                                (table_id, seat, player))

    def seat_players(self, table_id: str) -> dict[int, str]:
        rows = self.db.execute("SELECT seat, player FROM seat_players WHERE table_id = ?", (table_id,))
        return {int(seat): str(player) for seat, player in rows}

    def add_token(self, digest: str, table_id: str, seat: int | None, name: str) -> None:
        """A seat or spectator token, by its digest (``token_digest``): never the token itself."""
        self.db.execute(
            "INSERT INTO tokens (digest, table_id, seat, name) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (digest) DO UPDATE SET table_id = excluded.table_id, seat = excluded.seat, "
            "name = excluded.name",
            (digest, table_id, seat, name),
        )

    def drop_token(self, digest: str) -> None:
        self.db.execute("DELETE FROM tokens WHERE digest = ?", (digest,))

    def token_table(self, digest: str) -> str | None:
        """The table a seat or spectator token (by its digest) opens, wherever it is driven."""
        found = self.token_grant(digest)
        return None if found is None else found[0]

    def token_grant(self, digest: str) -> tuple[str, int | None, str] | None:
        """What a seat or spectator token (by its digest) opens, wherever its table is driven: the
        table, the seat (None: watching) and the name it was given to."""
        row = self.db.execute("SELECT table_id, seat, name FROM tokens WHERE digest = ?", (digest,)).fetchone()
        return None if row is None else (str(row[0]), None if row[1] is None else int(row[1]), str(row[2]))

    def log(self, table_id: str, n: int, kind: str, seat: int | None, data: Mapping[str, Any], seq: int) -> None:
        """One step of a table's match: ``start``/``next`` with a seed, or ``act``."""
        self.db.execute(
            "INSERT INTO log (table_id, n, kind, seat, data, seq) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, n) DO UPDATE SET kind = excluded.kind, seat = excluded.seat, "
            "data = excluded.data, seq = excluded.seq",
            (table_id, n, kind, seat, json.dumps(dict(data), separators=(",", ":")), seq),
        )

    def trim_log(self, table_id: str, before: int) -> None:
        """A new match makes the old one's steps unnecessary for a restart."""
        self.db.execute("DELETE FROM log WHERE table_id = ? AND n < ?", (table_id, before))

    def keep_sent(self, table_id: str, events: Sequence[Kept], slots: int) -> None:
        """The events a table has just numbered, each in the slot its number gives among ``slots``
        (a ring: the latest ``slots`` events stay), so that a restart replays what a stream missed,
        even what a process that died had journaled and not yet sent."""
        said: dict[tuple[str | None, ...], str] = {}  # a change's events share their holders: written once
        rows = []
        for seq, mask, holders, body in events:
            who = said.get(holders)
            if who is None:
                who = said[holders] = json.dumps(holders, separators=(",", ":"))
            rows.append((table_id, seq % slots, seq, mask, who, body))
        self.db.executemany(
            "INSERT INTO sent (table_id, slot, seq, audience, holders, body) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, slot) DO UPDATE SET seq = excluded.seq, audience = excluded.audience, "
            "holders = excluded.holders, body = excluded.body",
            rows,
        )

    def sent(self, table_id: str) -> list[Kept]:
        """The events ``keep_sent`` kept for a table, oldest first."""
        rows = self.db.execute("SELECT seq, audience, holders, body FROM sent WHERE table_id = ? ORDER BY seq",
                               (table_id,)).fetchall()
        return [(int(seq), int(mask), tuple(json.loads(holders)), bytes(body)) for seq, mask, holders, body in rows]

    def mark(self, table_id: str, seq: int) -> None:
        """The last event number a table handed out, so a restart never hands it out again."""
        self.db.execute("UPDATE tables SET seq = ? WHERE id = ?", (seq, table_id))

    def finish(self, table_id: str) -> None:
        """A table closes for good: what a restart would need to bring it back goes, its hands stay."""
        self.db.execute("UPDATE tables SET finished = ? WHERE id = ?", (time.time(), table_id))
        self.db.execute("DELETE FROM log WHERE table_id = ?", (table_id,))
        self.db.execute("DELETE FROM sent WHERE table_id = ?", (table_id,))
        self.db.execute("DELETE FROM tokens WHERE table_id = ?", (table_id,))

    def set_aside(self, table_id: str, reason: str) -> None:
        """A table that cannot be brought back is kept as damaged, out of the way, for a person to look at."""
        self.db.execute("UPDATE tables SET damaged = ? WHERE id = ?", (reason[:500], table_id))

    def saved_tables(self, only: Iterable[str] | None = None) -> list[SavedTable]:
        """Every table that is not set aside as damaged, oldest first (``only``: these tables)."""
        out = []
        rows = self.db.execute(
            "SELECT id, game, name, config, seq, finished FROM tables WHERE damaged IS NULL ORDER BY created"
        ).fetchall()
        if only is not None:
            wanted = set(only)
            rows = [row for row in rows if row[0] in wanted]
        for table_id, game, name, config, seq, finished in rows:
            seats = self.db.execute(
                "SELECT seat, name, bot, away, open, pledge FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
            ).fetchall()
            log = self.db.execute(
                "SELECT n, kind, seat, data, seq FROM log WHERE table_id = ? ORDER BY n", (table_id,)
            ).fetchall()
            tokens = self.db.execute(
                "SELECT digest, seat, name FROM tokens WHERE table_id = ?", (table_id,)
            ).fetchall()
            out.append(
                SavedTable(
                    id=table_id, game=game, name=name, config=json.loads(config),
                    seats=[SavedSeat(int(s), str(n), bool(b), bool(a), bool(o), bytes.fromhex(p) if p else None)
                           for s, n, b, a, o, p in seats],
                    log=[(int(n), str(k), None if s is None else int(s), json.loads(d), int(q))
                         for n, k, s, d, q in log],
                    tokens=[(str(t), None if s is None else int(s), str(n)) for t, s, n in tokens],
                    hands=self.hands.count_hands(table_id),
                    seq=int(seq),
                    finished=finished is not None,
                    players=self.seat_players(table_id),
                    sent=self.sent(table_id),
                )
            )
        return out

    def table_config(self, table_id: str) -> tuple[dict[str, Any], bool] | None:
        """A stored table's configuration, and whether it has finished; None if unknown."""
        row = self.db.execute("SELECT config, finished FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else (json.loads(row[0]), row[1] is not None)

    def open_tables(self) -> int:
        """The room's tables still open, whichever process drives them."""
        row = self.db.execute("SELECT count(*) FROM tables WHERE finished IS NULL AND damaged IS NULL").fetchone()
        return int(row[0])
