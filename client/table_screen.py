"""A table: the board for its game, the action bar, the log and chat.

The stream is read in a worker that posts messages; the screen keeps the latest view and
legal actions and hands them down to widgets. Widgets hold no rules: the action bar
offers exactly what the server says is legal.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, RichLog, Static

from cardtui.client.actionbar import ActionBar
from cardtui.client.boards import board_for
from cardtui.client.connection import error_text, view_of
from cardtui.client.help import HelpScreen

if TYPE_CHECKING:
    from cardtui.client.app import CardApp
    from cardtui.v1 import common_pb2, table_pb2


def expand(legal: Iterable[common_pb2.Action]) -> list[common_pb2.Action]:
    """Legal actions one per amount: the wire sends a run of amounts as one range."""
    out: list[common_pb2.Action] = []
    for a in legal:
        for amount in range(a.amount, max(a.amount, a.max_amount) + 1):
            one = type(a)()
            one.CopyFrom(a)
            one.amount, one.max_amount = amount, 0
            out.append(one)
    return out


class Streamed(Message):
    """One message from the table's stream."""

    def __init__(self, msg: table_pb2.TableMessage) -> None:
        super().__init__()
        self.msg = msg


class Reconnecting(Message):
    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay


class TableScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "leave", "Leave"),
        Binding("t", "chat", "Chat"),
        Binding("question_mark", "help", "Rules"),
        Binding("1", "choose(1)", "Act 1-9"),
        *(Binding(str(n), f"choose({n})", show=False) for n in range(2, 10)),
        # In the footer (so a finger reaches them) only while there is an amount or a signal to change.
        Binding("plus,equals_sign", "adjust(1)", "More"),
        Binding("minus", "adjust(-1)", "Less"),
    ]

    def __init__(self, token: str, seat: int, table: common_pb2.TableSummary) -> None:
        super().__init__()
        self.token = token
        self.seat = seat if seat >= 0 else None
        self.summary = table
        self.game = table.game
        self.view: dict[str, Any] = {}
        self.legal: list[common_pb2.Action] = []
        self.deadline: float | None = None
        self.last_seq = 0
        self.log_lines = 0
        self.adjustable = False
        """Whether an action on offer has an amount or a kind to change (+/-)."""

    @property
    def card_app(self) -> CardApp:
        return cast("CardApp", self.app)

    @property
    def spectating(self) -> bool:
        return self.seat is None

    def compose(self) -> ComposeResult:
        yield Header()
        if self.spectating:
            yield Static(Text("SPECTATING · read-only: public play only", style="bold black on yellow"),
                         id="spectator-banner")
        yield Static("", id="conn-banner")
        with Horizontal(id="table-main"):
            with Vertical(id="table-left"):
                yield board_for(self.game, self.seat)
                yield Static("", id="turn-line")
                if not self.spectating:
                    yield ActionBar(self.game, id="actions")
            with Vertical(id="table-right"):
                yield RichLog(id="log", wrap=True, markup=False, max_lines=500, min_width=20)
                yield Input(placeholder="t to chat · enter sends", id="chat", max_length=300)
        yield Footer()

    def on_mount(self) -> None:
        board = self.query_one("#board")
        if board.can_focus:  # boards with their own keys (picking a card) take the focus
            board.focus()
        self.title = f"{self.summary.name} · {self.summary.id}"
        self.sub_title = "watching" if self.spectating else f"seat {cast(int, self.seat) + 1}"
        self.query_one("#conn-banner", Static).display = False
        self.follow()
        self.set_interval(0.5, self._tick)

    # -- the stream ----------------------------------------------------------------
    @work(exclusive=True, exit_on_error=False)
    async def follow(self) -> None:
        conn = self.card_app.conn
        assert conn is not None
        try:
            async for msg in conn.follow(self.token, on_retry=lambda d: self.post_message(Reconnecting(d))):
                self.post_message(Streamed(msg))
        except Exception as err:
            self.notify(error_text(err), title="The table stream ended", severity="error")

    def on_reconnecting(self, message: Reconnecting) -> None:
        banner = self.query_one("#conn-banner", Static)
        banner.update(Text(f"reconnecting… (next try in {message.delay:.1f} s)", style="bold white on red"))
        banner.display = True

    def on_streamed(self, message: Streamed) -> None:
        msg = message.msg
        self.query_one("#conn-banner", Static).display = False
        if msg.HasField("snapshot"):
            self.summary = msg.snapshot.table
            self._show_view(msg.snapshot.view)
        for ev in msg.events:
            if ev.kind != "hidden":
                self.write_log(ev.text, ev.kind)
        if msg.HasField("view"):
            self._show_view(msg.view)
        if msg.HasField("closing"):
            self.write_log(msg.closing.reason, "closing")
        self.last_seq = max(self.last_seq, msg.seq)

    def _show_view(self, view: table_pb2.View) -> None:
        self.view = view_of(view)
        self.legal = expand(view.legal)
        self.deadline = time.monotonic() + view.deadline_ms / 1000 if view.deadline_ms else None
        board = self.query_one("#board")
        board.away = {s.seat for s in view.seats if s.away}  # type: ignore[attr-defined]
        board.seats = [(s.name, s.bot) for s in view.seats]  # type: ignore[attr-defined]
        board.legal = self.legal  # type: ignore[attr-defined]
        board.view = self.view  # type: ignore[attr-defined]
        if not self.spectating:
            handled = getattr(board, "HANDLES", frozenset())
            bar = self.query_one(ActionBar)
            bar.legal = [a for a in self.legal if a.type not in handled]
            adjustable = any(len(group) > 1 for group in bar.choices)
            if adjustable != self.adjustable:  # the footer offers More/Less only then
                self.adjustable = adjustable
                self.refresh_bindings()
        self._tick()

    def write_log(self, text: str, kind: str = "") -> None:
        style = {"chat": "cyan", "hand_end": "bold green", "match_end": "bold magenta", "closing": "red",
                 "hand_start": "bold"}.get(kind, "")
        self.query_one("#log", RichLog).write(Text(text, style=style))
        self.log_lines += 1

    def _tick(self) -> None:
        line = self.query_one("#turn-line", Static)
        if self.view.get("waiting"):
            line.update(Text("Waiting for players to take the open seats…", style="italic"))
            return
        to_act = self.view.get("to_act")
        waiting = [] if to_act is None else list(to_act) if isinstance(to_act, list) else [to_act]
        if not waiting:
            line.update(Text("Next hand soon…" if self.view.get("hand_over") else ""))
            return
        seats = getattr(self.query_one("#board"), "seats", None) or []
        names = [s.name for s in self.summary.seats]

        def who(s: int) -> str:
            return seats[s][0] if s < len(seats) else (names[s] if s < len(names) else str(s))

        left = f" · {max(0, self.deadline - time.monotonic()):.0f} s" if self.deadline is not None else ""
        mine = self.seat in waiting
        text = "Your turn" if mine else f"{', '.join(who(s) for s in waiting)} to act"
        line.update(Text(text + left, style="bold reverse" if mine else "bold"))

    # -- acting and chatting -------------------------------------------------------
    @on(ActionBar.Chosen)
    async def _chosen(self, message: ActionBar.Chosen) -> None:
        conn = self.card_app.conn
        if conn is None or self.spectating:
            return
        try:
            await conn.act(self.token, message.action)
        except Exception as err:
            self.notify(error_text(err), title="Not allowed", severity="warning")

    def action_choose(self, n: int) -> None:
        if not self.spectating:
            self.query_one(ActionBar).choose(n)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.adjustable if action == "adjust" else True

    def action_adjust(self, step: int) -> None:
        if not self.spectating:
            self.query_one(ActionBar).adjust(step)

    def action_chat(self) -> None:
        self.query_one("#chat", Input).focus()

    @on(Input.Submitted, "#chat")
    async def _send_chat(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        conn = self.card_app.conn
        if text and conn is not None:
            try:
                await conn.chat(self.token, text)
            except Exception as err:
                self.notify(error_text(err), severity="warning")
        self._refocus()

    async def action_leave(self) -> None:
        chat = self.query_one("#chat", Input)
        if chat.has_focus:
            chat.value = ""
            self._refocus()
            return
        conn = self.card_app.conn
        if conn is not None:
            with contextlib.suppress(Exception):  # the server may be gone; leaving is what matters
                await conn.leave(self.token)
        self.workers.cancel_all()
        self.dismiss(None)

    def _refocus(self) -> None:
        """Back from the chat line: to the board if it takes keys, else to nothing."""
        board = self.query_one("#board")
        self.set_focus(board if board.can_focus else None)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.game))
