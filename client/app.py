"""The terminal client: lobby, table screens, spectating."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import grpc
from textual import events
from textual.app import App
from textual.binding import Binding

from cardtui.client.connection import BadAddress, Connection, diagnosed, error_text
from cardtui.client.invite_links import BadLink, Link, read_link, same_server, terminal_link
from cardtui.client.rounds import Entered, Rounds, ready
from cardtui.client.screens.connect import ConnectScreen
from cardtui.client.screens.invite import CodeScreen, InviteScreen
from cardtui.client.screens.lobby import LobbyScreen, OpenCode, OpenTable, OpenTournaments
from cardtui.client.screens.name import NameScreen
from cardtui.client.screens.password import PasswordScreen
from cardtui.client.screens.table import TableScreen
from cardtui.client.screens.tournaments import TournamentsScreen
from cardtui.client.textual_internals import write_to_terminal
from cardtui.client.turn_bell import bell_on, keep_bell, page_keeps_bell
from cardtui.client.typeahead import Built, Typeahead
from cardtui.i18n import N_, NAMES, _, current, next_language, remember, use
from cardtui.identity import Identity
from cardtui.v1 import common_pb2, lobby_pb2


async def relabel(app: App[Any]) -> None:
    """Every screen in the stack says again what it shows, in the reader's language now (a screen
    with a ``relabel`` method redraws its words; the footers look their keys up again)."""
    for screen in list(app.screen_stack):
        again = getattr(screen, "relabel", None)
        if again is not None:
            await again()
        screen.refresh_bindings()  # the footer composes its keys again, looked up anew


class CardApp(App[None]):
    """``cardtui connect``: talks to one server; ``host`` starts one in-process first.

    Until the server answers, a connection screen says why not and tries again. Without a
    ``player`` name (none given, or a browser guest) the app asks for one before the lobby;
    ``note`` is shown on the lobby's line under the server's (where browsers join, when hosting).
    ``password`` opens the table to ``spectate`` (and any other table it fits) without asking.
    With an ``identity`` the name is proved with the player's key (and remembered); without, a guest.
    With ``own_config`` (the config directory is the person's own, not a browser guest's on the host), the
    language chosen with ctrl+l, the bell and the create form's last choices are kept there for the next client.
    """

    CSS_PATH = "app.tcss"
    TITLE = "cardtui"
    BINDINGS = [Binding("ctrl+q", "quit", N_("Quit"), priority=True),
                Binding("ctrl+l", "language", N_("Language"), priority=True),
                # the bell at your turn (client.turn_bell): off until turned on, then remembered
                Binding("ctrl+g", "toggle_bell", N_("Bell"), priority=True, show=False),
                # The browser page's row of keys on a touch screen (server/web_page): its help, chat and phrases
                # come as F1 to F3, taken whatever has the focus (a chat line would type "?", "/" or "!").
                Binding("f1", "key_row('question_mark')", show=False, priority=True),
                Binding("f2", "key_row('slash')", show=False, priority=True),
                Binding("f3", "key_row('exclamation_mark')", show=False, priority=True)]

    def __init__(
        self,
        target: str,
        player: str,
        spectate: str | None = None,
        host: Callable[[], Awaitable[tuple[str, Callable[[], Awaitable[None]]]]] | None = None,
        tls_ca: bytes | None = None,
        note: str | None = None,
        password: str = "",
        identity: Identity | None = None,
        own_config: bool = False,
        join: Link | None = None,
        room_invite: bool = False,
        bell: bool = False,
        touch: bool = False,
    ) -> None:
        super().__init__()
        self.touch = touch
        """A touch screen (``connect --touch``, a browser guest's page on a phone): the table says what to tap, not
        which key to press."""
        self.join = join
        """An invite to open once in the lobby (``cardtui connect 'cardtui://HOST:PORT/table/ID'``)."""
        self.room_invite = room_invite
        """Show the room's own invite over the lobby at first (the host's, ``cardtui play``)."""
        self.bell_on = bell or (bell_on() if own_config else False)
        """Ring at the start of each of this player's turns (``bell``: on from the start, as a browser
        guest's page remembers it)."""
        self.servers: tuple[str, ...] = ()
        """Where friends reach this server, as its invites say (a link naming one of them is this server's)."""
        self.own_config = own_config
        """The config directory is the person's: the language chosen with ctrl+l, the bell and the create form's
        last choices are kept there (not a browser guest's: the host's config directory is not theirs)."""
        self.target = target
        self.player = player
        self.spectate_id = spectate
        self.host = host
        self.tls_ca = tls_ca
        self.note = note
        self.identity = identity
        self.stop_host: Callable[[], Awaitable[None]] | None = None
        self.password = password
        self.conn: Connection | None = None
        self.info: lobby_pb2.ServerInfo | None = None
        self.rounds: Rounds | None = None
        """The tournaments this player is entered in, followed wherever they are in the client."""
        self.typeahead = Typeahead()
        """Keys read while a form was still building its fields, until it is ready for them."""

    async def on_event(self, event: events.Event) -> None:
        top = self.screen_stack[-1] if self.screen_stack else None
        if isinstance(event, events.Key) and not event.is_forwarded and top is not None \
                and self.typeahead.hold(top, event):
            return  # the form on top is building its fields: this key goes to them once they are there
        await super().on_event(event)

    async def on_built(self, message: Built) -> None:
        for key in self.typeahead.release():
            await super().on_event(key)

    async def on_mount(self) -> None:
        if self.host is not None:  # `cardtui play` hosts a server in this process first
            try:
                self.target, self.stop_host = await self.host()
            except OSError as err:  # its store in use by another server, no port to listen on: said, not a traceback
                self.exit(return_code=1, message=str(err))
                return
        try:
            self.conn = Connection.open(self.target, tls_ca=self.tls_ca)
            self.conn.on_host = not self.own_config  # a browser guest's client, run on the host
            self.conn.identity = self.identity
        except BadAddress as err:
            await self.push_screen(ConnectScreen(self.target, None, str(err)), self._reached)
            return
        try:
            self.info = await self.conn.info()
        except grpc.aio.AioRpcError as err:
            trouble, problem = await diagnosed(self.conn, err)
            await self.push_screen(ConnectScreen(self.conn.target, self.conn, problem, trouble), self._reached)
            return
        await self._named_or_ask()

    async def _reached(self, info: lobby_pb2.ServerInfo | None) -> None:
        if info is None:
            self.exit()
            return
        self.info = info
        await self._named_or_ask()

    async def _named_or_ask(self) -> None:
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
        await self.push_screen(LobbyScreen(self.conn, self.info, self.note or "", keeps=self.own_config))
        if self.identity is not None:  # only a player with a key may enter a tournament
            self.rounds = Rounds(self.conn, self.player, self._to_round_table,
                                 lambda follow: self.run_worker(follow, group="rounds", exit_on_error=False))
            self.run_worker(self.rounds.keep_looking(), group="rounds", exit_on_error=False)
        if self.spectate_id:
            await self.open_table(self.spectate_id, spectate=True)
        elif self.join is not None:
            await self.open_link(self.join)
        elif self.room_invite:
            await self.push_screen(InviteScreen(self.conn))

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

    async def action_language(self) -> None:
        """The next language (English, Português (Brasil), Español): the screens open now say
        again what they show, every screen opened after speaks it from the start."""
        use(next_language())
        if self.own_config:
            remember(current())
        await relabel(self)
        self.notify(_("Language: {name}").format(name=NAMES[current()]), timeout=3)

    def action_toggle_bell(self) -> None:
        """The bell at the start of each of your turns, on or off (kept for the next time)."""
        self.bell_on = not self.bell_on
        if self.own_config:
            keep_bell(self.bell_on)
        else:  # a browser guest: their page keeps it (the host's config directory is not theirs)
            write_to_terminal(self, page_keeps_bell(self.bell_on))
        self.notify(_("Bell on: it rings when it becomes your turn.") if self.bell_on
                    else _("Bell off."), timeout=3)

    async def action_key_row(self, key: str) -> None:
        """A key of the browser page's row: what ``key`` does on the screen on show (its help, its chat line, its
        phrases), even while a field has the focus (Textual keeps a printable key for the field then); nothing
        where the screen gives the key nothing to do."""
        screen = self.screen
        for cls in type(screen).__mro__:
            for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", ())):
                if key in binding.key.split(",") and screen.check_action(binding.action, ()) is not False:
                    await screen.run_action(binding.action)
                    return

    def on_open_tournaments(self, message: OpenTournaments) -> None:
        self.push_screen(TournamentsScreen(message.conn, message.info, self.player))

    def on_entered(self, message: Entered) -> None:
        if self.rounds is not None:
            self.rounds.follow(message.tournament_id)

    async def _to_round_table(self, table_id: str, round_number: int) -> None:
        """A round opened with a table for the player: to it, from wherever they are (unless there)."""
        if any(isinstance(s, TableScreen) and s.model.summary.id == table_id for s in self.screen_stack):
            return
        self.notify(ready(round_number))
        await self.open_table(table_id, locked=False)

    async def on_open_code(self, message: OpenCode) -> None:
        self.ask_code("")

    def ask_code(self, problem: str) -> None:
        """Ask for an invite's code (or link), again with ``problem`` when the last one would not do."""
        async def answered(typed: str | None) -> None:
            if typed is None:
                return
            try:
                link = read_link(typed)
            except BadLink as err:
                self.ask_code(str(err))
                return
            problem = await self.open_link(link, say=False)  # the dialog says it, asking again
            if problem:
                self.ask_code(problem)

        self.push_screen(CodeScreen(problem), answered)

    async def open_link(self, link: Link, say: bool = True) -> str:
        """Open what an invite names: its table, sat at (asked the password unless the invite opens it).
        Returns why it cannot be opened (``say``: said in a notification too), or "" once it is."""
        assert self.conn is not None
        if link.server is not None and not await self._here(link.server):
            problem = _("That invite is for the server at {server}; this client is connected to {target}. "
                        "Open it with: cardtui connect '{link}'").format(
                server=link.server, target=self.conn.target, link=terminal_link(link.server, link.table, link.code))
            if say:
                self.notify(problem, title=_("Another server's invite"), severity="error", timeout=12)
            return problem
        table_id, opens, locked = link.table, False, None
        if link.code:
            try:
                opened = await self.conn.open_invite(link.code)
            except grpc.aio.AioRpcError as err:
                problem = error_text(err)
                if say:
                    self.notify(problem, title=_("Cannot open the invite"), severity="error", timeout=12)
                return problem
            if link.table and opened.table.id != link.table:
                problem = _("That invite's code is not the one of table {table}.").format(table=link.table)
                if say:
                    self.notify(problem, title=_("Cannot open the invite"), severity="error")
                return problem
            table_id, opens, locked = opened.table.id, opened.opens_lock, opened.table.has_password
        if not table_id:
            return ""
        if opens:
            await self._try_open(table_id, False, "", locked=True, invite=link.code)
        else:
            await self.open_table(table_id, locked=locked)
        return ""

    async def _here(self, server: str) -> bool:
        """Whether ``HOST:PORT`` is this server: as this client dialled it, or as its invites name it."""
        assert self.conn is not None
        if not self.servers:
            try:
                self.servers = tuple((await self.conn.invite()).servers)
            except grpc.aio.AioRpcError:
                self.servers = ()
        named = server if ":" in server.rstrip("]") else f"{server}:50051"
        return same_server(named, self.conn.target, self.servers)

    async def on_open_table(self, message: OpenTable) -> None:
        await self.open_table(message.table_id, message.spectate, message.password, message.locked)

    async def open_table(
        self, table_id: str, spectate: bool = False, password: str = "", locked: bool | None = None
    ) -> None:
        """Take a seat at (or watch) a table and show it; ask for its password if it has one.

        A password this client already gave the table (creating it, or at the prompt) is not
        asked again. ``locked``: whether the table has a password, if the caller knows.
        """
        assert self.conn is not None
        password = password or self.conn.passwords.get(table_id, "") or self.password
        if locked is None and not password:
            locked = await self._locked(table_id)
        if locked and not password:
            self._ask_password(table_id, spectate, "")
            return
        await self._try_open(table_id, spectate, password, locked=bool(locked))

    async def _locked(self, table_id: str) -> bool:
        """Whether the table has a password, as the lobby lists it (False if it cannot tell)."""
        assert self.conn is not None
        try:
            tables = await self.conn.tables()
        except Exception:
            return False
        return any(t.id == table_id and t.has_password for t in tables)

    async def _try_open(self, table_id: str, spectate: bool, password: str, locked: bool, invite: str = "") -> bool:
        assert self.conn is not None
        try:
            if spectate:
                joined = await self.conn.spectate(table_id, self.player, password, invite)
            else:
                joined = await self.conn.join(table_id, self.player, password, invite)
        except grpc.aio.AioRpcError as err:
            wrong = err.code() == grpc.StatusCode.PERMISSION_DENIED and "password" in (err.details() or "")
            if wrong and (locked or password or await self._locked(table_id)):
                self.conn.passwords.pop(table_id, None)
                self._ask_password(table_id, spectate, error_text(err) if password else "")
                return False
            lobby = next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)
            full = err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "free seat" in (err.details() or "")
            if full and not spectate and lobby is not None and await lobby.say_full(table_id):
                return False  # said where the player is left, in the lobby, with the way to watch it
            self.notify(error_text(err), title=_("Cannot open the table"), severity="error")
            return False
        if password:
            self.conn.passwords[table_id] = password
        await self.show_table(joined.token, joined.seat, joined.table)
        return True

    def _ask_password(self, table_id: str, spectate: bool, problem: str) -> None:
        async def answered(password: str | None) -> None:
            if password is not None:
                await self._try_open(table_id, spectate, password, locked=True)

        self.push_screen(PasswordScreen(table_id, spectate, problem), answered)

    async def show_table(self, token: str, seat: int, table: common_pb2.TableSummary) -> None:
        assert self.conn is not None
        await self.push_screen(TableScreen(self.conn, token, seat, table))

    async def on_unmount(self) -> None:
        if self.conn is not None:
            await self.conn.close()
        if self.stop_host is not None:
            await self.stop_host()
