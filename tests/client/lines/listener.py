"""A player who reads only what the line mode says: sentences in, lines out, in memory.

``Heard`` stands where the terminal would: the line mode writes its sentences into it and reads the lines the
test types. ``Listener`` plays a seat by those sentences alone: at each turn it asks for every choice's number
(enter; at the verbose level the turn says them) and answers the first choice, and when the line mode asks which
amount or which kind (its sentence ends with an example such as "for example 3 1"), it answers with that
example. Every wait is for a sentence, bounded only so that a broken test ends with words.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect

from cardtui.client.lines.loop import LineRoom, Seat, Start
from cardtui.client.turn_bell import my_turn
from cardtui.identity import Identity
from tests.waiting import PATIENCE

EXAMPLE = re.compile(r"(\d+ \d+)\.$")
"""The example an answer needing more ends with ("… for example 3 1.")."""
FIRST = re.compile(r", (?:\w+ )?(\d+)")
"""The first choice's number in a turn said with every number ("Quiero, 5; ...", "play, 1 to 3, in this order:
...", "Bet 2, number 3"): numbers are the actions' own (a card's place, a kind's number), not 1 onwards."""


class Heard:
    """The line mode's terminal, in memory."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.typed: asyncio.Queue[str | None] = asyncio.Queue()
        self.rung = 0
        self.raw: list[str] = []
        """Everything written, control characters included (the bell)."""
        self.changed = asyncio.Event()
        self.secrets = 0
        """Lines read as passwords (not echoed)."""
        self.turns: set[int] = set()
        """The sentences the line mode said as a turn of the player's (a hand's later turns are said by their
        choices alone: a turn is known by being said as one, not by its words)."""

    async def read(self, secret: bool = False) -> str | None:
        self.secrets += secret
        return await self.typed.get()

    def write(self, text: str) -> None:
        self.said.append(text)
        self.raw.append(text + "\n")
        self.changed.set()

    def bell(self) -> None:
        self.rung += 1
        self.raw.append("\a")
        self.changed.set()

    def type(self, line: str) -> None:
        self.typed.put_nowait(line)

    async def until(self, ok: Callable[[str], object], what: str, after: int = 0,
                    seconds: float = PATIENCE) -> int:
        """The index of the first sentence from ``after`` on that ``ok`` holds for."""
        return await self.until_at(lambda n: ok(self.said[n]), what, after, seconds)

    async def until_at(self, ok: Callable[[int], object], what: str, after: int = 0,
                       seconds: float = PATIENCE) -> int:
        """The index of the first sentence from ``after`` on that ``ok`` holds for, given its index."""
        async def look() -> int:
            seen = after
            while True:
                for n in range(seen, len(self.said)):
                    if ok(n):
                        return n
                seen = len(self.said)
                self.changed.clear()
                await self.changed.wait()

        try:
            return await asyncio.wait_for(look(), seconds)
        except TimeoutError:
            tail = "\n".join(self.said[-15:])
            raise AssertionError(f"never heard {what}; the last sentences:\n{tail}") from None


class HeardRoom(LineRoom):
    """The line mode, noting which of its sentences it says as a turn of the player's."""

    def __init__(self, start: Start, heard: Heard) -> None:
        super().__init__(start, heard)
        self.ears = heard

    def _say_turn(self, at: Seat, again: bool = False, with_hand: bool = False) -> None:
        before = len(self.ears.said)
        super()._say_turn(at, again, with_hand)
        self.ears.turns.update(range(before, len(self.ears.said)))
        if len(self.ears.said) == before and not again and my_turn(at.model):
            self.ears.type("")  # a turn rung in by the bell alone: the player asks for its choices (enter)


class Listener:
    """The line mode on a real server, and a player at it who answers by what it hears."""

    def __init__(self, target: str, name: str = "ana", identity: Identity | None = None) -> None:
        self.heard = Heard()
        self.room = HeardRoom(Start(target, name, bell=True, own_config=False, identity=identity), self.heard)
        self.task: asyncio.Task[int] | None = None
        self.replies: list[int] = []
        """The sentences said because the player asked (enter, at a turn said without its numbers): not the
        table's narration."""

    def start(self) -> None:
        self.task = asyncio.create_task(self.room.run())

    async def stop(self) -> int:
        self.heard.type("quit")
        assert self.task is not None
        return await asyncio.wait_for(self.task, PATIENCE)

    async def play_until(self, done: Callable[[str], object], turn: str, what: str, answer: str = "",
                         full: bool = False, after: int = 0) -> int:
        """Answer every turn with ``answer`` (by default the first choice's number), and any question for more with
        its example, until a sentence ``done`` holds for; its index. A turn said at the terse level names its
        choices by their words (their numbers said once a table): the player presses enter for every number and
        answers from that; ``full`` (the verbose level), every turn says every number, answered at once. ``after``:
        the sentences before this one were heard already."""
        heard = self.heard
        seen = after
        asked = False
        while True:
            # A hand the bots play on alone (the player folded) may take long: the bound is a hand's, not a move's.
            n = await heard.until_at(lambda n: done(heard.said[n]) or n in heard.turns
                                     or EXAMPLE.search(heard.said[n]), what, seen, seconds=4 * PATIENCE)
            said = heard.said[n]
            seen = n + 1
            if done(said):
                return n
            example = EXAMPLE.search(said)
            if example and n not in heard.turns:
                heard.type(example.group(1))
                continue
            if not (full or asked):
                heard.type("")  # enter: the turn with every choice's number
                asked = True
                continue
            if asked:
                self.replies.append(n)
                asked = False
            offered = FIRST.search(said.split("; ")[0])
            heard.type(answer or (offered.group(1) if offered else "1"))


def spawned(port: int, home: Path, env: dict[str, str] | None = None) -> tuple[pexpect.spawn, io.StringIO]:
    """``cardtui connect --screen-reader`` on a real terminal (80x24), as the guest ana, in English, its config in
    ``home`` (and ``env`` added to its environment); and the transcript of what it says."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(home), "CARDTUI_LANG": "en", "NO_COLOR": "1", **(env or {})}
    transcript = io.StringIO()
    child = pexpect.spawn(sys.executable, ["-m", "cardtui.cli", "connect", f"127.0.0.1:{port}", "--screen-reader",
                                           "--guest", "--name", "ana"],
                          env=env, encoding="utf-8", timeout=PATIENCE, dimensions=(24, 80))
    child.logfile_read = transcript
    return child, transcript
