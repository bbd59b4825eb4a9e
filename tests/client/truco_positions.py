"""Rigged truco positions for the client's tests: a real engine, seeded and scripted, and the
real table screen fed the very messages a server would send from it (no network).

``Position`` plays a script on a seeded hand from given scores; ``messages`` turns what each
step produced into the stream a seat (or a spectator) receives: a snapshot, then one update
per step with that audience's events and view. ``ScreenApp`` shows them on the real
``TableScreen`` through a connection that replays them, so a snapshot is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from textual.app import App

from cardtui.client.screens.table import TableScreen
from cardtui.engine.core import Bound, Event
from cardtui.engine.games import GAMES
from cardtui.server.base import wire
from cardtui.v1 import common_pb2, table_pb2
from tests.client.waiting import Script

Step = tuple[int, str, str | int | None]
"""A seat, an action type, and its card ("7H"), position/points (int) or signal ("wink")."""


@dataclass
class Position:
    game: str
    names: Sequence[str]
    seed: int
    scores: Sequence[int] = (0, 0)
    dealer: int = -1
    hand: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    pica: bool = False
    """Truco argentino: a pica-pica deal (three 1v1 duels)."""
    steps: list[tuple[list[Event], dict[int | None, table_pb2.View]]] = field(default_factory=list)
    """What each step produced (the deal first): its events, and every viewer's view after it."""

    def __post_init__(self) -> None:
        rules = GAMES[self.game]
        game = rules
        seats = game.seat_infos(list(self.names))
        dealer = self.dealer if self.dealer >= 0 else len(self.names) - 1
        start = [self.scores[s % 2] for s in range(len(self.names))]
        options = game.options(self.options)  # type: ignore[attr-defined]
        record = {"pica_pica": True} if self.pica else None
        state, events = game.resume(  # type: ignore[attr-defined]
            options, seats, start, dealer, self.hand, self.seed, record)
        self.match = Bound(game, state)  # type: ignore[arg-type]
        self._step(events)

    def _step(self, events: list[Event]) -> None:
        viewers: list[int | None] = [*range(len(self.names)), None]
        self.steps.append((events, {v: self.view(v) for v in viewers}))

    def hand_of(self, seat: int) -> list[str]:
        return [str(c) for c in self.match.view(seat).cards]  # type: ignore[attr-defined]

    def do(self, seat: int, kind: str, what: str | int | None = None) -> Position:
        """Apply the legal action of this type (and card, number or signal) for ``seat``."""
        for a in self.match.legal_actions(seat):
            if a.type != kind:
                continue
            if isinstance(what, str) and a.cards and str(a.cards[0]) != what:
                continue
            if isinstance(what, str) and a.value and a.value != what:
                continue
            if isinstance(what, int) and a.amount != what:
                continue
            self._step(self.match.apply(seat, a))
            return self
        legal = [(a.type, [str(c) for c in a.cards], a.amount, a.value) for a in self.match.legal_actions(seat)]
        raise AssertionError(f"seat {seat} may not {kind} {what!r}; legal: {legal}")

    def play(self, steps: Sequence[Step]) -> Position:
        for seat, kind, what in steps:
            self.do(seat, kind, what)
        return self

    def lead(self, choose: Callable[[Position, int], Step | None], limit: int = 60) -> Position:
        """Play on, each seat to act choosing by ``choose`` (None: stop)."""
        for _ in range(limit):
            waiting = self.match.to_act()
            if not waiting:
                return self
            step = choose(self, waiting[0])
            if step is None:
                return self
            self.do(*step)
        return self

    # -- the stream a viewer receives -------------------------------------------------------
    def summary(self, table_id: str = "t1") -> common_pb2.TableSummary:
        rules = GAMES[self.game]
        seats = [common_pb2.SeatSummary(seat=s, name=n, taken=True, team=s % 2, bot=s != 0)
                 for s, n in enumerate(self.names)]
        return common_pb2.TableSummary(id=table_id, game=self.game, name=rules.title, seats=seats,
                                       status=common_pb2.TABLE_STATUS_PLAYING, turn_seconds=30)

    def view(self, seat: int | None) -> table_pb2.View:
        legal = self.match.legal_actions(seat) if seat is not None else []
        return wire.view_message(self.match.view(seat), legal, 0, self.summary().seats)

    def messages(self, seat: int | None, history: int = 12) -> list[table_pb2.TableMessage]:
        """What a viewer joining before the last ``history`` steps receives: a snapshot, then
        one update per step with its events (as this viewer gets them) and the view after it."""
        split = max(1, len(self.steps) - history)
        seq = sum(len(events) for events, _ in self.steps[:split])
        out = [table_pb2.TableMessage(seq=seq, snapshot=table_pb2.Snapshot(
            table=self.summary(), seat=seat, view=self.steps[split - 1][1][seat], first_seq=1))]
        for events, views in self.steps[split:]:
            wired = []
            for ev in events:
                seq += 1
                wired.append(wire.event_message(seq, ev, seat))
            out.append(table_pb2.TableMessage(seq=seq, update=table_pb2.Update(events=wired, view=views[seat])))
        return out


class Replaying(Script):
    """A connection that streams fixed messages, then waits; actions are kept (``acted``, with the
    number each was sent at in ``seen``), never sent."""

    @property
    def acted(self) -> list[common_pb2.Action]:
        return self.sent


class ScreenApp(App[None]):
    """The real table screen on a rigged position."""

    CSS_PATH = "../../client/app.tcss"

    def __init__(self, position: Position, seat: int | None, history: int = 12) -> None:
        super().__init__()
        self.conn = Replaying(position.messages(seat, history))
        self.position = position
        self.seat = seat
        self.summary = position.summary()

    def on_mount(self) -> None:
        seat = -1 if self.seat is None else self.seat
        self.push_screen(TableScreen(self.conn, "token", seat, self.summary))  # type: ignore[arg-type]
