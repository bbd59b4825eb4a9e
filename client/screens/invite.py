"""Invites: a table's (or the room's) way in, for friends, shown to whoever asks (``g``).

An invite says four things, each for a way of joining: the browser page's link straight to the
table's name prompt, the command for a terminal (``cardtui connect 'cardtui://HOST:PORT/table/ID'``),
a short code to type in the lobby (``j``), and the link again as a QR code drawn in the terminal,
for phones on the same Wi-Fi. Under them, for a friend with no client yet, the line that installs the
host's own from its page (``cardtui.installing``), the whole dialog wide, as the URL is long. The codes and
addresses are the server's (lobby.proto's ``Invite``, ``ServerInfo.client_wheels``); the QR code is the
segno library's, drawn two modules a row with half blocks.

An invite never carries a seat token, nor the password of a table: at a table with one, only its
owner may give an invite that opens it (``p``), and that invite carries a code that opens it, not
the password. Typed in the lobby (``CodeScreen``), a code or a link is read by
``client.invite_links``; a code is refused by the server with a sentence when it is another server's.
"""

from __future__ import annotations

from collections.abc import Sequence

import grpc
import segno
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from cardtui.client.connection import Connection, error_text
from cardtui.client.footer import Footer
from cardtui.client.invite_links import page_link, shown_code, terminal_link
from cardtui.i18n import N_, _
from cardtui.installing import Offer
from cardtui.v1 import common_pb2, lobby_pb2


def qr_lines(data: str) -> list[str]:
    """A QR code of ``data`` (error correction M, a quiet zone of two modules), two modules a row:
    ``▀`` the upper dark, ``▄`` the lower, ``█`` both, a space neither. Drawn black on white, the
    way a phone's camera reads it whatever the terminal's colours."""
    qr = segno.make(data, error="m", micro=False)
    rows = [[bool(m) for m in row] for row in qr.matrix_iter(scale=1, border=2)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    glyph = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
    return ["".join(glyph[top, bottom] for top, bottom in zip(upper, lower, strict=True))
            for upper, lower in zip(rows[::2], rows[1::2], strict=True)]


class QrCode(Static):
    """A QR code drawn in the terminal (``qr_lines``)."""

    def __init__(self, data: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self.data = data
        self.show(data)

    def show(self, data: str) -> None:
        self.data = data
        self.update(Text("\n".join(qr_lines(data)), style="black on white", no_wrap=True) if data else "")


def install_text(wheels: Sequence[str], system: str = "") -> Text:
    """The line that installs the client from the host's page, for a friend who has none yet (``wheels``:
    the server's ``ServerInfo.client_wheels``, in the order of the invite's pages: the first is the
    page's address the invite gives); nothing if the server offers none. Where the page serves every wheel
    the client needs (``system``: ``ServerInfo.offline_system``, the host's system), the line that needs only
    the host comes first, for a friend on that system; the one with PyPI after it, for any other."""
    out = Text()
    if wheels:
        client = Offer(wheels[0])
        if system:
            out.append(_("No cardtui in that terminal yet? Python 3.11+; on {system}, from the host alone:").format(
                system=system) + "\n", style="bold")
            out.append(client.offline() + "\n")
            out.append(_("(another system, with internet: {line}; every way: {page})").format(
                line=client.pipx(), page=client.install_page), style="dim")
            return out
        out.append(_("No cardtui in that terminal yet? Python 3.11+, then:") + "\n", style="bold")
        out.append(client.pipx() + "\n")
        out.append(_("(uv, pip, no internet: {page})").format(page=client.install_page), style="dim")
    return out


def invite_text(invite: lobby_pb2.InviteResponse, owner: bool, wheels: Sequence[str] = (), system: str = "") -> Text:
    """What an invite says, line by line: where, the link, the command (and the line that installs the
    client from the host's page, ``wheels`` being the server's ``ServerInfo.client_wheels``), the code,
    and its warnings."""
    table = invite.table if invite.HasField("table") else None
    out = Text()
    server = invite.servers[0] if invite.servers else ""
    page = invite.pages[0] if invite.pages else ""
    secret = invite.code if invite.opens_lock else ""
    if page:
        out.append(_("In a browser (a phone: scan the code):") + "\n", style="bold")
        out.append(page_link(page, table.id if table else "", secret) + "\n\n")
    else:
        out.append(_("This server has no browser page (cardtui serve --web serves one).") + "\n\n", style="dim")
    out.append(_("In a terminal:") + "\n", style="bold")
    if table is not None:
        out.append(f"cardtui connect '{terminal_link(server, table.id, secret)}'\n")
    else:  # the room: its address, as anyone would type it
        out.append(f"cardtui connect {server}\n")
    out.append("\n")
    if wheels:
        out.append_text(install_text(wheels, system))
        out.append("\n")
    if table is not None:
        out.append(_("Or type this code in the lobby (j):") + " ", style="bold")
        out.append(shown_code(invite.code) + "\n", style="bold reverse")
        if table.has_password and invite.opens_lock:
            out.append("\n🔒 " + _("This invite opens the table's password: give it only to those you would "
                                  "tell the password.") + "\n", style="bold yellow")
        elif table.has_password:
            out.append("\n🔒 " + _("Whoever comes is asked the table's password.") + "\n", style="dim")
            if owner:
                out.append(_("p: an invite that opens it, so nobody types it") + "\n", style="dim")
    if invite.local:
        out.append("\n⚠ " + _("This server listens on this machine only: friends cannot reach it (start it "
                             "with --host 0.0.0.0, or make play HOST=0.0.0.0).") + "\n", style="bold yellow")
    return out


class InviteScreen(ModalScreen[None]):
    """A table's invite (``table_id``), or the room's own (none): escape closes it."""

    CSS_PATH = "invite.tcss"
    BINDINGS = [Binding("escape,g", "close", N_("Close")),
                Binding("p", "password", N_("Password in the invite"))]

    def __init__(self, conn: Connection, table_id: str = "") -> None:
        super().__init__()
        self.conn = conn
        self.table_id = table_id
        self.with_password = False
        self.invite: lobby_pb2.InviteResponse | None = None

    @property
    def owner(self) -> bool:
        return self.table_id in self.conn.owned

    def compose(self) -> ComposeResult:
        with Vertical(id="invite-dialog"):
            yield Label(self._title(None), id="invite-title")
            with Horizontal(id="invite-body"):
                with VerticalScroll(id="invite-words"):
                    yield Static(Text(_("Asking the server…"), style="dim"), id="invite-text")
                yield QrCode("", id="invite-qr")
            install = Static("", id="invite-install")  # the whole dialog's width: the URL is long
            install.display = False
            yield install
        yield Footer()

    def _title(self, table: common_pb2.TableSummary | None) -> str:
        if not self.table_id:
            return _("Invite friends to this room")
        name = table.name if table is not None else self.table_id
        return _("Invite friends to the table “{name}”").format(name=name)

    def on_mount(self) -> None:
        self.fetch()

    @work(exclusive=True, exit_on_error=False)
    async def fetch(self) -> None:
        try:
            invite = await self.conn.invite(self.table_id, self.with_password)
        except grpc.aio.AioRpcError as err:
            self.query_one("#invite-text", Static).update(Text(error_text(err), style="bold red"))
            return
        self.invite = invite
        self.show(invite)

    def show(self, invite: lobby_pb2.InviteResponse) -> None:
        table = invite.table if invite.HasField("table") else None
        self.query_one("#invite-title", Label).update(self._title(table))
        self.query_one("#invite-text", Static).update(invite_text(invite, self.owner))
        wheels = self.conn.server.client_wheels if self.conn.server is not None else ()
        system = self.conn.server.offline_system if self.conn.server is not None else ""
        install = self.query_one("#invite-install", Static)
        install.update(install_text(wheels, system))
        install.display = bool(wheels)
        qr = self.query_one("#invite-qr", QrCode)
        page = invite.pages[0] if invite.pages else ""
        qr.show(page_link(page, table.id if table else "", invite.code if invite.opens_lock else "") if page else "")
        qr.display = bool(page)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "password":
            invite = self.invite
            return self.owner and invite is not None and invite.table.has_password
        return True

    def action_password(self) -> None:
        """The owner's choice: an invite that opens the table's password, or one that has it asked."""
        self.with_password = not self.with_password
        self.fetch()

    async def relabel(self) -> None:
        if self.invite is not None:
            self.show(self.invite)

    def action_close(self) -> None:
        self.dismiss(None)


class CodeScreen(ModalScreen[str | None]):
    """One line: an invite's code (or a link) to open. Enter goes on, escape gives up (None)."""

    CSS_PATH = "invite.tcss"
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, problem: str = "") -> None:
        super().__init__()
        self.problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(id="code-dialog"):
            yield Label(_("An invite's code"), id="code-title")
            yield Static(Text(_("The code a friend gave you (like K7M2-QX9P), or their cardtui:// link."),
                              style="dim"))
            yield Input(placeholder="XXXX-XXXX", id="code-input", max_length=200)
            yield Static(Text(self.problem, style="bold red"), id="code-error")
            with Horizontal(id="code-buttons"):
                yield Button(_("Open"), variant="primary", id="code-go")
                yield Button(_("Cancel"), id="code-cancel")

    def on_mount(self) -> None:
        self.query_one("#code-error", Static).display = bool(self.problem)
        self.query_one("#code-input", Input).focus()

    @on(Input.Submitted, "#code-input")
    @on(Button.Pressed, "#code-go")
    def _go(self) -> None:
        typed = self.query_one("#code-input", Input).value.strip()
        if typed:
            self.dismiss(typed)

    @on(Button.Pressed, "#code-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
