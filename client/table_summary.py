"""A hand's or a match's summary at the table: what it says, and the widgets that show it.

When a hand ends its summary stands in for the board until the next deal (its foot counts down to
it) or a key; when a match ends, the match's summary offers to play again or leave, by buttons that
have keys of their own. The board tells the hand in its game's terms (``Board.result_summary``);
where a board has no account of its own, a plain one is made from the events that ended the hand.
Each seat is named as it was when the hand ended, and the deal's check says whose seeds went in.
"""

from __future__ import annotations

import time
from typing import Literal

from rich.console import Group, RenderableType
from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip
from textual.visual import Visual
from textual.widgets import Button, Static

from cardtui.client.boards.base import Board
from cardtui.client.fairness import Verdict
from cardtui.client.models import TableModel
from cardtui.client.words import fmt, line, who
from cardtui.i18n import _, ngettext
from cardtui.v1 import table_pb2


class KeyButton(Button):
    """A button that has a key of its own: it never takes the focus, so keys keep their meaning."""

    can_focus = False

    def __init__(self, label: str, variant: Literal["default", "primary"] = "default", id: str | None = None) -> None:
        super().__init__(label, variant=variant, id=id)
        self.compact = True


class Account(Static):
    """A hand's summary: drawn once for each account at each width. Textual drew it once to
    measure its height, again to paint it, and again whenever the panel was repainted (a hand's
    end at a table of bots is a layout or two in every few messages, and its table is the
    costliest thing on screen to draw)."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._drawn: tuple[object, object, int, list[Strip]] | None = None
        """The visual, its style and the width it was last drawn at, and its lines."""

    def drawn(self, width: int) -> list[Strip]:
        visual, style = self.visual, self.visual_style
        if self._drawn is not None and self._drawn[:3] == (visual, style, width):
            return self._drawn[3]
        strips = Visual.to_strips(self, visual, width, None, style)
        self._drawn = (visual, style, width, strips)
        return strips

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.drawn(width)) if width else 0

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        strips = self.drawn(width)
        return strips[y].adjust_cell_length(width) if y < len(strips) else Strip.blank(width, self.rich_style)


def summary_text(model: TableModel, board: Board, verdict: Verdict | None, dealt: dict[int, str],
                 hand_ended: table_pb2.HandEnded | None, match_ended: table_pb2.MatchEnded | None) -> Group:
    """The board's account of the hand (or match), or a plain one from the events; ``model`` names
    each seat as it was when the hand ended, ``dealt`` who held each seat when it was dealt (the
    seeds are the dealt-to seats' holders', whoever sits there now)."""
    view = model.view
    assert view is not None
    parts: list[RenderableType] = []
    if view.match_over:
        parts.append(Text(ngettext("The match is over after {n} hand.", "The match is over after {n} hands.",
                                   view.hand).format(n=view.hand), style="bold magenta"))
    told = board.result_summary(model)
    parts.append(told if told is not None else plain_summary(model, hand_ended, match_ended))
    seeds = verdict.seeds_said(lambda seat: dealt.get(seat) or model.name(seat)) if verdict is not None else None
    if seeds is not None:  # whose seeds the deal used; anyone seated and connected left out is flagged
        parts.append(Text(""))
        parts.append(Text(seeds.text.plain, style=seeds.style))
    return Group(*parts)


def plain_summary(model: TableModel, hand_ended: table_pb2.HandEnded | None,
                  match_ended: table_pb2.MatchEnded | None) -> Text:
    """The hand's end as the events said it (who won it, each seat's change), for a board that has
    no account of its own."""
    view = model.view
    assert view is not None
    out = Text(_("Hand {n} is over.").format(n=view.hand), style="bold")
    ended = hand_ended
    if ended is not None:
        if ended.HasField("team"):
            out.append(" " + _("Team {n} wins it.").format(n=ended.team + 1))
        elif ended.HasField("winner"):
            out.append_text(line(" ", fmt(_("{name} wins it."), name=who(model, ended.winner))))
        for seat, delta in enumerate(ended.deltas):
            out.append_text(line("\n  ", who(model, seat), f"  {delta:+d}"))
    if match_ended is not None:
        m = match_ended
        if m.HasField("team"):
            out.append("\n" + _("Team {n} wins the match.").format(n=m.team + 1), style="bold magenta")
        elif m.HasField("winner"):
            out.append_text(line("\n", fmt(_("{name} wins the match."), name=who(model, m.winner))))
    return out


def summary_foot(model: TableModel, rounds: int | None, spectating: bool, touch: bool = False) -> Text:
    """What comes after the summary, and when: the next hand, a new game, or (at a tournament's
    table, whose game is one match) the next round; and the key that goes back to the table (by taps, the
    footer's word for it)."""
    back = _("Go on: back to the table") if touch else _("enter: back to the table")
    view = model.view
    deadline = model.deadline
    secs = f"{max(0, deadline - time.monotonic()):.0f}" if deadline is not None else None
    if view is not None and view.match_over and model.summary.tournament_id:
        last = rounds is not None and model.summary.tournament_round >= rounds
        said = (_("This table's game for the tournament is over: the tournament ends when every table's is.")
                if last else _("This table's game for the tournament is over: the next round opens when every "
                               "table's is."))
        if spectating:  # a player's way back is the Leave button's (one escape line, not two)
            said += " " + (_("(Leave: back to the standings)") if touch else _("(escape: back to the standings)"))
        return Text(said, style="italic")
    if view is not None and view.match_over:
        text = _("A new game begins in {s} s.") if secs is not None else _("A new game begins soon.")
        text = text.format(s=secs)
        if spectating:
            text += " · " + back
        return Text(text, style="italic")
    text = _("Next hand in {s} s") if secs is not None else _("Next hand soon")
    return Text(text.format(s=secs) + " · " + back, style="italic")
