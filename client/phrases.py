"""Quick phrases at a table: a short list, each sent with one key once the list is open (``!``).

A phrase goes on the wire as its number (table.proto's ``Phrase``), never as words, so each reader
sees it in their own language; it follows the chat's rules (at truco paulista, players keep silent
during a hand). None of them says anything about anyone's cards: no phrase can carry a signal.
The list a player picks from is ``client.screens.phrase``; here are the phrases and their words,
which the table's log reads too.
"""

from __future__ import annotations

from cardtui.client import gamebook
from cardtui.i18n import N_, _
from cardtui.v1 import table_pb2

P = table_pb2
PHRASES: dict[int, str] = {
    P.PHRASE_GOOD_GAME: N_("Good game"),
    P.PHRASE_TRUCO: "Truco!",  # the game's own word, in every language
    P.PHRASE_WELL_PLAYED: N_("Well played"),
    P.PHRASE_HURRY_UP: N_("Hurry up"),
    P.PHRASE_OOPS: N_("Oops"),
}
"""Each phrase's words, looked up in the reader's language when shown."""
TRUCO_ONLY = frozenset({P.PHRASE_TRUCO})
"""Phrases only the games that name them offer (``ClientGame.phrases``)."""


def phrase_text(phrase: int) -> str:
    """A phrase in the reader's language (its number, if this client does not know it)."""
    words = PHRASES.get(phrase)
    return _(words) if words is not None else f"#{phrase}"


def offered(game: str) -> list[int]:
    """The phrases a table offers, in the order of their keys: "Truco!" only where truco is played."""
    known = gamebook.find(game)
    own = known.phrases if known is not None else frozenset()
    return [p for p in PHRASES if p not in TRUCO_ONLY or p in own]
