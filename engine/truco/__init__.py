"""The truco family: truco paulista (RULES.md §3) and truco argentino (RULES.md §4).

What both games share lives once here: tricks and their ties (``tricks``), the call,
answer and raise ladder that truco, envido and flor all climb (``ladder``), what the
envido and the flor are worth (``envido``, ``flor``), signals between partners
(``signals``), the base both games subclass (``base``), and the records a screen and a
log read (``views``, ``events``; the messages of ``truco.proto``).

Each game keeps its rules data, its state and its game apart, so that no module imports
the module that imports it: ``paulista_rules`` ← ``paulista_state`` ← ``paulista_view``
← ``paulista``; ``argentino_rules`` ← ``argentino_state`` ← the bets played on it
(``argentino_envido``, ``argentino_flor``) and what may be done (``argentino_checks``) ←
``argentino_view`` ← ``argentino``.
"""
