"""A game from outside the package (the tests' own, ``tests/games/highcard``) in the line mode: a hand of it played
by numbers, from the sentences alone, in memory (the game registered in this process) and through ``cardtui connect
--screen-reader`` itself in a terminal (told of the game by ``CARDTUI_GAMES``, as the server is)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pexpect

from cardtui.server.app import Running
from tests.client.lines.listener import Listener, spawned
from tests.client.lines.test_by_ear import EYE_ONLY, markers
from tests.client.lines.test_command import END, PATIENCE
from tests.games import highcard

ROOT = Path(__file__).resolve().parents[3]


async def test_a_hand_of_a_game_from_one_folder_by_ear(game_server: Running, test_game: str) -> None:
    """The player makes a table of the game with bots (``new`` and its name, ``change``, the fewest players, enter
    for the rest), sits, answers each turn by its first number, and hears the hand end, its deal checked fair, and
    the next begin."""
    turn, second, over, fair = markers("en")
    player = Listener(f"127.0.0.1:{game_server.port}")
    player.start()
    heard = player.heard
    await heard.until(lambda s: "127.0.0.1" in s, "the welcome")
    heard.type(f"new {test_game}")
    await heard.until(lambda s: "High card" in s and s.endswith("or cancel."), "the table described")
    heard.type("change")
    n = await heard.until(lambda s: "?" in s, "how many players")
    heard.type(re.findall(r"\d+", heard.said[n])[0])
    while not heard.said[n := await heard.until(lambda s: s.startswith("You sit at") or "enter" in s,
                                                "the next question", n + 1)].startswith("You sit at"):
        heard.type("")
    end = await player.play_until(lambda s: second(s) or over(s), turn,
                                  "the second hand, or the match's end")
    assert await player.stop() == 0
    said = heard.said[:end + 1]  # the first hand's end, with its pot's winner, or the second's start
    assert any(n in heard.turns for n in range(len(said))), "the player had a turn"
    assert any(" wins " in s or s.startswith("You win ") for s in said), ("the pot's winner said", said[-20:])
    assert any(fair in s for s in heard.said), f"no fair deal heard in {heard.said[-20:]}"
    for line in heard.raw:
        found = EYE_ONLY.findall(line.replace("\a", "").removesuffix("\n"))
        assert not found, f"drawn for the eye: {found} in {line!r}"


NUMBERED = r"Your turn: [^\r\n]*?, (?:\w+ )?(\d+)[;.]"
"""A turn said with its choices' numbers (enter says them): the first one's."""


def play_a_hand(port: int, home: Path) -> str:
    """The command, told of the game by ``CARDTUI_GAMES``: a table of it made by its questions, turns answered by
    number until the second hand begins; the transcript."""
    child, transcript = spawned(port, home, {"CARDTUI_GAMES": highcard.MODULE, "PYTHONPATH": str(ROOT)})
    try:
        child.expect("Type help for the commands")
        child.sendline(f"new {highcard.NAME}")
        child.expect("Press enter to create it")
        child.sendline("change")
        child.expect(r"How many players\? (\d+)")
        child.sendline(child.match.group(1))
        while child.expect([r"enter keeps[^\r\n]*|enter for none\.", r"You sit at"]) == 0:
            child.sendline("")
        while True:
            seen = child.expect([NUMBERED, r"for example (\d+ \d+)\.", END, r"The match is over|again, swap or leave\?",
                                 r"\a[^\r\n]*\r?\n"],
                                timeout=4 * PATIENCE)
            if seen == 4:
                # The bell, and the turn it rings for (a hand's later turns are said by their choices alone): its
                # first choice's number if said, or enter, which says every number.
                numbered = re.search(NUMBERED, child.match.group(0))
                child.sendline(numbered.group(1) if numbered else "")
                continue
            if seen >= 2:
                break
            child.sendline(child.match.group(1))
        if seen == 2:
            child.expect("Fair deal", timeout=PATIENCE)  # the first hand's check, said after its end
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    return transcript.getvalue()


async def test_a_hand_of_a_game_from_one_folder_through_the_command(game_server: Running, tmp_path: Path) -> None:
    """Without the game's client facts the command would play on but could not check the deal ("does not know how
    highcard deals"): told of it, its client checks it as any game's."""
    transcript = await asyncio.to_thread(play_a_hand, game_server.port, tmp_path / "config")
    assert "High card" in transcript
    assert " wins " in transcript or "You win " in transcript, "the pot's winner said"
    assert "Fair deal." in transcript
    assert "Time is up" not in transcript, "a turn went unanswered and the table played it"
