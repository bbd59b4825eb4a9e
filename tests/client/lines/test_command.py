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
END = r"Hand 2[.:]|\bwins? \d+[ ;]"
"""The first hand's end: its pot's result ("You win 6; you 26, …", "bot 2 wins 4 with cacho (33); …"), as terse says
it at Cacho (the next hand's number is not said), or the second hand's number (verbose)."""


NUMBERED = r"Your turn: [^\r\n]*?, (?:\w+ )?(\d+)[;.]"
"""A turn said with its choices' numbers (enter says them): the first one's."""


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
    assert "Time is up" not in transcript, "a turn went unanswered and the table played it"
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


def test_the_review_keys_are_one_capital_letter_each_the_same_at_every_game_and_never_an_action() -> None:
    """T, S and C ask (the turn, the score, the table), a number and a question mark asks for a card; a lower-case
    letter is an action's key at a game and is never taken as one of them. The players' guide lists the same."""
    from cardtui.client import gamebook
    from cardtui.client.lines.commands import COMMANDS, keyed

    keys = {c.key: c.name for c in COMMANDS if c.key}
    assert keys == {"T": "turn", "S": "score", "C": "table"}
    for game in gamebook.GAMES.values():
        assert not set(keys) & set(game.keys.values()), f"{game.name}: a review key is an action's"
    for key, name in keys.items():
        said = keyed(key, at_table=True)
        assert said is not None and said.command is not None and said.command.name == name
        assert keyed(key.lower(), at_table=True) is None, "lower case is an action's key"
    card = keyed("3?", at_table=True)
    assert card is not None and card.command is not None and card.command.name == "card" and card.rest == "3"
    guide = (Path(__file__).resolve().parents[3] / "docs" / "players.md").read_text(encoding="utf-8")
    section = guide.split("\n## By ear\n", 1)[1]
    rows = {line.split("|")[1].strip().strip("`") for line in section.splitlines() if line.startswith("| `")}
    assert set(keys) | {"3?"} <= rows, rows


def test_score_turn_and_a_card_by_its_place_are_one_line_each() -> None:
    """``score``: every side's total, the player's first; ``card N``: the card a number plays, its place a word
    where the hand has gaps; never two numbers in a row."""
    from cardtui.client.lines.reading import runs_of_numbers
    from cardtui.client.lines.sentences import card_at, hand_words
    from cardtui.client.shape import score_said
    from cardtui.v1 import common_pb2, rummy_pb2, table_pb2

    names = ["ana", "bot 2", "caio"]
    summary = common_pb2.TableSummary(id="t", game="pifpaf", seats=[
        common_pb2.SeatSummary(seat=n, name=name, taken=True) for n, name in enumerate(names)])
    view = table_pb2.View(hand=1, seats=summary.seats)
    view.rummy.seats.extend([rummy_pb2.RummySeat(seat=n, score=s) for n, s in enumerate([18, 25, 17])])
    view.rummy.cards.extend(["2C", "5H", "KD"])
    view.rummy.pot = 6
    from cardtui.client.models import TableModel

    model = TableModel(summary, 2).with_view(view, 1)
    said = score_said(model)
    assert said == "You 17, ana 18, bot 2 has 25 (chips). The pot holds 6.", said
    assert card_at(model, 2) == "Card 2 is 5 of hearts."
    assert card_at(model, 7).startswith("You hold no card 7")
    truco = TableModel(common_pb2.TableSummary(id="t", game="truco_argentino", seats=summary.seats), 0)
    tview = table_pb2.View(hand=1, seats=summary.seats)
    tview.truco.cards.extend(["1e", "3c"])
    truco = truco.with_view(tview, 1)
    slots: list[str | None] = ["1e", None, "3c"]
    assert card_at(truco, 2, slots) == "Card 2 was played."
    assert hand_words(truco, slots) == "You hold first: ace of swords; third: 3 of cups."
    for line in (said, card_at(model, 2), hand_words(truco, slots), hand_words(model)):
        assert not runs_of_numbers(line), line
