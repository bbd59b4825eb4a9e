"""A player who reads only what the line mode says: sentences in, lines out, in memory.

``Heard`` stands where the terminal would: the line mode writes its sentences into it and reads the lines the
test types. ``Listener`` plays a seat by those sentences alone: at each "Your turn: 1 …, 2 …" it answers the
first choice (a turn said without its choices, "Your turn.", it asks for them first, with enter), and when the
line mode asks which amount or which kind (its sentence ends with an example such as "for example 3 1"), it
answers with that example. Every wait is for a sentence, bounded only so that a broken test ends with words.
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

from cardtui.client.lines.loop import LineRoom, Start
from cardtui.i18n import _
from cardtui.identity import Identity
from tests.waiting import PATIENCE

EXAMPLE = re.compile(r"(\d+ \d+)\.$")
FIRST = re.compile(r"\d+")
"""The first number a turn offers: numbers are the actions' own (a card's place, a kind's number), not 1 onwards."""
"""The example an answer needing more ends with ("… for example 3 1.")."""


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
        async def look() -> int:
            seen = after
            while True:
                for n in range(seen, len(self.said)):
                    if ok(self.said[n]):
                        return n
                seen = len(self.said)
                self.changed.clear()
                await self.changed.wait()

        try:
            return await asyncio.wait_for(look(), seconds)
        except TimeoutError:
            tail = "\n".join(self.said[-15:])
            raise AssertionError(f"never heard {what}; the last sentences:\n{tail}") from None


class Listener:
    """The line mode on a real server, and a player at it who answers by what it hears."""

    def __init__(self, target: str, name: str = "ana", identity: Identity | None = None) -> None:
        self.heard = Heard()
        self.room = LineRoom(Start(target, name, bell=True, own_config=False, identity=identity), self.heard)
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

    async def play_until(self, done: Callable[[str], object], turn: str, what: str, answer: str = "") -> int:
        """Answer every turn (a sentence starting with ``turn``) with ``answer`` (by default the first number the
        turn offers), and any question for more with its example, until a sentence ``done`` holds for; its
        index."""
        heard = self.heard
        seen = 0
        brief = brief_turn()
        drew = drew_turn()
        asked = False
        while True:
            # A hand the bots play on alone (the player folded) may take long: the bound is a hand's, not a move's.
            n = await heard.until(lambda s: done(s) or s.startswith((turn, *brief)) or drew.fullmatch(s)
                                  or EXAMPLE.search(s), what, seen, seconds=4 * PATIENCE)
            said = heard.said[n]
            seen = n + 1
            if done(said):
                return n
            example = EXAMPLE.search(said)
            offered = FIRST.search(said[len(turn):]) if said.startswith(turn) else None
            if (said.startswith(brief) and not said.startswith(turn)) or drew.fullmatch(said) or (
                    said.startswith(turn) and not offered and not answer):
                heard.type("")  # a turn without its numbers ("Your turn.", "Your turn: draw."): enter says them
                asked = True
                continue
            if asked and said.startswith(turn):
                self.replies.append(n)
                asked = False
            heard.type(example.group(1) if example and not said.startswith(turn) else answer or (
                offered.group(0) if offered else "1"))


def brief_turn() -> tuple[str, ...]:
    """How the terse level's turn without its choices begins, in the reader's language: alone, or with the hand."""
    return _("Your turn."), _("Your turn, with {cards}.").split("{")[0]


def drew_turn() -> re.Pattern[str]:
    """The terse turn that discards after a draw from the stock, with the card drawn ("You draw 4 clubs, number 5;
    discard."), in the reader's language."""
    template = re.escape(_("You draw {card}, number {n}; {choices}."))
    return re.compile(template.replace(r"\{card\}", ".+?").replace(r"\{n\}", r"\d+").replace(r"\{choices\}", ".+"))


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
