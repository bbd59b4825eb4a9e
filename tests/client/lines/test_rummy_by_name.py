"""By ear at Pif Paf and Cacheta, verbose: the discards said briefly (the word once, the cards in order), a card
discarded by its name in the reader's language, and the meld hint of a card named.

A real server on 127.0.0.1 (port 0); the line mode with its lines in memory (``listener``).
"""

from __future__ import annotations

import re

import pytest

from cardtui.i18n import _, speaking
from cardtui.server.app import Running
from tests.client.lines.listener import Listener
from tests.client.lines.test_by_ear import EYE_ONLY, LANGUAGES, markers, sit
from tests.per_game import declared

GAME = next(name for name, tests in declared().items() if tests.by_name)
"""The game the test sits at: the one whose own tests say so (``GameTests.by_name``)."""


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_card_is_discarded_by_its_name_and_hinted(patient_server: Running, lang: str) -> None:
    turn = markers(lang)[0]
    with speaking(lang):
        run = _("{action}, {low} to {high}, in this order: {cards}").split("{cards}")[0].split("{high}")[1]
        player = Listener(f"127.0.0.1:{patient_server.port}")
        player.start()
        heard = player.heard
        await heard.until(lambda s: "127.0.0.1" in s, "the welcome")
        heard.type(_("verbose"))  # the discards in order, each named, and the player's own discard said back
        # The fewest players and the shortest claim window: the player's first discard comes after one bot's, not
        # after three bots' turns, each with the usual window of 2.5 s after its discard.
        await sit(heard, GAME, lang, _("new"))
        n = await player.play_until(lambda s: s.startswith(turn) and run in s, turn, "a turn to discard", full=True)
        said = heard.said[n]
        first = re.split(r"[,;.]", said.split(run, 1)[1])[0].strip()
        heard.type(f"{_('hint')} {first}")
        hint = _("Meld hint, {card}:").split("{card}")[0]
        await heard.until(lambda s: s.startswith(hint) and first in s, "the hint", n)
        heard.type(f"{_('discard')} xyz")
        await heard.until(lambda s: s == _("{card} is not a card you may discard now.").format(card="xyz"),
                          "a name that is no card, said", n)
        heard.type(f"{_('discard')} {first}")
        gone = _("You discard {card}.").format(card=first)
        await heard.until(lambda s: s == gone, "the card named, discarded", n)
        assert await player.stop() == 0
    for line in heard.said:
        assert not EYE_ONLY.findall(line), f"drawn for the eye: {line!r}"
