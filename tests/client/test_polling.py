"""A screen that asks the server on a timer asks only while it is on show (``client.screens.polling``)."""

from __future__ import annotations

from textual.app import App
from textual.screen import Screen

from cardtui.client.screens.players import LeaderboardScreen
from cardtui.client.screens.polling import PollingScreen
from cardtui.client.screens.tournaments import TournamentsScreen
from tests.client.waiting import until

PACE = 0.02


class Asking(PollingScreen):
    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    async def ask(self) -> None:
        self.asked += 1

    def on_mount(self) -> None:
        self.poll(PACE, self.ask)


class Over(Screen[None]):
    """Another screen over it (a table's, say)."""


async def test_a_screen_under_another_does_not_ask_and_asks_at_once_when_back() -> None:
    app: App[None] = App()
    async with app.run_test() as pilot:
        asking = Asking()
        await app.push_screen(asking)
        await until(pilot, lambda: asking.asked >= 3, "asking on its own")
        await app.push_screen(Over())
        await until(pilot, lambda: isinstance(app.screen, Over), "the other screen on show")
        before = asking.asked
        ticks = 0

        def tick() -> None:
            nonlocal ticks
            ticks += 1

        app.set_interval(PACE, tick)  # the app's own timer, at the same pace: a busy machine slows both alike
        await until(pilot, lambda: ticks >= 20, "twenty of its intervals gone by under the other screen")
        assert asking.asked <= before + 1, f"asked {asking.asked - before} times under another screen"
        under = asking.asked
        app.pop_screen()
        await until(pilot, lambda: asking.asked > under, "asked as soon as it is back")
        await until(pilot, lambda: asking.asked >= under + 3, "asking on its timer again")


def test_the_screens_that_ask_on_a_timer_are_polling_screens() -> None:
    """The lobby's is tested at a real table (tests/client/test_lobby.py); the tournaments' list and the
    leaderboard ask on a timer too, and a tournament's table opens over its list."""
    assert issubclass(TournamentsScreen, PollingScreen)
    assert issubclass(LeaderboardScreen, PollingScreen)
