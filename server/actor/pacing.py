"""A table's clocks: the turn timer, the bots' thinking time, the pause between hands and
the window in which the players' seeds for a fair deal come in.

Only the event loop runs them, so a timer's callback runs to completion like any request. They
read and set the table's ``Clock`` (``server.clock``): the loop's, or one a test moves.
"""

from __future__ import annotations

from collections.abc import Callable

from cardtui.server.base.clock import REAL, Clock, Timer
from cardtui.server.base.errors import Unavailable
from cardtui.server.store import StoreDown


class Pacer:
    """A table's timers. Each runs its callback to completion, as a request would; a callback that meets the
    table let go meanwhile (``Unavailable``: another process drives it now, or its store is away and it comes
    back from its journal) has nothing left to do, and one that meets the store out of reach is handed to
    ``unreachable`` (the room lets the table go until the store answers)."""

    def __init__(self, unreachable: Callable[[StoreDown], None] | None = None, clock: Clock = REAL) -> None:
        self.unreachable = unreachable
        self.clock = clock
        self._turn: Timer | None = None
        self._bots: Timer | None = None
        self._next: Timer | None = None
        self._cut: Timer | None = None
        self._expire: Callable[[], None] | None = None
        self.deadline: float | None = None
        """When the turn timer runs out (``clock.now()``), or None."""
        self.next_at: float | None = None
        """When the next hand is dealt (``clock.now()``), while between hands."""

    def now(self) -> float:
        """The time on the table's clock, which its deadlines are on."""
        return self.clock.now()

    def run(self, callback: Callable[[], None]) -> None:
        """``callback`` as a timer (or a decision come back) runs it: see the class."""
        try:
            callback()
        except Unavailable:
            pass
        except StoreDown as e:
            if self.unreachable is None:
                raise
            self.unreachable(e)

    def stop_turn(self) -> None:
        """Cancel the turn timer and any bot about to move."""
        if self._bots is not None:
            self._bots.cancel()
            self._bots = None
        self.deadline = self._expire = None

    def turn(self, seconds: float, expire: Callable[[], None]) -> None:
        """Run ``expire`` after ``seconds``, unless stopped or set again first.

        Every change at a table sets the turn timer again, nearly always later than before: the
        loop's timer stays where it is, and when it comes due it looks at the deadline and waits
        on if that has moved. Only a deadline earlier than the timer sets a new one.
        """
        self.deadline = self.clock.now() + seconds
        self._expire = expire
        if self._turn is not None and self._turn.when() > self.deadline:
            self._turn.cancel()
            self._turn = None
        if self._turn is None:
            self._turn = self.clock.call_at(self.deadline, self._fire_turn)

    def _fire_turn(self) -> None:
        self._turn = None
        if self.deadline is None or self._expire is None:
            return
        if self.deadline > self.clock.now():  # set again since: wait for the new deadline
            self._turn = self.clock.call_at(self.deadline, self._fire_turn)
            return
        expire, self.deadline, self._expire = self._expire, None, None
        self.run(expire)

    def bots(self, seconds: float, move: Callable[[], None]) -> None:
        self._bots = self.clock.call_later(seconds, self._fire_bots, move)

    def _fire_bots(self, move: Callable[[], None]) -> None:
        self._bots = None
        self.run(move)

    @property
    def between_hands(self) -> bool:
        return self._next is not None or self._cut is not None

    def cut(self, seconds: float, deal: Callable[[], None]) -> None:
        """Deal after ``seconds`` at the latest, whatever seeds have come in by then."""
        self.stop_cut()
        self._cut = self.clock.call_later(seconds, self._fire_cut, deal)

    def _fire_cut(self, deal: Callable[[], None]) -> None:
        self._cut = None
        self.run(deal)

    def stop_cut(self) -> None:
        if self._cut is not None:
            self._cut.cancel()
            self._cut = None

    def next_hand(self, seconds: float, deal: Callable[[], None]) -> None:
        if self._next is not None:
            self._next.cancel()
        self.next_at = self.clock.now() + seconds
        self._next = self.clock.call_later(seconds, self._fire_next, deal)

    def _fire_next(self, deal: Callable[[], None]) -> None:
        self._next = None
        self.next_at = None
        self.run(deal)

    def left_ms(self) -> int:
        """Time left on the turn timer; between hands, until the next deal (0: no clock runs).

        A clock that has run out and not yet fired (the loop busy at its deadline) still runs: 1 ms, not 0,
        which would tell a client there is none (a claim window nobody may take would look like one
        without a clock, to whoever reads the view late in its time)."""
        deadline = self.deadline if self.deadline is not None else self.next_at
        if deadline is None:
            return 0
        return max(1, int((deadline - self.clock.now()) * 1000))

    def stop(self) -> None:
        self.stop_turn()
        if self._turn is not None:
            self._turn.cancel()
            self._turn = None
        self.stop_cut()
        if self._next is not None:
            self._next.cancel()
            self._next = None
        self.next_at = None
