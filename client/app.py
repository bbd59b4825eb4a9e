"""The terminal client: lobby, table screens, spectating."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import grpc
from textual.app import App
from textual.binding import Binding

from cardtui.client.connection import Connection, error_text
from cardtui.client.lobby import LobbyScreen, OpenTable
from cardtui.client.name_screen import NameScreen
from cardtui.client.table_screen import TableScreen
from cardtui.identity import Identity


class CardApp(App[None]):
    """``cardtui connect``: talks to one server; ``host`` starts one in-process first.

    Without a ``player`` name (a browser guest) the app asks for one before the lobby;
    ``note`` is shown once the lobby is up (where browsers join, when hosting). With an
    ``identity`` the name is proved with the player's key (and remembered); without, a guest.
    """

    CSS_PATH = "app.tcss"
    TITLE = "cardtui"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(
        self,
        target: str,
        player: str,
        spectate: str | None = None,
        host: Callable[[], Awaitable[tuple[str, Callable[[], Awaitable[None]]]]] | None = None,
        tls_ca: bytes | None = None,
        note: str | None = None,
        identity: Identity | None = None,
    ) -> None:
        super().__init__()
        self.target = target
        self.player = player
        self.spectate_id = spectate
        self.host = host
        self.tls_ca = tls_ca
        self.note = note
        self.identity = identity
        self.stop_host: Callable[[], Awaitable[None]] | None = None
        self.conn: Connection | None = None

    async def on_mount(self) -> None:
        if self.host is not None:  # `cardtui play` hosts a server in this process first
            self.target, self.stop_host = await self.host()
        self.conn = Connection.open(self.target, tls_ca=self.tls_ca)
        self.conn.identity = self.identity
        if self.player:
            await self._enter()
        else:
            await self.push_screen(NameScreen(), self._named)

    async def _named(self, name: str | None) -> None:
        if not name:
            self.exit()
            return
        self.player = name
        await self._enter()

    async def _enter(self) -> None:
        """The lobby (and the table to watch, if asked), once there is a name."""
        assert self.conn is not None
        if not await self._sign_in():
            return
        self.sub_title = f"{self.player} @ {self.conn.target}"
        await self.push_screen(LobbyScreen(self.conn))
        if self.note:
            self.notify(self.note, title="Guests", timeout=20, markup=False)
        if self.spectate_id:
            await self.open_table(self.spectate_id, spectate=True)

    async def _sign_in(self) -> bool:
        """Prove the name (or, as a guest, check nobody owns it); a name that is another's asks for another."""
        assert self.conn is not None
        try:
            await self.conn.sign_in(self.player)
        except grpc.aio.AioRpcError as err:
            if err.code() in (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.INVALID_ARGUMENT):
                await self.push_screen(NameScreen(problem=error_text(err)), self._named)
                return False
        except Exception:  # unreachable: the lobby says so and keeps trying
            pass
        return True

    async def on_open_table(self, message: OpenTable) -> None:
        await self.open_table(message.table_id, message.spectate, message.password)

    async def open_table(self, table_id: str, spectate: bool = False, password: str = "") -> None:
        """Take a seat at (or watch) a table and show it."""
        assert self.conn is not None
        try:
            if spectate:
                joined = await self.conn.spectate(table_id, self.player, password)
            else:
                joined = await self.conn.join(table_id, self.player, password)
        except Exception as err:  # a refusal: say it, stay where we are
            self.notify(error_text(err), title="Cannot open the table", severity="error")
            return
        await self.push_screen(TableScreen(self.conn, joined.token, joined.seat, joined.table))

    async def on_unmount(self) -> None:
        if self.conn is not None:
            await self.conn.close()
        if self.stop_host is not None:
            await self.stop_host()
