"""A table: the board for its game, the action bar, the log and chat.

The stream is read in a worker that posts messages; the screen keeps the latest view and
legal actions and hands them down to widgets. Widgets hold no rules: the action bar
offers exactly what the server says is legal.
"""

from __future__ import annotations

import contextlib
import time

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, RichLog, Static

from cardtui.client.actionbar import ActionBar
from cardtui.client.boards import board_for
from cardtui.client.boards.base import Board
from cardtui.client.connection import Connection, error_text
from cardtui.client.help import HelpScreen
from cardtui.client.models import TableModel
from cardtui.client.replay import open_last_hand
from cardtui.client.words import event_words
from cardtui.v1 import common_pb2, table_pb2


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
        Binding("slash", "chat", "Chat"),
        Binding("question_mark", "help", "Rules"),
        # In the footer (so a finger reaches them) only while there is an amount or a signal to change.
        Binding("plus,equals_sign", "adjust(1)", "More"),
        Binding("minus", "adjust(-1)", "Less"),
        # Spectators of a table with the delayed full view: the hands already over, every card face up.
        Binding("v", "last_hand", "Last hand face up"),
    ]

    def __init__(self, conn: Connection, token: str, seat: int, table: common_pb2.TableSummary) -> None:
        super().__init__()
        self.conn = conn
        self.token = token
        self.model = TableModel(table, seat if seat >= 0 else None)
        self.log_lines = 0
        self.adjustable = False
        """Whether an action on offer has an amount or a kind to change (+/-)."""

    @property
    def seat(self) -> int | None:
        return self.model.seat

    @property
    def spectating(self) -> bool:
        return self.model.spectating

    @property
    def board(self) -> Board:
        return self.query_one("#board", Board)

    def compose(self) -> ComposeResult:
        yield Header()
        if self.spectating:
            yield Static(Text("SPECTATING · read-only: public play only", style="bold black on yellow"),
                         id="spectator-banner")
        yield Static("", id="conn-banner")
        with Horizontal(id="table-main"):
            with Vertical(id="table-left"):
                board = board_for(self.model.game)
                yield board
                yield Static("", id="turn-line")
                if not self.spectating:
                    yield ActionBar(board.HANDLES, id="actions")
            with Vertical(id="table-right"):
                yield RichLog(id="log", wrap=True, markup=False, max_lines=500, min_width=20)
                yield Input(placeholder="/ to chat · enter sends", id="chat", max_length=300)
        yield Footer()

    def on_mount(self) -> None:
        board = self.board
        if board.can_focus:  # boards with their own keys (picking a card) take the focus
            board.focus()
        summary = self.model.summary
        self.title = f"{summary.name} · {summary.id}"
        self.sub_title = "watching" if self.seat is None else f"seat {self.seat + 1}"
        self.query_one("#conn-banner", Static).display = False
        self.follow()
        self.set_interval(0.5, self._tick)

    # -- the stream ----------------------------------------------------------------
    @work(exclusive=True, exit_on_error=False)
    async def follow(self) -> None:
        try:
            async for msg in self.conn.follow(self.token, on_retry=self._retrying):
                self.post_message(Streamed(msg))
        except Exception as err:
            self.notify(error_text(err), title="The table stream ended", severity="error")

    def _retrying(self, delay: float) -> None:
        self.post_message(Reconnecting(delay))

    def on_reconnecting(self, message: Reconnecting) -> None:
        banner = self.query_one("#conn-banner", Static)
        banner.update(Text(f"reconnecting… (next try in {message.delay:.1f} s)", style="bold white on red"))
        banner.display = True

    def on_streamed(self, message: Streamed) -> None:
        msg = message.msg
        self.query_one("#conn-banner", Static).display = False
        body = msg.WhichOneof("body")
        if body == "snapshot":
            self.model = self.model.with_summary(msg.snapshot.table).with_view(msg.snapshot.view, msg.seq)
        elif body == "update":
            for ev in msg.update.events:
                said = event_words(self.model, ev)
                if said is not None:
                    self.write_log(said.text, said.style)
            if msg.update.HasField("view"):
                self.model = self.model.with_view(msg.update.view, msg.seq)
        elif body == "closing":
            self.write_log(Text(msg.closing.reason), "red")
        self._show()

    def _show(self) -> None:
        self.board.model = self.model
        if not self.spectating:
            bar = self.query_one(ActionBar)
            bar.model = self.model
            adjustable = any(len(group) > 1 for group in bar.choices)
            if adjustable != self.adjustable:  # the footer offers More/Less only then
                self.adjustable = adjustable
                self.refresh_bindings()
        self._tick()

    def write_log(self, text: Text, style: str = "") -> None:
        if style:
            text = text.copy()
            text.stylize(style)
        self.query_one("#log", RichLog).write(text)
        self.log_lines += 1

    def _tick(self) -> None:
        line = self.query_one("#turn-line", Static)
        view = self.model.view
        if view is None or view.WhichOneof("game") in (None, "waiting"):
            line.update(Text("Waiting for players to take the open seats…", style="italic"))
            return
        waiting = list(view.to_act)
        if not waiting:
            line.update(Text("Next hand soon…" if view.hand_over else ""))
            return
        deadline = self.model.deadline
        left = f" · {max(0, deadline - time.monotonic()):.0f} s" if deadline is not None else ""
        mine = self.seat in waiting
        text = "Your turn" if mine else f"{', '.join(self.model.name(s) for s in waiting)} to act"
        line.update(Text(text + left, style="bold reverse" if mine else "bold"))

    # -- acting and chatting -------------------------------------------------------
    @on(ActionBar.Chosen)
    async def _chosen(self, message: ActionBar.Chosen) -> None:
        await self.act(message.action)

    async def act(self, action: common_pb2.Action) -> None:
        """Send an action, refused if the table moved on since this screen last heard from it."""
        if self.spectating:
            return
        try:
            await self.conn.act(self.token, action, self.model.seq)
        except Exception as err:
            self.notify(error_text(err), title="Not allowed", severity="warning")

    def on_key(self, event: events.Key) -> None:
        """An action's key, as the action bar shows it (letters for a game's actions, numbers else)."""
        if self.spectating or self.query_one("#chat", Input).has_focus:
            return
        if self.query_one(ActionBar).press(event.key):
            event.stop()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "last_hand":
            return self.spectating and self.model.summary.delayed_spectator_view
        return self.adjustable if action == "adjust" else True

    async def action_last_hand(self) -> None:
        await open_last_hand(self.app, self.conn, self.model.summary.id, self.token)

    def action_adjust(self, step: int) -> None:
        if not self.spectating:
            self.query_one(ActionBar).adjust(step)

    def action_chat(self) -> None:
        self.query_one("#chat", Input).focus()

    @on(Input.Submitted, "#chat")
    async def _send_chat(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            try:
                await self.conn.chat(self.token, text)
            except Exception as err:
                self.notify(error_text(err), severity="warning")
        self._refocus()

    async def action_leave(self) -> None:
        chat = self.query_one("#chat", Input)
        if chat.has_focus:
            chat.value = ""
            self._refocus()
            return
        with contextlib.suppress(Exception):  # the server may be gone; leaving is what matters
            await self.conn.leave(self.token)
        self.workers.cancel_all()
        self.dismiss(None)

    def _refocus(self) -> None:
        """Back from the chat line: to the board if it takes keys, else to nothing."""
        board = self.board
        self.set_focus(board if board.can_focus else None)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.model.game))
