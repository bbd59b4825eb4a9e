"""The way in: while the server cannot be reached, say where we dial, what went wrong, and try again.

A dead address must not look like an empty server. Until the server answers, this screen
stands before the lobby: the address, the reason in words (refused, no such host, a bad
port, TLS, timed out), a countdown to the next try, and keys to retry now or quit.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Label, Static

from cardtui.client.connection import WAIT, Connection, Trouble, diagnosed
from cardtui.client.footer import Footer
from cardtui.client.textual_internals import Header
from cardtui.i18n import N_, _, ngettext
from cardtui.v1 import lobby_pb2

RETRY_SECONDS = 3.0
"""Between tries on their own; ``r`` tries at once."""


class ConnectScreen(Screen[lobby_pb2.ServerInfo | None]):
    """Dismissed with the server's info once it answers; ``None`` when the person quits.

    ``conn`` is None when the address itself is wrong (``problem`` says how): nothing to retry.
    """

    BINDINGS = [Binding("r", "retry", N_("Retry now")), Binding("q,escape", "quit", N_("Quit"))]

    def __init__(self, target: str, conn: Connection | None, problem: str,
                 trouble: Trouble = Trouble.OTHER) -> None:
        super().__init__()
        self.target = target
        self.conn = conn
        self.problem = problem
        self.trouble = trouble
        self.tries = 1
        self.next_try: float | None = time.monotonic() + RETRY_SECONDS if conn is not None else None
        self.trying = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="connect-dialog"):
            yield Label(self._title(), id="connect-title")
            yield Static(Text.assemble((_("Address") + "  ", "bold"), self.target), id="connect-address")
            yield Static("", id="connect-reason")
            yield Static("", id="connect-status")
            with Horizontal(id="connect-buttons"):
                if self.conn is not None:
                    yield Button(_("Retry now (r)"), variant="primary", id="connect-retry")
                yield Button(_("Quit (q)"), id="connect-quit")
        yield Footer()

    def _title(self) -> str:
        if self.conn is None:
            return _("That address is wrong")
        if self.trouble in WAIT:  # it is there: it answers in a while
            return _("The card server has not answered yet")
        return _("The card server cannot be reached")

    def on_mount(self) -> None:
        self._say(self.problem)
        self.set_interval(0.25, self._tick)
        self._tick()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.conn is not None if action == "retry" else True

    def _say(self, problem: str) -> None:
        self.problem = problem
        self.query_one("#connect-reason", Static).update(Text(problem, style="bold red"))

    def _tick(self) -> None:
        status = self.query_one("#connect-status", Static)
        if self.conn is None:
            status.update(Text(_("Start again with the right address: cardtui connect HOST[:PORT]."), style="italic"))
            return
        if self.trying:
            status.update(Text(_("Trying {target}… (try {n})").format(target=self.conn.target, n=self.tries),
                               style="italic"))
            return
        if self.next_try is not None:
            left = max(0.0, self.next_try - time.monotonic())
            tried = ngettext("Tried {n} time; trying again in {s} s · r: now · q: quit",
                             "Tried {n} times; trying again in {s} s · r: now · q: quit", self.tries)
            status.update(Text(tried.format(n=self.tries, s=f"{left:.0f}"), style="italic"))
            if left <= 0:
                self.action_retry()

    def action_retry(self) -> None:
        if self.conn is not None and not self.trying:
            self.attempt()

    @work(exclusive=True, exit_on_error=False)
    async def attempt(self) -> None:
        assert self.conn is not None
        self.trying = True
        self.tries += 1
        self._tick()
        try:
            info = await self.conn.info()
        except Exception as err:
            self.trouble, problem = await diagnosed(self.conn, err)
            self.query_one("#connect-title", Label).update(self._title())
            self._say(problem)
            self.next_try = time.monotonic() + RETRY_SECONDS
            return
        finally:
            self.trying = False
        self.dismiss(info)

    @on(Button.Pressed, "#connect-retry")
    def _retry_pressed(self) -> None:
        self.action_retry()

    @on(Button.Pressed, "#connect-quit")
    def action_quit(self) -> None:
        self.dismiss(None)
