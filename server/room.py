"""The room: every table on this server, the tokens that reach them, and the store."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from cardtui.engine.core import InvalidOptions
from cardtui.engine.games import GAMES, player_counts
from cardtui.server.store import Store
from cardtui.server.table import Refused, Table, TableConfig, new_token
from cardtui.server.text import clean_name

log = logging.getLogger("cardtui.room")

MAX_TABLES = 2000
DEFAULT_TURN = 30.0
DEFAULT_BOT_DELAY = 1.0


def digest(password: str) -> str:
    """Passwords are kept (and compared) only as digests."""
    return hashlib.sha256(password.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Pass:
    """What a token grants: a seat at a table, or a view of it (``seat is None``)."""

    table: Table
    seat: int | None
    name: str


class Room:
    def __init__(
        self,
        store: Store,
        bot_delay: float = DEFAULT_BOT_DELAY,
        next_hand_delay: float = 4.0,
    ) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, Pass] = {}
        self.bot_delay = bot_delay
        self.next_hand_delay = next_hand_delay
        self._log_n: dict[str, int] = {}

    def create(
        self,
        game: str,
        name: str,
        seats: int,
        bots: int,
        options_json: str,
        turn_seconds: float = 0,
        bot_delay_ms: int = -1,
        password: str = "",
        private: bool = False,
        away_after: int = 0,
    ) -> Table:
        if game not in GAMES:
            raise Refused("INVALID_ARGUMENT", f"There is no game called {game!r}; try one of: {', '.join(GAMES)}.")
        entry = GAMES[game]
        g = entry.game
        if len(self.tables) >= MAX_TABLES:
            raise Refused("RESOURCE_EXHAUSTED", "This server holds as many tables as it can.")
        seats = seats or g.min_players
        counts = player_counts(g)
        if seats not in counts:
            allowed = ", ".join(map(str, counts))
            raise Refused("INVALID_ARGUMENT", f"{g.title} is played by {allowed} players, not {seats}.")
        if not 0 <= bots <= seats:
            raise Refused("INVALID_ARGUMENT", f"Bots must number between 0 and the {seats} seats.")
        try:
            options: dict[str, Any] = json.loads(options_json) if options_json.strip() else {}
        except json.JSONDecodeError:
            raise Refused("INVALID_ARGUMENT", "The options are not valid JSON.") from None
        if not isinstance(options, dict):
            raise Refused("INVALID_ARGUMENT", "The options must be a JSON object such as {\"chips\": 20}.")
        if not 0 <= turn_seconds <= 3600:
            raise Refused("INVALID_ARGUMENT", "The turn timer must be between 1 and 3600 seconds.")
        if not 0 <= away_after <= 100:
            raise Refused("INVALID_ARGUMENT", "Missed turns before a bot steps in must be between 1 and 100.")
        if not -1 <= bot_delay_ms <= 60_000:
            raise Refused("INVALID_ARGUMENT", "The bot delay must be between 0 and 60000 ms.")
        try:
            name = clean_name(name or f"{g.title} table")
            config = TableConfig(
                game=game,
                name=name,
                seats=seats,
                bots=bots,
                options=options,
                turn_seconds=turn_seconds or DEFAULT_TURN,
                bot_delay=self.bot_delay if bot_delay_ms < 0 else bot_delay_ms / 1000,
                next_hand_delay=self.next_hand_delay,
                password=digest(password) if password else "",
                private=private,
                away_after=away_after or 2,
            )
            table_id = secrets.token_hex(4)
            table = Table(table_id, entry, config, self)
        except (InvalidOptions, ValueError) as e:
            raise Refused("INVALID_ARGUMENT", str(e)) from None
        self.tables[table_id] = table
        self.store.add_table(table_id, game, name, dataclasses.asdict(config))
        self.seats(table)
        log.info("table %s opened: %s, %d seats, %d bots", table_id, game, seats, bots)
        table._maybe_start()
        return table

    # -- the journal: what a restart needs ---------------------------------------------
    def step(self, table: Table, kind: str, seat: int | None, data: dict[str, Any], seq: int) -> None:
        n = self._log_n.get(table.id, 0)
        self._log_n[table.id] = n + 1
        self.store.log(table.id, n, kind, seat, data, seq)
        if kind == "start" and n:
            self.store.trim_log(table.id, n)

    def hand(self, table: Table, record: dict[str, Any]) -> None:
        self.store.add_hand(table.id, record)
        deltas = record.get("result", {}).get("deltas", {})
        log.info("table %s hand %s: %s", table.id, record["hand"], deltas)

    def seats(self, table: Table) -> None:
        self.store.save_seats(table.id, [(s.index, s.name, s.bot, s.away) for s in table.seats])

    def restore(self) -> int:
        """Bring back every stored table where it was: seats, tokens, the match in play."""
        for saved in self.store.saved_tables():
            entry = GAMES.get(saved.game)
            if entry is None:
                log.warning("table %s: game %r is no longer offered; not restored", saved.id, saved.game)
                continue
            config = TableConfig(**saved.config)
            config.next_hand_delay = self.next_hand_delay
            table = Table(saved.id, entry, config, self)
            for index, name, bot, away in saved.seats:
                seat = table.seats[index]
                seat.name, seat.bot, seat.away = name, bot, away
            for token, seat, name in saved.tokens:
                if seat is None:
                    table.spectators[token] = name
                else:
                    table.seats[seat].token = token
                self.tokens[token] = Pass(table, seat, name)
            self._log_n[saved.id] = saved.log[-1][0] + 1 if saved.log else 0
            self.tables[saved.id] = table
            table.restore([(kind, seat, data, seq) for _, kind, seat, data, seq in saved.log], saved.hands)
            log.info("table %s restored at event %d", saved.id, table.seq)
        return len(self.tables)

    def table(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            raise Refused("NOT_FOUND", f"There is no table {table_id!r}.") from None

    def _check_password(self, table: Table, password: str) -> None:
        if table.config.password and not secrets.compare_digest(table.config.password, digest(password)):
            raise Refused("PERMISSION_DENIED", "That table's password is wrong.")

    def join(self, table_id: str, name: str, seat: int, password: str) -> tuple[str, Pass]:
        table = self.table(table_id)
        self._check_password(table, password)
        if seat < -1:
            raise Refused("INVALID_ARGUMENT", "A seat number is 0 or more (leave it out for any free seat).")
        try:
            name = clean_name(name)
        except ValueError as e:
            raise Refused("INVALID_ARGUMENT", str(e)) from None
        token = new_token()
        index = table.sit(name, seat, token)
        grant = Pass(table, index, name)
        self.tokens[token] = grant
        self.store.add_token(token, table.id, index, name)
        log.info("table %s: %s joined at seat %d", table.id, name, index)
        return token, grant

    def spectate(self, table_id: str, name: str, password: str) -> tuple[str, Pass]:
        table = self.table(table_id)
        self._check_password(table, password)
        if table.config.private:
            raise Refused("PERMISSION_DENIED", "This table is private: it takes no spectators.")
        try:
            name = clean_name(name or "guest")
        except ValueError as e:
            raise Refused("INVALID_ARGUMENT", str(e)) from None
        token = new_token()
        table.spectators[token] = name
        grant = Pass(table, None, name)
        self.tokens[token] = grant
        self.store.add_token(token, table.id, None, name)
        return token, grant

    def grant(self, token: str) -> Pass:
        try:
            return self.tokens[token]
        except KeyError:
            raise Refused("PERMISSION_DENIED", "That token does not open any seat or table here.") from None

    def seat_grant(self, token: str) -> Pass:
        grant = self.grant(token)
        if grant.seat is None:
            raise Refused("PERMISSION_DENIED", "Spectators watch; they cannot act at the table.")
        return grant

    def leave(self, token: str) -> None:
        grant = self.grant(token)
        del self.tokens[token]
        self.store.drop_token(token)
        if grant.seat is None:
            grant.table.spectators.pop(token, None)
        else:
            grant.table.leave(grant.seat)
            log.info("table %s: %s left seat %d", grant.table.id, grant.name, grant.seat)

    def close(self, reason: str) -> None:
        for table in self.tables.values():
            table.close(reason)
