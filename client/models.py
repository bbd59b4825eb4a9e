"""What the client knows of a table, decoded from the typed stream.

The stream's messages are already typed (``cardtui.v1``); this module gathers them into
the one record a table screen shows — the table, the viewer's seat, the latest view, the
legal actions one per amount, and the turn's deadline — and names what an event is.
Nothing here knows a game's rules: every fact comes from the server.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from google.protobuf.message import Message

from cardtui.client import gamebook
from cardtui.i18n import _
from cardtui.v1 import common_pb2, table_pb2


def expand(legal: Iterable[common_pb2.Action]) -> tuple[common_pb2.Action, ...]:
    """Legal actions one per amount: the wire sends a run of chip amounts as one range."""
    out: list[common_pb2.Action] = []
    for a in legal:
        for chips in range(a.chips, max(a.chips, a.max_chips) + 1):
            one = common_pb2.Action()
            one.CopyFrom(a)
            one.chips, one.max_chips = chips, 0
            out.append(one)
    return tuple(out)


def event_body(event: table_pb2.Event) -> tuple[str, Message | None]:
    """An event's innermost body and its name ("acted", "showed", "hidden")."""
    name = event.WhichOneof("body") or ""
    body: Message | None = getattr(event, name) if name else None
    while body is not None and body.DESCRIPTOR.oneofs_by_name.get("body") is not None:
        name = body.WhichOneof("body") or ""
        body = getattr(body, name) if name else None
    return name, body


def action_name(action: common_pb2.Action) -> str:
    """``"bet"``, ``"play_down"``: an action's type as the protocol spells it, lower case."""
    return common_pb2.ActionType.Name(action.type).removeprefix("ACTION_TYPE_").lower()


def action_kind(action: common_pb2.Action) -> str:
    """An action's type with its draw source, when it has one: ``"draw:stock"``, ``"draw:pile"``, ``"bet"``.

    Two actions of one type that are on offer together (drawing from the stock or the pile)
    need keys and labels of their own; every other action goes by its type alone.
    """
    name = action_name(action)
    if action.source:
        name += ":" + common_pb2.DrawSource.Name(action.source).removeprefix("DRAW_SOURCE_").lower()
    return name


@dataclass(frozen=True)
class TableModel:
    """The table as this client last heard it."""

    summary: common_pb2.TableSummary
    seat: int | None
    view: table_pb2.View | None = None
    legal: tuple[common_pb2.Action, ...] = ()
    deadline: float | None = None
    """When the turn timer runs out (``time.monotonic``), or None."""
    seq: int = 0
    names: dict[int, str] = field(default_factory=dict)
    played_by: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Truco: who played each seat's cards of the round so far, in order, named as they were then
    (a seat that changed hands mid-hand shows both); the view's tricks carry only seats."""

    @property
    def game(self) -> str:
        return self.summary.game

    @property
    def spectating(self) -> bool:
        return self.seat is None

    def name(self, seat: int) -> str:
        return self.names.get(seat) or _("seat {n}").format(n=seat + 1)

    def with_view(self, view: table_pb2.View, seq: int) -> TableModel:
        deadline = time.monotonic() + view.deadline_ms / 1000 if view.deadline_ms else None
        names = {s.seat: s.name for s in view.seats}
        return replace(self, view=view, legal=expand(view.legal), deadline=deadline, seq=max(self.seq, seq),
                       names=names)

    def with_summary(self, summary: common_pb2.TableSummary) -> TableModel:
        return replace(self, summary=summary)

    def then(self, then: Then) -> TableModel:
        """The table as an event is told: each seat named as it was held then, the viewer's own
        seat only if it was theirs then."""
        return replace(self, names=then.names, seat=then.seat)


Holders = dict[int, tuple[str, bool]]
"""Who plays each seat: the name the seat list gives, and whether a bot plays for that person."""


def holders_of(seats: Iterable[common_pb2.SeatSummary]) -> Holders:
    return {s.seat: (s.name, s.away and s.bot) for s in seats}


def shown(holders: Holders) -> dict[int, str]:
    """Each seat's holder as a log line names them ("ana (bot)" while a bot plays for ana)."""
    return {seat: _("{name} (bot)").format(name=name) if name and botted else name
            for seat, (name, botted) in holders.items()}


@dataclass(frozen=True)
class Then:
    """Who held each seat when an event happened, as a log line names them, and the viewer's seat
    then: None before the viewer sat down (what came before was someone else's, never "You")."""

    names: dict[int, str]
    seat: int | None


def names_then(events: list[table_pb2.Event], now: Holders, me: int | None = None) -> list[Then]:
    """Who held each seat when each event happened, from who holds them ``now`` (after them), and
    whether the viewer (at seat ``me`` now) held theirs then.

    Seats change hands (the hand so far told to a newcomer, a batch with someone sitting down):
    walking back from now, every event that changes a seat's holder says who held it before
    (``Joined.before``), so every earlier event is named as it was then (docs/client.md). Before
    the viewer's own sitting down, their seat was another's: those events are told as a watcher
    reads them.
    """
    holders = dict(now)
    mine = me
    out: list[Then] = []
    for ev in reversed(events):
        kind = ev.WhichOneof("body")
        if kind == "joined":  # the newcomer's own line names them
            holders[ev.joined.seat] = (ev.joined.name, False)
        out.append(Then(shown(holders), mine))
        if kind == "joined":
            holders[ev.joined.seat] = (ev.joined.before, ev.joined.before_away)
            if ev.joined.seat == mine:
                mine = None
        elif kind == "left":
            holders[ev.left.seat] = (ev.left.name, False)
        elif kind == "went_away":
            holders[ev.went_away.seat] = (ev.went_away.name, False)
        elif kind == "came_back":
            holders[ev.came_back.seat] = (ev.came_back.name, True)
        elif kind == "match_started" and ev.match_started.seats_from:
            # The seats were swapped (a match again): before it, each holder sat where it came from.
            order = list(ev.match_started.seats_from)
            holders = {(order[s] if 0 <= s < len(order) else s): h for s, h in holders.items()}
            mine = order[mine] if mine is not None and 0 <= mine < len(order) else mine
    return out[::-1]


def played_after(played: dict[int, tuple[str, ...]], event: table_pb2.Event,
                 names: dict[int, str]) -> dict[int, tuple[str, ...]]:
    """``TableModel.played_by`` after ``event``, whose seats were held by ``names`` (``names_then``):
    a card played adds its player's name; a new hand, or a new round of a pica-pica hand, starts over (the
    event's family says which of its events do, ``Family.played`` and ``starts_over``)."""
    kind = event.WhichOneof("body")
    if kind == "hand_started":
        return {}
    family = next((f for f in gamebook.families() if kind and f.events is type(getattr(event, kind))), None)
    _name, body = event_body(event)
    if family is None or body is None:
        return played
    if family.starts_over(body):
        return {}
    seat = family.played(body)
    if seat is None:
        return played
    return {**played, seat: (*played.get(seat, ()), names.get(seat, ""))}
