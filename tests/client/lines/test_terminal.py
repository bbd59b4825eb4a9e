"""The line mode on a real terminal (a pty): the typing is echoed by the line mode, a sentence that comes while
a line is half typed is said on a line of its own and the half line written again after it, so the player types
on at the end of the input line; a password is never echoed; the terminal is as it was at the end."""

from __future__ import annotations

import asyncio
import os
import termios
from collections.abc import Iterator

import pytest

from cardtui.client.lines.terminal import TerminalLines
from tests.waiting import eventually


@pytest.fixture
def pty() -> Iterator[tuple[int, int]]:
    keys, terminal = os.openpty()
    try:
        yield keys, terminal
    finally:
        os.close(keys)
        os.close(terminal)


class Screen:
    """What the line mode wrote, as the terminal's reader receives it."""

    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> int:
        self.data += data
        return len(data)

    def flush(self) -> None:
        pass

    @property
    def text(self) -> str:
        return self.data.decode()


async def test_a_sentence_comes_while_a_line_is_half_typed_and_the_line_comes_back_after_it(
        pty: tuple[int, int]) -> None:
    keys, terminal = pty
    before = termios.tcgetattr(terminal)
    screen = Screen()
    with os.fdopen(os.dup(terminal), "rb", buffering=0) as stdin:
        lines = TerminalLines(stdin, screen)  # type: ignore[arg-type]
        reading = asyncio.ensure_future(lines.read())
        await eventually(lambda: lines.typing is not None, "the terminal read a key at a time")
        assert not termios.tcgetattr(terminal)[3] & (termios.ICANON | termios.ECHO)
        os.write(keys, b"sa")
        await eventually(lambda: screen.text == "sa", "the typing echoed by the line mode")
        lines.write("bea calls truco.")
        assert screen.text == "sa\nbea calls truco.\nsa", "the half line again after the sentence"
        os.write(keys, b"y x\x7fhola\r")
        assert await reading == "say hola"
        assert screen.text.endswith("sa\nbea calls truco.\nsay x\b \bhola\n")

        secret = asyncio.ensure_future(lines.read(secret=True))
        await eventually(lambda: lines.typing is not None and lines.typing.secret, "a password asked")
        shown = len(screen.data)
        os.write(keys, b"s3cret\r")
        assert await secret == "s3cret"
        assert "s3cret" not in screen.text and screen.text[shown:] == "\n", "a password is never echoed"
        lines.close()
    assert termios.tcgetattr(terminal) == before, "the terminal as it was"
