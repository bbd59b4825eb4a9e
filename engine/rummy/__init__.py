"""The rummy family: Pif Paf (docs/rules.md §1) and Cacheta (docs/rules.md §2).

What the games share lives once here: the hand dealt, drawn, discarded, claimed and knocked (``base``), the
records a screen and a log read (``records``; the messages of ``rummy.proto``), the meld search (``melds``, with
the hints a player asks for, ``meld_hints``, and the exhaustive search the tests hold it to, ``meld_reference``).
Each game is a module that says only what differs (``pifpaf``, ``cacheta``); the bots of every level and the
search behind the hard ones and the analysis are in ``bots/``.
"""

from cardtui.engine.rummy import family

__all__ = ["family"]
