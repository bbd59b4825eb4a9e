"""``cardtui connect --screen-reader`` itself, in a terminal (a pty): a hand of Cacho played by a script that
reads only what the command prints, and what it prints holds nothing drawn for the eye.

The server runs in the test's event loop (127.0.0.1, port 0); the command is a real process, driven through
pexpect in a thread of its own so that the server goes on serving while the script waits on the terminal.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pexpect

from cardtui.server.app import Running
from tests.client.lines.listener import spawned
from tests.client.lines.test_by_ear import EYE_ONLY

PATIENCE = 60
END = r"Hand 2[.:]|\bwins? \d+\."
"""The first hand's end: its pot's winner ("You win 6.", "bot 2 wins 4."), as terse says it at Cacho (the next hand's
number is not said), or the second hand's number (verbose)."""


def play_a_hand(port: int, home: Path) -> str:
    """The command, a table created by its questions, turns answered by number until the second hand begins;
    the transcript."""
    child, transcript = spawned(port, home)
    try:
        child.expect("Type help for the commands")
        child.sendline("new cacho")
        child.expect("Press enter to create it")
        child.sendline("change")
        child.expect(r"How many players\? (\d+)")
        child.sendline(child.match.group(1))
        while child.expect([r"enter keeps[^\r\n]*|enter for none\.", r"You sit at"]) == 0:
            child.sendline("")
        while True:
            seen = child.expect([r"Your turn: 1", r"for example (\d+ \d+)\.", END, r"The match is over",
                                 r"Your turn[.,]"], timeout=4 * PATIENCE)
            if seen == 4:
                child.sendline("")  # the turn alone (terse): enter says its choices
                continue
            if seen >= 2:
                break
            child.sendline("1" if seen == 0 else child.match.group(1))
        child.sendline("hand")
        if seen == 2:
            child.expect("Fair deal", timeout=PATIENCE)  # the first hand's check, said after its end
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    return transcript.getvalue()


async def test_a_hand_of_cacho_through_the_command_in_a_terminal(patient_server: Running, tmp_path: Path) -> None:
    transcript = await asyncio.to_thread(play_a_hand, patient_server.port, tmp_path / "config")
    assert "Fair deal." in transcript
    assert "\a" in transcript, "the bell never sounded at a turn"
    typed = {"new cacho", "change", "hand", "quit"}
    for line in transcript.replace("\r\n", "\n").split("\n"):
        if line.strip() in typed or re.fullmatch(r"\d+( \d+)?", line.strip()):
            continue  # the terminal's echo of what was typed
        found = EYE_ONLY.findall(line.replace("\a", ""))
        assert not found, f"drawn for the eye: {found} in {line!r}"


async def test_a_table_is_named_by_its_place_in_the_list_or_by_its_id_even_an_id_of_digits_alone() -> None:
    """Table ids are hex: some are all digits ("78485025"), and must not be taken for a place in the list."""
    from cardtui.client.lines.loop import LineRoom, Start
    from tests.client.lines.listener import Heard

    heard = Heard()
    room = LineRoom(Start("127.0.0.1:1", own_config=False), heard)
    room.listed = ["a1b2c3d4", "78485025", "0f0f0f0f"]
    assert room.lobby.table_id("2") == "78485025"
    assert room.lobby.table_id("78485025") == "78485025"
    assert room.lobby.table_id("0f0f0f0f") == "0f0f0f0f"
    assert room.lobby.table_id("4") is None and heard.said[-1].startswith("Which table?")
