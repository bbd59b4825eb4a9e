"""Playing again, as the table's summary tells it: who stays, and for which seats; who left.

At a match's end each person staying asks for the same seats (``enter``) or the seats swapped
(``w``; partners changed in team games); the next match starts once they all agree, and bots take
the seats of those who leave (table.proto's ``Rematch``). This follows the answers as the events
bring them (``RematchVoted``, ``Left``) and says them under the match's summary.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text

from cardtui.client.models import TableModel
from cardtui.i18n import _
from cardtui.v1 import table_pb2

SWAP = table_pb2.REMATCH_CHOICE_SWAP
SAME = table_pb2.REMATCH_CHOICE_SAME


def seat_after(events: list[table_pb2.Event], seat: int | None) -> int | None:
    """The viewer's seat after ``events`` (``seat`` before them): a new match with the seats swapped
    moves it (``MatchStarted.seats_from``: where each new seat's holder comes from)."""
    for ev in events:
        moved = list(ev.match_started.seats_from) if ev.WhichOneof("body") == "match_started" else []
        if seat is not None and seat in moved:
            seat = moved.index(seat)
    return seat


@dataclass
class Rematch:
    """The answers since the match ended."""

    votes: dict[int, int] = field(default_factory=dict)
    """Seat → what its person asked for (``RematchChoice``)."""
    left: dict[int, str] = field(default_factory=dict)
    """Seat → who left it since the match ended (a bot takes it)."""

    def reset(self) -> None:
        self.votes.clear()
        self.left.clear()

    def heard(self, event: table_pb2.Event) -> None:
        kind = event.WhichOneof("body")
        if kind == "rematch_voted":
            self.votes[event.rematch_voted.seat] = event.rematch_voted.choice
        elif kind == "left":
            self.left[event.left.seat] = event.left.name
            self.votes.pop(event.left.seat, None)
        elif kind in ("match_started", "match_ended"):
            self.reset()

    def who(self, model: TableModel) -> Text:
        """One line, the summary's first: who stays and what each asked for, who has not said yet,
        who left."""
        out = Text(_("Again?") + " ", style="bold magenta")
        parts: list[Text] = []
        view = model.view
        seats = list(view.seats) if view is not None else []
        for s in seats:
            if s.seat in self.left:
                parts.append(Text(_("{name} leaves: a bot takes the seat").format(name=self.left[s.seat]),
                                  style="dim"))
                continue
            if s.bot or not s.taken:
                continue
            parts.append(self._answer(s.seat == model.seat, s.name, self.votes.get(s.seat)))
        for i, part in enumerate(parts):
            if i:
                out.append(" · ")
            out.append_text(part)
        return out

    @staticmethod
    def _answer(yours: bool, name: str, choice: int | None) -> Text:
        if choice == SWAP:
            said = _("you stay, seats swapped") if yours else _("{name} stays, seats swapped").format(name=name)
            return Text(said, style="bold")
        if choice == SAME:
            said = _("you stay, same seats") if yours else _("{name} stays, same seats").format(name=name)
            return Text(said, style="bold")
        return Text(_("you: not yet") if yours else _("{name}: not yet").format(name=name), style="dim")

    @staticmethod
    def how() -> Text:
        """How the next match comes, said once in the summary."""
        return Text(_("The next game starts when everyone staying agrees; whoever leaves, a bot takes the seat."),
                    style="dim")
