"""The tournaments: each one whole (entries, rounds, tables, results) as one JSON document."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from cardtui.server.store.base import Part


class Tournaments(Part):
    """Each tournament's document, rewritten at each change (``server.tournaments`` runs them)."""

    def save(self, tournament_id: str, data: Mapping[str, Any]) -> None:
        self.db.execute(
            "INSERT INTO tournaments (id, data, created) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET data = excluded.data",
            (tournament_id, json.dumps(data, separators=(",", ":")), time.time()),
        )

    def all(self) -> list[dict[str, Any]]:
        """Every stored tournament, oldest first."""
        return [json.loads(row[0]) for row in self.db.execute("SELECT data FROM tournaments ORDER BY created, id")]
