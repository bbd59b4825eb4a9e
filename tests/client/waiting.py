"""How the client's tests wait: for a state of the app (a message handled, words on screen, a
layout done), never for an amount of time.

A fixed pause (``pilot.pause(0.3)``) stands in for "the stream worker has delivered and the screen
has drawn it": on a quiet machine it has, on a busy one it has not yet, and the test fails for
no fault of the client. So a test says what it waits for:

- ``until(pilot, ok, what)``: the app runs, one ``pilot.pause()`` at a time (every message queued
  handled, the layout and repaint done), until ``ok()`` holds;
- ``settled(pilot)``: until the app has nothing left to do (no message queued anywhere, no layout,
  repaint or after-refresh callback pending), as a snapshot or a layout check needs it;
- ``play_by_keys(pilot, done)``: a seat played by its keys at each of its turns until ``done()``;
- ``Script``: a fake connection whose stream says its messages, then stays quiet, and says
  (``delivered``) when all of them have gone to the screen; ``shown(pilot)`` waits for that and
  for the screen to have handled and drawn them.

``seconds`` bounds each wait only so that a broken test ends with a sentence rather than at the
suite's timeout: it is never what the test waits for, and it is long (a busy machine may take
seconds for what takes milliseconds on a quiet one).

A check that nothing happens ("no message in 0.2 s") waits for what proves it instead: the answer
to a later call, the screen's own timer ticking past the time, the key's handler done: a fixed
pause there cannot fail on a busy machine, only see less.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from cardtui.client.actionbar import ActionBar
from cardtui.client.models import action_name
from cardtui.client.screens.lobby import LobbyScreen
from cardtui.client.screens.table import TableScreen
from cardtui.client.textual_internals import screen_work
from cardtui.v1 import common_pb2, table_pb2
from tests.waiting import PATIENCE, eventually


async def until(pilot: Pilot[Any], ok: Callable[[], object], what: str | Callable[[], str] | None = None,
                seconds: float = PATIENCE, turn: float | None = None) -> None:
    """Let the app run until ``ok()`` holds (looked at after each of its turns); fail saying that
    ``what`` never happened if it has not after ``seconds`` (``what`` may say it as things stand
    then; without it, the failure quotes the condition's source).

    A turn is ``pilot.pause()``: the app's queued messages handled, then a wait for the process to go
    idle, for a second at most. With ``turn``, the wait is that many seconds instead: for a test whose
    process never idles (a server in it whose bots play on at full speed), where each turn would
    take the whole second."""
    deadline = time.monotonic() + seconds
    while not ok():
        if time.monotonic() > deadline:
            said = what() if callable(what) else what if what is not None else source_of(ok)
            raise AssertionError(f"waited {seconds:.0f} s for {said}")
        await pilot.pause(turn)


def source_of(ok: Callable[[], object]) -> str:
    """A condition as its source says it (a lambda's line), for a failure to quote."""
    try:
        return inspect.getsource(ok).strip()
    except (OSError, TypeError):
        return repr(ok)


def busy(app: App[Any]) -> list[str]:
    """What the app still has to do now: queued messages (by whom), and the screen's layout, repaint
    or callbacks after its refresh. Empty: nothing is waiting its turn (a handler may still be at
    work, awaiting the server: ``settled`` sees it through a second turn).

    The screen's pending work is read through client/textual_internals.py (there is no public way
    to ask): if a new Textual renames its fields, that module's check names them."""
    screen = app.screen
    out = [f"{node!r}: {node.message_queue_size} messages" for node in (app, *screen.walk_children(with_self=True))
           if node.message_queue_size]
    rebuilding = ["the form's rebuild"] if getattr(screen, "rebuilding", False) else []  # a worker beside the screen
    return out + [name for name, due in screen_work(screen).items() if due] + rebuilding


async def settled(pilot: Pilot[Any], seconds: float = PATIENCE) -> None:
    """Until the app has handled every message and laid out and painted what they changed, and the
    callbacks waiting for that (a footer fitting its keys to the width) have run too.

    Quiet after two turns in a row: a turn (``pilot.pause()``) ends only when every handler at work
    when it began has finished (its own message to each widget waits behind them), so a handler
    that was awaiting something at the first look has finished by the second."""
    deadline = time.monotonic() + seconds
    quiet = 0
    while quiet < 2:
        await pilot.pause()
        left = busy(pilot.app)
        quiet = 0 if left else quiet + 1
        if left and time.monotonic() > deadline:
            raise AssertionError(f"the app was still busy after {seconds:.0f} s: {left}")


class Script:
    """A connection's stand-in for the table screen: its stream says ``messages`` and then stays
    quiet (the table goes on, as far as the screen knows); ``delivered`` says that the last of them
    has gone to the screen. Actions and chat lines are kept, never sent."""

    target = "127.0.0.1:50051"
    server = None
    """What the server said of itself (``Connection.server``): nothing, as a connection not yet asked."""

    def __init__(self, messages: Sequence[table_pb2.TableMessage]) -> None:
        self.messages = list(messages)
        self.delivered = False
        self.sent: list[common_pb2.Action] = []
        self.seen: list[int] = []
        """The number of the last message the screen had seen when it sent each action."""
        self.said: list[str] = []

    async def follow(self, token: str, on_retry: Callable[[float], None] | None = None,
                     **_: object) -> AsyncIterator[table_pb2.TableMessage]:
        for msg in self.messages:
            yield msg
        self.delivered = True  # the screen's worker asked for more: it has posted every message
        await asyncio.Event().wait()

    async def act(self, token: str, action: common_pb2.Action, seen_seq: int = 0) -> int:
        self.sent.append(action)
        self.seen.append(seen_seq)
        return seen_seq

    async def chat(self, token: str, text: str) -> None:
        self.said.append(text)

    async def leave(self, token: str) -> None:
        return None


async def shown(pilot: Pilot[Any], seconds: float = PATIENCE) -> None:
    """Until the table screen on top has been handed every message of its ``Script``, has handled
    them all and has drawn what they changed."""
    def delivered() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, TableScreen) and bool(getattr(screen.conn, "delivered", False))

    await until(pilot, delivered, "the table screen to be handed its stream", seconds)
    await settled(pilot, seconds)


async def in_lobby(pilot: Pilot[Any], seconds: float = PATIENCE) -> LobbyScreen:
    """Until the app's lobby is up and has listed the server's tables once."""
    def listed() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, LobbyScreen) and screen.wide is not None

    await until(pilot, listed, "the lobby to list the tables", seconds)
    screen = pilot.app.screen
    assert isinstance(screen, LobbyScreen)
    return screen


async def at_table(pilot: Pilot[Any], ok: Callable[[TableScreen], object] = lambda screen: True,
                   what: str = "the table", seconds: float = PATIENCE) -> TableScreen:
    """Until a table screen is on top, has its table's view from the stream, and ``ok(screen)``."""
    def there() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, TableScreen) and screen.model.view is not None and bool(ok(screen))

    await until(pilot, there, what, seconds)
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen)
    return screen


def bet_or_call(kinds: list[str]) -> int:
    """Which action to take among those offered (by name): bet, call or check when offered, so that a
    hand reaches a showdown now and then; else the first."""
    return next((i for i, kind in enumerate(kinds) if kind in ("bet", "call", "check")), 0)


async def play_by_keys(pilot: Pilot[Any], done: Callable[[], object],
                       pick: Callable[[list[str]], int] = bet_or_call, seconds: float = 4 * PATIENCE) -> None:
    """Play the seat of the table screen on top by its keys until ``done()``: whenever its action
    bar offers something (once the screen has settled, so that the bar shows what the view
    offers), press the key of the action ``pick`` chooses, then wait until the table has moved on."""
    screen = pilot.app.screen
    assert isinstance(screen, TableScreen)
    bar = screen.query_one(ActionBar)
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"still playing after {seconds:.0f} s"
        await until(pilot, lambda: done() or bool(bar.choices), "something to do, or the end of the test's play")
        await settled(pilot)
        if done():
            return
        if not bar.choices:
            continue
        seq = screen.model.seq
        await pilot.press(bar.keys[pick([action_name(group[0]) for group in bar.choices])])
        await until(pilot, lambda seq=seq: done() or screen.model.seq != seq, "the table to take the move")


async def loaded(pilot: Pilot[Any], what: str = "the screen's loads", seconds: float = PATIENCE) -> None:
    """Until the screen on top has no worker of its own still at work (what it asked the server has
    come back: a leaderboard, a card, a history) and the app has settled with what came. Not for a
    table's screen, whose stream's worker runs as long as the screen."""
    screen = pilot.app.screen

    def done() -> bool:
        return pilot.app.screen is screen and not [w for w in pilot.app.workers if w.node is screen
                                                   and not w.is_finished]

    await until(pilot, done, what, seconds)
    await settled(pilot, seconds)


async def exited(app: App[Any], seconds: float = PATIENCE) -> None:
    """Until the app has asked to exit (its return code set). Waited for on the event loop, not
    through the pilot: an app that exits leaves no screen for a pilot's turn."""
    await eventually(lambda: app.return_code is not None, "the app to exit", seconds)
