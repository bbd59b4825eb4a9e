"""The turns a table waits on: the turn timer, a claim window's time, and the bots' moves.

After any change the table asks its ``Turns`` to schedule (``schedule``): the turn timer restarts
for the people to act, and the bots due to act decide what they will do, so that the bots' timer
fits the move (quick for a pass or a forced move, a card's time for a card, longer for a call). A
decision may be made in a worker (``Thinker``): it stands only if the table has not moved since.

What a timer running out or a bot's move changes goes back to the table as one change
(``changed``: the table's actor journals it, sends it and schedules again); the turns read the
table (its match, seats, config and clock) and never change its state otherwise.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtui.engine.bots import pacing
from cardtui.engine.core import DEFAULT_LEVEL, Action, Event, IllegalAction
from cardtui.engine.history import action_entry

if TYPE_CHECKING:
    from cardtui.server.actor.table import Changes, Step, Table

log = logging.getLogger("cardtui.table")


class Turns:
    """A table's turn timer and its bots' moves."""

    def __init__(self, table: Table, changed: Changes) -> None:
        self.table = table
        self.changed = changed
        self.planned: tuple[int, Action] | None = None
        """The bot move the bot timer will make: chosen when the timer is set, so its delay fits it."""
        self.window_ends: float | None = None
        """When the window the rules time (a claim window) closes, on the loop's clock: set as it
        opens, so that answers in it do not stretch it."""
        self._thinking: object | None = None
        """The decision being made elsewhere for the moment the bots were last scheduled."""

    def schedule(self) -> None:
        """After any change: restart the turn timer and let bots due to act think."""
        table = self.table
        table.pacer.stop_turn()
        self._thinking = None  # a decision still coming is for an earlier moment
        match = table.match
        if match is None or table.closed or match.hand_over() or (table.sealed is not None and table.sealed.waits):
            self.window_ends = None  # (a sealed hand being dealt: nobody acts yet)
            return
        waiting = match.to_act()
        window = match.timeout_ms()
        if window is None:
            self.window_ends = None
            if not waiting:
                return
            seconds = table.config.turn_seconds
        else:  # a claim window: its whole time from its opening, whoever may claim (nobody, perhaps)
            now = table.pacer.now()
            if self.window_ends is None:
                self.window_ends = now + self._window_span(window)
            seconds = max(0.0, self.window_ends - now)
        people = [s for s in waiting if not table.seating[s].botted]
        if people or window is not None:
            table.pacer.turn(seconds, self._expire)
        due = self._bots_due(waiting, people)
        self.planned = None
        if window is not None:
            # A bot lets a window go by saying nothing (its time running out says it for everyone,
            # so no answer shows who could claim); it speaks only to take the card.
            for bot in due:
                action = match.bot_action(bot, table.rng, self._level(bot))
                if action != match.default_action(bot):  # not letting it go (what the window's end does)
                    self.planned = bot, action
                    self._pace(seconds / 2)
                    return
            return
        if not due:
            return
        # The bot decides first, so that its delay fits the decision: quick for a pass in a claim
        # window or a forced move, a card's time for a card, longer for a call or its answer.
        cap = seconds / 2 if window is not None else None
        seat = next((s for s in due if match.legal_actions(s)), None)
        if seat is not None:
            decision = match.decision(seat, self._level(seat))
            if isinstance(decision, Action):  # nothing to decide
                self.planned = seat, decision
            elif table.thinker is None:
                self.planned = seat, table.rules.decide(decision, table.rng)
            else:  # decided in a worker: the timer is set when the answer is back
                started = self.table.pacer.now()
                try:
                    future = table.thinker.decide(decision, table.rng.getrandbits(64))
                except Exception:  # no worker can take it: decide here, the table plays on
                    log.exception("table %s: no bot worker could decide; the bot decides on the loop", table.id)
                    self.planned = seat, table.rules.decide(decision, table.rng)
                    self._pace(cap)
                    return
                self._thinking = moment = object()
                future.add_done_callback(
                    lambda done: table.pacer.run(lambda: self._thought(moment, seat, started, cap, done)))
                return
        self._pace(cap)

    def forget(self) -> None:
        """A decision still coming is dropped (the table's timers stopped)."""
        self._thinking = None

    def _window_span(self, window_ms: int) -> float:
        """How long a claim window stays open, in seconds: the table's ``claim_ms`` while a person
        plays here; at a table only bots play, one bot move's time (the bots decide at once, and
        no one waits for a person who is not there). Either way it depends on who sits where,
        which everyone sees, never on who could claim."""
        if any(not seat.botted for seat in self.table.seating.seats):
            return window_ms / 1000
        return max(self.table.config.bot_delay, 0.01)

    def _thought(self, moment: object, seat: int, started: float, cap: float | None,
                 done: asyncio.Future[Action]) -> None:
        """A decision made elsewhere is back: it stands only if the table has not moved since."""
        table = self.table
        if moment is not self._thinking or table.closed or done.cancelled():
            return
        self._thinking = None
        match = table.match
        assert match is not None
        try:
            action = done.result()
        except Exception:  # a worker that died or failed: decide here instead
            log.exception("table %s: a bot's decision failed elsewhere; it decides on the loop", table.id)
            action = match.bot_action(seat, table.rng, self._level(seat))
        self.planned = seat, action
        self._pace(cap, self.table.pacer.now() - started)

    def _pace(self, cap: float | None, spent: float = 0.0) -> None:
        """Set the bots' timer for the move planned: its thinking time, less what deciding took."""
        table = self.table
        match = table.match
        assert match is not None
        kind = pacing.Pace.CARD if self.planned is None else pacing.pace(
            self.planned[1], match.legal_actions(self.planned[0]))
        delay = pacing.delay(kind, table.config.bot_delay, table.rng)
        if cap is not None:
            delay = min(delay, cap)
        table.pacer.bots(max(0.0, delay - spent), self._bots_move)

    def _bots_due(self, waiting: Sequence[int], people: Sequence[int]) -> list[int]:
        """The bots that may move now: a bot never answers for its team before a person on it."""
        seating = self.table.seating
        teams = {seating.team(s) for s in people} if self.table.rules.teams else set()
        return [s for s in waiting if seating[s].botted and seating.team(s) not in teams]

    def _level(self, seat: int) -> str:
        return self.table.seating[seat].level or DEFAULT_LEVEL

    def _expire(self) -> None:
        """The turn timer ran out: every seat still waited on takes its default action.

        A person's partner who is a bot decides for the team instead, when it may; a lapsed
        window the rules time (a claim window) is nobody's missed turn.
        """
        table = self.table
        match = table.match
        assert match is not None
        window = match.timeout_ms() is not None
        if window:  # the window's time is up: whoever did not answer lets it go, and it closes for all at once
            self.window_ends = None
            self.changed(match.lapse(), ("lapse", None, {}))
            return
        events: list[Event] = []
        steps: list[Step] = []
        went: list[int] = []
        for seat in match.to_act():
            if match.hand_over():
                break
            if seat not in match.to_act():
                continue
            action = match.default_action(seat)
            if table.sealed is not None and table.sealed.hosting(seat) and table.sealed.host_move(seat, action):
                continue  # a card of a host's seat (a person sat down there this hand): it went out with its keys
            events += match.apply(seat, action)
            steps.append(("act", seat, action_entry(action)))
            if not window:
                away = table.seating.missed_turn(seat, table.config.away_after)
                if away is not None:
                    events.append(away)
                    went.append(seat)
        self.changed(events, *steps, away=went)

    def _bots_move(self) -> None:
        table = self.table
        match = table.match
        if match is None or match.hand_over():
            return
        waiting = match.to_act()
        people = [s for s in waiting if not table.seating[s].botted]
        planned, self.planned = self.planned, None
        for seat in self._bots_due(waiting, people):
            legal = match.legal_actions(seat)
            if not legal:
                continue
            if planned is not None and planned[0] == seat and planned[1] in legal:
                action = planned[1]
            else:
                action = match.bot_action(seat, table.rng, self._level(seat))
            if match.timeout_ms() is not None and action == match.default_action(seat):
                continue  # in a window a bot says nothing: the window's time passes for it
            if table.sealed is not None and table.sealed.host_move(seat, action):
                return  # a card of the host's seat at a sealed table: it went out with its keys
            try:
                events = match.apply(seat, action)
            except IllegalAction:
                log.exception("table %s: the bot's %s was refused; it plays the default", table.id, action)
                action = match.default_action(seat)
                events = match.apply(seat, action)
            self.changed(events, ("act", seat, action_entry(action)))
            return  # one bot move at a time, so people can follow
        self.schedule()
