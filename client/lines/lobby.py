"""The lobby in the line mode: the tables listed and numbered, a seat taken or a table watched, a table created,
an invite opened.

As the lobby screen (``client.screens.lobby``) lists them, each table is one sentence here, said with its number:
``sit 2`` and ``watch 2`` take the second. Opening a table and following it is the room's (``loop``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import grpc

from cardtui.client.connection import error_text, slow
from cardtui.client.invite_links import BadLink, Link, read_link
from cardtui.client.lines.creating import Cancelled, create_form
from cardtui.client.lines.sentences import (
    table_named,
)
from cardtui.client.option_words import level_words
from cardtui.i18n import _
from cardtui.v1 import common_pb2

if TYPE_CHECKING:
    from cardtui.client.lines.loop import LineRoom



def table_line(t: common_pb2.TableSummary, title: str) -> str:
    """A table as the list says it: its game and name, who sits there, and whether it is locked."""
    seated = []
    for s in t.seats:
        if not s.taken:
            seated.append(_("open"))
        elif s.bot and not s.away:
            seated.append(_("{name}, a bot, {level}").format(name=s.name, level=level_words(s.bot_level))
                          if s.bot_level else _("{name}, a bot").format(name=s.name))
        else:
            seated.append(s.name)
    said = _("{table}; seats: {seats}.").format(table=table_named(t.name, title), seats="; ".join(seated))
    if t.has_password:
        said += " " + _("It asks for a password.")
    if t.tournament_id:
        said += " " + _("A tournament's table.")
    return said



class LobbyPart:
    """The lobby's commands: the tables listed and numbered, a seat taken or a table watched by its number or id, a
    table created by the form (``creating``), an invite's code or link opened."""

    def __init__(self, room: LineRoom) -> None:
        self.room = room


    # -- the lobby -----------------------------------------------------------------------------
    async def tables_now(self) -> list[common_pb2.TableSummary]:
        """The server's tables now (none, if it cannot say)."""
        assert self.room.conn is not None
        try:
            return list(await self.room.conn.tables())
        except grpc.aio.AioRpcError:
            return []

    async def list_tables(self) -> None:
        assert self.room.conn is not None and self.room.info is not None
        try:
            tables = [t for t in await self.room.conn.tables() if t.status != common_pb2.TABLE_STATUS_FINISHED]
        except grpc.aio.AioRpcError as err:
            self.room.say(self.room.conn.unreached(err))
            return
        self.room.listed = [t.id for t in tables]
        if not tables:
            self.room.say(_("No tables yet: type new to create one, or code to open a friend's invite."))
            return
        titles = {g.name: g.title for g in self.room.info.games}
        self.room.say(_("Tables:"))
        for n, t in enumerate(tables, start=1):
            self.room.say(f"{n}: " + table_line(t, titles.get(t.game, t.game)))
        self.room.say(_("Type sit and a number to take a seat, or watch and a number to watch."))

    def table_id(self, rest: str) -> str | None:
        rest = rest.strip()
        if rest.isdigit() and 1 <= int(rest) <= len(self.room.listed):
            return self.room.listed[int(rest) - 1]
        if rest and (not rest.isdigit() or rest in self.room.listed or len(rest) > len(str(len(self.room.listed)))):
            return rest  # an id: some are all digits (a number longer than the list's is not its place in it)
        if not rest and len(self.room.listed) == 1:
            return self.room.listed[0]
        self.room.say(_("Which table? Give its number in the list (type tables to hear it) or its id."))
        return None

    async def sit(self, rest: str) -> None:
        await self._open(rest, spectate=False)

    async def watch(self, rest: str) -> None:
        await self._open(rest, spectate=True)

    async def _open(self, rest: str, spectate: bool) -> None:
        """The table ``rest`` names, sat at or watched: from the lobby only."""
        if self.room.at is not None:
            self.room.say(_("You are at a table: leave it first."))
            return
        table_id = self.table_id(rest)
        if table_id is not None:
            await self.room.open_table(table_id, spectate=spectate)

    async def new(self, rest: str) -> None:
        assert self.room.conn is not None and self.room.info is not None
        if self.room.at is not None:
            self.room.say(_("You are at a table: leave it first."))
            return
        try:
            request = await create_form(self.room.info, self.room.ask, rest)
        except Cancelled:
            self.room.say(_("No table was created."))
            return
        try:
            table = await self.room.conn.create(request)
        except Exception as err:
            if slow(err):  # it may still be made: said so, not "no table", which a second try would double
                self.room.say(_("The server is busy and has not answered yet: the table may still be created. Type "
                                "tables in a moment to see it before you create another."))
            else:
                self.room.say(error_text(err) + " " + _("No table was created."))
            return
        if request.password:
            self.room.conn.passwords[table.id] = request.password
        await self.room.open_table(table.id, password=request.password)

    async def code(self, rest: str) -> None:
        if self.room.at is not None:
            self.room.say(_("You are at a table: leave it first."))
            return
        typed = rest or await self.room.ask(_("The invite's code or link?"))
        try:
            link = read_link(typed)
        except BadLink as err:
            self.room.say(str(err))
            return
        await self.open_link(link)

    async def open_link(self, link: Link) -> None:
        """What an invite names: its table, sat at (the password asked unless the invite opens it)."""
        assert self.room.conn is not None
        table_id, invite = link.table, ""
        if link.code:
            try:
                opened = await self.room.conn.open_invite(link.code)
            except grpc.aio.AioRpcError as err:
                self.room.say(error_text(err))
                return
            table_id = opened.table.id
            invite = link.code if opened.opens_lock else ""
        if table_id:
            await self.room.open_table(table_id, invite=invite)
