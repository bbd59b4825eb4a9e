"""The finished hands: each table's hand histories, who played them, and each seat's analysis of a hand."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from cardtui.engine.history import dumps
from cardtui.server.store.base import Part


@dataclass(frozen=True, slots=True)
class Played:
    """Who played a table's hands, each once, in the order they first did: the people by name,
    the bots by level (a bot's own seat, or one standing in for a person away or gone)."""

    people: tuple[str, ...]
    bots: tuple[str, ...]


class Hands(Part):
    """Hand histories (JSON Lines lines, the public format) and their analyses."""

    _TOURNAMENT_OF = "json_extract(t.config, '$.tournament.id')"
    """A table's tournament, read from its config (``t``)."""

    def add_hand(self, table_id: str, record: Mapping[str, Any]) -> None:
        self.db.execute(
            "INSERT INTO hands (table_id, hand, game, record) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (table_id, hand) DO UPDATE SET game = excluded.game, record = excluded.record",
            (table_id, int(record["hand"]), str(record["game"]), dumps(record)),
        )

    def all(self, table_id: str | None = None, tournament: str | None = None) -> Iterator[str]:
        """Stored hand histories as JSON Lines lines, oldest table first, hands in order
        (``tournament``: the hands of that tournament's tables)."""
        query = "SELECT h.record FROM hands h JOIN tables t ON t.id = h.table_id"
        args: tuple[str, ...] = ()
        if table_id is not None:
            query += " WHERE h.table_id = ?"
            args = (table_id,)
        elif tournament is not None:
            query += f" WHERE {self._TOURNAMENT_OF} = ?"
            args = (tournament,)
        query += " ORDER BY t.created, h.table_id, h.hand"
        for (record,) in self.db.execute(query, args):
            yield record

    def last_hand(self, table_id: str) -> dict[str, Any] | None:
        """A table's newest stored hand history (what its next hand links to), or None."""
        row = self.db.execute(
            "SELECT record FROM hands WHERE table_id = ? ORDER BY hand DESC LIMIT 1", (table_id,)
        ).fetchone()
        if row is None:
            return None
        record: dict[str, Any] = json.loads(row[0])
        return record

    def hand(self, table_id: str, hand: int) -> str | None:
        """One stored hand history (a JSON Lines line), or None."""
        row = self.db.execute(
            "SELECT record FROM hands WHERE table_id = ? AND hand = ?", (table_id, hand)
        ).fetchone()
        return None if row is None else str(row[0])

    def last_hands(self, table_id: str, limit: int) -> list[str]:
        """A table's last ``limit`` hand histories, oldest first."""
        rows = self.db.execute(
            "SELECT record FROM hands WHERE table_id = ? ORDER BY hand DESC LIMIT ?", (table_id, limit)
        ).fetchall()
        return [str(r[0]) for r in reversed(rows)]

    def count_hands(self, table_id: str | None = None) -> int:
        if table_id is None:
            return int(self.db.execute("SELECT count(*) FROM hands").fetchone()[0])
        return int(self.db.execute("SELECT count(*) FROM hands WHERE table_id = ?", (table_id,)).fetchone()[0])

    def played(self, table_id: str) -> Played:
        """Who played a table's hands (``Played``), from its hand histories; kept beside a finished
        table once worked out, so that listing finished tables reads one row each."""
        row = self.db.execute("SELECT played, finished FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is not None and row[0] is not None:
            kept = json.loads(row[0])
            return Played(tuple(kept[0]), tuple(kept[1]))
        holders = self._holders(table_id)
        people: dict[str, None] = {}  # dicts: each once, in the order they first played
        bots: dict[str, None] = {}
        for name, bot in holders:
            if bot:
                bots[str(bot)] = None
            elif name:
                people[str(name)] = None
        played = Played(tuple(people), tuple(bots))
        if row is not None and row[1] is not None:  # finished: nobody will play there again
            self.db.execute("UPDATE tables SET played = ? WHERE id = ?",
                            (json.dumps([played.people, played.bots]), table_id))
        return played

    def _holders(self, table_id: str) -> Iterable[tuple[Any, Any]]:
        """Who held each seat of a table's hands, in order: (name, bot level or a false value)."""
        return self.db.execute(
            "SELECT name, bot FROM ("
            " SELECT h.hand AS hand, 0 AS part, j.id AS at, json_extract(j.value, '$.name') AS name,"
            "  json_extract(j.value, '$.bot') AS bot FROM hands h, json_each(h.record, '$.seats') j"
            "  WHERE h.table_id = :t"
            " UNION ALL"
            " SELECT h.hand, 1, j.id, json_extract(j.value, '$.name'), json_extract(j.value, '$.bot')"
            "  FROM hands h, json_each(h.record, '$.holders') j WHERE h.table_id = :t"
            ") ORDER BY hand, part, at",  # each hand's seats at the deal, then its changes of hands
            {"t": table_id},
        )

    def analyses(self, table_id: str, hand: int) -> dict[int, str]:
        """A stored hand's analyses kept so far, by seat (JSON documents)."""
        rows = self.db.execute("SELECT seat, analysis FROM analyses WHERE table_id = ? AND hand = ?",
                               (table_id, hand)).fetchall()
        return {int(r[0]): str(r[1]) for r in rows}

    def add_analysis(self, table_id: str, hand: int, seat: int, analysis: str) -> None:
        """One seat's analysis of a stored hand (the same analysis again replaces nothing of value)."""
        self.db.execute("INSERT INTO analyses (table_id, hand, seat, analysis) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (table_id, hand, seat) DO UPDATE SET analysis = excluded.analysis",
                        (table_id, hand, seat, analysis))
