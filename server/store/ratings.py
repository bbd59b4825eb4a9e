"""Each player's standing at each game on this server: a rating (``server.records`` keeps it up) and counts."""

from __future__ import annotations

from dataclasses import dataclass

from cardtui.server.store.base import Part
from cardtui.server.store.identity import Player


@dataclass(slots=True)
class Record:
    """One player's standing at one game on this server."""

    player: str
    game: str
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    hands: int = 0
    biggest_pot: int = 0
    truco_calls_won: int = 0


class Ratings(Part):
    """The players' records, one per player and game."""

    def record(self, player_id: str, game: str) -> Record | None:
        row = self.db.execute(
            "SELECT player, game, mu, sigma, matches, wins, hands, biggest_pot, truco_calls_won FROM records "
            "WHERE player = ? AND game = ?", (player_id, game),
        ).fetchone()
        return None if row is None else Record(*row)

    def save_record(self, r: Record) -> None:
        self.db.execute(
            "INSERT INTO records (player, game, mu, sigma, matches, wins, hands, biggest_pot, truco_calls_won) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player, game) DO UPDATE SET mu = excluded.mu, "
            "sigma = excluded.sigma, matches = excluded.matches, wins = excluded.wins, hands = excluded.hands, "
            "biggest_pot = excluded.biggest_pot, truco_calls_won = excluded.truco_calls_won",
            (r.player, r.game, r.mu, r.sigma, r.matches, r.wins, r.hands, r.biggest_pot, r.truco_calls_won),
        )

    def records(self, game: str | None = None, player_id: str | None = None) -> list[tuple[Record, Player]]:
        """Records with their players: one game's, or one player's, or all."""
        query = (
            "SELECT r.player, r.game, r.mu, r.sigma, r.matches, r.wins, r.hands, r.biggest_pot, r.truco_calls_won, "
            "p.id, p.name, p.public_key, p.created FROM records r JOIN players p ON p.id = r.player"
        )
        where, args = [], []
        if game is not None:
            where.append("r.game = ?")
            args.append(game)
        if player_id is not None:
            where.append("r.player = ?")
            args.append(player_id)
        if where:
            query += " WHERE " + " AND ".join(where)
        return [
            (Record(*row[:9]), Player(str(row[9]), str(row[10]), row[11], float(row[12])))
            for row in self.db.execute(query, args)
        ]
