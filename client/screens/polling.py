"""A screen that asks the server again on a timer, only while it is the one on show.

The lobby's list, the tournaments' and the leaderboard ask the server every few seconds. Under
another screen (a table's, a form, the hands) nobody reads them: a person at a table asked for the
whole list of tables every two seconds, which at a room of two hundred tables cost the server some
twenty milliseconds a time (``bench/marks.md``). Another screen over this one pauses its timer;
coming back asks at once, then on the timer again.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from textual import events
from textual.screen import Screen
from textual.timer import Timer


class PollingScreen(Screen[None]):
    """A screen whose ``poll`` asks again on a timer that runs only while the screen is on show."""

    def __init__(self) -> None:
        super().__init__()
        self.polling: Timer | None = None
        """The timer that asks again (None until ``poll``)."""
        self._ask: Callable[[], Any] | None = None

    def poll(self, seconds: float, ask: Callable[[], Any]) -> None:
        """Call ``ask`` (a coroutine function, or one that starts a worker) every ``seconds`` while on show."""
        self._ask = ask
        self.polling = self.set_interval(seconds, ask)

    def on_screen_suspend(self, event: events.ScreenSuspend) -> None:
        if self.polling is not None:
            self.polling.pause()

    async def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self.polling is None or self._ask is None:
            return  # the first showing, before the screen has mounted and set its timer
        asked = self._ask()
        if inspect.isawaitable(asked):
            await asked
        self.polling.resume()
