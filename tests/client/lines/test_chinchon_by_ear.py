"""Chinchón by ear: a whole match played from the sentences alone (``tests/client/lines/test_by_ear.py`` hears
every game's hand)."""

from __future__ import annotations

import re

from cardtui.client.fairness import Standing
from cardtui.client.lines.narration import SHORT_STANDINGS
from cardtui.server.app import Running
from tests.client.lines.listener import Listener
from tests.client.lines.test_by_ear import markers, own_total, sit


async def test_a_whole_chinchon_match_by_ear(patient_server: Running) -> None:
    """A whole match by ear, at the usual options (out past 100 points): the player plays each turn by number from
    the sentences alone, hand after hand, until the match is over; every hand's result says the player's own total
    and every deal is heard checked fair."""
    turn, _second, over, fair = markers("en")
    player = Listener(f"127.0.0.1:{patient_server.port}")
    player.start()
    heard = player.heard
    await heard.until(lambda s: "127.0.0.1" in s, "the welcome")
    n = await sit(heard, "chinchon", "en")
    end = await player.play_until(over, turn, "the match's end", after=n)
    await heard.until(lambda s: "win the match" in s or "wins the match" in s, "who won the match", n)
    assert await player.stop() == 0
    said = heard.said[n:end + 1]
    hands = sum(s.startswith("New hand: ") for s in said)  # each hand the player is in
    results = [s for s in said if own_total("en").search(s)]
    others = {v for k, v in SHORT_STANDINGS.items() if k is not Standing.FAIR}
    assert hands >= 1 and any(s.startswith(fair) for s in said), (hands, said[-20:])  # then silence: each fair too
    assert not [s for s in heard.said[n:] if s in others or "does not check out" in s], said
    assert len(results) >= hands, f"{hands} hands, {len(results)} results with the player's own total: {said}"
    # someone goes out, said in the hand's result with their total: the player ("you 116, out"), another by name
    # ("bot 4 has 119, out"); neither has a sentence of its own besides
    assert any("out of the match" in s or re.search(r"\d+, out\b", s) for s in said), said[-20:]
