"""The truco family: truco paulista (docs/rules.md §3) and truco argentino (docs/rules.md §4).

What both games share lives once here: tricks and their ties (``tricks``), the call,
answer and raise ladder that truco, envido and flor all climb (``ladder``), what the
envido and the flor are worth (``envido``, ``flor``), signals between partners
(``signals``), the base both games subclass (``base``), and the records a screen and a
log read (``views``, ``events``; the messages of ``truco.proto``).

Each game has its folder, ``paulista/`` and ``argentino/``, and keeps its rules data, its
state and its game apart there, so that no module imports the module that imports it:
``paulista.rules`` ← ``paulista.state`` ← ``paulista.view`` ← ``paulista.game``;
``argentino.rules`` ← ``argentino.state`` ← the bets played on it (``argentino.envido``,
``argentino.flor``) and what may be done (``argentino.checks``) ← ``argentino.view`` ←
``argentino.game``.
"""

from cardtui.engine.truco import family

__all__ = ["family"]
