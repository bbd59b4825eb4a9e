"""The turn line under the board: whose turn it is and how long is left, in one row.

It says "Your turn" only to a seat that has something to do (a seat still waited on with nothing
left to do, having let a claim window go, is told to wait for the others), names the seats to act
otherwise, and counts the server's timer down in whole seconds; while the server is gone, the
timer is said to wait for it. Between hands it says when the next one (or the next game) begins.
"""

from __future__ import annotations

import time

from rich.text import Text

from cardtui.client.models import TableModel
from cardtui.i18n import _, ngettext


def turn_line(model: TableModel, online: bool, gone: bool) -> Text:
    """The turn line for the table as last heard: ``online``, the stream is up; ``gone``, the
    server closed the table to this viewer for good."""
    view = model.view
    if view is None or view.WhichOneof("game") in (None, "waiting"):
        return Text(_("Waiting for players to take the open seats…"), style="italic")
    if gone:
        return Text(_("This table is over for you · escape: back to the lobby"), style="bold")
    waiting = list(view.to_act)
    deadline = model.deadline
    secs = max(0, deadline - time.monotonic()) if deadline is not None else None
    left = f" · {secs:.0f} s" if secs is not None else ""
    if not online:
        left = " · " + _("the timer waits for the server")
    if not waiting:
        s = f"{secs:.0f}" if secs is not None else None
        if view.match_over:
            said = _("Match over · a new game begins in {s} s") if s else _("Match over · a new game begins soon")
            return Text(said.format(s=s), style="bold")
        said = _("Hand over · next hand in {s} s") if s else _("Hand over · next hand soon")
        return Text(said.format(s=s) if view.hand_over else "")
    # A seat still waited on with nothing left to do (it let a claim window go, which stays open its
    # whole time) is not told "Your turn" over "Nothing to do right now".
    seat = model.seat
    mine = seat in waiting and bool(model.legal)
    if seat in waiting and not mine:
        return Text(_("Waiting for the others") + left, style="bold")
    names = ", ".join(model.name(s) for s in waiting)
    text = _("Your turn") if mine else ngettext("{names} to act", "{names} to act", len(waiting)).format(
        names=names)
    return Text(text + left, style="bold reverse" if mine else "bold")
