"""Replays of finished hands: a hand history as wire steps, and who may open which.

A replay is a hand history plus the engine: the game rebuilds the hand step by step
(``Rules.replay_steps``) and each step goes out as the typed ``Event`` and ``View`` messages
the tables send, every event whole and the view with every card face up. Only stored hands
are replayed, and a hand is stored only once it is over, so a hand in play never is.

Who may open a table's hands (``replay.proto`` says it for clients):
- a finished table's: anyone who may see the table (its password; never a private table's);
- a table still playing: its spectators, where it was created with the delayed full view.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtui.engine.core import Event, ReplayStep
from cardtui.engine.games import GAMES
from cardtui.server.actor.table import Table
from cardtui.server.base import passwords, wire
from cardtui.server.base.errors import FailedPrecondition, NotFound, PermissionDenied, quote
from cardtui.server.lobby.room import Room
from cardtui.v1 import common_pb2, replay_pb2

LISTED = 500
"""The most hands a list gives (the last ones)."""


# -- a hand history as messages ------------------------------------------------------------
def seat_summary(entry: Mapping[str, Any], seat: int, team: int) -> common_pb2.SeatSummary:
    """A seat as a history names its holder (docs/history.md): a person, or a bot of a level,
    standing in for the person named (``away``) or not."""
    bot = entry.get("bot")
    return common_pb2.SeatSummary(seat=seat, name=str(entry.get("name", "")), taken=True, team=team,
                                  bot=isinstance(bot, str), away=entry.get("away") is True,
                                  bot_level=bot if isinstance(bot, str) else "")


def seat_summaries(record: Mapping[str, Any]) -> list[common_pb2.SeatSummary]:
    """The seats as the hand was dealt."""
    return [seat_summary(s, int(s["seat"]), int(s.get("team", 0))) for s in record["seats"]]


def seats_by_step(record: Mapping[str, Any]) -> list[list[common_pb2.SeatSummary]]:
    """The seats at each step of a replay (the deal, then each seat's action): a seat that changed
    hands during the hand (``holders``) is named from the action on which the change took effect."""
    seats = seat_summaries(record)
    changes = [h for h in record.get("holders") or () if isinstance(h, Mapping)]
    out = [list(seats)]
    for entry in record["actions"]:
        if entry.get("seat") is None:
            continue
        for change in changes:
            if change.get("from") == entry.get("seq"):
                at = int(change["seat"])
                seats[at] = seat_summary(change, at, seats[at].team)
        out.append(list(seats))
    return out


def hand_summary(record: Mapping[str, Any]) -> replay_pb2.HandSummary:
    """What a history list shows of a hand."""
    result = record.get("result") or {}
    deltas = result.get("deltas") or {}
    seats = seat_summaries(record)
    out = replay_pb2.HandSummary(
        table_id=str(record.get("table", "")),
        hand=int(record["hand"]),
        match=int(record.get("match", 0)),
        game=str(record["game"]),
        seats=seats,
        deltas=[int(deltas.get(str(s.seat), 0)) for s in seats],
        actions=sum(1 for a in record["actions"] if a.get("seat") is not None),
    )
    if record.get("holders"):  # a seat changed hands during the hand: who held each at its end
        out.ended.extend(seats_by_step(record)[-1])
    winner = result.get("winner")
    if isinstance(winner, int) and not isinstance(winner, bool):
        out.winner = winner
    points = result.get("points")
    if isinstance(points, Mapping) and len(points) == 2:
        a, b = int(points.get("0", 0)), int(points.get("1", 0))
        if a != b:
            out.team = 0 if a > b else 1
    return out


def steps(record: Mapping[str, Any]) -> list[replay_pb2.ReplayStep]:
    """The hand, step by step, as messages; ``ValueError`` if the history is not of a finished hand
    of a game this server knows (a sentence a person can read)."""
    rules = GAMES.get(str(record.get("game", "")))
    if rules is None:
        raise ValueError(f"There is no game called {quote(str(record.get('game', '')))} here.")
    seats = seats_by_step(record)
    out = []
    seq = 0
    for n, step in enumerate(rules.replay_steps(record)):
        out.append(_step(n, step, seq, seats[min(n, len(seats) - 1)]))
        seq += len(step.events)
    if out:
        out[0].hand.CopyFrom(hand_summary(record))
    return out


def _step(n: int, step: ReplayStep, seq: int, seats: Sequence[common_pb2.SeatSummary]) -> replay_pb2.ReplayStep:
    """Events are numbered through the replay from 1; each goes whole (to everyone)."""
    events = [wire.event_message(seq + i + 1, Event(e.body), None) for i, e in enumerate(step.events)]
    out = replay_pb2.ReplayStep(step=n, events=events, view=wire.view_message(step.view, seats=seats))
    if step.seat is not None:
        out.seat = step.seat
    if step.action is not None:
        out.action.CopyFrom(wire.action_message(step.action))
    return out


# -- who may open what -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Opened:
    """A table whose hands the caller may open, and the hand it plays now (never to be opened)."""

    table_id: str
    summary: common_pb2.TableSummary
    in_play: int


class Replays:
    """The room's finished hands, opened by the rules above."""

    def __init__(self, room: Room) -> None:
        self.room = room

    async def open(self, table_id: str, token: str, password: str) -> Opened:
        """The table's hands for this caller, or the refusal that says why not."""
        table = self.room.tables.get(table_id)
        if table is not None:
            return self._playing(table, token)
        stored = self.room.store.tables.table_config(table_id)
        if stored is None:
            raise NotFound("There is no table {table}.", table=quote(table_id))
        config, _ = stored
        if config.get("private"):
            raise PermissionDenied("That table was private: its hands are not shown.")
        kept = str(config.get("password") or "")
        if kept and not await passwords.check(kept, password):
            raise PermissionDenied("That table's password is wrong.")
        summary = self.room.finished.get(table_id)
        if summary is None:
            summary = common_pb2.TableSummary(
                id=table_id, game=str(config.get("game", "")), name=str(config.get("name", "")),
                has_password=bool(kept), status=common_pb2.TABLE_STATUS_FINISHED,
            )
        return Opened(table_id, summary, 0)

    def _playing(self, table: Table, token: str) -> Opened:
        grant = self.room.find(token) if token else None
        if grant is None or grant.table is not table:
            if table.config.delayed_view:
                raise PermissionDenied(
                    "That table is still playing: its hands open when it finishes, or to its spectators one hand late."
                )
            raise PermissionDenied("That table is still playing: its hands open when it finishes.")
        if grant.seat is not None:
            raise PermissionDenied("Players see past hands face up once the table has finished.")
        if not table.config.delayed_view:
            raise PermissionDenied("This table does not show its spectators past hands while it plays.")
        return Opened(table.id, wire.table_summary(table.summary()), table.in_play)

    async def hands(self, table_id: str, token: str, password: str) -> replay_pb2.ListHandsResponse:
        opened = await self.open(table_id, token, password)
        records = (json.loads(line) for line in self.room.store.hands.last_hands(table_id, LISTED))
        return replay_pb2.ListHandsResponse(
            table=opened.summary, hands=[hand_summary(r) for r in records if "void" not in r], in_play=opened.in_play
        )

    async def record(self, table_id: str, hand: int, token: str, password: str) -> dict[str, Any]:
        """The history of a finished hand this caller may replay."""
        opened = await self.open(table_id, token, password)
        if opened.in_play and hand == opened.in_play:
            raise FailedPrecondition("Hand {hand} is still being played: it opens once it is over.", hand=hand)
        line = self.room.store.hands.hand(table_id, hand) if hand > 0 else None
        if line is None:
            raise NotFound("Table {table} has no finished hand {hand}.", table=quote(table_id), hand=hand)
        record: dict[str, Any] = json.loads(line)
        if "void" in record:  # a commitment that dealt no hand: there is nothing to replay
            raise NotFound("Table {table} has no finished hand {hand}.", table=quote(table_id), hand=hand)
        return record
