"""Leaving a table: asked first in the middle of a match, then said to the server until it hears it.

Leaving a match under way hands the seat to a bot, so the table asks first (``LeaveScreen``), in
the game's own terms. A leave the server never hears leaves the seat the player's: a bot keeps it
for them, away, and the next match starts with them in it. So a leave that fails is said on
screen, and sent again in the background (the app's, not the table's: the table screen is gone)
until the server answers; an answer that the token opens nothing (left already, the table closed)
is a leave too.
"""

from __future__ import annotations

import asyncio
from itertools import chain, repeat
from typing import Any

import grpc
from textual.app import App

from cardtui.client import gamebook
from cardtui.client.connection import Connection, error_text
from cardtui.client.screens.confirm import ConfirmScreen
from cardtui.i18n import N_, _

AGAIN = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Seconds before each new try; then every ``AGAIN[-1]`` seconds, for as long as the app runs."""
SETTLED = (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.NOT_FOUND)
"""Answers that leave nothing to leave: the token opens no seat (any more), or the table is gone."""

LEAVING_ANY = N_("A bot plays your seat until someone takes it.")
LEAVING_TOURNAMENT = N_("A bot plays your seat until you come back (nobody else may take it); "
                        "the match still counts for you.")
"""At a tournament's table the seat stays its player's: only they may sit there again."""


class LeaveScreen(ConfirmScreen):
    """Asks before leaving a hand in progress: a bot takes the seat."""

    def __init__(self, game: str, seats: int = 0, tournament: bool = False) -> None:
        known = gamebook.find(game)  # what leaving does to the seat, in the game's own terms (chips, points, a team)
        said = known.leaving if known is not None else LEAVING_ANY
        if tournament:
            said = LEAVING_TOURNAMENT
        elif seats == 2 and known is not None and known.teams:
            said = LEAVING_ANY  # one against one: there is no team to play on with
        super().__init__(_("Leave the table in the middle of the match?"), _(said),
                         _("Stay (escape)"), _("Leave (y)"))


def heard(err: BaseException) -> bool:
    """The server answered, and there is nothing left to leave."""
    return isinstance(err, grpc.aio.AioRpcError) and err.code() in SETTLED


async def leave(app: App[Any], conn: Connection, token: str, table: str) -> bool:
    """Leave the table ``table`` (its name, as the player knows it): True if the server heard it.

    If it did not, the player is told so, and the leave is sent again until it is heard."""
    try:
        await conn.leave(token)
        return True
    except Exception as err:
        if heard(err):
            return True
        app.notify(_("The server did not hear you leave {table} ({why}): your seat is still yours there. "
                     "Trying again until it does.").format(table=table, why=error_text(err)),
                   title=_("Not left yet"), severity="warning", timeout=15, markup=False)
    app.run_worker(_again(app, conn, token, table), group="leaving", exit_on_error=False)
    return False


async def _again(app: App[Any], conn: Connection, token: str, table: str) -> None:
    for delay in chain(AGAIN, repeat(AGAIN[-1])):
        await asyncio.sleep(delay)
        try:
            await conn.leave(token)
        except Exception as err:
            if not heard(err):
                continue
        app.notify(_("You have left {table}: the server heard it.").format(table=table), title=_("Left"),
                   markup=False)
        return
