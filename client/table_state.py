"""One table as its stream tells it, followed once for the screen (``screens.table.TableScreen``) and the line mode
(``lines.loop.Seat``) alike: a snapshot's view, an update's events with the names each was said with and the seats
that played the trick's cards, a new match's seats swapped, a table closed for good, and the fair-deal check of each
hand finished. What each does with an event (writes it in the log, says it) is its own; what the table is after it
is this module's, so the two never drift apart."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from cardtui.client.fairness import FairDeals, Verdict
from cardtui.client.models import Holders, TableModel, Then, holders_of, names_then, played_after
from cardtui.client.rematch import seat_after
from cardtui.v1 import table_pb2


class TableState:
    """The table as last heard: its model, who holds each seat, and the deal check (a mixin: the screen and the line
    mode's seat each keep these three and follow the stream with ``track``)."""

    model: TableModel
    holders: Holders
    fair: FairDeals

    def track(self, msg: table_pb2.TableMessage,
               each: Callable[[table_pb2.Event, Then, TableModel], None] = lambda _ev, _then, _model: None,
               ) -> list[Verdict]:
        """The table after one message of its stream; ``each`` is called with every event of an update as it comes,
        the names it was said with and the table as it stood then; the deal checks the message finished."""
        body = msg.WhichOneof("body")
        if body == "snapshot":
            self.model = self.model.with_summary(msg.snapshot.table).with_view(msg.snapshot.view, msg.seq)
            self.holders = holders_of(msg.snapshot.view.seats)
        elif body == "update":
            events = list(msg.update.events)
            now = holders_of(msg.update.view.seats) if msg.update.HasField("view") else self.holders
            played = self.model.played_by
            for ev, then in zip(events, names_then(events, now, seat_after(events, self.model.seat)), strict=True):
                self._moved(ev)
                played = played_after(played, ev, then.names)
                each(ev, then, self.model.then(then))
            self.model = replace(self.model, played_by=played)
            if msg.update.HasField("view"):
                self.model = self.model.with_view(msg.update.view, msg.seq)
                self.holders = now
        elif body == "closing" and not msg.closing.resubscribe:  # over for good: no turn, no timer, no actions
            self.model = replace(self.model, legal=(), deadline=None)
        return list(self.fair.told(msg))

    def _moved(self, event: table_pb2.Event) -> None:
        """A new match with the seats swapped moves the player's seat too."""
        if event.WhichOneof("body") == "match_started" and event.match_started.seats_from and \
                self.model.seat is not None:
            moved = list(event.match_started.seats_from)
            if self.model.seat in moved:
                self.model = replace(self.model, seat=moved.index(self.model.seat))
